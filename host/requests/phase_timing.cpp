#include "host/requests/phase_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

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

// A phase's samples from its data requests (by start); `member_of_rank`: each rank's index in its members.
Phase phase_from(const std::vector<DataIo>& ios, std::size_t begin, std::size_t end,
                 std::map<std::int32_t, std::uint32_t>& member_of_rank) {
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
    if (first) {
      member_of_rank[io.rank] = static_cast<std::uint32_t>(phase.members.size());
      phase.members.push_back(PhaseMember{io.start - phase.start, {}, {}});
    }
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
  std::map<std::int32_t, RankRole> roles;  // by rank: the root, the smallest, first
  for (const DataIo& io : ios) {
    roles[io.rank].rank = io.rank;
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
    std::map<std::int32_t, std::uint32_t> member_of_rank;
    model.phases.push_back(phase_from(ios, begin, i, member_of_rank));
    for (std::size_t k = begin; k < i; ++k) {
      RankRole& role = roles[ios[k].rank];
      role.phase.push_back(static_cast<std::uint32_t>(model.phases.size() - 1));
      role.member.push_back(member_of_rank.at(ios[k].rank));
    }
    begin = i;
  }
  for (auto& [rank, role] : roles) model.roles.push_back(std::move(role));
  for (std::size_t p = 0; p + 1 < model.phases.size(); ++p)
    model.phases[p].gap_after = model.phases[p + 1].start - model.phases[p].end;
  model.overlaps = overlaps_of(ios);
  std::vector<double> skews;
  for (const Phase& phase : model.phases) {
    for (const PhaseMember& member : phase.members) skews.push_back(member.skew);
    model.participation += static_cast<double>(phase.members.size()) / static_cast<double>(model.roles.size());
  }
  model.participation /= static_cast<double>(model.phases.size());
  model.skew_median = SortedSample(std::move(skews)).quantile(0.5);  // every phase has a rank
  return model;
}

namespace {

std::vector<PhaseTiming::PathStep> path_steps(const Workload& path) {
  std::vector<const Request*> order;
  for (const Request& r : path.table.requests) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const Request* a, const Request* b) { return a->seq < b->seq; });
  std::vector<PhaseTiming::PathStep> steps;
  for (const Request* r : order)
    steps.push_back({is_data(path.table.op_class(*r)), (r->flags & kRootExclusive) != 0, r->duration});
  return steps;
}

std::uint64_t data_steps(const std::vector<PhaseTiming::PathStep>& steps, bool root) {
  std::uint64_t n = 0;
  for (const PhaseTiming::PathStep& s : steps) n += s.data && (root || !s.root_only);
  return n;
}

}  // namespace

PhaseTiming::PhaseTiming(const PhaseModel& model, const Workload& path, std::int32_t processes,
                         const SynthesisOptions& options, std::uint32_t replica)
    : model_(model),
      key_(options.key),
      replica_(replica),
      processes_(static_cast<std::size_t>(std::max(processes, 1))) {
  if (auto it = options.overrides.find(Characteristic::ST); it != options.overrides.end()) slack_override_ = it->second;
  const std::vector<PathStep> steps = path_steps(path);
  RandomDraws draws(key_, replica_, 2);
  deal_roles(data_steps(steps, true), data_steps(steps, false), draws);
  shuffle_members(draws);
  set_phase_starts(steps);
}

// Process 0 takes the root's part (the root-exclusive requests are its). The
// N processes' roles: Fisher–Yates over the M roles, process i the (i mod M)-th
// (round after round; the last, partial round a random subset), a root card
// moved to process 0 (or put there when none was dealt), then Fisher–Yates
// over processes 1 … N − 1.
void PhaseTiming::deal_roles(std::uint64_t root_data, std::uint64_t other_data, RandomDraws& draws) {
  std::vector<std::uint32_t> deck(model_.roles.size());
  std::iota(deck.begin(), deck.end(), 0u);
  draws.shuffle(deck);
  std::vector<std::uint32_t> cards(processes_.size());
  for (std::size_t i = 0; i < cards.size(); ++i) cards[i] = deck[i % deck.size()];
  const auto root_card = std::find(cards.begin(), cards.end(), 0u);
  if (root_card != cards.end())
    std::iter_swap(cards.begin(), root_card);
  else
    cards.front() = 0;
  draws.shuffle(cards, 1);
  for (std::size_t i = 0; i < cards.size(); ++i) {
    processes_[i].role = cards[i];
    processes_[i].data_total = i == 0 ? root_data : other_data;
  }
}

// Fisher–Yates over each phase's members.
void PhaseTiming::shuffle_members(RandomDraws& draws) {
  shuffled_.resize(model_.phases.size());
  for (std::size_t p = 0; p < shuffled_.size(); ++p) {
    std::vector<std::uint32_t>& deck = shuffled_[p];
    deck.resize(model_.phases[p].members.size());
    std::iota(deck.begin(), deck.end(), 0u);
    draws.shuffle(deck);
  }
}

// Every process through the path phase by phase, from the starts known so
// far: the data requests of phase p (and the other requests up to the next
// data request of a later phase) of every process, then phase p + 1's start.
void PhaseTiming::set_phase_starts(const std::vector<PathStep>& steps) {
  const std::vector<Process> dealt = processes_;
  std::vector<std::size_t> next(processes_.size(), 0);  // per process: its next step
  phase_start_.assign(model_.phases.size(), 0.0);
  phase_start_.front() = model_.phases.front().start;
  for (std::size_t p = 0; p < model_.phases.size(); ++p) {
    throw_if_interrupted();
    double end = -HUGE_VAL;
    for (std::size_t i = 0; i < processes_.size(); ++i) {
      Process& process = processes_[i];
      for (; next[i] < steps.size(); ++next[i]) {
        const PathStep& step = steps[next[i]];
        if (i > 0 && step.root_only) continue;
        Request r;
        r.rank = static_cast<std::int32_t>(i);
        r.duration = step.duration;
        if (!step.data) {
          time(r, false);  // only the process's clock: the issue pass does the same
          continue;
        }
        if (place_of(process).phase > p) break;
        time_data(i, r);
        end = std::max(end, r.start + r.duration);
      }
    }
    const Phase& phase = model_.phases[p];
    if (end == -HUGE_VAL) end = phase_start_[p] + (phase.end - phase.start);  // no request of the replica in it
    if (p + 1 < model_.phases.size()) phase_start_[p + 1] = std::max(phase_start_[p], end + phase.gap_after);
  }
  processes_ = dealt;
}

PhaseTiming::Place PhaseTiming::place_of(const Process& process) const {
  const RankRole& role = model_.roles[process.role];
  const double m = static_cast<double>(role.phase.size());
  const double at = std::floor(static_cast<double>(process.data) * m /
                               static_cast<double>(std::max<std::uint64_t>(process.data_total, 1)));
  const std::size_t k = std::min(role.phase.size() - 1, static_cast<std::size_t>(std::max(at, 0.0)));
  return {role.phase[k], shuffled_[role.phase[k]][role.member[k]]};
}

void PhaseTiming::time_data(std::size_t index, Request& r) {
  Process& process = processes_[index];
  const Place place = place_of(process);
  const Phase& phase = model_.phases[place.phase];
  const PhaseMember& member = phase.members[place.member];
  if (process.phase != place.phase) {  // its first request of the phase: the phase's start and its member's skew
    r.start = std::max(process.clock, phase_start_[place.phase] + std::max(member.skew, 0.0));
    process.phase = place.phase;
    process.step = 0;
  } else {  // one after the other: never before its previous request ended
    ++process.step;
  }
  const std::size_t k = process.step;
  const PhaseStep& step = phase.steps[std::min(k, phase.steps.size() - 1)];
  const bool own = k < member.durations.size();
  PhiloxBits bits{};
  if (!own) bits = philox_bits(key_, replica_, (static_cast<std::uint64_t>(index) << 32) | process.data, 1);
  const auto pooled = [&](const std::vector<double>& samples, int word) {
    return samples.empty() ? 0.0 : samples[RandomDraws::index_of(uniform_open(bits[word]), samples.size())];
  };
  if (k > 0) {
    const double slack = own ? member.slacks[k - 1] : pooled(step.slacks, 0);
    r.start = process.clock + std::max(slack_override_.scale * slack + slack_override_.shift, 0.0);
  }
  r.duration = std::max(own ? member.durations[k] : pooled(step.durations, 1), 0.0);
  process.clock = r.start + r.duration;
  ++process.data;
  if (!(process.clock <= kMaxRequestSeconds))
    throw UserError(fmt::format(
        "the phases would time a data request at {:.6g} s, beyond 10^9 s (about 31.7 years), the latest time the "
        "outputs take",
        r.start));
}

void PhaseTiming::time(Request& r, bool data) {
  const auto index =
      static_cast<std::size_t>(std::clamp<std::int32_t>(r.rank, 0, static_cast<std::int32_t>(processes_.size()) - 1));
  if (data) return time_data(index, r);
  // An open, close, seek or sync: when its process is free, for its own execution time.
  Process& process = processes_[index];
  r.start = process.clock;
  process.clock += std::max(r.duration, 0.0);
}

}  // namespace gs
