// From events to the series the statistics work on: counts and bytes per bin
// (all, reads, writes), and inter-arrival times.
#pragma once

#include <string>
#include <vector>

#include "io/trace.hpp"

namespace gs {

// UserError unless `bins` (over `span_seconds` of `what`) is finite and at most `max_bins`.
void check_bin_count(double bins, double max_bins, double bin_width, double span_seconds, const std::string& what);

// Bins [start + k·w, start + (k+1)·w) from the first event to the last one;
// channels count (+ count_read/count_write when the trace has operations) and
// bytes (+ bytes_read/bytes_write) when it has sizes.
BinnedSeries bin_events(const Trace& trace, double bin_width, double max_bins = kDefaultMaxBins);

// t[i+1] − t[i] of the events (of one operation when `only` is read or write).
std::vector<double> interarrival_times(const Trace& trace);
std::vector<double> interarrival_times(const Trace& trace, Operation only);

}  // namespace gs
