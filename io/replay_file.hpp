// Replay fidelity under /replay/<name> (docs/hdf5.md, docs/requests.md):
// per bin of time the original's replays and every replica's throughput,
// data operation ratio and arrival rate, the replicas' band, the latency
// quantiles of every replay, the whole-replay figures with replay errors and
// intervals, and the coverage and KS distances with their noise floors.
#pragma once

#include <string>
#include <vector>

#include "estimators/replay_results.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

void write_replays(EnsembleFile& file, const std::vector<ReplayResult>& results);

}  // namespace gs
