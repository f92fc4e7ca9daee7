// The elementary functions of the sampling kernels: `precision: accurate`
// (the default) or `precision: fast` (config key and --precision), for one
// run (its execution context, host/engine/context.hpp). Fast changes the kernels whose time is in their math (stable,
// normal, the innovations and circulant noise of the spectral models):
//   CPU  lanes (AVX2, AVX-512): SLEEF's 3.5-ulp log, sin and sin/cos of π·x instead
//        of the 1-ulp and 0.506-ulp ones (host/engine/cpu/simd.hpp); the scalar
//        path (a CPU without AVX2) has no fast form and stays accurate.
//   GPU  float32 only: the hardware approximations __expf, and __logf outside
//        [0.5, 2] where its error bound is relative (kernels/fast_math.hpp
//        says why not __sinf); float64 has none and stays accurate.
// docs/engine.md and the README give the measured deviations.
#pragma once

#include <string>

namespace gs {

enum class MathPrecision { accurate, fast };

const char* to_string(MathPrecision precision);
MathPrecision parse_math_precision(const std::string& text);  // throws UserError naming the accepted values

// What `precision` means on this build and backend, with the measured
// deviations, for the output's root attributes; `cpu_lanes`: whether the CPU
// runs lanes (the scalar path has no fast form).
std::string math_precision_note(MathPrecision precision, bool gpu, bool cpu_lanes);

}  // namespace gs
