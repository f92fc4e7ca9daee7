// The `bursts:` of a run (docs/bursts.md): each real series analysed
// (detection, prediction with intervals, Algorithm 1), every stored replica of
// its ensembles analysed the same way for the Monte Carlo, the predictor
// trained with replicas beside it (written under /bursts/<name> by io/bursts_file.hpp).
#pragma once

#include <string>
#include <vector>

#include "estimators/burst_results.hpp"
#include "host/engine/config.hpp"
#include "host/engine/datasets.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

// Refuses, before any work, a Monte Carlo asking for more replicas than its
// ensembles will store (after --replicas; the study's fitted ensembles too).
void check_bursts_replicas(const RunConfig& config);

// Analyses every entry, reading the replicas from `file` (open, the
// ensembles written already); io/bursts_file.hpp writes the outcomes. Under
// MPI every rank calls it, `file` is rank 0's and null on the others: the
// Monte Carlo's replicas are split across the ranks (contiguous shares of
// each read, figures gathered on rank 0), the real series and the training
// with replicas stay on rank 0, and only rank 0's outcomes are complete.
std::vector<BurstsOutcome> analyse_run_bursts(const RunConfig& config, const std::vector<RunDataset>& datasets,
                                              const EnsembleFile* file, const ExecutionContext& context);

}  // namespace gs
