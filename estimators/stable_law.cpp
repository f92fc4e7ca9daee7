#include "estimators/stable_law.hpp"

#include <algorithm>
#include <array>
#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "host/base/errors.hpp"
#include "host/base/parallel.hpp"

namespace gs {
namespace {

// |α − 1| below which the density is interpolated linearly in α between α = 1
// and α = 1 ± kNearOne. With tan(πα/2) taken from α − 1 (exact in double), the
// representation keeps about 1e-9 relative down to |α − 1| = 1e-6: its θ-free
// terms, each about |ln ζ|/|α − 1|, cancel to O(1), losing |ln ζ|/|α − 1|·1e-16.
// Across so narrow a band the linear interpolation errs by ~1e-13.
constexpr double kNearOne = 1e-6;
constexpr double kQuadratureTolerance = 1e-10;
// The likelihood tables' nodes: the interpolant is held to 1e-7 in ln f, so
// nodes to 1e-7 relative lose nothing and cost less.
constexpr double kTableQuadratureTolerance = 1e-7;
constexpr double kInf = std::numeric_limits<double>::infinity();

// ln(e^a + e^b).
double log_add(double a, double b) {
  const double top = std::max(a, b);
  if (top == -kInf) return -kInf;
  return top + std::log1p(std::exp(std::min(a, b) - top));
}
// ln(e^a − e^b), a ≥ b.
double log_subtract(double a, double b) {
  if (b == -kInf) return a;
  return a + std::log(-std::expm1(b - a));
}

// ∫_a^b h by tanh–sinh quadrature, whose nodes crowd both ends: the integrand
// is split at its peak, so the peak sits at an end of each piece however
// narrow it is (an adaptive Gauss rule can miss it and report zero error).
template <class F>
double integrate(const F& h, double a, double b, double tolerance) {
  if (!(b > a)) return 0.0;
  thread_local boost::math::quadrature::tanh_sinh<double> rule;  // integrate() is not const
  return rule.integrate(h, a, b, tolerance);
}

// tan(πα/2) to full relative precision everywhere in (0, 2): near α = 1 from
// α − 1 (exact), near 2 from 2 − α, where the argument πα/2 would lose digits.
double tan_half_pi(double alpha) {
  if (alpha < 0.5) return std::tan(kPi * alpha / 2);
  if (alpha < 1.5) return -1 / std::tan(kPi * (alpha - 1) / 2);
  return -std::tan(kPi * (2 - alpha) / 2);
}

// Nolan's ζ (0 at α = 1).
double zeta_of(double alpha, double beta) { return alpha == 1.0 ? 0.0 : -beta * tan_half_pi(alpha); }

// The angles of Nolan's representation at α ≠ 1, with t = tan(πα/2):
// αθ0 = atan(βt), the interval's width π/2 + θ0 = φ/α, and cos θ0, sin θ0,
// sin φ, cos φ. χ = απ/2 − αθ0 and ψ = αθ0 + απ/2 (less π for α > 1) are each
// one atan2 of a tangent difference or sum: small where the interval nearly
// fills (β → 1, α < 1) or nearly vanishes (β → −1), and exact to their last
// bits there, where θ0 = atan(βt)/α would have lost them.
struct Angles {
  double bt, width, to_right, cos_t0, sin_t0, sin_phi, cos_phi;  // to_right: π/2 − θ0
  Angles(double alpha, double beta) {
    const double t = tan_half_pi(alpha);
    bt = beta * t;
    const double chi = std::atan2((1 - beta) * t, 1 + bt * t) + (alpha > 1 ? kPi : 0.0);
    const double psi = std::atan2((1 + beta) * t, 1 - bt * t);
    width = (psi + (alpha > 1 ? kPi : 0.0)) / alpha;
    sin_phi = alpha > 1 ? -std::sin(psi) : std::sin(psi);
    cos_phi = alpha > 1 ? -std::cos(psi) : std::cos(psi);
    to_right = chi / alpha;
    if (to_right < kPi / 2) {
      cos_t0 = std::sin(to_right), sin_t0 = std::cos(to_right);
    } else {
      cos_t0 = std::sin(width), sin_t0 = -std::cos(width);
    }
  }
  double cdf_at_zeta() const { return to_right / kPi; }  // (π/2 − θ0)/π, 0 exactly at α < 1, β = 1
};

// Nolan's representation (1997, Thm. 1) of the standard S0 law at x = z − ζ > 0
// (α ≠ 1) or at z (α = 1, β > 0): with θ ∈ (−θ0, π/2),
//   α ≠ 1: f = α/(π|α − 1| x) ∫ g e^{−g} dθ, g = x^{α/(α−1)} V(θ),
//          V = cos(αθ0)^{1/(α−1)} (cos θ / sin α(θ0 + θ))^{α/(α−1)} cos(αθ0 + (α−1)θ) / cos θ;
//   α = 1: f = 1/(2β) ∫ g e^{−g} dθ, g = e^{−πz/(2β)} (2/π)(π/2 + βθ)/cos θ · exp((π/2 + βθ) tan θ / β),
// and the distribution functions ∫ e^{−g} and ∫ (1 − e^{−g}) (cdf_shifted).
// Each trigonometric factor is computed from the distance to the nearer end
// of the interval, s = θ + θ0 on the left half and r = π/2 − θ on the right,
// by the angle-sum identities with cos θ0, sin θ0 and φ = α(θ0 + π/2) formed
// without cancellation: tanh–sinh places nodes within 1e-300 of an end, and
// θ itself cannot say how far it is from −θ0 or π/2 (at α < 1, β = 1, where
// the mass sits at the left end for x near 0, the density came out 1e128 too
// large that way).
class Representation {
 public:
  Representation(double x, double alpha, double beta) : alpha_(alpha), beta_(beta) {
    if (alpha == 1.0) {
      width_ = kPi;
      constant_ = -kPi * x / (2 * beta);
      return;
    }
    const Angles angles(alpha, beta);
    width_ = angles.width;
    cos_t0_ = angles.cos_t0, sin_t0_ = angles.sin_t0, sin_phi_ = angles.sin_phi, cos_phi_ = angles.cos_phi;
    a1_ = alpha / (alpha - 1);
    // ln cos αθ0 = −ln √(1 + (βt)²), as αθ0 = atan(βt).
    constant_ = a1_ * std::log(x) - 0.5 * std::log1p(angles.bt * angles.bt) / (alpha - 1);
  }

  double width() const { return width_; }

  // ln g at distance `offset` from the left end (left = true) or the right end.
  double log_g(double offset, bool left) const {
    const double value = alpha_ == 1.0 ? log_g_one(offset, left) : log_g_general(offset, left);
    return std::isnan(value) ? -kInf : value;
  }

  // ln g on the position p ∈ (0, width) from the left end, through the nearer end.
  double log_g_at(double p) const { return p <= width_ / 2 ? log_g(p, true) : log_g(width_ - p, false); }

 private:
  double log_g_general(double u, bool left) const {
    double cos_theta, sin_alpha, cos_shifted;  // cos θ, sin α(θ0 + θ), cos(αθ0 + (α − 1)θ)
    const double a = alpha_;
    if (left) {  // θ = −θ0 + u
      cos_theta = std::cos(u) * cos_t0_ + std::sin(u) * sin_t0_;
      sin_alpha = std::sin(a * u);
      cos_shifted = cos_t0_ * std::cos((a - 1) * u) - sin_t0_ * std::sin((a - 1) * u);
    } else {  // θ = π/2 − u
      cos_theta = std::sin(u);
      sin_alpha = sin_phi_ * std::cos(a * u) - cos_phi_ * std::sin(a * u);
      cos_shifted = sin_phi_ * std::cos((a - 1) * u) - cos_phi_ * std::sin((a - 1) * u);
    }
    return constant_ + a1_ * std::log(cos_theta / sin_alpha) + std::log(cos_shifted / cos_theta);
  }

  double log_g_one(double u, bool left) const {
    const double b = beta_;
    const double cos_theta = std::sin(u);
    const double tan_theta = (left ? -1 : 1) * std::cos(u) / cos_theta;
    const double p = left ? kPi / 2 * (1 - b) + b * u : kPi / 2 * (1 + b) - b * u;  // π/2 + βθ
    return constant_ + std::log(2 / kPi * p / cos_theta) + p * tan_theta / b;
  }

  double alpha_, beta_;
  double width_ = 0, constant_ = 0, a1_ = 0;
  double cos_t0_ = 0, sin_t0_ = 1, sin_phi_ = 0, cos_phi_ = 1;
};

// The pieces of (0, width) to integrate over: cut at the middle (each half is
// integrated from its own end) and where ln g crosses 0 (the peak of g e^{−g}
// and the turn of e^{−g}), found by bisection, as ln g is monotone in θ.
struct Piece {
  double from, to;  // offsets from the piece's end
  bool left;
};
struct Pieces {
  std::vector<Piece> pieces;
  double peak_log_g = 0;  // ln g where g e^{−g} is largest (0 at a crossing)
};

Pieces pieces_of(const Representation& r) {
  const double w = r.width(), half = w / 2;
  // ln g at the ends, as tanh–sinh's outermost nodes see it: where g is huge
  // the integrand's top is at an end, and even 1e-12 in from it e^{−g} may
  // already be e^{−1e8} smaller.
  constexpr double kEnd = 1e-290;
  const double ends[2] = {r.log_g(kEnd, true), r.log_g(kEnd, false)};
  Pieces out;
  out.pieces = {{0, half, true}, {0, half, false}};
  if ((ends[0] < 0) == (ends[1] < 0)) {
    out.peak_log_g = std::fabs(ends[0]) < std::fabs(ends[1]) ? ends[0] : ends[1];
    return out;
  }
  // The crossing, by bisection in the offset from the end of the half it lies
  // in (exact however close to that end: the integrand may live within 1e-8 of
  // it, between tanh–sinh's first nodes, and would be missed without a cut there).
  const double middle = r.log_g(half, true);
  const bool left = (ends[0] < 0) != (middle < 0);
  const double sign_at_end = left ? ends[0] : ends[1];
  // In y = ln(offset), where ln g near an end is about linear; TOMS 748 to
  // 1e-6 relative (a cut needs no more).
  const auto at_log_offset = [&](double y) { return r.log_g(std::exp(y), left); };
  boost::uintmax_t iterations = 100;
  const auto [y1, y2] =
      boost::math::tools::toms748_solve(at_log_offset, std::log(kEnd), std::log(half), sign_at_end, middle,
                                        boost::math::tools::eps_tolerance<double>(20), iterations);
  const double crossing = std::exp(0.5 * (y1 + y2));
  out.peak_log_g = 0;
  // A crossing within 1e-9 of the width from the middle is left to the middle
  // cut (the rule cannot integrate over a few ulps; the peak is then next to that cut anyway).
  if (!(half - crossing > 1e-9 * w)) return out;
  // Where ln g rises past 0, g e^{−g} dies double-exponentially: 40 times the
  // peak's width 1/|d ln g| further on it is below e^{−1e17}. A cut there keeps
  // the peak from being a sliver of a long piece (it lives within 1e-8 of the
  // piece's length next to a support's edge near α = 1, where the rule settled
  // 2e-3 off).
  const double step = 1e-4 * std::min(crossing, half - crossing);
  const double slope = (r.log_g(crossing + step, left) - r.log_g(crossing - step, left)) / (2 * step);
  const double rises_at = crossing + 40 / slope;  // toward where ln g grows
  std::vector<double> cuts = {0, crossing, half};
  if (std::isfinite(rises_at) && rises_at > 0 && rises_at < half) cuts.push_back(rises_at);
  std::sort(cuts.begin(), cuts.end());
  out.pieces.clear();
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) out.pieces.push_back({cuts[i], cuts[i + 1], left});
  out.pieces.push_back({0, half, !left});
  return out;
}

template <class H>
double integrate_pieces(const Representation& r, const Pieces& p, const H& h, double tolerance) {
  double sum = 0;
  for (const Piece& piece : p.pieces)
    sum += integrate([&](double u) { return h(r.log_g(u, piece.left)); }, piece.from, piece.to, tolerance);
  return sum;
}

double log_gaussian_pdf(double z) { return -z * z / 4 - std::log(2 * std::sqrt(kPi)); }

// The tails, by the series of the density in powers of x^{−α}, x = z − ζ (the
// S1 variable): expanding the characteristic function exp(−c t^α e^{−iαθ0}),
// c = 1/cos αθ0, and integrating term by term along the imaginary axis gives
//   f = Σ_{k≥1} A_k x^{−αk−1}, A_k = (1/π)(−1)^{k+1} Γ(αk + 1)/k! · c^k sin(kα(π/2 + θ0)),
// convergent for α < 1 and asymptotic for α > 1. There it leaves out a part
// that decays like exp(−x^{α/(α−1)}): from x = 20 on, below 1e-21 of the
// leading term's magnitude for every α in (1, 2) and β = −1 (where that part is
// all of the light tail), so the series is used only where the leading sine is
// not tiny. Against Nolan's integral at 1e-13 the series agrees to 4e-12
// relative from x = 20; it needs 4–15 terms where the integrand needs 500–1300
// evaluations. Term by term it also gives f′ and f″ (factors −(αk + 1) and
// (αk + 1)(αk + 2) over powers of x) and the mass of an interval,
//   ∫_{x1}^{x2} f = Σ A_k/(αk) · x1^{−αk} (1 − (x1/x2)^{αk}),
// each bracket by expm1, so that a narrow interval far out is no difference of
// two nearly equal tails. Not at α = 1 (no power series) nor α = 2.
constexpr double kSeriesFrom = 20;
constexpr int kSeriesTerms = 60;  // the most the sums take before they give up

}  // namespace

class TailSeries {
 public:
  TailSeries(double alpha, double beta) : alpha_(alpha) {
    const double bt = alpha == 1.0 ? 0.0 : beta * tan_half_pi(alpha);
    log_c_ = 0.5 * std::log1p(bt * bt);
    angle_ = alpha * kPi / 2 + std::atan(bt);
    // Not where the leading sine vanishes for α > 1: the light side, whose
    // exp(−x^{α/(α−1)}) the series leaves out.
    usable_ = alpha != 1.0 && alpha != 2.0 && !(alpha > 1 && std::fabs(std::sin(angle_)) < 1e-8);
  }

  // Keeps every term's coefficient for a series asked about thousands of
  // points (a likelihood table's tails: two lgamma, a sin per term and point
  // were a third of an lfsn fit's time at α = 0.16). The same bits.
  void keep_terms() {
    terms_.clear();
    for (int k = 1; k <= kSeriesTerms; ++k) terms_.push_back(computed_term(k));
  }

  // Whether the series describes the tail at all.
  bool usable() const { return usable_; }

  std::optional<double> density(double x) const {
    const auto s = sums<1>(std::log(x), 1, [](double) { return std::array<double, 1>{1.0}; });
    if (!s) return std::nullopt;
    return (*s)[0] / kPi;
  }

  // ln f and its first two derivatives in x.
  std::optional<std::array<double, 3>> log_density_derivatives(double x) const {
    const auto s = sums<3>(std::log(x), 1, [](double ak) {
      return std::array<double, 3>{1.0, -(ak + 1), (ak + 1) * (ak + 2)};
    });
    if (!s) return std::nullopt;
    const double first = (*s)[1] / ((*s)[0] * x), second = (*s)[2] / ((*s)[0] * x * x);
    return std::array<double, 3>{std::log((*s)[0] / kPi), first, second - first * first};
  }

  // ln ∫ f over (x1, x2), x2 ≤ ∞.
  std::optional<double> log_mass(double x1, double x2) const {
    const double log_ratio = std::log(x2 / x1);  // +∞ for x2 = ∞: every bracket is 1
    const auto s =
        sums<1>(std::log(x1), 0, [&](double ak) { return std::array<double, 1>{-std::expm1(-ak * log_ratio) / ak}; });
    if (!s) return std::nullopt;
    return std::log((*s)[0] / kPi);
  }

 private:
  // π Σ_k A_k x^{−αk−p} m_k for the factors m_k = factors(αk); nullopt where the
  // series is not usable, where the terms grow before they settle to 1e-14 of the
  // sums (the asymptotic series at too small an x), or where the first sum is
  // not positive or cancels.
  template <std::size_t N, class Factors>
  std::optional<std::array<double, N>> sums(double log_x, double p, const Factors& factors) const {
    if (!usable()) return std::nullopt;
    std::array<double, N> sum{}, magnitude{};
    double previous = kInf;
    for (int k = 1; k <= kSeriesTerms; ++k) {
      const double ak = alpha_ * k;
      const Term coefficient = term_coefficient(k);
      const double size = std::exp(coefficient.log_size - (ak + p) * log_x);
      if (size > previous) return std::nullopt;  // the asymptotic series' terms grow from here on
      previous = size;
      const double term = (k % 2 == 1 ? size : -size) * coefficient.sine;
      const std::array<double, N> m = factors(ak);
      bool settled = true;
      for (std::size_t j = 0; j < N; ++j) {
        sum[j] += term * m[j];
        magnitude[j] += std::fabs(term * m[j]);
        settled = settled && size * std::fabs(m[j]) <= 1e-14 * std::fabs(sum[j]);
      }
      if (settled) {
        if (!(sum[0] > 0) || magnitude[0] > 1e3 * sum[0]) return std::nullopt;
        return sum;
      }
    }
    return std::nullopt;
  }

  // Term k's ln(c^k Γ(αk + 1)/k!) and sin(kα(π/2 + θ0)).
  struct Term {
    double log_size, sine;
  };
  Term computed_term(int k) const {
    const double ak = alpha_ * k;
    return {k * log_c_ + std::lgamma(ak + 1) - std::lgamma(k + 1.0), std::sin(k * angle_)};
  }
  Term term_coefficient(int k) const { return k <= static_cast<int>(terms_.size()) ? terms_[k - 1] : computed_term(k); }

  double alpha_, log_c_ = 0, angle_ = 0;  // angle: α(π/2 + θ0)
  bool usable_ = false;
  std::vector<Term> terms_;               // kept by keep_terms
};

namespace {

// Whether the standard S0 law's series holds at z (x = z − ζ): both |z| and
// z − ζ far out on the right.
bool series_holds(double x, double z) { return x >= kSeriesFrom && z >= kSeriesFrom; }

// ln f of the standard S0 law at x = z − ζ (α ≠ 1) or x = z (α = 1), by the
// exact forms (α = 2, Cauchy), the tail series and Nolan's integral, in
// logarithms: the integrand is scaled by its largest value, so densities far
// below the double range (the light side of a skewed law) keep their logarithm.
// −∞ outside the support (α < 1, β = ±1).
// Below `floor` the value is only bounded: the integrand's top times the
// interval's width, without the integral (the likelihood tables need to know
// no more of the far side of a light tail, where the integral is slowest).
double log_pdf_shifted(double x, double alpha, double beta, double tolerance, double floor = -kInf) {
  if (alpha == 2.0) return log_gaussian_pdf(x);
  if (alpha == 1.0 && beta == 0.0) return -std::log(kPi * (1 + x * x));
  // f(z; α, β) = f(−z; α, −β): the representation takes α = 1 with β > 0, else z ≥ ζ.
  if (alpha == 1.0 ? beta < 0 : x < 0) return log_pdf_shifted(-x, alpha, -beta, tolerance, floor);
  if (alpha != 1.0) {
    const Angles angles(alpha, beta);
    const double bt = angles.bt;
    if (x <= 1e-9 * (1 + std::fabs(bt)))  // at ζ: Γ(1 + 1/α) cos θ0 / (π (1 + ζ²)^{1/(2α)})
      return std::lgamma(1 + 1 / alpha) + std::log(angles.cos_t0 / kPi) - std::log1p(bt * bt) / (2 * alpha);
    if (series_holds(x, x - bt))  // x − βt = z
      if (const auto f = TailSeries(alpha, beta).density(x)) return std::log(*f);
  }
  const Representation r(x, alpha, beta);
  if (!(r.width() > 0)) return -kInf;  // α < 1, β = −1: nothing right of ζ
  const Pieces pieces = pieces_of(r);
  const double peak = pieces.peak_log_g - std::exp(pieces.peak_log_g);  // ln of the integrand's top
  const double log_factor = alpha == 1.0 ? -std::log(2 * beta) : std::log(alpha / (kPi * std::fabs(alpha - 1) * x));
  if (const double bound = log_factor + peak + std::log(r.width()); bound < floor) return bound;
  const auto h = [peak](double lg) {
    if (lg > 700) return 0.0;
    const double exponent = lg - std::exp(lg) - peak;  // ≤ 0 but for rounding
    return exponent < -746 ? 0.0 : std::exp(std::min(exponent, 0.0));
  };
  const double integral = integrate_pieces(r, pieces, h, tolerance);
  if (!(integral > 0)) return -kInf;
  return log_factor + peak + std::log(integral);
}

// (F, 1 − F) of the standard S0 law at x = z − ζ (z at α = 1), each without
// cancellation.
std::pair<double, double> cdf_shifted(double x, double alpha, double beta) {
  if (alpha == 2.0) return {0.5 * std::erfc(-x / 2), 0.5 * std::erfc(x / 2)};
  if (alpha == 1.0 && beta == 0.0) {
    const double upper = x > 0 ? std::atan(1 / x) / kPi : 0.5 - std::atan(x) / kPi;
    const double lower = x < 0 ? std::atan(-1 / x) / kPi : 0.5 + std::atan(x) / kPi;
    return {lower, upper};
  }
  if (alpha == 1.0 ? beta < 0 : x < 0) {  // F(z; α, β) = 1 − F(−z; α, −β)
    const auto [f, s] = cdf_shifted(-x, alpha, -beta);
    return {s, f};
  }
  if (alpha != 1.0) {
    const Angles angles(alpha, beta);
    if (x == 0) return {angles.cdf_at_zeta(), (kPi - angles.to_right) / kPi};
    if (!(angles.width > 0)) return {1.0, 0.0};  // α < 1, β = −1: all the mass is left of ζ
  }
  const Representation r(x, alpha, beta);
  const Pieces pieces = pieces_of(r);
  const auto survive = [](double lg) { return std::exp(-std::exp(lg)); };
  const auto fail = [](double lg) { return -std::expm1(-std::exp(lg)); };
  const auto both = [&](const auto& h) { return integrate_pieces(r, pieces, h, kQuadratureTolerance) / kPi; };
  if (alpha > 1) {
    const double tail = both(survive);
    return {1 - tail, tail};
  }
  // α < 1 or α = 1: g → 0 far right, so integrate 1 − e^{−g}.
  const double upper = both(fail);
  const double lower = alpha == 1.0 ? both(survive) : Angles(alpha, beta).cdf_at_zeta() + both(survive);
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

// ln((1 − w) e^a + w e^b) without overflow or underflow.
double log_mix(double a, double b, double w) {
  const double top = std::max(a, b);
  if (top == -kInf) return -kInf;
  return top + std::log((1 - w) * std::exp(a - top) + w * std::exp(b - top));
}

double log_pdf_s0(double z, double alpha, double beta, double tolerance, double floor = -kInf) {
  check_shape(alpha, beta);
  if (std::isinf(z)) return -kInf;
  if (const auto band = band_of(alpha))
    return log_mix(log_pdf_shifted(z, 1.0, beta, tolerance, floor),
                   log_pdf_shifted(z - zeta_of(band->edge, beta), band->edge, beta, tolerance, floor),
                   band->weight_edge);
  return log_pdf_shifted(z - zeta_of(alpha, beta), alpha, beta, tolerance, floor);
}

std::pair<double, double> cdf_pair_s0(double z, double alpha, double beta) {
  if (z == -kInf) return {0.0, 1.0};
  if (z == kInf) return {1.0, 0.0};
  if (const auto band = band_of(alpha)) {
    const double w = band->weight_edge;
    const auto [f1, s1] = cdf_shifted(z, 1.0, beta);
    const auto [f2, s2] = cdf_shifted(z - zeta_of(band->edge, beta), band->edge, beta);
    return {(1 - w) * f1 + w * f2, (1 - w) * s1 + w * s2};
  }
  return cdf_shifted(z - zeta_of(alpha, beta), alpha, beta);
}

// The standard variable the representation takes for a law and an x: the S1
// variable (x − μ1)/σ = z − ζ directly where the law is given in S1 (near the
// edge of a skewed law's support, going through S0 would subtract two nearly
// equal numbers), else the S0 variable. nullopt: use the S0 path.
std::optional<double> shifted_variable(double x, const StableLawParams& law) {
  if (law.parameterization != StableParameterization::S1 || law.alpha == 1.0 || band_of(law.alpha)) return std::nullopt;
  return (x - law.mu) / law.sigma;
}

// (F, 1 − F) of the standard law at x = z − ζ (z at α = 1), ends included.
std::pair<double, double> cdf_pair_shifted(double x, double alpha, double beta) {
  if (std::isinf(x)) return x < 0 ? std::pair{0.0, 1.0} : std::pair{1.0, 0.0};
  return cdf_shifted(x, alpha, beta);
}

// ln(G(b) − G(a)) from the (F, 1 − F) pairs at a < b, on the side where both
// are smaller: 1 − F where both ends lie right of the median (1 − F(a) < F(b)),
// F otherwise; the larger of the two differences would lose to cancellation
// what the smaller keeps (the probability of a count far in the right tail).
double log_difference(const std::pair<double, double>& at_a, const std::pair<double, double>& at_b) {
  const double p = at_a.second < at_b.first ? at_a.second - at_b.second : at_b.first - at_a.first;
  return p > 0 ? std::log(p) : -kInf;
}

// ln P(x1 < X < x2) of the standard law in x = z − ζ (z at α = 1): where both
// ends lie in one far tail, the interval's own integral term by term (the
// series: no difference of tails at all), else log_difference. The left tail
// is the right tail of the reflected law: f(z; α, β) = f(−z; α, −β), and its
// x is −x.
double log_probability_shifted(double x1, double x2, double alpha, double beta) {
  const double zeta = zeta_of(alpha, beta);
  if (const TailSeries right(alpha, beta); right.usable() && series_holds(x1, x1 + zeta))
    if (const auto mass = right.log_mass(x1, x2)) return *mass;
  if (const TailSeries left(alpha, -beta); left.usable() && series_holds(-x2, -(x2 + zeta)))
    if (const auto mass = left.log_mass(-x2, -x1)) return *mass;
  return log_difference(cdf_pair_shifted(x1, alpha, beta), cdf_pair_shifted(x2, alpha, beta));
}

}  // namespace

double stable_pdf_s0(double z, double alpha, double beta) {
  return std::exp(log_pdf_s0(z, alpha, beta, kQuadratureTolerance));
}
double stable_log_pdf_s0(double z, double alpha, double beta) {
  return log_pdf_s0(z, alpha, beta, kQuadratureTolerance);
}

double stable_cdf_s0(double z, double alpha, double beta) {
  check_shape(alpha, beta);
  return cdf_pair_s0(z, alpha, beta).first;
}

double stable_sf_s0(double z, double alpha, double beta) {
  check_shape(alpha, beta);
  return cdf_pair_s0(z, alpha, beta).second;
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
                            : law.mu + law.beta * law.sigma * tan_half_pi(law.alpha);
  return out;
}

StableLawParams to_s1(const StableLawParams& law) {
  if (law.parameterization == StableParameterization::S1) return law;
  StableLawParams out = law;
  out.parameterization = StableParameterization::S1;
  out.mu = law.alpha == 1.0 ? law.mu - 2 / kPi * law.beta * law.sigma * std::log(law.sigma)
                            : law.mu - law.beta * law.sigma * tan_half_pi(law.alpha);
  return out;
}

double stable_log_pdf(double x, const StableLawParams& law) {
  check_shape(law.alpha, law.beta);
  if (const auto shifted = shifted_variable(x, law))
    return log_pdf_shifted(*shifted, law.alpha, law.beta, kQuadratureTolerance) - std::log(law.sigma);
  const StableLawParams s0 = to_s0(law);
  return stable_log_pdf_s0((x - s0.mu) / s0.sigma, s0.alpha, s0.beta) - std::log(s0.sigma);
}

double stable_pdf(double x, const StableLawParams& law) { return std::exp(stable_log_pdf(x, law)); }

double stable_cdf(double x, const StableLawParams& law) {
  check_shape(law.alpha, law.beta);
  if (const auto shifted = shifted_variable(x, law)) return cdf_shifted(*shifted, law.alpha, law.beta).first;
  const StableLawParams s0 = to_s0(law);
  return stable_cdf_s0((x - s0.mu) / s0.sigma, s0.alpha, s0.beta);
}

double stable_log_probability(double a, double b, const StableLawParams& law) {
  check_shape(law.alpha, law.beta);
  if (!(b > a)) return -kInf;
  if (const auto x1 = shifted_variable(a, law))
    return log_probability_shifted(*x1, *shifted_variable(b, law), law.alpha, law.beta);
  const StableLawParams s0 = to_s0(law);
  const double z1 = (a - s0.mu) / s0.sigma, z2 = (b - s0.mu) / s0.sigma;
  if (band_of(law.alpha))
    return log_difference(cdf_pair_s0(z1, law.alpha, law.beta), cdf_pair_s0(z2, law.alpha, law.beta));
  const double zeta = zeta_of(law.alpha, law.beta);
  return log_probability_shifted(z1 - zeta, z2 - zeta, law.alpha, law.beta);
}

double stable_quantile(double p, const StableLawParams& law) {
  const StableLawParams s0 = to_s0(law);
  return s0.mu + s0.sigma * stable_quantile_s0(p, s0.alpha, s0.beta);
}

namespace {
constexpr double kTableStep = 0.1;  // the base grid's step in u
// The table's coordinate u = asinh((z − c)/κ): about ln|z − c| far out, and
// for α < 1 centred on ζ with κ ≤ 1 (table_scale), so that the edge of a
// skewed law (where ln f falls like −(z − ζ)^{−α/(1−α)}) is resolved in
// ln(z − ζ). For α ≥ 1 nothing happens at ζ, nor for α < 1 where ζ lies far
// from the body (|ζ| = |β| tan(πα/2) grows without bound as α → 1⁻, and a grid
// logarithmic in z − ζ would then hold the body in a fraction of one step):
// there c = 0, κ = 1.
// Nodes where ln f is below this (the far side of a light tail or of a
// support's edge) are left out: what lies beyond the table is continued along
// its last slope, and no datum that a fit keeps lies there.
constexpr double kLogPdfCut = -2e3;
constexpr double kTableFloor = 2 * kLogPdfCut;  // nodes below it are only bounded (log_pdf_shifted)
// Refinement: an interval is halved while cubic predictions of ln f at its
// middle differ by more than kAbsolute + kRelative·|ln f|, and 1e-5 of what
// ln f is below kDeep (ln f < −50 is no datum's value at a fit that holds),
// at most kMaxDepth times.
constexpr double kAbsolute = 1e-6, kRelative = 1e-6, kDeep = -50;
constexpr int kMaxDepth = 12;

constexpr double kEdgeNearBody = 10;  // |ζ| up to which the table is centred on ζ
// How far out the nodes may go to reach where the tail series holds (|α − 1|
// down to 1e-5 needs |z| ~ 1e6: there c = 1/cos αθ0 ~ 6e4).
constexpr double kReachMax = 1e8;

bool centred_on_edge(double alpha, double beta) {
  return alpha < 1 && std::fabs(zeta_of(alpha, beta)) <= kEdgeNearBody;
}

double table_center(double alpha, double beta) { return centred_on_edge(alpha, beta) ? zeta_of(alpha, beta) : 0.0; }

// κ: 1 where the law is not far from symmetric (|β| < 1/2: nothing happens
// at ζ); else 1e-3, or for small α with |β| near 1 (where ln f ≈ −c (z − ζ)^{−α/(1−α)}
// still lies above the cut at z − ζ = 1e-3: 1e-8 at α = 0.3, 1e-30 at 0.1)
// the first power of ten at which the light side falls below the cut or
// stops falling (by less than 1 per decade: the other side's mass, |β| < 1).
double table_scale(double alpha, double beta) {
  if (!centred_on_edge(alpha, beta) || std::fabs(beta) < 0.5) return 1.0;
  const double zeta = zeta_of(alpha, beta), side = beta > 0 ? 1 : -1;
  const auto at_distance = [&](double d) {
    return log_pdf_s0(zeta + side * d, alpha, beta, kTableQuadratureTolerance, kTableFloor);
  };
  double scale = 1e-3, at = at_distance(scale);
  while (at > kLogPdfCut && scale > 1e-250) {
    const double next = at_distance(scale / 10);
    if (!(next < at - 1)) break;
    scale /= 10, at = next;
  }
  return scale;
}

// The series of the law (α, β)'s right tail with its terms' coefficients kept,
// for a table that asks it about thousands of points.
std::shared_ptr<const TailSeries> kept_series(double alpha, double beta) {
  auto series = std::make_shared<TailSeries>(alpha, beta);
  series->keep_terms();
  return series;
}

// How far the nodes reach on one side (+1 right, −1 left): from `reach` out by
// factors of 4 until the tail series holds at the end (`exact`: beyond it the
// table is the series, f to 1e-14 and the interval masses term by term; before,
// a power law continued from the end node was 7 % off in f at 5× the reach for
// α = 0.3) or ln f there is below the cut (a light tail or a support's edge,
// which no datum at a fit that holds reaches), or up to kReachMax.
double tail_reach(double alpha, double beta, double reach, int side, bool& exact) {
  const TailSeries series(alpha, side * beta);
  const double zeta = zeta_of(alpha, beta);
  exact = false;
  if (!series.usable()) return reach;
  for (double r = reach;; r *= 4) {
    const double x = side * (side * r - zeta);  // the S1 variable of the law (side +1) or its reflection
    if (series_holds(x, r) && series.density(x)) return exact = true, r;
    if (r >= kReachMax || log_pdf_s0(side * r, alpha, beta, kTableQuadratureTolerance, kTableFloor) < kLogPdfCut)
      return r;
  }
}

// The value at x of the cubic through the four points (u[k..k+3], v[k..k+3]).
double cubic_through(const std::vector<double>& u, const std::vector<double>& v, std::size_t k, double x) {
  double sum = 0;
  for (std::size_t i = k; i < k + 4; ++i) {
    double weight = 1;
    for (std::size_t j = k; j < k + 4; ++j)
      if (j != i) weight *= (x - u[j]) / (u[i] - u[j]);
    sum += weight * v[i];
  }
  return sum;
}

// The derivative at u[i] of the polynomial through u[i−2..i+2] (fewer at the ends).
double slope_at(const std::vector<double>& u, const std::vector<double>& v, std::size_t i) {
  const std::size_t n = u.size();
  const std::size_t lo = i >= 2 ? i - 2 : 0, hi = std::min(n - 1, i + 2);
  double sum = 0;
  for (std::size_t j = lo; j <= hi; ++j) {
    if (j == i) {
      for (std::size_t k = lo; k <= hi; ++k)
        if (k != i) sum += v[i] / (u[i] - u[k]);
      continue;
    }
    double weight = 1 / (u[j] - u[i]);
    for (std::size_t k = lo; k <= hi; ++k)
      if (k != i && k != j) weight *= (u[i] - u[k]) / (u[j] - u[k]);
    sum += weight * v[j];
  }
  return sum;
}

// Whether the interval [u[i], u[i+1]] needs halving: the cubics through the
// stencils on either side of it disagree at its middle beyond the tolerance.
bool needs_halving(const std::vector<double>& u, const std::vector<double>& v, std::size_t i) {
  const std::size_t n = u.size();
  if (n < 5) return false;
  const double middle = 0.5 * (u[i] + u[i + 1]);
  const std::size_t left = std::min(i >= 2 ? i - 2 : 0, n - 4), right = std::min(i, n - 4);
  const std::size_t centre = std::min(i >= 1 ? i - 1 : 0, n - 4);
  const double a = cubic_through(u, v, left, middle), b = cubic_through(u, v, right, middle);
  const double c = cubic_through(u, v, centre, middle);
  const double spread = std::max({a, b, c}) - std::min({a, b, c});
  return spread > kAbsolute + kRelative * std::fabs(c) + 1e-5 * std::max(0.0, kDeep - c);
}
}  // namespace

StableLogDensityTable::StableLogDensityTable(double alpha, double beta, double reach)
    : alpha_((check_shape(alpha, beta), alpha)),
      beta_(beta),
      center_(table_center(alpha, beta)),
      scale_(table_scale(alpha, beta)),
      zeta_(zeta_of(alpha, beta)) {
  bool exact_below = false, exact_above = false;
  const double reach_below = tail_reach(alpha, beta, reach, -1, exact_below);
  const double reach_above = tail_reach(alpha, beta, reach, 1, exact_above);
  series_below_ = exact_below ? kept_series(alpha, -beta) : nullptr;
  series_above_ = exact_above ? kept_series(alpha, beta) : nullptr;
  const double lo = std::asinh((-reach_below - center_) / scale_), hi = std::asinh((reach_above - center_) / scale_);
  const auto count = static_cast<std::size_t>(std::ceil((hi - lo) / kTableStep)) + 1;
  std::vector<double> u(count), v(count);
  for (std::size_t i = 0; i < count; ++i) u[i] = lo + static_cast<double>(i) * kTableStep;
  evaluate(u, v, 0);
  // The nodes kept run from the last one below the cut on each side, so that
  // the steep fall to it lies inside the table (refined) and what is continued
  // beyond starts below the cut.
  std::size_t first = 0, last = count - 1;
  while (first + 1 < last && !(v[first + 1] > kLogPdfCut)) ++first;
  while (last > first + 1 && !(v[last - 1] > kLogPdfCut)) --last;
  if (v[first] == -kInf) ++first;
  if (v[last] == -kInf) --last;
  if (last - first < 4)
    throw InternalError(
        "StableLogDensityTable",
        "the density at alpha " + std::to_string(alpha) + ", beta " + std::to_string(beta) + " has no range", __FILE__,
        __LINE__);
  // A totally skewed law with α < 1 lives on one side of ζ.
  const double edge = std::asinh((zeta_of(alpha, beta) - center_) / scale_);
  if (alpha < 1 && beta == 1.0) support_min_ = edge;
  if (alpha < 1 && beta == -1.0) support_max_ = edge;
  u.assign(u.begin() + first, u.begin() + last + 1);
  v.assign(v.begin() + first, v.begin() + last + 1);
  refine(u, v);
  u_ = std::move(u);
  value_ = std::move(v);
  slope_.resize(u_.size());
  for (std::size_t i = 0; i < u_.size(); ++i) slope_[i] = slope_at(u_, value_, i);
  // Each base cell's first node, for the lookup.
  base_ = u_.front();
  const auto cells = static_cast<std::size_t>(std::ceil((u_.back() - base_) / kTableStep)) + 1;
  cell_first_.resize(cells);
  for (std::size_t j = 0, k = 0; j < cells; ++j) {
    while (k + 2 < u_.size() && u_[k + 1] <= base_ + static_cast<double>(j) * kTableStep) ++k;
    cell_first_[j] = static_cast<std::uint32_t>(k);
  }
  // Beyond the table ln f goes on along the slope of its end, or that of the
  // power tail |z|^{−(1+α)} (−(1+α) in u), whichever falls faster.
  slope_min_ = std::max(slope_.front(), 1 + alpha);
  slope_max_ = std::min(slope_.back(), -(1 + alpha));
  cumulate_masses();
}

// The mass of every node interval, and from each node to either end.
void StableLogDensityTable::cumulate_masses() {
  const std::size_t n = u_.size();
  log_mass_.resize(n - 1);
  for (std::size_t k = 0; k + 1 < n; ++k) log_mass_[k] = log_integral_in(k, u_[k], u_[k + 1]);
  log_below_.resize(n);
  log_above_.resize(n);
  // The mass beyond the nodes is F and 1 − F of the distribution itself there
  // (the power law continued from the last node is the series' first term only,
  // 6 % off at |z| = 1e4 for α = 0.3; 1 % at α = 1, where no series settles).
  const auto [below, unused_upper] = cdf_pair_s0(z_of(u_.front()), alpha_, beta_);
  const auto [unused_lower, above] = cdf_pair_s0(z_of(u_.back()), alpha_, beta_);
  log_below_[0] = std::log(below);
  for (std::size_t k = 1; k < n; ++k) log_below_[k] = log_add(log_below_[k - 1], log_mass_[k - 1]);
  log_above_[n - 1] = std::log(above);
  for (std::size_t k = n - 1; k-- > 0;) log_above_[k] = log_add(log_above_[k + 1], log_mass_[k]);
}

void StableLogDensityTable::evaluate(const std::vector<double>& u, std::vector<double>& v, std::size_t from) const {
  parallel_for(u.size() - from, [&](std::size_t k) {
    const std::size_t i = from + k;
    v[i] = log_pdf_s0(z_of(u[i]), alpha_, beta_, kTableQuadratureTolerance, kTableFloor);
  });
}

// Halves, pass by pass, every interval whose stencils disagree (a kink the
// base grid does not resolve: the light side of a law with |β| near 1, the
// drop at a support's edge as α → 1), up to kMaxDepth times.
void StableLogDensityTable::refine(std::vector<double>& u, std::vector<double>& v) const {
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    std::vector<double> added;
    for (std::size_t i = 0; i + 1 < u.size(); ++i)
      if (needs_halving(u, v, i)) added.push_back(0.5 * (u[i] + u[i + 1]));
    if (added.empty()) return;
    std::vector<double> added_values(added.size());
    std::vector<double> at = added;
    evaluate(at, added_values, 0);
    std::vector<double> merged_u, merged_v;
    merged_u.reserve(u.size() + added.size());
    merged_v.reserve(u.size() + added.size());
    for (std::size_t i = 0, j = 0; i < u.size(); ++i) {
      merged_u.push_back(u[i]), merged_v.push_back(v[i]);
      if (j < added.size() && i + 1 < u.size() && added[j] < u[i + 1])
        merged_u.push_back(added[j]), merged_v.push_back(added_values[j]), ++j;
    }
    u = std::move(merged_u), v = std::move(merged_v);
  }
}

double StableLogDensityTable::z_of(double u) const { return center_ + scale_ * std::sinh(u); }

std::size_t StableLogDensityTable::interval_of(double u) const {
  const auto cell = std::min(cell_first_.size() - 1, static_cast<std::size_t>(std::max(0.0, (u - base_) / kTableStep)));
  std::size_t k = cell_first_[cell];
  while (k + 2 < u_.size() && u_[k + 1] < u) ++k;
  return k;
}

// ln f and its first two derivatives in u on node interval k: the cubic
// Hermite interpolant through the nodes' values and slopes.
StableLogDensityTable::Derivatives StableLogDensityTable::hermite(std::size_t k, double u) const {
  const double h = u_[k + 1] - u_[k], t = (u - u_[k]) / h;
  const double y0 = value_[k], y1 = value_[k + 1], m0 = slope_[k] * h, m1 = slope_[k + 1] * h;
  const double t2 = t * t, t3 = t2 * t;
  return {(2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * m0 + (-2 * t3 + 3 * t2) * y1 + (t3 - t2) * m1,
          ((6 * t2 - 6 * t) * y0 + (3 * t2 - 4 * t + 1) * m0 + (-6 * t2 + 6 * t) * y1 + (3 * t2 - 2 * t) * m1) / h,
          ((12 * t - 6) * y0 + (6 * t - 4) * m0 + (-12 * t + 6) * y1 + (6 * t - 2) * m1) / (h * h)};
}

StableLogDensityTable::Derivatives StableLogDensityTable::derivatives(double z) const {
  const double w = (z - center_) / scale_;
  const double u = std::asinh(w);
  const double du = 1 / (scale_ * std::sqrt(1 + w * w));  // du/dz
  const double d2u = -w * du * du * du * scale_;          // d²u/dz²
  if (u >= u_.front() && u <= u_.back()) {
    const Derivatives in_u = hermite(interval_of(u), u);
    return {in_u.value, in_u.first * du, in_u.second * du * du + in_u.first * d2u};
  }
  if (alpha_ == 2.0) return {log_gaussian_pdf(z), -z / 2, -0.5};
  if (!(u > support_min_ && u < support_max_)) return {-kInf, 0, 0};
  const bool below = u < u_.front();
  if (const TailSeries* series = below ? series_below_.get() : series_above_.get()) {
    const double side = below ? -1 : 1;  // the left tail is the right one of f(−z; α, −β)
    if (const auto d = series->log_density_derivatives(side * (z - zeta_))) return {(*d)[0], side * (*d)[1], (*d)[2]};
  }
  const double edge = below ? u_.front() : u_.back(), slope = below ? slope_min_ : slope_max_;
  return {(below ? value_.front() : value_.back()) + slope * (u - edge), slope * du, slope * d2u};
}

// ∫ f dz over [u1, u2] within node interval k, by 8-point Gauss–Legendre in u
// (dz = κ cosh u du), in logarithms.
double StableLogDensityTable::log_integral_in(std::size_t k, double u1, double u2) const {
  using Rule = boost::math::quadrature::gauss<double, 8>;
  if (!(u2 > u1)) return -kInf;
  const double middle = 0.5 * (u1 + u2), half = 0.5 * (u2 - u1);
  double terms[8], weights[8], top = -kInf;
  for (std::size_t i = 0; i < 4; ++i)
    for (int side = 0; side < 2; ++side) {
      const double u = middle + (side ? -1 : 1) * half * Rule::abscissa()[i];
      const std::size_t j = 2 * i + side;
      terms[j] = hermite(k, u).value + std::log(scale_ * std::cosh(u));
      weights[j] = Rule::weights()[i] * half;
      top = std::max(top, terms[j]);
    }
  if (top == -kInf) return -kInf;
  double sum = 0;
  for (std::size_t j = 0; j < 8; ++j) sum += weights[j] * std::exp(terms[j] - top);
  return top + std::log(sum);
}

// ∫ f dz over [z1, z2] beyond the nodes (below them or above): the tail
// series' mass where it holds there, else, with ln f = ln f(edge) + s (u − edge),
// (κ/2) e^{ln f(edge) − s·edge} [e^{(s+1)u}/(s + 1) + e^{(s−1)u}/(s − 1)] between u1 and u2,
// each bracket positive as |s| > 1 there.
double StableLogDensityTable::log_tail(bool below, double z1, double z2) const {
  if (const TailSeries* series = below ? series_below_.get() : series_above_.get()) {
    const double side = below ? -1 : 1, x1 = side * ((below ? z2 : z1) - zeta_),
                 x2 = side * ((below ? z1 : z2) - zeta_);
    if (const auto mass = series->log_mass(x1, x2)) return *mass;
  }
  const double u1 = std::max(std::asinh((z1 - center_) / scale_), support_min_);
  const double u2 = std::min(std::asinh((z2 - center_) / scale_), support_max_);
  if (!(u2 > u1)) return -kInf;
  const double s = below ? slope_min_ : slope_max_, edge = below ? u_.front() : u_.back();
  const double base = (below ? value_.front() : value_.back()) - s * edge + std::log(scale_ / 2);
  const auto power = [&](double p) {                                      // ln |∫ e^{p u} du| over [u1, u2]
    const double hi = p * (p > 0 ? u2 : u1), lo = p * (p > 0 ? u1 : u2);  // the larger exponent first
    return log_subtract(hi, std::isinf(lo) ? -kInf : lo) - std::log(std::fabs(p));
  };
  return base + log_add(power(s + 1), power(s - 1));
}

double StableLogDensityTable::log_probability(double a, double b) const {
  if (!(b > a)) return -kInf;
  const double ua = std::asinh((a - center_) / scale_), ub = std::asinh((b - center_) / scale_);
  const double first = u_.front(), last = u_.back();
  double sum = -kInf;
  // Beyond the nodes: a whole heavy tail from the series, else the continued slope.
  if (ua < first)
    sum = log_add(sum, ua == -kInf && ub >= first ? log_below_[0] : log_tail(true, a, ub < first ? b : z_of(first)));
  if (ub > last)
    sum = log_add(sum, ub == kInf && ua <= last ? log_above_.back() : log_tail(false, ua > last ? a : z_of(last), b));
  const double v1 = std::max(ua, first), v2 = std::min(ub, last);
  if (!(v2 > v1)) return sum;
  const std::size_t k1 = interval_of(v1), k2 = interval_of(v2);
  if (k1 == k2) return log_add(sum, log_integral_in(k1, v1, v2));
  sum = log_add(sum, log_integral_in(k1, v1, u_[k1 + 1]));
  sum = log_add(sum, log_integral_in(k2, u_[k2], v2));
  if (k2 > k1 + 1) {
    // The whole intervals between, from the cumulative masses on the side
    // where they are smaller (less is lost in the subtraction).
    const double from_below = log_subtract(log_below_[k2], log_below_[k1 + 1]);
    const double from_above = log_subtract(log_above_[k1 + 1], log_above_[k2]);
    sum = log_add(sum, log_below_[k2] < log_above_[k1 + 1] ? from_below : from_above);
  }
  return sum;
}

double StableLogDensityTable::operator()(double z) const { return derivatives(z).value; }

std::size_t StableLogDensityTable::nodes() const { return u_.size(); }

}  // namespace gs
