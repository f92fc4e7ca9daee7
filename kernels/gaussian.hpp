// Standard normal pairs by the Box–Muller transform from three Philox words:
// the radius sqrt(2E) from a 64-bit exponential E (two words; |Z| reaches
// 9.4 standard deviations, where 32 bits would stop at 6.8) and the angle
// 2πu from a third. Which counter a model uses is stated in the model's header.
#pragma once

#include <cstdint>

#include "philox.hpp"
#include "portability.hpp"

namespace gs {

// Generic in the word type (kernels/lanes.hpp).
template <class Real, class Word>
GS_HD GS_INLINE ValuePair<typename Lanes<Word, Real>::real> normal_pair(Word radius_hi, Word radius_lo, Word angle) {
  using R = typename Lanes<Word, Real>::real;
  const R radius = sqrt(R(2) * standard_exponential64<Real>(radius_hi, radius_lo));
  const R turns = R(2) * narrow<R>(uniform_open(angle));  // angle / π, in (0, 2)
  const SinCos<R> direction = sincospi(turns);
  return {radius * direction.cos, radius * direction.sin};
}

}  // namespace gs
