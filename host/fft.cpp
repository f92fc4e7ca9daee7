#include "host/fft.hpp"

#include <fftw3.h>

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <utility>

#include "host/errors.hpp"

namespace gs {

template <class T>
FftBuffer<T>::FftBuffer(std::size_t count) : data_(static_cast<T*>(fftw_malloc(sizeof(T) * count))), size_(count) {
  if (!data_ && count > 0) throw std::bad_alloc();
}

template <class T>
void FftBuffer<T>::Free::operator()(T* p) const {
  fftw_free(p);
}

template class FftBuffer<double>;
template class FftBuffer<Complex<double>>;

namespace {

struct Plans {
  fftw_plan forward, inverse;
};

// FFTW's planner is not thread-safe: plans are made under this lock and kept
// for the life of the process (they are small; a run uses few sizes).
Plans cached_plans(std::size_t n) {
  static std::mutex planner_mutex;
  static std::map<std::size_t, Plans> cache;
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw UserError("the FFT length exceeds FFTW's limit of 2^31 - 1 points; shorten the series or reduce m or K");
  }
  std::lock_guard<std::mutex> lock(planner_mutex);
  const auto found = cache.find(n);
  if (found != cache.end()) return found->second;
  FftBuffer<double> real(n);
  FftBuffer<Complex<double>> spectrum(n / 2 + 1);
  auto* c = reinterpret_cast<fftw_complex*>(spectrum.data());
  const int size = static_cast<int>(n);
  const Plans plans{fftw_plan_dft_r2c_1d(size, real.data(), c, FFTW_ESTIMATE),
                    fftw_plan_dft_c2r_1d(size, c, real.data(), FFTW_ESTIMATE | FFTW_DESTROY_INPUT)};
  if (!plans.forward || !plans.inverse) {
    throw InternalError("fftw_plan_dft_r2c_1d / fftw_plan_dft_c2r_1d", "failed", __FILE__, __LINE__);
  }
  return cache.emplace(n, plans).first->second;
}

}  // namespace

CpuConvolver::CpuConvolver(std::size_t n) : n_(n) {
  const Plans plans = cached_plans(n);
  forward_ = plans.forward;
  inverse_ = plans.inverse;
}

void CpuConvolver::convolve(double* signal, const Complex<double>* kernel_spectrum, Complex<double>* scratch) const {
  auto* c = reinterpret_cast<fftw_complex*>(scratch);
  fftw_execute_dft_r2c(static_cast<fftw_plan>(forward_), signal, c);
  const std::size_t half = spectrum_size();
  for (std::size_t j = 0; j < half; ++j) scratch[j] = scratch[j] * kernel_spectrum[j];
  fftw_execute_dft_c2r(static_cast<fftw_plan>(inverse_), c, signal);
}

std::vector<Complex<double>> CpuConvolver::kernel_spectrum(const std::vector<double>& coefficients) const {
  if (coefficients.size() + 1 > n_) {
    throw InternalError("CpuConvolver::kernel_spectrum", "kernel longer than the FFT", __FILE__, __LINE__);
  }
  FftBuffer<double> padded(n_);
  FftBuffer<Complex<double>> spectrum(spectrum_size());
  std::fill(padded.data(), padded.data() + n_, 0.0);
  std::copy(coefficients.begin(), coefficients.end(), padded.data() + 1);
  fftw_execute_dft_r2c(static_cast<fftw_plan>(forward_), padded.data(), reinterpret_cast<fftw_complex*>(spectrum.data()));
  const double scale = 1.0 / static_cast<double>(n_);
  std::vector<Complex<double>> result(spectrum_size());
  for (std::size_t j = 0; j < result.size(); ++j) {
    result[j] = {spectrum.data()[j].re * scale, spectrum.data()[j].im * scale};
  }
  return result;
}

}  // namespace gs
