#include "host/engine/run.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "host/base/errors.hpp"
#include "host/base/fault_injection.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/output_file.hpp"
#include "host/base/paths.hpp"
#include "host/base/progress.hpp"
#include "host/base/ranks.hpp"
#include "host/base/sysinfo.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/datasets.hpp"
#include "host/engine/plan.hpp"
#include "host/engine/requests_run.hpp"
#include "io/bursts_file.hpp"
#include "io/compare_file.hpp"
#include "io/ensemble_file.hpp"
#include "io/parallel_series.hpp"
#include "version.hpp"

namespace gs {

namespace {

// The precision note of each backend the run's ensembles use.
std::string run_precision_note(const RunPlan& plan, const ExecutionContext& context) {
  const bool lanes = context.lanes_in_use() != CpuLanes::none;
  std::string note = math_precision_note(context.precision, plan.backend == Backend::cuda, lanes);
  const bool some_on_host = std::any_of(plan.ensembles.begin(), plan.ensembles.end(),
                                        [&](const EnsemblePlan& e) { return e.backend != plan.backend; });
  const std::string host_note = math_precision_note(context.precision, false, lanes);
  if (some_on_host && host_note != note)
    note += "; the ensembles generated on the host (attribute backend cpu): " + host_note;
  return note;
}

std::vector<Attribute> root_attributes(const RunConfig& config, const RunPlan& plan, const RunOptions& options,
                                       const ExecutionContext& context) {
  return {
      {"file_type", std::string("gpusynth ensembles")},
      {"format_version", std::string("1.0")},
      {"description",
       std::string("Synthetic parallel I/O workload ensembles made by gpusynth. Each group under /ensembles is one "
                   "ensemble: its attributes give the model, every parameter, the workload mapping "
                   "IOs(i) = v*X(i) + delta and the random-number stream; its dataset 'series' has shape "
                   "(replicas, bins), one independent realization per row.")},
      {"gpusynth_version", std::string(kVersion)},
      {"stream_version", std::int64_t{kStreamVersion}},
      {"git_revision", std::string(kGitRevision)},
      {"created_utc", utc_now_iso8601()},
      {"seed", config.seed},
      {"backend", std::string(to_string(plan.backend))},
      {"device", plan.device},
      {"precision", std::string(to_string(context.precision))},
      {"precision_note", run_precision_note(plan, context)},
      {"fft_wisdom", context.fft_wisdom ? fmt::format("{} (sha256 {}; {})", context.fft_wisdom->path,
                                                      context.fft_wisdom->sha256, fftw_version_text())
                                        : std::string()},
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

// The transforms FFTW runs for an ensemble: those of a spectral model
// generated on the host, none otherwise (cuFFT plans the device's).
std::vector<FftProblem> host_fft_problems(const EnsemblePlan& ensemble) {
  const auto& spectral = ensemble.job.generation.spectral;
  if (!spectral || ensemble.backend != Backend::cpu) return {};
  return fft_problems(*spectral);
}

// The host's FFT plans of an ensemble (their arithmetic, and so the bits,
// follow from them): each transform, and whether the run's wisdom held its
// plan. Empty where none runs on the host.
std::string host_fft_plans(const EnsemblePlan& ensemble, const FftWisdom* wisdom) {
  std::vector<std::string> plans;
  for (const FftProblem& problem : host_fft_problems(ensemble))
    plans.push_back(fmt::format("{} {}", to_string(problem),
                                wisdom_has_plan(wisdom, problem) ? "from the FFTW wisdom" : "FFTW_ESTIMATE"));
  return fmt::format("{}", fmt::join(plans, ", "));
}

// Which of the host's transforms the run's wisdom plans, with a warning for
// those it lacks (FFTW_ESTIMATE's plans run 1.2-1.9x slower).
void log_fft_wisdom(const RunPlan& plan, const ExecutionContext& context) {
  const FftWisdom* wisdom = context.fft_wisdom.get();
  if (!wisdom) return;
  std::map<FftProblem, std::vector<std::string>> users;  // each transform, the ensembles that run it
  for (const EnsemblePlan& ensemble : plan.ensembles)
    for (const FftProblem& problem : host_fft_problems(ensemble))
      users[problem].push_back(fmt::format("'{}'", ensemble.job.spec->name));
  if (users.empty()) {
    context.log(fmt::format("FFTW wisdom '{}' not used: no ensemble is transformed on the host", wisdom->path));
    return;
  }
  std::vector<std::string> missing;
  for (const auto& [problem, names] : users)
    if (!wisdom_has_plan(wisdom, problem))
      missing.push_back(fmt::format("{} (ensemble {})", to_string(problem), fmt::join(names, ", ")));
  context.log(fmt::format("FFT plans: {} of {} from the FFTW wisdom '{}'", users.size() - missing.size(), users.size(),
                          wisdom->path));
  if (!missing.empty())
    context.log(
        fmt::format("warning: the FFTW wisdom '{}' has no plan for {}: FFTW_ESTIMATE plans them (slower); "
                    "`gpusynth fft-wisdom CONFIG -o {}` adds them",
                    wisdom->path, fmt::join(missing, ", "), wisdom->path));
}

// Above this share of an ensemble's bins clipped at 0, its counts are not the fitted law's: for a
// Gaussian X of mean m and sd s clipped at 0, E[max(X, 0)] - m = s (phi(z) - z Phi(-z)) with z = m / s;
// at 5 % clipped (z = 1.645) that is 0.021 s, 1.3 % of the mean, and it grows fast beyond (3.7 % at
// 10 %, 22 % at 25 %), the variance shrinking and the zeros piling up with it.
constexpr double kClippedShareWarning = 0.05;

// The share of `spec`'s bins (every replica's) clipped to 0.
double clipped_share(const EnsembleSpec& spec, const Tally& tally) {
  return static_cast<double>(tally.clipped) / (static_cast<double>(spec.replicas) * static_cast<double>(spec.length));
}

// The warning of an ensemble whose clipped share is above kClippedShareWarning, else empty.
std::string clipped_warning(const EnsembleSpec& spec, const Tally& tally) {
  const double share = clipped_share(spec, tally);
  if (!(share > kClippedShareWarning)) return "";
  return fmt::format(
      "{:.1f} % of its bins were negative and clipped to 0 (above {:.0f} %): its counts are not the model's law (a "
      "higher mean, a lower variance, a pile of zeros); a model with a non-negative law (markov, hmm, onoff) or a "
      "coarser bin fits sparse counts better",
      100 * share, 100 * kClippedShareWarning);
}

std::vector<Attribute> ensemble_attributes(const EnsemblePlan& ensemble, const Tally& tally,
                                           const ExecutionContext& context) {
  const EnsembleSpec& spec = *ensemble.job.spec;
  std::vector<Attribute> attrs = {
      {"model", spec.model->name()},
      {"backend", std::string(to_string(ensemble.backend))},
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
      {"storage_type", std::string(to_string(ensemble.job.request.storage))},
      {"replicas", spec.replicas},
      {"length", spec.length},
      {"seed", ensemble.job.request.key.seed},
      {"stream", static_cast<std::uint64_t>(spec.stream)},
      {"stream_source", std::string(spec.stream_given ? "config key 'stream'" : "FNV-1a hash of the ensemble name")},
      {"rng_use", spec.model->rng_use()},
      {"clipped_bins", tally.clipped},
      {"clipped_share", clipped_share(spec, tally)},
      {"saturated_values", tally.saturated},
  };
  if (const std::string w = clipped_warning(spec, tally); !w.empty()) attrs.push_back({"warnings", w});
  if (std::isfinite(spec.workload.cap))  // stored as it, counted in saturated_values
    attrs.push_back({"workload_cap", spec.workload.cap});
  for (auto& attr : spec.model->describe()) attrs.push_back(std::move(attr));
  for (const auto& attr : ensemble.job.generation.attributes) attrs.push_back(attr);
  const std::string fft_plans = host_fft_plans(ensemble, context.fft_wisdom.get());
  if (!fft_plans.empty()) attrs.push_back({"fft_plans", fft_plans});
  return attrs;
}

void write_series_attributes(SeriesDataset& series, const EnsembleSpec& spec) {
  series.write_series_attributes({
      {"dimensions", std::string("replica, bin")},
      {"units", std::string(spec.values == ValueKind::counts ? "I/O requests per bin" : "v*X + delta per bin")},
  });
}

// The replicas of an ensemble a run stores: all, or a study's first store_replicas.
std::uint64_t stored_replicas_of(const RunConfig& config, const EnsembleSpec& spec) {
  return std::min(config.study.compare ? config.study.compare->store_replicas.value_or(UINT64_MAX) : UINT64_MAX,
                  spec.replicas);
}

// The chunks of the stored rows: the plan's, unless fewer rows are stored.
ChunkShape stored_chunk(const EnsemblePlan& ensemble, std::uint64_t stored) {
  const EnsembleSpec& spec = *ensemble.job.spec;
  return stored < spec.replicas
             ? series_chunk_shape(stored, spec.length, storage_bytes(ensemble.job.request.storage), ensemble.chunk.rows)
             : ensemble.chunk;
}

// /ensembles/<name>/ laid out for `stored` replicas: the series (not yet
// written), its dimension scales, attributes and side vectors.
SeriesDataset create_ensemble_series(EnsembleFile& file, const EnsemblePlan& ensemble, std::uint64_t stored,
                                     int compression) {
  const EnsembleSpec& spec = *ensemble.job.spec;
  SeriesDataset series = file.create_series(spec.name, ensemble.job.request.storage, stored, spec.length,
                                            stored_chunk(ensemble, stored), compression, spec.bin_seconds);
  write_series_attributes(series, spec);
  for (const SideVector& side : spec.model->side_vectors(spec.length))
    series.write_vector(side.name, side.values, side.attributes);
  return series;
}

// What follows the ensembles in the file: /compare, the burst analyses (made
// before, on every rank), the requests and the results of their replays (run
// before the file was staged: replay_before_staging); then the requests'
// text outputs, staged beside their targets and synced, and the commit of the run's outputs as one unit: the HDF5 file
// (the last interrupt check, its fsync) and then the texts' renames. A
// failure or a signal before the HDF5 rename leaves none of them.
// `on_ranks`: the requests' rows the MPI ranks wrote (write_requests_on_ranks).
void finish_file(const RunConfig& config, const RequestsPlan& plan, EnsembleFile& file,
                 const std::optional<Study>& study, const ExecutionContext& context,
                 std::vector<RequestsOnRanks>* on_ranks, RunOutcome& outcome) {
  if (study) write_compare(file, *study);
  write_bursts(file, outcome.bursts);
  std::vector<RequestsOutcome> requests = synthesize_requests(config, plan, file, context, false, on_ranks);
  write_replays(file, outcome.replays);
  RequestTexts texts(config, requests, context);
  file.commit();
  texts.publish(config.output);
}

// Where a run's generated rows go: the same batch loop runs on one rank and
// on many (docs/scale-out.md). One process writes its file's series on a
// thread while the next batch is generated; MPI ranks write their shares of
// the file rank 0 laid out, in collective calls that every rank makes the
// same number of times (with no rows when it has none that round).
class RowWriter {
 public:
  virtual ~RowWriter() = default;
  virtual void open(const EnsemblePlan& ensemble) = 0;
  // Rows [first, first + rows) of `buffer` (row-major); may still be writing
  // on return, so the buffer stays untouched until wait().
  virtual void write(std::uint64_t first, std::uint64_t rows, const unsigned char* buffer) = 0;
  // The last write done: the seconds it took (0 when there was none).
  virtual double wait() = 0;
  // The write in flight ended, its outcome dropped: while an exception
  // unwinds, before the buffer it reads is freed.
  virtual void settle() noexcept {}
  // After the last ensemble (collective with several ranks).
  virtual void close() {}
};

class FileRowWriter final : public RowWriter {
 public:
  FileRowWriter(EnsembleFile& file, const RunConfig& config) : file_(file), config_(config) {}
  ~FileRowWriter() override { settle(); }

  void open(const EnsemblePlan& ensemble) override {
    const EnsembleSpec& spec = *ensemble.job.spec;
    series_.emplace(file_.open_series(spec.name, ensemble.job.request.storage, spec.length,
                                      stored_chunk(ensemble, stored_replicas_of(config_, spec)), config_.compression));
  }

  void write(std::uint64_t first, std::uint64_t rows, const unsigned char* buffer) override {
    if (rows == 0) return;
    pending_ = std::async(std::launch::async, [this, first, rows, buffer] {
      const auto start = std::chrono::steady_clock::now();
      series_->write_rows(first, rows, buffer);
      return seconds_since(start);
    });
  }

  double wait() override { return pending_.valid() ? pending_.get() : 0.0; }

  void settle() noexcept override {
    if (pending_.valid()) pending_.wait();
  }

 private:
  EnsembleFile& file_;
  const RunConfig& config_;
  std::optional<SeriesDataset> series_;
  std::future<double> pending_;
};

#ifdef GPUSYNTH_HAVE_MPI
class RanksRowWriter final : public RowWriter {
 public:
  // `file`: rank 0's (suspended until close), null on the other ranks. Collective.
  explicit RanksRowWriter(EnsembleFile* file) : file_(file), shared_(suspended_path(file)) {}

  void open(const EnsemblePlan& ensemble) override {
    const EnsembleSpec& spec = *ensemble.job.spec;
    shared_.open(spec.name, ensemble.job.request.storage, spec.length);
  }

  void write(std::uint64_t first, std::uint64_t rows, const unsigned char* buffer) override {
    static constexpr unsigned char kNoRows = 0;  // a batch left on the device: nothing to read
    const auto start = std::chrono::steady_clock::now();
    shared_.write_rows(first, rows, rows > 0 ? buffer : &kNoRows);
    seconds_ = seconds_since(start);
  }

  double wait() override { return std::exchange(seconds_, 0.0); }

  void close() override {
    shared_.close();
    if (file_) file_->resume();
  }

 private:
  static std::string suspended_path(EnsembleFile* file) {
    if (file) file->suspend();
    return broadcast_from_root(file ? file->temp_path() : std::string());
  }

  EnsembleFile* file_;
  ParallelSeriesFile shared_;
  double seconds_ = 0;
};
#endif

// A signal or a failure unwinds past the write of the batch before, which
// reads one of generate_ensemble's buffers: it ends before they are freed.
struct SettledWrite {
  RowWriter* writer;
  ~SettledWrite() {
    if (writer) writer->settle();
  }
};

// Generates this rank's contiguous share of one ensemble's replicas (all of
// them on one rank) batch by batch: batch k is written (`writer`; none with
// --no-output) while batch k+1 is generated, and a study compares each batch
// with its dataset. Only the first `stored` replicas are written (a study's
// store_replicas); a batch none of whose rows is written stays on a backend
// that compares in place. Every rank makes as many rounds as rank 0 (which
// has the most replicas), as the writes are collective; the tallies are summed
// over the ranks.
EnsembleResult generate_ensemble(const EnsemblePlan& ensemble, BackendDevice& backend, RowWriter* writer,
                                 std::uint64_t stored, Study* study, Progress& progress) {
  const EnsembleSpec& spec = *ensemble.job.spec;
  const StorageType storage = ensemble.job.request.storage;
  stored = std::min(stored, spec.replicas);
  const std::optional<std::size_t> found = study ? study->find(spec.name) : std::nullopt;
  if (!found) study = nullptr;
  const std::size_t compared = found.value_or(0);  // the ensemble's index in the study
  auto generator = backend.make_generator(ensemble.job, ensemble.batch_replicas);
  // A backend that compares in place (CUDA) keeps the batch where it is unless
  // some of its replicas are stored.
  const bool in_place =
      study && generator->compares_in_place() && spec.length == study->real_of(compared).values.size();
  if (in_place) generator->set_comparison(study->real_of(compared), study->options());
  const std::size_t buffer_bytes = ensemble.batch_replicas * ensemble.row_bytes;
  HostBuffer buffers[2] = {backend.host_buffer(buffer_bytes), backend.host_buffer(buffer_bytes)};
  const SettledWrite write_in_flight{writer};  // destroyed before the buffers
  const ReplicaRange mine = replica_range(spec.replicas, ranks().rank, ranks().size);
  const std::uint64_t most = replica_range(spec.replicas, 0, ranks().size).count;
  const std::uint64_t rounds = (most + ensemble.batch_replicas - 1) / ensemble.batch_replicas;
  if (writer) writer->open(ensemble);
  EnsembleResult result;
  result.name = spec.name;
  progress.begin(spec.name);
  for (std::uint64_t b = 0; b < rounds; ++b) {
    throw_if_interrupted();
    fault_point("generate");
    const std::uint64_t first = mine.first + b * ensemble.batch_replicas, end = mine.first + mine.count;
    const std::uint64_t count = first < end ? std::min(ensemble.batch_replicas, end - first) : 0;
    const std::uint64_t rows = writer && first < stored ? std::min(count, stored - first) : 0;
    unsigned char* buffer = in_place && rows == 0 ? nullptr : buffers[b % 2].get();
    const auto start = std::chrono::steady_clock::now();
    if (count > 0) result.tally += generator->generate(first, count, buffer);
    result.generate_seconds += seconds_since(start);
    throw_if_interrupted();  // a generator stops early when interrupted: its batch is incomplete
    if (writer) {
      result.write_seconds += writer->wait();
      writer->write(first, rows, buffer);
    }
    if (study && count > 0) {
      fault_point("study");  // here, not in Study: a comparison on the device never calls add_batch
      const auto compare_start = std::chrono::steady_clock::now();
      if (in_place) {
        study->add_compared(compared, first, count, generator->compare_batch(count));
        result.compared_in_place += count;
      } else {
        study->add_batch(compared, first, count, buffer, storage);
      }
      result.compare_seconds += seconds_since(compare_start);
    }
    progress.advance(sum_over_ranks(count) * spec.length);
  }
  if (writer) result.write_seconds += writer->wait();
  result.tally.clipped = sum_over_ranks(result.tally.clipped);
  result.tally.saturated = sum_over_ranks(result.tally.saturated);
  return result;
}

// The label of an ensemble under /compare/<dataset>/: its name without the
// "<dataset>-" prefix the fitted ensembles have.
std::string comparison_label(const EnsembleSpec& spec) {
  const std::string prefix = spec.dataset + "-";
  return spec.name.size() > prefix.size() && spec.name.compare(0, prefix.size(), prefix) == 0
             ? spec.name.substr(prefix.size())
             : spec.name;
}

Study make_study(const RunConfig& config, const std::vector<RunDataset>& datasets, std::vector<StoppedModel> stopped) {
  std::vector<std::pair<std::string, std::vector<double>>> series;
  for (const RunDataset& d : datasets) series.emplace_back(d.name, d.series);
  std::vector<StudyEntry> entries;
  for (const EnsembleSpec& spec : config.ensembles)
    if (!spec.dataset.empty())
      entries.push_back(
          {spec.name, spec.model->name(), comparison_label(spec), spec.dataset, spec.replicas, spec.length});
  return Study(*config.study.compare, series, std::move(entries), std::move(stopped), config.path);
}

// What a run adds to its outputs beside the ensembles (run_config plans it
// before the run): the requests' tables and the replays' results in the HDF5
// file, and the requests' text outputs.
struct OutputNeeds {
  double file_bytes = 0;
  std::vector<RequestsPlan::Output> texts;
};

// The HDF5 file's own objects (groups, attributes, the config text,
// dimension scales) beside the data, about.
constexpr double kFileMetadataBytes = 64 << 10, kMetadataBytesPerEnsemble = 8 << 10;

// What the run's outputs take on disk, about, against the free space of each
// output's file system (statvfs of its folder), before any work (issue 56):
// the HDF5 file (its ensembles as stored uncompressed, which deflate shrinks
// by a factor only the values tell; the datasets; the requests' tables and
// the replays' results; its metadata) and every text output, summed per file
// system. A run that cannot fit even with its ensembles compressed to
// nothing is refused (UserError naming the paths, the bytes needed and
// free); one that fits only if they compress is warned about. The replays'
// own files in --target come and go before the outputs are staged
// (replay_before_staging), so plan_replays checks them on their own. Returns
// the lines --dry-run prints.
std::string check_output_space(const RunPlan& plan, const std::vector<RunDataset>& datasets, const RunConfig& config,
                               const OutputNeeds& needs, bool refuse, const ExecutionContext& context) {
  double series = 0;
  for (const RunDataset& d : datasets)
    series += static_cast<double>(d.series.size()) * (d.bin_seconds > 0 ? 3 : 2) * sizeof(double);
  double ensembles = 0;  // as stored (a study may keep only its first replicas), in whole chunks
  for (const EnsemblePlan& e : plan.ensembles) {
    const std::uint64_t stored = std::min<std::uint64_t>(stored_replicas_of(config, *e.job.spec), e.job.spec->replicas);
    const std::uint64_t rows = std::max<std::uint64_t>(1, stored_chunk(e, stored).rows);
    ensembles += static_cast<double>((stored + rows - 1) / rows * rows * e.row_bytes);
    ensembles += static_cast<double>(stored + e.job.spec->length) * sizeof(std::int64_t);  // the index scales
  }
  const double compressible = config.compression > 0 ? ensembles : 0;
  const double file = ensembles + series + needs.file_bytes + kFileMetadataBytes +
                      kMetadataBytesPerEnsemble * static_cast<double>(plan.ensembles.size());
  struct Output {
    std::string what, at, target;
    double bytes, compressible;
  };
  // The file system the file lands on: a symlinked output is written through to its target.
  const std::string target = refuse ? resolve_output_target(config.output, "output") : config.output;
  std::vector<Output> outputs = {{fmt::format("output '{}'", config.output), "", target, file, compressible}};
  for (const RequestsPlan::Output& t : needs.texts) outputs.push_back({t.what, t.at, t.target, t.bytes, 0});
  std::string text = fmt::format(
      "output '{}': about {} ({} of ensembles as stored uncompressed{}, {} of datasets, {} of requests and replays)\n",
      config.output, format_estimated_bytes(file), format_estimated_bytes(ensembles),
      compressible > 0
          ? fmt::format(", less once deflated (level {}) by a factor only their values tell", config.compression)
          : "",
      format_estimated_bytes(series), format_estimated_bytes(needs.file_bytes));
  for (const RequestsPlan::Output& t : needs.texts)
    text += fmt::format("{}: about {}\n", t.what, format_estimated_bytes(t.bytes));
  // Summed per file system (the device of each output's folder).
  std::map<dev_t, std::vector<const Output*>> systems;
  for (const Output& o : outputs) {
    struct stat info {};
    if (stat(directory_of(o.target).c_str(), &info) == 0) systems[info.st_dev].push_back(&o);
  }
  for (const auto& [device, here] : systems) {
    double bytes = 0, sure = 0;
    std::string what;
    for (const Output* o : here) {
      bytes += o->bytes;
      sure += o->bytes - o->compressible;
      what += (what.empty() ? "" : ", ") + o->what;
    }
    const std::optional<std::uint64_t> free = free_space(directory_of(here.front()->target));
    if (here.size() > 1 || needs.texts.empty())
      text += fmt::format("{}: about {} on one file system, {} free there\n", what, format_estimated_bytes(bytes),
                          free ? format_bytes(*free) : std::string("unknown"));
    else
      text +=
          fmt::format("{}: {} free on its file system\n", what, free ? format_bytes(*free) : std::string("unknown"));
    if (!refuse || !free || bytes <= static_cast<double>(*free)) continue;
    if (sure > static_cast<double>(*free))
      throw UserError(fmt::format(
          "{}{}: the run's outputs there need about {}{} but only {} is free on that file system; free some "
          "space or choose another path (-o, the requests' emit:){}",
          here.front()->at, what, format_estimated_bytes(sure),
          compressible > 0 ? " even if the ensembles compressed to nothing" : "", format_bytes(*free),
          config.compression == 0 && ensembles > 0 ? ", or enable compression" : ""));
    context.log(
        fmt::format("warning: {}: the run's outputs there are about {} with the ensembles uncompressed and "
                    "only {} is free on that file system; the run relies on compression",
                    what, format_estimated_bytes(bytes), format_bytes(*free)));
  }
  return text;
}

// The first rows of an ensemble held in memory, as doubles of the stored
// values (what EnsembleFile::read_row gives back of the file): the rows a
// replay's requests are timed by before the file is staged.
class HeldRowWriter final : public RowWriter {
 public:
  HeldRowWriter(StorageType storage, std::uint64_t length, std::vector<std::vector<double>>& rows)
      : storage_(storage), length_(length), rows_(rows) {}

  void open(const EnsemblePlan&) override {}

  void write(std::uint64_t first, std::uint64_t rows, const unsigned char* buffer) override {
    const std::size_t element = storage_bytes(storage_);
    if (rows_.size() < first + rows) rows_.resize(first + rows);
    for (std::uint64_t r = 0; r < rows; ++r) {
      std::vector<double>& row = rows_[first + r];
      row.resize(length_);
      const unsigned char* in = buffer + r * length_ * element;
      for (std::uint64_t k = 0; k < length_; ++k) row[k] = stored_value(in + k * element);
    }
  }

  double wait() override { return 0; }

 private:
  double stored_value(const unsigned char* in) const {
    switch (storage_) {
      case StorageType::float64: {
        double v;
        std::memcpy(&v, in, sizeof v);
        return v;
      }
      case StorageType::uint32: {
        std::uint32_t v;
        std::memcpy(&v, in, sizeof v);
        return v;
      }
      default: {
        float v;
        std::memcpy(&v, in, sizeof v);
        return v;
      }
    }
  }

  StorageType storage_;
  std::uint64_t length_;
  std::vector<std::vector<double>>& rows_;
};

// What a run will do, checked and sized before any work, on every rank alike
// (a failure on one rank is every rank's): plan_run's result, the input of
// every phase after it. Not copied: the requests' sources may point into
// config.requests.
struct PlannedRun {
  RunConfig config;           // as parsed, with the study's fitted ensembles added and each model given its dataset
  RequestsPlan requests;      // each requests entry's source (its trace characterized, phases fitted) and memory
  std::string replays;        // what the replays will take (`gpusynth replay`), else empty
  PreparedDatasets prepared;  // the datasets read, the study's models fitted
  RunBackends backends;
  std::string backend_log;
  RunPlan batches;    // each ensemble's backend and batches (host/engine/plan.hpp)
  std::string space;  // what the outputs take on disk (check_output_space), for --dry-run
};

// `gpusynth replay` (issue 56): the replays run before the run's file is
// staged, so that fio never runs while a temporary file of the output is open
// and unsynced on a file system that may be the one under test. The
// ensembles that time the requests are generated again for it, their first
// rows only and into memory (counter-based draws: the rows the file will
// store), the requests synthesized from them and held whole, and replayed;
// the results (small) wait in the outcome for the file, whose requests are then
// synthesized from its own rows: the same requests.
std::vector<ReplayResult> replay_before_staging(const PlannedRun& run, const ReplayOptions& replay,
                                                const ExecutionContext& context) {
  const RunConfig& config = run.config;
  HeldRows rows;
  for (std::size_t e = 0; e < run.batches.ensembles.size(); ++e) {
    const EnsemblePlan& ensemble = run.batches.ensembles[e];
    const EnsembleSpec& spec = *ensemble.job.spec;
    std::uint64_t needed = 0;
    for (const RequestsSpec& r : config.requests)
      if (r.timing_ensemble == spec.name) needed = std::max<std::uint64_t>(needed, r.replicas);
    if (needed == 0) continue;
    HeldRows::Ensemble& held = rows.ensembles[spec.name];
    held.stored = std::min<std::uint64_t>(stored_replicas_of(config, spec), spec.replicas);
    EnsembleSpec first_rows = spec;
    first_rows.replicas = static_cast<decltype(first_rows.replicas)>(std::min(needed, held.stored));
    if (first_rows.replicas == 0) continue;
    EnsemblePlan limited = ensemble;
    limited.job.spec = &first_rows;
    HeldRowWriter writer(ensemble.job.request.storage, spec.length, held.rows);
    Progress quiet(first_rows.replicas * spec.length, true);
    generate_ensemble(limited, run.backends.of(e), &writer, first_rows.replicas, nullptr, quiet);
  }
  const std::vector<RequestsOutcome> requests = synthesize_held_requests(config, run.requests, rows, context);
  return replay_requests(config, run.requests, requests, replay, context);
}

// The file the ranks' rows go to: this process's EnsembleFile on one rank;
// with several, the shared temporary of the file rank 0 laid out (rank 0
// suspends its EnsembleFile meanwhile and resumes it on close).
std::unique_ptr<RowWriter> make_row_writer(EnsembleFile* file, const RunConfig& config) {
#ifdef GPUSYNTH_HAVE_MPI
  if (several_ranks()) return std::make_unique<RanksRowWriter>(file);
#endif
  return std::make_unique<FileRowWriter>(*file, config);
}

// Models whose replicas peak far above their trace (estimators/study.hpp's
// rule), said on stderr: their pictures and errors are dominated by them.
void warn_implausible_peaks(const Study& study, const ExecutionContext& context) {
  for (const Study::Dataset& dataset : study.datasets()) {
    for (const std::size_t i : dataset.compared) {
      const Study::Compared& c = study.compared()[i];
      if (c.implausible_share > kImplausibleShareWarning)
        context.log(
            fmt::format("warning: {} / {}: {:.1f} % of the replicas peak above {:g} x the trace's peak ({:g}); "
                        "workload: {{cap: ...}} on an ensemble or cap_over_peak: K for a study's fitted ones truncates "
                        "the values (docs/config.md)",
                        dataset.name, c.entry.label, 100 * c.implausible_share, kImplausiblePeakFactor,
                        dataset.real.quantiles.back()));
    }
  }
}

// The phases of a run, each a function of the results of those before:
// parse (load_config, apply_overrides) → plan_run → replay_before_staging
// (`gpusynth replay`) → generate_ensembles → analyse_run → commit_run.

// The datasets read and the study's models fitted (the fitted ensembles join
// run.config), the backends opened, the batches planned and, with an output,
// its space checked against `needs`.
void plan_generation(PlannedRun& run, const RunOptions& options, const ExecutionContext& context,
                     const OutputNeeds& needs) {
  run.prepared = prepare_datasets(run.config, context);
  std::vector<std::string> models;
  for (const EnsembleSpec& spec : run.config.ensembles) models.push_back(spec.model->name());
  run.backends = open_backends(run.config.backend, models, context, run.backend_log);
  run.batches = make_plan(run.config, run.backends, options.memory_limit);
  if (!options.no_output && !run.config.output.empty())
    run.space = check_output_space(run.batches, run.prepared.datasets, run.config, needs, !options.dry_run, context);
}

// Every rank plans the same run from the same config; a failure on one rank
// only (its node's memory, a trace unreadable there, no fio there) is shared
// (every rank fails with the first failing rank's error, rank 0 reports it)
// before any rank goes on.
PlannedRun plan_run(const RunConfig& parsed, const RunOptions& options, const ExecutionContext& context) {
  PlannedRun run;
  run.config = parsed;
  // First the requests' traces read, their memory planned and every output path
  // of the run checked, so that a typo in a trace's name fails in seconds, not
  // after the fits. With --no-output no request is synthesized.
  OutputNeeds needs;
  std::exception_ptr failure;
  try {
    if (!options.no_output)
      run.requests = prepare_requests(run.config, options.memory_limit, !options.dry_run, options.replay.has_value());
    if (options.replay) run.replays = plan_replays(run.config, run.requests, *options.replay, &needs.file_bytes);
    fault_point("plan");
  } catch (...) {
    failure = std::current_exception();
  }
  settle_failures(failure);
  for (const RequestsPlan::Entry& e : run.requests.entries)
    if (!e.warning.empty() && !options.dry_run)
      log_info(options.quiet || !is_root_rank(), fmt::format("warning: requests '{}': {}", e.name, e.warning));
  if (!options.dry_run && !run.replays.empty())  // before the work: what the replays will take
    log_info(options.quiet || !is_root_rank(), run.replays.substr(0, run.replays.size() - 1));
  needs.file_bytes += run.requests.file_bytes;
  needs.texts = run.requests.texts;
  try {
    plan_generation(run, options, context, needs);
  } catch (...) {
    failure = std::current_exception();
  }
  settle_failures(failure);
  return run;
}

// What the run says before its work: the backends, the FFT plans, each ensemble's generation warning.
void log_run_start(const PlannedRun& run, const RunOptions& options, const ExecutionContext& context) {
  context.log(run.backend_log + "; " + run.batches.device);
  log_fft_wisdom(run.batches, context);
  if (options.node_log)  // once per node: its ranks' GPUs
    log_info(false,
             fmt::format("{} (rank {}): {}; {}", host_name(), ranks().rank, run.backend_log, run.batches.device));
  for (const EnsemblePlan& ensemble : run.batches.ensembles)
    if (!ensemble.job.generation.warning.empty())
      context.log(fmt::format("warning: ensemble '{}': {}", ensemble.job.spec->name, ensemble.job.generation.warning));
}

// generate_ensembles' result: rank 0's staged file with every ensemble's rows
// and attributes (none with --no-output, or on the other ranks), each
// ensemble's tally, and the study with every replica compared (gathered on rank 0).
struct GeneratedRun {
  std::unique_ptr<EnsembleFile> file;
  std::vector<EnsembleResult> ensembles;
  std::optional<Study> study;
};

// The ensembles generated into the run's file, on one rank or many
// (docs/scale-out.md): rank 0 lays the file out (root attributes, datasets,
// every ensemble's empty series); every rank generates its share of each
// ensemble's replicas (generate_ensemble), compares it with the dataset (a
// study) and writes its stored rows; the per-replica comparisons are gathered
// on rank 0, which writes the ensembles' attributes with the tallies summed
// over the ranks. Counter-based draws make every value the one-rank run's.
GeneratedRun generate_ensembles(const PlannedRun& run, const RunOptions& options, const ExecutionContext& context) {
  const RunConfig& config = run.config;
  const RunPlan& plan = run.batches;
  GeneratedRun generated;
  if (config.study.compare) generated.study.emplace(make_study(config, run.prepared.datasets, run.prepared.stopped));
  EnsembleFile* file = nullptr;
  if (!options.no_output && is_root_rank()) {
    generated.file = std::make_unique<EnsembleFile>(config.output);
    file = generated.file.get();
    file->write_root_attributes(root_attributes(config, plan, options, context));
    for (const RunDataset& d : run.prepared.datasets)
      file->write_dataset(d.name, d.series, d.attributes, d.bin_seconds);
    for (const EnsemblePlan& ensemble : plan.ensembles)
      create_ensemble_series(*file, ensemble, stored_replicas_of(config, *ensemble.job.spec), config.compression);
  }
  Study* study = generated.study ? &*generated.study : nullptr;
  std::unique_ptr<RowWriter> writer = options.no_output ? nullptr : make_row_writer(file, config);
  Progress progress(plan.total_samples, context.quiet || !is_root_rank());
  for (std::size_t e = 0; e < plan.ensembles.size(); ++e) {
    const EnsemblePlan& ensemble = plan.ensembles[e];
    generated.ensembles.push_back(generate_ensemble(ensemble, run.backends.of(e), writer.get(),
                                                    stored_replicas_of(config, *ensemble.job.spec), study, progress));
    if (const std::string w = clipped_warning(*ensemble.job.spec, generated.ensembles.back().tally); !w.empty())
      context.log(fmt::format("warning: ensemble '{}': {}", ensemble.job.spec->name, w));
  }
  if (writer) writer->close();
  throw_if_interrupted();
  progress.finish();
  if (study)
    for (std::size_t c = 0; c < study->compared().size(); ++c)
      for (const auto& [rows, stride] : study->replica_rows(c))
        gather_rows_to_root(rows, study->compared()[c].entry.replicas, stride);
  if (file)
    for (std::size_t e = 0; e < plan.ensembles.size(); ++e) {
      const EnsemblePlan& ensemble = plan.ensembles[e];
      const EnsembleSpec& spec = *ensemble.job.spec;
      SeriesDataset series =
          file->open_series(spec.name, ensemble.job.request.storage, spec.length, ensemble.chunk, config.compression);
      series.write_attributes(ensemble_attributes(ensemble, generated.ensembles[e].tally, context));
      if (!spec.fit.empty()) series.write_fit(spec.fit);
    }
  return generated;
}

// analyse_run's result: the study summarised (rank 0), the burst analyses,
// and the requests' rows the MPI ranks wrote into the file (when split over them).
struct AnalysedRun {
  std::optional<Study> study;
  std::vector<BurstsOutcome> bursts;
  bool requests_split = false;
  std::vector<RequestsOnRanks> requests_on_ranks;
  double summary_seconds = 0, bursts_seconds = 0;
};

AnalysedRun analyse_run(const PlannedRun& run, std::optional<Study> study, EnsembleFile* file,
                        const RunOptions& options, const ExecutionContext& context) {
  AnalysedRun analysed;
  analysed.study = std::move(study);
  if (is_root_rank() && analysed.study) {
    const auto start = std::chrono::steady_clock::now();
    analysed.study->summarize(run.config.seed, *run.backends.main->make_resampler());
    analysed.summary_seconds = seconds_since(start);
    warn_implausible_peaks(*analysed.study, context);
  }
  if (!options.no_output) {  // every rank: the burst Monte Carlo's replicas are split across them
    const auto start = std::chrono::steady_clock::now();
    analysed.bursts = analyse_run_bursts(run.config, run.prepared.datasets, file, context);
    analysed.bursts_seconds = seconds_since(start);
  }
  analysed.requests_split = !options.no_output && requests_on_ranks(run.config);
  if (analysed.requests_split)
    analysed.requests_on_ranks = write_requests_on_ranks(run.config, run.requests, file, context);
  return analysed;
}

// Rank 0 writes what follows the ensembles and commits the outputs as one
// unit (finish_file); every rank waits until the file is in place.
void commit_run(const PlannedRun& run, GeneratedRun& generated, AnalysedRun& analysed, const ExecutionContext& context,
                RunOutcome& outcome) {
  outcome.ensembles = std::move(generated.ensembles);
  outcome.bursts = std::move(analysed.bursts);
  outcome.summary_seconds = analysed.summary_seconds;
  outcome.bursts_seconds = analysed.bursts_seconds;
  if (is_root_rank()) {
    if (generated.file)
      finish_file(run.config, run.requests, *generated.file, analysed.study, context,
                  analysed.requests_split ? &analysed.requests_on_ranks : nullptr, outcome);
    outcome.study = std::move(analysed.study);
  }
  barrier();  // the file is in place before any rank reports success
}

// The refusals that need no work: a run that cannot do what its options ask.
void check_run_request(const RunConfig& config, const RunOptions& options) {
  check_bursts_replicas(config);
  if (options.bursts_required && config.bursts.empty())
    throw UserError(
        fmt::format("{}: no 'bursts:' section; `gpusynth bursts` analyses the series it names "
                    "(docs/bursts.md)",
                    config.path));
  if (options.replay && ranks().size > 1)
    throw UserError(
        fmt::format("{}: `gpusynth replay` runs fio from one process, on one node: run it without "
                    "mpirun or srun (under {} ranks every other rank would wait out the replays; "
                    "docs/scale-out.md)",
                    config.path, ranks().size));
  if (options.replay && options.no_output)
    throw UserError(fmt::format("{}: --no-output leaves no requests to replay", config.path));
  if (options.no_output && !config.bursts.empty())
    throw UserError(fmt::format("{}: --no-output leaves nothing for the 'bursts:' analyses to read", config.path));
  if (!options.no_output && !options.dry_run && config.output.empty())
    throw UserError(
        fmt::format("{}: no output file: the config has no 'output:' and no -o was given; add one, or "
                    "run with --no-output or --dry-run",
                    config.path));
  if (!options.no_output && !config.output.empty())
    resolve_output_target(config.output, "output");  // before the work, not after
}

// How a run of `config` computes (host/engine/context.hpp).
ExecutionContext run_context(const RunConfig& config, const RunOptions& options) {
  return ExecutionContext{config.precision, CpuLanes::avx512, options.quiet, config.fft_wisdom};
}

}  // namespace

void apply_overrides(RunConfig& config, const RunOptions& options) {
  if (options.seed) config.seed = *options.seed;
  if (options.output) {
    if (options.output->empty()) throw UserError("--output must not be empty");
    config.output = *options.output;
  }
  if (options.backend) config.backend = *options.backend;
  if (options.precision) config.precision = *options.precision;
  if (options.fft_wisdom) {
    try {
      config.fft_wisdom = read_fft_wisdom(*options.fft_wisdom);
    } catch (const UserError& e) {
      throw UserError(fmt::format("--fft-wisdom: {}", e.what()));
    }
  } else {
    read_config_fft_wisdom(config);
  }
  if (options.replicas) {
    if (*options.replicas < 1 || *options.replicas > 0xffffffffull) {
      throw UserError(fmt::format("--replicas {} is out of range; accepted: 1 to 4294967295", *options.replicas));
    }
    for (auto& ensemble : config.ensembles) ensemble.replicas = *options.replicas;
    config.study.replicas = *options.replicas;
  }
}

std::vector<FftProblem> run_fft_problems(const RunConfig& config, const RunOptions& options) {
  const ExecutionContext context = run_context(config, options);
  RunOptions planning = options;
  planning.dry_run = true;
  PlannedRun run;
  run.config = config;
  plan_generation(run, planning, context, {});
  std::set<FftProblem> problems;
  for (const EnsemblePlan& ensemble : run.batches.ensembles)
    if (const auto& spectral = ensemble.job.generation.spectral)
      for (const FftProblem& problem : fft_problems(*spectral)) problems.insert(problem);
  return {problems.begin(), problems.end()};
}

RunOutcome run_config(const RunConfig& config, const RunOptions& options) {
  check_run_request(config, options);
  RunOutcome outcome;
  InterruptGuard interrupts;
  try {
    const ExecutionContext context = run_context(config, options);
    const PlannedRun run = plan_run(config, options, context);
    begin_job();  // from here a rank's failure ends every rank
    outcome.fit_seconds = run.prepared.fit_seconds;
    outcome.total_samples = run.batches.total_samples;
    if (options.dry_run) {
      outcome.plan = format_plan(run.batches, run.config) + run.space + run.requests.text() + run.replays;
      return outcome;
    }
    log_run_start(run, options, context);
    const auto start = std::chrono::steady_clock::now();
    if (options.replay) {
      outcome.replays = replay_before_staging(run, *options.replay, context);
      outcome.replay_seconds = seconds_since(start);
    }
    GeneratedRun generated = generate_ensembles(run, options, context);
    AnalysedRun analysed = analyse_run(run, std::move(generated.study), generated.file.get(), options, context);
    commit_run(run, generated, analysed, context, outcome);
    outcome.seconds = seconds_since(start);
    return outcome;
  } catch (const Interrupted& interrupted) {
    if (failure_ends_job()) throw;  // the other ranks may wait for this one: end them all
    outcome.interrupted_by = interrupted.signal;
    return outcome;
  }
}

}  // namespace gs
