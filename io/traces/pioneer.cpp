// --format pioneer: PIONEER's unified 7-field trace: timestamp operation file offset size execution_time extra.
#include <fmt/format.h>

#include "io/traces/fields.hpp"

namespace gs {

namespace {

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

[[maybe_unused]] const bool registered = register_trace_format({
    "pioneer",
    Trace::Kind::events,
    "PIONEER's unified trace: timestamp operation file offset size execution time extra",
    "count",
    read_pioneer,
    nullptr,
});

}  // namespace

}  // namespace gs
