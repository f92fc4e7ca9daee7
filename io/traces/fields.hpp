// What the trace readers (io/traces/<format>.cpp) share: a malformed line as
// an error naming its field, number and time fields, events checked for time
// order as they arrive, the lines of a file with located errors or counted
// skips, and delimited columns named or numbered.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/base/errors.hpp"
#include "io/line_reader.hpp"
#include "io/request_trace.hpp"
#include "io/trace.hpp"

namespace gs {

constexpr std::size_t kBadLineExamples = 5;
constexpr double kSectorBytes = 512.0;

// A malformed line: what was expected, and the offending field (for the column).
struct BadLine {
  std::string message;
  std::string_view field;
};

bool starts_with(std::string_view text, std::string_view prefix);

double number_field(std::string_view field, const char* what);

double non_negative_field(std::string_view field, const char* what);

double time_scale(TimeUnit unit);

// A time field in `unit`; hh:mm:ss[.f] (a time of day, as LANL-Trace and
// PIONEER's traces print) is accepted where `time_of_day` is set.
double time_field(std::string_view field, TimeUnit unit, bool time_of_day = false);

// Appends `time` to `times` in time order: an earlier time than the last one is
// a bad line, or (with sorting allowed) counted in `reordered` and sorted later.
void append_time(std::vector<double>& times, double time, std::string_view field, bool sort, std::uint64_t& reordered);

// The stable order of `times`, and a vector rearranged into it.
std::vector<std::size_t> time_order(const std::vector<double>& times);

template <class T>
void permute(std::vector<T>& values, const std::vector<std::size_t>& order) {
  if (values.empty()) return;
  const std::vector<T> copy = values;
  for (std::size_t i = 0; i < order.size(); ++i) values[i] = copy[order[i]];
}

// The value of a header line "KEY value", trimmed; nothing when `content` is another line.
std::optional<std::string_view> header_value(std::string_view content, std::string_view key);

// "FILE: MODULE" where `content` is darshan's "# *WARNING*: The MODULE module
// contains incomplete data!" (the runtime ran out of memory for records: the
// log holds only part of the job's I/O in that module), else nothing.
std::optional<std::string> incomplete_darshan_module(std::string_view content, const std::string& path);

// The entry of Trace::incomplete_modules for `module` of the log at `path` ("FILE: MODULE").
std::string incomplete_module_entry(const std::string& path, std::string_view module);

// Events of one file, checked as they arrive: time order unless sorting was asked for.
class EventSink {
 public:
  EventSink(Trace& trace, bool sort) : trace_(trace), sort_(sort) {}

  void add(double time, std::string_view field, Operation op, double size, double duration) {
    append_time(trace_.times, time, field, sort_, trace_.reordered);
    ops_.push_back(op);
    sizes_.push_back(size);
    durations_.push_back(duration);
  }

  // Keeps the columns the format gives; the others stay empty.
  void finish(bool has_ops, bool has_sizes, bool has_durations) {
    if (has_ops) trace_.ops = std::move(ops_);
    if (has_sizes) trace_.sizes = std::move(sizes_);
    if (has_durations) trace_.durations = std::move(durations_);
  }

 private:
  Trace& trace_;
  bool sort_;
  std::vector<Operation> ops_;
  std::vector<double> sizes_, durations_;
};

// PIONEER's 7 fields (io/request_trace.hpp): six fields split at `delimiter` (0:
// spaces and tabs), the rest of the line is extra, commas and all. Fewer than
// seven fields is a BadLine.
PioneerFields split_pioneer_line(std::string_view line, char delimiter);

// A PIONEER offset or size: a non-negative number, or NULL (kUnknown).
std::int64_t pioneer_extent(std::string_view field, const char* what);

// Counts a malformed line the reader skips (--skip-bad-lines), keeping the first few messages.
void count_bad_line(Trace& trace, std::string message);

// A line no text trace has: over LineReader::kMaxLineBytes, or with a NUL byte (BadLine).
void check_text_line(std::string_view line, bool too_long);

// Runs `parse_line` on every line that is not blank or a '#' comment (unless
// `keep_comments`), turning BadLine into a located error or a counted skip.
template <class ParseLine>
void for_each_line(const std::string& path, const TraceOptions& options, Trace& trace, bool keep_comments,
                   ParseLine parse_line) {
  LineReader reader(path);
  std::string line;
  while (reader.next(line)) {
    ++trace.lines;
    try {
      check_text_line(line, reader.too_long());
      const std::string_view content = trim(line);
      if (content.empty() || (!keep_comments && content.front() == '#')) continue;
      parse_line(std::string_view(line));
    } catch (const BadLine& bad) {
      int column = 1;
      if (bad.field.data() >= line.data() && bad.field.data() <= line.data() + line.size())
        column = static_cast<int>(bad.field.data() - line.data()) + 1;
      if (!options.skip_bad_lines)
        throw located_error(path, static_cast<int>(reader.line_number()), column, bad.message);
      count_bad_line(trace, fmt::format("{}:{}:{}: {}", path, reader.line_number(), column, bad.message));
    }
  }
}

std::size_t column_index(const std::string& spec, const std::vector<std::string>& header, const std::string& path,
                         const char* option);

std::string_view field_at(const std::vector<std::string_view>& fields, std::size_t index, std::string_view line);

// The op column's values for reads and writes, compared case-insensitively.
class OperationNames {
 public:
  explicit OperationNames(const TraceOptions& options) {
    for (const auto& r : options.read_values) reads_.push_back(lower(r));
    for (const auto& w : options.write_values) writes_.push_back(lower(w));
  }
  Operation classify(std::string_view value) const {
    const std::string v = lower(trim(value));
    if (std::find(reads_.begin(), reads_.end(), v) != reads_.end()) return Operation::read;
    if (std::find(writes_.begin(), writes_.end(), v) != writes_.end()) return Operation::write;
    return Operation::other;
  }

 private:
  std::vector<std::string> reads_, writes_;
};

// Delimited text with named or numbered columns: timestamps, series, counts.
struct Columns {
  char delimiter = 0;
  std::vector<std::string> header;
};

void read_columns(const std::string& path, const TraceOptions& options, Trace& trace,
                  const std::function<void(const Columns&)>& on_layout,
                  const std::function<void(std::string_view, const std::vector<std::string_view>&)>& on_row);

}  // namespace gs
