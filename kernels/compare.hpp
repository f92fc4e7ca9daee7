// The per-replica comparison formulas of a study (docs/studies.md), mostly on sorted values, written once for the CPU
// loop and for the GPU kernels after a segmented sort (host/engine/cuda/cuda_compare.cu). And the bootstrap's
// resampling: its Philox indices and the statistics of a resample from its counts (estimators/bootstrap.cpp,
// host/engine/cuda/cuda_bootstrap.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "philox.hpp"
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

// |F_x(v) − F_y(v)| where i of the nx values of x and j of the ny of y are ≤ v.
GS_HD GS_INLINE double ks_gap(std::size_t i, std::size_t nx, std::size_t j, std::size_t ny) {
  const double gap = static_cast<double>(i) / static_cast<double>(nx) - static_cast<double>(j) / static_cast<double>(ny);
  return gap < 0 ? -gap : gap;
}

// How many of the n sorted values are ≤ v (binary search).
template <class Real>
GS_HD GS_INLINE std::size_t count_at_most(const Real* sorted, std::size_t n, double v) {
  std::size_t low = 0, high = n;
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (static_cast<double>(sorted[middle]) <= v) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

// ks_gap at the value v of either sample: the GPU's KS distance is the largest
// of these over every value of both samples.
template <class RealX, class RealY>
GS_HD GS_INLINE double ks_gap_at(const RealX* x, std::size_t nx, const RealY* y, std::size_t ny, double v) {
  return ks_gap(count_at_most(x, nx, v), nx, count_at_most(y, ny, v), ny);
}

// Two-sample Kolmogorov–Smirnov distance sup_x |F_x(x) − F_y(x)| of sorted
// samples, evaluated after every distinct value (ties move both CDFs at once).
// The GPU takes the same maximum by ks_gap_at over every value of both samples,
// in parallel (cuda_compare.cu): the same bits.
template <class RealX, class RealY>
GS_HD GS_INLINE double ks_distance_of_sorted(const RealX* x, std::size_t nx, const RealY* y, std::size_t ny) {
  std::size_t i = 0, j = 0;
  double distance = 0;
  while (i < nx && j < ny) {
    const double value =
        static_cast<double>(x[i]) <= static_cast<double>(y[j]) ? static_cast<double>(x[i]) : static_cast<double>(y[j]);
    while (i < nx && static_cast<double>(x[i]) <= value) ++i;
    while (j < ny && static_cast<double>(y[j]) <= value) ++j;
    const double gap = ks_gap(i, nx, j, ny);
    distance = gap > distance ? gap : distance;
  }
  return distance;
}

// An index uniform on 0..n−1 from one 32-bit Philox word (multiply–shift: the
// bias is below n / 2^32, negligible for the replica counts of a study).
GS_HD GS_INLINE std::uint32_t uniform_index(std::uint32_t word, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(word) * n) >> 32);
}

// The bootstrap's draws: resample b (with draw d) of n values takes index j
// from word j mod 4 of Philox call (key, b, j/4, d). `use` gets the four
// indices of call `call` (fewer in the last call).
template <class Use>
GS_HD GS_INLINE void for_each_index_of_call(const RngStreamKey& key, std::uint32_t resample, std::uint32_t draw,
                                            std::uint64_t call, std::uint32_t n, Use&& use) {
  const PhiloxBits bits = philox_bits(key, resample, call, draw);
  for (std::uint64_t w = 0; w < 4 && 4 * call + w < n; ++w) use(uniform_index(bits[w], n));
}

// The median of a resample from how often it drew each of the n sorted values
// (the counts sum to n): rank ⌊n/2⌋ (0-based) for odd n, the mean of ranks
// n/2 − 1 and n/2 for even n. Selection only, so every backend gets the bits.
template <class Count>
GS_HD GS_INLINE double median_of_counts(const double* sorted, const Count* counts, std::uint64_t n) {
  const std::uint64_t upper = n / 2;
  double lower = 0;
  std::uint64_t seen = 0;
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t next = seen + counts[k];
    if (n % 2 == 0 && seen + 1 <= upper && upper < next + 1) lower = sorted[k];  // holds rank upper − 1
    if (seen <= upper && upper < next) return n % 2 == 1 ? sorted[k] : 0.5 * (lower + sorted[k]);
    seen = next;
  }
  return std::numeric_limits<double>::quiet_NaN();  // counts summing to less than n
}

// Σ_i wa_i Σ_j wb_j ([a_i < b_j] + [a_i = b_j]/2) / (Σ wa · Σ wb) over sorted
// a and b with integer weights (a resample's counts; all 1 for the estimate):
// the Mann–Whitney probability P(A < B) + P(A = B)/2, by one merge, as the
// weight of b below a_i and at or below a_i only grow. Integer-valued sums, so
// exact in double whatever the order.
template <class Count>
GS_HD GS_INLINE double probability_below_of_counts(const double* a, const Count* wa, std::uint64_t na, const double* b,
                                                   const Count* wb, std::uint64_t nb) {
  double total_a = 0, total_b = 0;
  for (std::uint64_t i = 0; i < na; ++i) total_a += static_cast<double>(wa[i]);
  for (std::uint64_t j = 0; j < nb; ++j) total_b += static_cast<double>(wb[j]);
  double b_below = 0, b_at_or_below = 0, sum = 0;
  std::uint64_t below = 0, at_or_below = 0;
  for (std::uint64_t i = 0; i < na; ++i) {
    while (below < nb && b[below] < a[i]) b_below += static_cast<double>(wb[below++]);
    while (at_or_below < nb && b[at_or_below] <= a[i]) b_at_or_below += static_cast<double>(wb[at_or_below++]);
    sum += static_cast<double>(wa[i]) * (total_b - 0.5 * (b_below + b_at_or_below));
  }
  return sum / (total_a * total_b);
}

}  // namespace gs
