// The printed summary of `gpusynth replay`: per entry the whole-replay
// figures (original, replicas with intervals, replay error against the
// system's own), the replayer's own figure (//TRACE's: the original's replay
// against the traced run) and the synthesis' (the replicas against the
// original's replay), each against the 6 % goal, the band coverage (busy bins
// and bytes done first, against 90 %) and the KS distances with their floors.
#pragma once

#include <string>
#include <vector>

#include "io/replay_file.hpp"

namespace gs {

std::string replay_tables(const std::vector<ReplayResult>& results);

}  // namespace gs
