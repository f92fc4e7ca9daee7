// From events to the series the statistics work on: counts and bytes per bin
// (all, reads, writes), inter-arrival times, and the sample ACF by FFT.
#pragma once

#include <cstddef>
#include <vector>

#include "io/trace.hpp"

namespace gs {

// Bins [start + k·w, start + (k+1)·w) from the first event to the last one;
// channels count (+ count_read/count_write when the trace has operations) and
// bytes (+ bytes_read/bytes_write) when it has sizes.
BinnedSeries bin_events(const Trace& trace, double bin_width);

// t[i+1] − t[i] of the events (of one operation when `only` is read or write).
std::vector<double> interarrival_times(const Trace& trace);
std::vector<double> interarrival_times(const Trace& trace, Operation only);

// Sample autocorrelation r(k) = c(k)/c(0), c(k) = (1/n) Σ_{t<n−k} (x_t − x̄)(x_{t+k} − x̄),
// k = 0..max_lag (max_lag < n), by zero-padded FFT. NaN beyond lag 0 for a constant series.
std::vector<double> autocorrelation(const std::vector<double>& x, std::size_t max_lag);

// Periodogram I(λ_j) = |Σ (x_t − x̄) e^{−iλ_j t}|² / (2πn) at the Fourier
// frequencies λ_j = 2πj/n, j = 1..⌊(n−1)/2⌋ (the Whittle estimators' input).
std::vector<double> periodogram(const std::vector<double>& x);

}  // namespace gs
