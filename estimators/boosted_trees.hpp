// Gradient-boosted trees through XGBoost's C API (Debian's libxgboost-dev),
// for the burst predictor: binary (binary:logistic) or several classes
// (multi:softprob). Built when CMake finds XGBoost; otherwise fitting one is a
// UserError saying so. The trees are grown by the deterministic `hist` method
// on all rows and all columns, so the same data, options and thread count give
// the same model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gs {

struct FeatureMatrix;

struct BoostedTreesOptions {
  int rounds = 100;             // boosting rounds (trees per class)
  int max_depth = 4;
  double learning_rate = 0.1;   // eta
  double min_child_weight = 1;  // the smallest hessian sum of a leaf
  double l2 = 1;                // lambda, the leaf weights' ridge
  int threads = 1;              // XGBoost's nthread, at most the OpenMP threads (more oversubscribe
                                // spin-waiting threads: on busy cores it spun for minutes)
  std::uint64_t seed = 0;
};

bool boosted_trees_available();

class BoostedTrees {
 public:
  // Fits on `rows` of the features, labels in 0 … classes − 1 (classes 2: binary).
  BoostedTrees(const FeatureMatrix& features, const std::vector<int>& labels, const std::vector<std::size_t>& rows,
               int classes, const BoostedTreesOptions& options);
  ~BoostedTrees();
  BoostedTrees(const BoostedTrees&) = delete;
  BoostedTrees& operator=(const BoostedTrees&) = delete;

  // For rows first … first + count − 1 of `features`: the probability of
  // class 1 (binary), or the classes' probabilities row after row (count ×
  // classes). Each row's figures are its own (its trees' leaves summed in the
  // trees' order), so any range gives the bits of predicting every row.
  std::vector<double> predict(const FeatureMatrix& features, std::size_t first, std::size_t count) const;
  int classes() const { return classes_; }

 private:
  void* booster_ = nullptr;
  int classes_ = 2;
  int threads_ = 1;
};

}  // namespace gs
