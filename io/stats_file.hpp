// `gpusynth stats -o FILE` (docs/cli.md): what stats reports about one
// trace, and its HDF5 layout /datasets/<name>/… (the series, its channels or
// events, ACF, quantiles and Q–Q points, burstiness and every Hurst estimate).
#pragma once

#include <string>
#include <vector>

#include "estimators/burstiness.hpp"
#include "estimators/hurst.hpp"
#include "io/series_source.hpp"

namespace gs {

struct NamedHurst {
  const char* key;  // JSON key: rs, aggvar, dfa, whittle, local_whittle, stable
  HurstEstimate estimate;
};

// Everything `stats` reports about one trace.
struct TraceStatistics {
  LoadedSeries loaded;
  std::vector<double> acf;               // of the series, lags 0..max_lag
  std::vector<double> interarrival_acf;  // events only
  Burstiness burstiness;
  Burstiness interarrival_burstiness;  // events only
  std::vector<NamedHurst> hurst;
};

// Written under a temporary name and renamed into place (h5::PendingFile);
// `sha`: the sha256 of each trace file.
void write_statistics_file(const std::string& path, const std::string& name, const std::string& command_line,
                           const TraceStatistics& s, const std::vector<std::string>& sha);

}  // namespace gs
