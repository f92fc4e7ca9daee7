// `gpusynth stats TRACE…`: read a real trace, bin it, and report the papers'
// descriptive statistics (README, "Statistics of a trace"), as text, JSON or
// HDF5 (/datasets/<name>/…).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "estimators/burstiness.hpp"
#include "estimators/hurst.hpp"
#include "io/attributes.hpp"
#include "io/trace.hpp"

namespace gs {

struct StatsOptions {
  std::vector<std::string> traces;
  TraceOptions trace;
  std::string bin;     // e.g. 1s, 100ms, 5min; required except for series traces
  std::string series;  // the binned channel analysed; default count (darshan: bytes)
  std::string output;  // HDF5 path, empty: none
  std::string name;    // dataset name; default: the first trace's file name without extensions
  std::size_t max_lag = 100;
  bool json = false;
  std::string command_line;
};

// Seconds in "1s", "250ms", "10us", "5ns", "5min", "1h" or a bare number of seconds.
double parse_duration(const std::string& text, const char* option);

struct NamedHurst {
  const char* key;  // JSON key: rs, aggvar, dfa, whittle, local_whittle, stable
  HurstEstimate estimate;
};

// Everything `stats` reports about one trace.
struct TraceStatistics {
  Trace trace;
  BinnedSeries binned;                                  // empty for series traces
  std::string series_name;                              // which channel (or "value" for series traces)
  std::vector<double> series;                           // the analysed sequence
  std::vector<double> acf;                              // of the series, lags 0..max_lag
  std::vector<double> interarrivals, interarrival_acf;  // events only
  Burstiness burstiness;
  Burstiness interarrival_burstiness;  // events only
  std::vector<NamedHurst> hurst;
};

// The trace read and binned and its analysed series chosen: the first half of
// compute_statistics, all that `run` needs to store a dataset.
TraceStatistics read_series(const StatsOptions& options);
// The second half: ACFs (to max_lag), burstiness and every Hurst estimator.
void analyse_series(TraceStatistics& s, std::size_t max_lag);
TraceStatistics compute_statistics(const StatsOptions& options);

// The default dataset name: the first trace's file name up to its first dot.
std::string default_dataset_name(const std::string& path);

// The sha256 of each trace file, and the provenance attributes of a dataset
// group (source file names and their sha256, ';'-separated; format, series,
// binning, lines) as `stats -o` and `run` write them.
std::vector<std::string> trace_digests(const std::vector<std::string>& paths);
std::vector<Attribute> dataset_attributes(const TraceStatistics& s, const std::vector<std::string>& sha);
int stats_command(const StatsOptions& options);

}  // namespace gs
