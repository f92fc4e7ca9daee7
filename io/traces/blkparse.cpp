// --format blkparse: blkparse's default text, or the kernel blk tracer's.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace traces_blkparse {

// Whether `field` is an action code of blktrace ("Q", "D", "UT", ...).
bool is_action(std::string_view field) {
  return !field.empty() && field.size() <= 2 &&
         std::all_of(field.begin(), field.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// blkparse's default output, "dev cpu seq time pid action rwbs sector + sectors [process]",
// or the kernel blk tracer's (the same without the sequence number). A line
// whose first field is a device "major,minor" is an event and must parse; the
// others are blkparse's per-CPU and total summaries.
void read_blkparse(const std::string& path, const TraceOptions& options, Trace& trace) {
  EventSink sink(trace, options.sort);
  for_each_line(path, options, trace, false, [&](std::string_view line) {
    const auto fields = split_fields(line, ' ');
    const auto comma = fields[0].find(',');
    double major = 0, minor = 0;
    if (comma == std::string_view::npos || !parse_number(fields[0].substr(0, comma), major) ||
        !parse_number(fields[0].substr(comma + 1), minor))
      return;
    // The pid is a number and the action letters: where the action is tells the layout.
    const std::size_t time_at = fields.size() > 4 && is_action(fields[4]) ? 2 : 3;
    if (fields.size() < time_at + 4 || !is_action(fields[time_at + 2]))
      throw BadLine{"expected dev cpu [seq] time pid action rwbs ...", line};
    const auto action = fields[time_at + 2];
    const double time = time_field(fields[time_at], TimeUnit::s);
    if (action.size() != 1 || action[0] != options.blk_action) return;
    if (fields.size() < time_at + 7 || fields[time_at + 5] != "+")
      throw BadLine{fmt::format("a {} event needs 'sector + sectors'", options.blk_action), fields.back()};
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

}  // namespace traces_blkparse
}  // namespace

}  // namespace gs
