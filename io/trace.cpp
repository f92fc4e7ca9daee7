#include "io/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "host/base/errors.hpp"
#include "io/darshan_log.hpp"
#include "io/line_reader.hpp"
#include "io/traces/fields.hpp"

namespace gs {

namespace {

const std::vector<std::pair<const char*, TimeUnit>> kUnits = {{"s", TimeUnit::s},
                                                              {"ms", TimeUnit::ms},
                                                              {"us", TimeUnit::us},
                                                              {"ns", TimeUnit::ns},
                                                              {"iso8601", TimeUnit::iso8601}};

// Filled by the format files' static initialisers; sorted by name.
std::map<std::string, TraceFormat>& formats() {
  static std::map<std::string, TraceFormat> registered;
  return registered;
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

}  // namespace

bool register_trace_format(TraceFormat format) {
  const std::string name = format.name;
  if (!formats().emplace(name, std::move(format)).second)
    throw InternalError("register_trace_format", fmt::format("two trace formats are named '{}'", name), __FILE__,
                        __LINE__);
  return true;
}

std::vector<std::string> trace_format_names() {
  std::vector<std::string> names;
  for (const auto& [name, format] : formats()) names.push_back(name);
  return names;
}

const TraceFormat& trace_format(const std::string& name) {
  const auto found = formats().find(name);
  if (found == formats().end())
    throw UserError(fmt::format("--format '{}' is not one of {}", name, fmt::join(trace_format_names(), ", ")));
  return found->second;
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

TraceOptions::Spread parse_spread(const std::string& name) {
  if (name == "overlap") return TraceOptions::Spread::overlap;
  if (name == "equal") return TraceOptions::Spread::equal_share;
  throw UserError(fmt::format("spread '{}' is not accepted; accepted: overlap, equal", name));
}

TraceOptions::Align parse_align(const std::string& name) {
  if (name == "start") return TraceOptions::Align::start;
  if (name == "epoch") return TraceOptions::Align::epoch;
  throw UserError(fmt::format("align '{}' is not accepted; accepted: start, epoch", name));
}

TimeUnit parse_time_unit(const std::string& name) {
  for (const auto& [n, u] : kUnits)
    if (name == n) return u;
  throw UserError(fmt::format("--time-unit '{}' is not one of {}", name, fmt::join(time_unit_names(), ", ")));
}

std::string incomplete_modules_warning(const std::vector<std::string>& modules) {
  if (modules.empty()) return "";
  return fmt::format(
      "darshan marked incomplete: {} (its runtime ran out of memory for records): the trace holds only "
      "part of the job's I/O there, and every figure from it describes that part",
      fmt::join(modules, ", "));
}

Trace read_trace(const std::vector<std::string>& paths, const TraceOptions& options) {
  if (paths.empty()) throw UserError("no trace file given");
  const TraceFormat& format = trace_format(options.format);
  Trace trace;
  trace.format = format.name;
  trace.kind = format.kind;
  trace.sources = paths;
  if (format.kind == Trace::Kind::binned) {
    format.read_all(paths, options, trace);
    return trace;
  }
  if (format.kind == Trace::Kind::series) {
    for (const auto& path : paths) format.read_file(path, options, trace);
    if (!std::is_sorted(trace.series_times.begin(), trace.series_times.end())) {  // --sort, or several files
      const std::vector<std::size_t> order = time_order(trace.series_times);
      permute(trace.series_times, order);
      permute(trace.series_values, order);
    }
    if (trace.series_times.empty()) throw UserError(fmt::format("{}: no (time, value) pairs", paths[0]));
    return trace;
  }
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Trace part;
    part.format = format.name;
    format.read_file(paths[i], options, part);
    if (i == 0) trace.epoch = part.epoch;  // the clock the later files are shifted onto
    for (auto& module : part.incomplete_modules) trace.incomplete_modules.push_back(std::move(module));
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

std::optional<std::string> detect_trace_format(const std::string& path) {
  // A binary darshan log holds both parsers' data: DXT when it has any, as with text.
  if (is_darshan_log(path)) return darshan_log_has_dxt(path) ? "dxt" : "darshan";
  constexpr int kLinesRead = 200;  // darshan-dxt-parser's header is about 30 lines before its first record
  LineReader reader(path);
  std::string line;
  bool darshan_header = false;
  for (int n = 0; n < kLinesRead && reader.next(line); ++n) {
    if (line.rfind("# DXT, file_id:", 0) == 0) return "dxt";
    if (n == 0 && line.rfind("# darshan log version:", 0) == 0) darshan_header = true;
    if (n == 0 && line.rfind("# tracer: blk", 0) == 0) return "blkparse";
    // A counter line of darshan-parser ("POSIX<TAB>rank<TAB>id<TAB>POSIX_OPENS<TAB>..."): no DXT text.
    const std::size_t tab = line.find('\t');
    if (darshan_header && tab != std::string::npos && tab > 0 && line.compare(tab + 1, 1, "#") != 0 &&
        std::isupper(static_cast<unsigned char>(line[0])))
      return "darshan";
  }
  return std::nullopt;  // a darshan header without a record in sight: either parser's
}

}  // namespace gs
