// Standard normals by the ziggurat of Marsaglia and Tsang (2000, Journal of Statistical
// Software 5(8)) with 1024 layers (kernels/ziggurat_table.hpp), exact up to the rounding of the
// table and of a 53-bit uniform: a value needs no elementary function in 99.57 % of draws, only
// a table lookup, a product and a comparison, which are IEEE operations that give the same bits
// on the host's scalar path, its lanes and the GPU.
//
// A candidate is 64 Philox bits w (words hi, lo): layer i = w mod 1024, sign = bit 10, and
// u = ⌊w / 2^11⌋·2^-53 (53 bits, independent of the layer and the sign, so none of the
// correlation Doornik found in the 32-bit original). x = u·x_i is the value when x < x_{i+1},
// which the candidate's top word decides against a 32-bit threshold of the layer (one table
// read where comparing doubles needs two), but for a sliver of width 2^-32 at the threshold
// that is left to the exact comparison. Otherwise the rest of the draw (ziggurat_rest, scalar)
// takes further Philox calls at the same position: retry k of the pair's first value is the
// call at draw d + 1 + 2k, of its second d + 2 + 2k (d: the pair's own draw, at most
// kZigguratMaxPairDraw), each call's words 0–1 a uniform and words 2–3 a new candidate:
//   layer i ≥ 1 (the wedge): x stands when f(x_i) + v·(f(x_{i+1}) − f(x_i)) < f(x), v uniform;
//     else the new candidate is drawn from the start;
//   layer 0 beyond r (the tail): Marsaglia's method, e = E₁/r and E₂ from the call's two
//     64-bit exponentials (kernels/philox.hpp), accepted when 2E₂ > e², value r + e (up to
//     r + 44.4/r = 15.0), else the next call tries the tail again.
// A draw that needs more than kZigguratRetries calls (probability below 2^-100) keeps its last
// candidate, so that the draws of a position stay within its 256.
#pragma once

#include <cstdint>

#include "lanes.hpp"
#include "philox.hpp"
#include "portability.hpp"
#include "ziggurat_table.hpp"

namespace gs {

#if defined(__CUDACC__)
// Global memory, not __constant__: the lanes of a warp read different layers, which the
// constant cache would serve one address at a time.
static const __device__ ZigguratTable kDeviceZigguratTable = kZigguratTable;
#endif

GS_HD GS_INLINE const ZigguratTable& ziggurat_table() {
#if defined(__CUDA_ARCH__)
  return kDeviceZigguratTable;
#else
  return kZigguratTable;
#endif
}

constexpr std::uint32_t kZigguratRetries = 120;
constexpr std::uint32_t kZigguratMaxPairDraw = 255 - 2 * kZigguratRetries;
constexpr std::uint32_t kZigguratLayerMask = kZigguratLayers - 1;
constexpr std::uint32_t kZigguratSignBit = kZigguratLayers;
constexpr int kZigguratUniformShift = kZigguratLayerBits + 1;
static_assert(64 - kZigguratUniformShift == 53, "a candidate's uniform has a double's 53 bits");

// The draw of retry k of a pair's value `which` (0, 1) whose pair is at `draw`.
GS_HD GS_INLINE std::uint32_t ziggurat_retry_draw(std::uint32_t draw, int which, std::uint32_t k) {
  return draw + 1 + 2 * k + static_cast<std::uint32_t>(which);
}

// ±u·x_i of the candidate of words hi, lo, and whether it is the value (lanes: kernels/lanes.hpp).
template <class Word>
struct ZigguratCandidate {
  typename Lanes<Word, double>::wide value;
  typename Lanes<Word, double>::mask under;
};

// The uniform in [0, 1) of the top 53 bits of the words hi, lo: ⌊w / 2^11⌋·2^-53 =
// hi·2^-32 + ⌊lo / 2^11⌋·2^-53, both terms and their sum exact, and 32-bit conversions are
// cheaper in lanes than 64-bit ones.
template <class Word>
GS_HD GS_INLINE typename Lanes<Word, double>::wide uniform53(Word hi, Word lo) {
  using Wide = typename Lanes<Word, double>::wide;
  return word_to_double(hi) * Wide(0x1p-32) + word_to_real<Wide>(lo >> kZigguratUniformShift) * Wide(0x1p-53);
}

template <class Word>
GS_HD GS_INLINE ZigguratCandidate<Word> ziggurat_candidate(Word hi, Word lo) {
  using Wide = typename Lanes<Word, double>::wide;
  const ZigguratTable& table = ziggurat_table();
  const Word layer = lo & Word(kZigguratLayerMask);
  const Wide x = uniform53(hi, lo) * gather(table.edge, layer);
  const Wide signed_x = select((lo & Word(kZigguratSignBit)) != Word(0u), -x, x);
  return {signed_x, hi < gather(table.core_word, layer)};
}

// r + e of Marsaglia's tail method, from the calls `call(k)`, `call(k + 1)`, … (k advanced).
template <class Call>
GS_HD double ziggurat_tail(std::uint32_t& k, const Call& call) {
  const double r = ziggurat_table().r;
  double excess = 0;
  for (; k < kZigguratRetries; ++k) {
    const PhiloxBits bits = call(k);
    excess = standard_exponential64<double>(bits[0], bits[1]) / r;
    if (2 * standard_exponential64<double>(bits[2], bits[3]) > excess * excess) break;
  }
  return r + excess;
}

// The value of a draw whose candidate w (hi, lo) was not under the curve at once.
// call(k) is the Philox call of retry k.
template <class Call>
GS_HD double ziggurat_rest(std::uint32_t hi, std::uint32_t lo, const Call& call) {
  const ZigguratTable& table = ziggurat_table();
  for (std::uint32_t k = 0; k < kZigguratRetries; ++k) {
    const ZigguratCandidate<std::uint32_t> c = ziggurat_candidate(hi, lo);
    const std::uint32_t layer = lo & kZigguratLayerMask;
    if (fabs(c.value) < table.edge[layer + 1]) return c.value;
    const bool negative = (lo & kZigguratSignBit) != 0;
    if (layer == 0) {
      const double tail = ziggurat_tail(k, call);
      return negative ? -tail : tail;
    }
    const PhiloxBits bits = call(k);
    const double floor = table.density[layer], height = table.density[layer + 1] - floor;
    if (floor + uniform53(bits[0], bits[1]) * height < exp(-0.5 * c.value * c.value)) return c.value;
    hi = bits[2], lo = bits[3];
  }
  return ziggurat_candidate(hi, lo).value;
}

// Value `which` of the pair whose call at (replica, position, draw) gave `bits`: candidate
// words 0–1 (which = 0) or 2–3 (which = 1), retries as above.
GS_HD GS_INLINE double ziggurat_rest_of(const PhiloxBits& bits, int which, const RngStreamKey& key,
                                        std::uint32_t replica, std::uint64_t position, std::uint32_t draw) {
  return ziggurat_rest(bits[2 * which], bits[2 * which + 1], [&](std::uint32_t k) {
    return philox_bits(key, replica, position, ziggurat_retry_draw(draw, which, k));
  });
}

// A pair of independent standard normals from the call at (replica, position, draw) and,
// rarely, the retries after it.
GS_HD GS_INLINE ValuePair<double> ziggurat_normal_pair(const RngStreamKey& key, std::uint32_t replica,
                                                       std::uint64_t position, std::uint32_t draw) {
  const PhiloxBits bits = philox_bits(key, replica, position, draw);
  double values[2];
  for (int which = 0; which < 2; ++which) {
    const ZigguratCandidate<std::uint32_t> c = ziggurat_candidate(bits[2 * which], bits[2 * which + 1]);
    values[which] = c.under ? c.value : ziggurat_rest_of(bits, which, key, replica, position, draw);
  }
  return {values[0], values[1]};
}

}  // namespace gs
