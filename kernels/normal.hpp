// The normal model: i.i.d. N(μ, σ²) values by Box–Muller (kernels/gaussian.hpp),
// bins 2j and 2j+1 of replica r from words 0–2 of the call at (replica r,
// position j, draw 0): one pair.
#pragma once

#include <cstdint>

#include "gaussian.hpp"
#include "pairs.hpp"
#include "philox.hpp"
#include "portability.hpp"

namespace gs {

template <class Real>
struct NormalDraws {
  static constexpr std::uint32_t kDraw = 0;
  static constexpr int kRadiusWords = 0, kAngleWord = 2;  // radius from words 0, 1 (64 bits), angle from word 2

  Real mu = 0, sigma = 1;

  template <class Bits>  // PhiloxBits, or a CPU pack of calls
  GS_HD GS_INLINE auto operator()(const Bits& r) const {
    const auto z = normal_pair<Real>(r[kRadiusWords], r[kRadiusWords + 1], r[kAngleWord]);
    return decltype(z){mu + sigma * z.first, mu + sigma * z.second};
  }
};

template <class Real, class Out>
using NormalPairsKernel = PairsKernel<NormalDraws<Real>, Out>;
GS_DIRECT_KERNEL(NormalPairsKernel)

}  // namespace gs
