#include "estimators/series.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "host/base/errors.hpp"
#include "host/base/fft.hpp"

namespace gs {

void check_series_magnitude(const std::vector<double>& series, const std::string& what) {
  const double limit = kMaxSeriesScale / static_cast<double>(series.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double x = series[i];
    if (!std::isfinite(x)) throw UserError(fmt::format("{}: value {} at index {} is not a finite number", what, x, i));
    if (!(std::fabs(x) < limit))
      throw UserError(
          fmt::format("{}: value {:.3g} at index {} is out of range; accepted: |value| < 1e150 / {} values = {:.3g}, "
                      "so that sums of squares and periodograms stay finite in double precision (rescale the series)",
                      what, x, i, series.size(), limit));
  }
}

std::vector<double> autocorrelation(const std::vector<double>& x, std::size_t max_lag) {
  const std::size_t n = x.size();
  if (n < 2 || max_lag >= n) throw UserError(fmt::format("an ACF to lag {} needs more than {} values", max_lag, n));
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(n);
  // Zero padding to ≥ n + max_lag keeps the circular correlation from wrapping.
  const auto length = static_cast<std::size_t>(fft_friendly_length(n + max_lag));
  const CpuFftPair fft(length, length);
  FftBuffer<double> signal(length);
  FftBuffer<Complex<double>> spectrum(fft.spectrum_size());
  for (std::size_t t = 0; t < length; ++t) signal.data()[t] = t < n ? x[t] - mean : 0.0;
  fft.forward(signal.data(), spectrum.data());
  for (std::size_t k = 0; k < fft.spectrum_size(); ++k) {
    const Complex<double> z = spectrum.data()[k];
    spectrum.data()[k] = Complex<double>{z.re * z.re + z.im * z.im, 0.0};
  }
  fft.inverse(spectrum.data(), signal.data());
  std::vector<double> acf(max_lag + 1, std::numeric_limits<double>::quiet_NaN());
  const double c0 = signal.data()[0];
  acf[0] = 1.0;
  if (!(c0 > 1e-300 * static_cast<double>(length))) return acf;
  for (std::size_t k = 1; k <= max_lag; ++k) acf[k] = signal.data()[k] / c0;
  return acf;
}

std::vector<double> periodogram(const std::vector<double>& x) {
  const std::size_t n = x.size();
  double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  const CpuFftPair fft(n, n);
  FftBuffer<double> signal(n);
  FftBuffer<Complex<double>> spectrum(fft.spectrum_size());
  for (std::size_t t = 0; t < n; ++t) signal.data()[t] = x[t] - mean;
  fft.forward(signal.data(), spectrum.data());
  std::vector<double> I((n - 1) / 2);
  for (std::size_t j = 1; j <= I.size(); ++j) {
    const auto z = spectrum.data()[j];
    I[j - 1] = (z.re * z.re + z.im * z.im) / (2 * kPi * static_cast<double>(n));
  }
  return I;
}

}  // namespace gs
