#include "host/requests/timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"

namespace gs {

CountsTiming::CountsTiming(const std::vector<double>& counts, double bin_width)
    : targets_(counts.size()), bin_width_(bin_width) {
  double sum = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    targets_[k] = counts[k] > 0 ? static_cast<std::uint64_t>(std::llround(std::min(counts[k], 1e15))) : 0;
    sum += static_cast<double>(targets_[k]);
  }
  all_zero_ = sum == 0;
  const double mean = counts.empty() ? 0.0 : sum / static_cast<double>(counts.size());
  spacing_ = bin_width / std::max(mean, 1e-9);
}

void CountsTiming::time(Request& r, bool data) {
  if (data) {
    if (all_zero_)
      throw UserError(
          fmt::format("the {} counts are all 0 once rounded (negative ones count as 0): they cannot time "
                      "the data requests; use timing: slack or an ensemble with counts",
                      targets_.size()));
    while (bin_ < targets_.size() && in_bin_ >= targets_[bin_]) {
      ++bin_;
      in_bin_ = 0;
    }
    if (bin_ < targets_.size()) {
      time_ = bin_width_ *
              (static_cast<double>(bin_) + (static_cast<double>(in_bin_) + 0.5) / static_cast<double>(targets_[bin_]));
      if (++in_bin_ == targets_[bin_]) ++full_bins_;
    } else {
      time_ = bin_width_ * static_cast<double>(targets_.size()) + (static_cast<double>(beyond_++) + 0.5) * spacing_;
    }
    if (!(time_ + r.duration <= kMaxRequestSeconds))
      throw UserError(
          fmt::format("the counts would time a data request at {:.6g} s, beyond 10^9 s (about 31.7 "
                      "years), the latest time the outputs take: the bins are too wide or the counts "
                      "too few for the requests ({} bins of {} s)",
                      time_, targets_.size(), bin_width_));
  }
  r.start = time_;
}

std::uint64_t CountsTiming::filled_bins() const {
  // Empty bins count as filled when the data requests reached past them.
  std::uint64_t filled = full_bins_;
  for (std::size_t k = 0; k < std::min(bin_, targets_.size()); ++k) filled += targets_[k] == 0;
  return filled;
}

void sort_for_issue(Workload& workload) {
  auto& requests = workload.table.requests;
  std::uint64_t comparisons = 0;  // a sort of 10^8 requests takes seconds: it polls too
  std::stable_sort(requests.begin(), requests.end(), [&comparisons](const Request& a, const Request& b) {
    poll_interrupts(++comparisons);
    return std::tie(a.seq, a.rank) < std::tie(b.seq, b.rank);
  });
}

void time_workload(Workload& workload, RequestTiming& timing) {
  sort_for_issue(workload);
  std::uint64_t step = 0;
  for (Request& r : workload.table.requests) {
    poll_interrupts(++step);
    timing.time(r, is_data(workload.table.op_class(r)));
  }
}

std::uint64_t time_by_counts(Workload& workload, const std::vector<double>& counts, double bin_width) {
  CountsTiming timing(counts, bin_width);
  time_workload(workload, timing);
  return timing.filled_bins();
}

}  // namespace gs
