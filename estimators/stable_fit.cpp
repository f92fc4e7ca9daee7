#include "estimators/stable_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>

#include "estimators/empirical.hpp"
#include "estimators/minimize.hpp"
#include "estimators/stable_law.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/parallel.hpp"
#include "kernels/philox.hpp"

namespace gs {
namespace {

constexpr std::array<double, 5> kProbabilities = {0.05, 0.25, 0.5, 0.75, 0.95};
using Quantiles = std::array<double, 5>;

constexpr double kGridAlphaMin = 0.5, kGridAlphaStep = 0.1, kGridBetaStep = 0.1;
constexpr int kGridAlphas = 16, kGridBetas = 11;
constexpr std::uint32_t kBootstrapStream = 0x57AB1Eu;

double nu_alpha(const Quantiles& q) { return (q[4] - q[0]) / (q[3] - q[1]); }
double nu_beta(const Quantiles& q) { return (q[4] + q[0] - 2 * q[2]) / (q[4] - q[0]); }

Quantiles exact_quantiles(double alpha, double beta) {
  Quantiles q;
  for (std::size_t k = 0; k < q.size(); ++k) q[k] = stable_quantile_s0(kProbabilities[k], alpha, beta);
  return q;
}

// Standard S0 quantiles on the (α, β ≥ 0) grid.
const std::vector<Quantiles>& quantile_grid() {
  static const std::vector<Quantiles> grid = [] {
    std::vector<Quantiles> g(kGridAlphas * kGridBetas);
    parallel_for(g.size(), [&](std::size_t i) {
      g[i] = exact_quantiles(kGridAlphaMin + kGridAlphaStep * static_cast<double>(i / kGridBetas),
                             kGridBetaStep * static_cast<double>(i % kGridBetas));
    });
    return g;
  }();
  return grid;
}

Quantiles lerp(const Quantiles& a, const Quantiles& b, double w) {
  Quantiles q;
  for (std::size_t k = 0; k < q.size(); ++k) q[k] = (1 - w) * a[k] + w * b[k];
  return q;
}

// Quantiles at (grid α index i, any β ∈ [0, 1]), linear in β.
Quantiles at_beta(int i, double beta) {
  const auto& g = quantile_grid();
  const double t = std::clamp(beta / kGridBetaStep, 0.0, kGridBetas - 1.0);
  const int j = std::min(static_cast<int>(t), kGridBetas - 2);
  return lerp(g[i * kGridBetas + j], g[i * kGridBetas + j + 1], t - j);
}

struct ShapeEstimate {
  double alpha, beta;
  bool alpha_clamped_low = false;
};

// Inverts (ν_α, ν_β) on the grid: for each grid α the β matching ν_β, then the
// α matching ν_α along that curve.
ShapeEstimate invert_grid(double nu_a, double nu_b) {
  const double sign = nu_b < 0 ? -1.0 : 1.0;
  const double target_b = std::fabs(nu_b);
  std::array<double, kGridAlphas> betas{}, nus{};
  for (int i = 0; i < kGridAlphas; ++i) {
    double beta = 1.0;
    for (int j = 0; j + 1 < kGridBetas; ++j) {
      const double lo = nu_beta(quantile_grid()[i * kGridBetas + j]);
      const double hi = nu_beta(quantile_grid()[i * kGridBetas + j + 1]);
      if (target_b <= hi) {
        beta = kGridBetaStep * (j + std::clamp((target_b - lo) / (hi - lo), 0.0, 1.0));
        break;
      }
    }
    betas[i] = beta;
    nus[i] = nu_alpha(at_beta(i, beta));
  }
  ShapeEstimate e{2.0, 0.0};
  if (nu_a >= nus[0]) return {kGridAlphaMin, sign * betas[0], true};
  for (int i = 0; i + 1 < kGridAlphas; ++i) {
    if (nu_a >= nus[i + 1]) {
      const double w = (nus[i] - nu_a) / (nus[i] - nus[i + 1]);
      e.alpha = kGridAlphaMin + kGridAlphaStep * (i + w);
      e.beta = sign * ((1 - w) * betas[i] + w * betas[i + 1]);
      return e;
    }
  }
  return e;  // ν_α at or below the Gaussian value: α = 2, β irrelevant (0)
}

Quantiles sample_quantiles(const SortedSample& s) {
  Quantiles q;
  for (std::size_t k = 0; k < q.size(); ++k) q[k] = s.quantile(kProbabilities[k]);
  return q;
}

// Location and scale from sample quantiles and the law's standard quantiles.
void set_scale_location(StableLawParams& law, const Quantiles& sample, const Quantiles& standard) {
  law.sigma = (sample[3] - sample[1]) / (standard[3] - standard[1]);
  law.mu = sample[2] - law.sigma * standard[2];
}

Quantiles reflected_if_negative(double beta, const Quantiles& q_abs) {
  if (beta >= 0) return q_abs;
  return {-q_abs[4], -q_abs[3], -q_abs[2], -q_abs[1], -q_abs[0]};
}

// The grid-only estimate (bootstrap resamples use this).
StableLawParams quantile_estimate(const Quantiles& sample) {
  const ShapeEstimate shape = invert_grid(nu_alpha(sample), nu_beta(sample));
  StableLawParams law;
  law.parameterization = StableParameterization::S0;
  law.alpha = shape.alpha;
  law.beta = shape.beta;
  const double t = (shape.alpha - kGridAlphaMin) / kGridAlphaStep;
  const int i = std::min(static_cast<int>(t), kGridAlphas - 2);
  const Quantiles standard = lerp(at_beta(i, std::fabs(shape.beta)), at_beta(i + 1, std::fabs(shape.beta)), t - i);
  set_scale_location(law, sample, reflected_if_negative(shape.beta, standard));
  return law;
}

double s1_location_derivative(const StableLawParams& s0, int parameter) {
  // μ1 = μ0 − βσ tan(πα/2) (α ≠ 1), μ0 − (2/π)βσ ln σ (α = 1); parameter: α, β, σ, μ0.
  const double a = s0.alpha, b = s0.beta, s = s0.sigma;
  if (a == 1.0) {
    const double d[4] = {0.0, -2 / kPi * s * std::log(s), -2 / kPi * b * (std::log(s) + 1), 1.0};
    return d[parameter];
  }
  const double t = std::tan(kPi * a / 2);
  const double d[4] = {-b * s * (kPi / 2) * (1 + t * t), -s * t, -b * t, 1.0};
  return d[parameter];
}

void validate_sample(const std::vector<double>& x, std::size_t minimum) {
  if (x.size() < minimum)
    throw UserError(fmt::format("stable fit: {} values; at least {} are needed", x.size(), minimum));
  for (double v : x)
    if (!std::isfinite(v)) throw UserError("stable fit: the sample holds a non-finite value");
}

}  // namespace

StableFit fit_stable_quantiles(const std::vector<double>& x, std::uint64_t seed, int bootstrap) {
  validate_sample(x, 20);
  const SortedSample sorted(x);
  const Quantiles q = sample_quantiles(sorted);
  if (!(q[3] > q[1])) throw UserError("stable fit: the interquartile range is 0 (too many equal values)");
  StableFit fit;
  fit.method = "quantiles";
  fit.n = x.size();
  const ShapeEstimate shape = invert_grid(nu_alpha(q), nu_beta(q));
  fit.s0.parameterization = StableParameterization::S0;
  fit.s0.alpha = shape.alpha;
  fit.s0.beta = shape.alpha == 2.0 ? 0.0 : std::clamp(shape.beta, -1.0, 1.0);
  set_scale_location(fit.s0, q, exact_quantiles(fit.s0.alpha, fit.s0.beta));
  fit.s1 = to_s1(fit.s0);
  if (shape.alpha_clamped_low) fit.note = "alpha below 0.5, the lowest the quantile method resolves; reported as 0.5";
  if (shape.alpha == 2.0) fit.note = "tails no heavier than Gaussian: alpha = 2, beta not identified";

  // Bootstrap standard errors, each resample's indices from Philox.
  std::vector<std::array<double, 5>> draws;
  const RngStreamKey key{seed, kBootstrapStream};
  std::vector<double> resample(x.size());
  for (int b = 0; b < bootstrap; ++b) {
    throw_if_interrupted();
    for (std::size_t i = 0; i < x.size(); i += 4) {
      const PhiloxBits bits = philox_bits(key, static_cast<std::uint32_t>(b), i / 4, 0);
      for (std::size_t k = 0; k < 4 && i + k < x.size(); ++k)
        resample[i + k] = x[static_cast<std::size_t>(uniform_open(bits[k]) * static_cast<double>(x.size()))];
    }
    const Quantiles rq = sample_quantiles(SortedSample(resample));
    if (!(rq[3] > rq[1])) continue;
    const StableLawParams e = quantile_estimate(rq);
    draws.push_back({e.alpha, e.beta, e.sigma, e.mu, to_s1(e).mu});
  }
  if (draws.size() >= 2) {
    std::array<double, 5> se{};
    for (std::size_t k = 0; k < 5; ++k) {
      std::vector<double> column;
      for (const auto& d : draws) column.push_back(d[k]);
      se[k] = mean_and_sd(column).sd;
    }
    fit.se_alpha = se[0], fit.se_beta = se[1], fit.se_sigma = se[2], fit.se_mu0 = se[3], fit.se_mu1 = se[4];
  }
  return fit;
}

namespace {

// The gradient and Hessian of −ln L in (m, t) that the Newton steps in the
// location and scale take: m = μ/σ at the current σ, t = ln σ.
struct ProfileSums {
  double gm = 0, gt = 0, hmm = 0, hmt = 0, htt = 0;
  ProfileSums& operator+=(const ProfileSums& o) {
    gm += o.gm, gt += o.gt, hmm += o.hmm, hmt += o.hmt, htt += o.htt;
    return *this;
  }
};

// The sample as distinct values with their multiplicities (counts have a few
// hundred distinct values among thousands), and the form of its likelihood.
class Likelihood {
 public:
  Likelihood(const std::vector<double>& x, StableLikelihood kind) : kind_(kind), n_(static_cast<double>(x.size())) {
    std::vector<double> sorted = x;
    std::sort(sorted.begin(), sorted.end());
    for (double v : sorted) {
      if (values_.empty() || values_.back() != v)
        values_.push_back(v), weights_.push_back(1);
      else
        weights_.back() += 1;
    }
  }

  StableLikelihood kind() const { return kind_; }
  double smallest() const { return values_.front(); }
  double largest() const { return values_.back(); }

  // −ln L at (μ0, σ) of the standard S0 law tabulated.
  double negative(const StableLogDensityTable& table, double mu, double sigma) const {
    if (!(sigma > 0)) return INFINITY;
    const double sum = blocked_sum<double>(values_.size(), [&](std::size_t i) {
      return weights_[i] * (kind_ == StableLikelihood::density
                                ? table((values_[i] - mu) / sigma)
                                : table.log_probability(lower(i, mu, sigma), upper(i, mu, sigma)));
    });
    return kind_ == StableLikelihood::density ? -sum + n_ * std::log(sigma) : -sum;
  }

  // Of the density: with F = −Σ l(z_i) + n t and z = (x − μ)/σ,
  // ∂F/∂m = Σ l', ∂F/∂t = Σ l'z + n, ∂²F/∂m² = −Σ l'', ∂²F/∂m∂t = −Σ (l''z + l'),
  // ∂²F/∂t² = −Σ (l''z² + l'z). Of a rounded value, P = ∫_a^b f with
  // a, b = (k ∓ ½ − μ)/σ: P_m = f(a) − f(b), P_t = a f(a) − b f(b),
  // P_mm = f'(b) − f'(a), P_mt = b f'(b) − a f'(a) + f(b) − f(a),
  // P_tt = b f(b) + b² f'(b) − a f(a) − a² f'(a), and l = ln P has
  // l_xy = P_xy/P − l_x l_y; F = −Σ l.
  ProfileSums sums(const StableLogDensityTable& table, double mu, double sigma) const {
    return blocked_sum<ProfileSums>(values_.size(), [&](std::size_t i) {
      const double w = weights_[i];
      if (kind_ == StableLikelihood::density) {
        const double z = (values_[i] - mu) / sigma;
        const auto d = table.derivatives(z);
        return ProfileSums{w * d.first, w * (d.first * z + 1), -w * d.second, -w * (d.second * z + d.first),
                           -w * (d.second * z * z + d.first * z)};
      }
      const double a = lower(i, mu, sigma), b = upper(i, mu, sigma);
      const double log_p = table.log_probability(a, b);
      const auto da = table.derivatives(a), db = table.derivatives(b);
      // f/P and f'/P at both ends (0 where f = 0).
      const double fa = std::exp(da.value - log_p), fb = std::exp(db.value - log_p);
      const double dfa = fa > 0 ? da.first * fa : 0.0, dfb = fb > 0 ? db.first * fb : 0.0;
      const double lm = fa - fb, lt = a * fa - b * fb;
      const double lmm = dfb - dfa - lm * lm;
      const double lmt = b * dfb - a * dfa + fb - fa - lm * lt;
      const double ltt = b * fb + b * b * dfb - a * fa - a * a * dfa - lt * lt;
      return ProfileSums{-w * lm, -w * lt, -w * lmm, -w * lmt, -w * ltt};
    });
  }

 private:
  double lower(std::size_t i, double mu, double sigma) const { return (values_[i] - 0.5 - mu) / sigma; }
  double upper(std::size_t i, double mu, double sigma) const { return (values_[i] + 0.5 - mu) / sigma; }

  StableLikelihood kind_;
  double n_;
  std::vector<double> values_, weights_;
};

// μ0 and ln σ maximising the likelihood at a fixed (α, β), by Newton's method
// from (mu, log_sigma), updated in place; returns −ln L there. Where the
// Hessian is not positive definite a multiple of the identity is added
// (Levenberg); every step is halved until −ln L decreases (Nelder–Mead here
// took ~100 likelihood passes per (α, β); Newton ~5). With `scale_fixed`,
// μ0 alone (a profile in σ).
double profile_location_scale(const Likelihood& data, const StableLogDensityTable& table, double& mu, double& log_sigma,
                              bool scale_fixed = false) {
  double value = data.negative(table, mu, std::exp(log_sigma));
  for (int iteration = 0; iteration < 100 && std::isfinite(value); ++iteration) {
    const double sigma = std::exp(log_sigma);
    const ProfileSums s = data.sums(table, mu, sigma);
    const double gm = s.gm, gt = scale_fixed ? 0.0 : s.gt;
    double hmm = s.hmm, hmt = scale_fixed ? 0.0 : s.hmt, htt = scale_fixed ? 1.0 : s.htt;
    if (!std::isfinite(gm + gt + hmm + hmt + htt)) break;
    for (double shift = 1e-8 * (std::fabs(hmm) + std::fabs(htt) + 1); !(hmm > 0 && hmm * htt > hmt * hmt); shift *= 10)
      hmm += shift, htt += shift;
    const double det = hmm * htt - hmt * hmt;
    const double dm = -(htt * gm - hmt * gt) / det, dt = -(hmm * gt - hmt * gm) / det;
    // The Newton decrement bounds F − min F; below the sum's rounding, stop.
    if (!(-(gm * dm + gt * dt) >= 1e-9 + 1e-13 * std::fabs(value))) break;
    bool decreased = false;
    for (double step = 1; step > 1e-6 && !decreased; step /= 2) {
      const double next_mu = mu + step * dm * sigma, next_log_sigma = log_sigma + step * dt;
      const double next = data.negative(table, next_mu, std::exp(next_log_sigma));
      if (next < value) mu = next_mu, log_sigma = next_log_sigma, value = next, decreased = true;
    }
    if (!decreased) break;
  }
  return value;
}

// A location that puts every datum inside the support of a law with α < 1 and
// |β| = 1 (a half-line from ζ), one scale unit in from its edge, for the
// Newton steps to start from when the last shape's location leaves some
// datum where the density is 0.
double location_inside_support(const Likelihood& data, double alpha, double beta, double sigma) {
  const double zeta = -beta * std::tan(kPi * alpha / 2);
  const double half = data.kind() == StableLikelihood::rounded ? 0.5 : 0.0;
  return beta > 0 ? data.smallest() + half - sigma * (zeta + 1) : data.largest() - half - sigma * (zeta - 1);
}

// The simplex in (α, β) stops at this size: well inside any standard error
// of α (at least 0.003 at n = 10^4); 1e-4 took 40 % more tables, moving α by 0.1 SE.
constexpr double kSimplexSize = 5e-4;

// The lowest α searched. Below it a law puts 10 % of its mass beyond 1e10
// scales; the tables there need the edge resolved to 1e-30 of a scale.
constexpr double kAlphaMin = 0.1;

// α within 1e-6 of 2 is taken as 2.
// Where the maximum is at the Gaussian boundary, β has almost no effect just
// below it, and the simplex crept along α = 2 − 2^−k with β drifting: ~150
// tables of α within 1e-9 of 2, where Nolan's integrand needs 20–50× the
// evaluations of any other table (the atlas10k fit took 12 of the 17 CPU
// seconds of the study's lfsn fits). α within 1e-6 of 2 is far inside any
// standard error.
double snapped_to_gaussian(double alpha) {
  constexpr double kGaussianSnap = 1e-6;
  return alpha > 2.0 - kGaussianSnap ? 2.0 : alpha;
}

// A value that k of the n data share makes the likelihood of a continuous law
// unbounded when the law can shrink onto it: with μ0 on the atom and σ → 0, ln L
// ≈ (−k + (n − k)α) ln σ, which grows without bound once k/n > α/(1 + α). The
// search reaches α = kAlphaMin, so a larger share has no maximum to find.
// (Rounded values have probabilities, at most 1: no such limit.)
void reject_unbounded_likelihood(const std::vector<double>& x) {
  std::vector<double> sorted = x;
  std::sort(sorted.begin(), sorted.end());
  std::size_t largest = 0, at = 0;
  for (std::size_t i = 0, j = 0; i < sorted.size(); i = j) {
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    if (j - i > largest) largest = j - i, at = i;
  }
  const double share = static_cast<double>(largest) / static_cast<double>(sorted.size());
  if (share > kAlphaMin / (1 + kAlphaMin))
    throw UserError(fmt::format(
        "stable fit: {} of the {} values ({:.1f} %) equal {:.6g}, an atom a continuous law cannot have; its "
        "likelihood grows without bound as sigma -> 0 on the atom (share above alpha/(1 + alpha) = {:.3g} at the "
        "smallest alpha searched, {}), so there is no maximum-likelihood fit: no alpha-stable law describes a series "
        "where one value repeats this often (darshan: a record spread evenly over many bins; try a coarser bin)",
        largest, sorted.size(), 100 * share, sorted[at], kAlphaMin / (1 + kAlphaMin), kAlphaMin));
}

// Tables by (α, β), kept for the whole fit (the Hessian revisits points).
// At α = 2 every β gives the same law, so one table serves them all.
class TableCache {
 public:
  explicit TableCache(double reach) : reach_(reach) {}
  const StableLogDensityTable& get(double alpha, double beta) {
    auto& slot = tables_[{alpha, alpha == 2.0 ? 0.0 : beta}];
    if (!slot) slot = std::make_unique<StableLogDensityTable>(alpha, beta, reach_);
    return *slot;
  }

 private:
  double reach_;
  std::map<std::pair<double, double>, std::unique_ptr<StableLogDensityTable>> tables_;
};

// Why an estimate is on the edge of what the search can say, and what to try.
std::string boundary_of(const StableFit& fit, bool alpha_free, bool beta_free, bool have_errors) {
  if (fit.s0.alpha <= kAlphaMin + 0.01)
    return fmt::format(
        "alpha = {:.3g} is at the lower search bound {}: the values' tails are heavier than any law "
        "searched (a few huge values may dominate); try a coarser bin or a longer trace",
        fit.s0.alpha, kAlphaMin);
  if (!have_errors)
    return "the observed information is not positive definite: the estimates have no standard errors (the "
           "likelihood is flat in some direction); try a longer trace or a coarser bin";
  if (!alpha_free)
    return "alpha = 2, the Gaussian law (a boundary of (0, 2]): beta is not identified and alpha has no standard "
           "error; the values are no heavier-tailed than Gaussian: the normal model describes them";
  if (!beta_free)
    return std::fabs(fit.s0.beta) == 1.0
               ? fmt::format(
                     "beta = {:+.0f} is on the edge of [-1, 1]: the law is totally skewed{}; beta has no "
                     "standard error and the other estimates are conditional on it",
                     fit.s0.beta, fit.s0.alpha < 1 ? " (bounded on one side)" : "")
               : fmt::format(
                     "beta = {:.4g} is within 0.01 of the edge of [-1, 1]: beta has no standard error (the "
                     "likelihood's curvature there would be measured past the edge) and the other estimates "
                     "are conditional on it",
                     fit.s0.beta);
  return "";
}

// A simplex that ends with β at (or next to) ±1 met the kink of the penalty
// there and can stop short along α (n = 200 draws of S1(½, 1, 1, 0): ln L 0.03
// below R fBasics' optimum, α 0.008 away): Brent's method in α on the edge
// β = ±1, around where the simplex ended, finishes the search (the profile
// keeps the best point evaluated). Returns the evaluations it took.
template <class Profile>
int search_along_the_edge(const Profile& profile, const std::vector<double>& ended) {
  const double edge = ended[1] > 0 ? 1.0 : -1.0, alpha = std::clamp(ended[0], kAlphaMin, 2.0);
  std::uintmax_t evaluations = 40;
  const auto along_the_edge = [&](double a) { return profile({a, edge}); };
  // 2^−20 relative in α: far inside any standard error.
  boost::math::tools::brent_find_minima(along_the_edge, std::max(kAlphaMin, alpha - 0.1), std::min(2.0, alpha + 0.1),
                                        20, evaluations);
  return static_cast<int>(evaluations);
}

// χ²₁(0.95)/2: the 95 % likelihood-ratio interval of one parameter holds the
// values where its profile ln L lies within this of the maximum (Wilks).
constexpr double kProfileDrop = 3.841458820694124 / 2;
constexpr double kNormal975 = 1.959963984540054;  // the half-width of a 95 % interval in SEs

// The end, on the side of `step`'s sign, of {v : drop(v) ≤ kProfileDrop}
// around `at` (drop(at) ≈ 0): steps doubling from `step` out until the drop
// exceeds the cut, then TOMS 748 to 2^−20 relative; `bound` where the drop never
// exceeds it before (the interval is open there).
double interval_end(const std::function<double(double)>& drop, double at, double step, double bound) {
  const auto excess = [&](double v) {
    const double d = drop(v);
    return (std::isnan(d) ? kProfileDrop : std::min(d, 1e3)) - kProfileDrop;  // NaN, ∞: outside
  };
  double inside = at;
  for (double h = step;; h *= 2) {
    const bool last = step > 0 ? at + h >= bound : at + h <= bound;
    const double outside = last ? bound : at + h;
    if (excess(outside) > 0) {
      boost::uintmax_t iterations = 40;
      const auto [a, b] =
          boost::math::tools::toms748_solve(excess, std::min(inside, outside), std::max(inside, outside),
                                            boost::math::tools::eps_tolerance<double>(20), iterations);
      return 0.5 * (a + b);
    }
    if (last) return bound;
    inside = outside;
  }
}

// The smallest of values on an equally spaced lattice, refined by the parabola
// through the smallest and its neighbours (the profile over a shape parameter
// is smooth at its maximum; the lattice holds the tables, each a few hundred
// integrals, that a search in α would build anew for every value profiled).
double lattice_minimum(const std::vector<double>& y) {
  const auto i = static_cast<std::size_t>(std::min_element(y.begin(), y.end()) - y.begin());
  if (i == 0 || i + 1 == y.size()) return y[i];
  const double curvature = y[i - 1] - 2 * y[i] + y[i + 1], slope = y[i - 1] - y[i + 1];
  return curvature > 0 && std::isfinite(curvature) ? y[i] - slope * slope / (8 * curvature) : y[i];
}

// Profile-likelihood intervals of α, σ and μ1 with β at its estimate (on an edge of
// [−1, 1] it has no other value; inside, the intervals are conditional on it), and
// per parameter the wider of the observed information's SE and the interval's
// half-width over 1.96, said in se_*_from. The observed information measures the
// curvature at the maximum only: where ln L bends sharply there and flattens
// further out (an interval's end near the support's edge ζ), it was 6× (α) and
// 16× (σ) too narrow.
// `minimum`: −ln L at the estimate, from the tables.
void add_profile_intervals(StableFit& fit, const Likelihood& data, TableCache& cache, double minimum) {
  const double beta = fit.s0.beta;
  const auto location_scale = [&](double alpha, double& mu, double& log_sigma) {
    mu = fit.s0.mu, log_sigma = std::log(fit.s0.sigma);
    return profile_location_scale(data, cache.get(alpha, beta), mu, log_sigma);
  };
  const auto drop_alpha = [&](double alpha) {
    double mu, log_sigma;
    return location_scale(alpha, mu, log_sigma) - minimum;
  };
  const double alpha_step = std::isfinite(fit.se_alpha) ? fit.se_alpha : 0.01;
  fit.profile_alpha = {interval_end(drop_alpha, fit.s0.alpha, -alpha_step, kAlphaMin),
                       interval_end(drop_alpha, fit.s0.alpha, alpha_step, 2.0),
                       StableFit::kNaN,
                       {}};
  // σ and μ1: the lattice of α over the α interval and a step beyond (the 95 %
  // region's projections on σ and μ1 lie over the α interval), 8 steps across.
  const double h = (fit.profile_alpha.upper - fit.profile_alpha.lower) / 8;
  struct Node {
    double alpha, mu, log_sigma;
  };
  std::vector<Node> lattice;
  for (double a = std::max(kAlphaMin, fit.profile_alpha.lower - h);
       a <= std::min(2.0, fit.profile_alpha.upper + h) + 1e-12; a += h) {
    Node node{std::min(a, 2.0), 0, 0};
    location_scale(node.alpha, node.mu, node.log_sigma);
    lattice.push_back(node);
  }
  const auto profile = [&](const auto& at_node) {
    std::vector<double> y;
    for (const Node& node : lattice) y.push_back(at_node(node));
    return lattice_minimum(y) - minimum;
  };
  const auto drop_sigma = [&](double sigma) {
    return profile([&](const Node& node) {
      double mu = node.mu, log_sigma = std::log(sigma);
      return profile_location_scale(data, cache.get(node.alpha, beta), mu, log_sigma, true);
    });
  };
  const auto drop_mu1 = [&](double mu1) {
    return profile([&](const Node& node) {
      const StableLogDensityTable& table = cache.get(node.alpha, beta);
      const auto at_log_sigma = [&](double t) {
        const StableLawParams s1{node.alpha, beta, std::exp(t), mu1, StableParameterization::S1};
        return data.negative(table, to_s0(s1).mu, s1.sigma);
      };
      std::uintmax_t evaluations = 60;
      return boost::math::tools::brent_find_minima(at_log_sigma, node.log_sigma - 3, node.log_sigma + 3, 20,
                                                   evaluations)
          .second;
    });
  };
  const double sigma = fit.s0.sigma, mu1 = fit.s1.mu;
  const double sigma_step = std::isfinite(fit.se_sigma) ? fit.se_sigma : 0.1 * sigma;
  const double mu1_step = std::isfinite(fit.se_mu1) ? fit.se_mu1 : 0.1 * sigma;
  fit.profile_sigma = {interval_end(drop_sigma, sigma, -sigma_step, 1e-3 * sigma),
                       interval_end(drop_sigma, sigma, sigma_step, 1e3 * sigma),
                       StableFit::kNaN,
                       {}};
  fit.profile_mu1 = {interval_end(drop_mu1, mu1, -mu1_step, mu1 - 1e3 * sigma),
                     interval_end(drop_mu1, mu1, mu1_step, mu1 + 1e3 * sigma),
                     StableFit::kNaN,
                     {}};
  const auto wider = [](double& se, StableFit::Profile& profile) {
    const double half = (profile.upper - profile.lower) / (2 * kNormal975);
    profile.information_se = se;
    profile.se_from = std::isfinite(se) && se >= half ? "information" : "profile";
    se = std::max(std::isfinite(se) ? se : 0.0, half);
  };
  wider(fit.se_alpha, fit.profile_alpha);
  wider(fit.se_sigma, fit.profile_sigma);
  wider(fit.se_mu1, fit.profile_mu1);
}

// The best point the search over (α, β) evaluated, with its profiled location and scale, and the search's
// iterations.
struct ShapeSearch {
  struct Point {
    double value = std::numeric_limits<double>::infinity(), alpha = 0, beta = 0, mu = 0, log_sigma = 0;
  } best;
  int iterations = 0;
  bool converged = false;
};

// Nelder–Mead over (α, β) from `s0`, the location and scale profiled out at each shape.
ShapeSearch search_shape(const Likelihood& data, TableCache& cache, const StableLawParams& s0) {
  double mu = s0.mu, log_sigma = std::log(s0.sigma);
  // The best point evaluated, with its location and scale: the Newton steps
  // start from the last point's, so a shape evaluated again later can end in
  // another (μ, σ) where the profile has more than one optimum (a tiny-σ law
  // on counts that are mostly 0).
  ShapeSearch search;
  ShapeSearch::Point& best = search.best;

  // Outside the domain the shape is clamped and the likelihood penalised, so
  // that the simplex can reach α = 2 and β = ±1 and return from beyond them.
  const auto profile = [&](const std::vector<double>& shape) {
    const double in_domain = std::clamp(shape[0], kAlphaMin, 2.0), alpha = snapped_to_gaussian(in_domain);
    const double beta = std::clamp(shape[1], -1.0, 1.0);
    const double excess = std::fabs(shape[0] - in_domain) + std::fabs(shape[1] - beta);
    // Near α = 2, β has almost no effect and at 2 none: a pull of −ln L by at
    // most 1e-3 (a shift of the estimate by under 0.05 SE) towards β = 0, fading
    // out by α = 1.999, breaks the ties the simplex would otherwise cycle on.
    const double flat = 1e-3 * std::max(0.0, 1 - (2.0 - alpha) / 1e-3) * std::fabs(beta);
    const StableLogDensityTable& table = cache.get(alpha, beta);
    if (alpha < 1 && std::fabs(beta) == 1.0 && !std::isfinite(data.negative(table, mu, std::exp(log_sigma))))
      mu = location_inside_support(data, alpha, beta, std::exp(log_sigma));
    const double value = profile_location_scale(data, table, mu, log_sigma);
    if (value + flat < best.value) best = {value + flat, alpha, beta, mu, log_sigma};
    return value * (1 + excess * excess) + 1e3 * excess + flat;
  };
  const double alpha0 = std::clamp(s0.alpha, kAlphaMin, 2.0);
  Minimum outer = minimize_simplex(profile, {std::min(alpha0, 1.95), std::clamp(s0.beta, -0.9, 0.9)}, {0.1, 0.2},
                                   kSimplexSize, 200);
  if (std::fabs(outer.x[1]) > 0.99) outer.iterations += search_along_the_edge(profile, outer.x);
  search.iterations = outer.iterations;
  search.converged = outer.converged;
  return search;
}

// Which parameters are interior, and whether the observed information over them could be inverted.
struct InformationAt {
  bool alpha_free, beta_free, covariance;
};

// Standard errors from the observed information over the parameters that are interior (S0, and μ in S1 by
// the delta method).
InformationAt add_standard_errors(StableFit& fit, const Likelihood& data, TableCache& cache) {
  constexpr double kShapeStep = 0.005;
  const bool alpha_free = fit.s0.alpha < 2.0 - 2 * kShapeStep && fit.s0.alpha > kAlphaMin + 2 * kShapeStep;
  const bool beta_free = alpha_free && std::fabs(fit.s0.beta) < 1.0 - 2 * kShapeStep;
  std::vector<int> free;  // 0 α, 1 β, 2 σ, 3 μ0
  if (alpha_free) free.push_back(0);
  if (beta_free) free.push_back(1);
  free.push_back(2);
  free.push_back(3);
  const std::array<double, 4> at = {fit.s0.alpha, fit.s0.beta, fit.s0.sigma, fit.s0.mu};
  const std::array<double, 4> step = {kShapeStep, kShapeStep, 1e-3 * fit.s0.sigma, 1e-3 * fit.s0.sigma};
  std::vector<double> point, steps;
  for (int k : free) point.push_back(at[k]), steps.push_back(step[k]);
  const Objective full = [&](const std::vector<double>& p) {
    auto v = at;
    for (std::size_t i = 0; i < free.size(); ++i) v[free[i]] = p[i];
    return data.negative(cache.get(v[0], v[1]), v[3], v[2]);
  };
  const auto cov = covariance(numerical_hessian(full, point, steps));
  if (cov.empty()) return {alpha_free, beta_free, false};
  std::array<double, 4> se;
  se.fill(StableFit::kNaN);
  for (std::size_t i = 0; i < free.size(); ++i) se[free[i]] = std::sqrt(cov[i][i]);
  fit.se_alpha = se[0], fit.se_beta = se[1], fit.se_sigma = se[2], fit.se_mu0 = se[3];
  double var_mu1 = 0;
  for (std::size_t i = 0; i < free.size(); ++i)
    for (std::size_t j = 0; j < free.size(); ++j)
      var_mu1 += s1_location_derivative(fit.s0, free[i]) * cov[i][j] * s1_location_derivative(fit.s0, free[j]);
  fit.se_mu1 = std::sqrt(var_mu1);
  return {alpha_free, beta_free, true};
}

}  // namespace

StableFit fit_stable_ml(const std::vector<double>& x, const StableFit& start, StableLikelihood likelihood) {
  validate_sample(x, 20);
  if (likelihood == StableLikelihood::density) reject_unbounded_likelihood(x);
  if (likelihood == StableLikelihood::rounded)
    for (double v : x)
      if (v != std::round(v))
        throw UserError(fmt::format("stable fit: {} is not a whole number; fit the values by their density", v));
  const Likelihood data(x, likelihood);
  const StableLawParams s0 = to_s0(start.s0);
  // The tables cover 3× the standardised range of the data at the start.
  double widest = 0;
  for (double v : x) widest = std::max(widest, std::fabs(v - s0.mu) / s0.sigma);
  TableCache cache(std::clamp(3 * widest, 50.0, 1e4));
  const ShapeSearch search = search_shape(data, cache, s0);
  const ShapeSearch::Point& best = search.best;
  StableFit fit;
  fit.method = "ml";
  fit.likelihood = likelihood;
  fit.n = x.size();
  fit.iterations = search.iterations;
  fit.converged = search.converged;
  fit.s0.parameterization = StableParameterization::S0;
  fit.s0.alpha = best.alpha;
  fit.s0.beta = best.alpha == 2.0 ? 0.0 : best.beta;  // β not identified at 2
  fit.s0.mu = best.mu;
  fit.s0.sigma = std::exp(best.log_sigma);
  fit.s1 = to_s1(fit.s0);
  // Reported from the law itself, not the tables (their 1e-6 in ln f add up over the values: 0.006
  // on 1000 draws of α = 0.6), in S1, whose variable keeps an end's distance from the support's edge.
  fit.log_likelihood = stable_log_likelihood(x, fit.s1, likelihood);
  const InformationAt information = add_standard_errors(fit, data, cache);
  if (information.alpha_free && information.covariance)
    add_profile_intervals(fit, data, cache,
                          data.negative(cache.get(fit.s0.alpha, fit.s0.beta), fit.s0.mu, fit.s0.sigma));
  fit.boundary = boundary_of(fit, information.alpha_free, information.beta_free, information.covariance);
  if (fit.boundary.empty() && std::fabs(fit.s0.alpha - 1) < 0.1)
    fit.note = "alpha near 1: the S1 location is ill-conditioned (its SE is large); the S0 location is not";
  return fit;
}

const char* to_string(StableLikelihood likelihood) {
  return likelihood == StableLikelihood::rounded
             ? "rounded: each whole number k as P(k - 1/2 < X < k + 1/2), exact for rounded data"
             : "density: the product of f(x_i)";
}

double stable_log_likelihood(const std::vector<double>& x, const StableLawParams& law, StableLikelihood likelihood) {
  return blocked_sum<double>(x.size(), [&](std::size_t i) {
    return likelihood == StableLikelihood::density ? stable_log_pdf(x[i], law)
                                                   : stable_log_probability(x[i] - 0.5, x[i] + 0.5, law);
  });
}

}  // namespace gs
