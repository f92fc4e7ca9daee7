// Real FFTs on the CPU (FFTW, double precision) for convolutions kept at every
// m-th point: a forward transform of length n and an inverse one of length
// n/m (the spectrum is folded in between, kernels/spectral.hpp). Plans are made
// with FFTW_ESTIMATE — deterministic, so the same input gives the same bits in
// every run — and cached for the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/complex.hpp"

namespace gs {

// Smallest n ≥ minimum whose prime factors are all in {2, 3, 5, 7}.
std::uint64_t fft_friendly_length(std::uint64_t minimum);

// UserError when FFTW cannot transform `n` points (more than 2^31 - 1).
void require_fft_length(std::uint64_t n);

// The full linear convolution of a and b (length |a| + |b| − 1), by FFT.
std::vector<double> linear_convolution(const std::vector<double>& a, const std::vector<double>& b);

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

class CpuFftPair {
 public:
  CpuFftPair(std::size_t n, std::size_t inverse_n);
  std::size_t size() const { return n_; }
  std::size_t spectrum_size() const { return n_ / 2 + 1; }
  std::size_t inverse_spectrum_size() const { return inverse_n_ / 2 + 1; }

  // Thread-safe for distinct buffers from FftBuffer (FFTW's new-array execute).
  void forward(double* signal, Complex<double>* spectrum) const;  // n → n/2 + 1
  void inverse(Complex<double>* spectrum, double* signal) const;  // inverse_n/2 + 1 → inverse_n

  // Spectrum of the kernel g[k] = coefficients[k − 1] (k = 1..K, g[0] = 0)
  // zero-padded to n points and scaled by 1/n.
  std::vector<Complex<double>> kernel_spectrum(const std::vector<double>& coefficients) const;

 private:
  std::size_t n_, inverse_n_;
  void* forward_;
  void* inverse_;
};

}  // namespace gs
