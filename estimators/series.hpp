// Second-order statistics of a series: the sample ACF by FFT and the
// periodogram (the Whittle estimators' input).
#pragma once

#include <cstddef>
#include <vector>

namespace gs {

// Sample autocorrelation r(k) = c(k)/c(0), c(k) = (1/n) Σ_{t<n−k} (x_t − x̄)(x_{t+k} − x̄),
// k = 0..max_lag (max_lag < n), by zero-padded FFT. NaN beyond lag 0 for a constant series.
std::vector<double> autocorrelation(const std::vector<double>& x, std::size_t max_lag);

// Periodogram I(λ_j) = |Σ (x_t − x̄) e^{−iλ_j t}|² / (2πn) at the Fourier
// frequencies λ_j = 2πj/n, j = 1..⌊(n−1)/2⌋ (the Whittle estimators' input).
std::vector<double> periodogram(const std::vector<double>& x);

}  // namespace gs
