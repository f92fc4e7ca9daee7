// How a replica's requests are timed (docs/requests.md, "Timing"): slack
// times (the synthetic path's own, made with it), the counts of an arrival
// ensemble (CountsTiming), or the trace's phases (PhaseTiming,
// host/requests/phase_timing.hpp). A model that times requests as they are
// made, in issue order, is a RequestTiming: a new one is one file and its test.
#pragma once

#include <cstdint>
#include <vector>

#include "estimators/requests.hpp"

namespace gs {

// The last time (start + execution time) a synthesized request may have, s:
// about 31.7 years, far inside the outputs' microseconds in 64 bits.
constexpr double kMaxRequestSeconds = 1e9;

// Times a replica's requests one by one, in issue order ((seq, rank)).
class RequestTiming {
 public:
  virtual ~RequestTiming() = default;
  // Sets the start (and, where the model has one, the execution time) of the
  // replica's next request; `data`: a read or write.
  virtual void time(Request& request, bool data) = 0;
};

// Counts-driven timing: in issue order ((seq, rank)), the data requests of
// bin k are the next counts[k] ones, spread evenly inside it; every other
// request takes the time of the data request before it (so every dependency
// still holds). Requests beyond the counts continue at the counts' mean rate.
// Counts that are all 0 (rounded) with a data request to time, or times
// beyond kMaxRequestSeconds, are a UserError.
class CountsTiming final : public RequestTiming {
 public:
  CountsTiming(const std::vector<double>& counts, double bin_width);
  void time(Request& request, bool data) override;
  // The bins the data requests timed so far filled completely.
  std::uint64_t filled_bins() const;
  std::uint64_t bins() const { return targets_.size(); }  // the counts' bins

 private:
  std::vector<std::uint64_t> targets_;
  double bin_width_, spacing_;  // spacing_: between the requests beyond the counts
  bool all_zero_;
  std::size_t bin_ = 0;
  std::uint64_t in_bin_ = 0, beyond_ = 0, full_bins_ = 0;
  double time_ = 0;
};

// (seq, rank) order, the order the writers and the timing use.
void sort_for_issue(Workload& workload);

// A whole workload timed by `timing` (sorted for issue first).
void time_workload(Workload& workload, RequestTiming& timing);
// ... by counts; returns the bins filled.
std::uint64_t time_by_counts(Workload& workload, const std::vector<double>& counts, double bin_width);

}  // namespace gs
