// Fitting the models to a real series (docs/fitting.md): each model's fit
// adapter (ModelTraits::fit, in its own file) estimates its parameters from a
// FitData and returns them as a runnable `params:` entry with the estimates,
// standard errors and fit statistics. `gpusynth fit` and a study's `models:`
// both go through fit_models.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "estimators/hurst.hpp"
#include "estimators/stable_fit.hpp"
#include "host/models/model.hpp"

namespace gs {

// The values of the fit options (FitOptionSpec, declared by the models that
// use them): `fitting:` keys of a config, or `--<option>` of `gpusynth fit`.
class FitSettings {
 public:
  // UserError naming `where` when the option is unknown or its value out of range.
  void set(const std::string& name, const std::string& value, const std::string& where);
  // The value given, or the option's default (empty when it has none).
  std::string choice(const std::string& name) const;
  std::optional<std::int64_t> whole(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
};

// The series a model is fitted to, with what several adapters share computed
// once: Hurst estimates by estimator, and the maximum-likelihood α-stable law
// of the values (stable and lfsn).
class FitData {
 public:
  FitData(std::vector<double> series, bool binned, double bin_width, std::vector<double> times, FitSettings settings,
          std::uint64_t seed);

  const std::vector<double>& series() const { return series_; }
  bool binned() const { return binned_; }                      // counts per bin (else (time, value) pairs)
  double bin_width() const { return bin_width_; }              // seconds; 0 for (time, value) pairs
  const std::vector<double>& times() const { return times_; }  // of (time, value) pairs
  const FitSettings& settings() const { return settings_; }
  std::uint64_t seed() const { return seed_; }  // bootstrap resamples, count dithering, EM starts

  // Both are computed once and kept; several models of one dataset may ask at
  // once from different threads (the study fits each (dataset, model) as its
  // own task): the first computes, the others wait for its result.
  // H of the series by an estimator of `gpusynth stats` (UserError for an unknown one).
  const HurstEstimate& hurst(const std::string& estimator);
  // The α-stable law of the values by maximum likelihood (counts dithered
  // over their rounding interval first; the note says so).
  const StableFit& stable_marginal();

 private:
  std::vector<double> series_;
  bool binned_;
  double bin_width_;
  std::vector<double> times_;
  FitSettings settings_;
  std::uint64_t seed_;
  std::mutex hurst_mutex_, stable_mutex_;
  std::map<std::string, HurstEstimate> hurst_;
  std::optional<StableFit> stable_;
};

// One fitted model: its runnable parameters and what the table and `fit:` show.
struct FittedModel {
  std::string model;
  std::string invalid;  // why the model was stopped (the paper's validity checks), else empty
  YAML::Node params, workload, fit;
  std::string estimates;  // "alpha = 1.52 ± 0.03, …"
  std::string statistic;  // "logL = …" or "BIC = …"
  std::string warning;    // for the log (e.g. lfsn's H from a second-order estimator), else empty
  // Why an estimate lies on a bound of the search or has no standard errors,
  // and what to try: the fit runs, but its validity is "boundary", not "ok".
  std::string boundary;
  std::uint64_t length = 0;

  // Another reason for `boundary` (after those already there).
  void add_boundary(const std::string& why) {
    if (!why.empty()) boundary += (boundary.empty() ? "" : "; ") + why;
  }
};

// Why an H estimate makes a fit a boundary one (empty when it is not on an
// edge of its estimator): the estimator, its note and what to try.
std::string hurst_boundary(const HurstEstimate& h, const std::string& estimator, const char* option);

// "ok", "boundary" (an estimate on a bound of the search or without standard
// errors: usable, with the warning beside it) or "stopped" (not runnable).
const char* validity_of(const FittedModel& fitted);

// Every model of `models` fitted to `data`, in that order; a model that
// cannot be fitted comes back with `invalid` set, and the others still fit.
std::vector<FittedModel> fit_models(FitData& data, const std::vector<std::string>& models);

// UserError naming the first name of `models` that no model can be fitted as.
void check_fittable(const std::vector<std::string>& models, const std::string& where);

// Whether a fitted model's replicas are stored as counts (uint32): a binned
// trace whose values are whole numbers below 2^32 (request counts); bytes or
// I/O time per bin (darshan) stay real (float32), which saturating at 2^32 − 1
// would ruin.
bool replicas_as_counts(bool binned, const std::vector<double>& series);

// The `ensembles:` entry `<dataset>-<model>` that runs a fitted model at the
// trace's length (counts when replicas_as_counts).
YAML::Node fitted_ensemble_node(const FittedModel& fitted, const std::string& dataset, std::uint64_t replicas,
                                bool counts);

// What the fit adapters write: "name = value ± se" (the SE left out when it is
// not finite), `fit:` entries name and name_se, YAML flow maps and lists.
std::string pm(const char* name, double value, double se);
// The same, saying "(profile)" after an SE that is a profile-likelihood interval's (StableFit::Profile::se_from).
std::string pm(const char* name, double value, double se, const std::string& se_from);
std::string pm_list(const char* name, const std::vector<double>& values, const std::vector<double>& se);  // "[a ± s, …]"
void record(YAML::Node& fit, const std::string& name, double value, double se);
void record_list(YAML::Node& fit, const std::string& name, const std::vector<double>& values,
                 const std::vector<double>& se);
YAML::Node flow_map();
YAML::Node flow_list(const std::vector<double>& values);
YAML::Node matrix_rows(const Matrix& m);  // one flow list per row, as params want it
YAML::Node row_major(const Matrix& m);    // one flat list (HDF5 attributes are flat)

// The α-stable workload paper's validity checks (ALPHA-STABLE-SYNTHETIC-TRACE-
// GENERATION): empty when they pass, else why the model stops.
std::string alpha_stable_invalid(const StableLawParams& law, std::optional<double> H);
// The `fit:` entries of an α-stable fit (S1 estimates, S0 location, likelihood).
void record_stable(YAML::Node& fit, const StableFit& f);

// The α-stable law of a series by maximum likelihood: rounded values when every
// value is a whole number, else the density; started from McCulloch's
// quantiles (from a heavy, skewed law when most values are equal and the
// quantiles cannot tell).
StableFit fit_stable_marginal(const std::vector<double>& series, std::uint64_t seed);

}  // namespace gs
