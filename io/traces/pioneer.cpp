// --format pioneer: PIONEER's unified 7-field trace: timestamp operation file offset size execution_time extra.
#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "io/request_trace.hpp"
#include "io/traces/fields.hpp"

namespace gs {

PioneerFields split_pioneer_line(std::string_view line, char delimiter) {
  const char* separators = delimiter == 0 || delimiter == ' ' ? " \t" : nullptr;
  const auto is_separator = [&](char c) { return separators ? (c == ' ' || c == '\t') : c == delimiter; };
  std::string_view fields[7];
  std::size_t at = 0, found = 0;
  const auto skip_separators = [&] {
    if (separators)
      while (at < line.size() && is_separator(line[at])) ++at;
  };
  skip_separators();
  for (; found < 6 && at < line.size(); ++found) {
    std::size_t end = at;
    while (end < line.size() && !is_separator(line[end])) ++end;
    fields[found] = line.substr(at, end - at);
    at = end < line.size() ? end + 1 : end;
    skip_separators();
  }
  if (found == 6 && at < line.size()) {
    fields[6] = trim(line.substr(at));
    found = fields[6].empty() ? 6 : 7;
  }
  if (found < 7)
    throw BadLine{
        fmt::format("expected 7 fields (timestamp operation file offset size execution_time extra), found {}", found),
        line};
  return {fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6]};
}

std::int64_t pioneer_extent(std::string_view field, const char* what) {
  if (field == "NULL" || field == "null" || field == "-") return kUnknown;
  // Below 2^62, so that offset + size stays below 2^63. Digits are read as an
  // integer, exactly (a double would turn 2^53 + 1 into 2^53).
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 62;
  std::string_view digits = trim(field);
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size() || value >= kLimit)
      throw BadLine{fmt::format("{} '{}' is not a whole number of bytes from 0 to 2^62 - 1", what, field), field};
    return static_cast<std::int64_t>(value);
  }
  // A point or an exponent (4096.0, 1e6): a whole number a double holds exactly.
  const double value = non_negative_field(field, what);
  if (value != std::floor(value) || value >= static_cast<double>(kLimit))
    throw BadLine{fmt::format("{} '{}' is not a whole number of bytes from 0 to 2^62 - 1", what, field), field};
  if (value >= 9007199254740992.0)  // 2^53 + 1 written so reads as 2^53
    throw BadLine{fmt::format("{} '{}' is 2^53 or more, written with a point or an exponent, where a double no "
                              "longer holds every whole number; write it in digits",
                              what, field),
                  field};
  return static_cast<std::int64_t>(value);
}

namespace {
namespace traces_pioneer {

Operation operation_of(OpClass op_class) {
  return op_class == OpClass::read ? Operation::read : op_class == OpClass::write ? Operation::write : Operation::other;
}

// PIONEER's unified trace: timestamp, operation, file, offset, size, execution time, extra.
void read_pioneer(const std::string& path, const TraceOptions& options, Trace& trace) {
  EventSink sink(trace, options.sort);
  const TimeUnit unit = options.time_unit.value_or(TimeUnit::s);
  double day_offset = 0, previous = -1;
  for_each_line(path, options, trace, false, [&](std::string_view line) {
    const PioneerFields fields = split_pioneer_line(line, options.delimiter);
    double time = time_field(fields.time, unit, true);
    // A time of day that falls back by more than 12 h crossed midnight.
    if (fields.time.find(':') != std::string_view::npos && previous >= 0 && time + day_offset < previous - 43200)
      day_offset += 86400;
    time += day_offset;
    previous = time;
    pioneer_extent(fields.offset, "offset");
    const std::int64_t size = pioneer_extent(fields.size, "size");
    const double duration = non_negative_field(fields.execution_time, "execution time") * time_scale(unit);
    sink.add(time, fields.time, operation_of(classify_operation(fields.op)), size == kUnknown ? 0.0 : double(size),
             duration);
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

}  // namespace traces_pioneer
}  // namespace

}  // namespace gs
