#include "estimators/burst_prediction.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "host/base/errors.hpp"
#include "kernels/philox.hpp"

namespace gs {

namespace {

constexpr Predictor kPredictors[] = {Predictor::persistence, Predictor::climatology, Predictor::logistic,
                                     Predictor::xgboost};

// The rows a model trains on: the real series' (features first) and every
// labelled row of the extra series after them, with their labels. Without
// extra series the real series' features are used where they are.
struct TrainingData {
  const FeatureMatrix* real = nullptr;
  FeatureMatrix combined;  // the real series' and the extra series' rows, when there are extra series
  const FeatureMatrix& features() const { return combined.rows ? combined : *real; }
  std::vector<int> labels, classes;     // burst or not; severity
  std::vector<std::size_t> fit, train;  // before the validation bins; all training rows
  LogisticWorkspace* workspace = nullptr;  // shared by this horizon's logistic fits

  LogisticModel logistic(const std::vector<int>& y, const std::vector<std::size_t>& rows,
                         const LogisticModel* warm = nullptr) const {
    return fit_logistic(features(), y, rows, kLogisticRidge, warm, workspace);
  }
};

TrainingData training_data(const FeatureMatrix& real, const std::vector<int>& labels, const std::vector<int>& classes,
                           const std::vector<std::size_t>& fit, const std::vector<std::size_t>& train,
                           const std::vector<ExtraSeries>& extra, std::size_t horizon, BurstLabel how) {
  TrainingData d;
  d.real = &real;
  d.labels = labels;
  d.classes = classes;
  d.labels.resize(real.rows, 0);  // the last H rows have no label and never train
  d.classes.resize(real.rows, 0);
  d.fit = fit;
  d.train = train;
  if (extra.empty()) return d;
  d.combined = real;
  for (const ExtraSeries& e : extra) {
    if (e.features.names != real.names)
      throw UserError(fmt::format("extra training series with features {} for a predictor of {}",
                                  fmt::join(e.features.names, ","), fmt::join(real.names, ",")));
    const std::vector<int> extra_classes = severity_labels(e.severity, horizon, how);
    const std::size_t offset = d.combined.rows;
    d.combined.values.insert(d.combined.values.end(), e.features.values.begin(), e.features.values.end());
    d.combined.rows += e.features.rows;
    d.labels.resize(d.combined.rows, 0);
    d.classes.resize(d.combined.rows, 0);
    for (std::size_t t = 0; t < extra_classes.size(); ++t) {
      d.classes[offset + t] = extra_classes[t];
      d.labels[offset + t] = extra_classes[t] > 0;
      d.fit.push_back(offset + t);
      d.train.push_back(offset + t);
    }
  }
  return d;
}

// P(burst) for the first `rows` rows of `real` from a model fitted on the fit
// rows (where the threshold is chosen: computed on the validation rows alone,
// 0 elsewhere) and from one fitted on every training row (what is scored); the
// second logistic fit starts from the first.
struct BurstProbabilities {
  std::vector<double> validated, ranking;
  int unconverged_fits = 0;
};

// Rows first … first + count − 1: the validation rows, the scored rows. A
// model's figures are computed there alone (each row's are its own, so the
// bits all rows would give).
struct RowRange {
  std::size_t first = 0, count = 0;
};
RowRange range_of(const std::vector<std::size_t>& rows) {
  if (rows.empty() || rows.back() - rows.front() + 1 != rows.size())
    throw InternalError("range_of", fmt::format("{} rows that are not one range", rows.size()), __FILE__, __LINE__);
  return {rows.front(), rows.size()};
}

BurstProbabilities burst_probabilities(Predictor predictor, const TrainingData& d, const FeatureMatrix& real,
                                       std::size_t rows, RowRange validation, const PredictionOptions& options) {
  BurstProbabilities out;
  out.validated.assign(rows, 0.0);
  const auto put_validated = [&](const std::vector<double>& validated) {
    std::copy(validated.begin(), validated.end(),
              out.validated.begin() + static_cast<std::ptrdiff_t>(validation.first));
  };
  if (predictor == Predictor::logistic) {
    const LogisticModel on_fit_rows = d.logistic(d.labels, d.fit);
    const LogisticModel on_train_rows = d.logistic(d.labels, d.train, &on_fit_rows);
    put_validated(on_fit_rows.probabilities(real, validation.first, validation.count));
    out.ranking = on_train_rows.probabilities(real, 0, rows);
    out.unconverged_fits = !on_fit_rows.converged + !on_train_rows.converged;
    return out;
  }
  put_validated(
      BoostedTrees(d.features(), d.labels, d.fit, 2, options.trees).predict(real, validation.first, validation.count));
  out.ranking = BoostedTrees(d.features(), d.labels, d.train, 2, options.trees).predict(real, 0, rows);
  return out;
}

// The severity class of each scored row, 0 on the others.
std::vector<int> severity_predictions(Predictor predictor, const TrainingData& d, const FeatureMatrix& real,
                                      std::size_t rows, RowRange scored, const PredictionOptions& options,
                                      int& unconverged_fits) {
  const std::size_t first = scored.first, count = scored.count;
  std::vector<double> probability(count * kSeverityClasses, 0.0);
  if (predictor == Predictor::xgboost) {
    probability =
        BoostedTrees(d.features(), d.classes, d.train, kSeverityClasses, options.trees).predict(real, first, count);
  } else {
    std::vector<int> present(kSeverityClasses, 0);
    for (std::size_t t : d.train) present[d.classes[t]] = 1;
    for (int c = 0; c < kSeverityClasses; ++c) {
      if (!present[c]) continue;
      std::vector<int> one(d.classes.size());
      for (std::size_t t = 0; t < one.size(); ++t) one[t] = d.classes[t] == c;
      const LogisticModel model = d.logistic(one, d.train);
      unconverged_fits += !model.converged;
      const std::vector<double> p = model.probabilities(real, first, count);
      for (std::size_t i = 0; i < count; ++i) probability[i * kSeverityClasses + c] = p[i];
    }
  }
  std::vector<int> predicted(rows, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const auto classes = probability.begin() + static_cast<std::ptrdiff_t>(i * kSeverityClasses);
    predicted[first + i] = static_cast<int>(std::max_element(classes, classes + kSeverityClasses) - classes);
  }
  return predicted;
}

std::uint32_t horizon_stream(std::size_t horizon_bins) {
  return stream_of_name(fmt::format("bursts/horizon/{}", horizon_bins));
}

std::vector<std::size_t> rows_at(const std::vector<std::size_t>& test, const std::vector<std::size_t>& positions) {
  std::vector<std::size_t> rows(positions.size());
  for (std::size_t k = 0; k < positions.size(); ++k) rows[k] = test[positions[k]];
  return rows;
}

}  // namespace

const char* to_string(Predictor predictor) {
  switch (predictor) {
    case Predictor::persistence:
      return "persistence";
    case Predictor::climatology:
      return "climatology";
    case Predictor::logistic:
      return "logistic";
    case Predictor::xgboost:
      return "xgboost";
  }
  return "?";
}

Predictor parse_predictor(const std::string& text) {
  for (Predictor p : kPredictors)
    if (text == to_string(p)) return p;
  throw UserError(
      fmt::format("predictor '{}'; accepted: logistic, xgboost (persistence and climatology are always "
                  "scored)",
                  text));
}

const ScoredPredictor& HorizonEvaluation::of(Predictor predictor) const {
  for (const ScoredPredictor& p : predictors)
    if (p.predictor == predictor) return p;
  throw InternalError("HorizonEvaluation::of",
                      fmt::format("horizon {}: predictor {} was not evaluated", horizon_bins, to_string(predictor)),
                      __FILE__, __LINE__);
}

namespace {

// The rows of one horizon: `train` (labels inside the first train_share of the
// bins) splits into `fit` and `validation` (the last validation_share of it,
// where the threshold is chosen; rows whose labels reach from the fit bins
// into the validation bins train the final model only); `test` is the rest.
struct HorizonRows {
  std::vector<std::size_t> fit, validation, train, test;
  std::size_t split = 0;
};

HorizonRows horizon_rows(std::size_t n, std::size_t labelled, std::size_t horizon_bins,
                         const PredictionOptions& options) {
  HorizonRows r;
  r.split = static_cast<std::size_t>(std::floor(options.train_share * static_cast<double>(n)));
  const std::size_t validation_start =
      r.split - static_cast<std::size_t>(std::floor(options.validation_share * static_cast<double>(r.split)));
  for (std::size_t t = 0; t + horizon_bins < r.split; ++t) {
    r.train.push_back(t);
    if (t + horizon_bins < validation_start)
      r.fit.push_back(t);
    else if (t >= validation_start)
      r.validation.push_back(t);
  }
  for (std::size_t t = r.split; t < labelled; ++t) r.test.push_back(t);
  if (r.fit.size() < 2 || r.validation.empty() || r.test.empty())
    throw UserError(
        fmt::format("{} bins at a horizon of {} bins leave too few rows to fit ({}), to choose a threshold "
                    "({}) or to score ({}): a longer series, or a shorter horizon",
                    n, horizon_bins, r.fit.size(), r.validation.size(), r.test.size()));
  return r;
}

// Persistence (bin t now; ranked by its bytes) and climatology (the training
// share for every bin; as a decision the better constant for F1, a burst
// everywhere when training had one; the most frequent training class).
void add_baselines(HorizonEvaluation& e, const FeatureMatrix& features, const std::vector<int>& severity,
                   const std::vector<int>& classes, const HorizonRows& r, std::size_t rows) {
  ScoredPredictor persistence;
  persistence.predictor = Predictor::persistence;
  persistence.predicted = persistence_predictions(severity, rows);
  persistence.ranking.resize(rows);
  for (std::size_t t = 0; t < rows; ++t) persistence.ranking[t] = features.at(t, 0);
  persistence.predicted_severity.assign(severity.begin(), severity.begin() + static_cast<std::ptrdiff_t>(rows));
  e.predictors.push_back(std::move(persistence));
  ScoredPredictor climatology;
  climatology.predictor = Predictor::climatology;
  climatology.threshold = e.train_burst_share;
  climatology.predicted.assign(rows, e.train_burst_share > 0);
  climatology.ranking.assign(rows, e.train_burst_share);
  std::vector<std::size_t> class_counts(kSeverityClasses, 0);
  for (std::size_t t : r.train) ++class_counts[classes[t]];
  const int common =
      static_cast<int>(std::max_element(class_counts.begin(), class_counts.end()) - class_counts.begin());
  climatology.predicted_severity.assign(rows, common);
  e.predictors.push_back(std::move(climatology));
}

// One predictor's statistics on each resample of the scored rows.
struct ResampledStatistics {
  explicit ResampledStatistics(std::uint32_t resamples)
      : f1(resamples),
        precision(resamples),
        recall(resamples),
        average_precision(resamples),
        severity_macro(resamples),
        f1_minus_persistence(resamples) {}
  std::vector<double> f1, precision, recall, average_precision, severity_macro, f1_minus_persistence;
};

// A predictor's decisions at each test position as counters: the binary
// confusion table's cells and, with severity, each class's true and false
// positives and false negatives.
BlockTallies decision_tallies(const std::vector<int>& labels, const std::vector<int>& classes, const ScoredPredictor& p,
                              const std::vector<std::size_t>& test, bool severity) {
  const std::size_t counters = kBinaryCells + (severity ? 3 * kSeverityClasses : 0);
  return BlockTallies(test.size(), counters, [&](std::size_t position, std::uint32_t* c) {
    const std::size_t row = test[position];
    ++c[binary_cell(labels[row] != 0, p.predicted[row] != 0)];
    if (!severity) return;
    std::uint32_t* true_positives = c + kBinaryCells;
    std::uint32_t* false_positives = true_positives + kSeverityClasses;
    count_class_decision(classes[row], p.predicted_severity[row], true_positives, false_positives,
                         false_positives + kSeverityClasses);
  });
}

double severity_macro_f1_of_tallies(const std::uint64_t* tallies) {
  const auto counts = [&](std::size_t first) {
    return std::vector<double>(tallies + first, tallies + first + kSeverityClasses);
  };
  return multiclass_f1_of_counts(counts(kBinaryCells), counts(kBinaryCells + kSeverityClasses),
                                 counts(kBinaryCells + 2 * kSeverityClasses))
      .macro;
}

// Every statistic of every predictor on the same resampled test rows (so that
// differences are paired), as block-bootstrap intervals. A resample is taken
// as its blocks: the counts behind F1, precision, recall and the severity F1
// from each predictor's prefix tallies, average precision from the test rows'
// multiplicities (the figures of binary_scores, multiclass_f1 and
// average_precision on the resampled rows, to the bit).
void bootstrap_intervals(HorizonEvaluation& e, const std::vector<int>& labels, const std::vector<int>& classes,
                         const std::vector<std::size_t>& test, const PredictionOptions& options) {
  std::vector<ResampledStatistics> draws(e.predictors.size(), ResampledStatistics(options.resamples));
  std::vector<RankedRows> ranked;  // each predictor's scored rows sorted once, not once per resample
  std::vector<BlockTallies> tallies;
  for (const ScoredPredictor& p : e.predictors) {
    ranked.emplace_back(labels, p.ranking, test);
    tallies.push_back(decision_tallies(labels, classes, p, test, options.severity));
  }
  const std::size_t persistence = static_cast<std::size_t>(&e.of(Predictor::persistence) - e.predictors.data());
  const std::uint32_t stream = horizon_stream(e.horizon_bins);
  std::vector<std::uint32_t> multiplicity;
  std::vector<std::uint64_t> counts(tallies.front().counters());
  std::vector<BinaryScores> scores(e.predictors.size());
  for (std::uint32_t b = 0; b < options.resamples; ++b) {
    const std::vector<ResampleBlock> blocks = block_resample_blocks(test.size(), e.block, options.seed, stream, b);
    block_multiplicities(blocks, test.size(), multiplicity);
    for (std::size_t k = 0; k < e.predictors.size(); ++k) {
      ResampledStatistics& d = draws[k];
      tallies[k].tally(blocks, counts.data());
      scores[k] = binary_scores_of_cells(counts.data());
      d.f1[b] = scores[k].f1;
      d.precision[b] = scores[k].precision;
      d.recall[b] = scores[k].recall;
      d.average_precision[b] = ranked[k].average_precision(multiplicity);
      d.severity_macro[b] = options.severity ? severity_macro_f1_of_tallies(counts.data()) : 0.0;
    }
    for (std::size_t k = 0; k < e.predictors.size(); ++k)
      draws[k].f1_minus_persistence[b] = scores[k].f1 - scores[persistence].f1;
  }
  for (std::size_t k = 0; k < e.predictors.size(); ++k) {
    ScoredPredictor& p = e.predictors[k];
    ResampledStatistics& d = draws[k];
    p.f1 = quantile_interval(std::move(d.f1), options.confidence);
    p.precision = quantile_interval(std::move(d.precision), options.confidence);
    p.recall = quantile_interval(std::move(d.recall), options.confidence);
    p.average_precision_interval = quantile_interval(std::move(d.average_precision), options.confidence);
    p.severity_macro = quantile_interval(std::move(d.severity_macro), options.confidence);
    p.f1_minus_persistence = quantile_interval(std::move(d.f1_minus_persistence), options.confidence);
  }
}

}  // namespace

HorizonEvaluation evaluate_horizon(const FeatureMatrix& features, const std::vector<int>& severity,
                                   std::size_t horizon_bins, const PredictionOptions& options,
                                   const std::vector<ExtraSeries>& extra, LogisticWorkspace* workspace) {
  const std::size_t n = severity.size();
  if (features.rows != n)
    throw InternalError("evaluate_horizon", "burst features and severity differ in length", __FILE__, __LINE__);
  if (!(options.train_share > 0 && options.train_share < 1))
    throw UserError(fmt::format("train_share {}; accepted: 0 < train_share < 1", options.train_share));
  if (!(options.validation_share > 0 && options.validation_share < 1))
    throw UserError(fmt::format("validation_share {}; accepted: 0 < validation_share < 1", options.validation_share));
  HorizonEvaluation e;
  e.horizon_bins = horizon_bins;
  const std::vector<int> labels = burst_labels(severity, horizon_bins, options.label);
  const std::vector<int> classes = severity_labels(severity, horizon_bins, options.label);
  const HorizonRows r = horizon_rows(n, labels.size(), horizon_bins, options);
  e.train_rows = r.train.size();
  e.test_rows = r.test.size();
  e.first_test_row = r.split;
  const auto share = [&](const std::vector<std::size_t>& rows) {
    double bursts = 0;
    for (std::size_t t : rows) bursts += labels[t];
    return bursts / static_cast<double>(rows.size());
  };
  e.train_burst_share = share(r.train);
  e.test_burst_share = share(r.test);
  const std::size_t rows = labels.size();
  TrainingData data =
      training_data(features, labels, classes, r.fit, r.train, extra, horizon_bins, options.label);
  LogisticWorkspace own;
  data.workspace = workspace ? workspace : &own;

  add_baselines(e, features, severity, classes, r, rows);
  for (Predictor model : options.models) {
    if (model == Predictor::persistence || model == Predictor::climatology) continue;
    ScoredPredictor p;
    p.predictor = model;
    BurstProbabilities probabilities =
        burst_probabilities(model, data, features, rows, range_of(r.validation), options);
    p.threshold = f1_optimal_threshold(probabilities.validated, labels, r.validation);
    p.ranking = std::move(probabilities.ranking);
    p.unconverged_fits = probabilities.unconverged_fits;
    p.predicted.resize(rows);
    for (std::size_t t = 0; t < rows; ++t) p.predicted[t] = p.ranking[t] >= p.threshold;
    p.predicted_severity = options.severity ? severity_predictions(model, data, features, rows, range_of(r.test),
                                                                   options, p.unconverged_fits)
                                            : std::vector<int>(rows, 0);
    e.predictors.push_back(std::move(p));
  }
  for (ScoredPredictor& p : e.predictors) {
    p.scores = binary_scores(labels, p.predicted, r.test);
    p.average_precision = average_precision(labels, p.ranking, r.test);
    if (options.severity) p.severity = multiclass_f1(classes, p.predicted_severity, kSeverityClasses, r.test);
  }
  e.block = options.block ? options.block
                          : static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(r.test.size()))));
  if (options.resamples > 0) bootstrap_intervals(e, labels, classes, r.test, options);
  return e;
}

BlockBootstrapInterval paired_f1_difference(const HorizonEvaluation& e, const std::vector<int>& severity,
                                            const std::vector<int>& a, const std::vector<int>& b,
                                            const PredictionOptions& options) {
  const std::vector<int> labels = burst_labels(severity, e.horizon_bins, options.label);
  std::vector<std::size_t> test(e.test_rows);
  for (std::size_t k = 0; k < test.size(); ++k) test[k] = e.first_test_row + k;
  return block_bootstrap(test.size(), e.block, options.resamples, options.confidence, options.seed,
                         horizon_stream(e.horizon_bins), [&](const std::vector<std::size_t>& positions) {
                           const std::vector<std::size_t> rows = rows_at(test, positions);
                           return binary_scores(labels, b, rows).f1 - binary_scores(labels, a, rows).f1;
                         });
}

}  // namespace gs
