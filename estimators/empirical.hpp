// Empirical distribution of a sample: CDF, quantiles (Hyndman–Fan type 7, the
// default of R and numpy) and the interquartile range, a robust scale for
// heavy-tailed laws whose variance does not exist.
#pragma once

#include <cstddef>
#include <vector>

namespace gs {

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

}  // namespace gs
