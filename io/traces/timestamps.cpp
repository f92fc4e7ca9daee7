// --format timestamps: one event per line, CSV, TSV or whitespace, with optional operation and size columns.
#include <fmt/format.h>

#include <optional>

#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace traces_timestamps {

void read_timestamps(const std::string& path, const TraceOptions& options, Trace& trace) {
  EventSink sink(trace, options.sort);
  const OperationNames operations(options);
  std::size_t time_col = 0;
  std::optional<std::size_t> op_col, size_col;
  read_columns(
      path, options, trace,
      [&](const Columns& c) {
        time_col = column_index(options.time_column, c.header, path, "--column");
        if (!options.op_column.empty()) op_col = column_index(options.op_column, c.header, path, "--op-column");
        if (!options.size_column.empty()) size_col = column_index(options.size_column, c.header, path, "--size-column");
      },
      [&](std::string_view line, const std::vector<std::string_view>& fields) {
        const auto time_text = field_at(fields, time_col, line);
        const double time = time_field(time_text, options.time_unit.value_or(TimeUnit::s));
        const Operation op = op_col ? operations.classify(field_at(fields, *op_col, line)) : Operation::other;
        const double size = size_col ? non_negative_field(field_at(fields, *size_col, line), "size") : 0.0;
        sink.add(time, time_text, op, size, 0.0);
      });
  sink.finish(op_col.has_value(), size_col.has_value(), false);
}

[[maybe_unused]] const bool registered = register_trace_format({
    "timestamps",
    Trace::Kind::events,
    "one event per line (CSV, TSV or whitespace): time, optional operation and size columns",
    "count",
    read_timestamps,
    nullptr,
});

}  // namespace traces_timestamps
}  // namespace

}  // namespace gs
