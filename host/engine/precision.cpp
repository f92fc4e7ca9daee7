#include "host/engine/precision.hpp"

#include <fmt/format.h>

#include "host/base/errors.hpp"

namespace gs {

const char* to_string(MathPrecision precision) { return precision == MathPrecision::fast ? "fast" : "accurate"; }

MathPrecision parse_math_precision(const std::string& text) {
  if (text == "accurate") return MathPrecision::accurate;
  if (text == "fast") return MathPrecision::fast;
  throw UserError(fmt::format("precision '{}' is not accepted; accepted: accurate, fast", text));
}

std::string math_precision_note(MathPrecision precision, bool gpu, bool cpu_lanes) {
  if (precision == MathPrecision::accurate) {
    return "accurate: the sampling kernels' elementary functions are SLEEF's deterministic 1-ulp and 0.506-ulp "
           "functions on the CPU's lanes, the C library's on its scalar path, CUDA's (1 to 2 ulp) on the GPU";
  }
  if (gpu) {
    return "fast (GPU): float32 kernels use the hardware approximations __expf, and __logf outside [0.5, 2]; "
           "float64 kernels have none and stay accurate. Measured on an H100 with 1e7 draws per law: largest "
           "deviation 3.34 standard errors over Nolan's S0 quantiles and 2.16 over the normal quantiles, as "
           "accurate; but 0.91x accurate's speed there (docs/engine.md): on the GPU, accurate is the faster.";
  }
  if (!cpu_lanes) {
    return "fast requested, but this CPU runs the scalar path, which has no fast form: values are accurate";
  }
  return "fast (CPU lanes): SLEEF's 3.5-ulp log, sin and sincospi instead of the 1-ulp and 0.506-ulp ones. "
         "Measured with 1e7 draws per law (tests/cpu/test_precision.cpp), float32 and float64: largest deviation "
         "3.72 standard errors over 5472 points of Nolan's S0 quantiles (32 laws, p from 1e-5 to 1 - 1e-5) and "
         "2.17 over 342 normal quantiles, the same as precision accurate in float32; values differ from accurate "
         "ones by a few ulp (tests/cpu/test_lanes.cpp bounds it).";
}

}  // namespace gs
