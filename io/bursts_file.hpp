// The results of a burst analysis under /bursts/<name> (docs/hdf5.md,
// docs/bursts.md): detection (severity per bin, runs, σ histogram), prediction
// per predictor and horizon with intervals, Algorithm 1 per decision and α
// (means with intervals, and every window's delay, runtime and total for the
// CDFs), the Monte Carlo over each ensemble's replicas against the real
// series, and the training-with-replicas experiment.
#pragma once

#include <vector>

#include "estimators/burst_results.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

// /bursts/<name> of every entry, as gpusynth writes it into a run's file.
void write_bursts(EnsembleFile& file, const std::vector<BurstsOutcome>& outcomes);

}  // namespace gs
