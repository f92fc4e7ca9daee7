// Second-order statistics of a series: the sample ACF by FFT and the
// periodogram (the Whittle estimators' input), and the range of values every
// estimator of gpusynth accepts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gs {

// The estimators square and sum a series (variances, ACFs, periodograms up to
// (n·max|x|)², the burst features' sums of squares): every value must be
// finite and below kMaxSeriesScale / n in magnitude, n the series' length.
// UserError naming `what`, the first value outside and its index, and the
// accepted range otherwise. Every way into the estimators calls it: a trace's
// series (io/series_source.cpp), the Python module's arrays, each burst channel.
constexpr double kMaxSeriesScale = 1e150;
void check_series_magnitude(const std::vector<double>& series, const std::string& what);

// Sample autocorrelation r(k) = c(k)/c(0), c(k) = (1/n) Σ_{t<n−k} (x_t − x̄)(x_{t+k} − x̄),
// k = 0..max_lag (max_lag < n), by zero-padded FFT. NaN beyond lag 0 for a constant series.
std::vector<double> autocorrelation(const std::vector<double>& x, std::size_t max_lag);

// Periodogram I(λ_j) = |Σ (x_t − x̄) e^{−iλ_j t}|² / (2πn) at the Fourier
// frequencies λ_j = 2πj/n, j = 1..⌊(n−1)/2⌋ (the Whittle estimators' input).
std::vector<double> periodogram(const std::vector<double>& x);

}  // namespace gs
