#include "io/compare_file.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/hdf5.hpp"

namespace gs {

namespace {

// The attributes of /compare: the study's options and the definition of every figure under it.
std::vector<Attribute> compare_attributes(const CompareOptions& options) {
  const BootstrapOptions& b = options.bootstrap;
  std::vector<Attribute> attributes = {
      {"description",
       std::string("Every replica of every ensemble that has a dataset, compared with that dataset's real series. "
                   "/compare/<dataset>/<model>/<metric>: one value per replica; /compare/summary: the median of "
                   "each metric over the replicas with bootstrap intervals, and the matching degree.")},
      {"trim", options.trim},
      {"acf_lags", static_cast<std::uint64_t>(options.acf_lags)},
      {"hurst_estimator", options.hurst_estimator},
      {"bootstrap_resamples", static_cast<std::uint64_t>(b.resamples)},
      {"confidence", b.confidence},
      {"interval_method", std::string(to_string(b.method))},
      {"interval_definitions",
       std::string("percentile: the (1-confidence)/2 and (1+confidence)/2 type-7 quantiles of the bootstrap medians; "
                   "bca: Efron's bias-corrected and accelerated interval, z0 from the share of bootstrap medians "
                   "below the median (ties half), acceleration from the jackknife medians")},
      {"rank_by", std::string(metric_name(options.rank_by))},
      {"matching_degree_rule", std::string(kMatchingDegreeRule)},
      {"separated_rule", std::string("separated = 1 when the model's interval of the ranking metric overlaps no "
                                     "interval of a model with another matching degree; 0: the ranking is not "
                                     "significant at the confidence level")},
      {"implausible_peak_factor", kImplausiblePeakFactor},
      {"implausible_share_warning", kImplausibleShareWarning},
      {"implausible_peak_definition",
       fmt::format(
           "implausible_peak_share of /compare/<d>/<m>: the share of replicas whose peak (largest bin) exceeds "
           "{0:g} x the real series' peak (NaN when that peak is not above 0); a model that fits makes the "
           "real peak one draw of the replicas' peaks, about Frechet(alpha), of which a share ln 2 * {0:g}^-alpha "
           "exceeds {0:g} x their median (2 % at 10 and tail index 1.5); the run and the report warn above "
           "implausible_share_warning",
           kImplausiblePeakFactor)},
      {"paired_definition",
       std::string("p_a_below_b = P(e_A < e_B) + P(e_A = e_B)/2 for the ranking metric of one random replica of each "
                   "model (Mann-Whitney); interval: percentile bootstrap, both samples resampled independently")},
      {"rng", std::string("resample b of /compare/<d>/<m>/<metric>: Philox key = seed, stream = FNV-1a of "
                          "'compare/<d>/<m>/<metric>', counter (position j/4, draw 0, replica b), word j mod 4 -> "
                          "index floor(word * n / 2^32); paired: stream of 'paired/<d>/<a>/<b>', draw 0 for a, 1 "
                          "for b")},
  };
  for (Metric m : options.metrics)
    attributes.push_back({std::string("definition_") + metric_name(m), metric_definition(m, options)});
  return attributes;
}

// The type-7 quantile levels of the real series' and every replica's quantile curve.
std::vector<double> curve_levels() {
  std::vector<double> levels;
  for (std::size_t i = 0; i < kCurveLevels; ++i) levels.push_back(static_cast<double>(i) / (kCurveLevels - 1));
  return levels;
}

// Dimension scales (netCDF-4, xarray): level and lag in a dataset's group and in every model's group.
const std::vector<Attribute>& level_attributes() {
  static const std::vector<Attribute> attributes = {{"long_name", std::string("quantile level p (type-7 quantiles)")},
                                                    {"units", std::string("1")}};
  return attributes;
}
const std::vector<Attribute>& lag_attributes() {
  static const std::vector<Attribute> attributes = {{"long_name", std::string("lag in bins")}};
  return attributes;
}

// /compare/summary, a row per dataset, model and metric, gathered column by column.
struct SummaryColumns {
  std::vector<std::string> dataset, model, ensemble, metric;
  std::vector<std::int64_t> used, degree, separated;
  std::vector<double> median, mean, low, high, percentile_low, percentile_high, bca_low, bca_high;

  void add(const std::string& dataset_name, const Study::Compared& c, Metric m, const MedianSummary& s,
           IntervalMethod method, bool ranking) {
    dataset.push_back(dataset_name);
    model.push_back(c.entry.label);
    ensemble.push_back(c.entry.ensemble);
    metric.push_back(metric_name(m));
    used.push_back(static_cast<std::int64_t>(s.used));
    median.push_back(s.median);
    mean.push_back(s.mean);
    low.push_back(s.chosen(method).low);
    high.push_back(s.chosen(method).high);
    percentile_low.push_back(s.percentile.low);
    percentile_high.push_back(s.percentile.high);
    bca_low.push_back(s.bca.low);
    bca_high.push_back(s.bca.high);
    degree.push_back(ranking ? c.degree : -1);
    separated.push_back(ranking ? c.separated : -1);
  }

  void write(hid_t root) const {
    h5::write_table(root, "summary",
                    {{"dataset", dataset},
                     {"model", model},
                     {"ensemble", ensemble},
                     {"metric", metric},
                     {"replicas_used", used},
                     {"median", median},
                     {"mean", mean},
                     {"ci_low", low},
                     {"ci_high", high},
                     {"percentile_low", percentile_low},
                     {"percentile_high", percentile_high},
                     {"bca_low", bca_low},
                     {"bca_high", bca_high},
                     {"matching_degree", degree},
                     {"separated", separated}},
                    {{"description", std::string("one row per dataset, model and metric; ci_* is the interval of "
                                                 "/compare's interval_method; matching_degree and separated only on "
                                                 "the rows of the ranking metric (-1 elsewhere)")},
                     {"dimensions", std::string("row")}});
  }
};

// /compare/<dataset>'s attributes and the real series' quantiles and ACF.
void write_real_series(hid_t group, const Study::Dataset& dataset) {
  std::vector<std::string> stopped;
  for (const auto& s : dataset.stopped) stopped.push_back(s.model + ": " + s.reason);
  h5::write_attributes(group, {{"real_hurst", dataset.real.hurst},
                               {"real_hurst_note", dataset.real.hurst_note},
                               {"real_peak", dataset.real.quantiles.back()},
                               {"real_peak_to_mean", dataset.real.peak_to_mean},
                               {"real_cv", dataset.real.cv},
                               {"stopped_models", fmt::format("{}", fmt::join(stopped, "; "))}});
  const std::vector<double> levels = curve_levels();
  h5::write_vector(group, "real_quantiles", dataset.real.quantiles,
                   {{"levels", levels}, {"definition", std::string("type-7 quantiles of the real series")}});
  h5::write_vector(group, "real_acf", dataset.real.acf,
                   {{"definition", std::string("sample ACF of the real series, lags 0..acf_lags")}});
  h5::write_dimension(group, "level", levels, {h5::open_dataset(group, "real_quantiles").id()}, 0, level_attributes());
  h5::write_dimension(group, "lag", dataset.real.acf.size(), {h5::open_dataset(group, "real_acf").id()}, 0,
                      lag_attributes());
}

// /compare/<dataset>/<model>: a value per replica of every metric, the replicas' quantile curves and ACFs,
// with their dimension scales; its rows of /compare/summary.
void write_compared_model(hid_t group, const Study& study, const Study::Dataset& dataset, const Study::Compared& c,
                          SummaryColumns& summary) {
  const CompareOptions& options = study.options();
  const IntervalMethod method = options.bootstrap.method;
  h5::Handle model = h5::create_group(group, c.entry.label);
  h5::write_attributes(model.id(), {{"ensemble", c.entry.ensemble},
                                    {"model", c.entry.model},
                                    {"replicas", c.entry.replicas},
                                    {"matching_degree", static_cast<std::int64_t>(c.degree)},
                                    {"implausible_peak_share", c.implausible_share},
                                    {"separated", static_cast<std::int64_t>(c.separated)}});
  for (std::size_t m = 0; m < options.metrics.size(); ++m) {
    const MedianSummary& s = c.summaries[m];
    h5::write_vector(model.id(), metric_name(options.metrics[m]), c.metrics[m],
                     {{"definition", metric_definition(options.metrics[m], options)},
                      {"dimensions", std::string("replica")},
                      {"median", s.median},
                      {"ci_low", s.chosen(method).low},
                      {"ci_high", s.chosen(method).high}});
    summary.add(dataset.name, c, options.metrics[m], s, method, m == study.rank_index());
  }
  const std::vector<double> levels = curve_levels();
  h5::write_matrix(model.id(), "replica_quantiles", c.entry.replicas, kCurveLevels, c.quantiles,
                   {{"levels", levels}, {"dimensions", std::string("replica, level")}});
  h5::write_matrix(model.id(), "replica_acf", c.entry.replicas, dataset.real.acf.size(), c.acf,
                   {{"dimensions", std::string("replica, lag")}});
  std::vector<h5::Handle> per_replica;
  for (Metric metric : options.metrics) per_replica.push_back(h5::open_dataset(model.id(), metric_name(metric)));
  per_replica.push_back(h5::open_dataset(model.id(), "replica_quantiles"));
  per_replica.push_back(h5::open_dataset(model.id(), "replica_acf"));
  std::vector<hid_t> ids;
  for (const h5::Handle& h : per_replica) ids.push_back(h.id());
  h5::write_dimension(model.id(), "replica", c.entry.replicas, ids, 0, {{"long_name", std::string("replica index")}});
  h5::write_dimension(model.id(), "level", levels, {per_replica[per_replica.size() - 2].id()}, 1, level_attributes());
  h5::write_dimension(model.id(), "lag", dataset.real.acf.size(), {per_replica.back().id()}, 1, lag_attributes());
}

// /compare/<dataset>/paired: P(e_A < e_B) of the ranking metric for every pair of models, with its interval.
void write_paired(hid_t group, const Study::Dataset& dataset, const CompareOptions& options) {
  std::vector<std::string> pa, pb;
  std::vector<double> pp, plo, phi;
  for (const auto& p : dataset.paired) {
    pa.push_back(p.a), pb.push_back(p.b);
    pp.push_back(p.result.p), plo.push_back(p.result.ci.low), phi.push_back(p.result.ci.high);
  }
  h5::write_table(group, "paired",
                  {{"model_a", pa}, {"model_b", pb}, {"p_a_below_b", pp}, {"ci_low", plo}, {"ci_high", phi}},
                  {{"metric", std::string(metric_name(options.rank_by))}, {"dimensions", std::string("pair")}});
}

}  // namespace

void write_compare(EnsembleFile& output, const Study& study) {
  h5::Handle root = h5::create_group(output.hdf5().id(), "compare");
  const CompareOptions& options = study.options();
  h5::write_attributes(root.id(), compare_attributes(options));
  SummaryColumns summary;
  for (const Study::Dataset& dataset : study.datasets()) {
    h5::Handle group = h5::create_group(root.id(), dataset.name);
    write_real_series(group.id(), dataset);
    for (const std::size_t i : dataset.compared)
      write_compared_model(group.id(), study, dataset, study.compared()[i], summary);
    write_paired(group.id(), dataset, options);
  }
  summary.write(root.id());
}

}  // namespace gs
