// --format disksim: DiskSim/MQSim ASCII traces: time device lba sectors flags.
#include <fmt/format.h>

#include <cmath>

#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace traces_disksim {

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
    if (flags > 4294967295.0)  // a 32-bit field; a larger double would not even convert to an integer
      throw BadLine{fmt::format("flags '{}' is out of range; accepted: 0 to 2^32 - 1", fields[4]), fields[4]};
    const Operation op = (static_cast<std::uint64_t>(flags) & 1u) ? Operation::read : Operation::write;
    sink.add(time, fields[0], op, sectors * kSectorBytes, 0.0);
  });
  sink.finish(true, true, false);
}

[[maybe_unused]] const bool registered = register_trace_format({
    "disksim",
    Trace::Kind::events,
    "DiskSim/MQSim ASCII: time device lba sectors flags (bit 0 = read)",
    "count",
    read_disksim,
    nullptr,
});

}  // namespace traces_disksim
}  // namespace

}  // namespace gs
