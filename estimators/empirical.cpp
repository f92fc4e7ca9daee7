#include "estimators/empirical.hpp"

#include <algorithm>
#include <cmath>

#include "host/errors.hpp"

namespace gs {

SortedSample::SortedSample(std::vector<double> values) : values_(std::move(values)) {
  if (values_.empty()) throw UserError("an empirical distribution needs at least one value");
  for (double v : values_) {
    if (std::isnan(v)) throw UserError("an empirical distribution cannot contain NaN");
  }
  std::sort(values_.begin(), values_.end());
}

double SortedSample::cdf(double x) const {
  const auto above = std::upper_bound(values_.begin(), values_.end(), x);
  return static_cast<double>(above - values_.begin()) / static_cast<double>(values_.size());
}

double SortedSample::quantile(double p) const {
  if (!(p >= 0 && p <= 1)) throw UserError("a quantile level must lie in [0, 1]");
  return quantile_of_sorted(values_.data(), values_.size(), p);
}

double quantile_of_sorted(const double* sorted, std::size_t n, double p) {
  const double h = (static_cast<double>(n) - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, n - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

MeanSd mean_and_sd(const std::vector<double>& values) {
  double mean = 0;
  for (double x : values) mean += x;
  mean /= static_cast<double>(values.size());
  double ss = 0;
  for (double x : values) ss += (x - mean) * (x - mean);
  return {mean, values.size() > 1 ? std::sqrt(ss / static_cast<double>(values.size() - 1)) : 0.0};
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
