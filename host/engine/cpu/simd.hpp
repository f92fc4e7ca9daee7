// Packs of lanes for the generic formulas of kernels/ (kernels/lanes.hpp has
// their one-lane form): eight lanes on AVX2 with FMA, or sixteen on AVX-512
// with GS_LANES_AVX512. Only host/engine/cpu/lane_kernels.inc includes this
// header, in translation units compiled for that instruction set, and nothing
// in them runs before the CPU was asked whether it has it. The instruction
// set's own operations (masks, conversions, Philox's products) are in
// simd_avx2.hpp and simd_avx512.hpp; everything here is written once for both.
//
// Elementary functions are SLEEF's deterministic ones (the Sleef_finz_ family:
// the same bits on every FMA machine and vector width, 1.0 ulp, sin/cos of π·x
// 0.506 ulp); sqrt, fabs and copysign are exact. Compiled with
// GS_FAST_LANE_MATH (precision: fast, host/engine/precision.hpp), log, sin and
// sin/cos of π·x are SLEEF's 3.5-ulp ones instead (exp, expm1 and log1p have
// none in SLEEF 3.5 and stay). Each (instruction set, precision) lives in its
// own inline namespace, so the translation units that include this header
// instantiate the kernels' formulas for different pack types and never clash.
// Arithmetic is IEEE elementwise and compiled without contraction
// (-ffp-contract=off), so a lane does what the scalar formula does, up to the
// library's functions, and the two widths give the same bits.
#pragma once

#include <immintrin.h>
#include <sleef.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/lanes.hpp"
#include "kernels/philox.hpp"

#if defined(GS_LANES_AVX512) && defined(GS_FAST_LANE_MATH)
#define GS_LANE_MATH avx512_fast_lanes
#elif defined(GS_LANES_AVX512)
#define GS_LANE_MATH avx512_accurate_lanes
#elif defined(GS_FAST_LANE_MATH)
#define GS_LANE_MATH avx2_fast_lanes
#else
#define GS_LANE_MATH avx2_accurate_lanes
#endif

namespace gs {
inline namespace GS_LANE_MATH {

enum class Comparison { less, greater, less_equal, equal, not_equal };

#if defined(GS_LANES_AVX512)
constexpr int kPackLanes = 16;
#else
constexpr int kPackLanes = 8;
#endif
// A register of kPackLanes 32-bit lanes (or half as many 64-bit ones).
constexpr int kRegisterBytes = 4 * kPackLanes;
template <class T>
struct RegisterOf {
  typedef T type __attribute__((vector_size(kRegisterBytes)));
};
template <class T>
using Register = typename RegisterOf<T>::type;
// The instruction set's SLEEF function `name` at `accuracy`, which may be a
// macro (expanded before it is pasted into the name).
#define GS_SLEEF_FLOAT(name, accuracy) GS_SLEEF_FLOAT_NAME(name, accuracy)
#define GS_SLEEF_DOUBLE(name, accuracy) GS_SLEEF_DOUBLE_NAME(name, accuracy)

#if defined(GS_LANES_AVX512)
#include "host/engine/cpu/simd_avx512.hpp"
#else
#include "host/engine/cpu/simd_avx2.hpp"
#endif

using IntRegister = Register<long long>;
template <class V>
GS_INLINE IntRegister int_register(V v) {
  return reinterpret_cast<IntRegister>(v);
}

GS_INLINE bool any(Mask m) { return mask_bits(m) != 0; }
GS_INLINE bool all(Mask m) { return mask_bits(m) == (1u << kPackLanes) - 1u; }
// Set lanes among the first `valid`.
GS_INLINE std::uint32_t true_lanes(Mask m, int valid = kPackLanes) {
  return static_cast<std::uint32_t>(__builtin_popcount(mask_bits(m) & ((1u << valid) - 1u)));
}

// kPackLanes lanes of T in registers: one for 32-bit T, two (the first and the
// second half of the lanes) for 64-bit T, so that every operation is a native
// one per register.
template <class T>
struct Pack {
  static_assert(std::is_arithmetic<T>::value, "lanes of numbers");
  static constexpr int kHalves = static_cast<int>(sizeof(T)) / 4;
  static constexpr int kLanesPerRegister = kPackLanes / kHalves;
  using Half = Register<T>;
  using Int = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;
  using IntHalf = Register<Int>;
  Half h[kHalves];

  Pack() = default;
  template <class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>
  GS_INLINE explicit Pack(S x) {
    for (int i = 0; i < kHalves; ++i) h[i] = Half{} + static_cast<T>(x);
  }

  GS_INLINE T operator[](int lane) const { return h[lane / kLanesPerRegister][lane % kLanesPerRegister]; }

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
  friend GS_INLINE Pack operator&(Pack a, Pack b) {
    return each(a, b, [](Half x, Half y) { return x & y; });
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

  friend GS_INLINE Mask operator<(Pack a, Pack b) { return compare_registers<Comparison::less, T>(a.h, b.h); }
  friend GS_INLINE Mask operator>(Pack a, Pack b) { return compare_registers<Comparison::greater, T>(a.h, b.h); }
  friend GS_INLINE Mask operator<=(Pack a, Pack b) { return compare_registers<Comparison::less_equal, T>(a.h, b.h); }
  friend GS_INLINE Mask operator==(Pack a, Pack b) { return compare_registers<Comparison::equal, T>(a.h, b.h); }
  friend GS_INLINE Mask operator!=(Pack a, Pack b) { return compare_registers<Comparison::not_equal, T>(a.h, b.h); }
  friend GS_INLINE Mask operator<(Pack a, T b) { return a < Pack(b); }
  friend GS_INLINE Mask operator>(Pack a, T b) { return a > Pack(b); }
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
  for (int i = 0; i < Pack<T>::kHalves; ++i) r.h[i] = blend<T>(m, i, first.h[i], second.h[i]);
  return r;
}
template <class First, class Second>
GS_INLINE auto select_lazy(Mask m, const First& first, const Second& second) {
  return select(m, first(), second());
}

// Conversions (kernels/lanes.hpp has their contracts).
GS_INLINE IntRegister bits(WordPack k) { return int_register(k.h[0]); }
template <class R>
GS_INLINE R word_to_real(WordPack below_2_31) {
  R r;
  if constexpr (std::is_same<R, FloatPack>::value) {
    r.h[0] = int32_to_float(bits(below_2_31));
  } else {
    for (int i = 0; i < 2; ++i) r.h[i] = int32_to_double(bits(below_2_31), i);
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
  for (int i = 0; i < 2; ++i) r.h[i] = reinterpret_cast<Word64Pack::Half>(widen_words(bits(k), i));
  return r;
}
// The low 32 bits of each lane.
GS_INLINE WordPack truncate(Word64Pack k) {
  WordPack r;
  r.h[0] = reinterpret_cast<WordPack::Half>(low_words(int_register(k.h[0]), int_register(k.h[1])));
  return r;
}
// table[k] in each lane (k < the table's length).
GS_INLINE DoublePack gather(const double* table, WordPack k) {
  DoublePack r;
  for (int i = 0; i < 2; ++i) r.h[i] = gather_doubles(table, bits(k), i);
  return r;
}
GS_INLINE WordPack gather(const std::uint32_t* table, WordPack k) {
  WordPack r;
  r.h[0] = reinterpret_cast<WordPack::Half>(gather_words(table, bits(k)));
  return r;
}
template <class R>
GS_INLINE R narrow(DoublePack x) {
  if constexpr (std::is_same<R, DoublePack>::value) {
    return x;
  } else {
    R r;
    r.h[0] = narrow_doubles(x.h[0], x.h[1]);
    return r;
  }
}
// A float is rounded from the double (twice, so it may differ from the scalar
// float by the last bit where a value falls half-way).
template <class R>
GS_INLINE R word64_to_real(Word64Pack below_2_63) {
  DoublePack x;
  for (int i = 0; i < 2; ++i) x.h[i] = word64_to_double(int_register(below_2_63.h[i]));
  return narrow<R>(x);
}

#define GS_SLEEF_UNARY(name, float_function, double_function)     \
  GS_INLINE FloatPack name(FloatPack x) {                         \
    FloatPack r;                                                  \
    r.h[0] = float_function(x.h[0]);                              \
    return r;                                                     \
  }                                                               \
  GS_INLINE DoublePack name(DoublePack x) {                       \
    DoublePack r;                                                 \
    for (int i = 0; i < 2; ++i) r.h[i] = double_function(x.h[i]); \
    return r;                                                     \
  }
#if defined(GS_FAST_LANE_MATH)
#define GS_U10_OR_U35 u35
#define GS_U05_OR_U35 u35
#else
#define GS_U10_OR_U35 u10
#define GS_U05_OR_U35 u05
#endif
#define GS_SLEEF_OF(name, accuracy) \
  GS_SLEEF_UNARY(name, GS_SLEEF_FLOAT(name, accuracy), GS_SLEEF_DOUBLE(name, accuracy))
GS_SLEEF_OF(log, GS_U10_OR_U35)
GS_SLEEF_OF(log1p, u10)
GS_SLEEF_OF(exp, u10)
GS_SLEEF_OF(expm1, u10)
GS_SLEEF_OF(sin, GS_U10_OR_U35)
GS_SLEEF_UNARY(sqrt, sqrt_register, sqrt_register)

template <class T>
GS_INLINE SinCos<Pack<T>> sincospi(Pack<T> x) {
  SinCos<Pack<T>> r;
  for (int i = 0; i < Pack<T>::kHalves; ++i) {
    if constexpr (std::is_same<T, float>::value) {
      const auto pair = GS_SLEEF_FLOAT(sincospi, GS_U05_OR_U35)(x.h[i]);
      r.sin.h[i] = pair.x, r.cos.h[i] = pair.y;
    } else {
      const auto pair = GS_SLEEF_DOUBLE(sincospi, GS_U05_OR_U35)(x.h[i]);
      r.sin.h[i] = pair.x, r.cos.h[i] = pair.y;
    }
  }
  return r;
}
#if defined(GS_FAST_LANE_MATH)
// SLEEF 3.5 has no 3.5-ulp sin or cos of π·x alone; the pair costs half of either 0.506-ulp one.
template <class T>
GS_INLINE Pack<T> sinpi(Pack<T> x) {
  return sincospi(x).sin;
}
template <class T>
GS_INLINE Pack<T> cospi(Pack<T> x) {
  return sincospi(x).cos;
}
#else
GS_SLEEF_OF(sinpi, u05)
GS_SLEEF_OF(cospi, u05)
#endif
#undef GS_SLEEF_UNARY
#undef GS_SLEEF_OF
#undef GS_U10_OR_U35
#undef GS_U05_OR_U35
#undef GS_SLEEF_FLOAT
#undef GS_SLEEF_FLOAT_NAME
#undef GS_SLEEF_DOUBLE
#undef GS_SLEEF_DOUBLE_NAME

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

// kPackLanes values from src (unaligned). A register at a time: one memcpy of
// the whole pack went through the stack in GCC's AVX2 code, as 16-byte stores
// read back by 32-byte loads, which cannot be forwarded (a stall per pack).
template <class T>
GS_INLINE Pack<T> load_pack(const T* src) {
  Pack<T> p;
  for (int i = 0; i < Pack<T>::kHalves; ++i) std::memcpy(&p.h[i], src + i * Pack<T>::kLanesPerRegister, sizeof(p.h[i]));
  return p;
}

// kPackLanes values to dst (unaligned), a register at a time.
template <class T>
GS_INLINE void store_pack(T* dst, Pack<T> p) {
  for (int i = 0; i < Pack<T>::kHalves; ++i) std::memcpy(dst + i * Pack<T>::kLanesPerRegister, &p.h[i], sizeof(p.h[i]));
}

// a0 b0 a1 b1 … of all lanes to dst (2·kPackLanes values, unaligned).
template <class T>
GS_INLINE void store_interleaved(T* dst, Pack<T> a, Pack<T> b) {
  for (int i = 0; i < Pack<T>::kHalves; ++i)
    store_interleaved(dst + 2 * i * Pack<T>::kLanesPerRegister, a.h[i], b.h[i]);
}

// Philox4x32-10 on kPackLanes counters at once: lane i is the call at position
// first + i (the scalar philox_bits, word for word; tests/cpu/test_lanes.cpp
// compares them).
struct PhiloxPack {
  WordPack word[4];
  GS_INLINE const WordPack& operator[](int i) const { return word[i]; }
};

template <std::size_t... lane>
GS_INLINE Word64Pack lane_positions(std::uint64_t first, std::index_sequence<lane...>) {
  constexpr int kPerRegister = Word64Pack::kLanesPerRegister;
  Word64Pack r;
  r.h[0] = Word64Pack::Half{lane...} + first;
  r.h[1] = Word64Pack::Half{(lane + kPerRegister)...} + first;
  return r;
}

GS_INLINE PhiloxPack philox_pack(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first,
                                 std::uint32_t draw) {
  using Words = WordPack::Half;
  const Word64Pack positions =
      lane_positions(first, std::make_index_sequence<static_cast<std::size_t>(Word64Pack::kLanesPerRegister)>());
  Words c0 = truncate(positions).h[0], c1 = truncate(positions >> 32).h[0] | (draw << 24), c2 = Words{} + replica,
        c3 = Words{} + key.stream;
  std::uint32_t k0 = static_cast<std::uint32_t>(key.seed), k1 = static_cast<std::uint32_t>(key.seed >> 32);
  for (int round = 0; round < 10; ++round) {
    IntRegister hi0, lo0, hi1, lo1;
    mulhilo(int_register(c0), 0xD2511F53u, hi0, lo0);
    mulhilo(int_register(c2), 0xCD9E8D57u, hi1, lo1);
    const Words n0 = reinterpret_cast<Words>(hi1) ^ c1 ^ k0, n2 = reinterpret_cast<Words>(hi0) ^ c3 ^ k1;
    c0 = n0, c1 = reinterpret_cast<Words>(lo1), c2 = n2, c3 = reinterpret_cast<Words>(lo0);
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  PhiloxPack r;
  r.word[0].h[0] = c0, r.word[1].h[0] = c1, r.word[2].h[0] = c2, r.word[3].h[0] = c3;
  return r;
}

}  // namespace GS_LANE_MATH
}  // namespace gs
