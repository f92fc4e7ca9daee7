// --format series: (time, value) pairs kept as they are (e.g. latencies of periodic probes);
// `--column row` takes the row's index as its time (a table without a time
// column). --format values: one value per line, the row index as time
// (i.i.d. values: latencies, request sizes; any sign, no bin).
#include <fmt/format.h>

#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace traces_series {

constexpr const char* kRowIndex = "row";  // --column row: the row's index is its time

// The pairs of a file; `default_value` is the value column unless --value-column says otherwise.
void read_pairs(const std::string& path, const TraceOptions& options, Trace& trace, const char* default_value,
                bool row_time) {
  std::size_t time_col = 0, value_col = 1;
  read_columns(
      path, options, trace,
      [&](const Columns& c) {
        if (!row_time) time_col = column_index(options.time_column, c.header, path, "--column");
        value_col = column_index(options.value_column.empty() ? default_value : options.value_column, c.header, path,
                                 "--value-column");
      },
      [&](std::string_view line, const std::vector<std::string_view>& fields) {
        const double value = number_field(field_at(fields, value_col, line), "value");
        if (row_time) {
          trace.series_times.push_back(static_cast<double>(trace.series_times.size()));
        } else {
          const auto time_text = field_at(fields, time_col, line);
          const double time = time_field(time_text, options.time_unit.value_or(TimeUnit::s));
          append_time(trace.series_times, time, time_text, options.sort, trace.reordered);
        }
        trace.series_values.push_back(value);
      });
}

void read_series(const std::string& path, const TraceOptions& options, Trace& trace) {
  read_pairs(path, options, trace, "2", options.time_column == kRowIndex);
}

void read_values(const std::string& path, const TraceOptions& options, Trace& trace) {
  read_pairs(path, options, trace, "1", true);
}

[[maybe_unused]] const bool registered = register_trace_format({
    "series",
    Trace::Kind::series,
    "(time, value) pairs kept as they are, not binned (--column row: the row index as time)",
    "count",
    read_series,
    nullptr,
});

[[maybe_unused]] const bool registered_values = register_trace_format({
    "values",
    Trace::Kind::series,
    "one value per line (i.i.d. values: latencies, sizes; any sign), the row index as time, not binned",
    "count",
    read_values,
    nullptr,
});

}  // namespace traces_series
}  // namespace

}  // namespace gs
