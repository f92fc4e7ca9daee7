// precision: fast on the GPU (host/engine/precision.hpp): the generic formulas
// of kernels/ run on one lane whose exp is the hardware approximation __expf,
// and whose log is __logf outside [0.5, 2], where a float32 lane is on the
// device. Both keep a relative error bound there (CUDA: 2 + 1.17·|x| ulp and
// 3 ulp). Inside [0.5, 2] __logf errs by 2^-21.41 absolutely, which would
// wreck −ln(1 − d) for small d (the exponential of an upper-half word: W ≤ 0,
// then NaN), so there it is logf; and __sinf errs absolutely on all of
// [−π, π], which would flip the sign of sin(α(V + ξ)) near its zeros (values
// outside a β = ±1 law's support), so sin stays sinf. Everything else (sqrt,
// sin/cos of π·x, log1p, expm1, the arithmetic) is the scalar path's, and
// float64 has no hardware approximations, so a float64 lane is the scalar
// path. On the host a lane calls the scalar path's functions, so it gives the
// scalar path's bits (tests/unit/test_fast_math.cpp).
//
// The lane types are FastWord (a Philox word), FastReal<Real> (a value) and
// bool (a mask), tied together by Lanes<FastWord, Real> (kernels/lanes.hpp).
// A kernel that supports fast math has `template <class Words> at(row,
// column, tally)`, its operator() being at<PhiloxBits>; WithFastMath runs
// at<FastPhiloxWords>.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lanes.hpp"
#include "philox.hpp"
#include "portability.hpp"
#include "workload.hpp"

namespace gs {

struct FastWord {
  std::uint32_t v;
  GS_HD explicit FastWord(std::uint32_t x) : v(x) {}
  friend GS_HD GS_INLINE FastWord operator~(FastWord a) { return FastWord(~a.v); }
  friend GS_HD GS_INLINE FastWord operator>>(FastWord a, int s) { return FastWord(a.v >> s); }
  friend GS_HD GS_INLINE bool operator!=(FastWord a, FastWord b) { return a.v != b.v; }
};

template <class Real>
struct FastReal {
  Real v;
  FastReal() = default;
  template <class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>
  GS_HD explicit FastReal(S x) : v(static_cast<Real>(x)) {}

  friend GS_HD GS_INLINE FastReal operator+(FastReal a, FastReal b) { return FastReal(a.v + b.v); }
  friend GS_HD GS_INLINE FastReal operator-(FastReal a, FastReal b) { return FastReal(a.v - b.v); }
  friend GS_HD GS_INLINE FastReal operator*(FastReal a, FastReal b) { return FastReal(a.v * b.v); }
  friend GS_HD GS_INLINE FastReal operator/(FastReal a, FastReal b) { return FastReal(a.v / b.v); }
  friend GS_HD GS_INLINE FastReal operator-(FastReal a) { return FastReal(-a.v); }
  friend GS_HD GS_INLINE FastReal operator+(Real a, FastReal b) { return FastReal(a + b.v); }
  friend GS_HD GS_INLINE FastReal operator*(Real a, FastReal b) { return FastReal(a * b.v); }
  friend GS_HD GS_INLINE FastReal operator+(FastReal a, Real b) { return FastReal(a.v + b); }
  friend GS_HD GS_INLINE FastReal operator-(FastReal a, Real b) { return FastReal(a.v - b); }
  friend GS_HD GS_INLINE bool operator<(FastReal a, FastReal b) { return a.v < b.v; }
  friend GS_HD GS_INLINE bool operator>(FastReal a, FastReal b) { return a.v > b.v; }
  friend GS_HD GS_INLINE bool operator<=(FastReal a, FastReal b) { return a.v <= b.v; }
  friend GS_HD GS_INLINE bool operator==(FastReal a, FastReal b) { return a.v == b.v; }

  // The two functions precision fast changes.
  friend GS_HD GS_INLINE FastReal log(FastReal x) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same<Real, float>::value) {
      if (!(x.v >= 0.5f && x.v <= 2.0f)) return FastReal(__logf(x.v));
    }
#endif
    return FastReal(gs_scalar_log(x.v));
  }
  friend GS_HD GS_INLINE FastReal exp(FastReal x) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same<Real, float>::value) return FastReal(__expf(x.v));
#endif
    return FastReal(gs_scalar_exp(x.v));
  }
  // The rest as the scalar path's.
  friend GS_HD GS_INLINE FastReal sin(FastReal x) { return FastReal(gs_scalar_sin(x.v)); }
  friend GS_HD GS_INLINE FastReal log1p(FastReal x) { return FastReal(gs_scalar_log1p(x.v)); }
  friend GS_HD GS_INLINE FastReal expm1(FastReal x) { return FastReal(gs_scalar_expm1(x.v)); }
  friend GS_HD GS_INLINE FastReal sqrt(FastReal x) { return FastReal(gs_scalar_sqrt(x.v)); }
  friend GS_HD GS_INLINE FastReal fabs(FastReal x) { return FastReal(gs_scalar_fabs(x.v)); }
  friend GS_HD GS_INLINE FastReal copysign(FastReal m, FastReal s) { return FastReal(gs_scalar_copysign(m.v, s.v)); }
  friend GS_HD GS_INLINE FastReal sinpi(FastReal x) { return FastReal(gs::sinpi(x.v)); }
  friend GS_HD GS_INLINE FastReal cospi(FastReal x) { return FastReal(gs::cospi(x.v)); }
  friend GS_HD GS_INLINE SinCos<FastReal> sincospi(FastReal x) {
    const SinCos<Real> r = gs::sincospi(x.v);
    return {FastReal(r.sin), FastReal(r.cos)};
  }

 private:
  // The scalar path's functions, by the same unqualified names as the
  // formulas call them with (a hidden friend of this class is not among them).
  GS_HD static Real gs_scalar_log(Real x) { return log(x); }
  GS_HD static Real gs_scalar_sin(Real x) { return sin(x); }
  GS_HD static Real gs_scalar_exp(Real x) { return exp(x); }
  GS_HD static Real gs_scalar_log1p(Real x) { return log1p(x); }
  GS_HD static Real gs_scalar_expm1(Real x) { return expm1(x); }
  GS_HD static Real gs_scalar_sqrt(Real x) { return sqrt(x); }
  GS_HD static Real gs_scalar_fabs(Real x) { return fabs(x); }
  GS_HD static Real gs_scalar_copysign(Real m, Real s) { return copysign(m, s); }
};

template <class Real>
struct Lanes<FastWord, Real> {
  using real = FastReal<Real>;
  using wide = double;
  using word64 = std::uint64_t;
  using mask = bool;
};

template <class R>
GS_HD GS_INLINE R word_to_real(FastWord below_2_31) {
  return R(static_cast<std::int32_t>(below_2_31.v));
}
GS_HD GS_INLINE double word_to_double(FastWord k) { return static_cast<double>(k.v); }
GS_HD GS_INLINE std::uint64_t widen(FastWord k) { return k.v; }

template <class Real>
GS_HD GS_INLINE Real value_of(FastReal<Real> x) {
  return x.v;
}
template <class Real>
GS_HD GS_INLINE Real value_of(Real x) {
  return x;
}

// The four words of a Philox call as fast lanes.
struct FastPhiloxWords {
  PhiloxBits bits;
  GS_HD explicit FastPhiloxWords(const PhiloxBits& r) : bits(r) {}
  GS_HD FastWord operator[](int i) const { return FastWord(bits[i]); }
};

// A kernel with at<Words> (see above), run with the fast lanes.
template <class Kernel>
struct WithFastMath {
  Kernel kernel;
  GS_HD std::uint64_t columns() const { return kernel.columns(); }
  GS_HD void operator()(std::uint64_t row, std::uint64_t column, StoreTally& tally) const {
    kernel.template at<FastPhiloxWords>(row, column, tally);
  }
};

}  // namespace gs
