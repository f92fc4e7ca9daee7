// The plan of a run: for every ensemble, its job (prepared model), the bytes a
// replica needs and the batch size that fits the memory budget. A study of
// 10^10 samples streams batch by batch; nothing holds a whole ensemble.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/base/sysinfo.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/config.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

struct EnsemblePlan {
  EnsembleJob job;
  Backend backend = Backend::cpu;    // which of the run's backends generates it
  std::uint64_t row_bytes = 0;       // one replica as stored
  std::uint64_t batch_replicas = 0;  // a multiple of chunk.rows, except when the whole ensemble fits
  std::uint64_t batches = 0;
  ChunkShape chunk{};               // HDF5 chunk: whole replicas
  MemoryNeed need;                  // backend workspace
  std::uint64_t host_bytes = 0;     // output double buffer (+ CPU workspace) at batch_replicas
  std::uint64_t backend_bytes = 0;  // backend workspace at batch_replicas
};

struct RunPlan {
  Backend backend = Backend::cpu;  // the main backend (RunBackends)
  std::string device;              // its description, and the host's when some ensembles run there
  std::uint64_t seed = 0;
  std::uint64_t memory_budget = 0;  // the backend's memory (host RAM on the CPU, device memory on a GPU)
  std::uint64_t host_budget = 0;    // host memory: the GPU's page-locked output buffers, and the CPU
                                    // workspace of ensembles generated on the host in a GPU run
  bool memory_budget_given = false;
  std::vector<EnsemblePlan> ensembles;
  std::uint64_t total_samples = 0;
  std::uint64_t total_bytes = 0;  // uncompressed
};

// `config` must outlive the plan (jobs point at its ensembles).
RunPlan make_plan(const RunConfig& config, const RunBackends& backends, std::optional<std::uint64_t> memory_limit);

std::string format_plan(const RunPlan& plan, const RunConfig& config);

// Host memory for batches when no --memory-limit is given: a quarter of the
// available RAM, between 64 MiB and 4 GiB (larger batches gain nothing).
std::uint64_t default_host_budget();

// "2GiB", "512MiB", "1.5GB", "4096" (bytes) → bytes; UserError otherwise.
std::uint64_t parse_memory_size(const std::string& text);

}  // namespace gs
