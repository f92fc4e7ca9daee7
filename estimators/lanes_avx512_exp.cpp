// estimators/deterministic_exp.hpp's AVX-512 form (eight values a call), compiled with
// -mavx512f (CMakeLists.txt) and entered only from estimators/deterministic_exp.cpp
// on a CPU that has it. Nothing here may be an inline function of a shared header (the linker
// could keep this object's copy for every caller): only intrinsics and SLEEF (build.lanes_objects).
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>
#include <cstdint>

namespace gs {
namespace avx512_cinz_lanes {

// −|v|: the sign bits set.
static __m512d negative_magnitude(__m512d v) { return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(INT64_MIN))); }

void exp_of_negative_magnitude(const double* x, std::size_t n, double* e) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(e + i, Sleef_cinz_expd8_u10avx512fnofma(negative_magnitude(_mm512_loadu_pd(x + i))));
  // The last values in a pack of their own, its unused lanes zero and discarded: a lane's bits do not
  // depend on its neighbours.
  if (i < n) {
    double in[8] = {}, out[8];
    for (std::size_t k = 0; i + k < n; ++k) in[k] = x[i + k];
    _mm512_storeu_pd(out, Sleef_cinz_expd8_u10avx512fnofma(negative_magnitude(_mm512_loadu_pd(in))));
    for (std::size_t k = 0; i + k < n; ++k) e[i + k] = out[k];
  }
}

}  // namespace avx512_cinz_lanes
}  // namespace gs
