// Empirical distribution of a sample: CDF, quantiles (Hyndman–Fan type 7, the
// default of R and numpy) and the interquartile range, a robust scale for
// heavy-tailed laws whose variance does not exist.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
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

// The type-7 quantile at p in [0, 1] of n ≥ 1 sorted values.
double quantile_of_sorted(const double* sorted, std::size_t n, double p);

// Sample mean and standard deviation (denominator n − 1; sd = 0 for one value).
struct MeanSd {
  double mean, sd;
};
MeanSd mean_and_sd(const std::vector<double>& values);

// QQ data: (theoretical, empirical) quantiles at p = (i − 1/2)/points, i = 1..points,
// against a law given by its quantile function (a fitted or a given one).
std::vector<std::pair<double, double>> qq_points(const SortedSample& sample,
                                                 const std::function<double(double)>& quantile, std::size_t points);

}  // namespace gs
