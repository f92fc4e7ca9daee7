#include "host/engine/requests_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/progress.hpp"
#include "io/ensemble_file.hpp"
#include "io/hdf5.hpp"

namespace gs {

std::vector<RequestsOutcome> synthesize_requests(const RunConfig& config, hid_t file, bool quiet) {
  std::vector<RequestsOutcome> outcomes;
  if (config.requests.empty()) return outcomes;
  const h5::Handle top = h5::create_group(file, "requests");
  for (const RequestsSpec& spec : config.requests) {
    const auto start = std::chrono::steady_clock::now();
    RequestsOutcome outcome;
    outcome.name = spec.name;
    TraceCharacterization characterized_trace;
    const Workload* path = &spec.given_files;
    const Characteristics* characteristics = spec.given ? &*spec.given : nullptr;
    if (!spec.given) {
      const RequestTrace trace = read_request_trace(spec.traces, spec.format, spec.trace, spec.counters);
      characterized_trace = characterize_requests(trace);
      path = &characterized_trace.path;
      characteristics = &characterized_trace.characteristics;
    }
    const std::int32_t processes = spec.processes > 0 ? spec.processes : path->processes;
    SynthesisOptions options = spec.synthesis;
    options.key.seed = config.seed;
    std::vector<Workload> replicas;
    for (std::uint32_t replica = 0; replica < spec.replicas; ++replica) {
      throw_if_interrupted();
      Workload workload = synthesize_processes(*path, *characteristics, options, replica, processes);
      if (!spec.timing_ensemble.empty()) {
        const std::vector<double> counts = read_ensemble_row(file, spec.timing_ensemble, replica);
        const std::uint64_t filled = time_by_counts(workload, counts, spec.bin_width);
        if (replica == 0) {
          outcome.filled_bins = filled;
          outcome.counted_bins = counts.size();
        }
      } else {
        sort_for_issue(workload);
      }
      outcome.violations += check_dependencies(workload).total();
      outcome.requests += workload.table.requests.size();
      replicas.push_back(std::move(workload));
    }
    const h5::Handle group = h5::create_group(top.id(), spec.name);
    std::vector<Attribute> attributes = {
        {"mode", std::string(spec.synthesis.template_mode ? "template" : "sample")},
        {"processes", static_cast<std::int64_t>(processes)},
        {"replicas", static_cast<std::int64_t>(spec.replicas)},
        {"seed", static_cast<std::uint64_t>(config.seed)},
        {"stream", static_cast<std::uint64_t>(options.key.stream)},
        {"timing", spec.timing_ensemble.empty() ? std::string("slack")
                                                : fmt::format("ensemble {} (bins of {} s)", spec.timing_ensemble,
                                                              spec.bin_width)},
        {"source", spec.given ? std::string("characteristics given in the config")
                              : fmt::format("{} ({})", fmt::join(spec.traces, ", "), spec.format)},
        {"dependency_violations", static_cast<std::int64_t>(outcome.violations)}};
    if (!spec.timing_ensemble.empty()) {
      attributes.push_back({"bin_width", spec.bin_width});
      attributes.push_back({"filled_bins", static_cast<std::int64_t>(outcome.filled_bins)});
    }
    write_request_tables(group.id(), replicas, attributes);
    if (!spec.given) write_characterization(h5::create_group(group.id(), "characterized").id(), characterized_trace);
    outcome.emitted = std::move(replicas[spec.emit.replica]);
    outcome.seconds = seconds_since(start);
    log_info(quiet, fmt::format("requests '{}': {} requests in {} replica(s) of {} processes, {} dependency "
                                "violations, {:.2f} s{}",
                                spec.name, outcome.requests, spec.replicas, processes, outcome.violations,
                                outcome.seconds,
                                spec.timing_ensemble.empty()
                                    ? ""
                                    : fmt::format("; replica 0 fills {} of the {} bins of '{}'", outcome.filled_bins,
                                                  outcome.counted_bins, spec.timing_ensemble)));
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

void emit_request_texts(const RunConfig& config, const std::vector<RequestsOutcome>& outcomes, bool quiet) {
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    RequestsSpec spec = config.requests[i];
    // Beside the HDF5 output unless absolute: `-o elsewhere/x.h5` takes them along.
    for (std::string* path : {&spec.emit.fio, &spec.emit.disksim, &spec.emit.dxt})
      if (!path->empty() && std::filesystem::path(*path).is_relative())
        *path = (std::filesystem::path(h5::output_directory(config.output)) / *path).lexically_normal().string();
    const Workload& w = outcomes[i].emitted;
    const std::string title = fmt::format("requests '{}' of {}, replica {}, {} processes, seed {}", spec.name,
                                          config.path, spec.emit.replica, w.processes, config.seed);
    if (!spec.emit.fio.empty()) {
      const FioSummary s = write_fio_replay(spec.emit.fio, w, title);
      log_info(quiet, fmt::format("wrote {}: fio iologs of {} processes, {} entries ({} metadata operations fio "
                                  "cannot issue, {} data requests without offset, empty or of 4 GiB or more, and {} "
                                  "processes without I/O left out)",
                                  spec.emit.fio, s.processes - s.processes_without_io, s.logged, s.skipped_metadata,
                                  s.skipped_empty, s.processes_without_io));
    }
    if (!spec.emit.disksim.empty()) {
      write_disksim(spec.emit.disksim, w);
      log_info(quiet, fmt::format("wrote {} (DiskSim ASCII)", spec.emit.disksim));
    }
    if (!spec.emit.dxt.empty()) {
      write_dxt_text(spec.emit.dxt, w);
      log_info(quiet, fmt::format("wrote {} (DXT-like text)", spec.emit.dxt));
    }
  }
}

}  // namespace gs
