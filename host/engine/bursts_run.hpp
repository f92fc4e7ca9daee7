// The `bursts:` of a run (docs/bursts.md): each real series analysed
// (detection, prediction with intervals, Algorithm 1), every stored replica of
// its ensembles analysed the same way for the Monte Carlo, the predictor
// trained with replicas beside it, all written under /bursts/<name>.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "host/engine/config.hpp"
#include "host/engine/datasets.hpp"
#include "io/bursts_file.hpp"

namespace gs {

struct BurstsOutcome {
  std::string name;
  BurstAnalysisOptions options;          // as run on the real series (bins, horizons)
  BurstAnalysisOptions replica_options;  // the Monte Carlo's
  std::optional<BurstAnalysis> real;     // when the entry has a dataset
  std::vector<MonteCarloResult> monte_carlo;
  std::vector<AugmentationResult> augmented;
  double seconds = 0;
};

// Refuses, before any work, a Monte Carlo asking for more replicas than its
// ensembles will store (after --replicas; the study's fitted ensembles too).
void check_bursts_replicas(const RunConfig& config);

// Analyses every entry into `file` (open, the ensembles written already).
std::vector<BurstsOutcome> analyse_run_bursts(const RunConfig& config, const std::vector<RunDataset>& datasets,
                                              hid_t file, bool quiet);

}  // namespace gs
