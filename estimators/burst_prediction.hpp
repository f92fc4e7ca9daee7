// Burst prediction per horizon (the Darshan burst paper, section IV): the
// models (logistic regression, gradient-boosted trees) against the two
// baselines a forecaster must beat (persistence and climatology), trained on
// the first bins and scored on the last, with moving-block bootstrap
// intervals (bins are dependent).
//
// The split is by bins, the same for every horizon: bins before
// s = ⌊train_share·n⌋ train, bins from s on are scored. Row t (features of bins
// ≤ t) with horizon H trains when its label's bins lie before s (t + H < s),
// so no training label looks into the scored bins; it is scored when t ≥ s and
// t + H < n. A model's decision threshold is the probability that maximizes F1
// on the validation rows (the last validation_share of the training bins,
// chosen with a model fitted on the rows before them), then the model is
// refitted on every training row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "estimators/boosted_trees.hpp"
#include "estimators/burst_statistics.hpp"

namespace gs {

enum class Predictor { persistence, climatology, logistic, xgboost };
const char* to_string(Predictor predictor);
Predictor parse_predictor(const std::string& text);  // UserError naming the accepted ones

struct PredictionOptions {
  double train_share = 0.8;
  double validation_share = 0.25;  // of the training bins
  BurstLabel label = BurstLabel::at;
  std::vector<Predictor> models = {Predictor::logistic};  // the baselines are always scored
  bool severity = true;  // also the multi-class severity prediction
  BoostedTreesOptions trees;
  std::size_t block = 0;  // bootstrap block length; 0: ⌈(scored rows)^(1/3)⌉
  std::uint32_t resamples = 1000;  // 0: no intervals
  double confidence = 0.95;
  std::uint64_t seed = 1;
};

// Severity prediction: the class with the highest probability (the trees'
// softmax; one logistic model per class present in training, one against the
// rest); persistence says the class of bin t, climatology the most frequent
// training class.
struct ScoredPredictor {
  Predictor predictor = Predictor::persistence;
  double threshold = 0;  // models: the probability from which a burst is predicted
  BinaryScores scores;
  double average_precision = 0;
  MulticlassF1 severity;
  BlockBootstrapInterval f1, precision, recall, average_precision_interval, severity_macro;
  BlockBootstrapInterval f1_minus_persistence;  // paired (the same resampled rows)
  std::vector<int> predicted;                   // burst or not, for every labelled row
  std::vector<double> ranking;                  // its score of every labelled row (average precision ranks by it)
  std::vector<int> predicted_severity;          // its severity class of every scored row (0 elsewhere, and
                                                // everywhere without severity; the baselines': every row)
  int unconverged_fits = 0;  // logistic fits that stopped at kLogisticIterations (classes nearly separable)
};

struct HorizonEvaluation {
  std::size_t horizon_bins = 0, train_rows = 0, test_rows = 0, first_test_row = 0, block = 0;
  double train_burst_share = 0, test_burst_share = 0;
  std::vector<ScoredPredictor> predictors;  // persistence, climatology, then the models in order
  const ScoredPredictor& of(Predictor predictor) const;
};

// More training data from other series of the same kind (synthetic
// replicas): every labelled row of each trains, none is scored.
struct ExtraSeries {
  FeatureMatrix features;
  std::vector<int> severity;
};

// `workspace`: memory for the logistic fits, reused across the horizons of
// one series when they are evaluated one after another (none: its own).
HorizonEvaluation evaluate_horizon(const FeatureMatrix& features, const std::vector<int>& severity,
                                   std::size_t horizon_bins, const PredictionOptions& options,
                                   const std::vector<ExtraSeries>& extra = {},
                                   LogisticWorkspace* workspace = nullptr);

// The interval of F1(b) − F1(a) over the same resampled scored rows (two
// predictions of one horizon, e.g. trained without and with extra series).
BlockBootstrapInterval paired_f1_difference(const HorizonEvaluation& evaluation, const std::vector<int>& severity,
                                            const std::vector<int>& a, const std::vector<int>& b,
                                            const PredictionOptions& options);

}  // namespace gs
