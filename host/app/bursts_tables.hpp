// The printed summary of a run's burst analyses (`gpusynth bursts`): the
// detection, F1 per horizon with intervals, Algorithm 1 per decision and α,
// the Monte Carlo against the real series and the training with replicas.
#pragma once

#include <string>
#include <vector>

#include "host/engine/bursts_run.hpp"

namespace gs {

std::string bursts_tables(const std::vector<BurstsOutcome>& outcomes);

}  // namespace gs
