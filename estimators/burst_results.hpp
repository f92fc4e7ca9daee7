// The results of one `bursts:` entry (docs/bursts.md) as the engine hands them
// to the writer (io/bursts_file.hpp) and to the tables the CLI prints: the
// real series' analysis, the Monte Carlo over each ensemble's replicas and the
// training with replicas. Plain values; no file layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "estimators/burst_analysis.hpp"

namespace gs {

// Every stored replica of an ensemble analysed as the real series is (bytes
// alone): each replica's figures and their distributions against the real
// series' (same options), on the figures' axes.
struct MonteCarloResult {
  std::string ensemble;
  std::vector<BurstFigures> replicas;
  BurstFiguresSummary summary;
  std::uint64_t unconverged_fits = 0, replicas_with_unconverged_fits = 0;  // logistic fits that stopped at the cap
};

// Training on the real bins alone against the real bins plus replicas: F1 on
// the real scored bins per predictor and horizon, and the paired interval of
// the difference (augmented − real only).
struct AugmentedF1 {
  double real_only = 0, augmented = 0, difference_low = 0, difference_high = 0;
};
struct AugmentationResult {
  std::string ensemble;
  std::uint64_t replicas = 0;
  double bin_seconds = 0;
  std::vector<std::size_t> horizon_bins;  // the axis `horizon`
  std::vector<std::string> predictors;    // the axis `predictor`
  std::vector<AugmentedF1> cells;         // [predictor, horizon]: use at()
  std::vector<std::string> notes;         // F1 values that are non-findings (prediction_non_finding), named

  void resize_cells() { cells.assign(predictors.size() * horizon_bins.size(), AugmentedF1{}); }
  AugmentedF1& at(std::size_t predictor, std::size_t horizon) {
    return cells[predictor * horizon_bins.size() + horizon];
  }
  const AugmentedF1& at(std::size_t predictor, std::size_t horizon) const {
    return cells[predictor * horizon_bins.size() + horizon];
  }
};

struct BurstsOutcome {
  std::string name;
  std::string dataset;        // the real series' dataset ("" when the entry has none)
  bool all_channels = false;  // bytes, operations and I/O time of the dataset's bins, or its series alone
  std::uint64_t seed = 0;
  BurstAnalysisOptions options;          // as run on the real series (bins, horizons)
  BurstAnalysisOptions replica_options;  // the Monte Carlo's
  std::optional<BurstAnalysis> real;     // when the entry has a dataset
  std::vector<MonteCarloResult> monte_carlo;
  std::vector<AugmentationResult> augmented;
  double seconds = 0;
};

}  // namespace gs
