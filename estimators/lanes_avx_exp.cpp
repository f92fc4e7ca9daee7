// estimators/deterministic_exp.hpp's AVX form (four values a call), compiled with
// -mavx (CMakeLists.txt) and entered only from estimators/deterministic_exp.cpp
// on a CPU that has it. Nothing here may be an inline function of a shared header (the linker
// could keep this object's copy for every caller): only intrinsics and SLEEF (build.lanes_objects).
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>
#include <cstdint>

namespace gs {
namespace avx_cinz_lanes {

// −|v|: the sign bits set.
static __m256d negative_magnitude(__m256d v) { return _mm256_or_pd(v, _mm256_set1_pd(-0.0)); }

void exp_of_negative_magnitude(const double* x, std::size_t n, double* e) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(e + i, Sleef_cinz_expd4_u10avx(negative_magnitude(_mm256_loadu_pd(x + i))));
  // The last values in a pack of their own, its unused lanes zero and discarded: a lane's bits do not
  // depend on its neighbours.
  if (i < n) {
    double in[4] = {}, out[4];
    for (std::size_t k = 0; i + k < n; ++k) in[k] = x[i + k];
    _mm256_storeu_pd(out, Sleef_cinz_expd4_u10avx(negative_magnitude(_mm256_loadu_pd(in))));
    for (std::size_t k = 0; i + k < n; ++k) e[i + k] = out[k];
  }
}

}  // namespace avx_cinz_lanes
}  // namespace gs
