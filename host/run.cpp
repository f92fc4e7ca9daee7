#include "host/run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <future>
#include <map>
#include <optional>

#include "host/backend.hpp"
#include "host/errors.hpp"
#include "host/interrupt.hpp"
#include "host/plan.hpp"
#include "host/prepare.hpp"
#include "host/progress.hpp"
#include "host/stats.hpp"
#include "host/study.hpp"
#include "host/sysinfo.hpp"
#include "io/ensemble_file.hpp"
#include "version.hpp"

namespace gs {

namespace {

struct Interrupted {
  int signal;
};

void check_interrupt() {
  if (const int signal = pending_interrupt()) throw Interrupted{signal};
}

// Which Philox counters an ensemble's values use (the model headers in
// kernels/ say the same).
std::string rng_use(const EnsembleSpec& spec) {
  const std::string u = "u = (word + 1/2)/2^32";
  const std::string box_muller = "Box-Muller: radius from words 0,1 as a 64-bit uniform, angle from word 2";
  if (std::holds_alternative<LfsnModel>(spec.params)) {
    return "fine-grid point t of replica r: one Philox call at (replica r, position t, draw 0); words 0,1 -> Z(t) ~ "
           "S1(alpha, beta, 1, 0) (Chambers-Mallows-Stuck, " +
           u + ")";
  }
  if (const auto* farima = std::get_if<FarimaModel>(&spec.params);
      farima && farima->innovations == Innovations::stable) {
    return "innovation eps(t), t = 0..truncation+length-1, of replica r: one Philox call at (replica r, position t, "
           "draw 0), words 0,1 (Chambers-Mallows-Stuck, " +
           u + "); X(i) uses eps(i..i+truncation)";
  }
  if (std::holds_alternative<FgnModel>(spec.params) || std::holds_alternative<NorrosModel>(spec.params) ||
      std::holds_alternative<FarimaModel>(spec.params)) {
    return "frequency j = 0..M/2 of the circulant embedding of replica r: one Philox call at (replica r, position j, "
           "draw 0), words 0-2 -> (U_j, V_j) (" +
           box_muller + ")";
  }
  if (std::holds_alternative<NormalModel>(spec.params)) {
    return "bins 2j and 2j+1 of replica r: one Philox call at (replica r, position j, draw 0), words 0-2 (" +
           box_muller + ")";
  }
  if (std::holds_alternative<MarkovModel>(spec.params)) {
    return "bin t of replica r: one Philox call at (replica r, position t, draw 0); word 0 picks the state (" + u +
           "), words 1-3 the within-state noise (" + box_muller + ")";
  }
  if (std::holds_alternative<HmmModel>(spec.params)) {
    return "replica r: sojourn e uses (replica r, position e, draw 0), words 0,1 -> its Exp holding time (64-bit "
           "uniform), word 2 -> the state it jumps to; observation i uses (replica r, position i, draw 1), words 0-2 "
           "-> the emission's normal (" +
           box_muller +
           "); the initial state is word 0 of (replica r, position 0, "
           "draw 2)";
  }
  return "bins 2j and 2j+1 of replica r: one Philox call at (replica r, position j, draw 0); words 0,1 -> bin 2j, "
         "words 2,3 -> bin 2j+1 (Chambers-Mallows-Stuck, " +
         u + ")";
}

std::vector<Attribute> root_attributes(const RunConfig& config, const RunPlan& plan, const RunOptions& options) {
  return {
      {"file_type", std::string("gpusynth ensembles")},
      {"format_version", std::string("1.0")},
      {"description",
       std::string("Synthetic parallel I/O workload ensembles made by gpusynth. Each group under /ensembles is one "
                   "ensemble: its attributes give the model, every parameter, the workload mapping "
                   "IOs(i) = v*X(i) + delta and the random-number stream; its dataset 'series' has shape "
                   "(replicas, bins), one independent realization per row.")},
      {"gpusynth_version", std::string(kVersion)},
      {"git_revision", std::string(kGitRevision)},
      {"created_utc", utc_now_iso8601()},
      {"seed", config.seed},
      {"backend", std::string(to_string(plan.backend))},
      {"device", plan.device},
      {"host", host_name()},
      {"command_line", options.command_line},
      {"config_path", config.path},
      {"config", config.text},
      {"rng",
       std::string("Philox4x32-10 (Random123). key = (seed mod 2^32, seed div 2^32); counter = (position mod 2^32, "
                   "(position div 2^32) + 2^24*draw, replica, stream). Each ensemble's attribute rng_use says "
                   "which counters its values use.")},
  };
}

std::vector<Attribute> ensemble_attributes(const EnsemblePlan& ensemble, const Tally& tally) {
  const EnsembleSpec& spec = *ensemble.job.spec;
  std::vector<Attribute> attrs = {
      {"model", std::string(model_name(spec.params))},
      {"mapping", std::string("IOs(i) = v*X(i) + delta (eq. (5) of the alpha-stable workload paper)")},
      {"workload_v", spec.workload.v},
      {"workload_delta", spec.workload.delta},
      {"values", std::string(to_string(spec.values))},
      {"values_rule", std::string(spec.values == ValueKind::counts
                                      ? "rounded to the nearest integer (halves up), negative counts clipped to 0, "
                                        "counts above 2^32-1 saturated"
                                      : "stored as computed; values beyond the storage type saturate at its largest "
                                        "finite value")},
      {"dtype", std::string(to_string(spec.dtype))},
      {"storage_type", std::string(to_string(ensemble.job.storage))},
      {"replicas", spec.replicas},
      {"length", spec.length},
      {"seed", ensemble.job.key.seed},
      {"stream", static_cast<std::uint64_t>(spec.stream)},
      {"stream_source", std::string(spec.stream_given ? "config key 'stream'" : "FNV-1a hash of the ensemble name")},
      {"rng_use", rng_use(spec)},
      {"clipped_bins", tally.clipped},
      {"saturated_values", tally.saturated},
  };
  for (auto& attr : describe_model(spec.params)) attrs.push_back(std::move(attr));
  if (const auto& spectral = ensemble.job.spectral) {
    for (const auto& attr : spectral->attributes) attrs.push_back(attr);
  }
  return attrs;
}

void write_series_attributes(SeriesDataset& series, const EnsembleSpec& spec) {
  h5::write_attributes(
      series.dataset(),
      {
          {"dimensions", std::string("replica, bin")},
          {"units", std::string(spec.values == ValueKind::counts ? "I/O requests per bin" : "v*X + delta per bin")},
      });
}

void write_observation_times(SeriesDataset& series, const EnsembleJob& job) {
  const HmmKernel<float> kernel = make_hmm_kernel<float>(job);  // times as the kernel sees them
  std::vector<double> times(job.spec->length);
  for (std::uint64_t i = 0; i < times.size(); ++i) times[i] = kernel.observation_time(i);
  series.write_vector("observation_times", times,
                      {{"description", std::string("the time of each column of series (the hmm's observation "
                                                   "times), in the unit of the generator's rates")}});
}

struct EnsembleResult {
  Tally tally;
  double generate_seconds = 0;          // inside the backend, per batch
  double write_seconds = 0;             // inside the writer thread
  double compare_seconds = 0;           // per-replica metrics, while the batch is written
  std::uint64_t compared_in_place = 0;  // replicas the backend compared where they were generated
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Generates one ensemble batch by batch; the write of batch k runs on a
// separate thread while batch k+1 is generated, and a study compares batch k
// with its dataset while it is written. Without a file (--no-output) the
// batches are generated (and compared) and dropped. Only the first `stored`
// replicas are written (a study's store_replicas); a batch that is not
// written stays on a backend that compares in place.
EnsembleResult generate_ensemble(const EnsemblePlan& ensemble, BackendDevice& backend, EnsembleFile* file,
                                 int compression, std::uint64_t stored, Study* study, Progress& progress) {
  const EnsembleSpec& spec = *ensemble.job.spec;
  stored = std::min(stored, spec.replicas);
  const ChunkShape chunk =
      stored < spec.replicas
          ? series_chunk_shape(stored, spec.length, storage_bytes(ensemble.job.storage), ensemble.chunk.rows)
          : ensemble.chunk;
  if (study && !study->compares(spec)) study = nullptr;
  std::optional<SeriesDataset> series;
  if (file) {
    series.emplace(file->create_series(spec.name, ensemble.job.storage, stored, spec.length, chunk, compression));
    write_series_attributes(*series, spec);
    if (std::holds_alternative<HmmModel>(spec.params)) write_observation_times(*series, ensemble.job);
  }
  auto generator = backend.make_generator(ensemble.job, ensemble.batch_replicas);
  // A backend that compares in place (CUDA) keeps the batch where it is unless
  // some of its replicas are stored.
  const bool in_place = study && generator->compares_in_place() && spec.length == study->real_of(spec).values.size();
  if (in_place) generator->set_comparison(study->real_of(spec), study->options());
  const std::size_t buffer_bytes = ensemble.batch_replicas * ensemble.row_bytes;
  HostBuffer buffers[2] = {backend.host_buffer(buffer_bytes), backend.host_buffer(buffer_bytes)};
  std::future<double> pending_write;
  EnsembleResult result;
  progress.begin(spec.name);
  try {
    for (std::uint64_t b = 0; b < ensemble.batches; ++b) {
      check_interrupt();
      const std::uint64_t first = b * ensemble.batch_replicas;
      const std::uint64_t count = std::min(ensemble.batch_replicas, spec.replicas - first);
      const bool stored_here = series && first < stored;
      const bool stays_on_device = in_place && !stored_here;
      unsigned char* buffer = stays_on_device ? nullptr : buffers[b % 2].get();
      const auto start = std::chrono::steady_clock::now();
      result.tally += generator->generate(first, count, buffer);
      result.generate_seconds += seconds_since(start);
      check_interrupt();  // a generator stops early when interrupted: its batch is incomplete
      if (pending_write.valid()) result.write_seconds += pending_write.get();
      if (stored_here) {
        const std::uint64_t rows = std::min(count, stored - first);
        pending_write = std::async(std::launch::async, [&series, first, rows, buffer] {
          const auto write_start = std::chrono::steady_clock::now();
          series->write_rows(first, rows, buffer);
          return seconds_since(write_start);
        });
      }
      if (study) {
        const auto compare_start = std::chrono::steady_clock::now();
        if (in_place) {
          study->add_compared(spec, first, count, generator->compare_batch(count));
          result.compared_in_place += count;
        } else {
          study->add_batch(spec, first, count, buffer, ensemble.job.storage);
        }
        result.compare_seconds += seconds_since(compare_start);
      }
      progress.advance(count * spec.length);
    }
    if (pending_write.valid()) result.write_seconds += pending_write.get();
  } catch (...) {
    if (pending_write.valid()) pending_write.wait();
    throw;
  }
  if (series) {
    series->write_attributes(ensemble_attributes(ensemble, result.tally));
    if (!spec.fit.empty()) series->write_fit(spec.fit);
  }
  return result;
}

// A referenced real trace as stored: its series and provenance.
struct LoadedDataset {
  std::vector<double> series;
  std::vector<Attribute> attributes;
};

LoadedDataset loaded_dataset(const DatasetSpec& dataset, TraceStatistics s) {
  LoadedDataset loaded{{}, dataset_attributes(s, trace_digests(dataset.read.traces))};
  loaded.attributes.push_back({"length", static_cast<std::uint64_t>(s.series.size())});
  loaded.series = std::move(s.series);
  return loaded;
}

// An hmm ensemble with `times: dataset` takes the observation times of its
// dataset, which must be a series trace of the ensemble's length.
void fill_dataset_times(RunConfig& config, const std::vector<TraceStatistics>& traces) {
  for (EnsembleSpec& spec : config.ensembles) {
    auto* hmm = std::get_if<HmmModel>(&spec.params);
    if (!hmm || !hmm->times_from_dataset) continue;
    const auto dataset = std::find_if(config.datasets.begin(), config.datasets.end(),
                                      [&](const DatasetSpec& d) { return d.name == spec.dataset; });
    const std::string where = fmt::format("{}:{}: ensemble '{}'", config.path, spec.line, spec.name);
    if (dataset == config.datasets.end())
      throw UserError(
          fmt::format("{}: params.times = dataset needs the ensemble's `dataset:` (one of the "
                      "config's datasets)",
                      where));
    const Trace& trace = traces[static_cast<std::size_t>(dataset - config.datasets.begin())].trace;
    if (trace.kind != Trace::Kind::series)
      throw UserError(
          fmt::format("{}: dataset '{}' is binned and has no observation times; params.times = dataset "
                      "needs a `series` trace",
                      where, spec.dataset));
    if (trace.series_times.size() != spec.length)
      throw UserError(fmt::format("{}: length = {} but dataset '{}' has {} observation times; accepted: length = {}",
                                  where, spec.length, spec.dataset, trace.series_times.size(),
                                  trace.series_times.size()));
    hmm->times = trace.series_times;
    hmm->times_source = "dataset " + spec.dataset;
  }
}

void check_disk_space(const RunPlan& plan, const RunConfig& config, bool quiet) {
  const std::uint64_t free = free_disk_bytes(config.output);
  if (free == 0 || plan.total_bytes <= free) return;
  if (config.compression == 0) {
    throw UserError(
        fmt::format("output '{}': the ensembles need {} uncompressed but only {} is free on that file "
                    "system; free some space, choose another output (-o) or enable compression",
                    config.output, format_bytes(plan.total_bytes), format_bytes(free)));
  }
  log_info(quiet, fmt::format("warning: the ensembles are {} uncompressed and only {} is free at '{}'; the run "
                              "relies on compression",
                              format_bytes(plan.total_bytes), format_bytes(free), config.output));
}

}  // namespace

void apply_overrides(RunConfig& config, const RunOptions& options) {
  if (options.seed) {
    config.seed = *options.seed;
    config.seed_given = true;
  }
  if (options.output) {
    if (options.output->empty()) throw UserError("--output must not be empty");
    config.output = *options.output;
  }
  if (options.backend) config.backend = *options.backend;
  if (options.replicas) {
    if (*options.replicas < 1 || *options.replicas > 0xffffffffull) {
      throw UserError(fmt::format("--replicas {} is out of range; accepted: 1 to 4294967295", *options.replicas));
    }
    for (auto& ensemble : config.ensembles) ensemble.replicas = *options.replicas;
    config.study.replicas = *options.replicas;
  }
}

int run_command(const RunOptions& options) {
  RunConfig config = load_config(options.config_path);
  apply_overrides(config, options);
  // Every dataset is read once, as `gpusynth stats` reads it: for the fits and the file.
  std::vector<TraceStatistics> traces;
  for (const DatasetSpec& dataset : config.datasets) traces.push_back(read_series(dataset.read));
  const auto fit_start = std::chrono::steady_clock::now();
  std::vector<StoppedModel> stopped = add_fitted_ensembles(config, traces, options.quiet);
  const double fit_seconds = seconds_since(fit_start);
  fill_dataset_times(config, traces);
  std::map<std::string, LoadedDataset> datasets;
  for (std::size_t i = 0; i < traces.size(); ++i)
    datasets.emplace(config.datasets[i].name, loaded_dataset(config.datasets[i], std::move(traces[i])));
  traces.clear();
  std::string backend_log;
  auto backend = open_backend(config.backend, backend_log);
  const RunPlan plan = make_plan(config, *backend, options.memory_limit);
  if (options.dry_run) {
    std::fputs(format_plan(plan, config).c_str(), stdout);
    std::fputs("dry run: nothing written\n", stdout);
    return kExitOk;
  }
  log_info(options.quiet, backend_log + "; " + plan.device);
  for (const EnsemblePlan& ensemble : plan.ensembles) {
    if (ensemble.job.spectral && !ensemble.job.spectral->warning.empty()) {
      log_info(options.quiet,
               fmt::format("warning: ensemble '{}': {}", ensemble.job.spec->name, ensemble.job.spectral->warning));
    }
  }
  if (!options.no_output) check_disk_space(plan, config, options.quiet);
  const auto start = std::chrono::steady_clock::now();
  InterruptGuard interrupts;
  std::vector<EnsembleResult> results;
  double summary_seconds = 0;
  std::string study_tables;
  try {
    std::optional<Study> study;
    if (config.study.compare) {
      std::map<std::string, std::vector<double>> series;
      for (const auto& [name, loaded] : datasets) series.emplace(name, loaded.series);
      study.emplace(config, series, std::move(stopped));
    }
    std::optional<EnsembleFile> file;
    if (!options.no_output) {
      file.emplace(config.output);
      file->write_root_attributes(root_attributes(config, plan, options));
      for (const auto& [name, loaded] : datasets) file->write_dataset(name, loaded.series, loaded.attributes);
    }
    Progress progress(plan.total_samples, options.quiet);
    const std::uint64_t stored =
        config.study.compare ? config.study.compare->store_replicas.value_or(UINT64_MAX) : UINT64_MAX;
    for (const EnsemblePlan& ensemble : plan.ensembles) {
      results.push_back(generate_ensemble(ensemble, *backend, file ? &*file : nullptr, config.compression, stored,
                                          study ? &*study : nullptr, progress));
    }
    check_interrupt();
    progress.finish();
    if (study) {
      const auto summary_start = std::chrono::steady_clock::now();
      study->summarize(config.seed, *backend->make_resampler());
      if (file) study->write(file->id());
      summary_seconds = seconds_since(summary_start);
      study_tables = study->tables();
    }
    if (file) file->commit();
  } catch (const Interrupted& interrupted) {
    std::fprintf(stderr, "\ninterrupted by signal %d: nothing was written to %s\n", interrupted.signal,
                 config.output.c_str());
    return kExitInterrupted;
  }
  std::fputs(study_tables.c_str(), stdout);
  double generate_seconds = 0, write_seconds = 0, compare_seconds = 0;
  std::uint64_t compared_in_place = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    generate_seconds += results[i].generate_seconds;
    write_seconds += results[i].write_seconds;
    compare_seconds += results[i].compare_seconds;
    compared_in_place += results[i].compared_in_place;
    if (results[i].tally.clipped || results[i].tally.saturated) {
      log_info(options.quiet,
               fmt::format("ensemble '{}': {} negative counts clipped to 0, {} values saturated "
                           "(recorded as attributes clipped_bins, saturated_values)",
                           plan.ensembles[i].job.spec->name, results[i].tally.clipped, results[i].tally.saturated));
    }
  }
  const double seconds = seconds_since(start);
  log_info(options.quiet,
           fmt::format("{} {} samples in {} ensembles: {:.2f} s wall ({:.3g} samples/s); generate "
                       "{:.2f} s, write {:.2f} s on the writer thread, overlapped",
                       options.no_output ? "generated (--no-output, nothing written)" : "wrote " + config.output + ":",
                       plan.total_samples, plan.ensembles.size(), seconds,
                       static_cast<double>(plan.total_samples) / seconds, generate_seconds, write_seconds));
  if (!config.study.models.empty() || config.study.compare)
    log_info(options.quiet,
             fmt::format("study stages: fit {:.2f} s, generate {:.2f} s, compare {:.2f} s (per-replica metrics{}), "
                         "bootstrap and summary {:.2f} s",
                         fit_seconds, generate_seconds, compare_seconds,
                         compared_in_place > 0 ? fmt::format("; {} replicas on the device", compared_in_place) : "",
                         summary_seconds));
  return kExitOk;
}

}  // namespace gs
