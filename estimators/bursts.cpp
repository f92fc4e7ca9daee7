#include "estimators/bursts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "host/base/errors.hpp"

namespace gs {

namespace {

// Mean and population standard deviation, two passes (the second for accuracy).
std::pair<double, double> mean_and_sigma(const std::vector<double>& series) {
  if (series.empty()) throw UserError("burst threshold of an empty series");
  double sum = 0;
  for (double x : series) sum += x;
  const double mean = sum / static_cast<double>(series.size());
  double squares = 0;
  for (double x : series) squares += (x - mean) * (x - mean);
  return {mean, std::sqrt(squares / static_cast<double>(series.size()))};
}

}  // namespace

BurstThreshold burst_threshold_for_k(const std::vector<double>& series, double k) {
  BurstThreshold t;
  std::tie(t.mean, t.sigma) = mean_and_sigma(series);
  t.k = k;
  t.threshold = t.mean + k * t.sigma;
  return t;
}

BurstThreshold burst_threshold_for_share(const std::vector<double>& series, double share) {
  if (!(share > 0 && share < 1))
    throw UserError(fmt::format("burst share {} is out of range; accepted: 0 < share < 1", share));
  BurstThreshold t;
  std::tie(t.mean, t.sigma) = mean_and_sigma(series);
  const auto bursts = static_cast<std::size_t>(std::floor(share * static_cast<double>(series.size())));
  std::vector<double> sorted = series;
  // The (bursts + 1)-th largest value: only the `bursts` largest lie above it.
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(bursts), sorted.end(),
                   std::greater<>());
  t.threshold = sorted[bursts];
  t.k = t.sigma > 0 ? (t.threshold - t.mean) / t.sigma : 0.0;
  return t;
}

std::vector<int> burst_severity(const std::vector<double>& series, const BurstThreshold& t) {
  const double top = t.mean + 10 * t.sigma;
  const double width = (top - t.threshold) / 5;
  std::vector<int> classes(series.size(), 0);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double x = series[i];
    if (!(x > t.threshold)) continue;
    if (width <= 0 || x > top) {
      classes[i] = 6;
      continue;
    }
    classes[i] = 1 + std::min(4, static_cast<int>((x - t.threshold) / width));
  }
  return classes;
}

std::vector<std::size_t> burst_run_lengths(const std::vector<int>& severity) {
  std::vector<std::size_t> runs;
  std::size_t run = 0;
  for (int s : severity) {
    if (s > 0) {
      ++run;
    } else if (run > 0) {
      runs.push_back(run);
      run = 0;
    }
  }
  if (run > 0) runs.push_back(run);
  return runs;
}

std::vector<std::uint64_t> sigma_histogram(const std::vector<double>& series, double step, double limit) {
  const auto [mean, sigma] = mean_and_sigma(series);
  const auto bins = static_cast<std::size_t>(std::llround(2 * limit / step));
  std::vector<std::uint64_t> counts(bins, 0);
  for (double x : series) {
    const double z = sigma > 0 ? (x - mean) / sigma : 0.0;
    const double position = std::floor((z + limit) / step);
    const auto bin = static_cast<std::size_t>(std::clamp(position, 0.0, static_cast<double>(bins - 1)));
    ++counts[bin];
  }
  return counts;
}

std::vector<double> exponential_moving_average(const std::vector<double>& series, double window_bins) {
  if (!(window_bins >= 1)) throw UserError(fmt::format("EMA window {} bins; accepted: at least 1", window_bins));
  const double alpha = 2 / (window_bins + 1);
  std::vector<double> ema(series.size());
  for (std::size_t t = 0; t < series.size(); ++t)
    ema[t] = t == 0 ? series[0] : alpha * series[t] + (1 - alpha) * ema[t - 1];
  return ema;
}

std::vector<double> macd(const std::vector<double>& series, double short_window_bins, double long_window_bins) {
  std::vector<double> out = exponential_moving_average(series, short_window_bins);
  const std::vector<double> slow = exponential_moving_average(series, long_window_bins);
  for (std::size_t t = 0; t < out.size(); ++t) out[t] -= slow[t];
  return out;
}

BurstAwareStart burst_aware_start(const std::vector<int>& severity, double bin_seconds, double min_time,
                                  double max_time, double alpha, const BurstAwareOptions& options) {
  if (!(bin_seconds > 0 && min_time > 0 && max_time >= min_time))
    throw UserError(fmt::format("burst-aware start: bin {} s, min_time {} s, max_time {} s; accepted: bin > 0, "
                                "0 < min_time <= max_time",
                                bin_seconds, min_time, max_time));
  const double progress_free = bin_seconds;
  const double progress_burst = bin_seconds * min_time / max_time;
  BurstAwareStart best;
  best.score = INFINITY;
  const std::size_t numbering = options.one_based ? 1 : 0;
  for (std::size_t i = 0; i < options.options; ++i) {  // start in bin i of the pattern
    double remaining = min_time;
    std::size_t j = i;
    while (remaining > 1e-9 * min_time) {
      const bool burst = j < severity.size() && severity[j] > 0;
      remaining -= burst ? progress_burst : progress_free;
      ++j;
    }
    const double delay = static_cast<double>(i + numbering) * bin_seconds;
    const double runtime = static_cast<double>(j - i) * bin_seconds;
    const double score = alpha * delay + (1 - alpha) * runtime;
    if (score < best.score) best = {i + numbering, delay, runtime, score};
  }
  return best;
}

}  // namespace gs
