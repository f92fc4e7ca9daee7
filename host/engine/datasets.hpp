// The datasets of a run: each trace read as `gpusynth stats` reads it, the
// study's `models:` fitted to every dataset (becoming ensembles
// `<dataset>-<model>`), and every ensemble's model given its dataset (hmm's
// `times: dataset`).
#pragma once

#include <string>
#include <vector>

#include "estimators/study.hpp"
#include "host/engine/config.hpp"
#include "io/attributes.hpp"

namespace gs {

// A real series as the output stores it, with its provenance.
struct RunDataset {
  std::string name;
  std::vector<double> series;
  std::vector<Attribute> attributes;
};

struct PreparedDatasets {
  std::vector<RunDataset> datasets;   // in config order
  std::vector<StoppedModel> stopped;  // study models that failed their checks
  double fit_seconds = 0;
};

// Appends the fitted ensembles to config.ensembles (UserError when none can
// be fitted, or one clashes with a given ensemble's name or stream).
PreparedDatasets prepare_datasets(RunConfig& config, bool quiet);

}  // namespace gs
