// `gpusynth fit TRACE…`: estimate the models from a real trace, print a table
// of estimates ± SE, and write an ensemble.yaml that `gpusynth` runs directly
// (docs/fitting.md). `gpusynth norros`: Norros' effective bandwidth and the
// arrival rate of the self-similarity paper's eqs. (3)–(5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/models/fit.hpp"
#include "io/series_source.hpp"

namespace gs {

struct FitOptions {
  SeriesSource source;              // the trace and how to read and bin it (as for stats)
  std::vector<std::string> models;  // empty: the registry's default fit models
  std::string output;               // the ensemble.yaml to write; empty: print the table only
  std::string ensemble_output;      // the `output:` of that config (default: beside it, .h5)
  std::uint64_t replicas = 100;     // of each fitted ensemble
  std::uint64_t seed = 1;           // bootstrap, dithering and EM starts; recorded in the config
  FitSettings settings;             // the fit adapters' options (--lfsn-hurst, …)
  bool json = false;                // print the fits as one JSON object instead of the table
};

int fit_command(const FitOptions& options);

struct NorrosOptions {
  std::optional<double> lambda;  // given: print the effective bandwidth C
  double a = 1, H = 0.5, epsilon = 1e-3, b = 1;
};

int norros_command(const NorrosOptions& options);

}  // namespace gs
