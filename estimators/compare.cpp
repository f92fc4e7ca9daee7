#include "estimators/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimators/empirical.hpp"
#include "estimators/series.hpp"
#include "host/base/errors.hpp"
#include "kernels/compare.hpp"

namespace gs {

const char* metric_name(Metric metric) {
  switch (metric) {
    case Metric::trimmed_error:
      return "trimmed_error";
    case Metric::trimmed_error_aligned:
      return "trimmed_error_aligned";
    case Metric::ks:
      return "ks";
    case Metric::acf:
      return "acf";
    case Metric::hurst:
      return "hurst";
    case Metric::peak_to_mean_ratio:
      return "peak_to_mean_ratio";
    default:
      return "cv_ratio";
  }
}

std::optional<std::vector<Metric>> parse_metric(const std::string& name) {
  if (name == "burstiness") return std::vector<Metric>{Metric::peak_to_mean_ratio, Metric::cv_ratio};
  for (Metric m : {Metric::trimmed_error, Metric::trimmed_error_aligned, Metric::ks, Metric::acf, Metric::hurst,
                   Metric::peak_to_mean_ratio, Metric::cv_ratio})
    if (name == metric_name(m)) return std::vector<Metric>{m};
  return std::nullopt;
}

bool is_error_metric(Metric metric) {
  return metric == Metric::trimmed_error || metric == Metric::trimmed_error_aligned || metric == Metric::ks ||
         metric == Metric::acf;
}

std::optional<std::size_t> metric_index(const CompareOptions& options, Metric metric) {
  const auto at = std::find(options.metrics.begin(), options.metrics.end(), metric);
  if (at == options.metrics.end()) return std::nullopt;
  return static_cast<std::size_t>(at - options.metrics.begin());
}

std::string metric_definition(Metric metric, const CompareOptions& o) {
  switch (metric) {
    case Metric::trimmed_error:
      return fmt::format(
          "trimmed mean (cut floor({:g} n) values from each end, as scipy.stats.trim_mean) of |x_(i) - y_(i)|, "
          "i = 1..n, over the sorted real values x_(i) and the replica's type-7 quantiles y_(i) at p = (i-1)/(n-1) "
          "(its sorted values when the lengths agree): the distributional reading of the alpha-stable paper's "
          "trimmed mean of errors",
          o.trim);
    case Metric::trimmed_error_aligned:
      return fmt::format("trimmed mean (cut floor({:g} n) from each end) of |x_i - y_i| in time order", o.trim);
    case Metric::ks:
      return "two-sample Kolmogorov-Smirnov distance sup |F_real - F_replica|";
    case Metric::acf:
      return fmt::format("root mean square of r_replica(k) - r_real(k) over lags k = 1..{} (sample ACF, FFT)",
                         o.acf_lags);
    case Metric::hurst:
      return fmt::format("H(replica) - H(real) by the '{}' Hurst estimator", o.hurst_estimator);
    case Metric::peak_to_mean_ratio:
      return "(max/mean of the replica) / (max/mean of the real series)";
    default:
      return "(sd/mean of the replica) / (sd/mean of the real series)";
  }
}

SeriesProfile profile_series(std::vector<double> values, const CompareOptions& o) {
  if (values.size() < 2) throw UserError("a comparison needs series of at least 2 values");
  const NamedHurstEstimator* hurst = find_hurst_estimator(o.hurst_estimator);
  if (!hurst) throw UserError(fmt::format("no Hurst estimator '{}'", o.hurst_estimator));
  SeriesProfile p;
  p.values = std::move(values);
  p.sorted = p.values;
  sort_values(p.sorted);
  for (std::size_t i = 0; i < kCurveLevels; ++i)
    p.quantiles.push_back(
        quantile_of_sorted(p.sorted.data(), p.sorted.size(), static_cast<double>(i) / (kCurveLevels - 1)));
  p.acf = autocorrelation(p.values, std::min(o.acf_lags, p.values.size() - 1));
  p.hurst = std::numeric_limits<double>::quiet_NaN();
  if (metric_index(o, Metric::hurst)) {
    const HurstEstimate h = hurst->estimate(p.values);
    p.hurst = h.H;
    if (!std::isfinite(h.H)) p.hurst_note = h.note.empty() ? "the estimator found none" : h.note;
  }
  // The two ratios only (burstiness() also computes the IDC at every scale).
  const BurstinessRatios ratios = burstiness_ratios(mean_and_sd(p.values), p.sorted.back());
  p.peak_to_mean = ratios.peak_to_mean;
  p.cv = ratios.cv;
  return p;
}

ReplicaComparison compare_replica(const SeriesProfile& real, std::vector<double> replica, const CompareOptions& o) {
  const SeriesProfile y = profile_series(std::move(replica), o);
  const std::size_t n = real.values.size();
  ReplicaComparison c;
  std::vector<double> errors(n);
  for (Metric metric : o.metrics) {
    double value = std::numeric_limits<double>::quiet_NaN();
    switch (metric) {
      case Metric::trimmed_error:
        for (std::size_t i = 0; i < n; ++i) {
          const double p = n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.5;
          const double yi =
              y.sorted.size() == n ? y.sorted[i] : quantile_of_sorted(y.sorted.data(), y.sorted.size(), p);
          errors[i] = std::fabs(real.sorted[i] - yi);
        }
        sort_values(errors);
        value = trimmed_mean_of_sorted(errors.data(), n, o.trim);
        break;
      case Metric::trimmed_error_aligned:
        if (y.values.size() != n) throw UserError("trimmed_error_aligned needs replicas of the dataset's length");
        for (std::size_t i = 0; i < n; ++i) errors[i] = std::fabs(real.values[i] - y.values[i]);
        sort_values(errors);
        value = trimmed_mean_of_sorted(errors.data(), n, o.trim);
        break;
      case Metric::ks:
        value = ks_distance_of_sorted(real.sorted.data(), n, y.sorted.data(), y.sorted.size());
        break;
      case Metric::acf:
        value = acf_distance(y.acf.data(), real.acf.data(), std::min(real.acf.size(), y.acf.size()) - 1);
        break;
      case Metric::hurst:
        value = y.hurst - real.hurst;
        break;
      case Metric::peak_to_mean_ratio:
        value = y.peak_to_mean / real.peak_to_mean;
        break;
      case Metric::cv_ratio:
        value = y.cv / real.cv;
        break;
    }
    c.metrics.push_back(value);
  }
  c.quantiles = y.quantiles;
  c.acf = y.acf;
  return c;
}

}  // namespace gs
