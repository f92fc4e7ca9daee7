// --format counts: an already binned series, one number per line (or --value-column).
#include <fmt/format.h>

#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace traces_counts {

void read_counts_file(const std::string& path, const TraceOptions& options, Trace& trace) {
  std::size_t value_col = 0;
  std::vector<double> counts;
  read_columns(
      path, options, trace,
      [&](const Columns& c) {
        value_col =
            column_index(options.value_column.empty() ? "1" : options.value_column, c.header, path, "--value-column");
      },
      [&](std::string_view line, const std::vector<std::string_view>& fields) {
        counts.push_back(non_negative_field(field_at(fields, value_col, line), "count"));
      });
  trace.binned.bin_width = options.bin_width;
  trace.binned.channels["count"] = std::move(counts);
}

void read_counts(const std::vector<std::string>& paths, const TraceOptions& options, Trace& trace) {
  if (paths.size() != 1) throw UserError("counts: give one file (an already binned series cannot be merged)");
  if (!(options.bin_width > 0)) throw UserError("counts: --bin is required (the width of the given bins)");
  read_counts_file(paths[0], options, trace);
  if (trace.binned.size() == 0) throw UserError(fmt::format("{}: no counts", paths[0]));
}

[[maybe_unused]] const bool registered = register_trace_format({
    "counts",
    Trace::Kind::binned,
    "an already binned series, one count per line (--bin is the width of its bins)",
    "count",
    nullptr,
    read_counts,
});

}  // namespace traces_counts
}  // namespace

}  // namespace gs
