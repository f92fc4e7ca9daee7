// `gpusynth characterize TRACE… --format dxt|pioneer`: PIONEER's sanitization,
// generic workload path and Table III characteristics of a request trace,
// printed and written to HDF5 (docs/requests.md).
#pragma once

#include <string>
#include <vector>

#include "io/trace.hpp"

namespace gs {

struct CharacterizeOptions {
  std::vector<std::string> traces;
  std::string format;  // dxt or pioneer; empty: what the first trace tells (the CLI)
  std::string counters;  // darshan-parser text of the same job: opens per file
  std::string output;    // HDF5; empty: print only
  TraceOptions trace;
  std::string command_line;
};

int characterize_command(const CharacterizeOptions& options);

}  // namespace gs
