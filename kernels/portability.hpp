// The one place that knows which compiler the model code is under.
//
// GS_HD marks functions compiled for both the host (plain C++, OpenMP) and the
// device (nvcc). The math wrappers below resolve to the C library on the host
// and to CUDA's device math library under nvcc, for float and double, so model
// code calls gs::sin(x) and never asks where it runs.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define GS_HD __host__ __device__
#else
#define GS_HD
#endif

// Always inlined: the CPU's packs of lanes (host/engine/cpu/simd.hpp) must not
// cross a call boundary, where they would be passed through memory.
#if defined(__CUDA_ARCH__)
#define GS_INLINE __forceinline__
#else
#define GS_INLINE inline __attribute__((always_inline))
#endif

// GS_DIRECT_KERNEL(Template) at the end of a model's kernel header declares
// Template<Real, Out> a direct kernel (kernels/launch.hpp); it is empty here
// and registers the kernel's CUDA launchers in the header's CUDA build
// (kernels/cuda/launch.cuh).
#ifndef GS_DIRECT_KERNEL
#define GS_DIRECT_KERNEL(Template)
#endif

namespace gs {

// Float and double overloads of the elementary functions the models use.
// ::sinf etc. are declared for device code by the CUDA headers and are the C
// library functions on the host.
#define GS_MATH_UNARY(name)                                    \
  GS_HD GS_INLINE float name(float x) { return ::name##f(x); } \
  GS_HD GS_INLINE double name(double x) { return ::name(x); }
GS_MATH_UNARY(sin)
GS_MATH_UNARY(cos)
GS_MATH_UNARY(exp)
GS_MATH_UNARY(expm1)
GS_MATH_UNARY(log)
GS_MATH_UNARY(log1p)
GS_MATH_UNARY(log2)
GS_MATH_UNARY(log10)
GS_MATH_UNARY(tgamma)
GS_MATH_UNARY(sqrt)
GS_MATH_UNARY(floor)
GS_MATH_UNARY(fabs)
#undef GS_MATH_UNARY
GS_HD GS_INLINE float pow(float x, float y) { return ::powf(x, y); }
GS_HD GS_INLINE double pow(double x, double y) { return ::pow(x, y); }

// sin(πx) and cos(πx): CUDA's sinpi/cospi need no range reduction; the host
// uses sin(π·x), whose rounding of π·x costs one ulp (callers keep |x| ≤ 1/2).
#if defined(__CUDA_ARCH__)
GS_HD GS_INLINE float sinpi(float x) { return ::sinpif(x); }
GS_HD GS_INLINE double sinpi(double x) { return ::sinpi(x); }
GS_HD GS_INLINE float cospi(float x) { return ::cospif(x); }
GS_HD GS_INLINE double cospi(double x) { return ::cospi(x); }
#else
GS_HD GS_INLINE float sinpi(float x) { return ::sinf(3.14159265358979323846f * x); }
GS_HD GS_INLINE double sinpi(double x) { return ::sin(3.14159265358979323846 * x); }
GS_HD GS_INLINE float cospi(float x) { return ::cosf(3.14159265358979323846f * x); }
GS_HD GS_INLINE double cospi(double x) { return ::cos(3.14159265358979323846 * x); }
#endif

// sin(πx) and cos(πx) together (one call in a CPU pack).
template <class Real>
struct SinCos {
  Real sin, cos;
};
GS_HD GS_INLINE SinCos<float> sincospi(float x) { return {gs::sinpi(x), gs::cospi(x)}; }
GS_HD GS_INLINE SinCos<double> sincospi(double x) { return {gs::sinpi(x), gs::cospi(x)}; }

GS_HD GS_INLINE float copysign(float x, float s) { return ::copysignf(x, s); }
GS_HD GS_INLINE double copysign(double x, double s) { return ::copysign(x, s); }

// Largest finite value of the compute or storage type (numeric_limits is not
// usable in device code without relaxed constexpr).
template <class T>
struct FiniteMax;
template <>
struct FiniteMax<float> {
  static constexpr float value = 3.40282347e+38f;
};
template <>
struct FiniteMax<double> {
  static constexpr double value = 1.7976931348623157e+308;
};

// log(FiniteMax): exp() of anything above overflows.
template <class T>
struct LogFiniteMax;
template <>
struct LogFiniteMax<float> {
  static constexpr float value = 88.7228391f;
};
template <>
struct LogFiniteMax<double> {
  static constexpr double value = 709.782712893384;
};

constexpr double kPi = 3.14159265358979323846;

}  // namespace gs
