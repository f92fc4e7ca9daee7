// `gpusynth fit TRACE…`: estimate every model from a real trace, print a
// table of estimates ± SE, and write an ensemble.yaml that `gpusynth` runs
// directly (README, "Fitting"). `gpusynth norros`: Norros' effective bandwidth
// and the arrival rate of the self-similarity paper's eqs. (3)–(5).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/stats.hpp"

namespace gs {

struct FitOptions {
  StatsOptions read;  // the trace and how to read and bin it (as for stats)
  std::vector<std::string> models = {"stable", "lfsn", "fgn", "farima", "normal", "markov"};
  std::string output;                             // the ensemble.yaml to write; empty: print the table only
  std::string ensemble_output;                    // the `output:` of that config (default: beside it, .h5)
  std::uint64_t replicas = 100;                   // of each fitted ensemble
  std::uint64_t seed = 1;                         // bootstrap and EM starts; recorded in the config
  std::string lfsn_hurst = "stable";              // stable (valid for α < 2) or rs (the paper's pox plot)
  std::string fgn_hurst = "whittle";              // any estimator of `stats`
  std::optional<std::size_t> farima_p, farima_q;  // given orders; else chosen by BIC over 0..2
  std::size_t markov_states = 3;
  std::size_t hmm_states = 3;
  int hmm_starts = 5;
};

// The models `fit` knows: stable, lfsn, fgn, norros, farima, normal, markov, hmm.
extern const std::vector<std::string> kFitModels;

// One fitted model: its runnable parameters and what the table and `fit:` show.
struct FittedModel {
  std::string model;
  std::string invalid;  // why the model was stopped (the paper's validity checks), else empty
  YAML::Node params, workload, fit;
  std::string estimates;  // "alpha = 1.52 ± 0.03, …"
  std::string statistic;  // "logL = …" or "BIC = …"
  std::string warning;    // for the log (e.g. lfsn's H from a second-order estimator), else empty
  std::uint64_t length = 0;
};

// Every model of o.models fitted to the statistics of one trace; a model that
// cannot be fitted comes back with `invalid` set, and the others still fit.
std::vector<FittedModel> fit_models(const TraceStatistics& s, const FitOptions& o);

// The `ensembles:` entry `<dataset>-<model>` that runs a fitted model at the
// trace's length (counts for binned traces).
YAML::Node fitted_ensemble_node(const FittedModel& fitted, const std::string& dataset, std::uint64_t replicas,
                                bool counts);

int fit_command(const FitOptions& options);

struct NorrosOptions {
  std::optional<double> lambda;  // given: print the effective bandwidth C
  double a = 1, H = 0.5, epsilon = 1e-3, b = 1;
};

int norros_command(const NorrosOptions& options);

}  // namespace gs
