#include "host/engine/datasets.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <set>

#include "host/base/errors.hpp"
#include "host/base/parallel.hpp"
#include "host/base/progress.hpp"
#include "host/base/ranks.hpp"
#include "host/models/fit.hpp"

namespace gs {

namespace {

// `cap_over_peak: K`: the fitted ensemble's workload cap is K × the largest value of its dataset's series, in
// the series' unit (the unit of v·X + δ). A series without a positive value has no peak to scale: no cap.
void cap_at_peaks(YAML::Node ensemble, const std::optional<double>& cap_over_peak, const std::vector<double>& series) {
  if (!cap_over_peak || series.empty()) return;
  const double peak = *std::max_element(series.begin(), series.end());
  if (!(peak > 0)) return;
  YAML::Node workload = ensemble["workload"] ? ensemble["workload"] : flow_map();
  workload["cap"] = *cap_over_peak * peak;
  ensemble["workload"] = workload;
}

// Fits config.study.models to every dataset and logs them: what each model
// became, as YAML text, one entry per dataset and model: {dataset, model,
// stopped, ensemble}. Each (dataset, model) is a task of its own, so that the
// cores stay busy to the end (one dataset's fits take up to 4× another's); the
// models of a dataset share its FitData (the stable marginal, Hurst estimates).
std::string fits_on_root(const RunConfig& config, const std::vector<LoadedSeries>& traces,
                         const ExecutionContext& context) {
  context.log(fmt::format("fitting {} to {} datasets ({} threads)", fmt::join(config.study.models, ", "),
                          config.datasets.size(), omp_get_max_threads()));
  const std::size_t models = config.study.models.size();
  std::vector<std::unique_ptr<FitData>> data;
  for (const LoadedSeries& s : traces)
    data.push_back(std::make_unique<FitData>(s.series, s.trace.kind != Trace::Kind::series, s.binned.bin_width,
                                             s.trace.series_times, config.study.fitting, config.seed));
  std::vector<std::vector<FittedModel>> fits(config.datasets.size(), std::vector<FittedModel>(models));
  for_each_in_parallel(config.datasets.size() * models, [&](std::size_t task) {
    const std::size_t d = task / models, m = task % models;
    fits[d][m] = std::move(fit_models(*data[d], {config.study.models[m]}).front());
  });
  YAML::Node outcomes(YAML::NodeType::Sequence);
  for (std::size_t d = 0; d < config.datasets.size(); ++d) {
    const DatasetSpec& dataset = config.datasets[d];
    const LoadedSeries& s = traces[d];
    context.log(fmt::format("dataset '{}' ({} values of {}):", dataset.name, s.series.size(), s.series_name));
    const bool counts = replicas_as_counts(s.trace.kind != Trace::Kind::series, s.series);
    for (const FittedModel& fitted : fits[d]) {
      if (!fitted.warning.empty()) context.log(fmt::format("  {}: warning: {}", fitted.model, fitted.warning));
      context.log(fmt::format("  {}: {}", fitted.model,
                              fitted.invalid.empty() ? fitted.estimates : "stopped: " + fitted.invalid));
      YAML::Node outcome(YAML::NodeType::Map);
      outcome["dataset"] = dataset.name;
      outcome["model"] = fitted.model;
      outcome["stopped"] = fitted.invalid;
      if (fitted.invalid.empty()) {
        outcome["ensemble"] = fitted_ensemble_node(fitted, dataset.name, config.study.replicas, counts);
        cap_at_peaks(outcome["ensemble"], config.study.cap_over_peak, s.series);
      }
      outcomes.push_back(outcome);
    }
  }
  YAML::Emitter out;
  out << outcomes;
  return out.c_str();
}

// A failure of the fits on rank 0 reaches the other ranks as a text starting
// with NUL, so that they fail with it instead of waiting.
std::string fitted_models_text(const RunConfig& config, const std::vector<LoadedSeries>& traces,
                               const ExecutionContext& context) {
  std::string text;
  if (is_root_rank()) {
    try {
      text = fits_on_root(config, traces, context);
    } catch (const std::exception& e) {
      if (several_ranks()) broadcast_from_root(std::string(1, '\0') + e.what());
      throw;
    }
  }
  text = broadcast_from_root(text);
  if (!text.empty() && text[0] == '\0') throw UserError(text.substr(1));
  return text;
}

// Appends an ensemble `<dataset>-<model>` for each fitted model that passes
// its checks; the others are returned with the reason. MPI ranks: rank 0 fits
// once and every rank parses its text, so every rank has the same ensembles.
std::vector<StoppedModel> add_fitted_ensembles(RunConfig& config, const std::vector<LoadedSeries>& traces,
                                               const ExecutionContext& context) {
  std::vector<StoppedModel> stopped;
  if (config.study.models.empty()) return stopped;
  std::set<std::string> names;
  std::set<std::uint32_t> streams;
  for (const auto& e : config.ensembles) names.insert(e.name), streams.insert(e.stream);
  for (const YAML::Node& outcome : YAML::Load(fitted_models_text(config, traces, context))) {
    const std::string dataset = outcome["dataset"].as<std::string>(), model = outcome["model"].as<std::string>();
    if (const std::string why = outcome["stopped"].as<std::string>(); !why.empty()) {
      stopped.push_back({dataset, model, why});
      continue;
    }
    EnsembleSpec spec = parse_ensemble(outcome["ensemble"], config.path, config.ensembles.size());
    if (!names.insert(spec.name).second)
      throw UserError(
          fmt::format("{}: the fitted ensemble '{}' has the name of an ensemble under 'ensembles'; rename that one",
                      config.path, spec.name));
    if (!streams.insert(spec.stream).second)
      throw UserError(
          fmt::format("{}: the fitted ensemble '{}' has the Philox stream of an ensemble under "
                      "'ensembles'; give that one another 'stream'",
                      config.path, spec.name));
    config.ensembles.push_back(std::move(spec));
  }
  if (config.ensembles.empty())
    throw UserError(fmt::format("{}: no model could be fitted to any dataset", config.path));
  return stopped;
}

// Every ensemble's model sees its dataset (or none) before planning.
void give_models_their_datasets(RunConfig& config, const std::vector<LoadedSeries>& traces) {
  for (EnsembleSpec& spec : config.ensembles) {
    const auto dataset = std::find_if(config.datasets.begin(), config.datasets.end(),
                                      [&](const DatasetSpec& d) { return d.name == spec.dataset; });
    const std::string where = fmt::format("{}:{}: ensemble '{}'", config.path, spec.line, spec.name);
    if (dataset == config.datasets.end()) {
      if (auto model = spec.model->with_dataset(nullptr, spec.length, where)) spec.model = std::move(model);
      continue;
    }
    const LoadedSeries& s = traces[static_cast<std::size_t>(dataset - config.datasets.begin())];
    DatasetFacts facts;
    facts.name = dataset->name;
    facts.binned = s.trace.kind != Trace::Kind::series;
    facts.length = s.series.size();
    facts.times = s.trace.series_times;
    spec.bin_seconds = facts.binned ? s.binned.bin_width : 0.0;
    if (auto model = spec.model->with_dataset(&facts, spec.length, where)) spec.model = std::move(model);
  }
}

}  // namespace

PreparedDatasets prepare_datasets(RunConfig& config, const ExecutionContext& context) {
  std::vector<LoadedSeries> traces;
  for (const DatasetSpec& dataset : config.datasets) {
    try {
      traces.push_back(read_series(dataset.source));
      if (const std::string w = incomplete_modules_warning(traces.back().trace.incomplete_modules); !w.empty())
        context.log(fmt::format("warning: dataset '{}': {}", dataset.name, w));
    } catch (const UserError& e) {  // the trace's own location is in the message; this adds the config's
      throw UserError(
          fmt::format("{}:{}: {} ('{}'): {}", config.path, dataset.line, dataset.source.keys, dataset.name, e.what()));
    }
  }
  PreparedDatasets prepared;
  const auto fit_start = std::chrono::steady_clock::now();
  prepared.stopped = add_fitted_ensembles(config, traces, context);
  prepared.fit_seconds = seconds_since(fit_start);
  give_models_their_datasets(config, traces);
  for (std::size_t i = 0; i < traces.size(); ++i) {
    RunDataset dataset{config.datasets[i].name,
                       {},
                       0.0,
                       {},
                       {},
                       dataset_attributes(traces[i], trace_digests(config.datasets[i].source.traces))};
    dataset.attributes.push_back({"length", static_cast<std::uint64_t>(traces[i].series.size())});
    dataset.series = std::move(traces[i].series);
    if (traces[i].trace.kind != Trace::Kind::series) {
      dataset.bin_seconds = traces[i].binned.bin_width;
      dataset.channel = traces[i].series_name;
      dataset.channels = std::move(traces[i].binned.channels);
    }
    prepared.datasets.push_back(std::move(dataset));
  }
  return prepared;
}

}  // namespace gs
