// `gpusynth run CONFIG` (or `gpusynth CONFIG`): the config loaded and
// overridden, run by the engine (host/engine/run.hpp), and what it did printed.
#include "host/app/run.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "host/app/bursts_tables.hpp"
#include "host/app/replay_tables.hpp"
#include "host/app/run_json.hpp"
#include "host/app/study_tables.hpp"
#include "host/base/errors.hpp"
#include "host/base/progress.hpp"
#include "host/base/ranks.hpp"

namespace gs {

int run_command(const RunOptions& given) {
  RunOptions options = given;
  options.node_log = !given.quiet && !is_root_rank() && ranks().local_rank == 0;
  options.quiet = options.quiet || !is_root_rank();  // one report, rank 0's
  RunConfig config = load_config(options.config_path);
  apply_overrides(config, options);
  const RunOutcome outcome = run_config(config, options);
  if (options.dry_run) {
    if (!is_root_rank()) return kExitOk;
    if (options.json) {
      std::printf("%s\n", plan_json(outcome.plan).dump(2).c_str());
    } else {
      std::fputs(outcome.plan.c_str(), stdout);
      std::fputs("dry run: nothing written\n", stdout);
    }
    return kExitOk;
  }
  if (outcome.interrupted_by) {
    if (is_root_rank()) std::fprintf(stderr, "\ninterrupted by signal %d: nothing was written to %s\n", outcome.interrupted_by,
                 config.output.c_str());
    return kExitInterrupted;
  }
  if (options.json) {
    if (is_root_rank()) std::printf("%s\n", run_json(outcome, options.no_output ? "" : config.output).dump(2).c_str());
  } else {
    if (outcome.study) std::fputs(study_tables(*outcome.study).c_str(), stdout);
    if (!outcome.bursts.empty()) std::fputs(bursts_tables(outcome.bursts).c_str(), stdout);
    if (!outcome.replays.empty()) std::fputs(replay_tables(outcome.replays).c_str(), stdout);
  }
  double generate_seconds = 0, write_seconds = 0, compare_seconds = 0;
  std::uint64_t compared_in_place = 0;
  for (const EnsembleResult& result : outcome.ensembles) {
    generate_seconds += result.generate_seconds;
    write_seconds += result.write_seconds;
    compare_seconds += result.compare_seconds;
    compared_in_place += result.compared_in_place;
    if (result.tally.clipped || result.tally.saturated) {
      log_info(options.quiet, fmt::format("ensemble '{}': {} negative counts clipped to 0, {} values saturated "
                                          "(recorded as attributes clipped_bins, saturated_values)",
                                          result.name, result.tally.clipped, result.tally.saturated));
    }
  }
  log_info(options.quiet,
           fmt::format("{} {} samples in {} ensembles: {:.2f} s wall ({:.3g} samples/s); generate "
                       "{:.2f} s, write {:.2f} s on the writer thread, overlapped",
                       (options.no_output ? "generated (--no-output, nothing written)" : "wrote " + config.output + ":") +
                           (ranks().size > 1 ? fmt::format(" {} MPI ranks,", ranks().size) : std::string()),
                       outcome.total_samples, outcome.ensembles.size(), outcome.seconds,
                       static_cast<double>(outcome.total_samples) / outcome.seconds, generate_seconds, write_seconds));
  if (!config.study.models.empty() || config.study.compare)
    log_info(options.quiet,
             fmt::format("study stages: fit {:.2f} s, generate {:.2f} s, compare {:.2f} s (per-replica metrics{}), "
                         "bootstrap and summary {:.2f} s",
                         outcome.fit_seconds, generate_seconds, compare_seconds,
                         compared_in_place > 0 ? fmt::format("; {} replicas on the device", compared_in_place) : "",
                         outcome.summary_seconds));
  if (!outcome.bursts.empty())
    log_info(options.quiet, fmt::format("bursts: {:.2f} s (detection, prediction, scheduling, Monte Carlo)",
                                        outcome.bursts_seconds));
  if (!outcome.replays.empty())
    log_info(options.quiet,
             fmt::format("replays: {:.1f} s (fio, the logs read, the comparison)", outcome.replay_seconds));
  return kExitOk;
}

}  // namespace gs
