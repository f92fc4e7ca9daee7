// The `run` command: config + overrides → plan → backend batches → HDF5 file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "host/config.hpp"

namespace gs {

struct RunOptions {
  std::string config_path;
  std::optional<BackendChoice> backend;
  std::optional<std::string> output;
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> replicas;
  std::optional<std::uint64_t> memory_limit;
  bool dry_run = false;
  bool no_output = false;  // generate every batch and discard it (timing without the HDF5 write)
  bool quiet = false;
  std::string command_line;
};

// Exit code 130: interrupted by SIGINT or SIGTERM (nothing left at the output path).
constexpr int kExitInterrupted = 130;

// Throws UserError / InternalError; returns an exit code otherwise.
int run_command(const RunOptions& options);

// Applies the command-line overrides to a parsed config (validated as the
// config keys are).
void apply_overrides(RunConfig& config, const RunOptions& options);

}  // namespace gs
