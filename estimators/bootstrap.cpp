#include "estimators/bootstrap.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numeric>

#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"
#include "kernels/compare.hpp"

namespace gs {

const char* to_string(IntervalMethod method) { return method == IntervalMethod::bca ? "bca" : "percentile"; }

const char* const kMatchingDegreeRule =
    "per dataset, from the medians of the ranking metric: 3 = the smallest; otherwise, with m and s the mean and "
    "standard deviation of the natural logs of all models' medians, 2 = log median < m - s/2 (better than average), "
    "1 = within m +- s/2 (average), 0 = above m + s/2 (below average)";

namespace {

// How often resample b (with draw d) drew each of n values.
void count_draws(const RngStreamKey& key, std::uint32_t resample, std::uint32_t draw,
                 std::vector<std::uint32_t>& counts) {
  const auto n = static_cast<std::uint32_t>(counts.size());
  std::fill(counts.begin(), counts.end(), 0u);
  for (std::uint64_t call = 0; 4 * call < n; ++call)
    for_each_index_of_call(key, resample, draw, call, n, [&](std::uint32_t k) { ++counts[k]; });
}

// Leave-one-out medians from the sorted values: dropping rank k leaves ranks
// j < k and j + 1 ≥ k + 1, whose middle is one of three values. One value
// leaves no sample: its own value stands in, so the acceleration is 0.
std::vector<double> jackknife_medians(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (n < 2) return sorted;
  const std::size_t m = n - 1;
  std::vector<double> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto at = [&](std::size_t j) { return sorted[j < k ? j : j + 1]; };
    out[k] = 0.5 * (at((m - 1) / 2) + at(m / 2));
  }
  return out;
}

void check_options(const BootstrapOptions& o) {
  if (o.resamples < 10) throw UserError("bootstrap resamples must be at least 10");
  if (!(o.confidence > 0 && o.confidence < 1)) throw UserError("bootstrap confidence must lie in (0, 1)");
}

std::vector<double> finite_sorted(const std::vector<double>& values) {
  std::vector<double> sorted;
  for (double v : values)
    if (std::isfinite(v)) sorted.push_back(v);
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

}  // namespace

std::vector<double> CpuResampler::medians(const std::vector<double>& sorted, std::uint32_t resamples,
                                          const RngStreamKey& key) {
  std::vector<double> out(resamples);
#pragma omp parallel
  {
    std::vector<std::uint32_t> counts(sorted.size());
#pragma omp for schedule(static)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(resamples); ++b) {
      count_draws(key, static_cast<std::uint32_t>(b), 0, counts);
      out[b] = median_of_counts(sorted.data(), counts.data(), sorted.size());
    }
  }
  return out;
}

std::vector<double> CpuResampler::probabilities_below(const std::vector<double>& a, const std::vector<double>& b,
                                                      std::uint32_t resamples, const RngStreamKey& key) {
  std::vector<double> out(resamples);
#pragma omp parallel
  {
    std::vector<std::uint32_t> wa(a.size()), wb(b.size());
#pragma omp for schedule(static)
    for (std::int64_t r = 0; r < static_cast<std::int64_t>(resamples); ++r) {
      count_draws(key, static_cast<std::uint32_t>(r), 0, wa);
      count_draws(key, static_cast<std::uint32_t>(r), 1, wb);
      out[r] = probability_below_of_counts(a.data(), wa.data(), a.size(), b.data(), wb.data(), b.size());
    }
  }
  return out;
}

MedianSummary bootstrap_median(const std::vector<double>& values, const BootstrapOptions& options,
                               const RngStreamKey& key, Resampler& resampler) {
  check_options(options);
  const std::vector<double> sorted = finite_sorted(values);
  MedianSummary s;
  s.used = sorted.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (sorted.empty()) {
    s.median = s.mean = nan;
    s.percentile = s.bca = {nan, nan};
    return s;
  }
  const std::size_t n = sorted.size();
  s.median = quantile_of_sorted(sorted.data(), n, 0.5);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);

  std::vector<double> medians = resampler.medians(sorted, options.resamples, key);
  const double below = 0.5 * (1 - options.confidence), above = 1 - below;
  const auto count_below =
      static_cast<double>(std::count_if(medians.begin(), medians.end(), [&](double m) { return m < s.median; }));
  const auto count_equal = static_cast<double>(std::count(medians.begin(), medians.end(), s.median));
  std::sort(medians.begin(), medians.end());
  const auto at = [&](double p) { return quantile_of_sorted(medians.data(), medians.size(), p); };
  s.percentile = {at(below), at(above)};

  // BCa: bias correction z0 from the share of bootstrap medians below the
  // estimate (ties count half), acceleration from the jackknife's skewness.
  const boost::math::normal normal;
  const double B = options.resamples;
  const double share = std::clamp((count_below + 0.5 * count_equal) / B, 0.5 / B, 1 - 0.5 / B);
  const double z0 = boost::math::quantile(normal, share);
  const std::vector<double> jack = jackknife_medians(sorted);
  const double jack_mean = std::accumulate(jack.begin(), jack.end(), 0.0) / static_cast<double>(n);
  double num = 0, den = 0;
  for (double t : jack) {
    const double d = jack_mean - t;
    num += d * d * d;
    den += d * d;
  }
  const double a = den > 0 ? num / (6 * std::pow(den, 1.5)) : 0.0;
  const auto adjusted = [&](double level) {
    const double z = z0 + boost::math::quantile(normal, level);
    return boost::math::cdf(normal, z0 + z / (1 - a * z));
  };
  s.bca = {at(adjusted(below)), at(adjusted(above))};
  return s;
}

ProbabilityBelow bootstrap_probability_below(const std::vector<double>& a, const std::vector<double>& b,
                                             const BootstrapOptions& options, const RngStreamKey& key,
                                             Resampler& resampler) {
  check_options(options);
  const std::vector<double> sa = finite_sorted(a), sb = finite_sorted(b);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (sa.empty() || sb.empty()) return {nan, {nan, nan}};
  ProbabilityBelow r;
  const std::vector<std::uint32_t> ones_a(sa.size(), 1), ones_b(sb.size(), 1);
  r.p = probability_below_of_counts(sa.data(), ones_a.data(), sa.size(), sb.data(), ones_b.data(), sb.size());
  std::vector<double> ps = resampler.probabilities_below(sa, sb, options.resamples, key);
  std::sort(ps.begin(), ps.end());
  const double below = 0.5 * (1 - options.confidence);
  r.ci = {quantile_of_sorted(ps.data(), ps.size(), below), quantile_of_sorted(ps.data(), ps.size(), 1 - below)};
  return r;
}

std::vector<int> matching_degrees(const std::vector<double>& medians) {
  const std::size_t k = medians.size();
  std::vector<int> degree(k, 0);
  if (k == 0) return degree;
  // Errors span orders of magnitude across models (the paper's FARIMA/FBM
  // columns), so "average" is judged on the log scale; a zero median is
  // floored at 1e-12 of the largest.
  double largest = 0;
  for (double m : medians)
    if (std::isfinite(m)) largest = std::max(largest, m);
  std::vector<double> logs;
  std::size_t best = k;
  for (std::size_t i = 0; i < k; ++i) {
    if (!std::isfinite(medians[i])) continue;
    logs.push_back(std::log(std::max(medians[i], 1e-12 * largest + 1e-300)));
    if (best == k || medians[i] < medians[best]) best = i;
  }
  if (best == k) return degree;
  const MeanSd ms = mean_and_sd(logs);
  for (std::size_t i = 0; i < k; ++i) {
    if (!std::isfinite(medians[i])) continue;
    const double l = std::log(std::max(medians[i], 1e-12 * largest + 1e-300));
    degree[i] = medians[i] == medians[best] ? 3 : l < ms.mean - ms.sd / 2 ? 2 : l <= ms.mean + ms.sd / 2 ? 1 : 0;
  }
  return degree;
}

bool overlap(const Interval& a, const Interval& b) { return a.low <= b.high && b.low <= a.high; }

}  // namespace gs
