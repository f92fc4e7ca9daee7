// The register layer of host/engine/cpu/simd.hpp for AVX2 with FMA: eight
// lanes, 32-byte registers, comparison masks as vectors of all-ones words.
// Included by simd.hpp only, inside its namespace, after kPackLanes and
// Register<T>.

// The names of SLEEF's deterministic float and double function `name` at
// `accuracy` (u10, u35, …).
#define GS_SLEEF_FLOAT_NAME(name, accuracy) Sleef_finz_##name##f8_##accuracy##avx2
#define GS_SLEEF_DOUBLE_NAME(name, accuracy) Sleef_finz_##name##d4_##accuracy##avx2

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

// The mask of `compare` on the registers of two packs of T (one register for
// 32-bit T, two for 64-bit T).
template <Comparison compare, class T>
GS_INLINE Mask compare_registers(const Register<T>* a, const Register<T>* b) {
  const auto lanes = [](Register<T> x, Register<T> y) {
    if constexpr (compare == Comparison::less) {
      return x < y;
    } else if constexpr (compare == Comparison::greater) {
      return x > y;
    } else if constexpr (compare == Comparison::less_equal) {
      return x <= y;
    } else if constexpr (compare == Comparison::equal) {
      return x == y;
    } else {
      return x != y;
    }
  };
  if constexpr (sizeof(T) == 4) {
    return {reinterpret_cast<__m256i>(lanes(a[0], b[0]))};
  } else {
    return {low_words(reinterpret_cast<__m256i>(lanes(a[0], b[0])), reinterpret_cast<__m256i>(lanes(a[1], b[1])))};
  }
}

// The lanes of the first or second half of a register.
GS_INLINE __m128i register_half(__m256i k, int half) {
  return half == 0 ? _mm256_castsi256_si128(k) : _mm256_extracti128_si256(k, 1);
}

// Register `half` of a pack of T: `first` where the mask is set, else `second`.
template <class T>
GS_INLINE Register<T> blend(Mask m, int half, Register<T> first, Register<T> second) {
  using Int = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;
  if constexpr (sizeof(T) == 4) {
    return reinterpret_cast<Register<Int>>(m.v) ? first : second;
  } else {
    return reinterpret_cast<Register<Int>>(_mm256_cvtepi32_epi64(register_half(m.v, half))) ? first : second;
  }
}

GS_INLINE __m256 sqrt_register(__m256 x) { return _mm256_sqrt_ps(x); }
GS_INLINE __m256d sqrt_register(__m256d x) { return _mm256_sqrt_pd(x); }

// Conversions between registers (simd.hpp has their packs' contracts).
GS_INLINE __m256 int32_to_float(__m256i k) { return _mm256_cvtepi32_ps(k); }
GS_INLINE __m256d int32_to_double(__m256i k, int half) { return _mm256_cvtepi32_pd(register_half(k, half)); }
GS_INLINE __m256i widen_words(__m256i k, int half) { return _mm256_cvtepu32_epi64(register_half(k, half)); }
GS_INLINE __m256 narrow_doubles(__m256d lanes_0_to_3, __m256d lanes_4_to_7) {
  return _mm256_set_m128(_mm256_cvtpd_ps(lanes_4_to_7), _mm256_cvtpd_ps(lanes_0_to_3));
}
// AVX2 has no 64-bit integer conversion: hi·2^32 + lo from the two halves,
// each exact (a word below 2^32 in the mantissa of 2^52), rounds once, to the
// double the scalar conversion gives.
GS_INLINE __m256d word64_to_double(__m256i below_2_63) {
  const __m256i two_52 = _mm256_set1_epi64x(0x4330000000000000);
  const auto exact = [&](__m256i below_2_32) {
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(below_2_32, two_52)), _mm256_castsi256_pd(two_52));
  };
  const __m256d hi = exact(_mm256_srli_epi64(below_2_63, 32)),
                lo = exact(_mm256_and_si256(below_2_63, _mm256_set1_epi64x(0xffffffff)));
  return _mm256_add_pd(_mm256_mul_pd(hi, _mm256_set1_pd(4294967296.0)), lo);
}
// table[k] for the lanes of register `half` of the 32-bit indices k. (The masked form with
// a zero source: GCC 12's unmasked one reads an undefined register and warns.)
GS_INLINE __m256d gather_doubles(const double* table, __m256i k, int half) {
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  return _mm256_mask_i32gather_pd(_mm256_setzero_pd(), table, register_half(k, half), all, 8);
}
GS_INLINE __m256i gather_words(const std::uint32_t* table, __m256i k) {
  return _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(table), k,
                                     _mm256_set1_epi32(-1), 4);
}

// a0 b0 a1 b1 … of two registers to dst (unaligned).
GS_INLINE void store_interleaved(float* dst, __m256 a, __m256 b) {
  const __m256 lo = _mm256_unpacklo_ps(a, b), hi = _mm256_unpackhi_ps(a, b);
  _mm256_storeu_ps(dst, _mm256_permute2f128_ps(lo, hi, 0x20));
  _mm256_storeu_ps(dst + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
}
GS_INLINE void store_interleaved(double* dst, __m256d a, __m256d b) {
  const __m256d lo = _mm256_unpacklo_pd(a, b), hi = _mm256_unpackhi_pd(a, b);
  _mm256_storeu_pd(dst, _mm256_permute2f128_pd(lo, hi, 0x20));
  _mm256_storeu_pd(dst + 4, _mm256_permute2f128_pd(lo, hi, 0x31));
}

// The 64-bit products a·multiplier of each 32-bit lane, split into their high
// and low words (Philox's round).
GS_INLINE void mulhilo(__m256i a, std::uint32_t multiplier, __m256i& hi, __m256i& lo) {
  const __m256i m = _mm256_set1_epi64x(multiplier);
  const __m256i even = _mm256_mul_epu32(a, m), odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
  lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xaa);
  hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xaa);
}
