#include "host/app/run_json.hpp"

#include <algorithm>
#include <string_view>

#include "estimators/compare.hpp"
#include "host/app/json.hpp"
#include "io/line_reader.hpp"
#include "io/replay_file.hpp"

namespace gs {

namespace {

using nlohmann::json;

json interval_json(double value, double low, double high) {
  return {{"value", json_number(value)}, {"low", json_number(low)}, {"high", json_number(high)}};
}

json study_json(const Study& study) {
  const CompareOptions& options = study.options();
  const IntervalMethod method = options.bootstrap.method;
  json datasets = json::array();
  for (const Study::Dataset& d : study.datasets()) {
    json models = json::array();
    for (const std::size_t i : d.compared) {
      const Study::Compared& c = study.compared()[i];
      json metrics = json::object();
      for (std::size_t m = 0; m < options.metrics.size(); ++m) {
        const MedianSummary& s = c.summaries[m];
        metrics[metric_name(options.metrics[m])] = {{"median", json_number(s.used ? s.median : NAN)},
                                                    {"low", json_number(s.used ? s.chosen(method).low : NAN)},
                                                    {"high", json_number(s.used ? s.chosen(method).high : NAN)},
                                                    {"replicas_used", s.used}};
      }
      models.push_back({{"label", c.entry.label},
                        {"ensemble", c.entry.ensemble},
                        {"model", c.entry.model},
                        {"replicas", c.entry.replicas},
                        {"matching_degree", c.degree},
                        {"separated", c.separated},
                        {"metrics", metrics}});
    }
    json stopped = json::array(), paired = json::array();
    for (const StoppedModel& s : d.stopped) stopped.push_back({{"model", s.model}, {"reason", s.reason}});
    for (const Study::Paired& p : d.paired)
      paired.push_back(
          {{"a", p.a}, {"b", p.b}, {"p_a_below_b", interval_json(p.result.p, p.result.ci.low, p.result.ci.high)}});
    datasets.push_back({{"name", d.name}, {"models", models}, {"stopped", stopped}, {"paired", paired}});
  }
  return {{"confidence", options.bootstrap.confidence},
          {"interval_method", to_string(method)},
          {"rank_by", metric_name(options.rank_by)},
          {"datasets", datasets}};
}

json burst_analysis_json(const BurstAnalysis& a, const BurstAnalysisOptions& o) {
  json horizons = json::array();
  for (const HorizonEvaluation& e : a.horizons) {
    json predictors = json::array();
    for (const ScoredPredictor& p : e.predictors)
      predictors.push_back({{"predictor", to_string(p.predictor)},
                            {"f1", interval_json(p.scores.f1, p.f1.low, p.f1.high)},
                            {"precision", interval_json(p.scores.precision, p.precision.low, p.precision.high)},
                            {"recall", interval_json(p.scores.recall, p.recall.low, p.recall.high)},
                            {"average_precision", interval_json(p.average_precision, p.average_precision_interval.low,
                                                                p.average_precision_interval.high)}});
    horizons.push_back({{"horizon_seconds", static_cast<double>(e.horizon_bins) * o.bin_seconds},
                        {"test_rows", e.test_rows},
                        {"predictors", predictors}});
  }
  return {{"bin_seconds", o.bin_seconds},
          {"threshold", json_number(a.threshold.threshold)},
          {"k", json_number(a.threshold.k)},
          {"burst_share", json_number(a.burst_share)},
          {"runs", a.run_lengths.size()},
          {"mean_run_length", json_number(a.mean_run_length)},
          {"horizons", horizons}};
}

json bursts_json(const BurstsOutcome& b) {
  json monte_carlo = json::array();
  for (const MonteCarloResult& r : b.monte_carlo) {
    json figures = json::array();
    const auto add = [&](const FigureDistribution& d) {
      figures.push_back({{"figure", d.name},
                         {"real", json_number(d.real)},
                         {"mean", json_number(d.mean)},
                         {"low", json_number(d.low)},
                         {"high", json_number(d.high)},
                         {"p_value", json_number(d.p_value)}});
    };
    for_each_figure(r.summary.figures, [&](const std::string&, const FigureDistribution& d) { add(d); });
    add(r.summary.run_length_distance);
    monte_carlo.push_back({{"ensemble", r.ensemble}, {"replicas", r.replicas.size()}, {"figures", figures}});
  }
  json out = {{"name", b.name}, {"dataset", b.dataset}, {"monte_carlo", monte_carlo}};
  if (b.real) out["real"] = burst_analysis_json(*b.real, b.options);
  return out;
}

json replay_json(const ReplayResult& r) {
  const ReplayFidelity& f = r.fidelity;
  json figures = json::array();
  for (const FigureComparison& c : f.figures)
    figures.push_back({{"figure", to_string(c.figure)},
                       {"unit", unit_of(c.figure)},
                       {"original", json_number(c.original)},
                       {"original_again", json_number(c.original_again)},
                       {"synthetic", interval_json(c.synthetic.value, c.synthetic.low, c.synthetic.high)},
                       {"replay_error", interval_json(c.replay_error.value, c.replay_error.low, c.replay_error.high)},
                       {"noise_error", json_number(c.noise_error)},
                       {"original_rank", json_number(c.original_rank)}});
  const auto estimate = [](const Estimate& e) { return interval_json(e.value, e.low, e.high); };
  json out = {{"name", r.name},
              {"bin_seconds", f.options.bin_seconds},
              {"replicas", f.synthetic.size()},
              {"original_replays", f.originals.size()},
              {"coverage", estimate(f.coverage)},
              {"busy_coverage", estimate(f.busy_coverage)},
              {"busy_bins", f.busy_bins},
              {"cumulative_coverage", estimate(f.cumulative_coverage)},
              {"replica_coverage", json_number(f.replica_coverage)},
              {"original_again_coverage", json_number(f.original_again_coverage)},
              {"ks_throughput", estimate(f.ks_throughput)},
              {"ks_throughput_floor", json_number(f.ks_throughput_floor)},
              {"ks_throughput_median", json_number(f.ks_throughput_median)},
              {"ks_throughput_replicas",
               {{"median", json_number(f.ks_throughput_replicas.median)},
                {"p95", json_number(f.ks_throughput_replicas.p95)},
                {"pairs", f.ks_throughput_replicas.pairs}}},
              {"exchangeable", exchangeability_word(f)},
              {"ks_latency", estimate(f.ks_latency)},
              {"ks_latency_floor", json_number(f.ks_latency_floor)},
              {"replayer",
               {{"trace_run_time", json_number(f.replayer.trace_run_time)},
                {"trace_throughput", json_number(f.replayer.trace_throughput)},
                {"run_time_error", json_number(f.replayer.run_time_error)},
                {"throughput_error", json_number(f.replayer.throughput_error)}}},
              {"figures", figures}};
  // --clients: the fio servers (HOST,PORT, space-separated in the attribute) and which processes each ran.
  if (const std::string servers = text_attribute(r, "fio_servers"); !servers.empty()) {
    json list = json::array();
    for (const std::string_view server : split_fields(servers, ' ')) list.push_back(std::string(server));
    out["fio_servers"] = list;
    out["fio_server_processes"] = text_attribute(r, "fio_server_processes");
  }
  return out;
}

}  // namespace

json run_json(const RunOutcome& outcome, const std::string& output) {
  json ensembles = json::array();
  for (const EnsembleResult& e : outcome.ensembles)
    ensembles.push_back({{"name", e.name},
                         {"clipped_bins", e.tally.clipped},
                         {"saturated_values", e.tally.saturated},
                         {"generate_seconds", e.generate_seconds},
                         {"write_seconds", e.write_seconds}});
  json out = {
      {"output", output}, {"samples", outcome.total_samples}, {"seconds", outcome.seconds}, {"ensembles", ensembles}};
  if (outcome.study) out["study"] = study_json(*outcome.study);
  if (!outcome.bursts.empty()) {
    out["bursts"] = json::array();
    for (const BurstsOutcome& b : outcome.bursts) out["bursts"].push_back(bursts_json(b));
  }
  if (!outcome.replays.empty()) {
    out["replays"] = json::array();
    for (const ReplayResult& r : outcome.replays) out["replays"].push_back(replay_json(r));
  }
  return out;
}

nlohmann::json plan_json(const std::string& plan) {
  nlohmann::json lines = nlohmann::json::array();
  std::size_t at = 0;
  while (at < plan.size()) {
    const std::size_t end = std::min(plan.find('\n', at), plan.size());
    lines.push_back(plan.substr(at, end - at));
    at = end + 1;
  }
  return {{"dry_run", true}, {"written", nullptr}, {"plan", lines}};
}

}  // namespace gs
