#include "estimators/deterministic_exp.hpp"

#include <sleef.h>

#include <cmath>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace gs {

// The wider forms, each in its own object compiled for its instruction set.
namespace avx_cinz_lanes {
void exp_of_negative_magnitude(const double* x, std::size_t n, double* e);
void log1p_of(const double* x, std::size_t n, double* out);
}
namespace avx512_cinz_lanes {
void exp_of_negative_magnitude(const double* x, std::size_t n, double* e);
void log1p_of(const double* x, std::size_t n, double* out);
}

namespace {

void portable_exp(const double* x, std::size_t n, double* e) {
  for (std::size_t i = 0; i < n; ++i) e[i] = Sleef_cinz_expd1_u10purec(-std::fabs(x[i]));
}

void portable_log1p(const double* x, std::size_t n, double* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = Sleef_cinz_log1pd1_u10purec(x[i]);
}

#if defined(__x86_64__)
void sse2_exp(const double* x, std::size_t n, double* e) {
  const __m128d sign = _mm_set1_pd(-0.0);
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) _mm_storeu_pd(e + i, Sleef_cinz_expd2_u10sse2(_mm_or_pd(_mm_loadu_pd(x + i), sign)));
  portable_exp(x + i, n - i, e + i);  // the same bits as a pack's lane
}

void sse2_log1p(const double* x, std::size_t n, double* out) {
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) _mm_storeu_pd(out + i, Sleef_cinz_log1pd2_u10sse2(_mm_loadu_pd(x + i)));
  portable_log1p(x + i, n - i, out + i);
}
#endif

// One function's forms; run_in_form calls the one asked for.
using ValuesFunction = void (*)(const double* x, std::size_t n, double* out);
struct FormsOf {
  ValuesFunction portable, sse2, avx, avx512;
};
#if defined(__x86_64__)
constexpr FormsOf kExp{portable_exp, sse2_exp, avx_cinz_lanes::exp_of_negative_magnitude,
                       avx512_cinz_lanes::exp_of_negative_magnitude};
constexpr FormsOf kLog1p{portable_log1p, sse2_log1p, avx_cinz_lanes::log1p_of, avx512_cinz_lanes::log1p_of};
#else
constexpr FormsOf kExp{portable_exp, portable_exp, portable_exp, portable_exp};
constexpr FormsOf kLog1p{portable_log1p, portable_log1p, portable_log1p, portable_log1p};
#endif

bool run_in_form(const FormsOf& forms, VectorForm form, const double* x, std::size_t n, double* out) {
  if (form > widest_vector_form()) return false;
  switch (form) {
    case VectorForm::avx512:
      forms.avx512(x, n, out);
      break;
    case VectorForm::avx:
      forms.avx(x, n, out);
      break;
    case VectorForm::sse2:
      forms.sse2(x, n, out);
      break;
    case VectorForm::portable:
      forms.portable(x, n, out);
      break;
  }
  return true;
}

}  // namespace

const char* to_string(VectorForm form) {
  switch (form) {
    case VectorForm::portable: return "portable C";
    case VectorForm::sse2: return "SSE2";
    case VectorForm::avx: return "AVX";
    case VectorForm::avx512: return "AVX-512";
  }
  return "?";
}

VectorForm widest_vector_form() {
#if defined(__x86_64__)
  static const VectorForm widest = __builtin_cpu_supports("avx512f") ? VectorForm::avx512
                                   : __builtin_cpu_supports("avx")   ? VectorForm::avx
                                                                     : VectorForm::sse2;
  return widest;
#else
  return VectorForm::portable;
#endif
}

bool exp_of_negative_magnitude_in_form(VectorForm form, const double* x, std::size_t n, double* e) {
  return run_in_form(kExp, form, x, n, e);
}

void exp_of_negative_magnitude(const double* x, std::size_t n, double* e) {
  exp_of_negative_magnitude_in_form(widest_vector_form(), x, n, e);
}

bool log1p_of_in_form(VectorForm form, const double* x, std::size_t n, double* out) {
  return run_in_form(kLog1p, form, x, n, out);
}

void log1p_of(const double* x, std::size_t n, double* out) { log1p_of_in_form(widest_vector_form(), x, n, out); }

}  // namespace gs
