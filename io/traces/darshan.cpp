// --format darshan: darshan-parser text or a binary .darshan log (io/darshan_log.hpp): each record's bytes and
// operations spread over [start, end) of its reads and writes.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "io/binning.hpp"
#include "io/darshan_log.hpp"
#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace traces_darshan {

struct DarshanActivity {  // one direction (read or write) of one record
  double ops = 0, bytes = 0, time = 0, start = 0, end = 0;  // time: seconds spent in the operations
};

struct DarshanRecord {
  DarshanActivity read, write;
};

struct DarshanLog {
  double start_time = 0;  // Unix seconds
  double run_time = 0;
  std::map<std::string, DarshanRecord> records;  // module/rank/record id
  std::uint64_t counter_lines = 0;               // of every module, read or not
};

bool is_integer(std::string_view field) {
  if (!field.empty() && field.front() == '-') field.remove_prefix(1);
  return !field.empty() && field.find_first_not_of("0123456789") == std::string_view::npos;
}

bool is_counter_name(std::string_view field) {
  return !field.empty() && field.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string_view::npos;
}

// Which counter of `module` feeds which field; MPI-IO splits its operation counts four ways.
bool apply_counter(const std::string& module, std::string_view counter, double value, DarshanRecord& record) {
  const std::string prefix = module == "MPI-IO" ? "MPIIO_" : module + "_";
  if (!starts_with(counter, prefix)) return false;
  const std::string_view name = counter.substr(prefix.size());
  static const std::vector<std::pair<const char*, double DarshanActivity::*>> read_fields = {
      {"BYTES_READ", &DarshanActivity::bytes},
      {"F_READ_TIME", &DarshanActivity::time},
      {"F_READ_START_TIMESTAMP", &DarshanActivity::start},
      {"F_READ_END_TIMESTAMP", &DarshanActivity::end}};
  static const std::vector<std::pair<const char*, double DarshanActivity::*>> write_fields = {
      {"BYTES_WRITTEN", &DarshanActivity::bytes},
      {"F_WRITE_TIME", &DarshanActivity::time},
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

// One counter of a record of a module read, from a text line or a binary log:
// the same rules for both.
void add_counter(const std::string& key, const std::string& module, std::string_view counter, double value,
                 std::string_view value_text, DarshanLog& log, Trace& trace) {
  DarshanRecord& record = log.records[key];
  const bool timer =
      counter.find("_TIME") != std::string_view::npos && counter.find("TIMESTAMP") == std::string_view::npos;
  // darshan's STDIO timers of stdout/stderr can come out negative (seen in
  // darshan 3.10 logs): an artefact of the instrumentation, counted and read as 0.
  if (timer && value < 0) {
    if (apply_counter(module, counter, 0.0, record)) ++trace.negative_timers;
    return;
  }
  if (!apply_counter(module, counter, value, record)) return;
  if (value < 0 && counter.find("TIMESTAMP") == std::string_view::npos)
    throw BadLine{fmt::format("{} {} is negative", counter, value_text.empty() ? fmt::format("{}", value)
                                                                               : std::string(value_text)),
                  value_text};
}

bool module_read(const TraceOptions& options, std::string_view module) {
  return std::find(options.modules.begin(), options.modules.end(), module) != options.modules.end();
}

DarshanLog read_darshan_text(const std::string& path, const TraceOptions& options, Trace& trace) {
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
      } else if (auto module = incomplete_darshan_module(content, path)) {
        trace.incomplete_modules.push_back(*module);
      }
      return;
    }
    // Every counter line is checked, also of the modules not read: a line of
    // another shape is damage, not something to pass over.
    const auto fields = split_fields(line, '\t');
    if (fields.size() < 5)
      throw BadLine{fmt::format("expected tab-separated 'module rank record_id counter value ...', found {} fields",
                                fields.size()),
                    line};
    if (!is_integer(fields[1])) throw BadLine{fmt::format("rank '{}' is not an integer", fields[1]), fields[1]};
    if (!is_integer(fields[2]) || fields[2].front() == '-')
      throw BadLine{fmt::format("record id '{}' is not an unsigned integer", fields[2]), fields[2]};
    if (!is_counter_name(fields[3]))
      throw BadLine{fmt::format("counter '{}' is not a darshan counter name (A-Z 0-9 _)", fields[3]), fields[3]};
    ++log.counter_lines;
    const std::string module(fields[0]);
    // Other modules' values may be words (LUSTRE's stripe pattern "raid0",
    // N/A where a counter is undefined); the modules read here have numbers only.
    if (!module_read(options, module)) return;
    const double value = number_field(fields[4], "counter value");
    add_counter(fmt::format("{}/{}/{}", module, fields[1], fields[2]), module, fields[3], value, fields[4], log, trace);
  });
  if (!has_start) throw UserError(fmt::format("{}: no '# start_time:' line: not darshan-parser output", path));
  if (log.counter_lines == 0) ++trace.logs_without_records;
  return log;
}

// A binary .darshan log (io/darshan_log.hpp): what darshan-parser would print, read directly.
DarshanLog read_darshan_binary(const std::string& path, const TraceOptions& options, Trace& trace) {
  const DarshanBinaryLog binary = read_darshan_log_file(path, kDarshanCounters);
  DarshanLog log;
  log.start_time = static_cast<double>(binary.start_time);
  log.run_time = binary.run_time;
  for (const auto& module : binary.incomplete_counters)
    trace.incomplete_modules.push_back(incomplete_module_entry(path, module));
  for (const DarshanFileRecord& r : binary.records) {
    if (!module_read(options, r.module)) continue;
    const std::string key = fmt::format("{}/{}/{}", r.module, r.rank, r.id);
    for (const DarshanCounter& c : r.counters) {
      try {
        add_counter(key, r.module, c.name, c.value, {}, log, trace);
      } catch (const BadLine& bad) {
        const std::string message = fmt::format("{}: record {}: {}", path, key, bad.message);
        if (!options.skip_bad_lines) throw UserError(message);
        count_bad_line(trace, message);
      }
    }
  }
  if (!binary.has_counter_data) ++trace.logs_without_records;
  return log;
}

DarshanLog read_darshan_log(const std::string& path, const TraceOptions& options, Trace& trace) {
  return is_darshan_log(path) ? read_darshan_binary(path, options, trace) : read_darshan_text(path, options, trace);
}

// Adds `amount` over [start, end): at a uniform rate, each bin by its overlap
// with the interval, or (the Darshan burst paper, section IV) an equal share to
// each bin the interval covers. Both keep the total; a zero-length interval
// falls in the bin of its start.
void spread(std::vector<double>& bins, double origin, double width, double start, double end, double amount,
            TraceOptions::Spread how) {
  const auto bin_of = [&](double t) {
    const double index = std::floor((t - origin) / width);
    return static_cast<std::size_t>(std::clamp(index, 0.0, static_cast<double>(bins.size() - 1)));
  };
  if (end <= start) {
    bins[bin_of(start)] += amount;
    return;
  }
  const std::size_t first = bin_of(start), last = bin_of(std::nextafter(end, start));
  if (how == TraceOptions::Spread::equal_share) {
    const double share = amount / static_cast<double>(last - first + 1);
    for (std::size_t b = first; b <= last; ++b) bins[b] += share;
    return;
  }
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
  // Two passes, one log in memory at a time (thousands of logs): the first
  // finds the common clock's span, the second spreads every record over it.
  double origin = std::numeric_limits<double>::infinity(), finish = -origin;
  std::string last;  // the record that ends last, for the message when the span is too long
  for (const auto& path : paths) {
    const DarshanLog log = read_darshan_log(path, options, trace);
    origin = std::min(origin, log.start_time);
    finish = std::max(finish, log.start_time + log.run_time);
    for (const auto& [key, record] : log.records)
      for (const DarshanActivity* a : {&record.read, &record.write})
        if ((a->start > 0 || a->end > 0) && log.start_time + a->end > finish) {
          finish = log.start_time + a->end;
          last = fmt::format("{}: record {} ends at {} s", path, key, a->end);
        }
  }
  if (trace.logs_without_records == paths.size())
    throw UserError(
        fmt::format("{}: no counter records: the darshan log (or darshan-parser output) of a job that did "
                    "no I/O, or cut short",
                    fmt::join(paths, ", ")));
  const double width = options.bin_width;
  if (options.align == TraceOptions::Align::epoch) origin = std::floor(origin / width) * width;
  check_bin_count(std::ceil((finish - origin) / width), options.max_bins, width, finish - origin,
                  last.empty() ? "the logs" : "the logs (" + last + ")");
  const auto bins = static_cast<std::size_t>(std::max(1.0, std::ceil((finish - origin) / width)));
  auto& channels = trace.binned.channels;
  for (const char* name : {"count_read", "count_write", "bytes_read", "bytes_write", "time_read", "time_write"})
    channels[name].assign(bins, 0.0);
  for (const auto& path : paths) {
    Trace read_again;  // the first pass counted the lines
    const DarshanLog log = read_darshan_log(path, options, read_again);
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
          if (!options.skip_bad_lines) throw UserError(fmt::format("{}: {}", path, message));
          count_bad_line(trace, fmt::format("{}: {}", path, message));
          continue;
        }
        const double start = log.start_time + a.start, end = log.start_time + a.end;
        spread(channels[is_read ? "count_read" : "count_write"], origin, width, start, end, a.ops, options.spread);
        spread(channels[is_read ? "bytes_read" : "bytes_write"], origin, width, start, end, a.bytes, options.spread);
        spread(channels[is_read ? "time_read" : "time_write"], origin, width, start, end, a.time, options.spread);
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
  channels["time"] = sum("time_read", "time_write");
  trace.epoch = origin;
  trace.binned.start = 0;
  trace.binned.bin_width = width;
}

[[maybe_unused]] const bool registered = register_trace_format({
    "darshan",
    Trace::Kind::binned,
    "darshan-parser text or a binary .darshan log, one per job: bytes and operations spread over each record's interval",
    "bytes",
    nullptr,
    read_darshan,
});

}  // namespace traces_darshan
}  // namespace

}  // namespace gs
