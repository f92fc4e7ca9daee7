#include "estimators/hurst.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <numeric>

#include "estimators/empirical.hpp"
#include "estimators/series.hpp"
#include "kernels/portability.hpp"

namespace gs {

namespace {

// Up to `count` distinct integers log-spaced in [lo, hi].
std::vector<std::size_t> log_spaced(std::size_t lo, std::size_t hi, int count) {
  std::vector<std::size_t> sizes;
  if (hi < lo) return sizes;
  for (int i = 0; i < count; ++i) {
    const double t = count == 1 ? 0.0 : static_cast<double>(i) / (count - 1);
    const auto s =
        static_cast<std::size_t>(std::llround(std::exp(std::log(double(lo)) * (1 - t) + std::log(double(hi)) * t)));
    if (sizes.empty() || s != sizes.back()) sizes.push_back(s);
  }
  return sizes;
}

struct Line {
  double slope, intercept, slope_se;
  double sxx;  // Σ w (x − x̄)²: with weights 1/Var(y) the slope's variance is 1/sxx
};

// Weighted least squares y ≈ a + b·x (unit weights when `w` is empty).
Line least_squares(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w = {}) {
  double sw = 0, sx = 0, sy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double wi = w.empty() ? 1.0 : w[i];
    sw += wi, sx += wi * x[i], sy += wi * y[i];
  }
  const double mx = sx / sw, my = sy / sw;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double wi = w.empty() ? 1.0 : w[i];
    sxx += wi * (x[i] - mx) * (x[i] - mx), sxy += wi * (x[i] - mx) * (y[i] - my);
  }
  Line line{sxy / sxx, 0, 0, sxx};
  line.intercept = my - line.slope * mx;
  double rss = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - line.intercept - line.slope * x[i];
    rss += (w.empty() ? 1.0 : w[i]) * r * r;
  }
  line.slope_se = x.size() > 2 ? std::sqrt(rss / static_cast<double>(x.size() - 2) / sxx) : NAN;
  return line;
}

// c[0] = 0, c[i] = x[0] + … + x[i−1]: block sums as differences.
std::vector<double> prefix_sums(const std::vector<double>& x) {
  std::vector<double> c(x.size() + 1, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) c[i + 1] = c[i] + x[i];
  return c;
}

// One point of a log–log diagnostic plot; statistics ≤ 0 (no spread) have no logarithm.
void add_point(HurstEstimate& e, double scale, double statistic) {
  if (!(statistic > 0)) return;
  e.log_scale.push_back(std::log10(scale));
  e.log_statistic.push_back(std::log10(statistic));
}

HurstEstimate too_short(std::size_t n, std::size_t minimum) {
  HurstEstimate estimate;
  estimate.note = fmt::format("needs at least {} values, has {}", minimum, n);
  return estimate;
}

// The least-squares line through the plot; false (and `why_not` as the note) with fewer than 3 points.
bool fit_plot(HurstEstimate& e, const char* why_not) {
  if (e.log_scale.size() < 3) {
    e.note = why_not;
    return false;
  }
  const Line line = least_squares(e.log_scale, e.log_statistic);
  e.slope = line.slope, e.intercept = line.intercept, e.se = line.slope_se;
  return true;
}

// log of fGn's spectral density up to a constant factor:
// f(λ; H) ∝ (1 − cos λ) Σ_{k∈Z} |λ + 2πk|^{−2H−1}; the sum to |k| = 20 exactly,
// the rest by the midpoint (Euler–Maclaurin) integral.
double log_fgn_spectrum(double lambda, double H) {
  const double e = 2 * H + 1;
  double sum = std::pow(lambda, -e);
  constexpr int kTerms = 20;
  for (int k = 1; k <= kTerms; ++k) sum += std::pow(2 * kPi * k + lambda, -e) + std::pow(2 * kPi * k - lambda, -e);
  const double tail_from = 2 * kPi * (kTerms + 0.5);
  sum += (std::pow(tail_from + lambda, 1 - e) + std::pow(tail_from - lambda, 1 - e)) / (2 * kPi * (e - 1));
  return std::log(2 * std::sin(kPi * H) * std::tgamma(2 * H + 1) * (1 - std::cos(lambda)) * sum);
}

}  // namespace

HurstEstimate hurst_rescaled_range(const std::vector<double>& x) {
  const std::size_t n = x.size();
  if (n < 40) return too_short(n, 40);
  constexpr std::size_t kStarts = 10;
  HurstEstimate e;
  const std::vector<double> cumulative = prefix_sums(x);
  for (std::size_t d : log_spaced(10, n / 2, 20)) {
    for (std::size_t s = 0; s < kStarts; ++s) {
      const std::size_t t = s * (n / kStarts);
      if (t + d > n) break;
      const double mean = (cumulative[t + d] - cumulative[t]) / static_cast<double>(d);
      double lo = 0, hi = 0, sq = 0;
      for (std::size_t k = 1; k <= d; ++k) {
        const double w = cumulative[t + k] - cumulative[t] - static_cast<double>(k) * mean;
        lo = std::min(lo, w), hi = std::max(hi, w);
        const double dev = x[t + k - 1] - mean;
        sq += dev * dev;
      }
      const double S = std::sqrt(sq / static_cast<double>(d));
      if (S > 0) add_point(e, static_cast<double>(d), (hi - lo) / S);
    }
  }
  if (fit_plot(e, "fewer than 3 blocks with a spread")) e.H = e.slope;
  return e;
}

HurstEstimate hurst_aggregated_variance(const std::vector<double>& x) {
  const std::size_t n = x.size();
  if (n < 100) return too_short(n, 100);
  HurstEstimate e;
  for (std::size_t m : log_spaced(4, n / 10, 20)) {
    std::vector<double> means(n / m, 0.0);
    for (std::size_t i = 0; i < means.size() * m; ++i) means[i / m] += x[i];
    for (double& mean : means) mean /= static_cast<double>(m);
    const double sd = mean_and_sd(means).sd;
    add_point(e, static_cast<double>(m), sd * sd);
  }
  if (fit_plot(e, "constant series")) e.H = 1 + e.slope / 2, e.se /= 2;
  return e;
}

HurstEstimate hurst_dfa(const std::vector<double>& x) {
  const std::size_t n = x.size();
  if (n < 64) return too_short(n, 64);
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  std::vector<double> profile(n);
  double running = 0;
  for (std::size_t i = 0; i < n; ++i) profile[i] = running += x[i] - mean;
  HurstEstimate e;
  for (std::size_t s : log_spaced(8, n / 4, 20)) {
    const std::size_t boxes = n / s;
    // Residual sum of squares of a line through s points: Syy − Sty²/Stt about the means.
    const double ds = static_cast<double>(s), t_mean = (ds - 1) / 2, stt = ds * (ds * ds - 1) / 12;
    double residual = 0;
    for (std::size_t b = 0; b < boxes; ++b) {
      double sy = 0, syy = 0, sty = 0;
      for (std::size_t i = 0; i < s; ++i) {
        const double y = profile[b * s + i];
        sy += y, syy += y * y, sty += (static_cast<double>(i) - t_mean) * y;
      }
      residual += (syy - sy * sy / ds) - sty * sty / stt;
    }
    const double F2 = residual / static_cast<double>(boxes * s);
    if (F2 > 0) add_point(e, ds, std::sqrt(F2));
  }
  if (fit_plot(e, "constant series")) e.H = e.slope;
  return e;
}

HurstEstimate hurst_whittle(const std::vector<double>& x) {
  const std::size_t n = x.size();
  if (n < 64) return too_short(n, 64);
  const std::vector<double> I = periodogram(x);
  const std::size_t m = I.size();
  std::vector<double> lambda(m);
  for (std::size_t j = 0; j < m; ++j) lambda[j] = 2 * kPi * static_cast<double>(j + 1) / static_cast<double>(n);
  std::vector<double> log_f(m);
  const auto objective = [&](double H) {
    double ratio = 0, log_sum = 0;
    for (std::size_t j = 0; j < m; ++j) {
      log_f[j] = log_fgn_spectrum(lambda[j], H);
      ratio += I[j] / std::exp(log_f[j]);
      log_sum += log_f[j];
    }
    return std::log(ratio / static_cast<double>(m)) + log_sum / static_cast<double>(m);
  };
  HurstEstimate e;
  if (std::all_of(I.begin(), I.end(), [](double v) { return v == 0; })) return e.note = "constant series", e;
  const auto [H, value] = boost::math::tools::brent_find_minima(objective, 0.01, 0.99, 30);
  (void)value;
  e.H = H;
  // Fisher information of the profiled Whittle likelihood: integrals over (−π, π)
  // of g = ∂ log f/∂H, as sums over the Fourier frequencies (both signs).
  constexpr double kStep = 1e-5;
  double sum_g = 0, sum_g2 = 0;
  for (std::size_t j = 0; j < m; ++j) {
    const double g = (log_fgn_spectrum(lambda[j], H + kStep) - log_fgn_spectrum(lambda[j], H - kStep)) / (2 * kStep);
    sum_g += g, sum_g2 += g * g;
  }
  const double scale = 2 * (2 * kPi / static_cast<double>(n));
  const double information = scale * sum_g2 - (scale * sum_g) * (scale * sum_g) / (2 * kPi);
  e.se = std::sqrt(4 * kPi / (static_cast<double>(n) * information));
  if (H < 0.02 || H > 0.98) e.note = "at the edge of (0, 1): the series is not fGn-like";
  return e;
}

HurstEstimate hurst_local_whittle(const std::vector<double>& x) {
  const std::size_t n = x.size();
  if (n < 64) return too_short(n, 64);
  const std::vector<double> I = periodogram(x);
  const auto m = std::min(I.size(), static_cast<std::size_t>(std::floor(std::pow(static_cast<double>(n), 0.65))));
  std::vector<double> log_lambda(m);
  double mean_log_lambda = 0;
  for (std::size_t j = 0; j < m; ++j) {
    log_lambda[j] = std::log(2 * kPi * static_cast<double>(j + 1) / static_cast<double>(n));
    mean_log_lambda += log_lambda[j] / static_cast<double>(m);
  }
  HurstEstimate e;
  if (std::all_of(I.begin(), I.begin() + static_cast<std::ptrdiff_t>(m), [](double v) { return v == 0; }))
    return e.note = "constant series", e;
  const auto objective = [&](double d) {
    double sum = 0;
    for (std::size_t j = 0; j < m; ++j) sum += std::exp(2 * d * (log_lambda[j] - mean_log_lambda)) * I[j];
    return std::log(sum / static_cast<double>(m));  // the −2d·mean log λ term is folded into the scaling
  };
  const auto [d, value] = boost::math::tools::brent_find_minima(objective, -0.499, 0.999, 30);
  (void)value;
  e.H = d + 0.5;
  e.se = 1 / (2 * std::sqrt(static_cast<double>(m)));
  if (d > 0.49) e.note = "d ≥ 1/2: non-stationary (H > 1)";
  return e;
}

HurstEstimate hurst_stable(const std::vector<double>& x) {
  const std::size_t n = x.size();
  constexpr std::size_t kMinCoefficients = 16;
  if (n < 4 * kMinCoefficients) return too_short(n, 4 * kMinCoefficients);
  const std::vector<double> cumulative = prefix_sums(x);
  HurstEstimate e;
  std::vector<double> octave, mean_log, weight;
  // Octaves from j = 3 (blocks of 8) while ≥ 16 coefficients remain; from j = 1 when that leaves < 3 octaves.
  std::size_t first = 3;
  while (first > 1 && (n >> first) / kMinCoefficients < 4) --first;
  std::size_t zero_levels = 0;
  for (std::size_t j = first; (n >> j) >= kMinCoefficients; ++j) {
    const std::size_t block = std::size_t{1} << j, half = block / 2, count = n / block;
    double sum = 0, sum_sq = 0;
    std::size_t used = 0;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t t = k * block;
      const double d = (cumulative[t + half] - cumulative[t]) - (cumulative[t + block] - cumulative[t + half]);
      if (d == 0) continue;  // ties of integer counts: log|0| is −∞
      const double l = std::log2(std::fabs(d));
      sum += l, sum_sq += l * l, ++used;
    }
    if (used < kMinCoefficients || used * 20 < count * 19) {  // more than 5 % zeros: the level says little
      ++zero_levels;
      continue;
    }
    const double mean = sum / static_cast<double>(used);
    const double var = std::max(1e-12, sum_sq / static_cast<double>(used) - mean * mean);
    octave.push_back(static_cast<double>(j));
    mean_log.push_back(mean);
    weight.push_back(static_cast<double>(used) / var);
    e.log_scale.push_back(std::log10(static_cast<double>(block)));
    e.log_statistic.push_back(mean * std::log10(2.0));
  }
  if (octave.size() < 3) return e.note = "fewer than 3 octaves with enough non-zero wavelet coefficients", e;
  // Var(Y_j) = var_j/n_j = 1/w_j, so the weighted fit's slope variance is 1/Σ w (x − x̄)².
  const Line line = least_squares(octave, mean_log, weight);
  e.H = line.slope;
  e.se = std::sqrt(1 / line.sxx);
  e.slope = line.slope;  // log10 statistic vs log10 scale has the same slope as log2 vs octave
  e.intercept = line.intercept * std::log10(2.0);
  if (zero_levels > 0)
    e.note = fmt::format("{} octave(s) left out: more than 5 % of their coefficients were 0", zero_levels);
  return e;
}

const std::vector<NamedHurstEstimator>& hurst_estimators() {
  static const std::vector<NamedHurstEstimator> all = {
      {"rs", hurst_rescaled_range}, {"aggvar", hurst_aggregated_variance},  {"dfa", hurst_dfa},
      {"whittle", hurst_whittle},   {"local_whittle", hurst_local_whittle}, {"stable", hurst_stable}};
  return all;
}

std::vector<std::string> hurst_estimator_keys() {
  std::vector<std::string> keys;
  for (const auto& e : hurst_estimators()) keys.push_back(e.key);
  return keys;
}

HurstEstimator find_hurst_estimator(const std::string& key) {
  for (const auto& e : hurst_estimators())
    if (key == e.key) return e.estimate;
  return nullptr;
}

}  // namespace gs
