// Linear fractional stable noise (LFSN), the discretisation of eq. (4) of the
// α-stable workload paper:
//
//   N(i) = Σ_{k=1}^{Km} c_k Z(mi − k),   Z(t) = a·X⁺(t) − b·X⁻(t),
//   a = ((1+β)/2)^{1/α}, b = ((1−β)/2)^{1/α},  X± i.i.d. S1(α, 1, 1, 0),
//   c_k = h_d(k/m) / ‖h_d‖_α,  ‖h_d‖_α = (Σ_k |h_d(k/m)|^α)^{1/α},  d = H − 1/α,
//
// on the fine grid of step 1/m. The paper's innovations have scale m^{−1/α};
// that factor cancels in the α-norm normalisation, so Z has unit scale and
// N(i) has the exact marginal law S1(α, β_eff, 1, 0) (after the α = 1 drift is
// removed; see host/models/lfsn.cpp), with
// β_eff = β Σ_k sign(c_k)|c_k|^α: for d < 0 the kernel is negative beyond x = 1,
// which lowers the skewness.
//
// Z(t) is drawn as one S1(α, β, 1, 0) variable: a sum of independent stable
// variables is stable, with scale^α = a^α + b^α = 1 and skewness
// (a^α − b^α)/1 = β, and for α ≠ 1 no location. So eq. (4)'s two streams and
// one stream give the same process in law, and one costs half the CMS. (At
// α = 1 the two streams add the location δ0 = −(2/π)(a ln a − b ln b), which
// one stream does not; tests/test_lfsn.cpp checks both against Nolan.)
//
// Philox use: fine-grid point t of replica r uses one call at
// (replica r, position t, draw 0): words 0,1 give Z(t).
#pragma once

#include <cstdint>

#include "fast_math.hpp"
#include "philox.hpp"
#include "portability.hpp"
#include "stable.hpp"

namespace gs {

// d = H − 1/α = 0 is where the paper's algorithm stops: `run` refuses such an
// H and `fit` stops the model there, with this one tolerance.
constexpr double kLfsnMinAbsD = 1e-9;
GS_HD GS_INLINE bool lfsn_d_vanishes(double H, double alpha) { return gs::fabs(H - 1.0 / alpha) < kLfsnMinAbsD; }

// h_d(x) = x^d − (x − 1)^d for x ≥ 1 and x^d for 0 < x ≤ 1, computed for large
// x as −x^d·expm1(d·log1p(−1/x)) to avoid the cancellation of the difference.
GS_HD GS_INLINE double lfsn_kernel_value(double x, double d) {
  const double x_pow_d = gs::exp(d * gs::log(x));
  if (x <= 1.0) return x_pow_d;
  return -x_pow_d * gs::expm1(d * gs::log1p(-1.0 / x));
}

// The innovation Z(t) = scale·X(t) of fine-grid point t, X i.i.d. `law`
// (LFSN: S1(α, β, 1, 0), scale 1; FARIMA with stable innovations: its own law
// and σ). |Z| is capped at `cap` so that the FFT of a replica can never
// overflow; capped values are counted.
template <class Real>
struct StableInnovation {
  static constexpr std::uint32_t kDraw = 0;
  static constexpr int kWords = 0;  // words 0, 1 of the call

  StableSampler<Real> law;
  Real scale = 1;
  Real cap = FiniteMax<Real>::value;
  RngStreamKey key;

  // Words: PhiloxBits, or the GPU's fast lanes (kernels/fast_math.hpp).
  template <class Words = PhiloxBits>
  GS_HD Real operator()(std::uint32_t replica, std::uint64_t t, std::uint32_t& capped) const {
    const PhiloxBits r = philox_bits(key, replica, t, kDraw);
    bool was_capped;
    const Real z = value_of(from_words(Words(r), was_capped));
    capped += was_capped;
    return z;
  }

  // From the call's words (PhiloxBits, or a CPU pack of calls).
  template <class Bits, class Mask>
  GS_HD GS_INLINE auto from_words(const Bits& r, Mask& was_capped) const {
    using R = decltype(law(r[0], r[1]));
    // A NaN, which cannot arise, would be capped too: it must not pass.
    return clamp_magnitude(scale * law(r[kWords], r[kWords + 1]), R(cap), was_capped);
  }
};

}  // namespace gs
