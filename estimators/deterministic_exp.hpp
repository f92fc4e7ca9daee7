// exp(−|x|) for many values (the logistic likelihood's e, from which p =
// 1/(1 + e) or e/(1 + e)) and log1p, by SLEEF's deterministic functions
// without fused multiply-adds (Sleef_cinz_*, 1.0 ulp). Those give the same bits
// on every CPU and at every vector width, so a logistic fit does too; the C
// library's exp and log1p do not promise that (glibc picks FMA forms on CPUs
// that have them). The widest form this CPU runs is taken: AVX-512 (eight
// values a call), AVX (four), SSE2 (two) on x86-64, SLEEF's portable C (one)
// elsewhere. The AVX-512 and AVX forms are compiled in objects of their own
// (estimators/lanes_avx*_exp.cpp), entered only here, after the CPU says it
// has them.
#pragma once

#include <cstddef>

namespace gs {

enum class VectorForm { portable, sse2, avx, avx512 };
const char* to_string(VectorForm form);

// The widest form this CPU runs.
VectorForm widest_vector_form();

// e[i] = exp(−|x[i]|) for i < n, in the widest form.
void exp_of_negative_magnitude(const double* x, std::size_t n, double* e);

// The same in a given form; false (nothing written) where this CPU lacks it.
bool exp_of_negative_magnitude_in_form(VectorForm form, const double* x, std::size_t n, double* e);

// out[i] = log1p(x[i]) for i < n, in the widest form (the portable form's bits).
void log1p_of(const double* x, std::size_t n, double* out);

// The same in a given form; false (nothing written) where this CPU lacks it.
bool log1p_of_in_form(VectorForm form, const double* x, std::size_t n, double* out);

}  // namespace gs
