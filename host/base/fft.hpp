// Real FFTs on the CPU (FFTW, double precision) for convolutions kept at every
// m-th point: a forward transform of length n and an inverse one of length
// n/m (the spectrum is folded in between, kernels/spectral.hpp). Plans are made
// with FFTW_ESTIMATE, which is deterministic: the same input gives the same
// bits in every run. ESTIMATE's plans run 1.3-1.9x slower than those FFTW
// measures (FFTW_MEASURE), whose choice depends on timings and so changes the
// bits from run to run; wisdom (`gpusynth fft-wisdom`) keeps measured plans in
// a file, and an ESTIMATE plan made with that wisdom loaded is the measured
// one, the same in every run that loads the file. Plans are cached for the
// process per (size, direction, wisdom).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
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

// Wisdom as read from a file (host/engine/config.cpp reads and checks it).
struct FftWisdom {
  std::string path;    // as given
  std::string text;    // FFTW's wisdom format
  std::string sha256;  // of the file
};

// One transform of the CPU's spectral generation: r2c of n points (forward)
// or c2r of n points (inverse, its input destroyed).
struct FftProblem {
  std::size_t n = 0;
  bool forward = false;
  bool operator<(const FftProblem& o) const { return n != o.n ? n < o.n : forward < o.forward; }
  bool operator==(const FftProblem& o) const { return n == o.n && forward == o.forward; }
};
std::string to_string(const FftProblem& problem);  // "r2c 1053696", "c2r 65856"

// FFTW's version and build ("fftw-3.3.10-sse2-avx").
std::string fftw_version_text();

// Whether this FFTW reads `text` as its wisdom (wisdom of another FFTW
// version or build is refused).
bool fftw_accepts_wisdom(const std::string& text);

// `base` (wisdom text, may be empty) with a plan measured for every problem
// (FFTW_MEASURE, or FFTW_PATIENT: slower to make, sometimes faster to run).
std::string measure_fft_wisdom(const std::vector<FftProblem>& problems, const std::string& base, bool patient);

// Whether `wisdom` holds a plan for `problem` (CpuFftPair then runs it);
// false without wisdom.
bool wisdom_has_plan(const FftWisdom* wisdom, const FftProblem& problem);

// The plan CpuFftPair runs for `problem` with `wisdom` (null: none), as FFTW
// prints it: equal texts, equal arithmetic.
std::string fft_plan_text(const FftProblem& problem, const FftWisdom* wisdom);

class CpuFftPair {
 public:
  // `wisdom` (may be null) must outlive the pair's use of it only while the
  // constructor runs: the plans are kept in the process's cache.
  CpuFftPair(std::size_t n, std::size_t inverse_n, const FftWisdom* wisdom = nullptr);
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
