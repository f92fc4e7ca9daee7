// A complex number laid out as FFTW's and cuFFT's (two adjacent reals), so the
// spectrum buffers of both backends are one type.
#pragma once

#include "portability.hpp"

namespace gs {

template <class Real>
struct Complex {
  Real re;
  Real im;
};

template <class Real>
GS_HD GS_INLINE Complex<Real> operator*(Complex<Real> a, Complex<Real> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

}  // namespace gs
