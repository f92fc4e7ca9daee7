// The results of a burst analysis under /bursts/<name> (docs/hdf5.md,
// docs/bursts.md): detection (severity per bin, runs, σ histogram), prediction
// per predictor and horizon with intervals, Algorithm 1 per decision and α
// (means with intervals, and every window's delay, runtime and total for the
// CDFs), the Monte Carlo over each ensemble's replicas against the real
// series, and the training-with-replicas experiment.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "estimators/burst_analysis.hpp"
#include "io/attributes.hpp"

namespace gs {

// Training on the real bins alone against the real bins plus replicas: F1 on
// the real scored bins per predictor and horizon, and the paired interval of
// the difference (augmented − real only).
struct AugmentationResult {
  std::string ensemble;
  std::uint64_t replicas = 0;
  double bin_seconds = 0;
  std::vector<std::size_t> horizon_bins;
  std::vector<std::string> predictors;
  std::vector<double> f1_real_only, f1_augmented, difference_low, difference_high;  // predictor-major
  std::vector<std::string> notes;  // F1 values that are non-findings (prediction_non_finding), named
};

struct MonteCarloResult {
  std::string ensemble;
  std::vector<BurstFigures> replicas;
  std::vector<FigureDistribution> distributions;  // against the real series (same options)
};

void write_burst_analysis(hid_t parent, const BurstAnalysis& analysis, const BurstAnalysisOptions& options,
                          const std::vector<Attribute>& attributes);
void write_monte_carlo(hid_t parent, const MonteCarloResult& result, const std::vector<Attribute>& attributes);
void write_augmentation(hid_t parent, const AugmentationResult& result, const std::vector<Attribute>& attributes);

}  // namespace gs
