// The Hurst estimators' formulas (docs/statistics.md), written
// once for the host (estimators/hurst.cpp: one series and its diagnostic plot)
// and for the device (host/engine/cuda/cuda_hurst.cu: one block per replica of a
// study's batch).
//
// The four plot estimators (R/S, aggregated variance, DFA and the log-wavelet
// `stable`) turn a series into at most kHurstMaxPoints candidate points of a
// log–log plot, each a function of the series alone, so the points can be
// computed in any order or in parallel; the line is then fitted through the
// used points in point order. The Whittle estimators minimise a profiled
// likelihood over the periodogram; their sums over frequencies go through a
// `SumOver` policy (a loop on the host, a block-wide reduction on the device):
// sum(count, term) returns the HurstSums of term(0) + … + term(count − 1).
#pragma once

#include <cstddef>
#include <limits>

#include "portability.hpp"

namespace gs {

enum class HurstMethod { rescaled_range, aggregated_variance, dfa, whittle, local_whittle, stable };

// Why an estimate is NaN, or what to keep in mind beside it.
enum class HurstNote {
  none,
  too_short,
  no_spread_blocks,
  constant_series,
  few_octaves,
  octaves_left_out,
  edge_of_range,
  non_stationary
};

struct HurstResult {
  double H = std::numeric_limits<double>::quiet_NaN();
  double se = std::numeric_limits<double>::quiet_NaN();
  double slope = std::numeric_limits<double>::quiet_NaN();  // of the plot's line (plot estimators)
  double intercept = std::numeric_limits<double>::quiet_NaN();
  HurstNote note = HurstNote::none;
  int left_out = 0;  // stable: octaves left out because of zero coefficients
};

// The shortest series each estimator accepts.
GS_HD GS_INLINE std::size_t hurst_minimum_length(HurstMethod method) {
  switch (method) {
    case HurstMethod::rescaled_range:
      return 40;
    case HurstMethod::aggregated_variance:
      return 100;
    default:
      return 64;
  }
}

// --- Plot estimators ---------------------------------------------------------

constexpr int kHurstScales = 20;          // block sizes per plot
constexpr int kRescaledRangeStarts = 10;  // R/S: equally spaced starting points per block size
constexpr int kHurstMaxPoints = kHurstScales * kRescaledRangeStarts;
constexpr std::size_t kWaveletMinCoefficients = 16;  // stable: an octave needs this many coefficients

enum class HurstPointKind : unsigned char { none, used, left_out };

// x = log10 of the scale, y = log10 of the statistic; weight 1 except for stable.
struct HurstPoint {
  double log_scale = 0, log_statistic = 0, weight = 1;
  HurstPointKind kind = HurstPointKind::none;
};

// The i-th of kHurstScales sizes log-spaced in [lo, hi], rounded (0 when hi < lo).
GS_HD GS_INLINE std::size_t log_spaced_size(std::size_t lo, std::size_t hi, int i) {
  if (hi < lo) return 0;
  const double t = static_cast<double>(i) / (kHurstScales - 1);
  const double size = gs::exp(gs::log(static_cast<double>(lo)) * (1 - t) + gs::log(static_cast<double>(hi)) * t);
  return static_cast<std::size_t>(gs::floor(size + 0.5));
}

// The i-th distinct size, or 0 when it repeats the one before (short series).
GS_HD GS_INLINE std::size_t distinct_log_spaced_size(std::size_t lo, std::size_t hi, int i) {
  const std::size_t size = log_spaced_size(lo, hi, i);
  return i > 0 && size == log_spaced_size(lo, hi, i - 1) ? 0 : size;
}

// stable: the first octave j (blocks of 2^j) is 3, lowered to 1 for series too
// short to leave 3 octaves from there; octaves run while ≥ 16 coefficients remain.
GS_HD GS_INLINE std::size_t first_wavelet_octave(std::size_t n) {
  std::size_t first = 3;
  while (first > 1 && (n >> first) / kWaveletMinCoefficients < 4) --first;
  return first;
}

GS_HD GS_INLINE int hurst_point_count(HurstMethod method, std::size_t n) {
  switch (method) {
    case HurstMethod::rescaled_range:
      return kHurstMaxPoints;
    case HurstMethod::aggregated_variance:
    case HurstMethod::dfa:
      return kHurstScales;
    case HurstMethod::stable: {
      int count = 0;
      for (std::size_t j = first_wavelet_octave(n); (n >> j) >= kWaveletMinCoefficients; ++j) ++count;
      return count;
    }
    default:
      return 0;
  }
}

GS_HD GS_INLINE HurstPoint used_point(double scale, double statistic) {
  HurstPoint point;
  if (!(statistic > 0)) return point;  // no spread: no logarithm
  point.log_scale = gs::log10(scale);
  point.log_statistic = gs::log10(statistic);
  point.kind = HurstPointKind::used;
  return point;
}

// R/S (Mandelbrot–Wallis) of the block x[0..d): the range of the cumulative
// deviations from the block mean over the block's standard deviation.
template <class Real>
GS_HD GS_INLINE HurstPoint rescaled_range_point(const Real* x, std::size_t n, int p) {
  const std::size_t d = distinct_log_spaced_size(10, n / 2, p / kRescaledRangeStarts);
  const std::size_t t = static_cast<std::size_t>(p % kRescaledRangeStarts) * (n / kRescaledRangeStarts);
  if (d == 0 || t + d > n) return {};
  const Real* block = x + t;
  double mean = 0;
  for (std::size_t k = 0; k < d; ++k) mean += static_cast<double>(block[k]);
  mean /= static_cast<double>(d);
  double lo = 0, hi = 0, deviation = 0, squares = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const double dev = static_cast<double>(block[k]) - mean;
    deviation += dev;
    lo = deviation < lo ? deviation : lo;
    hi = deviation > hi ? deviation : hi;
    squares += dev * dev;
  }
  const double S = gs::sqrt(squares / static_cast<double>(d));
  return S > 0 ? used_point(static_cast<double>(d), (hi - lo) / S) : HurstPoint{};
}

// The sample variance (denominator blocks − 1) of the means of ⌊n/m⌋ blocks of m.
template <class Real>
GS_HD GS_INLINE HurstPoint aggregated_variance_point(const Real* x, std::size_t n, int p) {
  const std::size_t m = distinct_log_spaced_size(4, n / 10, p);
  if (m == 0) return {};
  const std::size_t blocks = n / m;
  const auto block_mean = [=](std::size_t b) {
    double sum = 0;
    for (std::size_t i = b * m; i < (b + 1) * m; ++i) sum += static_cast<double>(x[i]);
    return sum / static_cast<double>(m);
  };
  double grand = 0;
  for (std::size_t b = 0; b < blocks; ++b) grand += block_mean(b);
  grand /= static_cast<double>(blocks);
  double squares = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const double deviation = block_mean(b) - grand;
    squares += deviation * deviation;
  }
  return used_point(static_cast<double>(m), squares / static_cast<double>(blocks - 1));
}

// DFA of order 1: the RMS residual of least-squares lines through the profile
// y_i = Σ_{k≤i} (x_k − mean) in boxes of s.
template <class Real>
GS_HD GS_INLINE HurstPoint dfa_point(const Real* x, std::size_t n, int p, double mean) {
  const std::size_t s = distinct_log_spaced_size(8, n / 4, p);
  if (s == 0) return {};
  const std::size_t boxes = n / s;
  // Residual sum of squares of a line through s points: Syy − Sty²/Stt about the means.
  const double ds = static_cast<double>(s), t_mean = (ds - 1) / 2, stt = ds * (ds * ds - 1) / 12;
  double residual = 0, profile = 0;
  for (std::size_t b = 0; b < boxes; ++b) {
    double sy = 0, syy = 0, sty = 0;
    for (std::size_t i = 0; i < s; ++i) {
      profile += static_cast<double>(x[b * s + i]) - mean;
      sy += profile, syy += profile * profile, sty += (static_cast<double>(i) - t_mean) * profile;
    }
    residual += (syy - sy * sy / ds) - sty * sty / stt;
  }
  const double F2 = residual / static_cast<double>(boxes * s);
  return F2 > 0 ? used_point(ds, gs::sqrt(F2)) : HurstPoint{};
}

// stable (Stoev, Pipiras and Taqqu's log-wavelet idea with the Haar wavelet):
// at octave j the coefficients D(j,k) = (sum of the first 2^(j−1) values of
// block k) − (sum of the next 2^(j−1)) of an H-self-similar increment process
// satisfy D(j,k) =d 2^(jH) D(0,k), so the mean of log2|D(j,k)| grows by H per
// octave whatever α is. Zero coefficients (ties of integer counts) have no
// logarithm; an octave with more than 5 % of them says little and is left out.
// The point is in log10 units (slope unchanged) with weight 1/Var(y).
template <class Real>
GS_HD GS_INLINE HurstPoint wavelet_point(const Real* x, std::size_t n, int p) {
  const std::size_t j = first_wavelet_octave(n) + static_cast<std::size_t>(p);
  const std::size_t block = std::size_t{1} << j, half = block / 2, count = n / block;
  double sum = 0, squares = 0;
  std::size_t used = 0;
  for (std::size_t k = 0; k < count; ++k) {
    double d = 0;
    for (std::size_t i = 0; i < half; ++i)
      d += static_cast<double>(x[k * block + i]) - static_cast<double>(x[k * block + half + i]);
    if (d == 0) continue;
    const double l = gs::log2(gs::fabs(d));
    sum += l, squares += l * l, ++used;
  }
  HurstPoint point;
  if (used < kWaveletMinCoefficients || used * 20 < count * 19) {
    point.kind = HurstPointKind::left_out;
    return point;
  }
  const double mean = sum / static_cast<double>(used);
  double var = squares / static_cast<double>(used) - mean * mean;
  var = var > 1e-12 ? var : 1e-12;
  const double log10_2 = 0.30102999566398120;
  point.log_scale = static_cast<double>(j) * log10_2;
  point.log_statistic = mean * log10_2;
  point.weight = static_cast<double>(used) / (var * log10_2 * log10_2);
  point.kind = HurstPointKind::used;
  return point;
}

// Candidate point p < hurst_point_count(method, n) of a plot estimator; `mean`
// (of the whole series) is used by DFA only.
template <class Real>
GS_HD GS_INLINE HurstPoint hurst_point(HurstMethod method, const Real* x, std::size_t n, int p, double mean) {
  switch (method) {
    case HurstMethod::rescaled_range:
      return rescaled_range_point(x, n, p);
    case HurstMethod::aggregated_variance:
      return aggregated_variance_point(x, n, p);
    case HurstMethod::dfa:
      return dfa_point(x, n, p, mean);
    case HurstMethod::stable:
      return wavelet_point(x, n, p);
    default:
      return {};
  }
}

struct PlotLine {
  double slope, intercept;
  double slope_se;  // OLS: from the residuals
  double sxx;       // Σ w (x − x̄)²: with weights 1/Var(y) the slope's variance is 1/sxx
  int points;
};

// Weighted least squares y ≈ intercept + slope·x through the used points, in order.
GS_HD GS_INLINE PlotLine fit_plot_line(const HurstPoint* points, int count) {
  double sw = 0, sx = 0, sy = 0;
  int used = 0;
  for (int i = 0; i < count; ++i) {
    if (points[i].kind != HurstPointKind::used) continue;
    const HurstPoint& q = points[i];
    sw += q.weight, sx += q.weight * q.log_scale, sy += q.weight * q.log_statistic, ++used;
  }
  const double mx = sx / sw, my = sy / sw;
  double sxx = 0, sxy = 0;
  for (int i = 0; i < count; ++i) {
    if (points[i].kind != HurstPointKind::used) continue;
    const HurstPoint& q = points[i];
    sxx += q.weight * (q.log_scale - mx) * (q.log_scale - mx);
    sxy += q.weight * (q.log_scale - mx) * (q.log_statistic - my);
  }
  PlotLine line{sxy / sxx, 0, std::numeric_limits<double>::quiet_NaN(), sxx, used};
  line.intercept = my - line.slope * mx;
  double rss = 0;
  for (int i = 0; i < count; ++i) {
    if (points[i].kind != HurstPointKind::used) continue;
    const double r = points[i].log_statistic - line.intercept - line.slope * points[i].log_scale;
    rss += points[i].weight * r * r;
  }
  if (used > 2) line.slope_se = gs::sqrt(rss / static_cast<double>(used - 2) / sxx);
  return line;
}

// H from the plot: the slope (R/S, DFA, stable) or 1 + slope/2 (aggregated
// variance); NaN with a note when fewer than 3 points are used.
GS_HD GS_INLINE HurstResult hurst_from_plot(HurstMethod method, const HurstPoint* points, int count) {
  HurstResult result;
  for (int i = 0; i < count; ++i) result.left_out += points[i].kind == HurstPointKind::left_out;
  const PlotLine line = fit_plot_line(points, count);
  if (line.points < 3) {
    result.note = method == HurstMethod::rescaled_range ? HurstNote::no_spread_blocks
                  : method == HurstMethod::stable       ? HurstNote::few_octaves
                                                        : HurstNote::constant_series;
    return result;
  }
  result.slope = line.slope, result.intercept = line.intercept;
  switch (method) {
    case HurstMethod::aggregated_variance:
      result.H = 1 + line.slope / 2, result.se = line.slope_se / 2;
      break;
    case HurstMethod::stable:
      result.H = line.slope, result.se = gs::sqrt(1 / line.sxx);
      if (result.left_out > 0) result.note = HurstNote::octaves_left_out;
      break;
    default:
      result.H = line.slope, result.se = line.slope_se;
  }
  return result;
}

// --- Whittle estimators ------------------------------------------------------

struct HurstSums {
  double a, b;
  GS_HD HurstSums& operator+=(const HurstSums& o) {
    a += o.a, b += o.b;
    return *this;
  }
};
GS_HD GS_INLINE HurstSums operator+(HurstSums x, HurstSums y) { return {x.a + y.a, x.b + y.b}; }

// The Fourier frequency λ = 2π(j + 1)/n of periodogram entry j (series.hpp's layout).
GS_HD GS_INLINE double fourier_frequency(std::size_t j, std::size_t n) {
  return 2 * kPi * static_cast<double>(j + 1) / static_cast<double>(n);
}

// log of fGn's spectral density up to a constant factor:
// f(λ; H) ∝ (1 − cos λ) Σ_{k∈Z} |λ + 2πk|^{−2H−1}; the sum to |k| = 20 exactly,
// the rest by the midpoint (Euler–Maclaurin) integral.
GS_HD GS_INLINE double log_fgn_spectrum(double lambda, double H) {
  const double e = 2 * H + 1;
  double sum = gs::pow(lambda, -e);
  constexpr int kTerms = 20;
  for (int k = 1; k <= kTerms; ++k) sum += gs::pow(2 * kPi * k + lambda, -e) + gs::pow(2 * kPi * k - lambda, -e);
  const double tail_from = 2 * kPi * (kTerms + 0.5);
  sum += (gs::pow(tail_from + lambda, 1 - e) + gs::pow(tail_from - lambda, 1 - e)) / (2 * kPi * (e - 1));
  return gs::log(2 * gs::sin(kPi * H) * gs::tgamma(2 * H + 1) * (1 - gs::cos(lambda)) * sum);
}

// Brent's minimisation of f on [lo, hi] (golden-section steps, parabolic ones
// where they fall inside and shrink the bracket) to the relative tolerance
// 2^(1−bits) plus a quarter of it absolute: step for step Boost's
// brent_find_minima, written here because the device runs it too. A smooth
// minimum is only located to about √ε, so bits ≤ 26 for double (Boost caps
// it there). Deterministic: every thread of a block takes the same steps.
template <class F>
GS_HD double brent_minimum(const F& f, double lo, double hi, int bits) {
  constexpr double kGolden = 0.3819660f;  // (3 − √5)/2 rounded to float, as Boost has it
  constexpr int kMaxSteps = 200;
  const double tolerance = gs::pow(2.0, 1.0 - bits);
  double a = lo, b = hi;
  // Starting at the upper end (as Boost's brent_find_minima does) makes the
  // first step golden and gives the parabolas an end point: fewer evaluations
  // on the Whittle objectives than starting inside.
  double x = hi, w = x, v = x;
  double fx = f(x), fw = fx, fv = fx;
  double step = 0, step_before = 0;  // the last two steps
  for (int i = 0; i < kMaxSteps; ++i) {
    const double mid = (a + b) / 2, tol1 = tolerance * gs::fabs(x) + tolerance / 4, tol2 = 2 * tol1;
    if (gs::fabs(x - mid) <= tol2 - (b - a) / 2) break;
    bool parabolic = false;
    if (gs::fabs(step_before) > tol1) {
      // The parabola through (v, fv), (w, fw), (x, fx): its minimum at x + p/q.
      double r = (x - w) * (fx - fv), q = (x - v) * (fx - fw), p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0)
        p = -p;
      else
        q = -q;
      const double older = step_before;
      step_before = step;
      // Accepted when inside (a, b) and smaller than half the step before last.
      if (gs::fabs(p) < gs::fabs(0.5 * q * older) && p > q * (a - x) && p < q * (b - x)) {
        step = p / q;
        parabolic = true;
        const double u = x + step;
        if (u - a < tol2 || b - u < tol2) step = mid > x ? tol1 : -tol1;
      }
    }
    if (!parabolic) {
      step_before = x >= mid ? a - x : b - x;
      step = kGolden * step_before;
    }
    const double u = gs::fabs(step) >= tol1 ? x + step : x + (step > 0 ? tol1 : -tol1);
    const double fu = f(u);
    if (fu <= fx) {
      if (u >= x)
        a = x;
      else
        b = x;
      v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
    } else {
      if (u < x)
        a = u;
      else
        b = u;
      if (fu <= fw || w == x) {
        v = w, fv = fw, w = u, fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u, fv = fu;
      }
    }
  }
  return x;
}

// Whittle's estimator for fGn from the periodogram I[0..(n−1)/2) of a series of
// n ≥ 64: the profiled Whittle likelihood log(mean I/f) + mean log f minimised
// over H ∈ [0.01, 0.99]; se from the asymptotic (Fisher) variance, whose
// integrals over (−π, π) of g = ∂ log f/∂H are sums over the Fourier
// frequencies of both signs.
template <class SumOver>
GS_HD HurstResult whittle_hurst(const SumOver& sum, const double* I, std::size_t n) {
  HurstResult result;
  const std::size_t m = (n - 1) / 2;
  const double dm = static_cast<double>(m);
  if (sum(m, [=](std::size_t j) { return HurstSums{I[j], 0.0}; }).a == 0) {
    result.note = HurstNote::constant_series;
    return result;
  }
  const auto objective = [=](double H) {
    const HurstSums s = sum(m, [=](std::size_t j) {
      const double log_f = log_fgn_spectrum(fourier_frequency(j, n), H);
      return HurstSums{I[j] / gs::exp(log_f), log_f};
    });
    return gs::log(s.a / dm) + s.b / dm;
  };
  const double H = brent_minimum(objective, 0.01, 0.99, 26);
  constexpr double kStep = 1e-5;
  const HurstSums g = sum(m, [=](std::size_t j) {
    const double lambda = fourier_frequency(j, n);
    const double dlog_f = (log_fgn_spectrum(lambda, H + kStep) - log_fgn_spectrum(lambda, H - kStep)) / (2 * kStep);
    return HurstSums{dlog_f, dlog_f * dlog_f};
  });
  const double scale = 2 * (2 * kPi / static_cast<double>(n));
  const double information = scale * g.b - (scale * g.a) * (scale * g.a) / (2 * kPi);
  result.H = H;
  result.se = gs::sqrt(4 * kPi / (static_cast<double>(n) * information));
  if (H < 0.02 || H > 0.98) result.note = HurstNote::edge_of_range;
  return result;
}

// Robinson's local Whittle estimator on the m = ⌊n^0.65⌋ lowest frequencies:
// d minimises log(mean λ^{2d} I) − 2d·mean log λ over [−0.499, 0.999];
// H = d + 1/2, se = 1/(2√m).
template <class SumOver>
GS_HD HurstResult local_whittle_hurst(const SumOver& sum, const double* I, std::size_t n) {
  HurstResult result;
  const auto lowest = static_cast<std::size_t>(gs::floor(gs::pow(static_cast<double>(n), 0.65)));
  const std::size_t m = lowest < (n - 1) / 2 ? lowest : (n - 1) / 2;
  const double dm = static_cast<double>(m);
  const HurstSums totals = sum(m, [=](std::size_t j) { return HurstSums{I[j], gs::log(fourier_frequency(j, n))}; });
  if (totals.a == 0) {
    result.note = HurstNote::constant_series;
    return result;
  }
  const double mean_log_lambda = totals.b / dm;
  const auto objective = [=](double d) {
    // The −2d·mean log λ term is folded into the scaling of λ.
    const HurstSums s = sum(m, [=](std::size_t j) {
      return HurstSums{gs::exp(2 * d * (gs::log(fourier_frequency(j, n)) - mean_log_lambda)) * I[j], 0.0};
    });
    return gs::log(s.a / dm);
  };
  const double d = brent_minimum(objective, -0.499, 0.999, 26);
  result.H = d + 0.5;
  result.se = 1 / (2 * gs::sqrt(dm));
  if (d > 0.49) result.note = HurstNote::non_stationary;
  return result;
}

}  // namespace gs
