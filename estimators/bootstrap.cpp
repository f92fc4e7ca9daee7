#include "estimators/bootstrap.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numeric>

#include "estimators/empirical.hpp"
#include "host/errors.hpp"
#include "kernels/compare.hpp"

namespace gs {

const char* to_string(IntervalMethod method) { return method == IntervalMethod::bca ? "bca" : "percentile"; }

const char* const kMatchingDegreeRule =
    "per dataset, from the medians of the ranking metric: 3 = the smallest; otherwise, with m and s the mean and "
    "standard deviation of the natural logs of all models' medians, 2 = log median < m - s/2 (better than average), "
    "1 = within m +- s/2 (average), 0 = above m + s/2 (below average)";

namespace {

// The indices of one resample: n draws uniform on 0..n−1.
template <class Use>
void for_each_resampled(const RngStreamKey& key, std::uint32_t resample, std::uint32_t draw, std::size_t n, Use&& use) {
  const auto count = static_cast<std::uint32_t>(n);
  for (std::size_t j = 0; j < n; j += 4) {
    const PhiloxBits bits = philox_bits(key, resample, j / 4, draw);
    for (std::size_t w = 0; w < 4 && j + w < n; ++w) use(uniform_index(bits[w], count));
  }
}

double median_in_place(std::vector<double>& v) {
  const std::size_t n = v.size();
  const auto upper = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), upper, v.end());
  if (n % 2 == 1) return *upper;
  return 0.5 * (*upper + *std::max_element(v.begin(), upper));
}

// Leave-one-out medians from the sorted values: dropping rank k leaves ranks
// j < k and j + 1 ≥ k + 1, whose middle is one of three values.
std::vector<double> jackknife_medians(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
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

}  // namespace

MedianSummary bootstrap_median(const std::vector<double>& values, const BootstrapOptions& options,
                               const RngStreamKey& key) {
  check_options(options);
  std::vector<double> sorted;
  for (double v : values)
    if (std::isfinite(v)) sorted.push_back(v);
  MedianSummary s;
  s.used = sorted.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (sorted.empty()) {
    s.median = s.mean = nan;
    s.percentile = s.bca = {nan, nan};
    return s;
  }
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  s.median = quantile_of_sorted(sorted.data(), n, 0.5);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);

  std::vector<double> medians(options.resamples);
#pragma omp parallel
  {
    std::vector<double> sample(n);
#pragma omp for schedule(static)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(options.resamples); ++b) {
      std::size_t i = 0;
      for_each_resampled(key, static_cast<std::uint32_t>(b), 0, n, [&](std::uint32_t k) { sample[i++] = sorted[k]; });
      medians[b] = median_in_place(sample);
    }
  }
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
                                             const BootstrapOptions& options, const RngStreamKey& key) {
  check_options(options);
  std::vector<double> sa, sb;
  for (double v : a)
    if (std::isfinite(v)) sa.push_back(v);
  for (double v : b)
    if (std::isfinite(v)) sb.push_back(v);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (sa.empty() || sb.empty()) return {nan, {nan, nan}};
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  // Σ_i w_i Σ_j v_j ([a_i < b_j] + [a_i = b_j]/2) / (Σw Σv) by one merge of the
  // sorted values: the weight of b below a_i and at or below a_i only grow.
  const auto weighted = [&](const std::vector<double>& wa, const std::vector<double>& wb) {
    const double total_b = std::accumulate(wb.begin(), wb.end(), 0.0);
    double b_below = 0, b_at_or_below = 0, sum = 0;
    std::size_t below = 0, at_or_below = 0;
    for (std::size_t i = 0; i < sa.size(); ++i) {
      while (below < sb.size() && sb[below] < sa[i]) b_below += wb[below++];
      while (at_or_below < sb.size() && sb[at_or_below] <= sa[i]) b_at_or_below += wb[at_or_below++];
      sum += wa[i] * (total_b - 0.5 * (b_below + b_at_or_below));
    }
    return sum / (std::accumulate(wa.begin(), wa.end(), 0.0) * total_b);
  };
  ProbabilityBelow r;
  r.p = weighted(std::vector<double>(sa.size(), 1.0), std::vector<double>(sb.size(), 1.0));
  std::vector<double> ps(options.resamples);
#pragma omp parallel
  {
    std::vector<double> wa(sa.size()), wb(sb.size());
#pragma omp for schedule(static)
    for (std::int64_t r_ = 0; r_ < static_cast<std::int64_t>(options.resamples); ++r_) {
      std::fill(wa.begin(), wa.end(), 0.0);
      std::fill(wb.begin(), wb.end(), 0.0);
      const auto resample = static_cast<std::uint32_t>(r_);
      for_each_resampled(key, resample, 0, sa.size(), [&](std::uint32_t k) { wa[k] += 1; });
      for_each_resampled(key, resample, 1, sb.size(), [&](std::uint32_t k) { wb[k] += 1; });
      ps[r_] = weighted(wa, wb);
    }
  }
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
