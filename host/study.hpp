// Comparison studies (README, "Comparison studies"): the models of a config
// fitted to every dataset, every replica of an ensemble compared with its
// dataset as the batches stream past, and after the run the medians with
// bootstrap intervals, the paired comparisons and the matching degree, written
// under /compare and printed as the paper's tables.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "estimators/compare.hpp"
#include "host/backend.hpp"
#include "host/config.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

struct StoppedModel {
  std::string dataset, model, reason;
};

// Fits config.study.models to every dataset (traces[i]: config.datasets[i]
// as read_series gave it; analysed here in place) and appends an ensemble
// `<dataset>-<model>` for each model that passes its checks; the others are
// returned with the reason. Uses config.seed for the fits.
std::vector<StoppedModel> add_fitted_ensembles(RunConfig& config, std::vector<TraceStatistics>& traces, bool quiet);

// The label of an ensemble under /compare/<dataset>/: its name without the
// "<dataset>-" prefix the fitted ensembles have.
std::string comparison_label(const EnsembleSpec& spec);

class Study {
 public:
  // `series`: every dataset's real series, by name. Only ensembles with a
  // dataset are compared.
  Study(const RunConfig& config, const std::map<std::string, std::vector<double>>& series,
        std::vector<StoppedModel> stopped);

  bool compares(const EnsembleSpec& spec) const;
  const CompareOptions& options() const { return options_; }
  // The real series an ensemble is compared with.
  const SeriesProfile& real_of(const EnsembleSpec& spec) const;
  // Replicas [first, first + count) of the ensemble, row-major in `type`.
  void add_batch(const EnsembleSpec& spec, std::uint64_t first, std::uint64_t count, const void* rows,
                 StorageType type);
  // The same replicas compared where they were generated (BatchComparison).
  void add_compared(const EnsembleSpec& spec, std::uint64_t first, std::uint64_t count,
                    const BatchComparison& compared);
  // The bootstrap across replicas (Philox with the run's seed; the resamples
  // run where `resampler` runs them), the paired comparisons and the matching
  // degrees.
  void summarize(std::uint64_t seed, Resampler& resampler);
  // /compare/… (README, "HDF5 output").
  void write(hid_t file) const;
  // The paper's tables: rows datasets, columns models, `median [lo, hi]`.
  std::string tables() const;

 private:
  struct Compared {
    const EnsembleSpec* spec;
    std::string label;
    std::vector<std::vector<double>> metrics;  // [metric][replica]
    std::vector<double> quantiles, acf;        // replicas × kCurveLevels, replicas × acf lags
    std::vector<MedianSummary> summaries;      // per metric
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
    std::vector<std::size_t> compared;  // indices into compared_
    std::vector<Paired> paired;
    std::vector<StoppedModel> stopped;
  };
  Compared& find(const EnsembleSpec& spec);
  const Dataset& dataset_of(const EnsembleSpec& spec) const;
  // The per-replica results of one replica into c (metrics in options_ order;
  // `lags`: the size of the dataset's ACF, the stride of c.acf).
  void store(Compared& c, std::size_t lags, std::uint64_t replica, const double* metrics, const double* quantiles,
             const double* acf, std::size_t acf_size);

  CompareOptions options_;
  std::vector<Dataset> datasets_;
  std::vector<Compared> compared_;
  std::size_t rank_index_ = 0;  // of options_.rank_by in options_.metrics
};

}  // namespace gs
