// Across the replicas of a study: the median of a metric with bootstrap
// confidence intervals (percentile and BCa), the probability that one model's
// error is below another's, and the paper's 0–3 matching degree (docs/studies.md). Resamples draw their indices from
// Philox with the run's seed, so every interval is reproducible to the bit.
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

// Where the resamples run: the CPU's threads (CpuResampler) or the GPU
// (host/engine/cuda/cuda_bootstrap.cu, BackendDevice::make_resampler). Both draw the
// same Philox indices (kernels/compare.hpp: resample b takes index j from word
// j mod 4 of call (key, b, j/4, draw)) and compute each resample's statistic
// from its counts by the same formulas, so the results agree to the bit.
class Resampler {
 public:
  virtual ~Resampler() = default;
  // The median of each of `resamples` resamples (draw 0) of the sorted values.
  virtual std::vector<double> medians(const std::vector<double>& sorted, std::uint32_t resamples,
                                      const RngStreamKey& key) = 0;
  // P(A < B) + P(A = B)/2 of each of `resamples` pairs of resamples: of the
  // sorted a with draw 0 and of the sorted b with draw 1.
  virtual std::vector<double> probabilities_below(const std::vector<double>& a, const std::vector<double>& b,
                                                  std::uint32_t resamples, const RngStreamKey& key) = 0;
};

class CpuResampler final : public Resampler {
 public:
  std::vector<double> medians(const std::vector<double>& sorted, std::uint32_t resamples,
                              const RngStreamKey& key) override;
  std::vector<double> probabilities_below(const std::vector<double>& a, const std::vector<double>& b,
                                          std::uint32_t resamples, const RngStreamKey& key) override;
};

// The median of the finite values with its percentile and BCa intervals.
MedianSummary bootstrap_median(const std::vector<double>& values, const BootstrapOptions& options,
                               const RngStreamKey& key, Resampler& resampler);

// P(A < B) + P(A = B)/2 for one value of each (the Mann–Whitney probability)
// and its percentile interval from independent resamples of a (draw 0) and b
// (draw 1).
struct ProbabilityBelow {
  double p;
  Interval ci;
};
ProbabilityBelow bootstrap_probability_below(const std::vector<double>& a, const std::vector<double>& b,
                                             const BootstrapOptions& options, const RngStreamKey& key,
                                             Resampler& resampler);

// Table VI of the α-stable paper from each model's median error (smaller is
// better): 3 for the smallest; else, with m and s the mean and standard
// deviation of the log medians of all models, 2 when log median < m − s/2
// (better than average), 1 within m ± s/2 (average), 0 above (below average).
std::vector<int> matching_degrees(const std::vector<double>& medians);
extern const char* const kMatchingDegreeRule;

// Whether two intervals share a point.
bool overlap(const Interval& a, const Interval& b);

}  // namespace gs
