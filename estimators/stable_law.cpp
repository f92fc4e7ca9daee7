#include "estimators/stable_law.hpp"

#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "host/base/errors.hpp"

namespace gs {
namespace {

constexpr double kNearOne = 1e-3;  // |α − 1| below which α = 1 ± kNearOne are interpolated
constexpr double kQuadratureTolerance = 1e-10;
// The likelihood tables' nodes: their cubic spline in asinh(z) is good to
// about 2e-5 in ln f (tested), so nodes to 1e-7 lose nothing and cost half.
constexpr double kTableQuadratureTolerance = 1e-7;

// ∫_a^b h by tanh–sinh quadrature, whose nodes crowd both ends: the integrand
// is split at its peak, so the peak sits at an end of each piece however
// narrow it is (an adaptive Gauss rule can miss it and report zero error).
template <class F>
double integrate(const F& h, double a, double b, double tolerance = kQuadratureTolerance) {
  if (!(b > a)) return 0.0;
  thread_local boost::math::quadrature::tanh_sinh<double> rule;  // integrate() is not const
  return rule.integrate(h, a, b, tolerance);
}

// ln g(θ) of Nolan's representation on θ ∈ (lo, hi), increasing or decreasing
// in θ; g e^{−g} peaks where ln g = 0. The split point is that θ, or the end
// the sign says, found by bisection (ln g is monotone).
template <class LogG>
double peak_of(const LogG& log_g, double lo, double hi) {
  const double width = hi - lo;
  double a = lo + 1e-12 * width, b = hi - 1e-12 * width;
  const double ga = log_g(a), gb = log_g(b);
  if (!(ga < 0) == !(gb < 0)) return std::fabs(ga) < std::fabs(gb) ? lo : hi;  // one piece, peaked at that end
  const bool increasing = ga < 0;
  for (int i = 0; i < 200 && b - a > 1e-15 * width; ++i) {
    const double m = 0.5 * (a + b);
    if ((log_g(m) < 0) == increasing)
      a = m;
    else
      b = m;
  }
  return 0.5 * (a + b);
}

// The integration interval and ln g of the standard S0 law at z ≥ ζ (α ≠ 1)
// or of the α = 1 law with β > 0.
struct Representation {
  double lo = 0, hi = 0;
  double alpha = 2, beta = 0, theta0 = 0;
  double constant = 0;  // α ≠ 1: the θ-free part of ln g
  double z = 0;         // α = 1

  double log_g(double theta) const {
    double value;
    if (alpha == 1.0) {
      const double p = kPi / 2 + beta * theta;
      value = -kPi * z / (2 * beta) + std::log(2 / kPi * p / std::cos(theta)) + p * std::tan(theta) / beta;
    } else {
      // ln g = α/(α−1)·[ln(z−ζ) + ln cos θ − ln sin α(θ0+θ)] + ln cos(αθ0)/(α−1)
      //        + ln cos(αθ0 + (α−1)θ) − ln cos θ; the θ-free terms are `constant`.
      // The same in two logarithms: a1·ln(cos θ / sin α(θ0+θ)) + ln(cos(αθ0 + (α−1)θ) / cos θ).
      const double a1 = alpha / (alpha - 1), cos_theta = std::cos(theta);
      value = constant + a1 * std::log(cos_theta / std::sin(alpha * (theta0 + theta))) +
              std::log(std::cos(alpha * theta0 + (alpha - 1) * theta) / cos_theta);
    }
    return std::isnan(value) ? -std::numeric_limits<double>::infinity() : value;
  }
};

// Nolan's ζ (0 at α = 1) and θ0 (α ≠ 1).
double zeta_of(double alpha, double beta) { return alpha == 1.0 ? 0.0 : -beta * std::tan(kPi * alpha / 2); }
double theta0_of(double alpha, double beta) { return std::atan(beta * std::tan(kPi * alpha / 2)) / alpha; }

Representation representation(double z, double alpha, double beta) {
  Representation r;
  r.alpha = alpha;
  r.beta = beta;
  if (alpha == 1.0) {
    r.z = z;
    r.lo = -kPi / 2;
    r.hi = kPi / 2;
  } else {
    r.theta0 = theta0_of(alpha, beta);
    const double log_x = std::log(z - zeta_of(alpha, beta));
    r.constant = alpha / (alpha - 1) * log_x + std::log(std::cos(alpha * r.theta0)) / (alpha - 1);
    r.lo = -r.theta0;
    r.hi = kPi / 2;
  }
  return r;
}

double gaussian_pdf(double z) { return std::exp(-z * z / 4) / (2 * std::sqrt(kPi)); }

// The tails, z − ζ and |z| ≥ kSeriesFrom, by the series of the density in
// powers of x^{−α}, x = z − ζ (the S1 variable): expanding the characteristic
// function exp(−c t^α e^{−iαθ0}), c = 1/cos αθ0, and integrating term by term
// along the imaginary axis gives
//   f = (1/π) Σ_{k≥1} (−1)^{k+1} Γ(αk + 1)/k! · c^k sin(kα(π/2 + θ0)) · x^{−αk−1},
// convergent for α < 1 and asymptotic for α > 1. There it leaves out a part
// that decays like exp(−x^{α/(α−1)}): from x = 20 on, below 1e-21 of the
// leading term's magnitude for every α in (1, 2) and β = −1 (where that part is
// all of the light tail), so the series is used only where the leading sine is
// not tiny. Against Nolan's integral at 1e-13 the series agrees to 4e-12
// relative from x = 20; it needs 4–15 terms where the integrand needs 500–1300
// evaluations. nullopt where it does not settle to 1e-14 or cancels.
constexpr double kSeriesFrom = 20;
std::optional<double> tail_series(double x, double alpha, double theta0) {
  const double log_c = -std::log(std::cos(alpha * theta0)), log_x = std::log(x);
  const double angle = alpha * (kPi / 2 + theta0);
  if (alpha > 1 && std::fabs(std::sin(angle)) < 1e-8) return std::nullopt;
  double sum = 0, magnitude = 0, previous = std::numeric_limits<double>::infinity();
  for (int k = 1; k <= 60; ++k) {
    const double size =
        std::exp(k * log_c + std::lgamma(alpha * k + 1) - std::lgamma(k + 1.0) - (alpha * k + 1) * log_x);
    if (size > previous) return std::nullopt;  // the asymptotic series' terms grow from here on
    previous = size;
    const double term = (k % 2 == 1 ? size : -size) * std::sin(k * angle);
    sum += term;
    magnitude += std::fabs(term);
    if (size <= 1e-14 * std::fabs(sum)) {
      if (!(sum > 0) || magnitude > 1e3 * sum) return std::nullopt;
      return sum / kPi;
    }
  }
  return std::nullopt;
}

// Exact formulas (α = 2, Cauchy) and Nolan's integral; |α − 1| ≥ kNearOne or α = 1.
double pdf_direct(double z, double alpha, double beta, double tolerance) {
  if (alpha == 2.0) return gaussian_pdf(z);
  if (alpha == 1.0 && beta == 0.0) return 1 / (kPi * (1 + z * z));
  if (alpha == 1.0) {
    if (beta < 0) return pdf_direct(-z, alpha, -beta, tolerance);
  } else {
    const double zeta = zeta_of(alpha, beta), theta0 = theta0_of(alpha, beta);
    if (std::fabs(z - zeta) <= 1e-9 * (1 + std::fabs(zeta)))
      return std::tgamma(1 + 1 / alpha) * std::cos(theta0) / (kPi * std::pow(1 + zeta * zeta, 1 / (2 * alpha)));
    if (z < zeta) return pdf_direct(-z, alpha, -beta, tolerance);
    if (z >= kSeriesFrom && z - zeta >= kSeriesFrom)
      if (const auto f = tail_series(z - zeta, alpha, theta0)) return *f;
  }
  const Representation r = representation(z, alpha, beta);
  const auto h = [&](double theta) {
    const double lg = r.log_g(theta);
    // exp of anything below −746 is 0: said directly, without the C library's slow underflow path.
    if (lg > 700 || lg < -746) return 0.0;
    const double exponent = lg - std::exp(lg);
    return exponent < -746 ? 0.0 : std::exp(exponent);
  };
  const auto lg = [&](double theta) { return r.log_g(theta); };
  const double peak = peak_of(lg, r.lo, r.hi);
  const double integral = integrate(h, r.lo, peak, tolerance) + integrate(h, peak, r.hi, tolerance);
  const double factor =
      alpha == 1.0 ? 1 / (2 * beta) : alpha / (kPi * std::fabs(alpha - 1) * (z - zeta_of(alpha, beta)));
  return std::max(0.0, factor * integral);
}

// (F, 1 − F), each without cancellation.
std::pair<double, double> cdf_direct(double z, double alpha, double beta) {
  if (alpha == 2.0) return {0.5 * std::erfc(-z / 2), 0.5 * std::erfc(z / 2)};
  if (alpha == 1.0 && beta == 0.0) {
    const double upper = z > 0 ? std::atan(1 / z) / kPi : 0.5 - std::atan(z) / kPi;
    const double lower = z < 0 ? std::atan(-1 / z) / kPi : 0.5 + std::atan(z) / kPi;
    return {lower, upper};
  }
  const auto reflected = [&] {
    const auto [f, s] = cdf_direct(-z, alpha, -beta);
    return std::pair<double, double>{s, f};
  };
  if (alpha == 1.0 && beta < 0) return reflected();
  const double zeta = zeta_of(alpha, beta);
  if (alpha != 1.0) {
    const double theta0 = theta0_of(alpha, beta);
    if (std::fabs(z - zeta) <= 1e-9 * (1 + std::fabs(zeta))) {
      const double f = (kPi / 2 - theta0) / kPi;
      return {f, 1 - f};
    }
    if (z < zeta) return reflected();
  }
  const Representation r = representation(z, alpha, beta);
  const auto lg = [&](double theta) { return r.log_g(theta); };
  const double peak = peak_of(lg, r.lo, r.hi);
  const auto survive = [&](double theta) { return std::exp(-std::exp(r.log_g(theta))); };
  const auto fail = [&](double theta) { return -std::expm1(-std::exp(r.log_g(theta))); };
  const auto both = [&](const auto& h) { return (integrate(h, r.lo, peak) + integrate(h, peak, r.hi)) / kPi; };
  if (alpha > 1) {
    const double tail = both(survive);
    return {1 - tail, tail};
  }
  const double upper = both(fail);  // α < 1 or α = 1: g → 0 far right, so integrate 1 − e^{−g}
  const double lower = alpha == 1.0 ? both(survive) : (kPi / 2 - r.theta0) / kPi + both(survive);
  return {lower, upper};
}

// Inside the band around α = 1: the representation is evaluated at α = 1 and
// at the band's edge, weighted linearly in α.
struct Band {
  double edge = 1, weight_edge = 0;
};
std::optional<Band> band_of(double alpha) {
  if (alpha == 1.0 || std::fabs(alpha - 1) >= kNearOne) return std::nullopt;
  return Band{alpha < 1 ? 1 - kNearOne : 1 + kNearOne, std::fabs(alpha - 1) / kNearOne};
}

void check_shape(double alpha, double beta) {
  if (!(alpha > 0 && alpha <= 2) || !(beta >= -1 && beta <= 1))
    throw UserError("stable law: alpha must be in (0, 2] and beta in [-1, 1]");
}

}  // namespace

namespace {
double pdf_s0(double z, double alpha, double beta, double tolerance) {
  check_shape(alpha, beta);
  if (std::isinf(z)) return 0.0;
  if (const auto band = band_of(alpha))
    return (1 - band->weight_edge) * pdf_direct(z, 1.0, beta, tolerance) +
           band->weight_edge * pdf_direct(z, band->edge, beta, tolerance);
  return pdf_direct(z, alpha, beta, tolerance);
}
}  // namespace

double stable_pdf_s0(double z, double alpha, double beta) { return pdf_s0(z, alpha, beta, kQuadratureTolerance); }

namespace {
std::pair<double, double> cdf_pair_s0(double z, double alpha, double beta) {
  if (z == -std::numeric_limits<double>::infinity()) return {0.0, 1.0};
  if (z == std::numeric_limits<double>::infinity()) return {1.0, 0.0};
  if (const auto band = band_of(alpha)) {
    const double w = band->weight_edge;
    const auto [f1, s1] = cdf_direct(z, 1.0, beta);
    const auto [f2, s2] = cdf_direct(z, band->edge, beta);
    return {(1 - w) * f1 + w * f2, (1 - w) * s1 + w * s2};
  }
  return cdf_direct(z, alpha, beta);
}
}  // namespace

double stable_cdf_s0(double z, double alpha, double beta) {
  check_shape(alpha, beta);
  return cdf_pair_s0(z, alpha, beta).first;
}

double stable_quantile_s0(double p, double alpha, double beta) {
  check_shape(alpha, beta);
  if (!(p > 0 && p < 1)) throw UserError("stable quantile: p must be in (0, 1)");
  // Compare on the smaller tail, where the CDF keeps its relative precision.
  const bool upper = p > 0.5;
  const double target = upper ? 1 - p : p;
  const auto excess = [&](double z) {
    const auto [f, s] = cdf_pair_s0(z, alpha, beta);
    return upper ? target - s : f - target;  // increasing in z
  };
  double lo = -1, hi = 1;
  while (excess(lo) > 0) lo *= 2;
  while (excess(hi) < 0) hi *= 2;
  boost::uintmax_t iterations = 200;
  const auto [a, b] =
      boost::math::tools::toms748_solve(excess, lo, hi, boost::math::tools::eps_tolerance<double>(48), iterations);
  return 0.5 * (a + b);
}

StableLawParams to_s0(const StableLawParams& law) {
  if (law.parameterization == StableParameterization::S0) return law;
  StableLawParams out = law;
  out.parameterization = StableParameterization::S0;
  out.mu = law.alpha == 1.0 ? law.mu + 2 / kPi * law.beta * law.sigma * std::log(law.sigma)
                            : law.mu + law.beta * law.sigma * std::tan(kPi * law.alpha / 2);
  return out;
}

StableLawParams to_s1(const StableLawParams& law) {
  if (law.parameterization == StableParameterization::S1) return law;
  StableLawParams out = law;
  out.parameterization = StableParameterization::S1;
  out.mu = law.alpha == 1.0 ? law.mu - 2 / kPi * law.beta * law.sigma * std::log(law.sigma)
                            : law.mu - law.beta * law.sigma * std::tan(kPi * law.alpha / 2);
  return out;
}

double stable_pdf(double x, const StableLawParams& law) {
  const StableLawParams s0 = to_s0(law);
  return stable_pdf_s0((x - s0.mu) / s0.sigma, s0.alpha, s0.beta) / s0.sigma;
}

double stable_log_pdf(double x, const StableLawParams& law) { return std::log(stable_pdf(x, law)); }

double stable_cdf(double x, const StableLawParams& law) {
  const StableLawParams s0 = to_s0(law);
  return stable_cdf_s0((x - s0.mu) / s0.sigma, s0.alpha, s0.beta);
}

double stable_quantile(double p, const StableLawParams& law) {
  const StableLawParams s0 = to_s0(law);
  return s0.mu + s0.sigma * stable_quantile_s0(p, s0.alpha, s0.beta);
}

namespace {
constexpr double kTableStep = 0.05;    // in u = asinh(z)
constexpr double kLogPdfFloor = -700;  // ln f below this (or f = 0) is stored as this

std::vector<double> tabulate(double alpha, double beta, double u_min, std::size_t count) {
  std::vector<double> values(count);
#pragma omp parallel for schedule(dynamic, 8)
  for (std::size_t i = 0; i < count; ++i) {
    const double f =
        pdf_s0(std::sinh(u_min + static_cast<double>(i) * kTableStep), alpha, beta, kTableQuadratureTolerance);
    values[i] = f > 0 ? std::max(kLogPdfFloor, std::log(f)) : kLogPdfFloor;
  }
  return values;
}
}  // namespace

StableLogDensityTable::StableLogDensityTable(double alpha, double beta, double reach)
    : alpha_(alpha), beta_(beta), u_min_(-std::asinh(reach)), u_max_(std::asinh(reach)), spline_([&] {
        const auto count = static_cast<std::size_t>(std::ceil((u_max_ - u_min_) / kTableStep)) + 1;
        auto values = tabulate(alpha, beta, u_min_, count);
        return boost::math::interpolators::cardinal_cubic_b_spline<double>(values.begin(), values.end(), u_min_,
                                                                           kTableStep);
      }()) {}

double StableLogDensityTable::operator()(double z) const {
  const double u = std::asinh(z);
  if (u > u_min_ && u < u_max_) return spline_(u);
  // Beyond the grid: the Gaussian law exactly, else the power tail
  // f ∝ |z|^{−(1+α)} (|u| = ln 2|z| there) continued from the grid's edge.
  if (alpha_ == 2.0) return std::max(kLogPdfFloor, -z * z / 4 - std::log(2 * std::sqrt(kPi)));
  const double edge = u > 0 ? u_max_ : u_min_;
  const double at_edge = spline_(edge);
  if (at_edge <= kLogPdfFloor) return kLogPdfFloor;
  return std::max(kLogPdfFloor, at_edge - (1 + alpha_) * (std::fabs(u) - std::fabs(edge)));
}

StableLogDensityTable::Derivatives StableLogDensityTable::derivatives(double z) const {
  const double u = std::asinh(z);
  const double du = 1 / std::sqrt(1 + z * z);  // du/dz
  const double d2u = -z * du * du * du;        // d²u/dz²
  if (u > u_min_ && u < u_max_) {
    const double slope = spline_.prime(u);
    return {spline_(u), slope * du, spline_.double_prime(u) * du * du + slope * d2u};
  }
  const double value = (*this)(z);
  if (value <= kLogPdfFloor) return {value, 0, 0};
  if (alpha_ == 2.0) return {value, -z / 2, -0.5};
  const double sign = u > 0 ? 1 : -1;  // the power tail is linear in |u|
  return {value, -(1 + alpha_) * sign * du, -(1 + alpha_) * sign * d2u};
}

}  // namespace gs
