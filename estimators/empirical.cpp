#include "estimators/empirical.hpp"

#include <algorithm>
#include <boost/sort/pdqsort/pdqsort.hpp>
#include <cmath>

#include "host/base/errors.hpp"

namespace gs {

void sort_values(std::vector<double>& values) { boost::sort::pdqsort_branchless(values.begin(), values.end()); }

SortedSample::SortedSample(std::vector<double> values) : values_(std::move(values)) {
  if (values_.empty()) throw UserError("an empirical distribution needs at least one value");
  for (double v : values_) {
    if (std::isnan(v)) throw UserError("an empirical distribution cannot contain NaN");
  }
  sort_values(values_);
}

double SortedSample::cdf(double x) const {
  const auto above = std::upper_bound(values_.begin(), values_.end(), x);
  return static_cast<double>(above - values_.begin()) / static_cast<double>(values_.size());
}

double SortedSample::quantile(double p) const {
  if (!(p >= 0 && p <= 1)) throw UserError("a quantile level must lie in [0, 1]");
  return quantile_of_sorted(values_.data(), values_.size(), p);
}

std::vector<std::pair<double, double>> qq_points(const SortedSample& sample,
                                                 const std::function<double(double)>& quantile, std::size_t points) {
  std::vector<std::pair<double, double>> qq;
  for (std::size_t i = 1; i <= points; ++i) {
    const double p = (static_cast<double>(i) - 0.5) / static_cast<double>(points);
    qq.emplace_back(quantile(p), sample.quantile(p));
  }
  return qq;
}

}  // namespace gs
