#include "io/binning.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "host/base/errors.hpp"

namespace gs {

void check_bin_count(double bins, double max_bins, double bin_width, double span_seconds, const std::string& what) {
  if (!(bins <= max_bins))
    throw UserError(
        fmt::format("--bin {} s gives {:.3g} bins over the {:.6g} s of {}; accepted: at most {:.0e} bins "
                    "({} MB per channel): choose a wider bin",
                    bin_width, bins, span_seconds, what, max_bins, max_bins * 8 / 1e6));
}

BinnedSeries bin_events(const Trace& trace, double bin_width, double max_bins) {
  if (!(bin_width > 0) || !std::isfinite(bin_width)) throw UserError("--bin must be a positive time");
  if (trace.times.empty()) throw UserError("no events to bin");
  BinnedSeries binned;
  binned.start = trace.times.front();
  binned.bin_width = bin_width;
  const double span = (trace.times.back() - binned.start) / bin_width;
  check_bin_count(span + 1, max_bins, bin_width, trace.times.back() - binned.start, "the trace");
  const auto bins = static_cast<std::size_t>(std::floor(span)) + 1;
  const bool ops = !trace.ops.empty(), sizes = !trace.sizes.empty();
  // Plain vectors in the loop (one map lookup per channel, not per event); the
  // read/write index is 0/1.
  std::vector<double> count(bins, 0.0), bytes(sizes ? bins : 0, 0.0);
  std::vector<double> count_by_op[2], bytes_by_op[2];
  for (int d = 0; d < 2; ++d) {
    if (ops) count_by_op[d].assign(bins, 0.0);
    if (ops && sizes) bytes_by_op[d].assign(bins, 0.0);
  }
  for (std::size_t i = 0; i < trace.times.size(); ++i) {
    const auto k = std::min(bins - 1, static_cast<std::size_t>((trace.times[i] - binned.start) / bin_width));
    count[k] += 1;
    if (sizes) bytes[k] += trace.sizes[i];
    if (!ops || trace.ops[i] == Operation::other) continue;
    const int d = trace.ops[i] == Operation::read ? 0 : 1;
    count_by_op[d][k] += 1;
    if (sizes) bytes_by_op[d][k] += trace.sizes[i];
  }
  auto& c = binned.channels;
  c["count"] = std::move(count);
  if (sizes) c["bytes"] = std::move(bytes);
  if (ops) c["count_read"] = std::move(count_by_op[0]), c["count_write"] = std::move(count_by_op[1]);
  if (ops && sizes) c["bytes_read"] = std::move(bytes_by_op[0]), c["bytes_write"] = std::move(bytes_by_op[1]);
  return binned;
}

std::vector<double> interarrival_times(const Trace& trace) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < trace.times.size(); ++i) gaps.push_back(trace.times[i] - trace.times[i - 1]);
  return gaps;
}

std::vector<double> interarrival_times(const Trace& trace, Operation only) {
  std::vector<double> gaps;
  double previous = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < trace.times.size() && !trace.ops.empty(); ++i) {
    if (trace.ops[i] != only) continue;
    if (!std::isnan(previous)) gaps.push_back(trace.times[i] - previous);
    previous = trace.times[i];
  }
  return gaps;
}

}  // namespace gs
