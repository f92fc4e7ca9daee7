// The per-replica comparison formulas of a study (README, "Comparison
// studies"), on sorted values, written once for the CPU loop and for a GPU
// kernel after a segmented sort. And the bootstrap's resampling index.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portability.hpp"

namespace gs {

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
