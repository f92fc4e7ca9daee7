// The `bursts:` section of a config (docs/bursts.md): which series to analyse
// (a dataset, with its operations and I/O-time datasets for FS2/FS3), which
// ensembles' replicas make the Monte Carlo, and how to detect, predict and
// schedule.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "estimators/burst_analysis.hpp"

namespace gs {

struct BurstsSpec {
  std::string name;
  int line = 0;
  std::string dataset;                 // the real series (bytes per bin); empty: ensembles only
  std::string operations, io_time;     // channels of the dataset's trace (FS2, FS3); empty: the series' own
                                       // direction's (bytes_read: count_read, time_read) when the trace has them
  std::optional<std::vector<std::string>> ensembles;  // Monte Carlo; none: the study's fitted to `dataset`
  double bin_seconds = 0;               // from `bin` (needed without a dataset) or the dataset's
  std::vector<double> horizon_seconds;  // empty: 1 … scheduling window bins (5–120 min at 5-min bins)
  BurstAnalysisOptions analysis;        // on the real series (its features: `features` below)
  std::optional<FeatureSet> features;   // none: fs3 with operations and I/O time, fs3-bytes without
  // The Monte Carlo: the same analysis of every replica, with the features
  // their single channel has and these predictors, without intervals.
  std::vector<Predictor> monte_carlo_models = {Predictor::logistic};
  bool monte_carlo_severity = false;
  std::uint64_t monte_carlo_replicas = 0;  // 0: every stored replica
  std::uint64_t augment_replicas = 0;      // replicas of each ensemble added to the real training bins
};

BurstsSpec parse_bursts(const YAML::Node& node, const std::string& file, std::size_t index);

// A horizon of `seconds` as a whole number of bins, nullopt when it is not one (or below one).
std::optional<std::size_t> horizon_in_bins(double seconds, double bin_seconds);

// What the entries `list` of `bursts:` ask of their datasets, checked with the
// config (a typo fails at once, not after every ensemble is generated):
// channels that exist, a binned dataset, its bin, and horizons in whole bins of it.
struct DatasetSpec;
void check_bursts_with_datasets(const std::vector<BurstsSpec>& bursts, const std::vector<DatasetSpec>& datasets,
                                const YAML::Node& list, const std::string& file);

}  // namespace gs
