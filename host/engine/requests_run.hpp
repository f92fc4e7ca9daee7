// The `requests:` of a run (docs/requests.md): each trace characterized (or
// the user's characteristics taken), `replicas` synthetic paths drawn and
// expanded to the processes, timed by slack or by the counts of an ensemble
// already written to the run's file, checked for dependency violations and
// written under /requests/<name>/; the fio, DiskSim and DXT-like text of one
// replica follow once the HDF5 file is in place.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "host/engine/config.hpp"
#include "host/requests/emit.hpp"

namespace gs {

struct RequestsOutcome {
  std::string name;
  std::uint64_t requests = 0;      // over all replicas
  std::uint64_t violations = 0;    // dependency violations over all replicas (0 expected)
  std::uint64_t filled_bins = 0;   // counts timing: bins whose counts the requests met, replica 0
  std::uint64_t counted_bins = 0;  // the ensemble's length
  double seconds = 0;
  Workload emitted;  // the replica the text outputs come from
};

// Synthesizes every entry into `file` (open, the ensembles written already).
std::vector<RequestsOutcome> synthesize_requests(const RunConfig& config, hid_t file, bool quiet);

// The fio directory, DiskSim and DXT-like files of each entry that asks for them.
void emit_request_texts(const RunConfig& config, const std::vector<RequestsOutcome>& outcomes, bool quiet);

}  // namespace gs
