#include "io/compare_file.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/hdf5.hpp"

namespace gs {

void write_compare(EnsembleFile& output, const Study& study) {
  const hid_t file = output.hdf5().id();
  const CompareOptions& options = study.options();
  const BootstrapOptions& b = options.bootstrap;
  h5::Handle root = h5::create_group(file, "compare");
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
  h5::write_attributes(root.id(), attributes);

  std::vector<std::string> s_dataset, s_model, s_ensemble, s_metric;
  std::vector<std::int64_t> s_used, s_degree, s_separated;
  std::vector<double> s_median, s_mean, s_low, s_high, s_plow, s_phigh, s_blow, s_bhigh;
  for (const Study::Dataset& dataset : study.datasets()) {
    h5::Handle group = h5::create_group(root.id(), dataset.name);
    std::vector<double> levels;
    for (std::size_t i = 0; i < kCurveLevels; ++i) levels.push_back(static_cast<double>(i) / (kCurveLevels - 1));
    std::vector<std::string> stopped;
    for (const auto& s : dataset.stopped) stopped.push_back(s.model + ": " + s.reason);
    h5::write_attributes(group.id(), {{"real_hurst", dataset.real.hurst},
                                      {"real_hurst_note", dataset.real.hurst_note},
                                      {"real_peak", dataset.real.quantiles.back()},
                                      {"real_peak_to_mean", dataset.real.peak_to_mean},
                                      {"real_cv", dataset.real.cv},
                                      {"stopped_models", fmt::format("{}", fmt::join(stopped, "; "))}});
    h5::write_vector(group.id(), "real_quantiles", dataset.real.quantiles,
                     {{"levels", levels}, {"definition", std::string("type-7 quantiles of the real series")}});
    h5::write_vector(group.id(), "real_acf", dataset.real.acf,
                     {{"definition", std::string("sample ACF of the real series, lags 0..acf_lags")}});
    // Dimension scales (netCDF-4, xarray): level and lag here and in every model's group.
    const std::vector<Attribute> level_attributes = {
        {"long_name", std::string("quantile level p (type-7 quantiles)")}, {"units", std::string("1")}};
    const std::vector<Attribute> lag_attributes = {{"long_name", std::string("lag in bins")}};
    h5::write_dimension(group.id(), "level", levels, {h5::open_dataset(group.id(), "real_quantiles").id()}, 0,
                        level_attributes);
    h5::write_dimension(group.id(), "lag", dataset.real.acf.size(), {h5::open_dataset(group.id(), "real_acf").id()},
                        0, lag_attributes);
    for (const std::size_t i : dataset.compared) {
      const Study::Compared& c = study.compared()[i];
      h5::Handle model = h5::create_group(group.id(), c.entry.label);
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
                          {"ci_low", s.chosen(b.method).low},
                          {"ci_high", s.chosen(b.method).high}});
        s_dataset.push_back(dataset.name);
        s_model.push_back(c.entry.label);
        s_ensemble.push_back(c.entry.ensemble);
        s_metric.push_back(metric_name(options.metrics[m]));
        s_used.push_back(static_cast<std::int64_t>(s.used));
        s_median.push_back(s.median);
        s_mean.push_back(s.mean);
        s_low.push_back(s.chosen(b.method).low);
        s_high.push_back(s.chosen(b.method).high);
        s_plow.push_back(s.percentile.low);
        s_phigh.push_back(s.percentile.high);
        s_blow.push_back(s.bca.low);
        s_bhigh.push_back(s.bca.high);
        s_degree.push_back(m == study.rank_index() ? c.degree : -1);
        s_separated.push_back(m == study.rank_index() ? c.separated : -1);
      }
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
      h5::write_dimension(model.id(), "replica", c.entry.replicas, ids, 0,
                          {{"long_name", std::string("replica index")}});
      h5::write_dimension(model.id(), "level", levels, {per_replica[per_replica.size() - 2].id()}, 1,
                          level_attributes);
      h5::write_dimension(model.id(), "lag", dataset.real.acf.size(), {per_replica.back().id()}, 1, lag_attributes);
    }
    std::vector<std::string> pa, pb;
    std::vector<double> pp, plo, phi;
    for (const auto& p : dataset.paired) {
      pa.push_back(p.a), pb.push_back(p.b);
      pp.push_back(p.result.p), plo.push_back(p.result.ci.low), phi.push_back(p.result.ci.high);
    }
    h5::write_table(group.id(), "paired",
                    {{"model_a", pa}, {"model_b", pb}, {"p_a_below_b", pp}, {"ci_low", plo}, {"ci_high", phi}},
                    {{"metric", std::string(metric_name(options.rank_by))}, {"dimensions", std::string("pair")}});
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
                                               "the rows of the ranking metric (-1 elsewhere)")},
                   {"dimensions", std::string("row")}});
}

}  // namespace gs
