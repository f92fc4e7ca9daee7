// `gpusynth replay CONFIG --target DIR` (docs/requests.md, "Replay
// fidelity"): after the run has synthesized its `requests:`, each entry's
// original (the trace's own requests, scaled as the replicas are) is
// replayed by fio in the target directory twice and each synthetic replica
// once, one after the other, each measured from fio's own logs, and the
// replays compared (estimators/replay_fidelity.hpp); written under /replay.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/config.hpp"
#include "host/engine/context.hpp"
#include "host/engine/requests_run.hpp"
#include "io/replay_file.hpp"

namespace gs {

struct ReplayOptions {
  std::string target;  // a directory on the file system under test
  std::string fio = "fio";
  std::vector<std::string> fio_options;  // passed to fio for every replay
  std::vector<std::string>
      synthetic_fio_options;           // for the replicas only (--replay_no_stall=1: a timing-free baseline)
  std::optional<double> bin_seconds;   // default: the entry's timing bins, else 0.1 s
  std::uint32_t original_replays = 2;  // 2: the second is the system's noise floor
  std::vector<std::string> entries;    // the requests: entries to replay (empty: all)
  // --clients FILE: the fio servers (io/fio_servers.hpp) each replay is split
  // over, one fio client driving them all; empty: one local fio per replay.
  std::string clients;
};

// Before any work: the entries chosen, fio found, the target a writable
// directory with room for the largest replay (estimated), with --clients each
// fio server answering a read of the target at its path, and what the
// replays will take (printed by --dry-run and before they start). Each
// problem is a UserError naming the option, the config's line or the clients
// file's.
// `file_bytes`: plus what their results take in the run's file (/replay), about.
std::string plan_replays(const RunConfig& config, const RequestsPlan& requests, const ReplayOptions& options,
                         double* file_bytes = nullptr);

// With every replica synthesized and held (synthesize_held_requests), before
// the run's file is staged (host/engine/run.cpp): the replays run and
// assessed, entry by entry, with progress lines; the target's space checked
// again with the exact workloads before the first fio starts.
std::vector<ReplayResult> replay_requests(const RunConfig& config, const RequestsPlan& plan,
                                          const std::vector<RequestsOutcome>& outcomes, const ReplayOptions& options,
                                          const ExecutionContext& context);

}  // namespace gs
