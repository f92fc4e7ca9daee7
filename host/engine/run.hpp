// A run of a config (docs/cli.md, `gpusynth run`), in phases, each a function
// of the results before (host/engine/run.cpp): parse (load_config, then
// apply_overrides) → plan (the requests' traces characterized, the datasets
// read and the study's models fitted, the backends, batches and outputs'
// space: everything checked and sized on every rank, then agreed) → the
// replays (`gpusynth replay`, before the file is staged) → generate (every
// ensemble batch by batch into one HDF5 file, compared with its dataset) →
// analyse (the study summarised, the burst analyses, the requests) → commit
// (the outputs as one unit). host/app/run.cpp prints what it returns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "estimators/study.hpp"
#include "host/engine/bursts_run.hpp"
#include "host/engine/config.hpp"
#include "host/engine/replay_run.hpp"
#include "kernels/workload.hpp"

namespace gs {

// The command line's overrides of a config, and how the run behaves.
struct RunOptions {
  std::string config_path;
  std::optional<BackendChoice> backend;
  std::optional<MathPrecision> precision;
  std::optional<std::string> fft_wisdom;  // a file of FFTW wisdom (`gpusynth fft-wisdom`)
  std::optional<std::string> output;
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> replicas;
  std::optional<std::uint64_t> memory_limit;
  bool dry_run = false;
  bool no_output = false;  // generate every batch and discard it (timing without the HDF5 write)
  bool quiet = false;
  bool json = false;             // the front end prints the outcome as JSON instead of tables
  bool bursts_required = false;  // `gpusynth bursts`: the config must have a bursts: section
  bool node_log = false;         // MPI: the first rank of a node other than rank 0's logs its backend
  std::optional<ReplayOptions> replay;  // `gpusynth replay`: the requests replayed by fio and compared
  std::string command_line;
};

// Exit code 130: interrupted by SIGINT or SIGTERM (nothing left at the output path).

// Applies the command-line overrides to a parsed config (validated as the
// config keys are).
void apply_overrides(RunConfig& config, const RunOptions& options);

struct EnsembleResult {
  std::string name;
  Tally tally;
  double generate_seconds = 0;          // inside the backend, per batch
  double write_seconds = 0;             // inside the writer thread
  double compare_seconds = 0;           // per-replica metrics, while the batch is written
  std::uint64_t compared_in_place = 0;  // replicas the backend compared where they were generated
};

struct RunOutcome {
  int interrupted_by = 0;  // the signal that stopped the run (nothing written), else 0
  std::string plan;        // the printed plan (dry run)
  std::vector<EnsembleResult> ensembles;
  std::optional<Study> study;  // summarised, when the config compares
  std::vector<BurstsOutcome> bursts;
  std::vector<ReplayResult> replays;
  std::uint64_t total_samples = 0;
  double fit_seconds = 0, summary_seconds = 0, bursts_seconds = 0, replay_seconds = 0, seconds = 0;
};

// The host's FFTs of every spectral ensemble CONFIG generates (its datasets
// read and fitted as a run would), each once: what `gpusynth fft-wisdom` plans.
std::vector<FftProblem> run_fft_problems(const RunConfig& config, const RunOptions& options);

// Throws UserError / InternalError. With options.dry_run only the plan is made.
RunOutcome run_config(const RunConfig& config, const RunOptions& options);

}  // namespace gs
