// Comparison studies (docs/studies.md): every replica of an ensemble compared
// with its dataset as the batches stream past, then the median of each metric
// with bootstrap intervals, the paired comparisons and the matching degree.
// Accumulation and statistics only: io/compare_file writes the results under
// /compare, host/app/study_tables prints the paper's tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "estimators/bootstrap.hpp"
#include "estimators/compare.hpp"
#include "kernels/workload.hpp"

namespace gs {

// An ensemble compared with its dataset.
struct StudyEntry {
  std::string ensemble;  // its name
  std::string model;     // its model's name
  std::string label;     // under /compare/<dataset>/: the name without "<dataset>-" (fitted ensembles)
  std::string dataset;
  std::uint64_t replicas = 0;
  std::uint64_t length = 0;
};

// A replica is implausible when its peak (its largest bin) exceeds this many
// times the real series' peak. Why 10: a model that fits makes the real peak
// one draw of the replicas' peak; for a tail index α the peak of n bins is
// about Fréchet(α), so P(peak > 10 × its median) ≈ ln 2 · 10^-α: 2 % at
// α = 1.5, 7 % at α = 1. A larger share says the model's tail is heavier
// than the trace's (and an order of magnitude above the observed peak is
// rarely a rate the system served).
constexpr double kImplausiblePeakFactor = 10.0;
// The share of implausible replicas above which a run warns: over twice the
// 2 % expected at the paper's α ≈ 1.5.
constexpr double kImplausibleShareWarning = 0.05;

// A model the study fitted to a dataset but stopped (the paper's validity checks).
struct StoppedModel {
  std::string dataset, model, reason;
};

class Study {
 public:
  struct Compared {
    StudyEntry entry;
    std::vector<std::vector<double>> metrics;  // [metric][replica]
    std::vector<double> quantiles, acf;        // replicas × kCurveLevels, replicas × acf lags
    std::vector<MedianSummary> summaries;      // per metric
    // The share of replicas whose peak exceeds kImplausiblePeakFactor × the
    // real peak (NaN when the real peak is not above 0 or no replica has one).
    double implausible_share = 0;
    int degree = -1;
    bool separated = true;  // its interval overlaps no interval of a model with another degree
  };
  struct Paired {
    std::string a, b;
    ProbabilityBelow result;
  };
  struct Dataset {
    std::string name;
    SeriesProfile real;
    std::vector<std::size_t> compared;  // indices into compared()
    std::vector<Paired> paired;
    std::vector<StoppedModel> stopped;
  };

  // `datasets`: every dataset's name and real series, in the config's order;
  // `entries`: the ensembles compared, each with one of those datasets.
  // `source` names the config in errors.
  Study(const CompareOptions& options, const std::vector<std::pair<std::string, std::vector<double>>>& datasets,
        std::vector<StudyEntry> entries, std::vector<StoppedModel> stopped, const std::string& source);

  const CompareOptions& options() const { return options_; }
  // The index of the ensemble named `ensemble` among compared(), if it is compared.
  std::optional<std::size_t> find(const std::string& ensemble) const;
  // The real series entry `index` is compared with.
  const SeriesProfile& real_of(std::size_t index) const;
  // Replicas [first, first + count) of entry `index`, row-major in `type`.
  void add_batch(std::size_t index, std::uint64_t first, std::uint64_t count, const void* rows, StorageType type);
  // The same replicas compared where they were generated.
  void add_compared(std::size_t index, std::uint64_t first, std::uint64_t count, const BatchComparison& compared);
  // The bootstrap across replicas (Philox with the run's seed; the resamples
  // run where `resampler` runs them), the paired comparisons and the matching
  // degrees.
  void summarize(std::uint64_t seed, Resampler& resampler);

  // Every per-replica array of entry `index` as (rows, doubles per replica),
  // replica-major: metrics one by one, quantile curves, ACFs (for gathering
  // the replicas MPI ranks compared).
  std::vector<std::pair<double*, std::size_t>> replica_rows(std::size_t index);

  const std::vector<Dataset>& datasets() const { return datasets_; }
  const std::vector<Compared>& compared() const { return compared_; }
  std::size_t rank_index() const { return rank_index_; }  // of options().rank_by in options().metrics

 private:
  const Dataset& dataset_of(std::size_t index) const;
  // The per-replica results of one replica into c (metrics in options_ order;
  // `lags`: the size of the dataset's ACF, the stride of c.acf).
  void store(Compared& c, std::size_t lags, std::uint64_t replica, const double* metrics, const double* quantiles,
             const double* acf, std::size_t acf_size);

  CompareOptions options_;
  std::vector<Dataset> datasets_;
  std::vector<Compared> compared_;
  std::size_t rank_index_ = 0;
};

}  // namespace gs
