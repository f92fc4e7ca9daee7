// One synthetic replica against the real series (docs/studies.md): the metrics of a study, each a number per replica,
// plus the replica's quantile curve and ACF for the report's bands. The formulas on sorted values are
// kernels/compare.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "estimators/bootstrap.hpp"
#include "estimators/hurst.hpp"

namespace gs {

enum class Metric { trimmed_error, trimmed_error_aligned, ks, acf, hurst, peak_to_mean_ratio, cv_ratio };

// Config names: the five of the issue plus trimmed_error_aligned; `burstiness`
// stands for the pair peak_to_mean_ratio, cv_ratio.
const char* metric_name(Metric metric);
std::optional<std::vector<Metric>> parse_metric(const std::string& name);
// Whether smaller is better (the error-like metrics a ranking may use).
bool is_error_metric(Metric metric);

struct CompareOptions {
  std::vector<Metric> metrics = {Metric::trimmed_error,      Metric::ks,      Metric::acf, Metric::hurst,
                                 Metric::peak_to_mean_ratio, Metric::cv_ratio};
  double trim = 0.1;                       // fraction cut from each end, [0, 0.5)
  std::size_t acf_lags = 50;               // L of the ACF distance
  std::string hurst_estimator = "stable";  // any key of hurst_estimators()
  BootstrapOptions bootstrap;
  Metric rank_by = Metric::trimmed_error;       // the metric of the matching degree and the paired comparison
  std::optional<std::uint64_t> store_replicas;  // replicas kept in /ensembles/<name>/series; none: all
};

// Where `metric` stands in options.metrics (the order of every per-replica
// list), if it is there.
std::optional<std::size_t> metric_index(const CompareOptions& options, Metric metric);

// The definition recorded beside a metric's values.
std::string metric_definition(Metric metric, const CompareOptions& options);

// Levels of the stored quantile curves: p = 0, 0.01, …, 1 (type 7; p = 0 and 1
// are the minimum and the maximum).
constexpr std::size_t kCurveLevels = 101;

// What a comparison needs of one series, computed once for the real one.
struct SeriesProfile {
  std::vector<double> values;  // in time order
  std::vector<double> sorted;
  std::vector<double> quantiles;  // at kCurveLevels
  std::vector<double> acf;        // lags 0..acf_lags (NaN beyond 0 for a constant series)
  double hurst, peak_to_mean, cv;
  std::string hurst_note;  // why hurst has no value (the estimator's note), else empty
};
SeriesProfile profile_series(std::vector<double> values, const CompareOptions& options);

struct ReplicaComparison {
  std::vector<double> metrics;  // in options.metrics order
  std::vector<double> quantiles, acf;
};
ReplicaComparison compare_replica(const SeriesProfile& real, std::vector<double> replica,
                                  const CompareOptions& options);

// A batch of replicas compared at once (on the GPU, where it was generated):
// every metric of the study, with each replica's quantile curve and ACF.
struct BatchComparison {
  std::vector<double> metrics;    // count × options.metrics.size(), row-major
  std::vector<double> quantiles;  // count × kCurveLevels
  std::vector<double> acf;        // count × real.acf.size()
};

}  // namespace gs
