#include "host/study.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <set>

#include "host/errors.hpp"
#include "host/fit.hpp"
#include "host/parallel.hpp"
#include "host/progress.hpp"
#include "io/hdf5.hpp"

namespace gs {

std::vector<StoppedModel> add_fitted_ensembles(RunConfig& config, std::vector<TraceStatistics>& traces, bool quiet) {
  std::vector<StoppedModel> stopped;
  if (config.study.models.empty()) return stopped;
  std::set<std::string> names;
  std::set<std::uint32_t> streams;
  for (const auto& e : config.ensembles) names.insert(e.name), streams.insert(e.stream);
  log_info(quiet, fmt::format("fitting {} to {} datasets ({} threads)", fmt::join(config.study.models, ", "),
                              config.datasets.size(), omp_get_max_threads()));
  std::vector<std::vector<FittedModel>> fits(config.datasets.size());
  for_each_in_parallel(config.datasets.size(), [&](std::size_t d) {
    analyse_series(traces[d], config.datasets[d].read.max_lag);
    FitOptions options = config.study.fitting;
    options.models = config.study.models;
    options.seed = config.seed;
    fits[d] = fit_models(traces[d], options);
  });
  for (std::size_t d = 0; d < config.datasets.size(); ++d) {
    const DatasetSpec& dataset = config.datasets[d];
    const TraceStatistics& s = traces[d];
    log_info(quiet, fmt::format("dataset '{}' ({} values of {}):", dataset.name, s.series.size(), s.series_name));
    const bool counts = s.trace.kind != Trace::Kind::series;
    for (const FittedModel& fitted : fits[d]) {
      if (!fitted.warning.empty()) log_info(quiet, fmt::format("  {}: warning: {}", fitted.model, fitted.warning));
      if (!fitted.invalid.empty()) {
        log_info(quiet, fmt::format("  {}: stopped: {}", fitted.model, fitted.invalid));
        stopped.push_back({dataset.name, fitted.model, fitted.invalid});
        continue;
      }
      log_info(quiet, fmt::format("  {}: {}", fitted.model, fitted.estimates));
      const YAML::Node node = fitted_ensemble_node(fitted, dataset.name, config.study.replicas, counts);
      EnsembleSpec spec = parse_ensemble(node, config.path, config.ensembles.size());
      if (!names.insert(spec.name).second)
        throw UserError(
            fmt::format("{}: the fitted ensemble '{}' has the name of an ensemble under 'ensembles'; "
                        "rename that one",
                        config.path, spec.name));
      if (!streams.insert(spec.stream).second)
        throw UserError(
            fmt::format("{}: the fitted ensemble '{}' has the Philox stream of an ensemble under "
                        "'ensembles'; give that one another 'stream'",
                        config.path, spec.name));
      config.ensembles.push_back(std::move(spec));
    }
  }
  if (config.ensembles.empty())
    throw UserError(fmt::format("{}: no model could be fitted to any dataset", config.path));
  return stopped;
}

std::string comparison_label(const EnsembleSpec& spec) {
  const std::string prefix = spec.dataset + "-";
  return spec.name.size() > prefix.size() && spec.name.compare(0, prefix.size(), prefix) == 0
             ? spec.name.substr(prefix.size())
             : spec.name;
}

Study::Study(const RunConfig& config, const std::map<std::string, std::vector<double>>& series,
             std::vector<StoppedModel> stopped)
    : options_(config.study.compare.value_or(CompareOptions{})) {
  rank_index_ = metric_index(options_, options_.rank_by).value();
  for (const DatasetSpec& d : config.datasets) {
    Dataset dataset{d.name, profile_series(series.at(d.name), options_), {}, {}, {}};
    for (const auto& s : stopped)
      if (s.dataset == d.name) dataset.stopped.push_back(s);
    datasets_.push_back(std::move(dataset));
  }
  const bool aligned = metric_index(options_, Metric::trimmed_error_aligned).has_value();
  for (const EnsembleSpec& spec : config.ensembles) {
    if (spec.dataset.empty()) continue;
    auto dataset =
        std::find_if(datasets_.begin(), datasets_.end(), [&](const Dataset& d) { return d.name == spec.dataset; });
    if (aligned && spec.length != dataset->real.values.size())
      throw UserError(
          fmt::format("{}: ensemble '{}' has length {} but dataset '{}' has {} values; "
                      "trimmed_error_aligned needs the same length",
                      config.path, spec.name, spec.length, spec.dataset, dataset->real.values.size()));
    Compared c;
    c.spec = &spec;
    c.label = comparison_label(spec);
    for (const std::size_t other : dataset->compared)
      if (compared_[other].label == c.label) c.label = spec.name;  // two ensembles of one model: their names
    const double nan = std::numeric_limits<double>::quiet_NaN();
    c.metrics.assign(options_.metrics.size(), std::vector<double>(spec.replicas, nan));
    c.quantiles.assign(spec.replicas * kCurveLevels, nan);
    c.acf.assign(spec.replicas * dataset->real.acf.size(), nan);
    dataset->compared.push_back(compared_.size());
    compared_.push_back(std::move(c));
  }
}

bool Study::compares(const EnsembleSpec& spec) const {
  return std::any_of(compared_.begin(), compared_.end(), [&](const Compared& c) { return c.spec == &spec; });
}

Study::Compared& Study::find(const EnsembleSpec& spec) {
  return *std::find_if(compared_.begin(), compared_.end(), [&](const Compared& c) { return c.spec == &spec; });
}

const Study::Dataset& Study::dataset_of(const EnsembleSpec& spec) const {
  return *std::find_if(datasets_.begin(), datasets_.end(), [&](const Dataset& d) { return d.name == spec.dataset; });
}

const SeriesProfile& Study::real_of(const EnsembleSpec& spec) const { return dataset_of(spec).real; }

void Study::store(Compared& c, std::size_t lags, std::uint64_t replica, const double* metrics, const double* quantiles,
                  const double* acf, std::size_t acf_size) {
  for (std::size_t m = 0; m < options_.metrics.size(); ++m) c.metrics[m][replica] = metrics[m];
  std::copy_n(quantiles, kCurveLevels, c.quantiles.begin() + replica * kCurveLevels);
  std::copy_n(acf, std::min(lags, acf_size), c.acf.begin() + replica * lags);
}

namespace {

void row_as_double(const void* rows, StorageType type, std::uint64_t row, std::uint64_t length, double* out) {
  for (std::uint64_t t = 0; t < length; ++t) {
    const std::uint64_t i = row * length + t;
    switch (type) {
      case StorageType::float32:
        out[t] = static_cast<const float*>(rows)[i];
        break;
      case StorageType::float64:
        out[t] = static_cast<const double*>(rows)[i];
        break;
      case StorageType::uint32:
        out[t] = static_cast<const std::uint32_t*>(rows)[i];
        break;
    }
  }
}

// body(r) for r < count on every core; the first failure is rethrown.
template <class Body>
void for_each_row(std::uint64_t count, const Body& body) {
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(count); ++r) {
    try {
      body(static_cast<std::uint64_t>(r));
    } catch (...) {
#pragma omp critical(study_failure)
      failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

void Study::add_batch(const EnsembleSpec& spec, std::uint64_t first, std::uint64_t count, const void* rows,
                      StorageType type) {
  Compared& c = find(spec);
  const Dataset& dataset = dataset_of(spec);
  for_each_row(count, [&](std::uint64_t r) {
    std::vector<double> y(spec.length);
    row_as_double(rows, type, r, spec.length, y.data());
    const ReplicaComparison result = compare_replica(dataset.real, std::move(y), options_);
    store(c, dataset.real.acf.size(), first + r, result.metrics.data(), result.quantiles.data(), result.acf.data(),
          result.acf.size());
  });
}

void Study::add_compared(const EnsembleSpec& spec, std::uint64_t first, std::uint64_t count,
                         const BatchComparison& compared) {
  Compared& c = find(spec);
  const Dataset& dataset = dataset_of(spec);
  const std::size_t metrics = options_.metrics.size(), acf_size = compared.acf.size() / count;
  for (std::uint64_t r = 0; r < count; ++r)
    store(c, dataset.real.acf.size(), first + r, &compared.metrics[r * metrics], &compared.quantiles[r * kCurveLevels],
          &compared.acf[r * acf_size], acf_size);
}

void Study::summarize(std::uint64_t seed, Resampler& resampler) {
  for (Dataset& dataset : datasets_) {
    std::vector<double> medians;
    for (const std::size_t i : dataset.compared) {
      Compared& c = compared_[i];
      c.summaries.clear();
      for (std::size_t m = 0; m < options_.metrics.size(); ++m) {
        const RngStreamKey key{seed, stream_of_name(fmt::format("compare/{}/{}/{}", dataset.name, c.label,
                                                                metric_name(options_.metrics[m])))};
        c.summaries.push_back(bootstrap_median(c.metrics[m], options_.bootstrap, key, resampler));
      }
      medians.push_back(c.summaries[rank_index_].median);
    }
    const std::vector<int> degrees = matching_degrees(medians);
    for (std::size_t k = 0; k < dataset.compared.size(); ++k) {
      Compared& c = compared_[dataset.compared[k]];
      c.degree = degrees[k];
      c.separated = true;
      for (const std::size_t other : dataset.compared) {
        const Compared& o = compared_[other];
        if (o.degree != c.degree && overlap(c.summaries[rank_index_].chosen(options_.bootstrap.method),
                                            o.summaries[rank_index_].chosen(options_.bootstrap.method)))
          c.separated = false;
      }
    }
    dataset.paired.clear();
    for (std::size_t i = 0; i < dataset.compared.size(); ++i) {
      for (std::size_t j = i + 1; j < dataset.compared.size(); ++j) {
        const Compared& a = compared_[dataset.compared[i]];
        const Compared& b = compared_[dataset.compared[j]];
        const RngStreamKey key{seed, stream_of_name(fmt::format("paired/{}/{}/{}", dataset.name, a.label, b.label))};
        dataset.paired.push_back({a.label, b.label,
                                  bootstrap_probability_below(a.metrics[rank_index_], b.metrics[rank_index_],
                                                              options_.bootstrap, key, resampler)});
      }
    }
  }
}

void Study::write(hid_t file) const {
  const BootstrapOptions& b = options_.bootstrap;
  h5::Handle root = h5::create_group(file, "compare");
  std::vector<Attribute> attributes = {
      {"description",
       std::string("Every replica of every ensemble that has a dataset, compared with that dataset's real series. "
                   "/compare/<dataset>/<model>/<metric>: one value per replica; /compare/summary: the median of "
                   "each metric over the replicas with bootstrap intervals, and the matching degree.")},
      {"trim", options_.trim},
      {"acf_lags", static_cast<std::uint64_t>(options_.acf_lags)},
      {"hurst_estimator", options_.hurst_estimator},
      {"bootstrap_resamples", static_cast<std::uint64_t>(b.resamples)},
      {"confidence", b.confidence},
      {"interval_method", std::string(to_string(b.method))},
      {"interval_definitions",
       std::string("percentile: the (1-confidence)/2 and (1+confidence)/2 type-7 quantiles of the bootstrap medians; "
                   "bca: Efron's bias-corrected and accelerated interval, z0 from the share of bootstrap medians "
                   "below the median (ties half), acceleration from the jackknife medians")},
      {"rank_by", std::string(metric_name(options_.rank_by))},
      {"matching_degree_rule", std::string(kMatchingDegreeRule)},
      {"separated_rule", std::string("separated = 1 when the model's interval of the ranking metric overlaps no "
                                     "interval of a model with another matching degree; 0: the ranking is not "
                                     "significant at the confidence level")},
      {"paired_definition",
       std::string("p_a_below_b = P(e_A < e_B) + P(e_A = e_B)/2 for the ranking metric of one random replica of each "
                   "model (Mann-Whitney); interval: percentile bootstrap, both samples resampled independently")},
      {"rng", std::string("resample b of /compare/<d>/<m>/<metric>: Philox key = seed, stream = FNV-1a of "
                          "'compare/<d>/<m>/<metric>', counter (position j/4, draw 0, replica b), word j mod 4 -> "
                          "index floor(word * n / 2^32); paired: stream of 'paired/<d>/<a>/<b>', draw 0 for a, 1 "
                          "for b")},
  };
  for (Metric m : options_.metrics)
    attributes.push_back({std::string("definition_") + metric_name(m), metric_definition(m, options_)});
  h5::write_attributes(root.id(), attributes);

  std::vector<std::string> s_dataset, s_model, s_ensemble, s_metric;
  std::vector<std::int64_t> s_used, s_degree, s_separated;
  std::vector<double> s_median, s_mean, s_low, s_high, s_plow, s_phigh, s_blow, s_bhigh;
  for (const Dataset& dataset : datasets_) {
    h5::Handle group = h5::create_group(root.id(), dataset.name);
    std::vector<double> levels;
    for (std::size_t i = 0; i < kCurveLevels; ++i) levels.push_back(static_cast<double>(i) / (kCurveLevels - 1));
    std::vector<std::string> stopped;
    for (const auto& s : dataset.stopped) stopped.push_back(s.model + ": " + s.reason);
    h5::write_attributes(group.id(), {{"real_hurst", dataset.real.hurst},
                                      {"real_peak_to_mean", dataset.real.peak_to_mean},
                                      {"real_cv", dataset.real.cv},
                                      {"stopped_models", fmt::format("{}", fmt::join(stopped, "; "))}});
    h5::write_vector(group.id(), "real_quantiles", dataset.real.quantiles,
                     {{"levels", levels}, {"definition", std::string("type-7 quantiles of the real series")}});
    h5::write_vector(group.id(), "real_acf", dataset.real.acf,
                     {{"definition", std::string("sample ACF of the real series, lags 0..acf_lags")}});
    for (const std::size_t i : dataset.compared) {
      const Compared& c = compared_[i];
      h5::Handle model = h5::create_group(group.id(), c.label);
      h5::write_attributes(model.id(), {{"ensemble", c.spec->name},
                                        {"model", std::string(model_name(c.spec->params))},
                                        {"replicas", c.spec->replicas},
                                        {"matching_degree", static_cast<std::int64_t>(c.degree)},
                                        {"separated", static_cast<std::int64_t>(c.separated)}});
      for (std::size_t m = 0; m < options_.metrics.size(); ++m) {
        const MedianSummary& s = c.summaries[m];
        h5::write_vector(model.id(), metric_name(options_.metrics[m]), c.metrics[m],
                         {{"definition", metric_definition(options_.metrics[m], options_)},
                          {"dimensions", std::string("replica")},
                          {"median", s.median},
                          {"ci_low", s.chosen(b.method).low},
                          {"ci_high", s.chosen(b.method).high}});
        s_dataset.push_back(dataset.name);
        s_model.push_back(c.label);
        s_ensemble.push_back(c.spec->name);
        s_metric.push_back(metric_name(options_.metrics[m]));
        s_used.push_back(static_cast<std::int64_t>(s.used));
        s_median.push_back(s.median);
        s_mean.push_back(s.mean);
        s_low.push_back(s.chosen(b.method).low);
        s_high.push_back(s.chosen(b.method).high);
        s_plow.push_back(s.percentile.low);
        s_phigh.push_back(s.percentile.high);
        s_blow.push_back(s.bca.low);
        s_bhigh.push_back(s.bca.high);
        s_degree.push_back(m == rank_index_ ? c.degree : -1);
        s_separated.push_back(m == rank_index_ ? c.separated : -1);
      }
      h5::write_matrix(model.id(), "replica_quantiles", c.spec->replicas, kCurveLevels, c.quantiles,
                       {{"levels", levels}, {"dimensions", std::string("replica, level")}});
      h5::write_matrix(model.id(), "replica_acf", c.spec->replicas, dataset.real.acf.size(), c.acf,
                       {{"dimensions", std::string("replica, lag")}});
    }
    std::vector<std::string> pa, pb;
    std::vector<double> pp, plo, phi;
    for (const auto& p : dataset.paired) {
      pa.push_back(p.a), pb.push_back(p.b);
      pp.push_back(p.result.p), plo.push_back(p.result.ci.low), phi.push_back(p.result.ci.high);
    }
    h5::write_table(group.id(), "paired",
                    {{"model_a", pa}, {"model_b", pb}, {"p_a_below_b", pp}, {"ci_low", plo}, {"ci_high", phi}},
                    {{"metric", std::string(metric_name(options_.rank_by))}});
  }
  h5::write_table(root.id(), "summary",
                  {{"dataset", s_dataset},
                   {"model", s_model},
                   {"ensemble", s_ensemble},
                   {"metric", s_metric},
                   {"replicas_used", s_used},
                   {"median", s_median},
                   {"mean", s_mean},
                   {"ci_low", s_low},
                   {"ci_high", s_high},
                   {"percentile_low", s_plow},
                   {"percentile_high", s_phigh},
                   {"bca_low", s_blow},
                   {"bca_high", s_bhigh},
                   {"matching_degree", s_degree},
                   {"separated", s_separated}},
                  {{"description", std::string("one row per dataset, model and metric; ci_* is the interval of "
                                               "/compare's interval_method; matching_degree and separated only on "
                                               "the rows of the ranking metric (-1 elsewhere)")}});
}

std::string Study::tables() const {
  std::vector<std::string> labels;
  for (const Compared& c : compared_)
    if (std::find(labels.begin(), labels.end(), c.label) == labels.end()) labels.push_back(c.label);
  std::size_t name_width = 7;
  for (const Dataset& d : datasets_) name_width = std::max(name_width, d.name.size());
  const auto cell_of = [&](const Dataset& d, const std::string& label) -> const Compared* {
    for (const std::size_t i : d.compared)
      if (compared_[i].label == label) return &compared_[i];
    return nullptr;
  };
  const auto stopped_of = [&](const Dataset& d, const std::string& label) {
    return std::any_of(d.stopped.begin(), d.stopped.end(), [&](const StoppedModel& s) { return s.model == label; });
  };
  const auto header = [&]() {
    std::string line = fmt::format("{:<{}}", "dataset", name_width);
    for (const auto& l : labels) line += fmt::format("  {:>24}", l);
    return line + "\n";
  };
  std::string out;
  const BootstrapOptions& b = options_.bootstrap;
  for (std::size_t m = 0; m < options_.metrics.size(); ++m) {
    out += fmt::format("\n{}: median [{:g}% {} interval] over the replicas\n", metric_name(options_.metrics[m]),
                       100 * b.confidence, to_string(b.method));
    out += header();
    for (const Dataset& d : datasets_) {
      std::string line = fmt::format("{:<{}}", d.name, name_width);
      for (const auto& l : labels) {
        const Compared* c = cell_of(d, l);
        std::string cell = stopped_of(d, l) ? "stopped" : "-";
        if (c) {
          const MedianSummary& s = c->summaries[m];
          cell = s.used == 0 ? std::string("n/a (no finite value)")
                             : fmt::format("{:.3g} [{:.3g}, {:.3g}]", s.median, s.chosen(b.method).low,
                                           s.chosen(b.method).high);
        }
        line += fmt::format("  {:>24}", cell);
      }
      out += line + "\n";
    }
  }
  out += fmt::format(
      "\nmatching degree by {} (3 best, 2 better than average, 1 average, 0 below; '?' = its "
      "interval overlaps a model of another degree)\n",
      metric_name(options_.rank_by));
  out += header();
  for (const Dataset& d : datasets_) {
    std::string line = fmt::format("{:<{}}", d.name, name_width);
    for (const auto& l : labels) {
      const Compared* c = cell_of(d, l);
      line += fmt::format("  {:>24}", c ? fmt::format("{}{}", c->degree, c->separated ? "" : "?") : "-");
    }
    out += line + "\n";
  }
  bool any_paired = false;
  for (const Dataset& d : datasets_) {
    for (const auto& p : d.paired) {
      if (!any_paired)
        out += fmt::format("\nP({} of A < B's) [{:g}% percentile interval]\n", metric_name(options_.rank_by),
                           100 * b.confidence);
      any_paired = true;
      out += fmt::format("{:<{}}  {} < {}: {:.3f} [{:.3f}, {:.3f}]\n", d.name, name_width, p.a, p.b, p.result.p,
                         p.result.ci.low, p.result.ci.high);
    }
  }
  return out;
}

}  // namespace gs
