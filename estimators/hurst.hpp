// Hurst exponent estimators (docs/statistics.md). The first five
// are second-order methods: on Gaussian long-range dependent data they measure
// H, but on α-stable LFSN (α < 2) they measure about H − 1/α + 1/2. `stable`
// (log-moments of Haar wavelet coefficients) measures the self-similarity
// index H itself, with or without a finite variance.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "kernels/hurst.hpp"

namespace gs {

struct HurstEstimate {
  double H = std::numeric_limits<double>::quiet_NaN();
  double se = std::numeric_limits<double>::quiet_NaN();  // standard error (see each estimator)
  // The diagnostic plot the estimate comes from (pox plot, variance–time plot, …):
  // x = log10 of the scale, y = log10 of the statistic, and the fitted line.
  std::vector<double> log_scale, log_statistic;
  double slope = std::numeric_limits<double>::quiet_NaN();
  double intercept = std::numeric_limits<double>::quiet_NaN();
  std::string note;  // why H is NaN, or what to keep in mind
  // H on an edge of what the estimator can say (Whittle's beyond (0.02, 0.98),
  // local Whittle's d ≥ 0.49): the series is not what it assumes (the note says how).
  bool at_edge = false;
};

// Each estimator's formulas are in kernels/hurst.hpp, shared with the device.

// R/S analysis (Mandelbrot–Wallis; the pox plot of Taqqu, Teverovsky and
// Willinger): K = 10 equally spaced starting points, 20 block sizes d
// log-spaced in [10, n/2], R/S of every block that fits, H = the least-squares
// slope of log R/S on log d over all points. se: the slope's OLS standard error.
HurstEstimate hurst_rescaled_range(const std::vector<double>& x);

// Aggregated variance: the variance of block means over 20 block sizes m
// log-spaced in [4, n/10]; H = 1 + slope/2.
HurstEstimate hurst_aggregated_variance(const std::vector<double>& x);

// Detrended fluctuation analysis of order 1: the RMS residual F(s) of linear
// fits to the profile in boxes of 20 sizes s log-spaced in [8, n/4]; H = slope.
HurstEstimate hurst_dfa(const std::vector<double>& x);

// Whittle's estimator for fractional Gaussian noise: the profiled Whittle
// likelihood over the Fourier frequencies with fGn's exact spectral density;
// se from the asymptotic (Fisher) variance.
HurstEstimate hurst_whittle(const std::vector<double>& x);

// Robinson's local Whittle estimator on the m = ⌊n^0.65⌋ lowest frequencies;
// H = d + 1/2, se = 1/(2√m).
HurstEstimate hurst_local_whittle(const std::vector<double>& x);

// Valid under infinite variance (Stoev, Pipiras and Taqqu's log-wavelet idea
// with the Haar wavelet): the mean of log2|D(j,k)| of the Haar coefficients
// grows by H per octave whatever α is. Weighted LS over the octaves j = 3..
// with ≥ 16 coefficients (fewer octaves for short series); se: the weighted
// fit's, from the spread of log2|D| at each octave.
HurstEstimate hurst_stable(const std::vector<double>& x);

// Every estimator by its key (the JSON keys of `stats`): rs, aggvar, dfa,
// whittle, local_whittle, stable.
using HurstEstimator = HurstEstimate (*)(const std::vector<double>&);
struct NamedHurstEstimator {
  const char* key;
  HurstEstimator estimate;
  HurstMethod method;  // what the device runs (host/engine/cuda/cuda_hurst.cu)
};
const std::vector<NamedHurstEstimator>& hurst_estimators();
const NamedHurstEstimator* find_hurst_estimator(const std::string& key);  // nullptr when unknown
std::vector<std::string> hurst_estimator_keys();

}  // namespace gs
