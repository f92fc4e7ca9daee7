// Empirical distribution of a sample: CDF, quantiles (Hyndman–Fan type 7, the
// default of R and numpy) and the interquartile range, a robust scale for
// heavy-tailed laws whose variance does not exist.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "kernels/compare.hpp"

namespace gs {

// Sorts values without NaN ascending: Boost's branchless pattern-defeating
// quicksort, 2× std::sort on continuous values and 4× on counts (replicas
// are sorted for every comparison metric; bench/results/2026-11-24-*).
void sort_values(std::vector<double>& values);

class SortedSample {
 public:
  explicit SortedSample(std::vector<double> values);  // NaN is rejected (UserError)

  std::size_t size() const { return values_.size(); }
  double cdf(double x) const;       // fraction of values ≤ x
  double quantile(double p) const;  // p in [0, 1]
  double interquartile_range() const { return quantile(0.75) - quantile(0.25); }
  const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
};

// quantile_of_sorted (type 7) and mean_and_sd_of are kernels/compare.hpp's.
inline MeanSd mean_and_sd(const std::vector<double>& values) { return mean_and_sd_of(values.data(), values.size()); }

// QQ data: (theoretical, empirical) quantiles at p = (i − 1/2)/points, i = 1..points,
// against a law given by its quantile function (a fitted or a given one).
std::vector<std::pair<double, double>> qq_points(const SortedSample& sample,
                                                 const std::function<double(double)>& quantile, std::size_t points);

}  // namespace gs
