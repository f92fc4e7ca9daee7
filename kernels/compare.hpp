// The per-replica comparison formulas of a study (README, "Comparison
// studies"), mostly on sorted values, written once for the CPU loop and for
// the GPU kernels after a segmented sort (host/cuda/cuda_compare.cu). And the
// bootstrap's resampling index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "portability.hpp"

namespace gs {

// The type-7 quantile (Hyndman–Fan; numpy's and R's default) at p ∈ [0, 1] of
// n ≥ 1 sorted values.
template <class Real>
GS_HD GS_INLINE double quantile_of_sorted(const Real* sorted, std::size_t n, double p) {
  const double h = (static_cast<double>(n) - 1) * p;
  const auto lo = static_cast<std::size_t>(gs::floor(h));
  const std::size_t hi = lo + 1 < n ? lo + 1 : n - 1;
  const double at_lo = static_cast<double>(sorted[lo]);
  return at_lo + (h - static_cast<double>(lo)) * (static_cast<double>(sorted[hi]) - at_lo);
}

// Sample mean and standard deviation (denominator n − 1; sd = 0 for one
// value), in two passes over x.
struct MeanSd {
  double mean, sd;
};
template <class Real>
GS_HD GS_INLINE MeanSd mean_and_sd_of(const Real* x, std::size_t n) {
  double mean = 0;
  for (std::size_t i = 0; i < n; ++i) mean += static_cast<double>(x[i]);
  mean /= static_cast<double>(n);
  double ss = 0;
  for (std::size_t i = 0; i < n; ++i) ss += (static_cast<double>(x[i]) - mean) * (static_cast<double>(x[i]) - mean);
  return {mean, n > 1 ? gs::sqrt(ss / static_cast<double>(n - 1)) : 0.0};
}

// CV = sd/mean and peak-to-mean = peak/mean, NaN where the mean is 0.
struct BurstinessRatios {
  double cv, peak_to_mean;
};
GS_HD GS_INLINE BurstinessRatios burstiness_ratios(MeanSd moments, double peak) {
  if (moments.mean == 0) return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  return {moments.sd / moments.mean, peak / moments.mean};
}

// The ACF distance of a study: the root mean square of a(k) − b(k) over lags
// 1..lags (NaN for lags = 0).
GS_HD GS_INLINE double acf_distance(const double* a, const double* b, std::size_t lags) {
  double ss = 0;
  for (std::size_t k = 1; k <= lags; ++k) ss += (a[k] - b[k]) * (a[k] - b[k]);
  return lags > 0 ? gs::sqrt(ss / static_cast<double>(lags)) : std::numeric_limits<double>::quiet_NaN();
}

// How many values a trimmed mean cuts from each end: ⌊trim · n⌋, as
// scipy.stats.trim_mean does (trim in [0, 1/2)).
GS_HD GS_INLINE std::size_t trimmed_count(std::size_t n, double trim) {
  return static_cast<std::size_t>(trim * static_cast<double>(n));
}

// The mean of sorted[cut .. n − cut) with cut = trimmed_count(n, trim).
template <class Real>
GS_HD GS_INLINE double trimmed_mean_of_sorted(const Real* sorted, std::size_t n, double trim) {
  const std::size_t cut = trimmed_count(n, trim);
  double sum = 0;
  for (std::size_t i = cut; i < n - cut; ++i) sum += static_cast<double>(sorted[i]);
  return sum / static_cast<double>(n - 2 * cut);
}

// Two-sample Kolmogorov–Smirnov distance sup_x |F_x(x) − F_y(x)| of sorted
// samples, evaluated after every distinct value (ties move both CDFs at once).
template <class RealX, class RealY>
GS_HD GS_INLINE double ks_distance_of_sorted(const RealX* x, std::size_t nx, const RealY* y, std::size_t ny) {
  std::size_t i = 0, j = 0;
  double distance = 0;
  while (i < nx && j < ny) {
    const double value =
        static_cast<double>(x[i]) <= static_cast<double>(y[j]) ? static_cast<double>(x[i]) : static_cast<double>(y[j]);
    while (i < nx && static_cast<double>(x[i]) <= value) ++i;
    while (j < ny && static_cast<double>(y[j]) <= value) ++j;
    const double gap =
        static_cast<double>(i) / static_cast<double>(nx) - static_cast<double>(j) / static_cast<double>(ny);
    distance = gap > distance ? gap : (-gap > distance ? -gap : distance);
  }
  return distance;
}

// An index uniform on 0..n−1 from one 32-bit Philox word (multiply–shift: the
// bias is below n / 2^32, negligible for the replica counts of a study).
GS_HD GS_INLINE std::uint32_t uniform_index(std::uint32_t word, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(word) * n) >> 32);
}

}  // namespace gs
