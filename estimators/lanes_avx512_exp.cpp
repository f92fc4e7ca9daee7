// The AVX-512 form of estimators/deterministic_exp.hpp and its log1p (eight values a call), compiled with -mavx512f.
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>
#include <cstdint>

#define GS_LANES 8
#define GS_LOAD _mm512_loadu_pd
#define GS_STORE _mm512_storeu_pd
#define GS_EXP Sleef_cinz_expd8_u10avx512fnofma
#define GS_LOG1P Sleef_cinz_log1pd8_u10avx512fnofma

namespace gs {
namespace avx512_cinz_lanes {

// −|v|: the sign bits set (AVX-512 F has no floating-point or).
static __m512d negative_magnitude(__m512d v) {
  return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(INT64_MIN)));
}

#include "estimators/lanes_exp.inc"

}  // namespace avx512_cinz_lanes
}  // namespace gs
