#include "io/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "host/errors.hpp"
#include "io/line_reader.hpp"

namespace gs {

namespace {

constexpr std::size_t kBadLineExamples = 5;
constexpr double kSectorBytes = 512.0;

const std::vector<std::pair<const char*, TraceFormat>> kFormats = {
    {"timestamps", TraceFormat::timestamps}, {"counts", TraceFormat::counts},  {"series", TraceFormat::series},
    {"darshan", TraceFormat::darshan},       {"dxt", TraceFormat::dxt},        {"blkparse", TraceFormat::blkparse},
    {"disksim", TraceFormat::disksim},       {"pioneer", TraceFormat::pioneer}};

const std::vector<std::pair<const char*, TimeUnit>> kUnits = {{"s", TimeUnit::s},
                                                              {"ms", TimeUnit::ms},
                                                              {"us", TimeUnit::us},
                                                              {"ns", TimeUnit::ns},
                                                              {"iso8601", TimeUnit::iso8601}};

// A malformed line: what was expected, and the offending field (for the column).
struct BadLine {
  std::string message;
  std::string_view field;
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

double number_field(std::string_view field, const char* what) {
  double value = 0;
  if (!parse_number(field, value) || !std::isfinite(value))
    throw BadLine{fmt::format("{} '{}' is not a finite number", what, field), field};
  return value;
}

double non_negative_field(std::string_view field, const char* what) {
  const double value = number_field(field, what);
  if (value < 0) throw BadLine{fmt::format("{} '{}' is negative", what, field), field};
  return value;
}

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {  // proleptic Gregorian, 1970-01-01 = 0
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// YYYY-MM-DD[T ]hh:mm:ss[.fff][Z|±hh:mm] as Unix seconds (no offset: UTC).
std::optional<double> parse_iso8601(std::string_view text) {
  const std::string s(trim(text));
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, consumed = 0;
  double second = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%*1[T ]%2d:%2d:%lf%n", &year, &month, &day, &hour, &minute, &second,
                  &consumed) != 6)
    return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || !(second >= 0 && second < 61))
    return std::nullopt;
  double offset = 0;
  const std::string zone = s.substr(static_cast<std::size_t>(consumed));
  if (!zone.empty() && zone != "Z") {
    int zh = 0, zm = 0;
    char sign = 0;
    if (std::sscanf(zone.c_str(), "%c%2d:%2d", &sign, &zh, &zm) != 3 || (sign != '+' && sign != '-'))
      return std::nullopt;
    offset = (sign == '+' ? 1 : -1) * (zh * 3600.0 + zm * 60.0);
  }
  const double days =
      static_cast<double>(days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)));
  return days * 86400.0 + hour * 3600.0 + minute * 60.0 + second - offset;
}

double time_scale(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::ms:
      return 1e-3;
    case TimeUnit::us:
      return 1e-6;
    case TimeUnit::ns:
      return 1e-9;
    default:
      return 1.0;
  }
}

// A time field in `unit`; hh:mm:ss[.f] (a time of day, as LANL-Trace and
// PIONEER's traces print) is accepted where `time_of_day` is set.
double time_field(std::string_view field, TimeUnit unit, bool time_of_day = false) {
  if (unit == TimeUnit::iso8601) {
    const auto seconds = parse_iso8601(field);
    if (!seconds)
      throw BadLine{fmt::format("timestamp '{}' is not ISO-8601 (YYYY-MM-DDThh:mm:ss[.f][Z|±hh:mm])", field), field};
    return *seconds;
  }
  if (time_of_day && field.find(':') != std::string_view::npos) {
    int hour = 0, minute = 0;
    double second = 0;
    const std::string s(field);
    int consumed = 0;
    if (std::sscanf(s.c_str(), "%d:%d:%lf%n", &hour, &minute, &second, &consumed) != 3 ||
        consumed != static_cast<int>(s.size()) || hour < 0 || minute < 0 || minute > 59 || second < 0 || second >= 61)
      throw BadLine{fmt::format("timestamp '{}' is neither a number nor hh:mm:ss[.f]", field), field};
    return hour * 3600.0 + minute * 60.0 + second;
  }
  const double value = number_field(field, "timestamp");
  if (value < 0) throw BadLine{fmt::format("timestamp '{}' is negative", field), field};
  return value * time_scale(unit);
}

// Appends `time` to `times` in time order: an earlier time than the last one is
// a bad line, or (with sorting allowed) counted in `reordered` and sorted later.
void append_time(std::vector<double>& times, double time, std::string_view field, bool sort, std::uint64_t& reordered) {
  if (!times.empty() && time < times.back()) {
    if (!sort)
      throw BadLine{fmt::format("timestamp '{}' is earlier than the previous event's ({:.9g} s); the trace must be in "
                                "time order (--sort accepts an unordered trace)",
                                field, times.back()),
                    field};
    ++reordered;
  }
  times.push_back(time);
}

// The stable order of `times`, and a vector rearranged into it.
std::vector<std::size_t> time_order(const std::vector<double>& times) {
  std::vector<std::size_t> order(times.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
  return order;
}

template <class T>
void permute(std::vector<T>& values, const std::vector<std::size_t>& order) {
  if (values.empty()) return;
  const std::vector<T> copy = values;
  for (std::size_t i = 0; i < order.size(); ++i) values[i] = copy[order[i]];
}

// The value of a header line "KEY value", trimmed; nothing when `content` is another line.
std::optional<std::string_view> header_value(std::string_view content, std::string_view key) {
  if (!starts_with(content, key)) return std::nullopt;
  return trim(content.substr(key.size()));
}

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

// Runs `parse_line` on every line that is not blank or a '#' comment (unless
// `keep_comments`), turning BadLine into a located error or a counted skip.
template <class ParseLine>
void for_each_line(const std::string& path, const TraceOptions& options, Trace& trace, bool keep_comments,
                   ParseLine parse_line) {
  LineReader reader(path);
  std::string line;
  while (reader.next(line)) {
    ++trace.lines;
    const std::string_view content = trim(line);
    if (content.empty() || (!keep_comments && content.front() == '#')) continue;
    try {
      parse_line(std::string_view(line));
    } catch (const BadLine& bad) {
      int column = 1;
      if (bad.field.data() >= line.data() && bad.field.data() <= line.data() + line.size())
        column = static_cast<int>(bad.field.data() - line.data()) + 1;
      if (!options.skip_bad_lines)
        throw located_error(path, static_cast<int>(reader.line_number()), column, bad.message);
      ++trace.bad_lines;
      if (trace.bad_line_examples.size() < kBadLineExamples)
        trace.bad_line_examples.push_back(fmt::format("{}:{}:{}: {}", path, reader.line_number(), column, bad.message));
    }
  }
}

std::size_t column_index(const std::string& spec, const std::vector<std::string>& header, const std::string& path,
                         const char* option) {
  double number = 0;
  if (parse_number(spec, number)) {
    if (number < 1 || number != std::floor(number))
      throw UserError(fmt::format("{} {}: a column is numbered from 1 (or named, with --header)", option, spec));
    return static_cast<std::size_t>(number) - 1;
  }
  if (header.empty())
    throw UserError(fmt::format("{} '{}' names a column, but {} has no header (pass --header)", option, spec, path));
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == spec) return i;
  std::string names;
  for (const auto& name : header) names += (names.empty() ? "" : ", ") + name;
  throw UserError(fmt::format("{} '{}': {} has no such column (its header: {})", option, spec, path, names));
}

std::string_view field_at(const std::vector<std::string_view>& fields, std::size_t index, std::string_view line) {
  if (index >= fields.size())
    throw BadLine{fmt::format("expected at least {} fields, found {}", index + 1, fields.size()), line};
  return fields[index];
}

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
                  const std::function<void(std::string_view, const std::vector<std::string_view>&)>& on_row) {
  Columns columns;
  columns.delimiter = options.delimiter;
  bool first = true;
  for_each_line(path, options, trace, false, [&](std::string_view line) {
    if (first) {
      first = false;
      if (columns.delimiter == 0) columns.delimiter = detect_delimiter(line);
      if (options.header)
        for (auto name : split_fields(line, columns.delimiter)) columns.header.emplace_back(name);
      on_layout(columns);
      if (options.header) return;
    }
    on_row(line, split_fields(line, columns.delimiter));
  });
}

void read_timestamps(const std::string& path, const TraceOptions& options, Trace& trace) {
  EventSink sink(trace, options.sort);
  const OperationNames operations(options);
  std::size_t time_col = 0;
  std::optional<std::size_t> op_col, size_col;
  read_columns(
      path, options, trace,
      [&](const Columns& c) {
        time_col = column_index(options.time_column, c.header, path, "--column");
        if (!options.op_column.empty()) op_col = column_index(options.op_column, c.header, path, "--op-column");
        if (!options.size_column.empty()) size_col = column_index(options.size_column, c.header, path, "--size-column");
      },
      [&](std::string_view line, const std::vector<std::string_view>& fields) {
        const auto time_text = field_at(fields, time_col, line);
        const double time = time_field(time_text, options.time_unit.value_or(TimeUnit::s));
        const Operation op = op_col ? operations.classify(field_at(fields, *op_col, line)) : Operation::other;
        const double size = size_col ? non_negative_field(field_at(fields, *size_col, line), "size") : 0.0;
        sink.add(time, time_text, op, size, 0.0);
      });
  sink.finish(op_col.has_value(), size_col.has_value(), false);
}

void read_series(const std::string& path, const TraceOptions& options, Trace& trace) {
  std::size_t time_col = 0, value_col = 1;
  read_columns(
      path, options, trace,
      [&](const Columns& c) {
        time_col = column_index(options.time_column, c.header, path, "--column");
        value_col =
            column_index(options.value_column.empty() ? "2" : options.value_column, c.header, path, "--value-column");
      },
      [&](std::string_view line, const std::vector<std::string_view>& fields) {
        const auto time_text = field_at(fields, time_col, line);
        const double time = time_field(time_text, options.time_unit.value_or(TimeUnit::s));
        const double value = number_field(field_at(fields, value_col, line), "value");
        append_time(trace.series_times, time, time_text, options.sort, trace.reordered);
        trace.series_values.push_back(value);
      });
}

void read_counts(const std::string& path, const TraceOptions& options, Trace& trace) {
  std::size_t value_col = 0;
  std::vector<double> counts;
  read_columns(
      path, options, trace,
      [&](const Columns& c) {
        value_col =
            column_index(options.value_column.empty() ? "1" : options.value_column, c.header, path, "--value-column");
      },
      [&](std::string_view line, const std::vector<std::string_view>& fields) {
        counts.push_back(non_negative_field(field_at(fields, value_col, line), "count"));
      });
  trace.binned.bin_width = options.bin_width;
  trace.binned.channels["count"] = std::move(counts);
}

// darshan-dxt-parser: " X_POSIX  rank  read|write  segment  offset  length  start  end  [...]".
void read_dxt(const std::string& path, const TraceOptions& options, Trace& trace) {
  std::vector<std::string> modules;
  for (const auto& m : options.modules) {
    if (m == "POSIX") modules.push_back("X_POSIX");
    if (m == "MPI-IO" || m == "MPIIO") modules.push_back("X_MPIIO");
  }
  EventSink sink(trace, true);  // DXT groups operations by file and rank: sorting is part of the format
  bool seen_header = false;
  for_each_line(path, options, trace, true, [&](std::string_view line) {
    const std::string_view content = trim(line);
    if (content.front() == '#') {
      if (const auto start = header_value(content, "# start_time:")) {
        trace.epoch = number_field(*start, "start_time");
        seen_header = true;
      }
      return;
    }
    const auto fields = split_fields(line, ' ');
    if (!starts_with(fields[0], "X_"))
      throw BadLine{"expected a DXT operation line (X_POSIX or X_MPIIO ...)", fields[0]};
    if (std::find(modules.begin(), modules.end(), fields[0]) == modules.end()) return;
    if (fields.size() < 8)
      throw BadLine{
          fmt::format("expected 8 fields (module rank op segment offset length start end), found {}", fields.size()),
          fields.back()};
    number_field(fields[1], "rank");
    Operation op;
    if (fields[2] == "read")
      op = Operation::read;
    else if (fields[2] == "write")
      op = Operation::write;
    else
      throw BadLine{fmt::format("operation '{}' is neither read nor write", fields[2]), fields[2]};
    non_negative_field(fields[4], "offset");
    const double length = non_negative_field(fields[5], "length");
    const double start = time_field(fields[6], TimeUnit::s);
    const double end = time_field(fields[7], TimeUnit::s);
    if (end < start) throw BadLine{fmt::format("end {} is before start {}", fields[7], fields[6]), fields[7]};
    sink.add(start, fields[6], op, length, end - start);
  });
  if (!seen_header) throw UserError(fmt::format("{}: no '# start_time:' line: not darshan-dxt-parser output", path));
  trace.reordered = 0;
  sink.finish(true, true, true);
}

// blkparse's default output, "dev cpu seq time pid action rwbs sector + sectors [process]",
// or the kernel blk tracer's (the same without the sequence number).
void read_blkparse(const std::string& path, const TraceOptions& options, Trace& trace) {
  EventSink sink(trace, options.sort);
  for_each_line(path, options, trace, false, [&](std::string_view line) {
    const auto fields = split_fields(line, ' ');
    const auto comma = fields[0].find(',');
    if (comma == std::string_view::npos || fields.size() < 6) return;  // blkparse's per-CPU and total summaries
    double major = 0, minor = 0;
    if (!parse_number(fields[0].substr(0, comma), major) || !parse_number(fields[0].substr(comma + 1), minor)) return;
    const std::size_t time_at = fields[2].find('.') != std::string_view::npos ? 2 : 3;
    if (fields.size() < time_at + 4) throw BadLine{"expected dev cpu [seq] time pid action rwbs ...", line};
    const auto action = fields[time_at + 2];
    if (action.size() != 1 || action[0] != options.blk_action) return;
    if (fields.size() < time_at + 7 || fields[time_at + 5] != "+")
      throw BadLine{fmt::format("a {} event needs 'sector + sectors'", options.blk_action), fields.back()};
    const double time = time_field(fields[time_at], TimeUnit::s);
    const auto rwbs = fields[time_at + 3];
    const Operation op = rwbs.find('R') != std::string_view::npos   ? Operation::read
                         : rwbs.find('W') != std::string_view::npos ? Operation::write
                                                                    : Operation::other;
    non_negative_field(fields[time_at + 4], "sector");
    const double sectors = non_negative_field(fields[time_at + 6], "sectors");
    sink.add(time, fields[time_at], op, sectors * kSectorBytes, 0.0);
  });
  sink.finish(true, true, false);
}

// DiskSim/MQSim ASCII: "time device lba sectors flags", flags bit 0 = read.
void read_disksim(const std::string& path, const TraceOptions& options, Trace& trace) {
  EventSink sink(trace, options.sort);
  const TimeUnit unit = options.time_unit.value_or(TimeUnit::ms);
  for_each_line(path, options, trace, false, [&](std::string_view line) {
    const auto fields = split_fields(line, ' ');
    if (fields.size() != 5)
      throw BadLine{fmt::format("expected 5 fields (time device lba sectors flags), found {}", fields.size()), line};
    const double time = time_field(fields[0], unit);
    non_negative_field(fields[1], "device");
    non_negative_field(fields[2], "lba");
    const double sectors = non_negative_field(fields[3], "sectors");
    const double flags = non_negative_field(fields[4], "flags");
    if (flags != std::floor(flags)) throw BadLine{fmt::format("flags '{}' is not an integer", fields[4]), fields[4]};
    const Operation op = (static_cast<std::uint64_t>(flags) & 1u) ? Operation::read : Operation::write;
    sink.add(time, fields[0], op, sectors * kSectorBytes, 0.0);
  });
  sink.finish(true, true, false);
}

// PIONEER's unified trace: timestamp, operation, file, offset, size, execution time, extra.
void read_pioneer(const std::string& path, const TraceOptions& options, Trace& trace) {
  EventSink sink(trace, options.sort);
  const TimeUnit unit = options.time_unit.value_or(TimeUnit::s);
  char delimiter = options.delimiter;
  double day_offset = 0, previous = -1;
  for_each_line(path, options, trace, false, [&](std::string_view line) {
    if (delimiter == 0) delimiter = detect_delimiter(line);
    const auto fields = split_fields(line, delimiter);
    if (fields.size() < 7)
      throw BadLine{
          fmt::format("expected 7 fields (timestamp operation file offset size execution_time extra), found {}",
                      fields.size()),
          line};
    double time = time_field(fields[0], unit, true);
    // A time of day that falls back by more than 12 h crossed midnight.
    if (fields[0].find(':') != std::string_view::npos && previous >= 0 && time + day_offset < previous - 43200)
      day_offset += 86400;
    time += day_offset;
    previous = time;
    const std::string op_name = lower(fields[1]);
    const Operation op = op_name.find("read") != std::string::npos    ? Operation::read
                         : op_name.find("write") != std::string::npos ? Operation::write
                                                                      : Operation::other;
    non_negative_field(fields[3], "offset");
    const double size = non_negative_field(fields[4], "size");
    const double duration = non_negative_field(fields[5], "execution time") * time_scale(unit);
    sink.add(time, fields[0], op, size, duration);
  });
  sink.finish(true, true, true);
}

// --- darshan-parser ---------------------------------------------------------

struct DarshanActivity {  // one direction (read or write) of one record
  double ops = 0, bytes = 0, start = 0, end = 0;
};

struct DarshanRecord {
  DarshanActivity read, write;
};

struct DarshanLog {
  double start_time = 0;  // Unix seconds
  double run_time = 0;
  std::map<std::string, DarshanRecord> records;  // module/rank/record id
};

// Which counter of `module` feeds which field; MPI-IO splits its operation counts four ways.
bool apply_counter(const std::string& module, std::string_view counter, double value, DarshanRecord& record) {
  const std::string prefix = module == "MPI-IO" ? "MPIIO_" : module + "_";
  if (!starts_with(counter, prefix)) return false;
  const std::string_view name = counter.substr(prefix.size());
  static const std::vector<std::pair<const char*, double DarshanActivity::*>> read_fields = {
      {"BYTES_READ", &DarshanActivity::bytes},
      {"F_READ_START_TIMESTAMP", &DarshanActivity::start},
      {"F_READ_END_TIMESTAMP", &DarshanActivity::end}};
  static const std::vector<std::pair<const char*, double DarshanActivity::*>> write_fields = {
      {"BYTES_WRITTEN", &DarshanActivity::bytes},
      {"F_WRITE_START_TIMESTAMP", &DarshanActivity::start},
      {"F_WRITE_END_TIMESTAMP", &DarshanActivity::end}};
  for (const auto& [field, member] : read_fields)
    if (name == field) return record.read.*member = value, true;
  for (const auto& [field, member] : write_fields)
    if (name == field) return record.write.*member = value, true;
  for (const char* kind : {"", "INDEP_", "COLL_", "SPLIT_", "NB_"}) {
    if (module == "MPI-IO" && *kind == '\0') continue;
    if (module != "MPI-IO" && *kind != '\0') continue;
    if (name == fmt::format("{}READS", kind)) return record.read.ops += value, true;
    if (name == fmt::format("{}WRITES", kind)) return record.write.ops += value, true;
  }
  return false;
}

DarshanLog read_darshan_log(const std::string& path, const TraceOptions& options, Trace& trace) {
  DarshanLog log;
  bool has_start = false;
  for_each_line(path, options, trace, true, [&](std::string_view line) {
    const std::string_view content = trim(line);
    if (content.front() == '#') {
      if (const auto start = header_value(content, "# start_time:")) {
        log.start_time = number_field(*start, "start_time");
        has_start = true;
      } else if (const auto run_time = header_value(content, "# run time:")) {
        log.run_time = non_negative_field(*run_time, "run time");
      }
      return;
    }
    const auto fields = split_fields(line, '\t');
    const std::string module(fields[0]);
    if (std::find(options.modules.begin(), options.modules.end(), module) == options.modules.end()) return;
    if (fields.size() < 5)
      throw BadLine{fmt::format("expected tab-separated 'module rank record_id counter value ...', found {} fields",
                                fields.size()),
                    line};
    const std::string key = fmt::format("{}/{}/{}", module, fields[1], fields[2]);
    DarshanRecord& record = log.records[key];
    const double value = number_field(fields[4], "counter value");
    if (!apply_counter(module, fields[3], value, record)) return;
    if (value < 0 && fields[3].find("TIMESTAMP") == std::string_view::npos)
      throw BadLine{fmt::format("{} {} is negative", fields[3], fields[4]), fields[4]};
  });
  if (!has_start) throw UserError(fmt::format("{}: no '# start_time:' line: not darshan-parser output", path));
  return log;
}

// Adds `amount` over [start, end) at a uniform rate (the Darshan burst paper,
// section IV: a record's bytes and operations spread evenly over the bins its
// interval covers); a zero-length interval falls in the bin of its start.
void spread(std::vector<double>& bins, double origin, double width, double start, double end, double amount) {
  const auto bin_of = [&](double t) {
    const double index = std::floor((t - origin) / width);
    return static_cast<std::size_t>(std::clamp(index, 0.0, static_cast<double>(bins.size() - 1)));
  };
  if (end <= start) {
    bins[bin_of(start)] += amount;
    return;
  }
  const std::size_t first = bin_of(start), last = bin_of(std::nextafter(end, start));
  const double rate = amount / (end - start);
  for (std::size_t b = first; b <= last; ++b) {
    const double lo = std::max(start, origin + static_cast<double>(b) * width);
    const double hi = std::min(end, origin + static_cast<double>(b + 1) * width);
    bins[b] += rate * std::max(0.0, hi - lo);
  }
}

void read_darshan(const std::vector<std::string>& paths, const TraceOptions& options, Trace& trace) {
  if (!(options.bin_width > 0))
    throw UserError("darshan: --bin is required (the width of the bins records spread over)");
  for (const auto& m : options.modules)
    if (m != "POSIX" && m != "MPI-IO" && m != "STDIO")
      throw UserError(fmt::format("--modules: '{}' is not one of POSIX, MPI-IO, STDIO", m));
  std::vector<DarshanLog> logs;
  double origin = std::numeric_limits<double>::infinity(), finish = -origin;
  for (const auto& path : paths) {
    logs.push_back(read_darshan_log(path, options, trace));
    const DarshanLog& log = logs.back();
    origin = std::min(origin, log.start_time);
    finish = std::max(finish, log.start_time + log.run_time);
    for (const auto& [key, record] : log.records)
      for (const DarshanActivity* a : {&record.read, &record.write})
        if (a->start > 0 || a->end > 0) finish = std::max(finish, log.start_time + a->end);
  }
  const double width = options.bin_width;
  const auto bins = static_cast<std::size_t>(std::max(1.0, std::ceil((finish - origin) / width)));
  auto& channels = trace.binned.channels;
  for (const char* name : {"count_read", "count_write", "bytes_read", "bytes_write"}) channels[name].assign(bins, 0.0);
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const DarshanLog& log = logs[i];
    for (const auto& [key, record] : log.records) {
      for (const bool is_read : {true, false}) {
        const DarshanActivity& a = is_read ? record.read : record.write;
        if (a.ops == 0 && a.bytes == 0) continue;
        if (a.start == 0 && a.end == 0) {  // Darshan's "no timestamp": nothing to place it by
          ++trace.untimed_records;
          trace.untimed_bytes += a.bytes;
          continue;
        }
        if (a.end < a.start || a.start < 0) {
          const std::string message = fmt::format("record {}: {} interval [{}, {}] s is invalid", key,
                                                  is_read ? "read" : "write", a.start, a.end);
          if (!options.skip_bad_lines) throw UserError(fmt::format("{}: {}", paths[i], message));
          ++trace.bad_lines;
          if (trace.bad_line_examples.size() < kBadLineExamples)
            trace.bad_line_examples.push_back(fmt::format("{}: {}", paths[i], message));
          continue;
        }
        const double start = log.start_time + a.start, end = log.start_time + a.end;
        spread(channels[is_read ? "count_read" : "count_write"], origin, width, start, end, a.ops);
        spread(channels[is_read ? "bytes_read" : "bytes_write"], origin, width, start, end, a.bytes);
      }
    }
  }
  auto sum = [&](const char* a, const char* b) {
    std::vector<double> total(bins);
    for (std::size_t k = 0; k < bins; ++k) total[k] = channels[a][k] + channels[b][k];
    return total;
  };
  channels["count"] = sum("count_read", "count_write");
  channels["bytes"] = sum("bytes_read", "bytes_write");
  trace.epoch = origin;
  trace.binned.start = 0;
  trace.binned.bin_width = width;
}

// Appends a later file's events on the first file's clock (sorted afterwards).
void merge_events(Trace& into, Trace&& part) {
  const double shift = part.epoch - into.epoch;
  const std::size_t old = into.times.size();
  const auto append = [&](auto& a, auto& b, auto fill) {
    if (a.empty() && b.empty()) return;
    if (a.empty()) a.assign(old, fill);
    if (b.empty()) b.assign(part.times.size(), fill);
    a.insert(a.end(), b.begin(), b.end());
  };
  append(into.ops, part.ops, Operation::other);
  append(into.sizes, part.sizes, 0.0);
  append(into.durations, part.durations, 0.0);
  for (double t : part.times) into.times.push_back(t + shift);
}

void sort_events(Trace& trace) {
  if (std::is_sorted(trace.times.begin(), trace.times.end())) return;
  const std::vector<std::size_t> order = time_order(trace.times);
  permute(trace.times, order);
  permute(trace.ops, order);
  permute(trace.sizes, order);
  permute(trace.durations, order);
}

void read_one(const std::string& path, const TraceOptions& options, Trace& trace) {
  switch (options.format) {
    case TraceFormat::timestamps:
      return read_timestamps(path, options, trace);
    case TraceFormat::series:
      return read_series(path, options, trace);
    case TraceFormat::counts:
      return read_counts(path, options, trace);
    case TraceFormat::dxt:
      return read_dxt(path, options, trace);
    case TraceFormat::blkparse:
      return read_blkparse(path, options, trace);
    case TraceFormat::disksim:
      return read_disksim(path, options, trace);
    case TraceFormat::pioneer:
      return read_pioneer(path, options, trace);
    case TraceFormat::darshan:
      break;
  }
  throw InternalError("read_one", "unexpected format", __FILE__, __LINE__);
}

}  // namespace

std::vector<std::string> trace_format_names() {
  std::vector<std::string> names;
  for (const auto& [n, f] : kFormats) names.emplace_back(n);
  return names;
}

TraceFormat parse_trace_format(const std::string& name) {
  for (const auto& [n, f] : kFormats)
    if (name == n) return f;
  throw UserError(fmt::format("--format '{}' is not one of {}", name, fmt::join(trace_format_names(), ", ")));
}

const char* trace_format_name(TraceFormat format) {
  for (const auto& [n, f] : kFormats)
    if (f == format) return n;
  return "?";
}

const char* time_unit_name(TimeUnit unit) {
  for (const auto& [name, u] : kUnits)
    if (u == unit) return name;
  return "s";
}

std::vector<std::string> time_unit_names() {
  std::vector<std::string> names;
  for (const auto& [n, u] : kUnits) names.emplace_back(n);
  return names;
}

TimeUnit parse_time_unit(const std::string& name) {
  for (const auto& [n, u] : kUnits)
    if (name == n) return u;
  throw UserError(fmt::format("--time-unit '{}' is not one of {}", name, fmt::join(time_unit_names(), ", ")));
}

Trace read_trace(const std::vector<std::string>& paths, const TraceOptions& options) {
  if (paths.empty()) throw UserError("no trace file given");
  Trace trace;
  trace.format = options.format;
  trace.sources = paths;
  if (options.format == TraceFormat::darshan) {
    trace.kind = Trace::Kind::binned;
    read_darshan(paths, options, trace);
    return trace;
  }
  if (options.format == TraceFormat::counts) {
    if (paths.size() != 1) throw UserError("counts: give one file (an already binned series cannot be merged)");
    if (!(options.bin_width > 0)) throw UserError("counts: --bin is required (the width of the given bins)");
    trace.kind = Trace::Kind::binned;
    read_counts(paths[0], options, trace);
    if (trace.binned.size() == 0) throw UserError(fmt::format("{}: no counts", paths[0]));
    return trace;
  }
  if (options.format == TraceFormat::series) {
    trace.kind = Trace::Kind::series;
    for (const auto& path : paths) read_series(path, options, trace);
    if (!std::is_sorted(trace.series_times.begin(), trace.series_times.end())) {  // --sort, or several files
      const std::vector<std::size_t> order = time_order(trace.series_times);
      permute(trace.series_times, order);
      permute(trace.series_values, order);
    }
    if (trace.series_times.empty()) throw UserError(fmt::format("{}: no (time, value) pairs", paths[0]));
    return trace;
  }
  trace.kind = Trace::Kind::events;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Trace part;
    part.format = options.format;
    read_one(paths[i], options, part);
    if (i == 0) trace.epoch = part.epoch;  // the clock the later files are shifted onto
    merge_events(trace, std::move(part));
    trace.lines += part.lines;
    trace.bad_lines += part.bad_lines;
    trace.reordered += part.reordered;
    for (auto& e : part.bad_line_examples)
      if (trace.bad_line_examples.size() < kBadLineExamples) trace.bad_line_examples.push_back(std::move(e));
  }
  sort_events(trace);
  // Times from the earliest event when the clock is absolute (ISO-8601) or
  // when a merged file started before the first one.
  if (!trace.times.empty() && (options.time_unit == TimeUnit::iso8601 || trace.times.front() < 0)) {
    const double first = trace.times.front();
    for (double& t : trace.times) t -= first;
    trace.epoch += first;
  }
  if (trace.times.empty()) throw UserError(fmt::format("{}: no events", paths[0]));
  return trace;
}

}  // namespace gs
