// A real series from traces: read (io/trace.hpp), binned (io/binning.hpp)
// and one channel chosen, as `gpusynth stats`, `gpusynth fit` and a config's
// `datasets:` read it; with the provenance the output files record.
#pragma once

#include <string>
#include <vector>

#include "host/base/attributes.hpp"
#include "host/base/run_paths.hpp"
#include "io/trace.hpp"

namespace gs {

// Where a series comes from and how it is binned (the reading options of
// `stats` and `fit`, the keys of a dataset).
struct SeriesSource {
  std::vector<std::string> traces;
  std::string trace_list;  // the file that named (some of) them, when one did: an input too
  TraceOptions trace;
  std::string bin;      // e.g. 1s, 100ms, 5min; required except for series traces
  std::string channel;  // the binned channel analysed; default: the format's (count; darshan: bytes)
  std::string name;     // dataset name; default: the first trace's file name up to its first dot
  std::string keys;     // how errors name the settings: "" for the options (--bin), else a key path (datasets[0])

  std::string option(const char* key) const {  // "--bin" or "datasets[0].bin"
    return keys.empty() ? std::string("--") + key : keys + "." + key;
  }
};

struct LoadedSeries {
  Trace trace;
  BinnedSeries binned;                // empty for (time, value) traces
  std::string series_name;            // the channel (or "value" for (time, value) traces)
  std::vector<double> series;         // the analysed sequence
  std::vector<double> interarrivals;  // events only
};

LoadedSeries read_series(const SeriesSource& source);

// A warning when the bins are too coarse for the statistics (fewer than
// kFewestAdvisedBins over the trace's span) with the --bin that would give
// about 1000; empty otherwise, and for formats whose bins are given (counts, series).
constexpr std::size_t kFewestAdvisedBins = 100;
std::string coarse_bin_warning(const LoadedSeries& s, const SeriesSource& source);

// The files `source` reads, its traces and its trace list, as inputs of a run
// (host/base/run_paths.hpp), each named "`what` trace 'PATH'".
void add_source_inputs(const SeriesSource& source, const std::string& what, RunPaths& paths);

// Seconds in "1s", "250ms", "10us", "5ns", "5min", "1h" or a bare number of seconds.
double parse_duration(const std::string& text, const char* option);

// Appends the paths a list file names, one per line ('#' starts a comment;
// relative paths from the list's folder). UserError when it names none.
void append_trace_list(const std::string& list, std::vector<std::string>& paths);

// The default dataset name: the file name of `path` up to its first dot.
std::string default_dataset_name(const std::string& path);

// The sha256 of each trace file, and the provenance attributes of a dataset
// group (source file names and their sha256, ';'-separated; format, series,
// binning, lines) as `stats -o` and `run` write them.
std::vector<std::string> trace_digests(const std::vector<std::string>& paths);
std::vector<Attribute> dataset_attributes(const LoadedSeries& s, const std::vector<std::string>& sha);

}  // namespace gs
