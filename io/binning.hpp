// From events to the series the statistics work on: counts and bytes per bin
// (all, reads, writes), and inter-arrival times.
#pragma once

#include <vector>

#include "io/trace.hpp"

namespace gs {

// Bins [start + k·w, start + (k+1)·w) from the first event to the last one;
// channels count (+ count_read/count_write when the trace has operations) and
// bytes (+ bytes_read/bytes_write) when it has sizes.
BinnedSeries bin_events(const Trace& trace, double bin_width);

// t[i+1] − t[i] of the events (of one operation when `only` is read or write).
std::vector<double> interarrival_times(const Trace& trace);
std::vector<double> interarrival_times(const Trace& trace, Operation only);

}  // namespace gs
