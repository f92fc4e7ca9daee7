// The register layer of host/engine/cpu/simd.hpp for AVX-512 (F and DQ):
// sixteen lanes, 64-byte registers, comparison masks in mask registers.
// Included by simd.hpp only, inside its namespace, after kPackLanes and
// Register<T>.

// The names of SLEEF's deterministic float and double function `name` at
// `accuracy` (u10, u35, …).
#define GS_SLEEF_FLOAT_NAME(name, accuracy) Sleef_finz_##name##f16_##accuracy##avx512f
#define GS_SLEEF_DOUBLE_NAME(name, accuracy) Sleef_finz_##name##d8_##accuracy##avx512f

// The mask of a comparison: bit i for lane i.
struct Mask {
  __mmask16 v;
  friend GS_INLINE Mask operator&(Mask a, Mask b) { return {static_cast<__mmask16>(a.v & b.v)}; }
  friend GS_INLINE Mask operator|(Mask a, Mask b) { return {static_cast<__mmask16>(a.v | b.v)}; }
  friend GS_INLINE Mask operator^(Mask a, Mask b) { return {static_cast<__mmask16>(a.v ^ b.v)}; }
  friend GS_INLINE Mask operator!(Mask a) { return {static_cast<__mmask16>(~a.v)}; }
};

GS_INLINE unsigned mask_bits(Mask m) { return m.v; }

// The mask of `compare` on one register of T (ordered comparisons but for
// not-equal, as the C operators).
template <Comparison compare, class T>
GS_INLINE auto compare_register(Register<T> a, Register<T> b) {
  constexpr int predicate = std::is_floating_point<T>::value ? (compare == Comparison::less         ? _CMP_LT_OQ
                                                                : compare == Comparison::greater    ? _CMP_GT_OQ
                                                                : compare == Comparison::less_equal ? _CMP_LE_OQ
                                                                : compare == Comparison::equal      ? _CMP_EQ_OQ
                                                                                                    : _CMP_NEQ_UQ)
                                                             : (compare == Comparison::less         ? _MM_CMPINT_LT
                                                                : compare == Comparison::greater    ? _MM_CMPINT_NLE
                                                                : compare == Comparison::less_equal ? _MM_CMPINT_LE
                                                                : compare == Comparison::equal      ? _MM_CMPINT_EQ
                                                                                                    : _MM_CMPINT_NE);
  if constexpr (std::is_same<T, float>::value) {
    return _mm512_cmp_ps_mask(a, b, predicate);
  } else if constexpr (std::is_same<T, double>::value) {
    return _mm512_cmp_pd_mask(a, b, predicate);
  } else if constexpr (sizeof(T) == 4 && std::is_signed<T>::value) {
    return _mm512_cmp_epi32_mask(reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b), predicate);
  } else if constexpr (sizeof(T) == 4) {
    return _mm512_cmp_epu32_mask(reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b), predicate);
  } else if constexpr (std::is_signed<T>::value) {
    return _mm512_cmp_epi64_mask(reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b), predicate);
  } else {
    return _mm512_cmp_epu64_mask(reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b), predicate);
  }
}

// The mask of `compare` on the registers of two packs of T (one register for
// 32-bit T, two for 64-bit T).
template <Comparison compare, class T>
GS_INLINE Mask compare_registers(const Register<T>* a, const Register<T>* b) {
  if constexpr (sizeof(T) == 4) {
    return {compare_register<compare, T>(a[0], b[0])};
  } else {
    return {_mm512_kunpackb(compare_register<compare, T>(a[1], b[1]), compare_register<compare, T>(a[0], b[0]))};
  }
}

// Register `half` of a pack of T: `first` where the mask is set, else `second`.
template <class T>
GS_INLINE Register<T> blend(Mask m, int half, Register<T> first, Register<T> second) {
  const __m512i a = reinterpret_cast<__m512i>(second), b = reinterpret_cast<__m512i>(first);
  if constexpr (sizeof(T) == 4) {
    return reinterpret_cast<Register<T>>(_mm512_mask_blend_epi32(m.v, a, b));
  } else {
    return reinterpret_cast<Register<T>>(_mm512_mask_blend_epi64(static_cast<__mmask8>(m.v >> (8 * half)), a, b));
  }
}

GS_INLINE __m512 sqrt_register(__m512 x) { return _mm512_sqrt_ps(x); }
GS_INLINE __m512d sqrt_register(__m512d x) { return _mm512_sqrt_pd(x); }

// Conversions between registers (simd.hpp has their packs' contracts).
GS_INLINE __m256i register_half(__m512i k, int half) {
  return half == 0 ? _mm512_castsi512_si256(k) : _mm512_extracti64x4_epi64(k, 1);
}
GS_INLINE __m512 int32_to_float(__m512i k) { return _mm512_cvtepi32_ps(k); }
GS_INLINE __m512d int32_to_double(__m512i k, int half) { return _mm512_cvtepi32_pd(register_half(k, half)); }
GS_INLINE __m512i widen_words(__m512i k, int half) { return _mm512_cvtepu32_epi64(register_half(k, half)); }
GS_INLINE __m512i low_words(__m512i lanes_0_to_7, __m512i lanes_8_to_15) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lanes_0_to_7)),
                            _mm512_cvtepi64_epi32(lanes_8_to_15), 1);
}
GS_INLINE __m512 narrow_doubles(__m512d lanes_0_to_7, __m512d lanes_8_to_15) {
  return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lanes_0_to_7)), _mm512_cvtpd_ps(lanes_8_to_15), 1);
}
// Correctly rounded, as the scalar conversion and the AVX2 layer's.
GS_INLINE __m512d word64_to_double(__m512i below_2_63) { return _mm512_cvtepu64_pd(below_2_63); }
// table[k] for the lanes of register `half` of the 32-bit indices k.
GS_INLINE __m512d gather_doubles(const double* table, __m512i k, int half) {
  return _mm512_i32gather_pd(register_half(k, half), table, 8);
}
GS_INLINE __m512i gather_words(const std::uint32_t* table, __m512i k) { return _mm512_i32gather_epi32(k, table, 4); }

// a0 b0 a1 b1 … of two registers to dst (unaligned); an index's bit 4 (float)
// or 3 (double) picks b.
GS_INLINE void store_interleaved(float* dst, __m512 a, __m512 b) {
  const __m512i first = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i second = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  _mm512_storeu_ps(dst, _mm512_permutex2var_ps(a, first, b));
  _mm512_storeu_ps(dst + 16, _mm512_permutex2var_ps(a, second, b));
}
GS_INLINE void store_interleaved(double* dst, __m512d a, __m512d b) {
  const __m512i first = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
  const __m512i second = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
  _mm512_storeu_pd(dst, _mm512_permutex2var_pd(a, first, b));
  _mm512_storeu_pd(dst + 8, _mm512_permutex2var_pd(a, second, b));
}

// The 64-bit products a·multiplier of each 32-bit lane, split into their high
// and low words (Philox's round).
GS_INLINE void mulhilo(__m512i a, std::uint32_t multiplier, __m512i& hi, __m512i& lo) {
  const __m512i m = _mm512_set1_epi64(multiplier);
  const __m512i even = _mm512_mul_epu32(a, m), odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);
  lo = _mm512_mask_blend_epi32(0xaaaa, even, _mm512_slli_epi64(odd, 32));
  hi = _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(even, 32), odd);
}
