// --format dxt: darshan-dxt-parser text or a binary .darshan log's DXT records: every POSIX (or MPI-IO) operation with its rank, offset, length, start and
// end.
#include <fmt/format.h>

#include <algorithm>

#include "io/darshan_log.hpp"
#include "io/traces/dxt_blocks.hpp"
#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace traces_dxt {

std::vector<std::string> dxt_modules(const TraceOptions& options) {
  std::vector<std::string> modules;
  for (const auto& m : options.modules) {
    if (m == "POSIX") modules.push_back("X_POSIX");
    if (m == "MPI-IO" || m == "MPIIO") modules.push_back("X_MPIIO");
  }
  return modules;
}

// A binary .darshan log's DXT records (io/darshan_log.hpp), in darshan-dxt-parser's order.
void read_dxt_binary(const std::string& path, const TraceOptions& options, Trace& trace) {
  const std::vector<std::string> modules = dxt_modules(options);
  const DarshanBinaryLog log = read_darshan_log_file(path, kDarshanDxt);
  trace.epoch = static_cast<double>(log.start_time);
  for (const auto& module : log.incomplete_dxt) trace.incomplete_modules.push_back(incomplete_module_entry(path, module));
  EventSink sink(trace, true);
  for (const DxtFileRecord& r : log.dxt) {
    if (std::find(modules.begin(), modules.end(), r.mpiio ? "X_MPIIO" : "X_POSIX") == modules.end()) continue;
    for (std::size_t i = 0; i < r.segments.size(); ++i) {
      const DxtSegment& s = r.segments[i];
      if (s.length < 0 || !(s.end >= s.start))
        throw UserError(fmt::format("{}: DXT record of file id {} (rank {}), operation {}: length {}, [{}, {}] s: "
                                    "a negative length or an end before the start: the log is damaged",
                                    path, r.id, r.rank, i, s.length, s.start, s.end));
      sink.add(s.start, {}, i < r.writes ? Operation::write : Operation::read, static_cast<double>(s.length),
               s.end - s.start);
    }
  }
  trace.reordered = 0;
  sink.finish(true, true, true);
}

// darshan-dxt-parser: " X_POSIX  rank  read|write  segment  offset  length  start  end  [...]".
void read_dxt(const std::string& path, const TraceOptions& options, Trace& trace) {
  if (is_darshan_log(path)) return read_dxt_binary(path, options, trace);
  const std::vector<std::string> modules = dxt_modules(options);
  EventSink sink(trace, true);  // DXT groups operations by file and rank: sorting is part of the format
  bool seen_header = false;
  DxtBlocks blocks(path);  // every block against its counts, whatever its module
  const std::uint64_t lines_before = trace.lines;
  for_each_line(path, options, trace, true, [&](std::string_view line) {
    const std::string_view content = trim(line);
    if (content.front() == '#') {
      if (const auto start = header_value(content, "# start_time:")) {
        trace.epoch = number_field(*start, "start_time");
        seen_header = true;
      }
      blocks.header(content, trace.lines - lines_before);
      if (auto module = incomplete_darshan_module(content, path)) trace.incomplete_modules.push_back(*module);
      return;
    }
    const auto fields = split_fields(line, ' ');
    if (!starts_with(fields[0], "X_"))
      throw BadLine{"expected a DXT operation line (X_POSIX or X_MPIIO ...)", fields[0]};
    if (fields.size() >= 3) blocks.operation(fields[2] == "write");
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
    // DXT_MPIIO 1 recorded no offsets: darshan-dxt-parser prints -1.
    if (!(fields[0] == "X_MPIIO" && fields[4] == "-1")) non_negative_field(fields[4], "offset");
    const double length = non_negative_field(fields[5], "length");
    const double start = time_field(fields[6], TimeUnit::s);
    const double end = time_field(fields[7], TimeUnit::s);
    if (end < start) throw BadLine{fmt::format("end {} is before start {}", fields[7], fields[6]), fields[7]};
    sink.add(start, fields[6], op, length, end - start);
  });
  blocks.finish(trace.lines - lines_before);
  if (!seen_header) throw UserError(fmt::format("{}: no '# start_time:' line: not darshan-dxt-parser output", path));
  trace.reordered = 0;
  sink.finish(true, true, true);
}

[[maybe_unused]] const bool registered = register_trace_format({
    "dxt",
    Trace::Kind::events,
    "darshan-dxt-parser text or a binary .darshan log's DXT records: every operation with its start and end",
    "count",
    read_dxt,
    nullptr,
});

}  // namespace traces_dxt
}  // namespace

}  // namespace gs
