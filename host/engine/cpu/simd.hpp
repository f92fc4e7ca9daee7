// Packs of eight lanes for the generic formulas of kernels/ (kernels/lanes.hpp
// has their one-lane form), on AVX2 with FMA. Only host/engine/cpu/lanes_avx2.cpp
// includes this header: it is compiled for that instruction set, and nothing
// in it runs before the CPU was asked whether it has one.
//
// Elementary functions are SLEEF's deterministic ones (the Sleef_finz_ family:
// the same bits on every FMA machine and vector width, 1.0 ulp, sin/cos of π·x
// 0.506 ulp); sqrt, fabs and copysign are exact. Compiled with
// GS_FAST_LANE_MATH (precision: fast, host/engine/precision.hpp), log, sin and
// sin/cos of π·x are SLEEF's 3.5-ulp ones instead (exp, expm1 and log1p have
// none in SLEEF 3.5 and stay). Each form lives in its own inline namespace, so
// the two translation units that include this header instantiate the kernels'
// formulas for different pack types and never clash. Arithmetic is IEEE
// elementwise and compiled without contraction (-ffp-contract=off), so a lane
// does what the scalar formula does, up to the library's functions.
#pragma once

#include <immintrin.h>
#include <sleef.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/lanes.hpp"
#include "kernels/philox.hpp"

#if defined(GS_FAST_LANE_MATH)
#define GS_LANE_MATH fast_lanes
#define GS_SLEEF_U10_OR_U35(name) name##_u35avx2
#define GS_SLEEF_U05_OR_U35(name) name##_u35avx2
#else
#define GS_LANE_MATH accurate_lanes
#define GS_SLEEF_U10_OR_U35(name) name##_u10avx2
#define GS_SLEEF_U05_OR_U35(name) name##_u05avx2
#endif

namespace gs {
inline namespace GS_LANE_MATH {

constexpr int kPackLanes = 8;

// The low 32-bit word of each 64-bit lane of lanes 0–3 and of lanes 4–7, as
// eight 32-bit lanes in order.
GS_INLINE __m256i low_words(__m256i lanes_0_to_3, __m256i lanes_4_to_7) {
  const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  return _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(lanes_0_to_3, pick),
                                   _mm256_permutevar8x32_epi32(lanes_4_to_7, pick), 0x20);
}

// The mask of a comparison: eight 32-bit lanes, all ones where true.
struct Mask {
  __m256i v;
  friend GS_INLINE Mask operator&(Mask a, Mask b) { return {_mm256_and_si256(a.v, b.v)}; }
  friend GS_INLINE Mask operator|(Mask a, Mask b) { return {_mm256_or_si256(a.v, b.v)}; }
  friend GS_INLINE Mask operator^(Mask a, Mask b) { return {_mm256_xor_si256(a.v, b.v)}; }
  friend GS_INLINE Mask operator!(Mask a) { return {_mm256_xor_si256(a.v, _mm256_set1_epi32(-1))}; }
};

GS_INLINE unsigned mask_bits(Mask m) { return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(m.v))); }
GS_INLINE bool any(Mask m) { return mask_bits(m) != 0; }
GS_INLINE bool all(Mask m) { return mask_bits(m) == 0xffu; }
// Set lanes among the first `valid`.
GS_INLINE std::uint32_t true_lanes(Mask m, int valid = kPackLanes) {
  return static_cast<std::uint32_t>(__builtin_popcount(mask_bits(m) & ((1u << valid) - 1u)));
}

// Eight lanes of T in AVX2 registers: one for 32-bit T, two (lanes 0–3 and
// 4–7) for 64-bit T, so that every operation is a native one per register.
template <class T>
struct Pack {
  static_assert(std::is_arithmetic<T>::value, "lanes of numbers");
  static constexpr int kHalves = static_cast<int>(sizeof(T)) / 4;
  typedef T Half __attribute__((vector_size(32)));
  typedef std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t> Int;
  typedef Int IntHalf __attribute__((vector_size(32)));
  Half h[kHalves];

  Pack() = default;
  template <class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>
  GS_INLINE explicit Pack(S x) {
    for (int i = 0; i < kHalves; ++i) h[i] = Half{} + static_cast<T>(x);
  }

  GS_INLINE T operator[](int lane) const { return h[lane / (8 / kHalves)][lane % (8 / kHalves)]; }

  template <class Op>
  friend GS_INLINE Pack each(Pack a, Pack b, Op op) {
    Pack r;
    for (int i = 0; i < kHalves; ++i) r.h[i] = op(a.h[i], b.h[i]);
    return r;
  }
  friend GS_INLINE Pack operator+(Pack a, Pack b) {
    return each(a, b, [](Half x, Half y) { return x + y; });
  }
  friend GS_INLINE Pack operator-(Pack a, Pack b) {
    return each(a, b, [](Half x, Half y) { return x - y; });
  }
  friend GS_INLINE Pack operator*(Pack a, Pack b) {
    return each(a, b, [](Half x, Half y) { return x * y; });
  }
  friend GS_INLINE Pack operator/(Pack a, Pack b) {
    return each(a, b, [](Half x, Half y) { return x / y; });
  }
  friend GS_INLINE Pack operator-(Pack a) {
    return each(a, a, [](Half x, Half) { return -x; });
  }
  friend GS_INLINE Pack operator+(T a, Pack b) { return Pack(a) + b; }
  friend GS_INLINE Pack operator-(T a, Pack b) { return Pack(a) - b; }
  friend GS_INLINE Pack operator*(T a, Pack b) { return Pack(a) * b; }
  friend GS_INLINE Pack operator/(T a, Pack b) { return Pack(a) / b; }
  friend GS_INLINE Pack operator+(Pack a, T b) { return a + Pack(b); }
  friend GS_INLINE Pack operator-(Pack a, T b) { return a - Pack(b); }
  friend GS_INLINE Pack operator*(Pack a, T b) { return a * Pack(b); }
  friend GS_INLINE Pack operator/(Pack a, T b) { return a / Pack(b); }

  // Integer lanes.
  friend GS_INLINE Pack operator~(Pack a) {
    return each(a, a, [](Half x, Half) { return ~x; });
  }
  friend GS_INLINE Pack operator|(Pack a, Pack b) {
    return each(a, b, [](Half x, Half y) { return x | y; });
  }
  friend GS_INLINE Pack operator^(Pack a, Pack b) {
    return each(a, b, [](Half x, Half y) { return x ^ y; });
  }
  friend GS_INLINE Pack operator>>(Pack a, int s) {
    return each(a, a, [s](Half x, Half) { return x >> s; });
  }
  friend GS_INLINE Pack operator<<(Pack a, int s) {
    return each(a, a, [s](Half x, Half) { return x << s; });
  }

  friend GS_INLINE Mask operator<(Pack a, Pack b) {
    return compare(a, b, [](Half x, Half y) { return x < y; });
  }
  friend GS_INLINE Mask operator>(Pack a, Pack b) {
    return compare(a, b, [](Half x, Half y) { return x > y; });
  }
  friend GS_INLINE Mask operator<=(Pack a, Pack b) {
    return compare(a, b, [](Half x, Half y) { return x <= y; });
  }
  friend GS_INLINE Mask operator==(Pack a, Pack b) {
    return compare(a, b, [](Half x, Half y) { return x == y; });
  }
  friend GS_INLINE Mask operator!=(Pack a, Pack b) {
    return compare(a, b, [](Half x, Half y) { return x != y; });
  }
  friend GS_INLINE Mask operator<(Pack a, T b) { return a < Pack(b); }
  friend GS_INLINE Mask operator>(Pack a, T b) { return a > Pack(b); }

  // Half i of a mask, as lanes of this pack's width.
  GS_INLINE static IntHalf mask_half(Mask m, int i) {
    if constexpr (kHalves == 1) {
      return reinterpret_cast<IntHalf>(m.v);
    } else {
      const __m128i quarter = i == 0 ? _mm256_castsi256_si128(m.v) : _mm256_extracti128_si256(m.v, 1);
      return reinterpret_cast<IntHalf>(_mm256_cvtepi32_epi64(quarter));
    }
  }

 private:
  template <class Cmp>
  GS_INLINE static Mask compare(Pack a, Pack b, Cmp cmp) {
    if constexpr (kHalves == 1) {
      return {reinterpret_cast<__m256i>(cmp(a.h[0], b.h[0]))};
    } else {
      return {
          low_words(reinterpret_cast<__m256i>(cmp(a.h[0], b.h[0])), reinterpret_cast<__m256i>(cmp(a.h[1], b.h[1])))};
    }
  }
};

using FloatPack = Pack<float>;
using DoublePack = Pack<double>;
using WordPack = Pack<std::uint32_t>;
using Word64Pack = Pack<std::uint64_t>;
}  // namespace GS_LANE_MATH

template <class Real>
struct Lanes<WordPack, Real> {
  using real = Pack<Real>;
  using wide = DoublePack;
  using word64 = Word64Pack;
  using mask = Mask;
};

inline namespace GS_LANE_MATH {

template <class T>
GS_INLINE Pack<T> select(Mask m, Pack<T> first, Pack<T> second) {
  Pack<T> r;
  for (int i = 0; i < Pack<T>::kHalves; ++i) r.h[i] = Pack<T>::mask_half(m, i) ? first.h[i] : second.h[i];
  return r;
}
template <class First, class Second>
GS_INLINE auto select_lazy(Mask m, const First& first, const Second& second) {
  return select(m, first(), second());
}

// Conversions (kernels/lanes.hpp has their contracts).
GS_INLINE __m256i bits(WordPack k) { return reinterpret_cast<__m256i>(k.h[0]); }
template <class R>
GS_INLINE R word_to_real(WordPack below_2_31) {
  R r;
  if constexpr (std::is_same<R, FloatPack>::value) {
    r.h[0] = _mm256_cvtepi32_ps(bits(below_2_31));
  } else {
    r.h[0] = _mm256_cvtepi32_pd(_mm256_castsi256_si128(bits(below_2_31)));
    r.h[1] = _mm256_cvtepi32_pd(_mm256_extracti128_si256(bits(below_2_31), 1));
  }
  return r;
}
GS_INLINE DoublePack word_to_double(WordPack k) {
  // k − 2^31 as a signed integer converts exactly; add 2^31 back (exact in double).
  WordPack shifted;
  shifted.h[0] = k.h[0] ^ 0x80000000u;
  return word_to_real<DoublePack>(shifted) + 2147483648.0;
}
GS_INLINE Word64Pack widen(WordPack k) {
  Word64Pack r;
  r.h[0] = reinterpret_cast<Word64Pack::Half>(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(bits(k))));
  r.h[1] = reinterpret_cast<Word64Pack::Half>(_mm256_cvtepu32_epi64(_mm256_extracti128_si256(bits(k), 1)));
  return r;
}
// The low 32 bits of each lane.
GS_INLINE WordPack truncate(Word64Pack k) {
  WordPack r;
  r.h[0] =
      reinterpret_cast<WordPack::Half>(low_words(reinterpret_cast<__m256i>(k.h[0]), reinterpret_cast<__m256i>(k.h[1])));
  return r;
}
template <class R>
GS_INLINE R narrow(DoublePack x) {
  if constexpr (std::is_same<R, DoublePack>::value) {
    return x;
  } else {
    R r;
    r.h[0] = _mm256_set_m128(_mm256_cvtpd_ps(x.h[1]), _mm256_cvtpd_ps(x.h[0]));
    return r;
  }
}

// AVX2 has no 64-bit integer conversion: hi·2^32 + lo from the two exact
// halves rounds once, to the double the scalar conversion gives; a float is
// rounded from that double (twice, so it may differ from the scalar float by
// the last bit where a value falls half-way).
template <class R>
GS_INLINE R word64_to_real(Word64Pack below_2_63) {
  const DoublePack x = word_to_double(truncate(below_2_63 >> 32)) * 4294967296.0 + word_to_double(truncate(below_2_63));
  if constexpr (std::is_same<R, DoublePack>::value) {
    return x;
  } else {
    return narrow<R>(x);
  }
}
GS_INLINE __m256 avx(FloatPack x) { return x.h[0]; }
GS_INLINE FloatPack pack(__m256 x) {
  FloatPack r;
  r.h[0] = x;
  return r;
}
GS_INLINE DoublePack pack(__m256d lo, __m256d hi) {
  DoublePack r;
  r.h[0] = lo, r.h[1] = hi;
  return r;
}

#define GS_SLEEF_UNARY(name, float_function, double_function)                    \
  GS_INLINE FloatPack name(FloatPack x) { return pack(float_function(x.h[0])); } \
  GS_INLINE DoublePack name(DoublePack x) { return pack(double_function(x.h[0]), double_function(x.h[1])); }
GS_SLEEF_UNARY(log, GS_SLEEF_U10_OR_U35(Sleef_finz_logf8), GS_SLEEF_U10_OR_U35(Sleef_finz_logd4))
GS_SLEEF_UNARY(log1p, Sleef_finz_log1pf8_u10avx2, Sleef_finz_log1pd4_u10avx2)
GS_SLEEF_UNARY(exp, Sleef_finz_expf8_u10avx2, Sleef_finz_expd4_u10avx2)
GS_SLEEF_UNARY(expm1, Sleef_finz_expm1f8_u10avx2, Sleef_finz_expm1d4_u10avx2)
GS_SLEEF_UNARY(sin, GS_SLEEF_U10_OR_U35(Sleef_finz_sinf8), GS_SLEEF_U10_OR_U35(Sleef_finz_sind4))
GS_SLEEF_UNARY(sqrt, _mm256_sqrt_ps, _mm256_sqrt_pd)

GS_INLINE SinCos<FloatPack> sincospi(FloatPack x) {
  const Sleef___m256_2 r = GS_SLEEF_U05_OR_U35(Sleef_finz_sincospif8)(x.h[0]);
  return {pack(r.x), pack(r.y)};
}
GS_INLINE SinCos<DoublePack> sincospi(DoublePack x) {
  const Sleef___m256d_2 lo = GS_SLEEF_U05_OR_U35(Sleef_finz_sincospid4)(x.h[0]),
                        hi = GS_SLEEF_U05_OR_U35(Sleef_finz_sincospid4)(x.h[1]);
  return {pack(lo.x, hi.x), pack(lo.y, hi.y)};
}
#if defined(GS_FAST_LANE_MATH)
// SLEEF 3.5 has no 3.5-ulp sin or cos of π·x alone; the pair costs half of either 0.506-ulp one.
GS_INLINE FloatPack sinpi(FloatPack x) { return sincospi(x).sin; }
GS_INLINE DoublePack sinpi(DoublePack x) { return sincospi(x).sin; }
GS_INLINE FloatPack cospi(FloatPack x) { return sincospi(x).cos; }
GS_INLINE DoublePack cospi(DoublePack x) { return sincospi(x).cos; }
#else
GS_SLEEF_UNARY(sinpi, Sleef_finz_sinpif8_u05avx2, Sleef_finz_sinpid4_u05avx2)
GS_SLEEF_UNARY(cospi, Sleef_finz_cospif8_u05avx2, Sleef_finz_cospid4_u05avx2)
#endif
#undef GS_SLEEF_UNARY
#undef GS_SLEEF_U10_OR_U35
#undef GS_SLEEF_U05_OR_U35

// fabs and copysign on the sign bit, as the C library's.
template <class T>
GS_INLINE typename Pack<T>::IntHalf sign_bit() {
  return typename Pack<T>::IntHalf{} + std::numeric_limits<typename Pack<T>::Int>::min();
}
template <class T>
GS_INLINE Pack<T> fabs(Pack<T> x) {
  using I = typename Pack<T>::IntHalf;
  Pack<T> r;
  for (int i = 0; i < Pack<T>::kHalves; ++i)
    r.h[i] = reinterpret_cast<typename Pack<T>::Half>(reinterpret_cast<I>(x.h[i]) & ~sign_bit<T>());
  return r;
}
template <class T>
GS_INLINE Pack<T> copysign(Pack<T> magnitude, Pack<T> sign) {
  using I = typename Pack<T>::IntHalf;
  Pack<T> r;
  for (int i = 0; i < Pack<T>::kHalves; ++i)
    r.h[i] = reinterpret_cast<typename Pack<T>::Half>((reinterpret_cast<I>(magnitude.h[i]) & ~sign_bit<T>()) |
                                                      (reinterpret_cast<I>(sign.h[i]) & sign_bit<T>()));
  return r;
}

// a0 b0 a1 b1 … a7 b7 to dst (16 values, unaligned).
GS_INLINE void store_interleaved(float* dst, FloatPack a, FloatPack b) {
  const __m256 lo = _mm256_unpacklo_ps(a.h[0], b.h[0]), hi = _mm256_unpackhi_ps(a.h[0], b.h[0]);
  _mm256_storeu_ps(dst, _mm256_permute2f128_ps(lo, hi, 0x20));
  _mm256_storeu_ps(dst + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
}
GS_INLINE void store_interleaved(double* dst, DoublePack a, DoublePack b) {
  for (int half = 0; half < 2; ++half) {
    const __m256d lo = _mm256_unpacklo_pd(a.h[half], b.h[half]), hi = _mm256_unpackhi_pd(a.h[half], b.h[half]);
    _mm256_storeu_pd(dst + 8 * half, _mm256_permute2f128_pd(lo, hi, 0x20));
    _mm256_storeu_pd(dst + 8 * half + 4, _mm256_permute2f128_pd(lo, hi, 0x31));
  }
}

// Philox4x32-10 on eight counters at once: lane i is the call at position
// first + i (the scalar philox_bits, word for word; tests/cpu/test_lanes.cpp
// compares them).
struct PhiloxPack {
  WordPack word[4];
  GS_INLINE const WordPack& operator[](int i) const { return word[i]; }
};

GS_INLINE PhiloxPack philox_pack(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first,
                                 std::uint32_t draw) {
  Word64Pack positions;
  positions.h[0] = Word64Pack::Half{0, 1, 2, 3} + first;
  positions.h[1] = Word64Pack::Half{4, 5, 6, 7} + first;
  __m256i c0 = bits(truncate(positions));
  __m256i c1 = _mm256_or_si256(bits(truncate(positions >> 32)), _mm256_set1_epi32(static_cast<int>(draw << 24)));
  __m256i c2 = _mm256_set1_epi32(static_cast<int>(replica));
  __m256i c3 = _mm256_set1_epi32(static_cast<int>(key.stream));
  std::uint32_t k0 = static_cast<std::uint32_t>(key.seed), k1 = static_cast<std::uint32_t>(key.seed >> 32);
  const __m256i m0 = _mm256_set1_epi64x(0xD2511F53), m1 = _mm256_set1_epi64x(0xCD9E8D57);
  // 32×32 → 64-bit products of the even and the odd lanes, split into high and low words.
  const auto mulhilo = [](__m256i a, __m256i m, __m256i& hi, __m256i& lo) {
    const __m256i even = _mm256_mul_epu32(a, m);
    const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
    lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xaa);
    hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xaa);
  };
  for (int round = 0; round < 10; ++round) {
    __m256i hi0, lo0, hi1, lo1;
    mulhilo(c0, m0, hi0, lo0);
    mulhilo(c2, m1, hi1, lo1);
    const __m256i n0 = _mm256_xor_si256(_mm256_xor_si256(hi1, c1), _mm256_set1_epi32(static_cast<int>(k0)));
    const __m256i n2 = _mm256_xor_si256(_mm256_xor_si256(hi0, c3), _mm256_set1_epi32(static_cast<int>(k1)));
    c0 = n0, c1 = lo1, c2 = n2, c3 = lo0;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  PhiloxPack r;
  r.word[0].h[0] = reinterpret_cast<WordPack::Half>(c0);
  r.word[1].h[0] = reinterpret_cast<WordPack::Half>(c1);
  r.word[2].h[0] = reinterpret_cast<WordPack::Half>(c2);
  r.word[3].h[0] = reinterpret_cast<WordPack::Half>(c3);
  return r;
}

}  // namespace GS_LANE_MATH
}  // namespace gs
