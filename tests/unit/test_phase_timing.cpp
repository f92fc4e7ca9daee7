// The phase timing of request-level synthesis (host/requests/phase_timing.hpp,
// docs/models.md "Request timing"): phases, skews, slacks, gaps and every
// rank's phases recovered from a trace made with known phases; ranks that take
// turns keep them; no process starts a data request before its previous one
// ended; a replica of the shipped mpi-io-test keeps the trace's run time; the
// same bits for any block size the requests are made in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "estimators/request_characteristics.hpp"
#include "host/requests/phase_timing.hpp"
#include "host/requests/synthesize.hpp"
#include "io/request_trace.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

// A rank's two 4 KiB writes of file 0 to `w`, the first at `start`, each
// lasting `duration`, the second `slack` after the first ended.
void add_two_writes(Workload& w, std::int32_t rank, double start, double duration, double slack) {
  Request first;
  first.op = w.table.op_id("write");
  first.file = 0;
  first.rank = rank;
  first.offset = 0;
  first.size = 4096;
  first.start = start;
  first.duration = duration;
  Request second = first;
  second.start = first.start + first.duration + slack;
  w.table.requests.push_back(first);
  w.table.requests.push_back(second);
}

// A trace of `ranks` ranks in phases starting at `starts` (s): in phase p rank
// r starts `skew(p, r)` late and does two writes, each lasting `duration(p, r)`,
// the second `slack` after the first ended. An open at 0 on every rank.
struct KnownPhases {
  std::vector<double> starts = {0.5, 5, 9, 20};
  std::int32_t ranks = 8;
  double slack = 0.01;
  static double skew(std::size_t p, std::int32_t r) { return 0.001 * r + 0.0005 * static_cast<double>(p); }
  static double duration(std::size_t p, std::int32_t r) { return 0.5 + 0.1 * r + 0.2 * static_cast<double>(p); }

  Workload trace() const {
    Workload w;
    w.processes = ranks;
    const std::uint32_t open = w.table.op_id("open");
    w.table.file_id("f");
    for (std::int32_t r = 0; r < ranks; ++r) {
      Request o;
      o.op = open;
      o.file = 0;
      o.rank = r;
      w.table.requests.push_back(o);
    }
    for (std::size_t p = 0; p < starts.size(); ++p)
      for (std::int32_t r = 0; r < ranks; ++r) add_two_writes(w, r, starts[p] + skew(p, r), duration(p, r), slack);
    return w;
  }
  double phase_end(std::size_t p) const {
    double end = 0;
    for (std::int32_t r = 0; r < ranks; ++r) end = std::max(end, starts[p] + skew(p, r) + 2 * duration(p, r) + slack);
    return end;
  }
};

// A replica of `processes` processes, each doing `writes` writes (sequence IDs
// 0 to writes − 1) in issue order, on the files of `trace`: untimed, as the
// generic path of a trace whose ranks only write comes out of synthesis.
Workload writes_of(const Workload& trace, std::int64_t writes, std::int32_t processes) {
  Workload replica;
  replica.table = trace.table;
  replica.table.requests.clear();
  for (std::int64_t k = 0; k < writes; ++k)
    for (std::int32_t rank = 0; rank < processes; ++rank) {
      Request r;
      r.op = replica.table.op_id("write");
      r.rank = rank;
      r.seq = k;
      replica.table.requests.push_back(r);
    }
  return replica;
}

// One class running `path`, its processes dealt the parts of the trace's
// ranks 0 … ranks − 1 as a replica's are (deal_roles).
Expansion dealt(const Workload& path, std::int32_t ranks, std::int32_t processes, std::uint32_t replica) {
  ClassPaths paths;
  paths.paths = {path};
  paths.ranks = {0};
  for (const std::uint32_t card : deal_roles(static_cast<std::size_t>(ranks), static_cast<std::size_t>(processes),
                                             SynthesisOptions{}.key, replica)) {
    paths.process_class.push_back(0);
    paths.process_rank.push_back(static_cast<std::int32_t>(card));
  }
  return Expansion(std::move(paths));
}

// The model with no spread of the replicas: each phase's members as the trace had them.
PhaseModel without_spread(PhaseModel model) {
  for (Phase& phase : model.phases) phase.span_sd = phase.gap_sd = 0;
  return model;
}

TEST(PhaseTiming, RecoversKnownPhases) {
  const KnownPhases known;
  const PhaseModel model = fit_phases(known.trace());
  ASSERT_EQ(model.phases.size(), known.starts.size());
  EXPECT_EQ(model.ranks, known.ranks);
  EXPECT_EQ(model.overlaps, 0u);
  // Every rank's 8 writes: two per phase, as the phase's member of its rank (by first start: the rank).
  ASSERT_EQ(model.roles.size(), static_cast<std::size_t>(known.ranks));
  for (std::int32_t r = 0; r < known.ranks; ++r) {
    const RankRole& role = model.roles[static_cast<std::size_t>(r)];
    EXPECT_EQ(role.rank, r);
    EXPECT_EQ(role.phase, (std::vector<std::uint32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(role.member, std::vector<std::uint32_t>(8, static_cast<std::uint32_t>(r)));
  }
  EXPECT_EQ(model.participation, 1.0);
  for (std::size_t p = 0; p < known.starts.size(); ++p) {
    const Phase& phase = model.phases[p];
    SCOPED_TRACE(p);
    EXPECT_NEAR(phase.start, known.starts[p] + KnownPhases::skew(p, 0), 1e-12);  // from the first request, at 0
    EXPECT_NEAR(phase.end, known.phase_end(p), 1e-12);
    // Every rank whole, by its first start (the skews grow with the rank): its skew, both writes, the slack.
    ASSERT_EQ(phase.members.size(), static_cast<std::size_t>(known.ranks));
    for (std::int32_t r = 0; r < known.ranks; ++r) {
      const PhaseMember& member = phase.members[static_cast<std::size_t>(r)];
      EXPECT_NEAR(member.skew, 0.001 * r, 1e-12);
      ASSERT_EQ(member.durations.size(), 2u);
      EXPECT_NEAR(member.durations[0], KnownPhases::duration(p, r), 1e-12);
      EXPECT_NEAR(member.durations[1], KnownPhases::duration(p, r), 1e-12);
      ASSERT_EQ(member.slacks.size(), 1u);
      EXPECT_NEAR(member.slacks[0], known.slack, 1e-12);
    }
    ASSERT_EQ(phase.steps.size(), 2u);  // every rank's first and second write
    EXPECT_TRUE(phase.steps[0].slacks.empty());
    ASSERT_EQ(phase.steps[1].slacks.size(), static_cast<std::size_t>(known.ranks));
    for (double s : phase.steps[1].slacks) EXPECT_NEAR(s, known.slack, 1e-12);
    for (const PhaseStep& step : phase.steps) {
      std::vector<double> durations = step.durations;
      std::sort(durations.begin(), durations.end());
      ASSERT_EQ(durations.size(), static_cast<std::size_t>(known.ranks));
      for (std::int32_t r = 0; r < known.ranks; ++r) EXPECT_NEAR(durations[r], KnownPhases::duration(p, r), 1e-12);
    }
    if (p + 1 < known.starts.size()) {
      EXPECT_NEAR(phase.gap_after, known.starts[p + 1] + KnownPhases::skew(p + 1, 0) - known.phase_end(p), 1e-12);
    }
  }
  EXPECT_GT(model.split, 0.002);  // between the skews' 1 ms steps and the phases' seconds
  EXPECT_LT(model.split, 2.0);
}

// A rank that starts a request before its previous one ended is counted; evenly
// spaced requests (no decade between short and long gaps) are one phase.
TEST(PhaseTiming, CountsOverlapsAndKeepsEvenRequestsInOnePhase) {
  Workload w;
  const std::uint32_t write = w.table.op_id("write");
  for (int k = 0; k < 20; ++k) {
    Request r;
    r.op = write;
    r.start = k * 1.0;
    r.duration = k == 3 ? 1.5 : 0.2;  // the 4th runs into the 5th
    w.table.requests.push_back(r);
  }
  const PhaseModel model = fit_phases(w);
  EXPECT_EQ(model.overlaps, 1u);
  EXPECT_EQ(model.phases.size(), 1u);
  EXPECT_EQ(model.split, 0.0);
  Workload none;
  none.table.op_id("open");
  none.table.requests.push_back(Request{});
  EXPECT_NE(test::error_of([&] { fit_phases(none); }).find("no read or write"), std::string::npos);
}

TraceCharacterization mpi_io_test() {
  return characterize_requests(read_request_trace({test::data_path("mpi-io-test.dxt.txt.gz")}, "dxt", TraceOptions{},
                                                  test::data_path("mpi-io-test.parser.txt.gz")));
}

// A replica expanded to `processes` and timed by the phases, made in blocks of `block` requests.
Workload timed_replica(const TraceCharacterization& c, const PhaseModel& model, std::uint32_t replica,
                       std::int32_t processes, std::size_t block, bool template_mode) {
  SynthesisOptions options;
  options.key = {7, 3};
  options.template_mode = template_mode;
  Expansion expansion = synthesize_replica(synthesis_source(c), options, replica, processes, true);
  PhaseTiming timing(model, expansion, options, replica);
  Workload w = expansion.files();
  std::vector<Request> made;
  while (expansion.next(made, block) > 0) {
    for (Request& r : made) timing.time(r, is_data(w.table.op_class(r)));
    w.table.requests.insert(w.table.requests.end(), made.begin(), made.end());
    made.clear();
  }
  return w;
}

double last_end(const Workload& w) {
  double end = 0;
  for (const Request& r : w.table.requests) end = std::max(end, r.start + r.duration);
  return end;
}

// A trace whose ranks start their second write 0.2 s before the first ended:
// the fit counts the overlaps, and a replica's processes still wait for their
// previous request (the slack drawn is -0.2 s; the process starts at its end).
TEST(PhaseTiming, OverlapsOfTheTraceAreCountedNotReplayed) {
  KnownPhases known;
  known.slack = -0.2;
  const Workload trace = known.trace();
  const PhaseModel model = fit_phases(trace);
  EXPECT_EQ(model.overlaps, known.starts.size() * static_cast<std::size_t>(known.ranks));
  ASSERT_EQ(model.phases.size(), known.starts.size());
  // A replica of the trace's 8 processes, each running the root's 8 writes.
  Workload replica = writes_of(trace, 8, known.ranks);
  PhaseTiming timing(model, dealt(writes_of(trace, 8, 1), known.ranks, known.ranks, 0), SynthesisOptions{}, 0);
  time_workload(replica, timing);
  std::map<std::int32_t, double> busy_until;
  for (const Request& r : replica.table.requests) {
    EXPECT_GE(r.start, busy_until[r.rank]) << "rank " << r.rank << ", seq " << r.seq;
    busy_until[r.rank] = r.start + r.duration;
  }
}

// Goal 4 of the fidelity issue: a process's data request never starts before
// its previous request ended (mpi-io-test's ranks never overlap their own).
TEST(PhaseTiming, NoProcessStartsBeforeItsPreviousRequestEnded) {
  const TraceCharacterization c = mpi_io_test();
  const PhaseModel model = fit_phases(c.sanitized);
  EXPECT_EQ(model.overlaps, 0u);
  for (const std::int32_t processes : {32, 7, 100}) {
    for (const bool template_mode : {true, false}) {
      const Workload w = timed_replica(c, model, 2, processes, kStreamedRequests, template_mode);
      std::map<std::int32_t, double> busy_until;
      std::size_t data = 0;
      for (const Request& r : w.table.requests) {
        if (!is_data(w.table.op_class(r))) continue;
        ++data;
        EXPECT_GE(r.start, busy_until[r.rank]) << processes << " processes, rank " << r.rank;
        busy_until[r.rank] = r.start + r.duration;
      }
      EXPECT_GE(data, static_cast<std::size_t>(processes));
    }
  }
}

// The trace's phases (mpi-io-test: 32 ranks write a header and a block, write
// 3 blocks more, write a header and read a block, read 3 blocks more, each
// step started together: 8 phases) come back: a replica of the trace's 32
// processes deals every phase's 32 ranks out once, so each phase ends as the
// trace's did (its slowest rank is in it) and the replica runs exactly as
// long as the trace; 64 processes copy every rank twice and end there too;
// 7 copy 7 of the 32 ranks, never longer. Before 0.3.0 every request drew
// its duration from the phase's pooled 32: the phase's longest came up with
// probability 1 − (31/32)^32 = 64 %, and configs/replay.yaml's 8 replicas
// started the last phase 0.10–0.87 s early (mean 0.38 s).
TEST(PhaseTiming, ReplicasOfMpiIoTestKeepItsPhases) {
  const TraceCharacterization c = mpi_io_test();
  PhaseModel model = fit_phases(c.sanitized);
  ASSERT_EQ(model.phases.size(), 8u);
  // Its repeats: 3 phases of block writes (2.686, 2.546, 2.622 s) and 3 of block reads (0.714, 0.705,
  // 0.701 s), whose log spans scatter by 0.0202 (numpy over those spans: std with ddof = 4 of the logs
  // about each kind's mean); the gaps between them repeat twice per kind.
  EXPECT_EQ(model.span_spread.df, 4u);
  EXPECT_NEAR(model.span_spread.sd, 0.0202, 5e-4);
  EXPECT_STREQ(model.span_spread.validity(), "weak");
  // Without the spread (what follows checks the phases' members and starts), a replica is the trace's run.
  model = without_spread(model);
  double trace_end = 0;
  for (const Phase& phase : model.phases) {
    trace_end = std::max(trace_end, phase.end);
    EXPECT_EQ(phase.members.size(), 32u);
  }
  for (int replica = 0; replica < 5; ++replica) {
    for (const std::int32_t processes : {32, 64}) {
      const double end = last_end(timed_replica(c, model, replica, processes, kStreamedRequests, false));
      EXPECT_NEAR(end, trace_end, 1e-9 * trace_end) << processes << " processes, replica " << replica;
    }
    EXPECT_LE(last_end(timed_replica(c, model, replica, 7, kStreamedRequests, false)), trace_end * (1 + 1e-12));
  }
}

// A process takes one rank's part (the phases it joins), N processes are
// dealt the M ranks' parts evenly, each ⌊N/M⌋ or ⌈N/M⌉ times, process 0 the
// root's, and in each phase the ranks' members are shuffled among the parts:
// a process copies one member of the phase whole. Known phases of 8 ranks with
// distinct skews, 20 processes: per phase every member 2 or 3 times, 4 of them
// 3 times, not the same member of every process in every phase; each
// process's two writes of a phase last its member's duration.
TEST(PhaseTiming, ProcessesAreDealtTheRanksPartsEvenly) {
  const KnownPhases known;
  const Workload trace = known.trace();
  const PhaseModel model = without_spread(fit_phases(trace));  // the members' own skews and durations, unscaled
  ASSERT_EQ(model.phases.size(), known.starts.size());
  const std::int32_t processes = 20;
  Workload replica = writes_of(trace, 8, processes);
  for (std::uint32_t i = 0; i < 3; ++i) {
    PhaseTiming timing(model, dealt(writes_of(trace, 8, 1), known.ranks, processes, i), SynthesisOptions{}, i);
    time_workload(replica, timing);
    std::vector<std::map<std::int32_t, int>> dealt(known.starts.size());  // per phase: copies per member
    std::map<std::int32_t, std::set<std::int32_t>> copied;                // per process: the members it copied
    std::map<std::int32_t, double> first_duration;
    for (const Request& r : replica.table.requests) {
      const auto p = static_cast<std::size_t>(r.seq / 2);
      if (r.seq % 2 == 0) {
        // The member it copies, from its skew (0.001·rank, the phase's start at rank 0's first write).
        const auto rank = static_cast<std::int32_t>(std::lround((r.start - model.phases[p].start) / 0.001));
        ASSERT_GE(rank, 0);
        ASSERT_LT(rank, known.ranks);
        ++dealt[p][rank];
        copied[r.rank].insert(rank);
        EXPECT_NEAR(r.duration, KnownPhases::duration(p, rank), 1e-12) << "phase " << p;
        first_duration[r.rank] = r.duration;
      } else {
        EXPECT_NEAR(r.duration, first_duration[r.rank], 1e-12) << "phase " << p << ", process " << r.rank;
      }
    }
    for (std::size_t p = 0; p < dealt.size(); ++p) {
      ASSERT_EQ(dealt[p].size(), static_cast<std::size_t>(known.ranks)) << "phase " << p;
      int thrice = 0;
      for (const auto& [rank, copies] : dealt[p]) {
        EXPECT_TRUE(copies == 2 || copies == 3) << "phase " << p << ", rank " << rank << ": " << copies;
        thrice += copies == 3;
      }
      EXPECT_EQ(thrice, processes % known.ranks) << "phase " << p;
    }
    std::size_t varied = 0;
    for (const auto& [process, members] : copied) varied += members.size() > 1;
    EXPECT_GT(varied, copied.size() / 2) << "the members are shuffled phase by phase";
  }
}

// Ranks that take turns (an HDF5 job whose ranks write their part one after
// the other, as darshan-logs' hdf5_diagonal_write_half_ranks does): in phase
// p < 4 rank p alone writes twice, then all 4 write twice together. The
// generic path is the root's 4 writes; a process that takes rank r's part
// does its first two in phase r, so each of the first 4 phases has one
// process writing (two of 8 processes), the phases start when the trace's
// did, and the replica ends when the trace did. Before 0.4.0 every process
// followed the root's phases: all wrote in phase 0, phases 1–3 stayed empty.
TEST(PhaseTiming, RanksThatTakeTurnsKeepTheirTurns) {
  const std::vector<double> starts = {0.5, 1.5, 2.5, 3.5, 5.0};
  const double duration = 0.009, slack = 0.001;  // a decade and more below the turns' 1 s
  Workload trace;
  trace.processes = 4;
  trace.table.file_id("f");
  for (std::int32_t r = 0; r < 4; ++r) add_two_writes(trace, r, starts[static_cast<std::size_t>(r)], duration, slack);
  for (std::int32_t r = 0; r < 4; ++r) add_two_writes(trace, r, starts[4] + 0.001 * r, duration, slack);
  const PhaseModel model = fit_phases(trace);
  ASSERT_EQ(model.phases.size(), starts.size());
  EXPECT_NEAR(model.participation, (4 * 0.25 + 1.0) / 5, 1e-12);
  const double trace_end = model.phases.back().end;
  for (const std::int32_t processes : {4, 8}) {
    for (std::uint32_t i = 0; i < 3; ++i) {
      Workload replica = writes_of(trace, 4, processes);
      PhaseTiming timing(model, dealt(writes_of(trace, 4, 1), 4, processes, i), SynthesisOptions{}, i);
      time_workload(replica, timing);
      std::vector<std::map<std::int32_t, int>> writers(starts.size());  // per phase: writes per process
      for (const Request& r : replica.table.requests) {
        // Times from the trace's first request, at starts[0].
        const double at = r.start + starts[0];
        const auto p =
            static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), at + 1e-9) - starts.begin() - 1);
        ASSERT_LT(p, starts.size()) << r.start;
        ++writers[p][r.rank];
        EXPECT_EQ(r.seq < 2, p < 4) << "process " << r.rank << ", write " << r.seq << " at " << r.start;
      }
      for (std::size_t p = 0; p < 4; ++p) {
        EXPECT_EQ(writers[p].size(), static_cast<std::size_t>(processes / 4)) << "phase " << p;
        for (const auto& [process, n] : writers[p]) EXPECT_EQ(n, 2);
        EXPECT_NEAR(model.phases[p].start, starts[p] - starts[0], 1e-12);
      }
      EXPECT_EQ(writers[4].size(), static_cast<std::size_t>(processes));
      double first = HUGE_VAL, end = 0;
      for (const Request& r : replica.table.requests) {
        if (r.seq == 0 && r.rank == 0) first = r.start;
        end = std::max(end, r.start + r.duration);
      }
      EXPECT_NEAR(first, 0.0, 1e-12) << "process 0 takes the root's turn";
      EXPECT_NEAR(end, trace_end, 1e-9) << processes << " processes, replica " << i;
    }
  }
  // 2 processes take 2 of the 4 parts: the 2 turns no process takes keep their trace span, so the last
  // phase starts when the trace's did, its first request at most the largest skew (3 ms) later (passing
  // the empty turns on their gaps alone would start it 2 s early).
  Workload replica = writes_of(trace, 4, 2);
  PhaseTiming timing(model, dealt(writes_of(trace, 4, 1), 4, 2, 0), SynthesisOptions{}, 0);
  time_workload(replica, timing);
  double last_phase = HUGE_VAL;
  for (const Request& r : replica.table.requests)
    if (r.seq == 2) last_phase = std::min(last_phase, r.start);
  EXPECT_GE(last_phase, model.phases[4].start - 1e-9);
  EXPECT_LE(last_phase, model.phases[4].start + 0.003 + 1e-9);
}

// A trace of 4 ranks in K = 200 phases of one kind (each rank two 4 KiB
// writes, rank r r·0.1 ms late, the trace's clock tick): phase p's writes last
// 0.1·exp(±σ) s (+ for even p), so its span 0.3 ms + 0.2·exp(±σ) s; the gap
// after it 10·exp(±τ) s (+ for p mod 4 < 2). The fit gives the log spans' SD
// about their mean, σ·√(K/(K − 1)) (to the 0.3 ms the skews add), with K − 1
// degrees of freedom, and the gaps' (K − 2 of them); replicas of 4 processes
// scale each phase's span by exp(sd·Z_p) and each gap by exp(gap_sd·W_p):
// over 5 replicas' 1000 phases the log ratios to the trace's have mean 0 and
// SD sd, within 4 standard errors (sd/√1000 and sd/√1998).
TEST(PhaseTiming, SpreadOfRepeatedPhasesIsFittedAndDrawn) {
  const std::int32_t ranks = 4, phases = 200;
  const double sigma = 0.1, tau = 0.3;
  const auto sign = [](bool plus) { return plus ? 1.0 : -1.0; };
  Workload trace;
  trace.processes = ranks;
  trace.table.file_id("f");
  std::vector<double> spans, gaps;
  double start = 0.5;
  for (std::int32_t p = 0; p < phases; ++p) {
    const double duration = 0.1 * std::exp(sigma * sign(p % 2 == 0));
    for (std::int32_t r = 0; r < ranks; ++r) add_two_writes(trace, r, start + 1e-4 * r, duration, 0.0);
    spans.push_back(1e-4 * (ranks - 1) + 2 * duration);
    gaps.push_back(10 * std::exp(tau * sign(p % 4 < 2)));
    start += spans.back() + gaps.back();
  }
  gaps.pop_back();
  PhaseModel model = fit_phases(trace);
  ASSERT_EQ(model.phases.size(), static_cast<std::size_t>(phases));
  EXPECT_EQ(model.span_spread.df, static_cast<std::uint64_t>(phases - 1));
  // The sample SD of the known log values (ddof 1): ±σ and ±τ about their means.
  const auto sample_sd = [](const std::vector<double>& values) {
    const double n = static_cast<double>(values.size());
    double mean = 0, squares = 0;
    for (double v : values) mean += std::log(v) / n;
    for (double v : values) squares += (std::log(v) - mean) * (std::log(v) - mean);
    return std::sqrt(squares / (n - 1));
  };
  EXPECT_NEAR(model.span_spread.sd, sample_sd(spans), 1e-9);
  EXPECT_NEAR(model.span_spread.sd, sigma * std::sqrt(phases / (phases - 1.0)), 2e-3 * sigma);  // the skews' 0.3 ms
  EXPECT_NEAR(model.span_spread.se, model.span_spread.sd / std::sqrt(2.0 * (phases - 1)), 1e-12);
  EXPECT_STREQ(model.span_spread.validity(), "ok");
  EXPECT_EQ(model.gap_spread.df, static_cast<std::uint64_t>(phases - 2));
  EXPECT_NEAR(model.gap_spread.sd, sample_sd(gaps), 1e-9);
  std::vector<double> span_logs, gap_logs;
  for (std::uint32_t i = 0; i < 5; ++i) {
    Workload replica = writes_of(trace, 2 * phases, ranks);
    PhaseTiming timing(model, dealt(writes_of(trace, 2 * phases, 1), ranks, ranks, i), SynthesisOptions{}, i);
    time_workload(replica, timing);
    std::vector<double> first(phases, HUGE_VAL), last(phases, 0);
    for (const Request& r : replica.table.requests) {
      const auto p = static_cast<std::size_t>(r.seq / 2);
      first[p] = std::min(first[p], r.start);
      last[p] = std::max(last[p], r.start + r.duration);
    }
    for (std::size_t p = 0; p < first.size(); ++p) {
      span_logs.push_back(std::log((last[p] - first[p]) / spans[p]));
      if (p + 1 < first.size()) gap_logs.push_back(std::log((first[p + 1] - last[p]) / gaps[p]));
    }
  }
  for (const auto& [logs, sd] :
       {std::pair{&span_logs, model.span_spread.sd}, std::pair{&gap_logs, model.gap_spread.sd}}) {
    const double n = static_cast<double>(logs->size());
    double m = 0, ss = 0;
    for (double x : *logs) m += x / n;
    for (double x : *logs) ss += (x - m) * (x - m);
    EXPECT_NEAR(m, 0.0, 4 * sd / std::sqrt(n));
    EXPECT_NEAR(std::sqrt(ss / (n - 1)), sd, 4 * sd / std::sqrt(2 * (n - 1)));
  }
}

// Two kinds of phase alternate (4 ranks writing 4 KiB, or 8 KiB: another
// kind), 20 of each, and one phase of 3 ranks: the steady kind's spans (about
// 0.2 s) vary by exp(±0.01), the noisy kind's (about 2 s) by exp(±0.5), the
// phase seen once spans about 0.3 s. Each phase draws with its own kind's log
// SD (the sample SD of its kind's log spans), the phase whose kind does not
// repeat with that of the kind nearest its span (the steady one): the steady
// kind stays steady beside the noisy one. The pooled SD: both kinds' squares
// over their 38 degrees of freedom.
TEST(PhaseTiming, EachKindOfPhaseKeepsItsOwnSpread) {
  Workload trace;
  trace.processes = 4;
  trace.table.file_id("f");
  std::map<int, std::vector<double>> spans;  // per kind: 0 steady, 1 noisy, 2 once
  double start = 0.5;
  for (int p = 0; p < 41; ++p) {
    const int kind = p == 40 ? 2 : p % 2;
    const double base = kind == 1 ? 1.0 : kind == 2 ? 0.15 : 0.1;
    const double duration = base * std::exp((kind == 1 ? 0.5 : kind == 2 ? 0.0 : 0.01) * (p % 4 < 2 ? 1.0 : -1.0));
    const std::int32_t ranks = kind == 2 ? 3 : 4;
    const std::size_t first = trace.table.requests.size();
    for (std::int32_t r = 0; r < ranks; ++r) add_two_writes(trace, r, start + 1e-4 * r, duration, 0.0);
    for (std::size_t i = first; i < trace.table.requests.size(); ++i)
      trace.table.requests[i].size = kind == 1 ? 8192 : 4096;
    spans[kind].push_back(1e-4 * (ranks - 1) + 2 * duration);
    start += spans[kind].back() + 10;
  }
  const auto squares_and_df = [](const std::vector<double>& v) {
    double mean = 0, squares = 0;
    for (double x : v) mean += std::log(x) / static_cast<double>(v.size());
    for (double x : v) squares += (std::log(x) - mean) * (std::log(x) - mean);
    return std::pair{squares, static_cast<double>(v.size() - 1)};
  };
  const auto [steady, steady_df] = squares_and_df(spans[0]);
  const auto [noisy, noisy_df] = squares_and_df(spans[1]);
  const PhaseModel model = fit_phases(trace);
  ASSERT_EQ(model.phases.size(), 41u);
  EXPECT_EQ(model.span_spread.df, 38u);
  const double pooled = std::sqrt((steady + noisy) / 38);
  EXPECT_NEAR(model.span_spread.sd, pooled, 1e-12);
  for (int p = 0; p < 41; ++p) {
    const double expected = std::sqrt(p % 2 == 0 ? steady / steady_df : noisy / noisy_df);  // phase 40: steady's
    EXPECT_NEAR(model.phases[static_cast<std::size_t>(p)].span_sd, expected, 1e-12) << "phase " << p;
  }
  EXPECT_LT(model.phases[0].span_sd, 0.02);
  EXPECT_GT(model.phases[1].span_sd, 0.4);
}

// The same replica, bit for bit, whatever the block its requests are made in.
TEST(PhaseTiming, SameBitsForAnyBlockSize) {
  const TraceCharacterization c = mpi_io_test();
  const PhaseModel model = fit_phases(c.sanitized);
  const Workload whole = timed_replica(c, model, 5, 48, kStreamedRequests, false);
  for (const std::size_t block : {1u, 7u, 100u}) {
    const Workload blocks = timed_replica(c, model, 5, 48, block, false);
    ASSERT_EQ(blocks.table.requests.size(), whole.table.requests.size());
    for (std::size_t i = 0; i < whole.table.requests.size(); ++i) {
      ASSERT_EQ(blocks.table.requests[i].start, whole.table.requests[i].start) << "block " << block << ", " << i;
      ASSERT_EQ(blocks.table.requests[i].duration, whole.table.requests[i].duration);
    }
  }
  // Another replica deals the phases' ranks out to other processes: without the spread the same span
  // (every rank in every phase), other processes late.
  const PhaseModel unspread = without_spread(model);
  const Workload one = timed_replica(c, unspread, 5, 48, kStreamedRequests, false);
  const Workload other = timed_replica(c, unspread, 6, 48, kStreamedRequests, false);
  ASSERT_EQ(other.table.requests.size(), one.table.requests.size());
  std::size_t moved = 0;
  for (std::size_t i = 0; i < one.table.requests.size(); ++i)
    moved += other.table.requests[i].start != one.table.requests[i].start;
  EXPECT_GT(moved, one.table.requests.size() / 2);
  EXPECT_NEAR(last_end(other), last_end(one), 1e-9 * last_end(one));
}

}  // namespace
}  // namespace gs
