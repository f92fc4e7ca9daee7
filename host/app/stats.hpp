// `gpusynth stats TRACE…`: read a real trace, bin it, and report the papers'
// descriptive statistics (docs/cli.md), as text, JSON or HDF5
// (/datasets/<name>/…).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "estimators/burstiness.hpp"
#include "estimators/hurst.hpp"
#include "io/series_source.hpp"
#include "io/stats_file.hpp"

namespace gs {

struct StatsOptions {
  SeriesSource source;  // the trace(s) and how to read and bin them
  std::string output;   // HDF5 path, empty: none
  std::size_t max_lag = 100;
  bool json = false;
  std::string command_line;
};

TraceStatistics compute_statistics(const StatsOptions& options);
// The statistics of s.loaded's series (and of its inter-arrival gaps, events
// only), ACFs up to max_lag: what `stats` computes once the trace is read.
void compute_statistics(TraceStatistics& s, std::size_t max_lag);
// The statistics part of `stats --json` (length, burstiness, IDC, ACF, Hurst,
// inter-arrivals), without the trace's provenance; NaN as null.
nlohmann::json statistics_json(const TraceStatistics& s);
// What `stats --json` prints: the statistics and the trace's provenance
// (`sha`: the sha256 of each trace file).
nlohmann::json summary_json(const TraceStatistics& s, const std::vector<std::string>& sha);

int stats_command(const StatsOptions& options);

}  // namespace gs
