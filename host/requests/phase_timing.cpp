#include "host/requests/phase_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "kernels/gaussian.hpp"

namespace gs {

namespace {

struct DataIo {
  double start, end;
  std::int32_t rank;
  std::int64_t bytes;  // 0 when the trace gives no size
  bool write;
};

// The trace's data requests, their times from its first request, by start (then rank).
std::vector<DataIo> data_requests_of(const Workload& sanitized) {
  double origin = HUGE_VAL;
  for (const Request& r : sanitized.table.requests) origin = std::min(origin, r.start);
  std::vector<DataIo> ios;
  for (const Request& r : sanitized.table.requests)
    if (const OpClass c = sanitized.table.op_class(r); is_data(c))
      ios.push_back({r.start - origin, r.start - origin + std::max(r.duration, 0.0), r.rank,
                     std::max<std::int64_t>(r.size, 0), c == OpClass::write});
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
  std::int64_t writes = 0, bytes = 0;
  struct RankState {
    double clock;        // its last end
    std::size_t member;  // in phase.members
  };
  std::map<std::int32_t, RankState> ranks;
  for (std::size_t i = begin; i < end; ++i) {
    const DataIo& io = ios[i];
    phase.end = std::max(phase.end, io.end);
    writes += io.write;
    bytes += io.bytes;
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
  phase.kind = {static_cast<std::int64_t>(phase.members.size()), static_cast<std::int64_t>(end - begin), writes, bytes};
  return phase;
}

// The pooled SD of the logs of `values` about their kind's mean (values below
// `least` left out), its standard error and degrees of freedom; and each
// value's own SD in `own`: its kind's where the kind repeats, else that of
// the repeated kind nearest it in length (on a log scale: a job's short and
// long steps vary differently), 0 where none repeats.
LogSpread log_spread(const std::vector<std::pair<std::vector<std::int64_t>, double>>& values, double least,
                     std::vector<double>& own) {
  struct Kind {
    std::vector<double> logs;
    double mean = 0, squares = 0, sd = 0;  // of the logs: mean, squared deviations, SD (0 unless it repeats)
  };
  std::map<std::vector<std::int64_t>, Kind> kinds;
  for (const auto& [kind, value] : values)
    if (value >= least && value > 0) kinds[kind].logs.push_back(std::log(value));
  double squares = 0;
  LogSpread spread;
  std::vector<std::pair<double, double>> repeated;  // (mean log, SD) of each kind that repeats
  for (auto& [key, k] : kinds) {
    for (double x : k.logs) k.mean += x / static_cast<double>(k.logs.size());
    for (double x : k.logs) k.squares += (x - k.mean) * (x - k.mean);
    squares += k.squares;
    spread.df += k.logs.size() - 1;
    if (k.logs.size() < 2) continue;
    k.sd = std::sqrt(k.squares / static_cast<double>(k.logs.size() - 1));
    repeated.emplace_back(k.mean, k.sd);
  }
  own.assign(values.size(), 0.0);
  if (spread.df == 0) return spread;
  spread.sd = std::sqrt(squares / static_cast<double>(spread.df));
  spread.se = spread.sd / std::sqrt(2.0 * static_cast<double>(spread.df));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto& [kind, value] = values[i];
    if (const auto k = kinds.find(kind); k != kinds.end() && k->second.logs.size() > 1) {
      own[i] = k->second.sd;
    } else if (value > 0) {
      const double x = std::log(value);
      own[i] = std::min_element(repeated.begin(), repeated.end(), [x](const auto& a, const auto& b) {
                 return std::abs(a.first - x) < std::abs(b.first - x);
               })->second;
    }
  }
  return spread;
}

// The spreads of the phases' spans and of the positive gaps between the same
// two kinds of phase: pooled, and each phase's own.
void fit_spread(PhaseModel& model, double tick) {
  std::vector<std::pair<std::vector<std::int64_t>, double>> spans, gaps;
  for (std::size_t p = 0; p < model.phases.size(); ++p) {
    const Phase& phase = model.phases[p];
    spans.emplace_back(phase.kind, phase.end - phase.start);
    std::vector<std::int64_t> pair = phase.kind;  // the last phase's entry (no gap) keeps the indices the phases'
    if (p + 1 < model.phases.size())
      pair.insert(pair.end(), model.phases[p + 1].kind.begin(), model.phases[p + 1].kind.end());
    gaps.emplace_back(std::move(pair), p + 1 < model.phases.size() ? phase.gap_after : 0.0);
  }
  std::vector<double> span_sd, gap_sd;
  model.span_spread = log_spread(spans, 100 * tick, span_sd);
  model.gap_spread = log_spread(gaps, 100 * tick, gap_sd);
  for (std::size_t p = 0; p < model.phases.size(); ++p) {
    model.phases[p].span_sd = span_sd[p];
    model.phases[p].gap_sd = gap_sd[p];
  }
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

const char* LogSpread::validity() const { return df == 0 ? "none" : df < 10 ? "weak" : "ok"; }

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
  const double tick = clock_tick(ios), tolerance = 2 * tick;
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
  fit_spread(model, tick);
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

std::vector<PhaseTiming::PathStep> path_steps(const Expansion& expansion, std::uint32_t rank_class) {
  const RequestTable& table = expansion.path(rank_class).table;
  std::vector<PhaseTiming::PathStep> steps;
  for (const std::size_t i : expansion.path_order(rank_class))
    steps.push_back({&table.requests[i], is_data(table.op_class(table.requests[i]))});
  return steps;
}

std::uint64_t data_steps(const std::vector<PhaseTiming::PathStep>& steps, std::size_t process) {
  std::uint64_t n = 0;
  for (const PhaseTiming::PathStep& s : steps) n += s.data && Expansion::makes(process, *s.request);
  return n;
}

}  // namespace

PhaseTiming::PhaseTiming(const PhaseModel& model, const Expansion& expansion, const SynthesisOptions& options,
                         std::uint32_t replica)
    : model_(model), key_(options.key), replica_(replica), processes_(static_cast<std::size_t>(expansion.processes())) {
  if (auto it = options.overrides.find(Characteristic::ST); it != options.overrides.end()) slack_override_ = it->second;
  std::vector<std::vector<PathStep>> steps;  // per rank class a process takes
  for (std::size_t i = 0; i < processes_.size(); ++i) {
    const std::uint32_t c = expansion.class_of(i);
    if (steps.size() <= c) steps.resize(c + 1);
    if (steps[c].empty()) steps[c] = path_steps(expansion, c);
  }
  take_roles(expansion, steps);
  shuffle_members();
  draw_spread();
  set_phase_starts(expansion, steps);
}

// Each phase's factors exp(span_sd_p·Z_p) and exp(gap_sd_p·W_p).
void PhaseTiming::draw_spread() {
  span_factor_.resize(model_.phases.size());
  gap_factor_.resize(model_.phases.size());
  for (std::size_t p = 0; p < model_.phases.size(); ++p) {
    const PhiloxBits bits = philox_bits(key_, replica_, p, kPhaseSpreadDraws);
    const ValuePair<double> z = normal_pair<double>(bits[0], bits[1], bits[2]);
    span_factor_[p] = std::exp(model_.phases[p].span_sd * z.first);
    gap_factor_[p] = std::exp(model_.phases[p].gap_sd * z.second);
  }
}

// Each process's role (the one of its trace rank, the root's for a rank
// without data requests) and its data requests (process 0 alone does the
// root-exclusive ones).
void PhaseTiming::take_roles(const Expansion& expansion, const std::vector<std::vector<PathStep>>& steps) {
  std::map<std::int32_t, std::uint32_t> role_of_rank;
  for (std::size_t r = 0; r < model_.roles.size(); ++r)
    role_of_rank.emplace(model_.roles[r].rank, static_cast<std::uint32_t>(r));
  for (std::size_t i = 0; i < processes_.size(); ++i) {
    const auto role = role_of_rank.find(expansion.rank_of(i));
    processes_[i].role = role == role_of_rank.end() ? 0 : role->second;
    processes_[i].data_total = data_steps(steps[expansion.class_of(i)], i);
  }
}

// Fisher–Yates over each phase's members.
void PhaseTiming::shuffle_members() {
  RandomDraws draws(key_, replica_, kMemberShuffleDraws);
  shuffled_.resize(model_.phases.size());
  for (std::size_t p = 0; p < shuffled_.size(); ++p) {
    std::vector<std::uint32_t>& deck = shuffled_[p];
    deck.resize(model_.phases[p].members.size());
    std::iota(deck.begin(), deck.end(), 0u);
    draws.shuffle(deck);
  }
}

// Every process through its path phase by phase, from the starts known so
// far: the data requests of phase p (and the other requests up to the next
// data request of a later phase) of every process, then phase p + 1's start.
void PhaseTiming::set_phase_starts(const Expansion& expansion, const std::vector<std::vector<PathStep>>& paths) {
  const std::vector<Process> dealt = processes_;
  std::vector<std::size_t> next(processes_.size(), 0);  // per process: its next step
  phase_start_.assign(model_.phases.size(), 0.0);
  phase_start_.front() = model_.phases.front().start;
  for (std::size_t p = 0; p < model_.phases.size(); ++p) {
    throw_if_interrupted();
    double end = -HUGE_VAL;
    for (std::size_t i = 0; i < processes_.size(); ++i) {
      Process& process = processes_[i];
      const std::vector<PathStep>& steps = paths[expansion.class_of(i)];
      for (; next[i] < steps.size(); ++next[i]) {
        const PathStep& step = steps[next[i]];
        if (!Expansion::makes(i, *step.request)) continue;
        Request r;
        r.rank = static_cast<std::int32_t>(i);
        r.duration = step.request->duration;
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
    if (end == -HUGE_VAL) end = phase_start_[p] + (phase.end - phase.start) * span_factor_[p];  // none of the replica's
    const double gap = phase.gap_after > 0 ? phase.gap_after * gap_factor_[p] : phase.gap_after;
    if (p + 1 < model_.phases.size()) phase_start_[p + 1] = std::max(phase_start_[p], end + gap);
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
  const double spread = span_factor_[place.phase];
  if (process.phase != place.phase) {  // its first request of the phase: the phase's start and its member's skew
    r.start = std::max(process.clock, phase_start_[place.phase] + spread * std::max(member.skew, 0.0));
    process.phase = place.phase;
    process.step = 0;
  } else {  // one after the other: never before its previous request ended
    ++process.step;
  }
  const std::size_t k = process.step;
  const PhaseStep& step = phase.steps[std::min(k, phase.steps.size() - 1)];
  const bool own = k < member.durations.size();
  PhiloxBits bits{};
  if (!own)
    bits = philox_bits(key_, replica_, (static_cast<std::uint64_t>(index) << 32) | process.data, kPooledTimingDraws);
  const auto pooled = [&](const std::vector<double>& samples, int word) {
    return samples.empty() ? 0.0 : samples[RandomDraws::index_of(uniform_open(bits[word]), samples.size())];
  };
  if (k > 0) {
    const double slack = spread * (own ? member.slacks[k - 1] : pooled(step.slacks, 0));
    r.start = process.clock + std::max(slack_override_.scale * slack + slack_override_.shift, 0.0);
  }
  r.duration = spread * std::max(own ? member.durations[k] : pooled(step.durations, 1), 0.0);
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
