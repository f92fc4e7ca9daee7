#include "estimators/hurst.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numeric>

#include "estimators/series.hpp"
#include "host/base/parallel.hpp"

namespace gs {

namespace {

// The Whittle estimators' sums over frequencies on the host: in order below
// 4096 frequencies, else in blocks on every core (the same bits either way).
struct HostSum {
  template <class Term>
  HurstSums operator()(std::size_t count, Term term) const {
    return blocked_sum<HurstSums>(count, term);
  }
};

std::string note_text(const HurstResult& r, std::size_t n, std::size_t minimum) {
  switch (r.note) {
    case HurstNote::none:
      return "";
    case HurstNote::too_short:
      return fmt::format("needs at least {} values, has {}", minimum, n);
    case HurstNote::no_spread_blocks:
      return "fewer than 3 blocks with a spread";
    case HurstNote::constant_series:
      return "constant series";
    case HurstNote::few_octaves:
      return "fewer than 3 octaves with enough non-zero wavelet coefficients";
    case HurstNote::octaves_left_out:
      return fmt::format("{} octave(s) left out: more than 5 % of their coefficients were 0", r.left_out);
    case HurstNote::edge_of_range:
      return "at the edge of (0, 1): the series is not fGn-like";
    case HurstNote::non_stationary:
      return "d ≥ 1/2: non-stationary (H > 1)";
  }
  return "";
}

HurstEstimate estimate(HurstMethod method, const std::vector<double>& x) {
  const std::size_t n = x.size(), minimum = hurst_minimum_length(method);
  HurstResult result;
  std::vector<HurstPoint> points;
  if (n < minimum) {
    result.note = HurstNote::too_short;
  } else if (method == HurstMethod::whittle) {
    result = whittle_hurst(HostSum{}, periodogram(x).data(), n);
  } else if (method == HurstMethod::local_whittle) {
    result = local_whittle_hurst(HostSum{}, periodogram(x).data(), n);
  } else {
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
    points.resize(static_cast<std::size_t>(hurst_point_count(method, n)));
    for (std::size_t p = 0; p < points.size(); ++p)
      points[p] = hurst_point(method, x.data(), n, static_cast<int>(p), mean);
    result = hurst_from_plot(method, points.data(), static_cast<int>(points.size()));
  }
  HurstEstimate e;
  e.H = result.H, e.se = result.se, e.slope = result.slope, e.intercept = result.intercept;
  e.note = note_text(result, n, minimum);
  e.at_edge = result.note == HurstNote::edge_of_range || result.note == HurstNote::non_stationary;
  // A plot's slope is not bounded: R/S, aggregated variance, DFA and the wavelets can give an H no
  // stationary series has, and it must not pass for one.
  if (std::isfinite(e.H) && !(e.H > 0 && e.H < 1) && !e.at_edge) {
    e.note = fmt::format(
                 "H = {:.3g} is outside (0, 1): no stationary fGn-like series has it (a trend, a level "
                 "shift, or too few values)",
                 e.H) +
             (e.note.empty() ? "" : "; " + e.note);
    e.at_edge = true;
  }
  for (const HurstPoint& p : points) {
    if (p.kind != HurstPointKind::used) continue;
    e.log_scale.push_back(p.log_scale);
    e.log_statistic.push_back(p.log_statistic);
  }
  return e;
}

}  // namespace

HurstEstimate hurst_rescaled_range(const std::vector<double>& x) { return estimate(HurstMethod::rescaled_range, x); }
HurstEstimate hurst_aggregated_variance(const std::vector<double>& x) {
  return estimate(HurstMethod::aggregated_variance, x);
}
HurstEstimate hurst_dfa(const std::vector<double>& x) { return estimate(HurstMethod::dfa, x); }
HurstEstimate hurst_whittle(const std::vector<double>& x) { return estimate(HurstMethod::whittle, x); }
HurstEstimate hurst_local_whittle(const std::vector<double>& x) { return estimate(HurstMethod::local_whittle, x); }
HurstEstimate hurst_stable(const std::vector<double>& x) { return estimate(HurstMethod::stable, x); }

const std::vector<NamedHurstEstimator>& hurst_estimators() {
  static const std::vector<NamedHurstEstimator> all = {
      {"rs", hurst_rescaled_range, HurstMethod::rescaled_range},
      {"aggvar", hurst_aggregated_variance, HurstMethod::aggregated_variance},
      {"dfa", hurst_dfa, HurstMethod::dfa},
      {"whittle", hurst_whittle, HurstMethod::whittle},
      {"local_whittle", hurst_local_whittle, HurstMethod::local_whittle},
      {"stable", hurst_stable, HurstMethod::stable}};
  return all;
}

std::vector<std::string> hurst_estimator_keys() {
  std::vector<std::string> keys;
  for (const auto& e : hurst_estimators()) keys.push_back(e.key);
  return keys;
}

const NamedHurstEstimator* find_hurst_estimator(const std::string& key) {
  for (const auto& e : hurst_estimators())
    if (key == e.key) return &e;
  return nullptr;
}

}  // namespace gs
