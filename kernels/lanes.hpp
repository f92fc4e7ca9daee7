// The lane operations the generic formulas of kernels/ are written with, in
// their one-lane (scalar) form. A formula templated on its word type runs on
// scalars (CPU fallback, CUDA) and, on the CPU, on packs of eight or sixteen
// lanes (host/engine/cpu/simd.hpp, same operation names for packs), so every formula
// exists once. Data-dependent choices are selects, not branches: a pack
// computes both sides.
#pragma once

#include <cstdint>

#include "portability.hpp"

namespace gs {

// The types of a formula's lanes for 32-bit words `Word` and compute type
// `Real`: real values, doubles (where a formula needs double precision
// whatever Real is), 64-bit words, and the mask of a comparison.
template <class Word, class Real>
struct Lanes;

template <class Real>
struct Lanes<std::uint32_t, Real> {
  using real = Real;
  using wide = double;
  using word64 = std::uint64_t;
  using mask = bool;
};

template <class T>
GS_HD GS_INLINE T select(bool take_first, T first, T second) {
  return take_first ? first : second;
}
GS_HD GS_INLINE bool any(bool m) { return m; }
GS_HD GS_INLINE bool all(bool m) { return m; }
GS_HD GS_INLINE std::uint32_t true_lanes(bool m) { return m ? 1u : 0u; }
// first() where the lane's mask is set, else second(): a scalar evaluates one
// side only, a pack both.
template <class First, class Second>
GS_HD GS_INLINE auto select_lazy(bool take_first, const First& first, const Second& second) {
  return take_first ? first() : second();
}

// x where |x| ≤ top, else top with the sign of x (NaN: +top); `beyond` says
// which. The innovations' cap and the saturation of real storage.
template <class Real, class Mask>
GS_HD GS_INLINE Real clamp_magnitude(Real x, Real top, Mask& beyond) {
  beyond = !(fabs(x) <= top);
  return select(beyond, select(x < Real(0), -top, top), x);
}

// Conversions. `word_to_real` takes a word below 2^31 (a distance to the
// nearer edge), which converts exactly as a signed integer (one instruction
// in a pack); `word_to_double` any 32-bit word; `word64_to_real` a 64-bit word
// below 2^63.
template <class Real>
GS_HD GS_INLINE Real word_to_real(std::uint32_t below_2_31) {
  return static_cast<Real>(static_cast<std::int32_t>(below_2_31));
}
GS_HD GS_INLINE double word_to_double(std::uint32_t k) { return static_cast<double>(k); }
template <class Real>
GS_HD GS_INLINE Real word64_to_real(std::uint64_t below_2_63) {
  return static_cast<Real>(static_cast<std::int64_t>(below_2_63));
}
template <class Real>
GS_HD GS_INLINE Real narrow(double x) {
  return static_cast<Real>(x);
}
GS_HD GS_INLINE std::uint64_t widen(std::uint32_t k) { return k; }
// table[k] (k < the table's length).
GS_HD GS_INLINE double gather(const double* table, std::uint32_t k) { return table[k]; }
GS_HD GS_INLINE std::uint32_t gather(const std::uint32_t* table, std::uint32_t k) { return table[k]; }

}  // namespace gs
