#include "host/cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "host/errors.hpp"
#include "host/models.hpp"
#include "host/plan.hpp"
#include "host/run.hpp"
#include "io/hdf5.hpp"
#include "version.hpp"

namespace gs {

namespace {

const std::vector<std::string> kCommands = {"run"};

// `gpusynth CONFIG.yaml ...` → `gpusynth run CONFIG.yaml ...`.
std::vector<std::string> normalised_arguments(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
    bool is_command = false;
    for (const auto& command : kCommands) is_command = is_command || args[0] == command;
    if (!is_command) args.insert(args.begin(), "run");
  }
  return args;
}

std::string joined(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    if (i) line += ' ';
    line += argv[i];
  }
  return line;
}

int parse_and_run(int argc, char** argv) {
  CLI::App app{
      "gpusynth: GPU-accelerated synthesis of bursty, heavy-tailed, self-similar parallel I/O workloads.\n"
      "Usage: gpusynth CONFIG.yaml [options]   (same as: gpusynth run CONFIG.yaml [options])",
      "gpusynth"};
  app.set_version_flag("--version", fmt::format("gpusynth {} ({})", kVersion, kGitRevision));
  app.require_subcommand(1);

  RunOptions options;
  options.command_line = joined(argc, argv);
  std::string backend, memory_limit;
  CLI::App* run = app.add_subcommand("run", "generate the ensembles of CONFIG and write them to one HDF5 file");
  run->add_option("config", options.config_path, "ensemble.yaml (schema v1, see the README)")->required();
  run->add_option("--backend", backend, "auto (GPU when present), cpu or cuda; overrides the config")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  run->add_option("-o,--output", options.output, "output HDF5 path; overrides the config");
  run->add_option("--seed", options.seed, "64-bit seed; overrides the config");
  run->add_option("--replicas", options.replicas, "replicas of every ensemble; overrides the config");
  run->add_option("--memory-limit", memory_limit,
                  "memory budget for batches, e.g. 2GiB (default: a quarter of "
                  "the available RAM up to 4 GiB, or the GPU's free memory)");
  run->add_flag("--dry-run", options.dry_run, "print the plan (ensembles, replicas, bytes, batches) and write nothing");
  run->add_flag("--no-output", options.no_output, "generate every batch and discard it: timing without the HDF5 write");
  run->add_flag("-q,--quiet", options.quiet, "no progress and no log lines");
  std::string models = "\nModels (key `model:` of each ensemble; parameters in the README):\n";
  for (const ModelInfo& info : model_registry()) models += fmt::format("  {:<8} {}\n", info.name, info.summary);
  run->footer(models);

  std::vector<std::string> args = normalised_arguments(argc, argv);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUser;
  }
  if (!backend.empty()) options.backend = parse_backend_choice(backend);
  if (!memory_limit.empty()) options.memory_limit = parse_memory_size(memory_limit);
  return run_command(options);
}

}  // namespace

int main_cli(int argc, char** argv) {
  h5::quiet_library_errors();
  try {
    return parse_and_run(argc, argv);
  } catch (const UserError& e) {
    std::fprintf(stderr, "gpusynth: error: %s\n", e.what());
    return kExitUser;
  } catch (const InternalError& e) {
    std::fprintf(stderr, "gpusynth: internal error: %s\n", e.what());
    return kExitInternal;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "gpusynth: internal error: out of memory; lower --memory-limit\n");
    return kExitInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusynth: internal error: %s\n", e.what());
    return kExitInternal;
  }
}

}  // namespace gs
