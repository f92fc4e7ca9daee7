// The phase timing of request-level synthesis (host/requests/phase_timing.hpp,
// docs/models.md "Phases"): phases, skews, slacks and gaps recovered from a
// trace made with known phases; no process starts a data request before its
// previous one ended; a replica of the shipped mpi-io-test keeps the trace's
// run time; the same bits for any block size the requests are made in.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "host/requests/phase_timing.hpp"
#include "host/requests/synthesize.hpp"
#include "io/request_characteristics.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

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
    const std::uint32_t open = w.table.op_id("open"), write = w.table.op_id("write");
    w.table.file_id("f");
    for (std::int32_t r = 0; r < ranks; ++r) {
      Request o;
      o.op = open;
      o.file = 0;
      o.rank = r;
      w.table.requests.push_back(o);
    }
    for (std::size_t p = 0; p < starts.size(); ++p) {
      for (std::int32_t r = 0; r < ranks; ++r) {
        Request first;
        first.op = write;
        first.file = 0;
        first.rank = r;
        first.offset = 0;
        first.size = 4096;
        first.start = starts[p] + skew(p, r);
        first.duration = duration(p, r);
        Request second = first;
        second.start = first.start + first.duration + slack;
        w.table.requests.push_back(first);
        w.table.requests.push_back(second);
      }
    }
    return w;
  }
  double phase_end(std::size_t p) const {
    double end = 0;
    for (std::int32_t r = 0; r < ranks; ++r) end = std::max(end, starts[p] + skew(p, r) + 2 * duration(p, r) + slack);
    return end;
  }
};

TEST(PhaseTiming, RecoversKnownPhases) {
  const KnownPhases known;
  const PhaseModel model = fit_phases(known.trace());
  ASSERT_EQ(model.phases.size(), known.starts.size());
  EXPECT_EQ(model.ranks, known.ranks);
  EXPECT_EQ(model.overlaps, 0u);
  // The root's 8 writes: two per phase.
  EXPECT_EQ(model.root_phase, (std::vector<std::uint32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  for (std::size_t p = 0; p < known.starts.size(); ++p) {
    const Phase& phase = model.phases[p];
    SCOPED_TRACE(p);
    EXPECT_NEAR(phase.start, known.starts[p] + KnownPhases::skew(p, 0), 1e-12);  // from the first request, at 0
    EXPECT_NEAR(phase.end, known.phase_end(p), 1e-12);
    EXPECT_EQ(phase.ranks, known.ranks);
    ASSERT_EQ(phase.skews.size(), static_cast<std::size_t>(known.ranks));
    std::vector<double> skews = phase.skews;
    std::sort(skews.begin(), skews.end());
    for (std::int32_t r = 0; r < known.ranks; ++r) EXPECT_NEAR(skews[r], 0.001 * r, 1e-12);
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
  Expansion expansion = synthesize_replica(c.path, c.characteristics, options, replica, processes, true);
  PhaseTiming timing(model, expansion.path_data_requests(), processes, options, replica);
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
  Workload replica;
  replica.table = trace.table;
  replica.table.requests.clear();
  for (std::int64_t k = 0; k < 8; ++k)
    for (std::int32_t rank = 0; rank < known.ranks; ++rank) {
      Request r;
      r.op = replica.table.op_id("write");
      r.rank = rank;
      r.seq = k;
      replica.table.requests.push_back(r);
    }
  PhaseTiming timing(model, 8, known.ranks, SynthesisOptions{}, 0);
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
// step started together: 8 phases) come back: a replica of 32 processes runs
// as long as the trace within the fidelity goal of 6 %, on average over
// replicas (each replica draws its ranks' skews and durations from the
// phase's own; the longest of 32 draws from 32 values is the phase's own
// longest with probability 1 − (31/32)^32 = 64 %, so a replica is shorter,
// never longer than the closed-form bound: every phase at its longest skew
// plus its longest request and slack of each step, then the trace's gap).
TEST(PhaseTiming, ReplicasOfMpiIoTestKeepItsRunTime) {
  const TraceCharacterization c = mpi_io_test();
  const PhaseModel model = fit_phases(c.sanitized);
  ASSERT_EQ(model.phases.size(), 8u);
  double trace_end = 0, bound = model.phases.front().start;
  for (const Phase& phase : model.phases) {
    trace_end = std::max(trace_end, phase.end);
    EXPECT_EQ(phase.ranks, 32);
    bound += *std::max_element(phase.skews.begin(), phase.skews.end()) + std::max(phase.gap_after, 0.0);
    for (const PhaseStep& step : phase.steps) {
      bound += *std::max_element(step.durations.begin(), step.durations.end());
      if (!step.slacks.empty()) bound += std::max(*std::max_element(step.slacks.begin(), step.slacks.end()), 0.0);
    }
  }
  double sum = 0;
  const int replicas = 20;
  for (int replica = 0; replica < replicas; ++replica) {
    const double end = last_end(timed_replica(c, model, replica, 32, kStreamedRequests, false));
    EXPECT_LE(end, bound + 1e-9);
    sum += end;
  }
  const double error = std::abs(sum / replicas - trace_end) / trace_end;
  EXPECT_LE(error, 0.06) << "mean run time " << sum / replicas << " s against the trace's " << trace_end << " s";
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
  // Another replica draws other skews.
  EXPECT_NE(last_end(timed_replica(c, model, 6, 48, kStreamedRequests, false)), last_end(whole));
}

}  // namespace
}  // namespace gs
