// The datasets of a run: each trace read as `gpusynth stats` reads it, the
// study's `models:` fitted to every dataset (becoming ensembles
// `<dataset>-<model>`), and every ensemble's model given its dataset (hmm's
// `times: dataset`).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "estimators/study.hpp"
#include "host/base/attributes.hpp"
#include "host/engine/config.hpp"
#include "host/engine/context.hpp"

namespace gs {

// A real series as the output stores it, with its provenance.
struct RunDataset {
  std::string name;
  std::vector<double> series;
  double bin_seconds = 0;  // 0 for a (time, value) series
  std::string channel;     // the binned channel `series` is (bytes_read, count, …)
  std::map<std::string, std::vector<double>> channels;  // every channel the trace was binned into
  std::vector<Attribute> attributes;
};

struct PreparedDatasets {
  std::vector<RunDataset> datasets;   // in config order
  std::vector<StoppedModel> stopped;  // study models that failed their checks
  double fit_seconds = 0;
};

// Appends the fitted ensembles to config.ensembles (UserError when none can
// be fitted, or one clashes with a given ensemble's name or stream).
PreparedDatasets prepare_datasets(RunConfig& config, const ExecutionContext& context);

}  // namespace gs
