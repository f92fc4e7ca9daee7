// --format series: (time, value) pairs kept as they are (e.g. latencies of periodic probes).
#include <fmt/format.h>

#include "io/traces/fields.hpp"

namespace gs {

namespace {

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

[[maybe_unused]] const bool registered = register_trace_format({
    "series",
    Trace::Kind::series,
    "(time, value) pairs kept as they are, not binned",
    "count",
    read_series,
    nullptr,
});

}  // namespace

}  // namespace gs
