// The random-number layout of gpusynth, written down once.
//
// Every random number comes from Philox4x32-10 (Random123), a pure function of
// a 128-bit counter and a 64-bit key:
//
//   key     = (seed & 0xffffffff, seed >> 32)                 the run's seed
//   counter = (position & 0xffffffff,                        c0
//              (position >> 32) | (draw << 24),              c1: 24 + 8 bits
//              replica,                                      c2
//              stream)                                       c3: the ensemble
//
// One call yields four 32-bit words. What a model does with them (how many
// words a sample uses, what `position` and `draw` mean) is stated in the
// model's header. Because a draw depends only on (seed, stream, replica,
// position, draw), output never depends on batch size, thread count, backend,
// GPU count or MPI rank.
//
// Uniforms: the word k stands for u = (k + 1/2) / 2^32, strictly inside (0, 1)
// and symmetric: 1 - u is the uniform of ~k. Samplers that need accuracy near
// 0 and near 1 (the tails of heavy-tailed laws) use the distance to the nearer
// edge, which has full relative precision in float and double, instead of u.
#pragma once

#include <Random123/philox.h>

#include <cstdint>
#include <string_view>

#include "lanes.hpp"
#include "portability.hpp"

namespace gs {

using PhiloxBits = r123::Philox4x32::ctr_type;

struct RngStreamKey {
  std::uint64_t seed = 0;
  std::uint32_t stream = 0;
};

// Two values made from one call.
template <class Real>
struct ValuePair {
  Real first, second;
};

// FNV-1a, 32 bits (host side): the default stream of an ensemble, from its
// name, so adding or reordering ensembles leaves the others' numbers
// unchanged; also the streams of a study's bootstrap resamples.
inline std::uint32_t stream_of_name(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

// Largest position the counter layout can address (draws: 0..255).
constexpr std::uint64_t kMaxRngPosition = (std::uint64_t{1} << 56) - 1;

GS_HD GS_INLINE PhiloxBits philox_bits(const RngStreamKey& key, std::uint32_t replica, std::uint64_t position,
                                       std::uint32_t draw) {
  r123::Philox4x32 rng;
  r123::Philox4x32::key_type k = {{static_cast<std::uint32_t>(key.seed), static_cast<std::uint32_t>(key.seed >> 32)}};
  PhiloxBits c = {{static_cast<std::uint32_t>(position), static_cast<std::uint32_t>(position >> 32) | (draw << 24),
                   replica, key.stream}};
  return rng(c, k);
}

// The helpers below are generic in the word type (kernels/lanes.hpp): one
// word, or a CPU pack of lanes.

// u = (k + 1/2) / 2^32 in double: exact, never 0 or 1.
template <class Word>
GS_HD GS_INLINE auto uniform_open(Word k) {
  return (word_to_double(k) + 0.5) * 2.3283064365386963e-10;
}

template <class Word>
GS_HD GS_INLINE auto in_upper_half(Word k) {
  return (k >> 31) != Word(0u);
}

// min(u, 1 - u) for u of the word k, in (0, 1/2], with full relative precision.
// In float the word is rounded once (to nearest) and then scaled exactly, so
// both backends get the same bits without double arithmetic.
template <class Real, class Word>
GS_HD GS_INLINE typename Lanes<Word, Real>::real edge_distance(Word k) {
  using R = typename Lanes<Word, Real>::real;
  const Word nearer = select(in_upper_half(k), ~k, k);
  return word_to_real<R>(nearer) * R(2.3283064365386963e-10) + R(1.1641532182693481e-10);
}

// -log(u) for the uniform u at distance d ∈ (0, 1/2] from the nearer edge
// (u = 1 − d in the upper half, else u = d), accurate at both ends. One
// logarithm and no branch, so a GPU warp with both halves pays for one
// function: in the upper half, -log1p(-d) = -log(y)·d/(1 − y) for y = 1 − d
// rounded (Goldberg's correction; 1 − y is exact), and d itself once y = 1.
template <class Real, class Mask>
GS_HD GS_INLINE Real exponential_of_edge_distance(Real d, Mask upper) {
  const Real one = Real(1);
  const Real y = select(upper, one - d, d);
  const Real minus_log_y = -log(y);
  const Real upper_value = select(y == one, d, minus_log_y * (d / (one - y)));
  return select(upper, upper_value, minus_log_y);
}

// A standard exponential variate -log(u) that is never 0 or infinite.
template <class Real, class Word>
GS_HD GS_INLINE typename Lanes<Word, Real>::real standard_exponential(Word k) {
  return exponential_of_edge_distance(edge_distance<Real>(k), in_upper_half(k));
}

// The same from 64 bits (words hi, lo): u = (k + 1/2) / 2^64, so -log(u)
// reaches 44.4 (a 32-bit word stops at 22.9). For holding times and the
// Box–Muller radius, whose tails the 32-bit version would cut.
template <class Real, class Word>
GS_HD GS_INLINE typename Lanes<Word, Real>::real standard_exponential64(Word hi, Word lo) {
  using R = typename Lanes<Word, Real>::real;
  using Word64 = typename Lanes<Word, Real>::word64;
  const Word64 k = (widen(hi) << 32) | widen(lo);
  const auto upper = in_upper_half(hi);
  const Word64 nearer = select(upper, ~k, k);
  const R d = word64_to_real<R>(nearer) * R(5.421010862427522e-20) + R(2.710505431213761e-20);
  return exponential_of_edge_distance(d, upper);
}

}  // namespace gs
