// Standard normal pairs by the Box–Muller transform from three Philox words:
// the radius sqrt(2E) from a 64-bit exponential E (two words; |Z| reaches
// 9.4 standard deviations, where 32 bits would stop at 6.8) and the angle
// 2πu from a third. Which counter a model uses is stated in the model's header.
#pragma once

#include <cstdint>

#include "philox.hpp"
#include "portability.hpp"

namespace gs {

template <class Real>
GS_HD GS_INLINE ValuePair<Real> normal_pair(std::uint32_t radius_hi, std::uint32_t radius_lo, std::uint32_t angle) {
  const Real radius = gs::sqrt(Real(2) * standard_exponential64<Real>(radius_hi, radius_lo));
  const Real turns = Real(2) * static_cast<Real>(uniform_open(angle));  // angle / π, in (0, 2)
  return {radius * gs::cospi(turns), radius * gs::sinpi(turns)};
}

}  // namespace gs
