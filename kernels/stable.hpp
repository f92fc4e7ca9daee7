// α-stable variates by the Chambers–Mallows–Stuck (CMS) transform, for every
// α ∈ (0, 2] and β ∈ [-1, 1], in Nolan's S0 or S1 parameterization.
//
// S1 is the characteristic function of eq. (3) of the α-stable workload paper
// (Samorodnitsky–Taqqu): E e^{iθX} = exp(-σ^α|θ|^α (1 - iβ sign θ tan(πα/2)) + iμθ)
// for α ≠ 1 and exp(-σ|θ|(1 + iβ (2/π) sign θ ln|θ|) + iμθ) for α = 1.
// S0 shifts the standard law by -β tan(πα/2) (α ≠ 1) and is continuous in α.
//
// Philox use: one sample consumes two 32-bit words (kv → V, kw → W). Which
// words and counters a model uses is stated where the model calls this.
//
// Numerics. With V = π(u − 1/2) and W = −ln u', the textbook transform loses
// all precision (a) near the edges V → ±π/2, where the tails and the support
// boundary live, and (b) in S0 near α = 1, where it subtracts two numbers of
// size tan(πα/2). We therefore write the transform with
//   w = V + π/2 = πu ∈ (0, π),  sin w and cot w from the distance of u to the
//   nearer edge (full relative precision at both ends),
//   a = απ/2 − arctan(τ), τ = β tan(πα/2), split as a = a0 + δa with a0 ∈ {0, π}
//   so that the two CMS angles are sin(α(V+ξ)) = s0·sin(w + δ) and
//   cos(V − α(V+ξ)) = |sin δ| with δ = (α−1)w − δa, a sum of same-signed
//   terms; w + δ = αw − δa does cancel near the zeros of sin(α(V+ξ)) (at 0 and
//   π), where a large Q amplifies its error, so that one angle is formed from
//   the exact uniform and reduced modulo π in double whatever the compute type;
// and, in S0 with |τ| > 1, Z0 = τ·expm1(L) with L assembled from log1p terms
// that are each O(α−1) (the "expm1 rewrite"), which is exact and reduces at
// α = 1 to the α = 1 transform. β < 0 uses the exact reflection
// Z(β, u) = −Z(−β, 1 − u), and 1 − u is the uniform of ~kv.
// Constants are prepared in double on the host; tan(πα/2) is −1/tan(π(α−1)/2).
#pragma once

#include <cstdint>

#include "lanes.hpp"
#include "pairs.hpp"
#include "philox.hpp"
#include "portability.hpp"

namespace gs {

enum class StableParameterization { S0, S1 };

struct StableLawParams {
  double alpha = 2.0;
  double beta = 0.0;
  double sigma = 1.0;  // scale, > 0
  double mu = 0.0;     // location
  StableParameterization parameterization = StableParameterization::S1;
};

// Trivially copyable, prepared constants; Real is the compute type.
template <class Real>
struct StableSampler {
  enum Kind : int { kGeneral = 0, kAlphaOne = 1, kGaussian = 2 };

  int kind = kGaussian;
  bool s0 = false;        // return the standard S0 variable (else S1)
  bool reflect = false;   // β < 0
  bool near_one = false;  // S0 with |τ| > 1: use the expm1 form
  Real inv_alpha = 1, eps = 0, eps_over_alpha = 0;
  Real b = 0;                           // |β|
  Real tau = 0;                         // |β| tan(πα/2)
  Real s0_sign = 1;                     // +1 for α < 1, −1 for α > 1
  Real delta_a = 0;                     // a − a0
  Real log_cos_phi = 0;                 // ln cos(arctan τ) = −ln(1 + τ²)/2
  Real log_sin_phi_inv = 0;             // −ln|sin(arctan τ)| = ln(1 + 1/τ²)/2
  Real half_pi_one_minus_b = 0;         // α = 1: π/2 (1 − |β|)
  double alpha = 2, delta_a_exact = 0;  // for the one angle formed in double
  Real scale = 1, shift = 0;            // y = scale·z + shift

  // The standard variable (σ = 1, location 0) of the chosen parameterization,
  // for one pair of words or a CPU pack of them (kernels/lanes.hpp).
  // GaussianOnly: the caller knows that α = 2 (kind == kGaussian), so that a
  // GPU kernel holds none of the other branches' code and registers (its
  // occupancy rose from 62.5 % to 100 % on an H100).
  template <bool GaussianOnly = false, class Word>
  GS_HD GS_INLINE typename Lanes<Word, Real>::real standard(Word kv, Word kw) const {
    using R = typename Lanes<Word, Real>::real;
    if (reflect) kv = ~kv;
    const R pi = R(kPi);
    const R W = standard_exponential<Real>(kw);
    const R d = edge_distance<Real>(kv);
    const auto upper = in_upper_half(kv);
    // sin w and cos w only where a branch needs them (neither in the Gaussian
    // branch, no cos w in the common S1 path): nvcc does not sink an unused
    // sinpi into the branches (an H100's Gaussian branch ran it for nothing,
    // bench/results/2026-11-24-h100).
    const auto cos_w = [&] {
      const R c = cospi(d);
      return select(upper, -c, c);
    };
    R z;
    if (GaussianOnly || kind == kGaussian) {
      z = R(-2) * sqrt(W) * cos_w();  // 2√W sin V: Box–Muller on the same words
    } else if (kind == kAlphaOne) {
      const R sin_w = sinpi(d);
      const R w = select(upper, pi - pi * d, pi * d);
      const R p = half_pi_one_minus_b + b * w;  // π/2 + |β|V > 0
      z = R(2 / kPi) *
          (-p * cos_w() / sin_w - b * (R(0.45158270528945486) /* ln(π/2) */ + log(W) + log(sin_w) - log(p)));
    } else {
      z = general(W, d, upper, sinpi(d), cos_w, uniform_open(kv));
    }
    return reflect ? -z : z;
  }

  template <bool GaussianOnly = false, class Word>
  GS_HD GS_INLINE typename Lanes<Word, Real>::real operator()(Word kv, Word kw) const {
    return scale * standard<GaussianOnly>(kv, kw) + shift;
  }

 private:
  // sin x for a double angle, reduced modulo π in double before rounding to
  // Real, so that angles near π keep the relative precision of their sine.
  // x = απu − δa lies in (−π, 5π/2) for every α ∈ (0, 2]: at most two
  // subtractions (no floor or integer conversion, slow on a GPU).
  template <class R, class Wide>
  GS_HD GS_INLINE static R sin_reduced(Wide x) {
    const auto above = x > kPi / 2;
    x = select(above, x - kPi, x);
    const auto still_above = x > kPi / 2;
    x = select(still_above, x - kPi, x);
    const auto below = x < -kPi / 2;
    x = select(below, x + kPi, x);
    const R s = sin(narrow<R>(x));
    return select(above ^ still_above ^ below, -s, s);
  }

  template <class R, class Mask, class CosW, class Wide>
  GS_HD GS_INLINE R general(R W, R d, Mask upper, R sin_w, const CosW& cos_w, Wide u) const {
    const R pi = R(kPi);
    const R w = select(upper, pi - pi * d, pi * d);
    const R delta = eps * w - delta_a;
    const R sin_delta = sin(delta);
    const R sin_w_plus_delta = sin_reduced<R>(alpha * (kPi * u) - delta_a_exact);
    const R log_sin_w = log(sin_w);
    // One logarithm for W/|sin δ|: |δ| is 0 or above |α − 1|·π·2^-33 ≥ 4e-26, so
    // the ratio overflows only where ln|sin δ| was −∞ before.
    const R log_W_over_sin_delta = log(W / fabs(sin_delta));
    const auto near_one_value = [&] {
      // ln of ratio = sin(w + δ)/sin w = 1 + R; R without cancellation when small.
      const R half = sin(R(0.5) * delta);
      const R ratio_minus_one = R(-2) * half * half + (cos_w() / sin_w) * sin_delta;
      const R log_ratio = select_lazy(
          fabs(ratio_minus_one) < R(0.5), [&] { return log1p(ratio_minus_one); },
          [&] { return log(sin_w_plus_delta / sin_w); });
      const R L = log_ratio + eps_over_alpha * (log_sin_w + log_W_over_sin_delta + log_cos_phi) + log_sin_phi_inv;
      return tau * expm1(L);
    };
    const auto regular_value = [&] {
      // ln Q, Q = sin(w)^(−1/α) (|sin δ| / (cos φ · W))^(−(α−1)/α)
      const R log_q = -inv_alpha * log_sin_w + eps_over_alpha * (log_W_over_sin_delta + log_cos_phi);
      const R s = s0_sign * sin_w_plus_delta;  // sin(α(V + ξ))
      const R log_mag = log_q - log_cos_phi;   // Z1 = s·Q / cos φ
      const R overflowed = select(s == R(0), R(0), copysign(R(INFINITY), s));
      const R z1 = select_lazy(
          log_mag > R(LogFiniteMax<Real>::value), [&] { return overflowed; }, [&] { return s * exp(log_mag); });
      return s0 ? z1 - tau : z1;
    };
    if (near_one) return select_lazy(sin_w_plus_delta > R(0), near_one_value, regular_value);
    return regular_value();
  }
};

// Host-side preparation in double. The parameters must already be validated
// (α ∈ (0, 2], β ∈ [−1, 1], σ > 0, all finite).
template <class Real>
StableSampler<Real> make_stable_sampler(const StableLawParams& p) {
  StableSampler<Real> s;
  const double alpha = p.alpha;
  const double b = p.beta < 0 ? -p.beta : p.beta;
  const bool want_s0 = p.parameterization == StableParameterization::S0;
  s.reflect = p.beta < 0;
  s.b = static_cast<Real>(b);
  s.scale = static_cast<Real>(p.sigma);
  s.shift = static_cast<Real>(p.mu);
  if (alpha == 2.0) {
    s.kind = StableSampler<Real>::kGaussian;
    return s;
  }
  if (alpha == 1.0) {
    s.kind = StableSampler<Real>::kAlphaOne;
    s.half_pi_one_minus_b = static_cast<Real>(kPi / 2 * (1 - b));
    // S0 and S1 coincide for the standard α = 1 law; S1 rescaling adds a drift.
    if (!want_s0) s.shift = static_cast<Real>(p.mu + 2 / kPi * p.beta * p.sigma * std::log(p.sigma));
    return s;
  }
  s.kind = StableSampler<Real>::kGeneral;
  s.s0 = want_s0;
  const double eps = alpha - 1;  // exact for α ≥ 1/2
  const double tan_half_pi_alpha = -1 / std::tan(kPi / 2 * eps);
  const double tau = b * tan_half_pi_alpha;
  double delta_a;
  if (b == 1.0) {
    delta_a = 0;  // a = 0 (α < 1) or π (α > 1) exactly
  } else if (alpha < 1) {
    delta_a = eps * kPi / 2 + std::atan2(1.0, tau);
  } else {
    delta_a = eps * kPi / 2 - std::atan2(1.0, -tau);
  }
  s.alpha = alpha;
  s.delta_a_exact = delta_a;
  s.inv_alpha = static_cast<Real>(1 / alpha);
  s.eps = static_cast<Real>(eps);
  s.eps_over_alpha = static_cast<Real>(eps / alpha);
  s.tau = static_cast<Real>(tau);
  s.s0_sign = static_cast<Real>(alpha < 1 ? 1 : -1);
  s.delta_a = static_cast<Real>(delta_a);
  s.log_cos_phi = static_cast<Real>(-0.5 * std::log1p(tau * tau));
  s.near_one = want_s0 && std::fabs(tau) > 1;
  s.log_sin_phi_inv = s.near_one ? static_cast<Real>(0.5 * std::log1p(1 / (tau * tau))) : Real(0);
  return s;
}

// The stable model: i.i.d. values of one law, bins 2j and 2j+1 of replica r
// from words (0, 1) and (2, 3) of the call at (replica r, position j, draw 0).
// GaussianOnly for a law with α = 2 (the same values, a smaller GPU kernel).
template <class Real, bool GaussianOnly = false>
struct StableDraws {
  static constexpr std::uint32_t kDraw = 0;
  static constexpr int kFirstValueWords = 0, kSecondValueWords = 2;  // two words each, from here

  StableSampler<Real> law;

  template <class Bits>  // PhiloxBits, or a CPU pack of calls
  GS_HD GS_INLINE auto operator()(const Bits& r) const {
    using R = decltype(law(r[0], r[1]));
    return ValuePair<R>{law.template operator()<GaussianOnly>(r[kFirstValueWords], r[kFirstValueWords + 1]),
                        law.template operator()<GaussianOnly>(r[kSecondValueWords], r[kSecondValueWords + 1])};
  }
};

template <class Real, class Out>
using StablePairsKernel = PairsKernel<StableDraws<Real>, Out>;
GS_DIRECT_KERNEL(StablePairsKernel)
template <class Real, class Out>
using GaussianStablePairsKernel = PairsKernel<StableDraws<Real, true>, Out>;
GS_DIRECT_KERNEL(GaussianStablePairsKernel)

}  // namespace gs
