#include "estimators/boosted_trees.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <limits>
#include <string>

#include "estimators/burst_statistics.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"

#ifdef GPUSYNTH_HAVE_XGBOOST
#include <xgboost/c_api.h>
#endif

namespace gs {

#ifdef GPUSYNTH_HAVE_XGBOOST

namespace {

void check(int status, const char* call) {
  if (status != 0) throw InternalError(call, XGBGetLastError(), __FILE__, __LINE__);
}

// The rows `rows` of `features` as a float DMatrix. Values beyond float's
// range (a heavy-tailed replica's bytes near float's largest, and its MACDs
// up to twice that) are clamped to it: the trees split on the values' order,
// which clamping keeps, where a cast would be undefined.
class Matrix {
 public:
  Matrix(const FeatureMatrix& features, const std::vector<std::size_t>& rows, int threads) {
    const std::size_t columns = features.names.size();
    constexpr double kFloatMax = std::numeric_limits<float>::max();
    std::vector<float> values(rows.size() * columns);
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t k = 0; k < columns; ++k)
        values[i * columns + k] = static_cast<float>(std::clamp(features.at(rows[i], k), -kFloatMax, kFloatMax));
    check(XGDMatrixCreateFromMat_omp(values.data(), rows.size(), columns, NAN, &handle_, threads),
          "XGDMatrixCreateFromMat");
  }
  ~Matrix() { XGDMatrixFree(handle_); }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  DMatrixHandle handle() const { return handle_; }

 private:
  DMatrixHandle handle_ = nullptr;
};

}  // namespace

bool boosted_trees_available() { return true; }

BoostedTrees::BoostedTrees(const FeatureMatrix& features, const std::vector<int>& labels,
                           const std::vector<std::size_t>& rows, int classes, const BoostedTreesOptions& options)
    : classes_(classes), threads_(std::clamp(options.threads, 1, omp_get_max_threads())) {
  if (rows.empty()) throw UserError("boosted trees without training rows");
  Matrix train(features, rows, threads_);
  std::vector<float> y(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) y[i] = static_cast<float>(labels[rows[i]]);
  check(XGDMatrixSetFloatInfo(train.handle(), "label", y.data(), y.size()), "XGDMatrixSetFloatInfo");
  DMatrixHandle matrices[] = {train.handle()};
  check(XGBoosterCreate(matrices, 1, &booster_), "XGBoosterCreate");
  const auto set = [&](const char* name, const std::string& value) {
    check(XGBoosterSetParam(booster_, name, value.c_str()), "XGBoosterSetParam");
  };
  try {
    set("objective", classes == 2 ? "binary:logistic" : "multi:softprob");
    if (classes != 2) set("num_class", std::to_string(classes));
    set("tree_method", "hist");
    set("max_depth", std::to_string(options.max_depth));
    set("eta", fmt::format("{}", options.learning_rate));
    set("min_child_weight", fmt::format("{}", options.min_child_weight));
    set("lambda", fmt::format("{}", options.l2));
    set("nthread", std::to_string(threads_));
    set("seed", std::to_string(options.seed % 2147483648ull));
    set("verbosity", "0");
    for (int round = 0; round < options.rounds; ++round) {
      throw_if_interrupted();  // a round takes milliseconds: a signal stops the training at once
      check(XGBoosterUpdateOneIter(booster_, round, train.handle()), "XGBoosterUpdateOneIter");
    }
  } catch (...) {
    XGBoosterFree(booster_);
    throw;
  }
}

BoostedTrees::~BoostedTrees() {
  if (booster_) XGBoosterFree(booster_);
}

std::vector<double> BoostedTrees::predict(const FeatureMatrix& features, std::size_t first, std::size_t count) const {
  if (count > features.rows || first > features.rows - count)
    throw InternalError("BoostedTrees::predict", fmt::format("{} rows from row {} of {}", count, first, features.rows),
                        __FILE__, __LINE__);
  std::vector<std::size_t> rows(count);
  for (std::size_t i = 0; i < count; ++i) rows[i] = first + i;
  Matrix some(features, rows, threads_);
  const char* config =
      R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
  const bst_ulong* shape = nullptr;
  bst_ulong dimensions = 0;
  const float* result = nullptr;
  check(XGBoosterPredictFromDMatrix(booster_, some.handle(), config, &shape, &dimensions, &result),
        "XGBoosterPredictFromDMatrix");
  return std::vector<double>(result, result + count * static_cast<std::size_t>(classes_ == 2 ? 1 : classes_));
}

#else

bool boosted_trees_available() { return false; }

BoostedTrees::BoostedTrees(const FeatureMatrix&, const std::vector<int>&, const std::vector<std::size_t>&, int,
                           const BoostedTreesOptions&) {
  throw UserError(
      "this gpusynth was built without XGBoost: the predictor 'xgboost' needs Debian's libxgboost-dev "
      "and xgboost packages at build time (scripts/install-deps.sh); 'logistic' needs nothing");
}

BoostedTrees::~BoostedTrees() = default;

std::vector<double> BoostedTrees::predict(const FeatureMatrix&, std::size_t, std::size_t) const { return {}; }

#endif

}  // namespace gs
