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
#include "host/stats.hpp"
#include "io/hdf5.hpp"
#include "version.hpp"

namespace gs {

namespace {

const std::vector<std::string> kCommands = {"run", "stats"};

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

  StatsOptions stats_options;
  stats_options.command_line = options.command_line;
  std::string format, time_unit, delimiter, blk_event = "Q";
  CLI::App* stats =
      app.add_subcommand("stats", "read a real trace, bin it and print its statistics (Hurst, ACF, burstiness)");
  stats->add_option("trace", stats_options.traces, "trace file(s), gzip or plain; several are merged")->required();
  stats
      ->add_option(
          "--format", format,
          "timestamps, counts, series, darshan, dxt, blkparse, disksim or pioneer (README: Reading real traces)")
      ->required();
  stats->add_option("--bin", stats_options.bin, "bin width: 1s, 250ms, 10us, 5min, … (all formats but series)");
  stats->add_option("--column", stats_options.trace.time_column,
                    "timestamps/series: the time column, 1-based or a header name");
  stats->add_option("--value-column", stats_options.trace.value_column,
                    "series (default 2) / counts (default 1): the value column");
  stats->add_option("--op-column", stats_options.trace.op_column, "timestamps: the operation column (read/write)");
  stats->add_option("--size-column", stats_options.trace.size_column, "timestamps: the request size column, in bytes");
  stats
      ->add_option("--read-values", stats_options.trace.read_values,
                   "values of --op-column meaning read (default r,read,rd)")
      ->delimiter(',');
  stats->add_option("--write-values", stats_options.trace.write_values, "values meaning write (default w,write,wr)")
      ->delimiter(',');
  stats->add_flag("--header", stats_options.trace.header, "the first line names the columns");
  stats->add_option("--delimiter", delimiter, "comma, tab or space (default: detected from the first line)")
      ->check(CLI::IsMember({"comma", "tab", "space"}));
  stats->add_option("--time-unit", time_unit, "s, ms, us, ns or iso8601 (default s; disksim: ms)")
      ->check(CLI::IsMember({"s", "ms", "us", "ns", "iso8601"}));
  stats
      ->add_option("--modules", stats_options.trace.modules,
                   "darshan/dxt modules (default POSIX,STDIO): POSIX, MPI-IO, STDIO")
      ->delimiter(',');
  stats->add_option("--blk-event", blk_event, "blkparse: Q (queued, default) or D (issued to the driver)")
      ->check(CLI::IsMember({"Q", "D"}));
  stats->add_flag("--sort", stats_options.trace.sort, "accept events out of time order by sorting them (reported)");
  stats->add_flag("--skip-bad-lines", stats_options.trace.skip_bad_lines,
                  "count and report malformed lines instead of stopping");
  stats->add_option("--series", stats_options.series,
                    "channel analysed: count, count_read, count_write, bytes, bytes_read, bytes_write "
                    "(default count; darshan: bytes)");
  stats->add_option("--max-lag", stats_options.max_lag, "ACF lags (default 100)")->check(CLI::Range(1, 100000000));
  stats->add_option("-o,--output", stats_options.output, "write the series and statistics to this HDF5 file");
  stats->add_option("--name", stats_options.name, "dataset name under /datasets (default: the trace's file name)");
  stats->add_flag("--json", stats_options.json, "print the summary as one JSON object");

  std::vector<std::string> args = normalised_arguments(argc, argv);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUser;
  }
  if (stats->parsed()) {
    stats_options.trace.format = parse_trace_format(format);
    if (!time_unit.empty()) stats_options.trace.time_unit = parse_time_unit(time_unit);
    if (!delimiter.empty())
      stats_options.trace.delimiter = delimiter == "comma" ? ',' : delimiter == "tab" ? '\t' : ' ';
    stats_options.trace.blk_action = blk_event[0];
    return stats_command(stats_options);
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
