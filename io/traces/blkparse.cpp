// --format blkparse: blkparse's default text, or the kernel blk tracer's.
#include <fmt/format.h>

#include "io/traces/fields.hpp"

namespace gs {

namespace {

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

[[maybe_unused]] const bool registered = register_trace_format({
    "blkparse",
    Trace::Kind::events,
    "blkparse or blk tracer text: queued (Q) or issued (D) block requests",
    "count",
    read_blkparse,
    nullptr,
});

}  // namespace

}  // namespace gs
