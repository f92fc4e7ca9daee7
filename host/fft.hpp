// Real FFTs on the CPU (FFTW, double precision), behind the one operation the
// models need: circular convolution of a real signal with a kernel whose
// spectrum was computed once. Plans are made with FFTW_ESTIMATE —
// deterministic, so the same input gives the same bits in every run — and
// cached for the process.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "kernels/complex.hpp"

namespace gs {

// Aligned storage from fftw_malloc: FFTW's new-array execution requires the
// alignment the plan was made with.
template <class T>
class FftBuffer {
 public:
  FftBuffer() = default;
  explicit FftBuffer(std::size_t count);
  T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const;
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

class CpuConvolver {
 public:
  explicit CpuConvolver(std::size_t n);  // n real points, n/2 + 1 complex
  std::size_t size() const { return n_; }
  std::size_t spectrum_size() const { return n_ / 2 + 1; }

  // signal ← signal ⊛ kernel (circular), with `kernel_spectrum` already scaled
  // by 1/n. `scratch` holds spectrum_size() values. Thread-safe for distinct
  // buffers from FftBuffer.
  void convolve(double* signal, const Complex<double>* kernel_spectrum, Complex<double>* scratch) const;

  // Spectrum of the kernel g[k] = coefficients[k − 1] (k = 1..K, g[0] = 0)
  // zero-padded to n points and scaled by 1/n.
  std::vector<Complex<double>> kernel_spectrum(const std::vector<double>& coefficients) const;

 private:
  std::size_t n_;
  void* forward_;
  void* inverse_;
};

}  // namespace gs
