#include "estimators/model_fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "estimators/empirical.hpp"
#include "estimators/minimize.hpp"
#include "estimators/series.hpp"
#include "host/base/errors.hpp"
#include "kernels/portability.hpp"

namespace gs {

NormalFit fit_normal(const std::vector<double>& x) {
  if (x.size() < 2) throw UserError("normal fit: at least 2 values are needed");
  const MeanSd m = mean_and_sd(x);
  NormalFit fit;
  fit.mu = m.mean;
  fit.sigma = m.sd;
  const double n = static_cast<double>(x.size());
  fit.se_mu = m.sd / std::sqrt(n);
  fit.se_sigma = m.sd / std::sqrt(2 * (n - 1));
  if (m.sd > 0) {
    double ss = 0;
    for (double v : x) ss += (v - m.mean) * (v - m.mean);
    fit.log_likelihood = -0.5 * n * std::log(2 * kPi * m.sd * m.sd) - ss / (2 * m.sd * m.sd);
  }
  return fit;
}

// A state's spread below this share of its level is rounding: the state is an atom.
constexpr double kAtomSpread = 1e-12;

MarkovFit fit_markov(const std::vector<double>& x, std::size_t states) {
  if (states < 1) throw UserError("markov fit: the number of states must be at least 1");
  if (x.size() < 2 * states)
    throw UserError(fmt::format("markov fit: {} values are too few for {} states", x.size(), states));
  const SortedSample sorted(x);
  std::vector<double> thresholds;  // state i holds values in (thresholds[i−1], thresholds[i]]
  // A cut is kept when a value lies between it and the cut before: an
  // interpolated quantile can fall between two neighbouring values, and two
  // such cuts would enclose a state without a value (its level undefined).
  const std::vector<double>& values = sorted.values();
  for (std::size_t j = 1; j < states; ++j) {
    const double t = sorted.quantile(static_cast<double>(j) / static_cast<double>(states));
    const auto above_last =
        thresholds.empty() ? values.begin() : std::upper_bound(values.begin(), values.end(), thresholds.back());
    if (t < values.back() && above_last != values.end() && *above_last <= t) thresholds.push_back(t);
  }
  MarkovFit fit;
  const std::size_t k = thresholds.size() + 1;
  if (k < states)
    fit.note =
        fmt::format("{} states requested, {} distinct: quantiles coincide or enclose no value (ties)", states, k);
  std::vector<std::size_t> state(x.size());
  for (std::size_t t = 0; t < x.size(); ++t)
    state[t] =
        static_cast<std::size_t>(std::lower_bound(thresholds.begin(), thresholds.end(), x[t]) - thresholds.begin());
  std::vector<std::vector<double>> members(k);
  for (std::size_t t = 0; t < x.size(); ++t) members[state[t]].push_back(x[t]);
  std::vector<std::vector<double>> counts(k, std::vector<double>(k, 0.0));
  for (std::size_t t = 1; t < x.size(); ++t) counts[state[t - 1]][state[t]] += 1;
  fit.transition.assign(k, std::vector<double>(k, 0.0));
  fit.transition_se.assign(k, std::vector<double>(k, 0.0));
  fit.log_likelihood = 0;
  std::vector<std::size_t> atoms;
  for (std::size_t i = 0; i < k; ++i) {
    const MeanSd m = mean_and_sd(members[i]);
    // Values equal up to rounding (darshan spreads an operation evenly over
    // its bins: sums that differ in their last bits) are one value, an atom:
    // no noise, and no density terms, which grow without bound as the spread
    // goes to 0 (a spread of 4e-11 around 55440 made logL = +951).
    const bool atom = !(m.sd > kAtomSpread * std::fabs(m.mean));
    if (atom) atoms.push_back(i);
    fit.levels.push_back(m.mean);
    fit.noise.push_back(atom ? 0.0 : m.sd);
    fit.visits.push_back(members[i].size());
    const double row = std::accumulate(counts[i].begin(), counts[i].end(), 0.0);
    for (std::size_t j = 0; j < k; ++j) {
      // A state left only at the series' end has no transitions: it stays.
      const double p = row > 0 ? counts[i][j] / row : (i == j ? 1.0 : 0.0);
      fit.transition[i][j] = p;
      fit.transition_se[i][j] = row > 0 ? std::sqrt(p * (1 - p) / row) : kNotAvailable;
      if (counts[i][j] > 0) fit.log_likelihood += counts[i][j] * std::log(p);
    }
    if (!atom)
      for (double v : members[i])
        fit.log_likelihood += -0.5 * std::log(2 * kPi * m.sd * m.sd) - (v - m.mean) * (v - m.mean) / (2 * m.sd * m.sd);
  }
  if (!atoms.empty())
    fit.note += fmt::format(
        "{}state(s) {} (from 0) hold one value each up to rounding (atoms): noise 0, their values' density "
        "left out of logL (a density at an atom is unbounded)",
        fit.note.empty() ? "" : "; ", fmt::join(atoms, ", "));
  return fit;
}

namespace {

// Durbin–Levinson: partial autocorrelations r_1..r_p ∈ (−1, 1) to the
// coefficients of a stationary AR polynomial 1 − Σ φ_j z^j.
std::vector<double> from_partial_autocorrelations(const std::vector<double>& r) {
  std::vector<double> phi;
  for (std::size_t k = 0; k < r.size(); ++k) {
    std::vector<double> next(k + 1);
    for (std::size_t j = 0; j < k; ++j) next[j] = phi[j] - r[k] * phi[k - 1 - j];
    next[k] = r[k];
    phi = std::move(next);
  }
  return phi;
}

struct FarimaShape {
  double d;
  std::vector<double> ar, ma;
};

// The search's bounds: |d| < kFarimaMaxD (Gaussian FARIMA is stationary
// below 1/2) and partial autocorrelations in (−1, 1), through tanh; within
// kOnBound of them an estimate is on the bound.
constexpr double kFarimaMaxD = 0.49, kOnBound = 1e-3;
constexpr int kFarimaEvaluations = 5000;  // the Whittle search's budget

FarimaShape shape_from_free(const std::vector<double>& y, std::size_t p, std::size_t q) {
  FarimaShape s;
  s.d = kFarimaMaxD * std::tanh(y[0]);
  std::vector<double> r(p), rm(q);
  for (std::size_t j = 0; j < p; ++j) r[j] = std::tanh(y[1 + j]);
  for (std::size_t j = 0; j < q; ++j) rm[j] = std::tanh(y[1 + p + j]);
  s.ar = from_partial_autocorrelations(r);
  s.ma = from_partial_autocorrelations(rm);
  for (double& v : s.ma) v = -v;  // θ(z) = 1 + Σθ_j z^j invertible iff −θ is a stationary AR
  return s;
}

// The Fourier frequencies λ_j = 2πj/n, j = 1..m, as the Whittle sum needs
// them; they do not change during a fit, so their trigonometry is done once:
// cos kλ_j and sin kλ_j for the lags k = 1..order of the ARMA polynomials.
struct WhittleFrequencies {
  std::size_t order = 0;
  std::vector<double> cos_k, sin_k;  // [j·order + k − 1]
  std::vector<double> log_two_sin;   // ln(2 sin(λ_j/2))
  double log_two_sin_sum = 0;        // Σ_j ln(2 sin(λ_j/2))
};

WhittleFrequencies whittle_frequencies(std::size_t m, std::size_t n, std::size_t order) {
  WhittleFrequencies f;
  f.order = order;
  for (std::size_t j = 1; j <= m; ++j) {
    const double lambda = 2 * kPi * static_cast<double>(j) / static_cast<double>(n);
    for (std::size_t k = 1; k <= order; ++k) {
      f.cos_k.push_back(std::cos(static_cast<double>(k) * lambda));
      f.sin_k.push_back(std::sin(static_cast<double>(k) * lambda));
    }
    f.log_two_sin.push_back(std::log(2 * std::sin(lambda / 2)));
    f.log_two_sin_sum += f.log_two_sin.back();
  }
  return f;
}

// |θ(z)|²/|φ(z)|² at z = e^{−iλ_j}, the ARMA part of the FARIMA spectral shape
// k(λ) = |θ(z)|²/|φ(z)|² · (2 sin(λ/2))^{−2d}, with φ(z) = 1 − Σ φ_k z^k and
// θ(z) = 1 + Σ θ_k z^k.
double arma_shape(const WhittleFrequencies& f, std::size_t j, const FarimaShape& s) {
  const double* c = f.cos_k.data() + j * f.order;
  const double* sn = f.sin_k.data() + j * f.order;
  double phi_re = 1, phi_im = 0, theta_re = 1, theta_im = 0;
  for (std::size_t k = 0; k < s.ar.size(); ++k) phi_re -= s.ar[k] * c[k], phi_im += s.ar[k] * sn[k];
  for (std::size_t k = 0; k < s.ma.size(); ++k) theta_re += s.ma[k] * c[k], theta_im -= s.ma[k] * sn[k];
  return (theta_re * theta_re + theta_im * theta_im) / (phi_re * phi_re + phi_im * phi_im);
}

struct WhittleTerms {
  double objective;  // Σ [ln 2πf + I/f] at the profiled σ²
  double sigma2;
};

// One exp per frequency: Σ ln k_j is −2d Σ ln(2 sin(λ_j/2)) plus the logarithm
// of the product of the ARMA parts, kept as mantissa and binary exponent
// (frexp) so that it never overflows, and taken once.
WhittleTerms whittle(const std::vector<double>& I, const WhittleFrequencies& f, const FarimaShape& s) {
  const bool arma = !s.ar.empty() || !s.ma.empty();
  double ratio = 0, product = 1;
  long exponent = 0;
  const double m = static_cast<double>(I.size());
  for (std::size_t j = 0; j < I.size(); ++j) {
    const double power = std::exp(2 * s.d * f.log_two_sin[j]);  // 1/(2 sin(λ/2))^{−2d}
    if (arma) {
      const double a = arma_shape(f, j, s);
      ratio += I[j] * power / a;
      int e;
      product = std::frexp(product * a, &e);
      exponent += e;
    } else {
      ratio += I[j] * power;
    }
  }
  const double log_sum = std::log(product) + static_cast<double>(exponent) * 0.6931471805599453 -
                         2 * s.d * f.log_two_sin_sum;
  const double sigma2 = 2 * kPi * ratio / m;  // f = σ²k/(2π): Σ I/f = m at the optimum
  return {m * std::log(sigma2) + log_sum + m, sigma2};
}

// What to try when the Whittle search of a FARIMA(p, d, q) did not converge:
// cancelling roots need both an AR and an MA part; one part alone may be too long.
std::string unconverged_hint(std::size_t p, std::size_t q) {
  if (p > 0 && q > 0)
    return ": AR and MA terms whose roots nearly cancel make a ridge; try smaller --farima-p/--farima-q";
  if (p > 0) return ": try a smaller --farima-p";
  if (q > 0) return ": try a smaller --farima-q";
  return "";
}

bool has_standard_errors(const FarimaFit& fit) {
  const auto finite = [](double se) { return std::isfinite(se); };
  return finite(fit.se_d) && std::all_of(fit.se_ar.begin(), fit.se_ar.end(), finite) &&
         std::all_of(fit.se_ma.begin(), fit.se_ma.end(), finite);
}

// FarimaFit::boundary from the search's free parameters y at its end.
std::string farima_boundary(const FarimaFit& fit, const std::vector<double>& y) {
  std::vector<std::string> why;
  if (std::fabs(fit.d) > kFarimaMaxD - kOnBound)
    why.push_back(fmt::format(
        "d = {:.4g} is on the bound of the search (|d| < {}): the Whittle likelihood still grows toward it, so the "
        "series has d >= 1/2 (non-stationary, or a trend or level shift); fit its differences, or look at the "
        "series",
        fit.d, kFarimaMaxD));
  for (std::size_t j = 1; j < y.size(); ++j)
    if (std::fabs(std::tanh(y[j])) > 1 - kOnBound) {
      const bool ar = j <= fit.p;
      why.push_back(
          fmt::format("the {} part's partial autocorrelation {} is within {} of {:+.0f} (a unit root): "
                      "try other --farima-p/--farima-q",
                      ar ? "AR" : "MA", ar ? j : j - fit.p, kOnBound, std::copysign(1.0, y[j])));
    }
  if (!fit.converged)
    why.push_back(fmt::format("the Whittle search stopped before it converged ({} evaluations){}", kFarimaEvaluations,
                              unconverged_hint(fit.p, fit.q)));
  if (!has_standard_errors(fit))
    why.push_back(
        "the observed information is not positive definite: the estimates have no standard errors (the "
        "likelihood is flat in some direction); try smaller --farima-p/--farima-q");
  return fmt::format("{}", fmt::join(why, "; "));
}

// Why a FARIMA(p, d, q) with p, q > 0 is over-fitted, else empty: when FARIMA(p − 1, d, q − 1) fits as well by
// the likelihood-ratio test (2Δℓ against χ²₂'s 95 % point, −2 ln 0.05), the extra AR and MA terms share a common
// factor (their roots nearly cancel), so the ar and ma estimates are not identified, whatever their standard errors.
std::string common_factor(const FarimaFit& fit, const FarimaFit& smaller) {
  const double ratio = 2 * (fit.log_likelihood - smaller.log_likelihood);
  const double critical = -2 * std::log(0.05);
  if (!(ratio < critical)) return "";
  return fmt::format(
      "FARIMA({}, d, {}) fits as well (2 (lnL - lnL') = {:.3g}, below {:.3g}, chi-squared(2)'s 95 % point): an AR "
      "and an MA term share a common factor, so ar and ma are not identified; fit --farima-p {} --farima-q {}",
      smaller.p, smaller.q, ratio, critical, smaller.p, smaller.q);
}

void add_boundary(FarimaFit& fit, const std::string& why) {
  if (!why.empty()) fit.boundary += (fit.boundary.empty() ? "" : "; ") + why;
}

// The series' periodogram, checked for what a Whittle fit needs.
std::vector<double> whittle_periodogram(const std::vector<double>& x) {
  if (x.size() < 64) throw UserError("farima fit: at least 64 values are needed");
  std::vector<double> I = periodogram(x);
  if (std::all_of(I.begin(), I.end(), [](double v) { return v == 0; }))
    throw UserError("farima fit: the series is constant");
  return I;
}

// FARIMA(p, d, q) by Whittle's likelihood from the periodogram I of x, with its own boundary reasons (not the
// common factor, which needs the smaller order's fit).
FarimaFit whittle_fit(const std::vector<double>& x, const std::vector<double>& I, std::size_t p, std::size_t q) {
  const std::size_t n = x.size();
  const WhittleFrequencies frequencies = whittle_frequencies(I.size(), n, std::max(p, q));
  const Objective objective = [&](const std::vector<double>& y) {
    return whittle(I, frequencies, shape_from_free(y, p, q)).objective;
  };
  const Minimum best = minimize_simplex(objective, std::vector<double>(1 + p + q, 0.0),
                                        std::vector<double>(1 + p + q, 0.3), 1e-7, kFarimaEvaluations);
  const FarimaShape s = shape_from_free(best.x, p, q);
  FarimaFit fit;
  fit.p = p, fit.q = q, fit.d = s.d, fit.ar = s.ar, fit.ma = s.ma;
  fit.mean = mean_and_sd(x).mean;
  fit.converged = best.converged;
  const WhittleTerms w = whittle(I, frequencies, s);
  fit.sigma = std::sqrt(w.sigma2);
  fit.log_likelihood = -w.objective;
  const double k = static_cast<double>(p + q + 2);
  fit.aic = -2 * fit.log_likelihood + 2 * k;
  fit.bic = -2 * fit.log_likelihood + k * std::log(static_cast<double>(n));
  // Observed information of the profiled Whittle likelihood in (d, φ, θ).
  std::vector<double> natural = {s.d};
  natural.insert(natural.end(), s.ar.begin(), s.ar.end());
  natural.insert(natural.end(), s.ma.begin(), s.ma.end());
  const Objective in_natural = [&](const std::vector<double>& v) {
    FarimaShape t{v[0],
                  {v.begin() + 1, v.begin() + 1 + static_cast<std::ptrdiff_t>(p)},
                  {v.begin() + 1 + static_cast<std::ptrdiff_t>(p), v.end()}};
    return whittle(I, frequencies, t).objective;  // −ℓ (the frequencies in (π, 2π) mirror these)
  };
  const std::vector<double> se =
      standard_errors(numerical_hessian(in_natural, natural, std::vector<double>(natural.size(), 1e-4)));
  fit.se_d = se[0];
  fit.se_ar.assign(se.begin() + 1, se.begin() + 1 + static_cast<std::ptrdiff_t>(p));
  fit.se_ma.assign(se.begin() + 1 + static_cast<std::ptrdiff_t>(p), se.end());
  fit.boundary = farima_boundary(fit, best.x);
  return fit;
}

}  // namespace

FarimaFit fit_farima(const std::vector<double>& x, std::size_t p, std::size_t q) {
  const std::vector<double> I = whittle_periodogram(x);
  FarimaFit fit = whittle_fit(x, I, p, q);
  if (p > 0 && q > 0) add_boundary(fit, common_factor(fit, whittle_fit(x, I, p - 1, q - 1)));
  return fit;
}

std::vector<FarimaFit> select_farima(const std::vector<double>& x, std::size_t max_p, std::size_t max_q, bool use_bic) {
  const std::vector<double> I = whittle_periodogram(x);
  std::vector<FarimaFit> fits;  // (p, q) at p·(max_q + 1) + q
  for (std::size_t p = 0; p <= max_p; ++p)
    for (std::size_t q = 0; q <= max_q; ++q) fits.push_back(whittle_fit(x, I, p, q));
  for (std::size_t p = 1; p <= max_p; ++p)
    for (std::size_t q = 1; q <= max_q; ++q) {
      const FarimaFit& smaller = fits[(p - 1) * (max_q + 1) + q - 1];
      add_boundary(fits[p * (max_q + 1) + q], common_factor(fits[p * (max_q + 1) + q], smaller));
    }
  std::stable_sort(fits.begin(), fits.end(),
                   [&](const FarimaFit& a, const FarimaFit& b) { return use_bic ? a.bic < b.bic : a.aic < b.aic; });
  return fits;
}

NorrosFit fit_norros(const std::vector<double>& counts, double bin_width, double H, double se_H) {
  if (counts.size() < 2) throw UserError("norros fit: at least 2 bins are needed");
  if (!(bin_width > 0)) throw UserError("norros fit: the bin width must be positive");
  const MeanSd m = mean_and_sd(counts);
  if (!(m.mean > 0)) throw UserError("norros fit: the mean count per bin must be positive");
  NorrosFit fit;
  fit.bin = bin_width;
  fit.H = H;
  fit.se_H = se_H;
  fit.lambda = m.mean / bin_width;
  fit.a = m.sd * m.sd / (fit.lambda * std::pow(bin_width, 2 * H));
  fit.se_lambda = m.sd * std::pow(static_cast<double>(counts.size()), H - 1) / bin_width;
  return fit;
}

namespace {
void check_norros(double a, double H, double epsilon, double b) {
  if (!(a > 0)) throw UserError(fmt::format("norros: a = {} must be > 0", a));
  if (!(H > 0 && H < 1)) throw UserError(fmt::format("norros: H = {} must be in (0, 1)", H));
  if (!(epsilon > 0 && epsilon < 1)) throw UserError(fmt::format("norros: epsilon = {} must be in (0, 1)", epsilon));
  if (!(b > 0)) throw UserError(fmt::format("norros: b = {} must be > 0", b));
}
double kappa_squared(double H) { return std::pow(std::pow(H, H) * std::pow(1 - H, 1 - H), 2); }
}  // namespace

double norros_bandwidth(double lambda, double a, double H, double epsilon, double b) {
  check_norros(a, H, epsilon, b);
  if (!(lambda > 0)) throw UserError(fmt::format("norros: lambda = {} must be > 0", lambda));
  return lambda +
         std::pow(-2 * a * lambda * std::log(epsilon) * kappa_squared(H) * std::pow(b, 2 * H - 2), 1 / (2 * H));
}

double norros_arrival_rate(double a, double H, double epsilon, double b) {
  check_norros(a, H, epsilon, b);
  if (H == 0.5) throw UserError("norros: at H = 0.5 eq. (5) does not depend on lambda; no unique arrival rate");
  const double headroom = b * (1 - epsilon) - epsilon;
  if (!(headroom > 0))
    throw UserError(fmt::format("norros: b(1 - epsilon) = {} must exceed epsilon = {}", b * (1 - epsilon), epsilon));
  const double rhs = -2 * a * std::log(epsilon) * kappa_squared(H) * std::pow(b, 2 * H - 2) * std::pow(epsilon, 2 * H) /
                     std::pow(headroom, 2 * H);
  return std::pow(rhs, 1 / (2 * H - 1));
}

}  // namespace gs
