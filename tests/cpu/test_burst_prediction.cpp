// Burst prediction against planted truth (estimators/burst_statistics.hpp): an fGn
// background (H = 0.8) with 1-bin bursts at known times, half of them
// announced by a ramp over the 3 bins before. At a horizon of 1 bin the
// logistic model and the boosted trees learn the ramp and beat persistence (a
// 1-bin burst never persists) with a block-bootstrap interval of the F1
// difference above 0. On i.i.d. noise with i.i.d. bursts nothing can be
// learned: the interval of the difference holds 0. Training rows all come
// before the test rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include "estimators/boosted_trees.hpp"
#include "estimators/burst_prediction.hpp"
#include "kernels/philox.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

struct Planted {
  BurstChannels channels;
  std::vector<int> severity;
};

Planted planted(const std::vector<double>& background, bool announce, std::uint64_t seed) {
  Planted p;
  p.channels.bytes = background;
  const std::size_t n = background.size();
  for (std::size_t b = 0; b < 200; ++b) {  // bursts every 100 bins on average, at Philox-drawn places
    const auto bits = philox_bits({seed, 9}, 0, b, 0);
    const std::size_t at = 4 + static_cast<std::size_t>(uniform_open(bits[0]) * static_cast<double>(n - 8));
    p.channels.bytes[at] += 12;
    if (announce && (bits[1] & 1))
      for (std::size_t k = 1; k <= 3; ++k) p.channels.bytes[at - k] += 1.5 * static_cast<double>(4 - k);
  }
  p.channels.operations = p.channels.bytes;
  p.channels.io_time = p.channels.bytes;
  p.severity = burst_severity(p.channels.bytes, burst_threshold_for_share(p.channels.bytes, 0.01));
  return p;
}

PredictionOptions models_and_baselines() {
  PredictionOptions options;
  options.models = {Predictor::logistic};
  if (boosted_trees_available()) options.models.push_back(Predictor::xgboost);
  options.trees.threads = 2;
  return options;
}

void print(const char* what, const HorizonEvaluation& e) {
  for (const ScoredPredictor& p : e.predictors)
    std::printf("%s %-11s F1 %.3f [%.3f, %.3f] minus persistence [%.3f, %.3f] AP %.3f severity macro F1 %.3f\n",
                what, to_string(p.predictor), p.scores.f1, p.f1.low, p.f1.high, p.f1_minus_persistence.low,
                p.f1_minus_persistence.high, p.average_precision, p.severity.macro);
}

TEST(BurstPrediction, AnnouncedBurstsArePredictedBetterThanByPersistence) {
  const std::vector<double> fgn = test::generate_float64("fgn", "{H: 0.8}", 1, 20000, 11);
  const Planted p = planted(fgn, true, 3);
  const PredictionOptions options = models_and_baselines();
  const FeatureMatrix features = burst_features(p.channels, FeatureSet::fs1, 5);
  const HorizonEvaluation e = evaluate_horizon(features, p.severity, 1, options);
  print("announced:", e);
  for (Predictor model : options.models) {
    EXPECT_GT(e.of(model).f1_minus_persistence.low, 0.0) << to_string(model);
    EXPECT_GT(e.of(model).average_precision, e.of(Predictor::climatology).average_precision) << to_string(model);
  }
  // Bins from ⌊0.8·20000⌋ = 16000 on are scored (up to the last labelled row,
  // 19998); training rows end where their label (bin t + 1) would be scored.
  EXPECT_EQ(e.first_test_row, 16000u);
  EXPECT_EQ(e.test_rows, 19999u - 16000u);
  EXPECT_EQ(e.train_rows, 15999u);
  // Climatology's average precision is the scored share of bursts.
  EXPECT_NEAR(e.of(Predictor::climatology).average_precision, e.test_burst_share, 1e-12);
  if (!boosted_trees_available())
    GTEST_SKIP() << "built without XGBoost (libxgboost-dev, xgboost): only the logistic half of this test ran";
}

TEST(BurstPrediction, IidBurstsLeaveNothingToLearn) {
  std::vector<double> noise(20000);
  for (std::size_t i = 0; i < noise.size(); i += 2) {
    const auto bits = philox_bits({5, 10}, 0, i, 0);
    const double r = std::sqrt(-2 * std::log(uniform_open(bits[0]))), angle = 6.283185307179586 * uniform_open(bits[1]);
    noise[i] = r * std::cos(angle);
    noise[i + 1] = r * std::sin(angle);
  }
  const Planted p = planted(noise, false, 4);
  const PredictionOptions options = models_and_baselines();
  const HorizonEvaluation e = evaluate_horizon(burst_features(p.channels, FeatureSet::fs3, 5), p.severity, 1, options);
  print("i.i.d.:", e);
  for (Predictor model : options.models) {
    EXPECT_LE(e.of(model).f1_minus_persistence.low, 0.0) << to_string(model);
    EXPECT_GE(e.of(model).f1_minus_persistence.high, 0.0) << to_string(model);
  }
}

// Same data, seed and thread count: the same models, decisions and intervals.
TEST(BurstPrediction, Reproducible) {
  const std::vector<double> fgn = test::generate_float64("fgn", "{H: 0.8}", 1, 6000, 12);
  const Planted p = planted(fgn, true, 5);
  PredictionOptions options = models_and_baselines();
  options.resamples = 50;
  const FeatureMatrix features = burst_features(p.channels, FeatureSet::fs3, 5);
  const HorizonEvaluation a = evaluate_horizon(features, p.severity, 3, options);
  const HorizonEvaluation b = evaluate_horizon(features, p.severity, 3, options);
  ASSERT_EQ(a.predictors.size(), b.predictors.size());
  for (std::size_t k = 0; k < a.predictors.size(); ++k) {
    EXPECT_EQ(a.predictors[k].predicted, b.predictors[k].predicted);
    EXPECT_EQ(a.predictors[k].threshold, b.predictors[k].threshold);
    EXPECT_EQ(a.predictors[k].f1.low, b.predictors[k].f1.low);
    EXPECT_EQ(a.predictors[k].severity.macro, b.predictors[k].severity.macro);
  }
}

// The boosted trees' figures for a range of rows are the bits of predicting every row (the threshold's
// model predicts the validation rows alone): binary and seven classes, ranges at the start, inside, at the
// end and of one row.
TEST(BurstPrediction, BoostedTreesPredictARangeOfRowsWithTheBitsOfAllRows) {
  if (!boosted_trees_available()) GTEST_SKIP() << "built without XGBoost (libxgboost-dev, xgboost)";
  const std::vector<double> fgn = test::generate_float64("fgn", "{H: 0.8}", 1, 3000, 13);
  const Planted p = planted(fgn, true, 6);
  const FeatureMatrix features = burst_features(p.channels, FeatureSet::fs3, 5);
  const std::vector<int> classes = severity_labels(p.severity, 2, BurstLabel::at);
  std::vector<int> labels(classes.size());
  std::vector<std::size_t> rows;
  for (std::size_t t = 0; t < classes.size(); ++t) {
    labels[t] = classes[t] > 0;
    if (t < 2000) rows.push_back(t);
  }
  BoostedTreesOptions options;
  options.rounds = 20;
  for (const int k : {2, kSeverityClasses}) {
    const BoostedTrees trees(features, k == 2 ? labels : classes, rows, k, options);
    const std::vector<double> all = trees.predict(features, 0, features.rows);
    const std::size_t per_row = k == 2 ? 1 : static_cast<std::size_t>(k);
    ASSERT_EQ(all.size(), features.rows * per_row);
    for (const auto& [first, count] : {std::pair<std::size_t, std::size_t>{0, 700}, {1500, 777}, {2990, 10}, {42, 1}}) {
      const std::vector<double> some = trees.predict(features, first, count);
      ASSERT_EQ(some.size(), count * per_row);
      for (std::size_t i = 0; i < some.size(); ++i)
        ASSERT_EQ(some[i], all[first * per_row + i]) << k << " classes, rows from " << first << ", value " << i;
    }
  }
}

// Features beyond float's range (a heavy-tailed replica's MACD reaches twice float's largest) are clamped
// for XGBoost: the same trees and probabilities as with those values set to float's largest by hand.
TEST(BurstPrediction, TreesTakeFeaturesBeyondFloatsRangeAsFloatsLargest) {
  if (!boosted_trees_available()) GTEST_SKIP() << "built without XGBoost";
  constexpr std::size_t kRows = 600;
  constexpr double kFloatMax = std::numeric_limits<float>::max();
  FeatureMatrix wide, clamped;
  wide.names = clamped.names = {"level", "spread"};
  wide.rows = clamped.rows = kRows;
  std::vector<int> labels(kRows);
  std::vector<std::size_t> rows(kRows);
  for (std::size_t t = 0; t < kRows; ++t) {
    const double level = static_cast<double>(philox_bits({3, 4}, 0, t, 0)[0] % 1000) / 1000;
    const double spread = t % 7 == 0 ? (t % 2 ? 1e50 : -3e39) : level * 1e38;
    wide.values.insert(wide.values.end(), {level, spread});
    clamped.values.insert(clamped.values.end(), {level, std::clamp(spread, -kFloatMax, kFloatMax)});
    labels[t] = level + (t % 7 == 0 ? 0.3 : 0) > 0.6;
    rows[t] = t;
  }
  BoostedTreesOptions options;
  options.rounds = 10;
  const std::vector<double> from_wide = BoostedTrees(wide, labels, rows, 2, options).predict(wide, 0, kRows);
  const std::vector<double> by_hand = BoostedTrees(clamped, labels, rows, 2, options).predict(clamped, 0, kRows);
  ASSERT_EQ(from_wide.size(), kRows);
  for (std::size_t t = 0; t < kRows; ++t) {
    ASSERT_TRUE(std::isfinite(from_wide[t])) << t;
    ASSERT_EQ(from_wide[t], by_hand[t]) << t;
  }
}

// A model's severity classes are predicted on the scored rows alone (0 elsewhere): on each of them the class
// of highest probability from the model fitted to every training row and applied to every row, as before.
TEST(BurstPrediction, SeverityClassesOfTheScoredRowsAreThoseOfPredictingEveryRow) {
  // Bursts of class 3 or 5 every 20 to 80 bins, each announced in the bin before by its size; one in the
  // bin after the first scored one (bin 4800 of 6000), so that the first scored row predicts a burst class.
  // The announcements replace the noise (white, SD 1) rather than add to it: added, the one in bin 4800
  // fell below every class-3 announcement of the training rows in 1 draw of about 50 (stream version 6's
  // noise did: 6.66 against 6.85), where the trees' cut may lie.
  Planted p;
  p.channels.bytes = test::generate_float64("fgn", "{H: 0.5}", 1, 6000, 15);
  p.severity.assign(p.channels.bytes.size(), 0);
  const auto burst = [&](std::size_t at) {
    p.severity[at] = at % 2 ? 3 : 5;
    p.channels.bytes[at - 1] = 3.0 * p.severity[at];
  };
  for (std::size_t at = 10, b = 0; at < p.severity.size(); at += 20 + philox_bits({8, 1}, 0, b++, 0)[0] % 60)
    if (at < 4790 || at > 4810) burst(at);
  burst(4801);
  p.channels.operations = p.channels.io_time = p.channels.bytes;
  PredictionOptions options = models_and_baselines();
  options.resamples = 0;
  options.trees.rounds = 30;
  const std::size_t horizon = 1;
  const FeatureMatrix features = burst_features(p.channels, FeatureSet::fs1, 5);
  const HorizonEvaluation e = evaluate_horizon(features, p.severity, horizon, options);
  std::vector<int> classes = severity_labels(p.severity, horizon, BurstLabel::at);
  const std::size_t rows = classes.size();
  classes.resize(features.rows, 0);
  std::vector<std::size_t> train(e.train_rows);
  for (std::size_t t = 0; t < train.size(); ++t) train[t] = t;  // the training rows are the first ones
  std::size_t nonzero = 0;
  for (Predictor model : options.models) {
    std::vector<double> probability(features.rows * kSeverityClasses, 0.0);
    if (model == Predictor::xgboost) {
      probability =
          BoostedTrees(features, classes, train, kSeverityClasses, options.trees).predict(features, 0, features.rows);
    } else {
      for (int c = 0; c < kSeverityClasses; ++c) {
        std::vector<int> one(classes.size());
        bool present = false;
        for (std::size_t t = 0; t < one.size(); ++t) one[t] = classes[t] == c;
        for (std::size_t t : train) present = present || one[t];
        if (!present) continue;
        const std::vector<double> pc = fit_logistic(features, one, train).probabilities(features, 0, features.rows);
        for (std::size_t t = 0; t < features.rows; ++t) probability[t * kSeverityClasses + c] = pc[t];
      }
    }
    const std::vector<int>& predicted = e.of(model).predicted_severity;
    ASSERT_EQ(predicted.size(), rows);
    for (std::size_t t = 0; t < rows; ++t) {
      const auto first = probability.begin() + static_cast<std::ptrdiff_t>(t * kSeverityClasses);
      const int expected =
          t < e.first_test_row ? 0 : static_cast<int>(std::max_element(first, first + kSeverityClasses) - first);
      ASSERT_EQ(predicted[t], expected) << to_string(model) << ", row " << t;
      nonzero += t >= e.first_test_row && expected != 0;
    }
  }
  EXPECT_GT(nonzero, 10u);  // the models do predict burst classes on the scored rows
  EXPECT_EQ(e.first_test_row, 4800u);
  for (Predictor model : options.models) EXPECT_EQ(e.of(model).predicted_severity[4800], 3) << to_string(model);
}

// Every bootstrap interval is the one of the definition: each resample's row list (block_resample's
// positions among the scored rows) scored by binary_scores, average_precision and multiclass_f1, the
// paired F1 difference to persistence, and quantile_interval over the resamples: both models and the
// baselines, with severity, a block length that does not divide the scored rows.
TEST(BurstPrediction, BootstrapIntervalsAreThoseOfScoringEachResampledRowList) {
  const std::vector<double> fgn = test::generate_float64("fgn", "{H: 0.8}", 1, 6000, 12);
  Planted p = planted(fgn, true, 5);
  for (std::size_t t = 0; t + 1 < p.severity.size(); t += 2)  // half of the bursts last two bins: persistence scores
    if (p.severity[t] > 0) p.channels.bytes[t + 1] += 12;
  p.severity = burst_severity(p.channels.bytes, burst_threshold_for_share(p.channels.bytes, 0.015));
  PredictionOptions options = models_and_baselines();
  options.resamples = 150;
  options.block = 7;
  options.trees.rounds = 20;
  const std::size_t horizon = 1;
  const HorizonEvaluation e =
      evaluate_horizon(burst_features(p.channels, FeatureSet::fs3, 5), p.severity, horizon, options);
  ASSERT_NE(e.test_rows % e.block, 0u);
  const std::vector<int> labels = burst_labels(p.severity, horizon, options.label);
  const std::vector<int> classes = severity_labels(p.severity, horizon, options.label);
  const std::uint32_t stream = stream_of_name("bursts/horizon/" + std::to_string(horizon));
  const ScoredPredictor& persistence = e.of(Predictor::persistence);
  for (const ScoredPredictor& s : e.predictors) {
    std::vector<double> f1, precision, recall, ap, severity, minus_persistence;
    for (std::uint32_t b = 0; b < options.resamples; ++b) {
      std::vector<std::size_t> rows;
      for (std::size_t position : block_resample(e.test_rows, e.block, options.seed, stream, b))
        rows.push_back(e.first_test_row + position);
      const BinaryScores scores = binary_scores(labels, s.predicted, rows);
      f1.push_back(scores.f1);
      precision.push_back(scores.precision);
      recall.push_back(scores.recall);
      ap.push_back(average_precision(labels, s.ranking, rows));
      severity.push_back(multiclass_f1(classes, s.predicted_severity, kSeverityClasses, rows).macro);
      minus_persistence.push_back(scores.f1 - binary_scores(labels, persistence.predicted, rows).f1);
    }
    const auto expect_interval = [&](const char* what, const BlockBootstrapInterval& got, std::vector<double> values) {
      const BlockBootstrapInterval expected = quantile_interval(std::move(values), options.confidence);
      EXPECT_EQ(got.low, expected.low) << to_string(s.predictor) << " " << what;
      EXPECT_EQ(got.high, expected.high) << to_string(s.predictor) << " " << what;
    };
    expect_interval("f1", s.f1, f1);
    expect_interval("precision", s.precision, precision);
    expect_interval("recall", s.recall, recall);
    expect_interval("average precision", s.average_precision_interval, ap);
    expect_interval("severity", s.severity_macro, severity);
    expect_interval("f1 - persistence", s.f1_minus_persistence, minus_persistence);
    // The resamples differ: every average precision and every F1 but climatology's (a constant decision).
    EXPECT_LT(s.average_precision_interval.low, s.average_precision_interval.high) << to_string(s.predictor);
    if (s.predictor != Predictor::climatology) {
      EXPECT_LT(s.f1.low, s.f1.high) << to_string(s.predictor);
    }
  }
}

// An LFSN replica whose burst classes are nearly separable by the fs3-bytes
// features (tests/data/lfsn-replica-near-separable.counts): at every horizon
// 1 … 24 the logistic fit on the training rows converges and its
// log-likelihood is at least the constant model's (the fit of the burst share
// alone, from which Newton starts). Newton's full step overshoots here: taken
// without the line search, 22 of the 24 fits fell below the constant model
// after one step and stopped there (their "gain" negative).
TEST(BurstPrediction, LogisticFitsOnANearlySeparableReplicaClimbAboveTheConstantModel) {
  BurstChannels c;
  std::ifstream in(test::data_path("lfsn-replica-near-separable.counts"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') c.bytes.push_back(std::stod(line));
  ASSERT_EQ(c.bytes.size(), 8640u);
  const FeatureMatrix features = burst_features(c, FeatureSet::fs3_bytes, 5);
  const std::vector<int> severity = burst_severity(c.bytes, burst_threshold_for_share(c.bytes, 0.01));
  for (std::size_t h = 1; h <= 24; ++h) {
    const std::vector<int> labels = burst_labels(severity, h, BurstLabel::at);
    std::vector<std::size_t> rows;
    for (std::size_t t = 0; t + h < 6912; ++t) rows.push_back(t);  // the training rows of train_share 0.8
    const LogisticModel model = fit_logistic(features, labels, rows);
    double bursts = 0;
    for (std::size_t t : rows) bursts += labels[t];
    const double share = bursts / static_cast<double>(rows.size());
    long double fitted = 0, constant = 0;
    for (std::size_t t : rows) {
      const long double p = model.probability(features, t);
      fitted += labels[t] ? std::log(p) : std::log1p(-p);
      constant += labels[t] ? std::log(share) : std::log1p(-share);
    }
    EXPECT_TRUE(model.converged) << "horizon " << h << ": " << model.iterations << " steps";
    EXPECT_GE(fitted, constant) << "horizon " << h;
  }
}

}  // namespace
}  // namespace gs
