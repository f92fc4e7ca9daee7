// The printed summary of `gpusynth replay`: per entry the whole-replay
// figures (original, replicas with intervals, replay error against the
// system's own), the band coverage and the KS distances with their floors,
// and how they stand against //TRACE's 6 % and a 90 % coverage.
#pragma once

#include <string>
#include <vector>

#include "io/replay_file.hpp"

namespace gs {

std::string replay_tables(const std::vector<ReplayResult>& results);

}  // namespace gs
