#include "estimators/series.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "host/errors.hpp"
#include "host/fft.hpp"

namespace gs {

BinnedSeries bin_events(const Trace& trace, double bin_width) {
  if (!(bin_width > 0) || !std::isfinite(bin_width)) throw UserError("--bin must be a positive time");
  if (trace.times.empty()) throw UserError("no events to bin");
  BinnedSeries binned;
  binned.start = trace.times.front();
  binned.bin_width = bin_width;
  const double span = (trace.times.back() - binned.start) / bin_width;
  if (span > 1e9)
    throw UserError(fmt::format("--bin {} s gives {:.3g} bins over the trace; choose a wider bin", bin_width, span));
  const auto bins = static_cast<std::size_t>(std::floor(span)) + 1;
  const bool ops = !trace.ops.empty(), sizes = !trace.sizes.empty();
  // Plain vectors in the loop (one map lookup per channel, not per event); the
  // read/write index is 0/1.
  std::vector<double> count(bins, 0.0), bytes(sizes ? bins : 0, 0.0);
  std::vector<double> count_by_op[2], bytes_by_op[2];
  for (int d = 0; d < 2; ++d) {
    if (ops) count_by_op[d].assign(bins, 0.0);
    if (ops && sizes) bytes_by_op[d].assign(bins, 0.0);
  }
  for (std::size_t i = 0; i < trace.times.size(); ++i) {
    const auto k = std::min(bins - 1, static_cast<std::size_t>((trace.times[i] - binned.start) / bin_width));
    count[k] += 1;
    if (sizes) bytes[k] += trace.sizes[i];
    if (!ops || trace.ops[i] == Operation::other) continue;
    const int d = trace.ops[i] == Operation::read ? 0 : 1;
    count_by_op[d][k] += 1;
    if (sizes) bytes_by_op[d][k] += trace.sizes[i];
  }
  auto& c = binned.channels;
  c["count"] = std::move(count);
  if (sizes) c["bytes"] = std::move(bytes);
  if (ops) c["count_read"] = std::move(count_by_op[0]), c["count_write"] = std::move(count_by_op[1]);
  if (ops && sizes) c["bytes_read"] = std::move(bytes_by_op[0]), c["bytes_write"] = std::move(bytes_by_op[1]);
  return binned;
}

std::vector<double> interarrival_times(const Trace& trace) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < trace.times.size(); ++i) gaps.push_back(trace.times[i] - trace.times[i - 1]);
  return gaps;
}

std::vector<double> interarrival_times(const Trace& trace, Operation only) {
  std::vector<double> gaps;
  double previous = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < trace.times.size() && !trace.ops.empty(); ++i) {
    if (trace.ops[i] != only) continue;
    if (!std::isnan(previous)) gaps.push_back(trace.times[i] - previous);
    previous = trace.times[i];
  }
  return gaps;
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
