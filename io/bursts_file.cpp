#include "io/bursts_file.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "io/hdf5.hpp"

namespace gs {

namespace {

template <class T>
std::vector<double> as_doubles(const std::vector<T>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// The dimensions of the prediction matrices, named on each (xarray reads them
// through the scales that h5::name_remaining_dimensions attaches by these names).
const Attribute kPredictorByHorizon{"dimensions", std::string("predictor, horizon_minutes")};

// The coordinates of a prediction group: the predictors' names and the horizons in minutes.
void write_predictor_and_horizon(hid_t group, const std::vector<std::string>& predictors,
                                 const std::vector<double>& minutes) {
  h5::write_dimension(group, "predictor", predictors, {}, 0, {{"long_name", std::string("predictor")}});
  h5::write_dimension(group, "horizon_minutes", minutes, {}, 0,
                      {{"units", std::string("min")}, {"long_name", std::string("prediction horizon")}});
}

// The attributes of /bursts/<name>/prediction: how the rows were labelled, split, thresholded and scored.
std::vector<Attribute> prediction_attributes(const BurstAnalysis& a, const BurstAnalysisOptions& o,
                                             const std::vector<std::string>& names) {
  return {
      {"predictors", fmt::format("{}", fmt::join(names, ","))},
      {"notes", fmt::format("{}", fmt::join(prediction_notes(a, o.bin_seconds), "; "))},
      {"dimensions", std::string("predictor, horizon_minutes (the matrices); horizon_minutes (the vectors)")},
      {"label", std::string(to_string(o.prediction.label))},
      {"label_definition",
       std::string(o.prediction.label == BurstLabel::at
                       ? "row t (features of bins <= t) at horizon H is labelled by bin t + H: a burst or not, and "
                         "its severity class"
                       : "row t at horizon H is labelled by bins t + 1 ... t + H: a burst in any of them, and the "
                         "highest severity class among them")},
      {"split",
       fmt::format("bins before s = floor({} * n) train, bins from s on are scored; row t trains when t + H < s "
                   "(no training label looks into the scored bins), is scored when t >= s",
                   o.prediction.train_share)},
      {"threshold_rule",
       fmt::format("a model predicts a burst where its probability reaches the level with the best F1 on the "
                   "validation rows (the last {} of the training bins, with a model fitted on the rows before "
                   "them); the model is then refitted on every training row",
                   o.prediction.validation_share)},
      {"baselines",
       std::string("persistence: a burst at the horizon when bin t is one (severity: the class of bin t; ranked by "
                   "the bytes of bin t); climatology: the training share of bursts for every bin (as a decision, "
                   "a burst everywhere; severity: the most frequent training class)")},
      {"severity_average",
       std::string("severity_macro_f1: the unweighted mean of the one-against-the-rest F1 over the classes present "
                   "in the scored truth; severity_weighted_f1: weighted by their support")},
      {"intervals",
       fmt::format("moving-block bootstrap of the scored rows (Philox, seed {}, stream FNV-1a of "
                   "'bursts/horizon/<H bins>'), {} resamples, {} quantile interval; all predictors on the same "
                   "resamples",
                   o.prediction.seed, o.prediction.resamples, o.prediction.confidence)},
      {"xgboost", fmt::format("binary:logistic / multi:softprob, tree_method hist, rounds {}, max_depth {}, eta {}, "
                              "min_child_weight {}, lambda {}, nthread {}",
                              o.prediction.trees.rounds, o.prediction.trees.max_depth, o.prediction.trees.learning_rate,
                              o.prediction.trees.min_child_weight, o.prediction.trees.l2, o.prediction.trees.threads)},
      {"logistic", std::string("IRLS on standardized features with ridge 1e-8 * rows; severity: one model per class "
                               "present in training, the class of highest probability")}};
}

// One figure per predictor and horizon of /bursts/<name>/prediction: its dataset name, its value and meaning.
struct PredictorFigure {
  const char* name;
  double (*value)(const ScoredPredictor&);
  const char* meaning;
};
const PredictorFigure kPredictorFigures[] = {
    {"f1", [](const ScoredPredictor& p) { return p.scores.f1; }, "binary F1 on the scored rows"},
    {"f1_low", [](const ScoredPredictor& p) { return p.f1.low; }, "interval of F1"},
    {"f1_high", [](const ScoredPredictor& p) { return p.f1.high; }, "interval of F1"},
    {"precision", [](const ScoredPredictor& p) { return p.scores.precision; }, "TP / (TP + FP)"},
    {"precision_low", [](const ScoredPredictor& p) { return p.precision.low; }, "interval of precision"},
    {"precision_high", [](const ScoredPredictor& p) { return p.precision.high; }, "interval of precision"},
    {"recall", [](const ScoredPredictor& p) { return p.scores.recall; }, "TP / (TP + FN)"},
    {"recall_low", [](const ScoredPredictor& p) { return p.recall.low; }, "interval of recall"},
    {"recall_high", [](const ScoredPredictor& p) { return p.recall.high; }, "interval of recall"},
    {"average_precision", [](const ScoredPredictor& p) { return p.average_precision; },
     "area under the precision-recall curve as average precision"},
    {"average_precision_low", [](const ScoredPredictor& p) { return p.average_precision_interval.low; },
     "interval of average precision"},
    {"average_precision_high", [](const ScoredPredictor& p) { return p.average_precision_interval.high; },
     "interval of average precision"},
    {"f1_minus_persistence_low", [](const ScoredPredictor& p) { return p.f1_minus_persistence.low; },
     "paired interval of F1 − F1(persistence)"},
    {"f1_minus_persistence_high", [](const ScoredPredictor& p) { return p.f1_minus_persistence.high; },
     "paired interval of F1 − F1(persistence)"},
    {"threshold", [](const ScoredPredictor& p) { return p.threshold; },
     "models: the decision probability; climatology: the training share of bursts; persistence: 0"},
    {"true_positives", [](const ScoredPredictor& p) { return static_cast<double>(p.scores.true_positives); }, ""},
    {"false_positives", [](const ScoredPredictor& p) { return static_cast<double>(p.scores.false_positives); }, ""},
    {"false_negatives", [](const ScoredPredictor& p) { return static_cast<double>(p.scores.false_negatives); }, ""},
};
// Written when the severity classes are predicted (prediction.severity).
const PredictorFigure kSeverityFigures[] = {
    {"severity_macro_f1", [](const ScoredPredictor& p) { return p.severity.macro; }, "see severity_average"},
    {"severity_macro_f1_low", [](const ScoredPredictor& p) { return p.severity_macro.low; }, "interval"},
    {"severity_macro_f1_high", [](const ScoredPredictor& p) { return p.severity_macro.high; }, "interval"},
    {"severity_weighted_f1", [](const ScoredPredictor& p) { return p.severity.weighted; }, "see severity_average"},
};

// A figure as a [predictor, horizon] matrix.
void write_predictor_figure(hid_t group, const BurstAnalysis& a, const PredictorFigure& figure) {
  const std::size_t horizons = a.horizons.size(), predictors = a.horizons.front().predictors.size();
  std::vector<double> values(predictors * horizons);
  for (std::size_t p = 0; p < predictors; ++p)
    for (std::size_t h = 0; h < horizons; ++h) values[p * horizons + h] = figure.value(a.horizons[h].predictors[p]);
  h5::write_matrix(group, figure.name, predictors, horizons, values,
                   {{"definition", std::string(figure.meaning)}, kPredictorByHorizon});
}

// The rows and the bootstrap block of every horizon, and the horizon and predictor dimension scales.
void write_horizons(hid_t group, const BurstAnalysis& a, const BurstAnalysisOptions& o,
                    const std::vector<std::string>& names) {
  std::vector<double> minutes, train_rows, test_rows, test_share, block;
  for (const HorizonEvaluation& e : a.horizons) {
    minutes.push_back(static_cast<double>(e.horizon_bins) * o.bin_seconds / 60);
    train_rows.push_back(static_cast<double>(e.train_rows));
    test_rows.push_back(static_cast<double>(e.test_rows));
    test_share.push_back(e.test_burst_share);
    block.push_back(static_cast<double>(e.block));
  }
  write_predictor_and_horizon(group, names, minutes);
  const Attribute along_horizon{"dimensions", std::string("horizon_minutes")};
  h5::write_vector(group, "train_rows", train_rows, {along_horizon});
  h5::write_vector(group, "test_rows", test_rows, {along_horizon});
  h5::write_vector(group, "test_burst_share", test_share,
                   {{"definition", std::string("bursts among the scored labels")}, along_horizon});
  h5::write_vector(group, "bootstrap_block", block, {{"units", std::string("bins")}, along_horizon});
}

void write_prediction(hid_t parent, const BurstAnalysis& a, const BurstAnalysisOptions& o) {
  if (a.horizons.empty()) return;
  const h5::Handle group = h5::create_group(parent, "prediction");
  std::vector<std::string> names;
  for (const ScoredPredictor& p : a.horizons.front().predictors) names.push_back(to_string(p.predictor));
  h5::write_attributes(group.id(), prediction_attributes(a, o, names));
  write_horizons(group.id(), a, o, names);
  for (const PredictorFigure& figure : kPredictorFigures) write_predictor_figure(group.id(), a, figure);
  if (o.prediction.severity)
    for (const PredictorFigure& figure : kSeverityFigures) write_predictor_figure(group.id(), a, figure);
}

// Algorithm 1's α values as a dimension scale.
void write_alpha_dimension(hid_t group, const std::vector<double>& alphas) {
  h5::write_dimension(group, "alpha", alphas, {}, 0, {{"long_name", std::string("alpha of Algorithm 1")}});
}

void write_scheduling(hid_t parent, const BurstAnalysis& a, const BurstAnalysisOptions& o) {
  const h5::Handle group = h5::create_group(parent, "scheduling");
  std::vector<std::string> decisions;
  for (const ScheduleSummary& s : a.scheduling) decisions.push_back(s.decided_by);
  const ScheduleOptions& s = o.scheduling;
  h5::write_attributes(
      group.id(),
      {{"decided_by", fmt::format("{}", fmt::join(decisions, ","))},
       {"decisions",
        std::string("perfect: every window with a burst, decided on its observed bins; perfect-test: the same on "
                    "the scored windows only; <predictor>: the scored windows decided on what that predictor said "
                    "at the end of the bin before the window (horizon k+1 for bin k of the window), the runtime "
                    "realized on the observed bins")},
       {"alphas", s.alphas},
       {"dimensions", std::string("decision, alpha")},
       {"min_time_s", s.min_time},
       {"max_time_s", s.max_time},
       {"bin_s", o.bin_seconds},
       {"window_bins", static_cast<std::uint64_t>(s.window)},
       {"numbering", std::string(s.one_based ? "one_based (the printed loop: option i waits i bins, i = 1 ... N)"
                                             : "zero_based (option i waits i bins, i = 0 ... N - 1)")},
       {"algorithm",
        std::string("Algorithm 1 of the Darshan burst paper: a free bin does bin seconds of the job's min_time of "
                    "work, a burst bin bin * min_time / max_time (our reading of the garbled lines 2-3: a job in "
                    "bursts takes max_time); bins past the predicted window count as bursts; score "
                    "alpha * delay + (1 - alpha) * runtime, the earliest best start wins")},
       {"windows_rule", std::string("windows w of window_bins bins holding a burst, with w + window + "
                                    "ceil(max_time / bin) <= n so the slowest job ends inside the series")},
       {"intervals", fmt::format("moving-block bootstrap of the windows' means (blocks of ceil(m^(1/3)) windows), "
                                 "{} resamples, {} quantile interval",
                                 o.prediction.resamples, o.prediction.confidence)}});
  if (!a.scheduling_note.empty()) h5::write_attribute(group.id(), {"note", a.scheduling_note});
  const std::size_t alphas = s.alphas.size(), rows = a.scheduling.size();
  std::vector<double> windows;
  for (const ScheduleSummary& d : a.scheduling) windows.push_back(static_cast<double>(d.windows));
  h5::write_dimension(group.id(), "decision", decisions, {}, 0, {{"long_name", std::string("decided by")}});
  write_alpha_dimension(group.id(), s.alphas);
  h5::write_vector(
      group.id(), "windows", windows,
      {{"definition", std::string("windows scheduled per decision")}, {"dimensions", std::string("decision")}});
  const auto matrix = [&](const std::string& name, auto value) {
    std::vector<double> values(rows * alphas);
    for (std::size_t d = 0; d < rows; ++d)
      for (std::size_t k = 0; k < alphas; ++k) values[d * alphas + k] = value(a.scheduling[d], k);
    h5::write_matrix(group.id(), name, rows, alphas, values,
                     {{"units", std::string("s")}, {"dimensions", std::string("decision, alpha")}});
  };
  matrix("delay", [](const ScheduleSummary& d, std::size_t k) { return d.delay[k]; });
  matrix("delay_low", [](const ScheduleSummary& d, std::size_t k) { return d.delay_interval[k].low; });
  matrix("delay_high", [](const ScheduleSummary& d, std::size_t k) { return d.delay_interval[k].high; });
  matrix("runtime", [](const ScheduleSummary& d, std::size_t k) { return d.runtime[k]; });
  matrix("runtime_low", [](const ScheduleSummary& d, std::size_t k) { return d.runtime_interval[k].low; });
  matrix("runtime_high", [](const ScheduleSummary& d, std::size_t k) { return d.runtime_interval[k].high; });
  matrix("total", [](const ScheduleSummary& d, std::size_t k) { return d.total[k]; });
  matrix("total_low", [](const ScheduleSummary& d, std::size_t k) { return d.total_interval[k].low; });
  matrix("total_high", [](const ScheduleSummary& d, std::size_t k) { return d.total_interval[k].high; });
  // Every window, for the CDFs: alpha × window per decision.
  const h5::Handle per_window = h5::create_group(group.id(), "per_window");
  for (const ScheduleSummary& d : a.scheduling) {
    const h5::Handle one = h5::create_group(per_window.id(), d.decided_by);
    const std::size_t count = d.windows;
    h5::write_attribute(one.id(), {"windows", static_cast<std::uint64_t>(count)});
    if (count == 0) continue;  // no window to draw
    std::vector<double> delay, runtime, total;
    for (const ScheduledWindows& w : d.per_alpha) {
      delay.insert(delay.end(), w.delay.begin(), w.delay.end());
      runtime.insert(runtime.end(), w.runtime.begin(), w.runtime.end());
      total.insert(total.end(), w.total.begin(), w.total.end());
    }
    write_alpha_dimension(one.id(), s.alphas);
    const std::vector<Attribute> attrs = {{"units", std::string("s")}, {"dimensions", std::string("alpha, window")}};
    h5::write_matrix(one.id(), "delay", alphas, count, delay, attrs);
    h5::write_matrix(one.id(), "runtime", alphas, count, runtime, attrs);
    h5::write_matrix(one.id(), "total", alphas, count, total, attrs);
  }
}

void write_burst_analysis(hid_t parent, const BurstAnalysis& a, const BurstAnalysisOptions& o,
                          const std::vector<Attribute>& attributes) {
  h5::write_attributes(parent, attributes);
  h5::write_attributes(
      parent, {{"bin_s", o.bin_seconds},
               {"bins", static_cast<std::uint64_t>(a.severity.size())},
               {"detection", std::string(o.k ? "threshold = mean + k * sigma with k given"
                                             : "threshold = the (floor(share * n) + 1)-th largest value, so that "
                                               "floor(share * n) bins (distinct values) lie above it")},
               {"share", o.share},
               {"detection_note", detection_note(a, o)},
               {"k", a.threshold.k},
               {"threshold", a.threshold.threshold},
               {"mean", a.threshold.mean},
               {"sigma", a.threshold.sigma},
               {"sigma_definition", std::string("population standard deviation (denominator n) of all bins")},
               {"burst_share", a.burst_share},
               {"bursts", static_cast<std::uint64_t>(a.bursts)},
               {"mean_run_length", a.mean_run_length},
               {"features", std::string(to_string(o.features))},
               {"feature_names", fmt::format("{}", fmt::join(a.feature_names, ","))}});
  h5::write_vector(parent, "severity", as_doubles(a.severity),
                   {{"definition", std::string("per bin: 0 no burst; 1-5 the five equal ranges from the threshold to "
                                               "mean + 10 sigma; 6 above mean + 10 sigma")}});
  h5::write_vector(parent, "run_lengths", as_doubles(a.run_lengths),
                   {{"definition", std::string("lengths of the runs of consecutive burst bins, in order")},
                    {"units", std::string("bins")},
                    {"dimensions", std::string("run")}});
  h5::write_vector(parent, "run_length_counts", as_doubles(a.run_length_counts),
                   {{"definition", fmt::format("runs of 1, 2, ... bins; the last entry counts runs of {} bins or more",
                                               a.run_length_counts.size())}});
  std::vector<double> lengths(a.run_length_counts.size());
  for (std::size_t i = 0; i < lengths.size(); ++i) lengths[i] = static_cast<double>(i + 1);
  h5::write_dimension(parent, "run_length", lengths, {h5::open_dataset(parent, "run_length_counts").id()}, 0,
                      {{"units", std::string("bins")}, {"long_name", std::string("run length (the last: or more)")}});
  h5::write_vector(parent, "sigma_histogram", as_doubles(a.sigma_histogram),
                   {{"definition", std::string("bins counted by (value - mean) / sigma; values beyond the limits in "
                                               "the end bins")},
                    {"step_sigma", o.histogram_step},
                    {"first_edge_sigma", -o.histogram_limit}});
  std::vector<double> edges(a.sigma_histogram.size());
  for (std::size_t i = 0; i < edges.size(); ++i)
    edges[i] = -o.histogram_limit + static_cast<double>(i) * o.histogram_step;
  h5::write_dimension(parent, "sigma", edges, {h5::open_dataset(parent, "sigma_histogram").id()}, 0,
                      {{"units", std::string("sigma")}, {"long_name", std::string("left edge of the histogram bin")}});
  std::vector<double> times(a.severity.size());
  for (std::size_t i = 0; i < times.size(); ++i) times[i] = static_cast<double>(i) * o.bin_seconds;
  const h5::Handle severity = h5::open_dataset(parent, "severity");
  h5::write_dimension(parent, "bin", times.size(), {severity.id()}, 0, {{"long_name", std::string("bin index")}});
  h5::write_coordinate(parent, "time", times, "bin", severity.id(),
                       {{"units", std::string("s")}, {"long_name", std::string("start of the bin")}});
  write_prediction(parent, a, o);
  write_scheduling(parent, a, o);
}

void write_monte_carlo(hid_t parent, const MonteCarloResult& r, const std::vector<Attribute>& attributes) {
  const h5::Handle group = h5::create_group(parent, r.ensemble);
  h5::write_attributes(group.id(), attributes);
  h5::write_attributes(group.id(), {{"replicas", static_cast<std::uint64_t>(r.replicas.size())},
                                    {"logistic_fits_unconverged", r.unconverged_fits},
                                    {"replicas_with_unconverged_fits", r.replicas_with_unconverged_fits}});
  // The figures' axes flattened to one `figure` dimension (for_each_figure's order), the derived
  // run-length distance last.
  std::vector<std::string> names;
  std::vector<double> real, mean, low, high, p;
  const auto add = [&](const FigureDistribution& d) {
    names.push_back(d.name);
    real.push_back(d.real);
    mean.push_back(d.mean);
    low.push_back(d.low);
    high.push_back(d.high);
    p.push_back(d.p_value);
  };
  for_each_figure(r.summary.figures, [&](const std::string&, const FigureDistribution& d) { add(d); });
  const std::vector<std::string> replica_names = names;
  add(r.summary.run_length_distance);
  h5::write_dimension(group.id(), "figure", names, {}, 0, {{"long_name", std::string("figure of the analysis")}});
  h5::write_table(
      group.id(), "summary",
      {{"figure", names}, {"real", real}, {"mean", mean}, {"low", low}, {"high", high}, {"p_value", p}},
      {{"dimensions", std::string("figure")},
       {"definition",
        std::string("each figure of the analysis on the real series (the replicas' features and "
                    "predictors) beside its distribution over the replicas: mean, quantile interval and "
                    "the two-sided Monte Carlo p-value (1 + #{|x_r - median| >= |real - median|}) / (1 + R)")}});
  if (r.replicas.empty()) return;
  std::vector<double> values;
  for (const BurstFigures& f : r.replicas) {
    const std::vector<double> row = figure_values(f);
    values.insert(values.end(), row.begin(), row.end());
  }
  h5::write_dimension(
      group.id(), "replica_figure", replica_names, {}, 0,
      {{"long_name", std::string("figure of each replica (the rows of summary but the derived last)")}});
  h5::write_matrix(group.id(), "figures", r.replicas.size(), replica_names.size(), values,
                   {{"dimensions", std::string("replica, replica_figure (the rows of summary, in order)")}});
}

void write_augmentation(hid_t parent, const AugmentationResult& r, const std::vector<Attribute>& attributes) {
  const h5::Handle group = h5::create_group(parent, r.ensemble);
  h5::write_attributes(group.id(), attributes);
  h5::write_attributes(group.id(), {{"replicas", r.replicas},
                                    {"predictors", fmt::format("{}", fmt::join(r.predictors, ","))},
                                    {"dimensions", std::string("predictor, horizon_minutes")},
                                    {"notes", fmt::format("{}", fmt::join(r.notes, "; "))}});
  const std::size_t rows = r.predictors.size(), columns = r.horizon_bins.size();
  std::vector<double> minutes;
  for (std::size_t h : r.horizon_bins) minutes.push_back(static_cast<double>(h) * r.bin_seconds / 60);
  write_predictor_and_horizon(group.id(), r.predictors, minutes);
  const auto matrix = [&](double AugmentedF1::*member) {
    std::vector<double> values;
    for (const AugmentedF1& cell : r.cells) values.push_back(cell.*member);  // [predictor, horizon] as stored
    return values;
  };
  h5::write_matrix(group.id(), "f1_real_only", rows, columns, matrix(&AugmentedF1::real_only), {kPredictorByHorizon});
  h5::write_matrix(group.id(), "f1_augmented", rows, columns, matrix(&AugmentedF1::augmented), {kPredictorByHorizon});
  h5::write_matrix(group.id(), "difference_low", rows, columns, matrix(&AugmentedF1::difference_low),
                   {{"definition", std::string("paired block-bootstrap interval of F1(augmented) - F1(real only)")},
                    kPredictorByHorizon});
  h5::write_matrix(group.id(), "difference_high", rows, columns, matrix(&AugmentedF1::difference_high),
                   {kPredictorByHorizon});
}

// The Monte Carlo of an entry: every stored replica of its ensembles analysed
// as the real series is (bytes alone), under /bursts/<name>/monte_carlo.
void write_monte_carlo_group(hid_t entry, const BurstsOutcome& o) {
  const BurstAnalysisOptions& replicas = o.replica_options;
  const h5::Handle group = h5::create_group(entry, "monte_carlo");
  std::vector<std::string> predictors;
  for (Predictor p : replicas.prediction.models) predictors.push_back(to_string(p));
  h5::write_attributes(group.id(), {{"features", std::string(to_string(replicas.features))},
                                    {"predictors", fmt::format("{}", fmt::join(predictors, ","))}});
  for (const MonteCarloResult& r : o.monte_carlo) write_monte_carlo(group.id(), r, {});
}

// The training with replicas: the predictors trained on the real training
// bins alone and with the replicas' rows, both scored on the real scored bins.
void write_augmentation_group(hid_t entry, const BurstsOutcome& o) {
  const h5::Handle group = h5::create_group(entry, "augment");
  h5::write_attributes(
      group.id(),
      {{"definition",
        std::string("the replicas' predictors trained on the real training bins alone and on them plus every "
                    "labelled row of the first `replicas` replicas of the ensemble (bursts by each replica's "
                    "own threshold), both scored on the real scored bins")},
       {"features", std::string(to_string(o.replica_options.features))}});
  for (const AugmentationResult& r : o.augmented) write_augmentation(group.id(), r, {});
}

}  // namespace

void write_bursts(EnsembleFile& file, const std::vector<BurstsOutcome>& outcomes) {
  if (outcomes.empty()) return;
  const h5::Handle top = h5::create_group(file.hdf5().id(), "bursts");
  for (const BurstsOutcome& o : outcomes) {
    const h5::Handle entry = h5::create_group(top.id(), o.name);
    const std::vector<Attribute> source = {
        {"dataset", o.dataset},
        {"channels", std::string(o.all_channels ? "bytes, operations and I/O time of the dataset's bins"
                                                : "the dataset's series alone")},
        {"seed", o.seed}};
    if (o.real)
      write_burst_analysis(entry.id(), *o.real, o.options, source);
    else
      h5::write_attributes(entry.id(), source);
    if (!o.monte_carlo.empty()) write_monte_carlo_group(entry.id(), o);
    if (!o.augmented.empty()) write_augmentation_group(entry.id(), o);
  }
}

}  // namespace gs
