#include "host/engine/requests_run.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>
#include <string_view>

#include "host/base/errors.hpp"
#include "host/base/fault_injection.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/paths.hpp"
#include "host/base/progress.hpp"
#include "host/base/ranks.hpp"
#include "host/base/run_paths.hpp"
#include "host/base/sysinfo.hpp"
#include "host/engine/plan.hpp"
#include "host/requests/phase_timing.hpp"
#include "host/requests/synthesize.hpp"
#include "io/ensemble_file.hpp"
#include "io/parallel_series.hpp"
#include "io/request_trace.hpp"
#include "io/requests_file.hpp"

namespace gs {

namespace {

namespace fs = std::filesystem;

// Bytes of the text outputs per request of the emitted replica, about (fio:
// its iolog lines with the files' lines and create_files.sh; DiskSim and DXT:
// a line per data request), measured on configs/requests.yaml (63.9, 16.2 and
// 76.9): for the free-space check before any work (host/engine/run.cpp). The
// digits of offsets and times move them; tests/cli/disk_space_test.sh holds
// them within a factor 2 of what runs write.
constexpr double kFioBytesPerRequest = 64, kDisksimBytesPerRequest = 16, kDxtBytesPerRequest = 77;
// A row of the HDF5 request table (11 columns of 8 bytes).
constexpr double kTableBytesPerRequest = 88;
// The characterization stored with an entry: its sanitized requests and its
// generic path as request tables, and the characteristics' samples (about
// as many values again).
constexpr double kCharacterizationBytesPerRequest = 2 * kTableBytesPerRequest;

// The kB of /proc/self/status's `key` ("VmSize:"), 0 when it cannot be read.
std::uint64_t own_memory(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string name, unit;
  std::uint64_t value = 0;
  while (in >> name) {
    if (name == key && in >> value >> unit) return value * 1024;
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

// Whether an entry writes a replica as fio, DiskSim or DXT-like text.
bool emits_texts(const RequestsSpec& spec) {
  return !spec.emit.fio.empty() || !spec.emit.disksim.empty() || !spec.emit.dxt.empty();
}

// Replicas an entry holds whole: the one its text outputs come from (a copy
// when every replica is kept) and, for a replay, every replica.
std::uint32_t replicas_held_whole(const RequestsSpec& spec, bool keep_replicas) {
  return (emits_texts(spec) ? 1u : 0u) + (keep_replicas ? spec.replicas : 0u);
}

// How an entry's replicas take memory, as the plan and the guard say it.
std::string holding_text(const RequestsSpec& spec, bool keep_replicas) {
  if (keep_replicas) return "every replica held whole until its replays are done";
  if (emits_texts(spec))
    return fmt::format("replica {} held whole for the text outputs{}", spec.emit.replica,
                       spec.replicas > 1 ? ", the others written to the file as they are made" : "");
  return "each written to the file as it is made (its files and a block of requests held)";
}

// The plan's memory budget as its messages say it.
std::string budget_text(const RequestsPlan& plan) {
  return fmt::format("{} ({})", plan.budget == UINT64_MAX ? std::string("unlimited") : format_bytes(plan.budget),
                     plan.budget_source);
}

}  // namespace

std::uint64_t default_requests_budget(std::string& source) {
  const std::uint64_t available = available_memory();
  std::uint64_t budget = available > 0 ? available / 4 * 3 : UINT64_MAX;
  source = available > 0 ? fmt::format("default: 3/4 of the {} available", format_bytes(available))
                         : "default: no limit (the available memory is unknown)";
  // Under `ulimit -v` or `ulimit -d`, what the limit leaves (glibc maps large blocks).
  const std::pair<int, const char*> limits[] = {{RLIMIT_AS, "VmSize:"}, {RLIMIT_DATA, "VmData:"}};
  for (const auto& [resource, key] : limits) {
    struct rlimit limit {};
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
    const std::uint64_t used = own_memory(key);
    const std::uint64_t left = limit.rlim_cur > used ? limit.rlim_cur - used : 0;
    if (left / 4 * 3 < budget) {
      budget = left / 4 * 3;
      source = fmt::format("default: 3/4 of the {} that `ulimit -{}` leaves", format_bytes(left),
                           resource == RLIMIT_AS ? 'v' : 'd');
    }
  }
  return budget;
}

std::string located(const RunConfig& config, const RequestsSpec& spec) {
  return fmt::format("{}:{}: {}", config.path, spec.line, spec.where);
}

std::string emit_path(const RunConfig& config, const std::string& path) {
  // Beside the HDF5 output unless absolute: `-o elsewhere/x.h5` takes them along.
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(directory_of(config.output)) / path).lexically_normal().string();
}

std::string RequestsPlan::text() const {
  std::string text;
  for (const Entry& e : entries) {
    text += fmt::format(
        "requests '{}': about {:.3g} requests and {:.3g} files per replica ({} processes), {} replica(s), {}: "
        "about {} of memory\n",
        e.name, e.size.replica_requests, e.size.replica_files, e.source->processes, e.replicas, e.holding,
        format_bytes(e.bytes));
    if (!e.warning.empty()) text += fmt::format("  warning: {}\n", e.warning);
    text += fmt::format("  each replica about {:.0f} reads of {} and {:.0f} writes of {}{}\n", e.volume.reads,
                        format_estimated_bytes(e.volume.bytes_read), e.volume.writes,
                        format_estimated_bytes(e.volume.bytes_written),
                        e.replays ? ": what its fio replay reads and writes on the file system it runs in" : "");
  }
  if (!entries.empty()) text += fmt::format("requests' memory budget {}\n", budget_text(*this));
  return text;
}

namespace {

// An entry's source, made now, so that a typo in a trace's name fails in seconds, not after the
// ensembles; `warning` gets the trace reader's ("" when none, or when the entry gives characteristics).
std::shared_ptr<const EntrySource> entry_source(const RunConfig& config, const RequestsSpec& spec,
                                                std::string& warning) {
  try {
    auto source = std::make_shared<EntrySource>();
    if (!spec.given) {
      const RequestTrace trace = read_request_trace(spec.traces, spec.format, spec.trace_options, spec.counters);
      warning = request_trace_warning(trace);
      source->characterized = std::make_shared<const TraceCharacterization>(characterize_requests(trace));
    }
    source->synthesis =
        spec.given ? synthesis_source(spec.given_files, *spec.given) : synthesis_source(*source->characterized);
    source->processes = spec.processes > 0 ? spec.processes : source->synthesis.classes.front().path->processes;
    if (spec.timing == RequestsSpec::Timing::phases) source->phases = fit_phases(source->characterized->sanitized);
    return source;
  } catch (const UserError& e) {
    throw UserError(fmt::format("{}: {}", located(config, spec), e.what()));
  }
}

// An entry's size, and the memory its replicas take with `held` bytes of the entries before: a UserError
// beyond the plan's budget. Its replica's bytes, when its texts keep one whole, join `held`.
RequestsPlan::Entry plan_entry(const RunConfig& config, const RequestsSpec& spec, const RequestsPlan& plan,
                               bool keep_replicas, std::uint64_t& held) {
  RequestsPlan::Entry entry;
  entry.source = entry_source(config, spec, entry.warning);
  entry.name = spec.name;
  entry.replicas = spec.replicas;
  const std::int32_t processes = entry.source->processes;
  const SynthesisExpectation expected = expected_synthesis(entry.source->synthesis, spec.synthesis, processes);
  entry.size = expected.size;
  entry.volume = expected.volume;
  entry.replays = !spec.emit.fio.empty();
  // Replicas held whole, and the one being written as it is made: its files, the synthetic path, a block.
  const std::uint64_t one = replica_bytes(entry.size.replica_requests, entry.size.replica_files);
  const std::uint32_t whole = replicas_held_whole(spec, keep_replicas);
  const std::uint64_t streamed =
      whole >= spec.replicas
          ? 0
          : replica_bytes(entry.size.path_requests +
                              std::min(entry.size.replica_requests, static_cast<double>(kStreamedRequests)),
                          entry.size.replica_files);
  const double states = entry.size.replica_states * static_cast<double>(kBytesPerDependencyState);
  entry.holding = holding_text(spec, keep_replicas);
  const double all =
      static_cast<double>(one) * whole + static_cast<double>(streamed) + states + static_cast<double>(held);
  entry.bytes = estimated_bytes(all);
  if (entry.bytes > plan.budget)
    throw UserError(fmt::format(
        "{}: about {:.3g} requests and {:.3g} files in each of {} replica(s) of {} processes, {}: about {} of "
        "memory ({} per request, {} per file{}), more than the budget of {}; lower processes or replicas, "
        "or raise --memory-limit",
        located(config, spec), entry.size.replica_requests, entry.size.replica_files, spec.replicas, processes,
        entry.holding, format_bytes(entry.bytes), format_bytes(kBytesPerRequest), format_bytes(kBytesPerFile),
        held > 0 ? fmt::format(", with {} for the text outputs of the entries before", format_bytes(held)) : "",
        budget_text(plan)));
  if (emits_texts(spec)) held += one;
  return entry;
}

// One of an entry's text outputs (`emit:`): its key, its path as given ("" when not asked for), where the
// config gave it, and its bytes per request.
struct EmittedText {
  const char* key;
  const std::string& path;
  const std::string& at;
  double bytes_per_request;
};
std::array<EmittedText, 3> emitted_texts(const RequestsSpec& spec) {
  return {{{"fio", spec.emit.fio, spec.emit.fio_at, kFioBytesPerRequest},
           {"disksim", spec.emit.disksim, spec.emit.disksim_at, kDisksimBytesPerRequest},
           {"dxt", spec.emit.dxt, spec.emit.dxt_at, kDxtBytesPerRequest}}};
}

// What the outputs take on disk: the HDF5 file's tables, each text.
void add_output_sizes(const RunConfig& config, RequestsPlan& plan) {
  for (std::size_t i = 0; i < config.requests.size(); ++i) {
    const RequestsSpec& spec = config.requests[i];
    const RequestsPlan::Entry& e = plan.entries[i];
    plan.file_bytes += e.size.replica_requests * kTableBytesPerRequest * e.replicas;
    if (const TraceCharacterization* c = e.source->characterized.get())
      plan.file_bytes += kCharacterizationBytesPerRequest *
                         static_cast<double>(c->sanitized.table.requests.size() + c->path.table.requests.size());
    for (const EmittedText& text : emitted_texts(spec))
      if (!text.path.empty() && !config.output.empty())
        plan.texts.push_back({fmt::format("{}.emit.{} '{}'", spec.where, text.key, emit_path(config, text.path)),
                              text.at + ": ", emit_path(config, text.path), emit_path(config, text.path),
                              e.size.replica_requests * text.bytes_per_request});
  }
}

// Every path of the run: the outputs, then the inputs they may not replace.
void check_output_paths(const RunConfig& config, RequestsPlan& plan) {
  RunPaths paths;
  paths.add_output(fmt::format("output '{}'", config.output), resolve_output_target(config.output, "output"));
  for (std::size_t i = 0; i < config.requests.size(); ++i) {
    const RequestsSpec& spec = config.requests[i];
    for (const EmittedText& text : emitted_texts(spec)) {
      if (text.path.empty()) continue;
      const std::string where = emit_path(config, text.path);
      const std::string option = fmt::format("{}.emit.{}", spec.where, text.key);
      const bool folder = std::string(text.key) == "fio";
      std::string target;
      try {
        target = folder ? resolve_replay_directory(where, option) : resolve_output_target(where, option);
      } catch (const UserError& e) {
        throw UserError(text.at + ": " + e.what());
      }
      paths.add_output(fmt::format("{} '{}'", option, where), target, text.at + ": ", folder);
      for (RequestsPlan::Output& text : plan.texts)
        if (text.path == where) text.target = target;  // the file system it lands on: a link's target's
    }
  }
  add_config_inputs(config, paths);
  paths.check();
}

}  // namespace

RequestsPlan prepare_requests(const RunConfig& config, std::optional<std::uint64_t> memory_limit, bool check_outputs,
                              bool keep_replicas) {
  RequestsPlan plan;
  plan.budget = memory_limit ? *memory_limit : default_requests_budget(plan.budget_source);
  if (memory_limit) plan.budget_source = "--memory-limit";
  std::uint64_t held = 0;  // the texts' replicas of the entries before
  for (const RequestsSpec& spec : config.requests) {
    throw_if_interrupted();
    plan.entries.push_back(plan_entry(config, spec, plan, keep_replicas, held));
  }
  add_output_sizes(config, plan);
  if (check_outputs && !config.output.empty()) check_output_paths(config, plan);
  return plan;
}

namespace {

// The progress of an entry's synthesis: this many units per replica, shared
// out over its requests as they are made.
constexpr std::uint64_t kProgressPerReplica = 1000;

// One replica's requests made a block at a time: timed by `timing` (none: by
// slack, already), checked for dependencies, appended to the
// entry's table (`writer`; none for a replica made again on rank 0 for its
// texts) and, with `kept`, kept whole. Returns (requests, violations).
std::pair<std::uint64_t, std::uint64_t> stream_replica(const RequestsSpec& spec, std::uint32_t replica,
                                                       Expansion& expansion, RequestTiming* timing,
                                                       RequestsEntryWriter* writer, Workload* kept,
                                                       Progress& progress) {
  const std::uint64_t total = std::max<std::uint64_t>(expansion.requests(), 1);
  std::uint64_t shown = 0;
  const RequestTable& table = expansion.files().table;
  if (writer) writer->begin_replica(expansion.files());
  DependencyChecker dependencies;
  std::vector<Request> block;
  block.reserve(kStreamedRequests);
  std::uint64_t made = 0;
  while (true) {
    throw_if_interrupted();
    block.clear();
    if (expansion.next(block, kStreamedRequests) == 0) break;
    if (timing) {
      try {
        for (Request& r : block) timing->time(r, is_data(table.op_class(r)));
      } catch (const UserError& e) {
        throw UserError(spec.timing == RequestsSpec::Timing::counts
                            ? fmt::format("timing: ensemble '{}', the row of replica {}: {}", spec.timing_ensemble,
                                          replica, e.what())
                            : fmt::format("timing: {}, replica {}: {}", timing_text(spec), replica, e.what()));
      }
    }
    for (const Request& r : block) dependencies.add(table, r, made++);
    if (writer) writer->append(block);
    if (kept) kept->table.requests.insert(kept->table.requests.end(), block.begin(), block.end());
    const std::uint64_t units = kProgressPerReplica * made / total;
    progress.advance(units - std::exchange(shown, units));
  }
  progress.advance(kProgressPerReplica - shown);
  return {made, dependencies.report().total()};
}

// The end of the memory guard's message: what the budget leaves for `replica`.
std::string budget_note(const RequestsPlan& plan, const RequestsSpec& spec, std::uint64_t left, std::uint32_t replica,
                        bool keep_replicas) {
  return fmt::format(
      "the memory budget {} leaves {} for replica {} ({} per request, {} per file; {}); lower processes "
      "or replicas, or raise --memory-limit",
      budget_text(plan), format_bytes(left), replica, format_bytes(kBytesPerRequest), format_bytes(kBytesPerFile),
      holding_text(spec, keep_replicas));
}

// The attributes of /requests/<name>.
std::vector<Attribute> entry_attributes(const RunConfig& config, const RequestsSpec& spec, const EntrySource& source,
                                        const SynthesisOptions& options, const RequestsOutcome& outcome) {
  std::vector<Attribute> attributes = {
      {"mode", std::string(spec.synthesis.template_mode ? "template" : "sample")},
      {"processes", static_cast<std::int64_t>(source.processes)},
      {"replicas", static_cast<std::int64_t>(spec.replicas)},
      {"seed", static_cast<std::uint64_t>(config.seed)},
      {"stream", static_cast<std::uint64_t>(options.key.stream)},
      {"timing", timing_text(spec)},
      {"source", spec.given ? std::string("characteristics given in the config")
                            : fmt::format("{} ({})", fmt::join(spec.traces, ", "), spec.format)},
      {"dependency_violations", static_cast<std::int64_t>(outcome.violations)},
      {"rank_classes", static_cast<std::int64_t>(source.synthesis.classes.size())}};
  if (spec.timing == RequestsSpec::Timing::counts) {
    attributes.push_back({"bin_width", spec.bin_width});
    attributes.push_back({"filled_bins", static_cast<std::int64_t>(outcome.filled_bins)});
  }
  if (source.phases) {
    const PhaseModel& phases = *source.phases;
    attributes.push_back({"phases", static_cast<std::int64_t>(phases.phases.size())});
    attributes.push_back({"phase_split", phases.split});
    attributes.push_back({"phase_skew_median", phases.skew_median});
    attributes.push_back({"phase_participation", phases.participation});
    attributes.push_back({"trace_overlaps", static_cast<std::int64_t>(phases.overlaps)});
    for (const auto& [name, spread] : phases.named_spreads()) {
      attributes.push_back({fmt::format("phase_{}_sd", name), spread->sd});
      attributes.push_back({fmt::format("phase_{}_sd_se", name), spread->se});
      attributes.push_back({fmt::format("phase_{}_df", name), static_cast<std::int64_t>(spread->df)});
      attributes.push_back({fmt::format("phase_{}_validity", name), std::string(spread->validity())});
    }
  }
  return attributes;
}

// What a user should know of the phases' spread where its fit is weak or has nothing to fit, else "".
std::string spread_warning(const RequestsSpec& spec, const PhaseModel& phases) {
  if (phases.span_spread.df == 0 && phases.gap_spread.df == 0)
    return fmt::format(
        "warning: requests '{}': no phase of the trace repeats (or none spans 100 ticks of its clock), so the "
        "replicas timed by its phases have no spread of their own: at the trace's rank count they are one run, "
        "and a replay's exchangeability is decided by the replay's own noise",
        spec.name);
  std::vector<std::string> weak;
  for (const auto& [what, spread] :
       {std::pair{"a phase's span", &phases.span_spread}, std::pair{"the gap after a phase", &phases.gap_spread}})
    if (std::string_view(spread->validity()) == "weak")
      weak.push_back(fmt::format("the log SD of {}, {:.3g} ± {:.2g}, from {} degrees of freedom", what, spread->sd,
                                 spread->se, spread->df));
  if (weak.empty()) return "";
  return fmt::format(
      "warning: requests '{}': the replicas' spread is fitted from the few repeated phases of one "
      "trace (validity weak): {}",
      spec.name, fmt::join(weak, "; "));
}

// How one replica is timed: by its ensemble's counts in `file` (an
// EnsembleFile or the ranks' ParallelSeriesFile), by the trace's phases, or
// (neither) by slack, already.
struct ReplicaTiming {
  std::optional<CountsTiming> counts;
  std::optional<PhaseTiming> phases;
  RequestTiming* get() { return counts ? static_cast<RequestTiming*>(&*counts) : phases ? &*phases : nullptr; }
};

template <class File>
ReplicaTiming replica_timing(const RequestsSpec& spec, const EntrySource& source, const File& file,
                             const Expansion& expansion, const SynthesisOptions& options, std::uint32_t replica) {
  ReplicaTiming timing;
  if (spec.timing == RequestsSpec::Timing::counts)
    timing.counts.emplace(file.read_row(spec.timing_ensemble, replica), spec.bin_width);
  if (source.phases) try {
      timing.phases.emplace(*source.phases, expansion, options, replica);
    } catch (const UserError& e) {
      throw UserError(fmt::format("timing: {}, replica {}: {}", timing_text(spec), replica, e.what()));
    }
  return timing;
}

// One replica's requests and dependency violations added to its entry's
// outcome; replica 0's timing gives the bins it filled.
void add_replica(RequestsOutcome& outcome, std::uint32_t replica, std::uint64_t requests, std::uint64_t violations,
                 const ReplicaTiming& timing) {
  if (replica == 0 && timing.counts) {
    outcome.filled_bins = timing.counts->filled_bins();
    outcome.counted_bins = timing.counts->bins();
  }
  outcome.requests += requests;
  outcome.violations += violations;
}

// A workload of the user's size: the estimate before missed it, the machine had less than it said.
UserError out_of_memory(const RunConfig& config, const RequestsPlan& plan, const RequestsSpec& spec) {
  return UserError(
      fmt::format("{}: out of memory while synthesizing (the budget was {}); lower processes or "
                  "replicas, or give a smaller --memory-limit so that the plan refuses it before any "
                  "work",
                  located(config, spec), budget_text(plan)));
}

// `on_ranks`: the rows made and written by every MPI rank.
void log_entry(const RequestsSpec& spec, const RequestsOutcome& outcome, std::int32_t processes, bool on_ranks,
               const ExecutionContext& context) {
  context.log(fmt::format(
      "requests '{}': {} requests in {} replica(s) of {} processes, {} dependency "
      "violations, {:.2f} s{}{}",
      spec.name, outcome.requests, spec.replicas, processes, outcome.violations, outcome.seconds,
      on_ranks ? fmt::format(" on {} MPI ranks", ranks().size) : "",
      spec.timing_ensemble.empty() ? ""
                                   : fmt::format("; replica 0 fills {} of the {} bins of '{}'", outcome.filled_bins,
                                                 outcome.counted_bins, spec.timing_ensemble)));
}

}  // namespace

namespace {

// synthesize_requests into `file` (none: nothing written, for a replay before
// the file is staged), timed by the ensembles' rows in `rows` (the file, or HeldRows).
template <class Rows>
std::vector<RequestsOutcome> synthesize_into(const RunConfig& config, const RequestsPlan& plan, EnsembleFile* file,
                                             const Rows& rows, const ExecutionContext& context, bool keep_replicas,
                                             std::vector<RequestsOnRanks>* on_ranks) {
  std::vector<RequestsOutcome> outcomes;
  if (config.requests.empty()) return outcomes;
  if (!on_ranks && file) fault_point("requests");  // else met by every rank before
  std::uint64_t held = 0;  // the texts' replicas of the entries before
  for (std::size_t entry = 0; entry < config.requests.size(); ++entry) {
    const RequestsSpec& spec = config.requests[entry];
    const auto start = std::chrono::steady_clock::now();
    RequestsOutcome outcome;
    outcome.name = spec.name;
    if (on_ranks) outcome = std::move((*on_ranks)[entry].outcome);
    const bool emits = emits_texts(spec);
    std::int32_t processes = spec.processes;
    try {
      const EntrySource& source = *plan.entries[entry].source;
      processes = source.processes;
      if (source.phases && !on_ranks)
        if (const std::string w = spread_warning(spec, *source.phases); !w.empty()) context.log(w);
      SynthesisOptions options = spec.synthesis;
      options.key.seed = config.seed;
      std::optional<RequestsEntryWriter> writer;  // made with the first replica, whose size it takes as typical
      // On ranks only the emitted replica is made here (again): its rows are in the table.
      const std::uint32_t first = on_ranks ? spec.emit.replica : 0;
      const std::uint32_t end = on_ranks ? first + (emits ? 1 : 0) : spec.replicas;
      Progress progress(kProgressPerReplica * (end - first), context.quiet || end == first);
      progress.begin(fmt::format(on_ranks ? "requests {}, replica for the texts" : "requests {}", spec.name));
      std::uint64_t used = held;
      for (std::uint32_t replica = first; replica < end; ++replica) {
        throw_if_interrupted();
        const bool whole = keep_replicas || (emits && replica == spec.emit.replica);
        // The guard inside the synthesis: what the budget leaves for this replica.
        options.max_replica_bytes = plan.budget > used ? plan.budget - used : 0;
        options.limit_note = budget_note(plan, spec, options.max_replica_bytes, replica, keep_replicas);
        Expansion expansion = synthesize_replica(source.synthesis, options, replica, processes, whole);
        if (!writer && !on_ranks && file) writer.emplace(*file, spec.name, expansion.requests() * spec.replicas);
        ReplicaTiming timing = replica_timing(spec, source, rows, expansion, options, replica);
        Workload kept;
        if (whole) {
          kept = expansion.files();
          kept.table.requests.reserve(expansion.requests());
        }
        const auto [requests, violations] = stream_replica(
            spec, replica, expansion, timing.get(), writer ? &*writer : nullptr, whole ? &kept : nullptr, progress);
        if (!on_ranks) add_replica(outcome, replica, requests, violations, timing);  // else counted on the ranks
        if (!whole) continue;
        used += replica_bytes(static_cast<double>(requests), static_cast<double>(kept.table.files.size()));
        if (emits && replica == spec.emit.replica) outcome.emitted = keep_replicas ? kept : std::move(kept);
        if (keep_replicas) outcome.replicas.push_back(std::move(kept));
      }
      const std::vector<Attribute> attributes = entry_attributes(config, spec, source, options, outcome);
      const TraceCharacterization* characterized = spec.given ? nullptr : source.characterized.get();
      if (on_ranks) {
        finish_requests_entry(*file, spec.name, (*on_ranks)[entry].names, attributes, characterized);
      } else if (file) {
        if (!writer) writer.emplace(*file, spec.name, 0);
        writer->finish(attributes, characterized);
      }
      progress.finish();
      if (emits)
        held += replica_bytes(static_cast<double>(outcome.emitted.table.requests.size()),
                              static_cast<double>(outcome.emitted.table.files.size()));
    } catch (const std::bad_alloc&) {
      throw out_of_memory(config, plan, spec);
    } catch (const UserError& e) {
      throw UserError(fmt::format("{}: {}", located(config, spec), e.what()));
    }
    outcome.seconds += seconds_since(start);
    log_entry(spec, outcome, processes, on_ranks != nullptr, context);
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

}  // namespace

std::vector<RequestsOutcome> synthesize_requests(const RunConfig& config, const RequestsPlan& plan, EnsembleFile& file,
                                                 const ExecutionContext& context, bool keep_replicas,
                                                 std::vector<RequestsOnRanks>* on_ranks) {
  return synthesize_into(config, plan, &file, file, context, keep_replicas, on_ranks);
}

std::vector<RequestsOutcome> synthesize_held_requests(const RunConfig& config, const RequestsPlan& plan,
                                                      const HeldRows& rows, const ExecutionContext& context) {
  return synthesize_into(config, plan, nullptr, rows, context, true, nullptr);
}

std::vector<double> HeldRows::read_row(const std::string& name, std::uint64_t replica) const {
  // EnsembleFile::read_row's refusals, where the file would have said them.
  const auto found = ensembles.find(name);
  const std::string purpose = "requests timed by an ensemble";
  if (found == ensembles.end())
    throw UserError(fmt::format("{}: ensemble '{}' has no stored series in this run", purpose, name));
  if (found->second.stored == 0) throw UserError(fmt::format("{}: ensemble '{}' stored no replica", purpose, name));
  const std::uint64_t row = replica % found->second.stored;
  if (row >= found->second.rows.size())
    throw InternalError("HeldRows::read_row", fmt::format("row {} of '{}' was not generated", row, name), __FILE__,
                        __LINE__);
  return found->second.rows[row];
}

bool requests_on_ranks(const RunConfig& config) { return several_ranks() && !config.requests.empty(); }

#ifdef GPUSYNTH_HAVE_MPI
namespace {

// A rank's names for the others: the count of ops, then every op and file, each ended by a NUL.
std::string names_text(const RequestNames& names) {
  std::string text = std::to_string(names.ops().size()) + '\0';
  for (const auto* list : {&names.ops(), &names.files()})
    for (const std::string& name : *list) text += name + '\0';
  return text;
}

// Rank by rank, each rank's names added in the order they first appear there:
// the order one rank meets them in, replica by replica (a name already met on
// a rank before keeps its index).
RequestNames merged_names(const std::vector<std::string>& texts) {
  RequestNames merged;
  for (const std::string& text : texts) {
    std::vector<std::string> parts;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = text.find('\0', at);
      parts.push_back(text.substr(at, end - at));
      at = end + 1;
    }
    const auto ops_end = parts.begin() + 1 + static_cast<std::ptrdiff_t>(std::stoull(parts.front()));
    merged.add({parts.begin() + 1, ops_end}, {ops_end, parts.end()});
  }
  return merged;
}

RequestsOnRanks write_entry_on_ranks(const RunConfig& config, const RequestsPlan& plan, const RequestsSpec& spec,
                                     const EntrySource& source, ParallelSeriesFile& shared,
                                     const ExecutionContext& context) {
  const auto start = std::chrono::steady_clock::now();
  SynthesisOptions options = spec.synthesis;
  options.key.seed = config.seed;
  options.max_replica_bytes = plan.budget;
  const auto make = [&](std::uint32_t replica) {
    options.limit_note = budget_note(plan, spec, options.max_replica_bytes, replica, false);
    return synthesize_replica(source.synthesis, options, replica, source.processes, false);
  };
  const ReplicaRange mine = replica_range(spec.replicas, ranks().rank, ranks().size);
  const auto first = static_cast<std::uint32_t>(mine.first), end = static_cast<std::uint32_t>(mine.first + mine.count);
  // The layout: the share's sizes and names (a path and its file names are
  // cheap beside its requests, made again below).
  RequestNames names;
  std::uint64_t rows = 0, first_rows = 0;
  for (std::uint32_t replica = first; replica < end; ++replica) {
    throw_if_interrupted();
    const Expansion expansion = make(replica);
    names.add(expansion.files().table.ops, expansion.files().table.files);
    rows += expansion.requests();
    if (replica == 0) first_rows = expansion.requests();
  }
  RequestsOnRanks done;
  done.names = merged_names(texts_of_every_rank(names_text(names)));
  const RequestsEntryWriter::RanksShare share{first, sum_over_lower_ranks(rows), sum_over_ranks(rows), done.names};
  // One rank's chunks: replica 0's requests (rank 0's) as the typical replica.
  RequestsEntryWriter writer(shared, spec.name, sum_over_ranks(first_rows) * spec.replicas, share);
  Progress progress(kProgressPerReplica * mine.count, context.quiet || !is_root_rank());
  progress.begin(fmt::format("requests {} (rank 0's share of {} ranks)", spec.name, ranks().size));
  RequestsOutcome& outcome = done.outcome;
  outcome.name = spec.name;
  for (std::uint32_t replica = first; replica < end; ++replica) {
    throw_if_interrupted();
    Expansion expansion = make(replica);
    ReplicaTiming timing = replica_timing(spec, source, shared, expansion, options, replica);
    const auto [requests, violations] =
        stream_replica(spec, replica, expansion, timing.get(), &writer, nullptr, progress);
    add_replica(outcome, replica, requests, violations, timing);
  }
  writer.finish_share();
  progress.finish();
  outcome.requests = sum_over_ranks(outcome.requests);
  outcome.violations = sum_over_ranks(outcome.violations);
  outcome.seconds = seconds_since(start);
  return done;
}

}  // namespace

std::vector<RequestsOnRanks> write_requests_on_ranks(const RunConfig& config, const RequestsPlan& plan,
                                                     EnsembleFile* file, const ExecutionContext& context) {
  fault_point("requests");
  if (file) file->suspend();
  ParallelSeriesFile shared(broadcast_from_root(file ? file->temp_path() : std::string()));
  std::vector<RequestsOnRanks> written;
  for (std::size_t entry = 0; entry < config.requests.size(); ++entry) {
    const RequestsSpec& spec = config.requests[entry];
    try {
      written.push_back(write_entry_on_ranks(config, plan, spec, *plan.entries[entry].source, shared, context));
    } catch (const std::bad_alloc&) {
      throw out_of_memory(config, plan, spec);
    } catch (const UserError& e) {
      throw UserError(fmt::format("{}: {}", located(config, spec), e.what()));
    }
  }
  shared.close();
  if (file) file->resume();
  return written;
}
#else
std::vector<RequestsOnRanks> write_requests_on_ranks(const RunConfig&, const RequestsPlan&, EnsembleFile*,
                                                     const ExecutionContext&) {
  return {};  // one rank: never called (requests_on_ranks is false)
}
#endif

RequestTexts::RequestTexts(const RunConfig& config, std::vector<RequestsOutcome>& outcomes,
                           const ExecutionContext& context)
    : context_(context) {
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const RequestsSpec& spec = config.requests[i];
    Workload& w = outcomes[i].emitted;
    const std::string title = fmt::format("requests '{}' of {}, replica {}, {} processes, seed {}", spec.name,
                                          config.path, spec.emit.replica, w.processes, config.seed);
    const std::string where = spec.where + ".emit.";
    try {
      if (!spec.emit.fio.empty()) {
        Staged staged;
        staged.path = emit_path(config, spec.emit.fio);
        staged.directory = std::make_unique<PendingReplayDirectory>(staged.path, where + "fio");
        const FioSummary s = stage_fio_replay(*staged.directory, w, title);
        staged.log = fmt::format(
            "wrote {}: fio iologs of {} processes, {} entries: {} ({} metadata operations fio "
            "cannot issue, {} data requests without offset, empty or of 4 GiB or more, and {} "
            "processes without I/O left out)",
            staged.path, s.processes - s.processes_without_io, s.logged, s.volume(w.table.files.size()),
            s.skipped_metadata, s.skipped_empty, s.processes_without_io);
        staged_.push_back(std::move(staged));
      }
      const std::pair<const std::string*, const char*> texts[] = {{&spec.emit.disksim, "disksim"},
                                                                  {&spec.emit.dxt, "dxt"}};
      for (const auto& [given, key] : texts) {
        if (given->empty()) continue;
        throw_if_interrupted();
        Staged staged;
        staged.path = emit_path(config, *given);
        staged.file = std::make_unique<PendingOutput>(staged.path, where + key);
        write_pending_text(*staged.file, std::string(key) == std::string("dxt") ? dxt_text(w) : disksim_text(w));
        staged.log = fmt::format("wrote {} ({})", staged.path,
                                 std::string(key) == std::string("dxt") ? "DXT-like text" : "DiskSim ASCII");
        staged_.push_back(std::move(staged));
      }
    } catch (const UserError& e) {
      throw UserError(fmt::format("{}: {}", located(config, spec), e.what()));
    }
    w = Workload{};  // staged: its memory is free for the next
  }
  for (Staged& s : staged_) {  // a full disk, a quota: shown here, before anything is in place
    throw_if_interrupted();
    if (s.directory)
      s.directory->sync();
    else
      s.file->sync();
  }
}

RequestTexts::~RequestTexts() = default;

void RequestTexts::publish(const std::string& committed) {
  for (std::size_t i = 0; i < staged_.size(); ++i) {
    try {
      if (staged_[i].directory)
        staged_[i].directory->publish();
      else
        staged_[i].file->publish();
    } catch (const UserError& e) {
      std::vector<std::string> in_place = {committed}, not_written;
      for (std::size_t j = 0; j < staged_.size(); ++j) (j < i ? in_place : not_written).push_back(staged_[j].path);
      throw UserError(fmt::format("{}; the outputs of this run are not all in place: written {}; not written {}",
                                  e.what(), fmt::join(in_place, ", "), fmt::join(not_written, ", ")));
    }
    context_.log(staged_[i].log);
  }
}

}  // namespace gs
