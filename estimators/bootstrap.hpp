// Across the replicas of a study: the median of a metric with bootstrap
// confidence intervals (percentile and BCa), the probability that one model's
// error is below another's, and the paper's 0–3 matching degree (README,
// "Comparison studies"). Resamples draw their indices from Philox with the
// run's seed, so every interval is reproducible to the bit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/philox.hpp"

namespace gs {

enum class IntervalMethod { percentile, bca };
const char* to_string(IntervalMethod method);

struct BootstrapOptions {
  std::uint32_t resamples = 2000;
  double confidence = 0.95;
  IntervalMethod method = IntervalMethod::percentile;  // the interval the tables show
};

struct Interval {
  double low, high;
};

struct MedianSummary {
  std::size_t used = 0;  // finite values (NaN replicas, e.g. a constant series' ACF, are left out)
  double median, mean;
  Interval percentile;  // quantiles (1 ∓ confidence)/2 of the bootstrap medians
  Interval bca;         // Efron's bias-corrected and accelerated interval (jackknife acceleration)
  const Interval& chosen(IntervalMethod method) const { return method == IntervalMethod::bca ? bca : percentile; }
};

// Resample b draws its n indices from Philox (key, replica b, position j/4,
// draw 0), word j mod 4, mapped by uniform_index.
MedianSummary bootstrap_median(const std::vector<double>& values, const BootstrapOptions& options,
                               const RngStreamKey& key);

// P(A < B) + P(A = B)/2 for one value of each (the Mann–Whitney probability)
// and its percentile interval from independent resamples of a (draw 0) and b
// (draw 1).
struct ProbabilityBelow {
  double p;
  Interval ci;
};
ProbabilityBelow bootstrap_probability_below(const std::vector<double>& a, const std::vector<double>& b,
                                             const BootstrapOptions& options, const RngStreamKey& key);

// Table VI of the α-stable paper from each model's median error (smaller is
// better): 3 for the smallest; else, with m and s the mean and standard
// deviation of the log medians of all models, 2 when log median < m − s/2
// (better than average), 1 within m ± s/2 (average), 0 above (below average).
std::vector<int> matching_degrees(const std::vector<double>& medians);
extern const char* const kMatchingDegreeRule;

// Whether two intervals share a point.
bool overlap(const Interval& a, const Interval& b);

}  // namespace gs
