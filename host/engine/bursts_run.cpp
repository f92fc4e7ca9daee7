#include "host/engine/bursts_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>

#include "host/base/errors.hpp"
#include "host/base/fault_injection.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/parallel.hpp"
#include "host/base/progress.hpp"
#include "host/base/ranks.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

namespace {

constexpr std::uint64_t kReplicasPerRead = 64;

const RunDataset& dataset_named(const std::vector<RunDataset>& datasets, const std::string& name) {
  for (const RunDataset& d : datasets)
    if (d.name == name) return d;
  throw InternalError("dataset_named", "no dataset '" + name + "'", __FILE__, __LINE__);
}

// The analysis options of an entry once its bin width is known.
BurstAnalysisOptions resolved_options(const BurstsSpec& spec, double bin_seconds, std::uint64_t seed,
                                      const std::string& where) {
  BurstAnalysisOptions o = spec.analysis;
  o.bin_seconds = bin_seconds;
  o.scheduling.bin_seconds = bin_seconds;
  o.prediction.seed = seed;
  if (spec.horizon_seconds.empty()) {
    for (std::size_t h = 1; h <= o.scheduling.window; ++h) o.horizons.push_back(h);
  } else {
    for (double seconds : spec.horizon_seconds) {
      const auto bins = horizon_in_bins(seconds, bin_seconds);
      if (!bins)
        throw UserError(
            fmt::format("{}: horizon {} s is not a whole number (>= 1) of bins of {} s", where, seconds, bin_seconds));
      o.horizons.push_back(*bins);
    }
    std::sort(o.horizons.begin(), o.horizons.end());
    o.horizons.erase(std::unique(o.horizons.begin(), o.horizons.end()), o.horizons.end());
  }
  return o;
}

// The Monte Carlo's options: the features a single channel has, the Monte
// Carlo predictors, no intervals (the replicas make them), one thread each.
BurstAnalysisOptions replica_options(const BurstsSpec& spec, BurstAnalysisOptions o) {
  o.features = bytes_only(o.features);
  o.prediction.models = spec.monte_carlo_models;
  o.prediction.severity = spec.monte_carlo_severity;
  o.prediction.resamples = 0;
  o.prediction.trees.threads = 1;
  return o;
}

std::vector<std::string> ensembles_of(const BurstsSpec& spec, const RunConfig& config) {
  if (spec.ensembles) return *spec.ensembles;
  std::vector<std::string> out;
  for (const EnsembleSpec& e : config.ensembles)
    if (!spec.dataset.empty() && e.dataset == spec.dataset) out.push_back(e.name);
  return out;
}

// The Monte Carlo's replicas [first, first + count) on this rank: rank 0
// reads them and sends every rank its contiguous share; each rank analyses
// its share on its threads; rank 0 receives every rank's figures into
// `replicas`. Each replica's analysis is its own, so the bits are those of
// one rank.
void analyse_replicas(const EnsembleFile* file, const std::string& ensemble, std::uint64_t first, std::uint64_t count,
                      const BurstAnalysisOptions& options, std::vector<BurstFigures>& replicas) {
  std::uint64_t length = 0;
  std::vector<double> rows = file ? file->read_rows(ensemble, first, count, &length) : std::vector<double>{};
  length = max_over_ranks(length);
  rows.resize(count * length);
  scatter_rows_from_root(rows.data(), count, length);
  const ReplicaRange mine = replica_range(count, ranks().rank, ranks().size);
  std::vector<BurstFigures> figures(mine.count);
  for_each_in_parallel(mine.count, [&](std::size_t i) {
    BurstChannels channels;
    const auto row = rows.begin() + static_cast<std::ptrdiff_t>((mine.first + i) * length);
    channels.bytes.assign(row, row + static_cast<std::ptrdiff_t>(length));
    figures[i] = burst_figures(analyse_bursts(channels, options, {}, false), options);
  });
  if (!several_ranks()) {
    std::move(figures.begin(), figures.end(), replicas.begin() + static_cast<std::ptrdiff_t>(first));
    return;
  }
  // Every rank's figures have the axes of the same options: only the values
  // travel, and the count of unconverged fits as one more (exact below 2^53).
  const std::uint64_t figures_per_replica = max_over_ranks(figures.empty() ? 0 : figure_values(figures.front()).size());
  const std::uint64_t stride = figures_per_replica + 1;
  std::vector<double> values(count * stride);
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const std::vector<double> own = figure_values(figures[i]);
    if (own.size() != figures_per_replica)
      throw InternalError("analyse_replicas", "ranks' burst figures differ in number", __FILE__, __LINE__);
    const auto row = values.begin() + static_cast<std::ptrdiff_t>((mine.first + i) * stride);
    std::copy(own.begin(), own.end(), row);
    row[static_cast<std::ptrdiff_t>(figures_per_replica)] = static_cast<double>(figures[i].unconverged_fits);
  }
  gather_rows_to_root(values.data(), count, stride);
  if (!is_root_rank()) return;
  for (std::uint64_t i = 0; i < count; ++i) {
    BurstFigures& f = replicas[first + i];
    f = figures.front();  // rank 0's first replica: the axes
    const auto row = values.begin() + static_cast<std::ptrdiff_t>(i * stride);
    set_figure_values(f, std::vector<double>(row, row + static_cast<std::ptrdiff_t>(figures_per_replica)));
    f.unconverged_fits = static_cast<std::uint64_t>(row[static_cast<std::ptrdiff_t>(figures_per_replica)]);
  }
}

// The replicas of `ensemble` the Monte Carlo analyses: those stored, at most monte_carlo.replicas.
std::uint64_t analysed_replicas(const EnsembleFile& file, const std::string& ensemble, const BurstsSpec& spec) {
  const std::uint64_t stored = file.stored_replicas(ensemble, "Monte Carlo");
  return spec.monte_carlo_replicas ? std::min(stored, spec.monte_carlo_replicas) : stored;
}

// The Monte Carlo of one ensemble, on every rank (`file`: rank 0's, null on
// the others); the figures' distributions on rank 0.
MonteCarloResult monte_carlo(const EnsembleFile* file, const std::string& ensemble, const BurstsSpec& spec,
                             const BurstAnalysisOptions& options, const BurstFigures* real, Progress& progress) {
  MonteCarloResult r;
  r.ensemble = ensemble;
  const std::uint64_t replicas = max_over_ranks(file ? analysed_replicas(*file, ensemble, spec) : 0);
  r.replicas.resize(replicas);
  progress.begin(fmt::format("bursts {} / {}", spec.name, ensemble));
  // Each read gives every rank's threads work: a share of kReplicasPerRead per rank.
  const std::uint64_t per_read = kReplicasPerRead * static_cast<std::uint64_t>(ranks().size);
  for (std::uint64_t first = 0; first < replicas; first += per_read) {
    throw_if_interrupted();
    const std::uint64_t count = std::min(per_read, replicas - first);
    analyse_replicas(file, ensemble, first, count, options, r.replicas);
    progress.advance(count);
  }
  if (!is_root_rank()) return r;
  for (const BurstFigures& f : r.replicas) {
    r.unconverged_fits += f.unconverged_fits;
    r.replicas_with_unconverged_fits += f.unconverged_fits > 0;
  }
  r.summary = summarize_figures(real, r.replicas, spec.analysis.prediction.confidence);
  return r;
}

AugmentationResult augmentation(const EnsembleFile& file, const std::string& ensemble, const BurstsSpec& spec,
                                const BurstAnalysisOptions& options, const BurstChannels& real) {
  AugmentationResult r;
  r.ensemble = ensemble;
  const std::uint64_t stored = file.stored_replicas(ensemble, "augment");
  r.replicas = std::min(stored, spec.augment_replicas);
  std::uint64_t length = 0;
  const std::vector<double> rows = file.read_rows(ensemble, 0, r.replicas, &length);
  const double bin_minutes = options.bin_seconds / 60;
  std::vector<ExtraSeries> extra(r.replicas);
  for (std::uint64_t i = 0; i < r.replicas; ++i) {
    BurstChannels c;
    c.bytes.assign(rows.begin() + static_cast<std::ptrdiff_t>(i * length),
                   rows.begin() + static_cast<std::ptrdiff_t>((i + 1) * length));
    extra[i].severity = burst_severity(c.bytes, burst_threshold(c.bytes, options));
    extra[i].features = burst_features(c, options.features, bin_minutes);
  }
  const std::vector<int> severity = burst_severity(real.bytes, burst_threshold(real.bytes, options));
  const FeatureMatrix features = burst_features(real, options.features, bin_minutes);
  PredictionOptions prediction = options.prediction;
  prediction.resamples = spec.analysis.prediction.resamples;  // intervals of the difference
  prediction.severity = false;
  for (Predictor p : prediction.models) r.predictors.push_back(to_string(p));
  const std::size_t horizons = options.horizons.size(), models = prediction.models.size();
  r.bin_seconds = options.bin_seconds;
  r.horizon_bins = options.horizons;
  r.resize_cells();
  for_each_in_parallel(horizons, [&](std::size_t h) {
    PredictionOptions quick = prediction;
    quick.resamples = 0;
    const HorizonEvaluation alone = evaluate_horizon(features, severity, options.horizons[h], quick);
    const HorizonEvaluation with = evaluate_horizon(features, severity, options.horizons[h], quick, extra);
    for (std::size_t m = 0; m < models; ++m) {
      const ScoredPredictor& a = alone.of(prediction.models[m]);
      const ScoredPredictor& b = with.of(prediction.models[m]);
      AugmentedF1& cell = r.at(m, h);
      cell.real_only = a.scores.f1;
      cell.augmented = b.scores.f1;
      for (const auto& [which, scored] : {std::pair{"real only", &a}, std::pair{"with replicas", &b}})
        for (const std::string& why :
             {prediction_non_finding(scored->scores),
              scored->unconverged_fits ? unconverged_note(static_cast<std::uint64_t>(scored->unconverged_fits)) : ""})
          if (!why.empty()) {
#pragma omp critical(augmentation_notes)
            r.notes.push_back(fmt::format("{} {} {}: {}", horizon_label(options.horizons[h], options.bin_seconds),
                                          r.predictors[m], which, why));
          }
      const BlockBootstrapInterval d = paired_f1_difference(alone, severity, a.predicted, b.predicted, prediction);
      cell.difference_low = d.low;
      cell.difference_high = d.high;
    }
  });
  std::sort(r.notes.begin(), r.notes.end());  // the horizons ran in any order
  return r;
}

}  // namespace

void check_bursts_replicas(const RunConfig& config) {
  const std::uint64_t kept =
      config.study.compare ? config.study.compare->store_replicas.value_or(UINT64_MAX) : UINT64_MAX;
  // Every ensemble a run will store, with its replicas: the config's and the study's fitted <dataset>-<model>.
  std::vector<std::tuple<std::string, std::string, std::uint64_t>> stored;  // name, dataset, replicas
  for (const EnsembleSpec& e : config.ensembles) stored.emplace_back(e.name, e.dataset, std::min(e.replicas, kept));
  for (const DatasetSpec& d : config.datasets)
    for (const std::string& model : config.study.models)
      stored.emplace_back(d.name + "-" + model, d.name, std::min(config.study.replicas, kept));
  for (const BurstsSpec& spec : config.bursts) {
    if (!spec.monte_carlo_replicas) continue;
    for (const auto& [name, dataset, replicas] : stored) {
      const bool used = spec.ensembles
                            ? std::find(spec.ensembles->begin(), spec.ensembles->end(), name) != spec.ensembles->end()
                            : !spec.dataset.empty() && dataset == spec.dataset;
      if (used && spec.monte_carlo_replicas > replicas)
        throw UserError(
            fmt::format("{}:{}: bursts '{}': monte_carlo.replicas = {} is more than ensemble '{}' "
                        "stores ({}); accepted: 1 to {}",
                        config.path, spec.line, spec.name, spec.monte_carlo_replicas, name, replicas, replicas));
    }
  }
}

namespace {

// The real series of an entry with a dataset: its bytes, and its operations
// and I/O time from the same bins (the channels named, or the series' own
// direction's: bytes_read gives count_read, time_read); `bin_seconds` becomes
// the dataset's.
BurstChannels real_channels(const BurstsSpec& spec, const std::vector<RunDataset>& datasets, const std::string& where,
                            double& bin_seconds) {
  BurstChannels real;
  const RunDataset& d = dataset_named(datasets, spec.dataset);
  if (d.bin_seconds <= 0)
    throw UserError(
        fmt::format("{}: dataset '{}' is a (time, value) series without bins; bursts need a binned "
                    "series (darshan, counts, …)",
                    where, d.name));
  if (bin_seconds > 0 && std::abs(bin_seconds - d.bin_seconds) > 1e-9 * d.bin_seconds)
    throw UserError(fmt::format("{}: bin {} s differs from dataset '{}''s bins of {} s", where, bin_seconds, d.name,
                                d.bin_seconds));
  bin_seconds = d.bin_seconds;
  real.bytes = d.series;
  const std::string direction = d.channel.rfind("bytes", 0) == 0 ? d.channel.substr(5) : "";
  for (auto [given, fallback, channel] : {std::tuple{&spec.operations, "count" + direction, &real.operations},
                                          std::tuple{&spec.io_time, "time" + direction, &real.io_time}}) {
    const std::string name = given->empty() ? fallback : *given;
    const auto found = d.channels.find(name);
    if (found != d.channels.end()) {
      *channel = found->second;
    } else if (!given->empty()) {
      std::string names;
      for (const auto& [n, v] : d.channels) names += (names.empty() ? "" : ", ") + n;
      throw UserError(fmt::format("{}: dataset '{}' has no channel '{}'; it has: {}", where, d.name, name,
                                  names.empty() ? "none" : names));
    }
  }
  return real;
}

// The Monte Carlo of an entry: every stored replica of its ensembles analysed
// as the real series is (bytes alone).
void run_monte_carlo(const EnsembleFile* file, const BurstsSpec& spec, const std::vector<std::string>& ensembles,
                     const BurstFigures* real_figures, const ExecutionContext& context, BurstsOutcome& outcome) {
  const BurstAnalysisOptions& replicas = outcome.replica_options;
  std::uint64_t total = 0;  // rank 0 shows the progress
  if (file)
    for (const std::string& e : ensembles) total += analysed_replicas(*file, e, spec);
  Progress progress(total, context.quiet || !file);
  for (const std::string& e : ensembles)
    outcome.monte_carlo.push_back(monte_carlo(file, e, spec, replicas, real_figures, progress));
  progress.finish();
  for (const MonteCarloResult& r : outcome.monte_carlo)
    if (r.unconverged_fits > 0)
      context.log(fmt::format("warning: bursts '{}' / {}: in {} of {} replicas, {}", spec.name, r.ensemble,
                              r.replicas_with_unconverged_fits, r.replicas.size(),
                              unconverged_note(r.unconverged_fits)));
}

// The training with replicas: the predictors trained on the real training
// bins alone and with the replicas' rows, both scored on the real scored bins.
void run_augmentation(const EnsembleFile& file, const BurstsSpec& spec, const std::vector<std::string>& ensembles,
                      const BurstChannels& real, const ExecutionContext& context, BurstsOutcome& outcome) {
  for (const std::string& e : ensembles) {
    throw_if_interrupted();
    context.log(fmt::format("bursts '{}': training with replicas of '{}'", spec.name, e));
    outcome.augmented.push_back(augmentation(file, e, spec, outcome.replica_options, real));
  }
}

}  // namespace

std::vector<BurstsOutcome> analyse_run_bursts(const RunConfig& config, const std::vector<RunDataset>& datasets,
                                              const EnsembleFile* file, const ExecutionContext& context) {
  std::vector<BurstsOutcome> outcomes;
  if (config.bursts.empty()) return outcomes;
  fault_point("bursts");
  const bool root = is_root_rank();
  for (const BurstsSpec& spec : config.bursts) {
    const auto start = std::chrono::steady_clock::now();
    const std::string where = fmt::format("{}:{}: bursts '{}'", config.path, spec.line, spec.name);
    BurstsOutcome outcome;
    outcome.name = spec.name;
    outcome.dataset = spec.dataset;
    outcome.seed = config.seed;
    double bin_seconds = spec.bin_seconds;
    const BurstChannels real =
        spec.dataset.empty() ? BurstChannels{} : real_channels(spec, datasets, where, bin_seconds);
    outcome.all_channels = !real.operations.empty() && !real.io_time.empty();
    outcome.options = resolved_options(spec, bin_seconds, config.seed, where);
    outcome.options.features = spec.features.value_or(outcome.all_channels ? FeatureSet::fs3 : FeatureSet::fs3_bytes);
    try {
      if (!spec.dataset.empty() && root) {  // the real series on rank 0 (the others wait: the fixed part)
        context.log(fmt::format("bursts '{}': {} bins of {} s, {} horizons", spec.name, real.bytes.size(), bin_seconds,
                                outcome.options.horizons.size()));
        outcome.real = analyse_bursts(real, outcome.options);
      }
      throw_if_interrupted();
      const std::vector<std::string> ensembles = ensembles_of(spec, config);
      outcome.replica_options = replica_options(spec, outcome.options);
      std::optional<BurstFigures> real_figures;
      if (!spec.dataset.empty() && !ensembles.empty() && root) {
        BurstChannels bytes;
        bytes.bytes = real.bytes;
        real_figures = burst_figures(analyse_bursts(bytes, outcome.replica_options), outcome.replica_options);
      }
      if (!ensembles.empty())
        run_monte_carlo(file, spec, ensembles, real_figures ? &*real_figures : nullptr, context, outcome);
      if (spec.augment_replicas && !ensembles.empty() && root)
        run_augmentation(*file, spec, ensembles, real, context, outcome);
    } catch (const UserError& e) {
      throw UserError(fmt::format("{}: {}", where, e.what()));
    }
    outcome.seconds = seconds_since(start);
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

}  // namespace gs
