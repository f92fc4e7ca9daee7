#include "host/requests/phase_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"

namespace gs {

namespace {

struct DataIo {
  double start, end;
  std::int32_t rank;
};

// The trace's data requests, their times from its first request, by start (then rank).
std::vector<DataIo> data_requests_of(const Workload& sanitized) {
  double origin = HUGE_VAL;
  for (const Request& r : sanitized.table.requests) origin = std::min(origin, r.start);
  std::vector<DataIo> ios;
  for (const Request& r : sanitized.table.requests)
    if (is_data(sanitized.table.op_class(r)))
      ios.push_back({r.start - origin, r.start - origin + std::max(r.duration, 0.0), r.rank});
  std::stable_sort(ios.begin(), ios.end(), [](const DataIo& a, const DataIo& b) {
    return std::tie(a.start, a.rank) < std::tie(b.start, b.rank);
  });
  return ios;
}

// Otsu's threshold between the short and the long gaps, in log scale: the cut
// of the sorted log gaps that maximises the between-class variance. 0 (no
// cut) unless the two classes' means lie a decade apart or more.
double phase_split(const std::vector<DataIo>& ios) {
  std::vector<double> logs;
  for (std::size_t i = 1; i < ios.size(); ++i)
    if (const double gap = ios[i].start - ios[i - 1].start; gap > 0) logs.push_back(std::log(gap));
  if (logs.size() < 2) return 0;
  std::sort(logs.begin(), logs.end());
  double total = 0;
  for (double x : logs) total += x;
  const double n = static_cast<double>(logs.size());
  double below = 0, best = -1;
  std::size_t cut = 0;
  for (std::size_t k = 1; k < logs.size(); ++k) {
    below += logs[k - 1];
    const double n0 = static_cast<double>(k), n1 = n - n0;
    const double m0 = below / n0, m1 = (total - below) / n1;
    const double between = n0 * n1 * (m1 - m0) * (m1 - m0);
    if (between > best) {
      best = between;
      cut = k;
    }
  }
  double below_cut = 0;
  for (std::size_t k = 0; k < cut; ++k) below_cut += logs[k];
  const double m0 = below_cut / static_cast<double>(cut), m1 = (total - below_cut) / (n - static_cast<double>(cut));
  if (m1 - m0 < std::log(10.0)) return 0;
  return std::exp(0.5 * (logs[cut - 1] + logs[cut]));  // between the longest short gap and the shortest long one
}

// The trace's clock tick: the smallest difference between its times beyond
// 1 ns (DXT prints 10^-4 s; below a nanosecond, differences are the rounding
// of times moved to the trace's origin). Two times a tick apart may be one instant.
double clock_tick(const std::vector<DataIo>& ios) {
  std::vector<double> times;
  for (const DataIo& io : ios) {
    times.push_back(io.start);
    times.push_back(io.end);
  }
  std::sort(times.begin(), times.end());
  double tick = HUGE_VAL;
  for (std::size_t i = 1; i < times.size(); ++i)
    if (times[i] - times[i - 1] > 1e-9) tick = std::min(tick, times[i] - times[i - 1]);
  return std::isfinite(tick) ? tick : 0.0;
}

// A phase's samples from its data requests (by start).
Phase phase_from(const std::vector<DataIo>& ios, std::size_t begin, std::size_t end) {
  Phase phase;
  phase.start = ios[begin].start;
  struct RankState {
    double clock;        // its last end
    std::size_t member;  // in phase.members
  };
  std::map<std::int32_t, RankState> ranks;
  for (std::size_t i = begin; i < end; ++i) {
    const DataIo& io = ios[i];
    phase.end = std::max(phase.end, io.end);
    auto [it, first] = ranks.emplace(io.rank, RankState{io.end, phase.members.size()});
    if (first) phase.members.push_back(PhaseMember{io.start - phase.start, {}, {}});
    PhaseMember& member = phase.members[it->second.member];
    const std::size_t k = member.durations.size();
    if (phase.steps.size() <= k) phase.steps.resize(k + 1);
    member.durations.push_back(io.end - io.start);
    phase.steps[k].durations.push_back(io.end - io.start);
    if (!first) {
      member.slacks.push_back(io.start - it->second.clock);
      phase.steps[k].slacks.push_back(io.start - it->second.clock);
      it->second.clock = std::max(it->second.clock, io.end);
    }
  }
  return phase;
}

// Data requests a rank started before its previous one ended.
std::uint64_t overlaps_of(const std::vector<DataIo>& ios) {
  std::map<std::int32_t, double> clock;
  std::uint64_t overlaps = 0;
  for (const DataIo& io : ios) {
    auto [it, first] = clock.emplace(io.rank, io.end);
    if (first) continue;
    overlaps += io.start < it->second;
    it->second = std::max(it->second, io.end);
  }
  return overlaps;
}

}  // namespace

PhaseModel fit_phases(const Workload& sanitized) {
  const std::vector<DataIo> ios = data_requests_of(sanitized);
  if (ios.empty()) throw UserError("the trace has no read or write: there are no phases to time requests by");
  PhaseModel model;
  model.split = phase_split(ios);
  std::int32_t root = ios.front().rank;
  for (const DataIo& io : ios) {
    root = std::min(root, io.rank);
    model.ranks = std::max(model.ranks, io.rank + 1);
  }
  // A phase begins after a long gap between starts, once every request before it has ended (within two
  // ticks of the trace's clock): the ranks met there. A rank's next request inside a phase (it starts while
  // other ranks are still busy) or ranks that never wait for each other (their requests overlap) continue it.
  const double tolerance = 2 * clock_tick(ios);
  double busy_until = ios.front().end;
  std::size_t begin = 0;
  for (std::size_t i = 1; i <= ios.size(); ++i) {
    const bool boundary = i == ios.size() || (model.split > 0 && ios[i].start - ios[i - 1].start >= model.split &&
                                              ios[i].start >= busy_until - tolerance);
    if (i < ios.size()) busy_until = std::max(busy_until, ios[i].end);
    if (!boundary) continue;
    model.phases.push_back(phase_from(ios, begin, i));
    for (std::size_t k = begin; k < i; ++k)
      if (ios[k].rank == root) model.root_phase.push_back(static_cast<std::uint32_t>(model.phases.size() - 1));
    begin = i;
  }
  for (std::size_t p = 0; p + 1 < model.phases.size(); ++p)
    model.phases[p].gap_after = model.phases[p + 1].start - model.phases[p].end;
  model.overlaps = overlaps_of(ios);
  std::vector<double> skews;
  for (const Phase& phase : model.phases)
    for (const PhaseMember& member : phase.members) skews.push_back(member.skew);
  model.skew_median = SortedSample(std::move(skews)).quantile(0.5);  // every phase has a rank
  return model;
}

PhaseTiming::PhaseTiming(const PhaseModel& model, std::uint64_t path_data_requests, std::int32_t processes,
                         const SynthesisOptions& options, std::uint32_t replica)
    : model_(model),
      path_data_requests_(path_data_requests),
      processes_(static_cast<std::size_t>(std::max(processes, 1))),
      member_of_(processes_.size()),
      draws_(options.key, replica, 1),
      phase_start_(model.phases.front().start),
      phase_end_(model.phases.front().start) {
  if (auto it = options.overrides.find(Characteristic::ST); it != options.overrides.end()) slack_override_ = it->second;
}

double PhaseTiming::draw(const std::vector<double>& samples) {
  return samples.empty() ? 0.0 : samples[draws_.index(samples.size())];
}

// Fisher–Yates over the members, then each process its position's member
// (round after round of the shuffled members: the last, partial round a random
// subset), then Fisher–Yates over the processes.
void PhaseTiming::deal_members() {
  const std::vector<PhaseMember>& members = model_.phases[phase_].members;
  std::vector<std::uint32_t> deck(members.size());
  for (std::size_t m = 0; m < deck.size(); ++m) deck[m] = static_cast<std::uint32_t>(m);
  for (std::size_t m = deck.size(); m > 1; --m) std::swap(deck[m - 1], deck[draws_.index(m)]);
  for (std::size_t i = 0; i < member_of_.size(); ++i) member_of_[i] = deck[i % deck.size()];
  for (std::size_t i = member_of_.size(); i > 1; --i) std::swap(member_of_[i - 1], member_of_[draws_.index(i)]);
}

std::size_t PhaseTiming::phase_of(std::uint64_t path_data_request) const {
  if (model_.root_phase.empty()) return 0;
  const double root = static_cast<double>(model_.root_phase.size());
  const double at = std::floor(static_cast<double>(path_data_request) * root /
                               static_cast<double>(std::max<std::uint64_t>(path_data_requests_, 1)));
  return model_.root_phase[std::min(model_.root_phase.size() - 1, static_cast<std::size_t>(std::max(at, 0.0)))];
}

void PhaseTiming::enter_phase(std::size_t phase) {
  while (phase_ < phase) {
    // The next phase starts when this one's last request ended plus the trace's gap between them
    // (the computation between two I/O phases), never before this one started. A phase none of the
    // path's requests fell in (the root did no data request in it) lasts as long as in the trace.
    const Phase& passed = model_.phases[phase_];
    if (!phase_timed_) phase_end_ = phase_start_ + (passed.end - passed.start);
    phase_start_ = std::max(phase_start_, phase_end_ + passed.gap_after);
    phase_end_ = phase_start_;
    phase_timed_ = false;
    ++phase_;
  }
}

void PhaseTiming::time(Request& r, bool data) {
  const auto index =
      static_cast<std::size_t>(std::clamp<std::int32_t>(r.rank, 0, static_cast<std::int32_t>(processes_.size()) - 1));
  Process& process = processes_[index];
  if (!data) {  // an open, close, seek or sync: when its process is free, for its own execution time
    r.start = process.clock;
    process.clock += std::max(r.duration, 0.0);
    return;
  }
  if (r.seq != last_seq_) {
    last_seq_ = r.seq;
    ++data_index_;
  }
  enter_phase(phase_of(data_index_ - 1));
  if (!phase_timed_) {
    deal_members();
    phase_timed_ = true;
  }
  const Phase& phase = model_.phases[phase_];
  const PhaseMember& member = phase.members[member_of_[index]];
  if (process.phase != phase_) {  // its first request of the phase: the phase's start and its member's skew
    r.start = std::max(process.clock, phase_start_ + std::max(member.skew, 0.0));
    process.phase = phase_;
    process.step = 0;
  } else {  // one after the other: never before its previous request ended
    ++process.step;
  }
  const std::size_t k = process.step;
  const PhaseStep& step = phase.steps[std::min(k, phase.steps.size() - 1)];
  const bool own = k < member.durations.size();
  if (k > 0) {
    const double slack = own ? member.slacks[k - 1] : draw(step.slacks);
    r.start = process.clock + std::max(slack_override_.scale * slack + slack_override_.shift, 0.0);
  }
  r.duration = std::max(own ? member.durations[k] : draw(step.durations), 0.0);
  process.clock = r.start + r.duration;
  phase_end_ = std::max(phase_end_, process.clock);
  if (!(process.clock <= kMaxRequestSeconds))
    throw UserError(fmt::format(
        "the phases would time a data request at {:.6g} s, beyond 10^9 s (about 31.7 years), the latest time the "
        "outputs take",
        r.start));
}

}  // namespace gs
