// The AVX form of estimators/deterministic_exp.hpp and its log1p (four values a call), compiled with -mavx.
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>

#define GS_LANES 4
#define GS_LOAD _mm256_loadu_pd
#define GS_STORE _mm256_storeu_pd
#define GS_EXP Sleef_cinz_expd4_u10avx
#define GS_LOG1P Sleef_cinz_log1pd4_u10avx

namespace gs {
namespace avx_cinz_lanes {

static __m256d negative_magnitude(__m256d v) { return _mm256_or_pd(v, _mm256_set1_pd(-0.0)); }

#include "estimators/lanes_exp.inc"

}  // namespace avx_cinz_lanes
}  // namespace gs
