#include "estimators/burstiness.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"

namespace gs {

Burstiness burstiness(const std::vector<double>& series) {
  if (series.empty()) throw UserError("burstiness of an empty series");
  Burstiness b;
  const MeanSd whole = mean_and_sd(series);
  b.mean = whole.mean, b.sd = whole.sd;
  b.peak = *std::max_element(series.begin(), series.end());
  const BurstinessRatios ratios = burstiness_ratios(whole, b.peak);
  b.cv = ratios.cv, b.peak_to_mean = ratios.peak_to_mean;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr std::size_t kMinBlocks = 10;
  for (std::size_t m = 1; series.size() / m >= kMinBlocks; m *= 2) {
    std::vector<double> sums(series.size() / m, 0.0);
    for (std::size_t i = 0; i < sums.size() * m; ++i) sums[i / m] += series[i];
    const auto [mean, sd] = mean_and_sd(sums);
    b.idc_scales.push_back(m);
    b.idc.push_back(mean != 0 ? sd * sd / mean : nan);
  }
  return b;
}

}  // namespace gs
