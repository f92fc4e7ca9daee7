// Replay fidelity (estimators/replay_fidelity.hpp) against values worked by
// hand: binning, the whole-replay figures, the band and its coverage with
// type-7 quantiles, //TRACE's replay error, the two-sample KS distance and the
// noise floors, and the bootstrap intervals over the replicas.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "estimators/replay_fidelity.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kW = 0.1;  // bin width, s

// One write per bin k completing at mid-bin with bytes[k], latency `latency`.
ReplayRecord one_per_bin(const std::vector<double>& bytes, double latency = 1e-3) {
  ReplayRecord r;
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    ReplayedIo io;
    io.completion = (static_cast<double>(k) + 0.5) * kW;
    io.latency = latency;
    io.issue = io.completion - latency;
    io.bytes = bytes[k];
    r.ios.push_back(io);
  }
  return r;
}

FidelityOptions options() {
  FidelityOptions o;
  o.bin_seconds = kW;
  o.resamples = 500;
  o.seed = 3;
  return o;
}

TEST(ReplayFidelity, BinsCompletionsIssuesAndMetadata) {
  ReplayRecord r;
  r.ios = {{0.01, 0.05, 0.04, 100, true}, {0.08, 0.15, 0.07, 200, false}, {0.12, 0.19, 0.07, 50, false}};
  r.metadata_times = {0.0, 0.15, 0.35};  // the last beyond 3 bins: left out
  const ReplayBins b = bin_replay(r, kW, 3);
  EXPECT_EQ(b.bytes_read, (std::vector<double>{100, 0, 0}));
  EXPECT_EQ(b.bytes_written, (std::vector<double>{0, 250, 0}));
  EXPECT_EQ(b.reads, (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(b.writes, (std::vector<double>{0, 2, 0}));
  EXPECT_EQ(b.issued, (std::vector<double>{2, 1, 0}));
  EXPECT_EQ(b.metadata, (std::vector<double>{1, 1, 0}));
  const std::vector<double> throughput = b.throughput(kW);
  EXPECT_DOUBLE_EQ(throughput[0], 1000);
  EXPECT_DOUBLE_EQ(throughput[1], 2500);
  const std::vector<double> ratio = b.data_operation_ratio();
  EXPECT_DOUBLE_EQ(ratio[0], 0.5);
  EXPECT_DOUBLE_EQ(ratio[1], 2.0 / 3);
  EXPECT_TRUE(std::isnan(ratio[2]));  // nothing ran in the bin
  EXPECT_DOUBLE_EQ(b.arrival_rate(kW)[0], 20);
}

TEST(ReplayFidelity, WholeReplayFigures) {
  ReplayRecord r;
  for (int i = 1; i <= 5; ++i) r.ios.push_back({0.0, 0.2 * i, 1e-3 * i, 10, i == 2});
  r.metadata_times = {0, 0, 0, 0, 0};
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::run_time), 1.0);
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::bytes), 50);
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::reads), 1);
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::writes), 4);
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::throughput), 50);
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::data_operation_ratio), 0.5);
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::arrival_rate), 5);
  EXPECT_DOUBLE_EQ(replay_figure(r, ReplayFigure::latency_median), 3e-3);
  EXPECT_NEAR(replay_figure(r, ReplayFigure::latency_p99), 4.96e-3, 1e-15);  // type 7: 4 + 0.96 (5 − 4)
}

// Replicas whose bin k holds 1, 2, 3, 4, 5 (× 100 B): the band is [1.2, 4.8]
// (type-7 quantiles 0.05 and 0.95 of five values) in every bin.
TEST(ReplayFidelity, CoverageCountsTheOriginalsBinsInsideTheBand) {
  std::vector<ReplayRecord> replicas;
  for (double v = 1; v <= 5; ++v) replicas.push_back(one_per_bin({100 * v, 100 * v, 100 * v, 100 * v}));
  const std::vector<ReplayRecord> originals = {one_per_bin({300, 100, 500, 470}), one_per_bin({300, 300, 300, 300})};
  const ReplayFidelity f = assess_replay_fidelity(originals, replicas, options());
  ASSERT_EQ(f.bins, 4u);
  ASSERT_EQ(f.original_bins, 4u);
  EXPECT_NEAR(f.band_low[0], 1200, 1e-9);  // B/s: 120 B per 0.1 s
  EXPECT_NEAR(f.band_high[0], 4800, 1e-9);
  EXPECT_DOUBLE_EQ(f.coverage.value, 0.5);  // 300 and 470 inside; 100 and 500 outside
  EXPECT_EQ(f.busy_bins, 4u);
  EXPECT_DOUBLE_EQ(f.busy_coverage.value, 0.5);
  EXPECT_DOUBLE_EQ(f.original_again_coverage, 1.0);  // 300 everywhere
  EXPECT_LE(f.coverage.low, f.coverage.value);
  EXPECT_GE(f.coverage.high, f.coverage.value);
  // Leave-one-out: the band of four of 1..5 excludes the left-out extremes, includes the middle three:
  // replicas 2, 3, 4 inside in every bin, 1 and 5 in none.
  EXPECT_DOUBLE_EQ(f.replica_coverage, 3.0 / 5);
}

// Idle bins are inside a band that holds 0: busy coverage counts the bins where the original moved data.
TEST(ReplayFidelity, BusyCoverageLeavesOutTheIdleBins) {
  std::vector<ReplayRecord> replicas;
  for (double v = 1; v <= 5; ++v) replicas.push_back(one_per_bin({100 * v, 0, 0, 0, 0, 0, 0, 100 * v}));
  const ReplayFidelity f = assess_replay_fidelity({one_per_bin({300, 0, 0, 0, 0, 0, 0, 900})}, replicas, options());
  EXPECT_DOUBLE_EQ(f.coverage.value, 7.0 / 8);
  EXPECT_EQ(f.busy_bins, 2u);
  EXPECT_DOUBLE_EQ(f.busy_coverage.value, 0.5);
  EXPECT_LE(f.busy_coverage.low, 0.5);
  EXPECT_GE(f.busy_coverage.high, 0.5);
  // Bytes done by each bin's end: the replicas' band is [120, 480] then [240, 960] from bin 7; the original's
  // 300, then 1200 at the end: 7 of 8 bins inside.
  EXPECT_NEAR(f.cumulative_band_low[7], 240, 1e-9);
  EXPECT_NEAR(f.cumulative_band_high[7], 960, 1e-9);
  EXPECT_DOUBLE_EQ(f.cumulative_coverage.value, 7.0 / 8);
}

// The same requests at other times: every bin's bytes is inside the band of replicas that do them at once,
// but the bytes done are far outside it.
TEST(ReplayFidelity, CumulativeCoverageSeesTheWrongTimes) {
  std::vector<ReplayRecord> early;
  for (double v = 1; v <= 5; ++v) early.push_back(one_per_bin({100 * v, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  const ReplayFidelity f = assess_replay_fidelity({one_per_bin({0, 0, 0, 0, 0, 0, 0, 0, 0, 300})}, early, options());
  EXPECT_DOUBLE_EQ(f.coverage.value, 0.8);             // bin 0 (0 < 120) and bin 9 (300 > 0) outside
  EXPECT_DOUBLE_EQ(f.cumulative_coverage.value, 0.1);  // only at the end has it done its 300 bytes
}

TEST(ReplayFidelity, ReplayErrorIsTheMeanRelativeDifferenceOfTotals) {
  // Run times 0.95 (bins 0..9 at mid-bin) for the original; replicas of 8, 10 and 12 bins: 0.75, 0.95, 1.15 s.
  const auto bins = [](int n) { return one_per_bin(std::vector<double>(static_cast<std::size_t>(n), 100.0)); };
  const ReplayFidelity f = assess_replay_fidelity({bins(10)}, {bins(8), bins(10), bins(12)}, options());
  const FigureComparison& run = f.figures[static_cast<int>(ReplayFigure::run_time)];
  EXPECT_EQ(run.figure, ReplayFigure::run_time);
  EXPECT_DOUBLE_EQ(run.original, 0.95);
  EXPECT_NEAR(run.replay_error.value, (0.2 / 0.95 + 0 + 0.2 / 0.95) / 3, 1e-15);
  EXPECT_NEAR(run.synthetic.value, 0.95, 1e-15);
  EXPECT_GE(run.replay_error.low, 0);
  EXPECT_LE(run.replay_error.high, 0.2 / 0.95 + 1e-15);  // no resample mean beyond the largest error
  const FigureComparison& bytes = f.figures[static_cast<int>(ReplayFigure::bytes)];
  EXPECT_NEAR(bytes.replay_error.value, (200.0 / 1000 + 0 + 200.0 / 1000) / 3, 1e-15);
  EXPECT_TRUE(std::isnan(run.original_again));  // replayed once
  EXPECT_TRUE(std::isnan(run.noise_error));
  EXPECT_TRUE(std::isnan(f.ks_throughput_floor));
  EXPECT_TRUE(std::isnan(f.original_again_coverage));
}

TEST(ReplayFidelity, KolmogorovSmirnovAgainstTheNoiseFloor) {
  const ReplayRecord slow = one_per_bin({100, 200, 300, 400}, 2e-3), fast = one_per_bin({100, 200, 300, 400}, 1e-3);
  const ReplayFidelity same = assess_replay_fidelity({slow, slow}, {slow, slow}, options());
  EXPECT_EQ(same.ks_throughput.value, 0);
  EXPECT_EQ(same.ks_latency.value, 0);
  EXPECT_EQ(same.ks_latency_floor, 0);
  const ReplayFidelity apart = assess_replay_fidelity({slow, slow}, {fast, fast}, options());
  EXPECT_EQ(apart.ks_latency.value, 1);  // every latency of the replicas below every one of the original
  EXPECT_EQ(apart.ks_latency.low, 1);
  EXPECT_EQ(apart.ks_throughput.value, 0);
  // Throughput {1,2,3,4} against {2,2,2,2} (kB/s): the CDFs differ most at 1 (1/4 against 0) and after 2 (1/2 against
  // 1).
  const ReplayFidelity flat = assess_replay_fidelity({slow}, {one_per_bin({200, 200, 200, 200})}, options());
  EXPECT_DOUBLE_EQ(flat.ks_throughput.value, 0.5);
}

// The original as one more replica, worked by hand. Replicas A = {1,2,3,4}, B = {1,2,3,5}, C = {1,2,4,4} (kB
// per bin): KS(A,B) = 1/4 (after 4), KS(A,C) = 1/4 (after 3), KS(B,C) = 1/4; every pair 0.25, so the pairs'
// median and 95th percentile are 0.25. An original equal to A is at 0, 0.25, 0.25 from them: median 0.25,
// exchangeable. An original of {9,9,9,9} is at 1 from each: not. Its run time equals theirs (rank 2.5 of 4,
// ties half); its bytes (36 kB) exceed every replica's (10, 11, 11): rank 4 of 4.
TEST(ReplayFidelity, TheOriginalAsOneMoreReplica) {
  const ReplayRecord a = one_per_bin({1e3, 2e3, 3e3, 4e3}), b = one_per_bin({1e3, 2e3, 3e3, 5e3}),
                     c = one_per_bin({1e3, 2e3, 4e3, 4e3});
  const ReplayFidelity like = assess_replay_fidelity({a}, {a, b, c}, options());
  EXPECT_EQ(like.ks_throughput_replicas.pairs, 3u);
  EXPECT_DOUBLE_EQ(like.ks_throughput_replicas.median, 0.25);
  EXPECT_DOUBLE_EQ(like.ks_throughput_replicas.p95, 0.25);
  EXPECT_DOUBLE_EQ(like.ks_throughput_median, 0.25);
  EXPECT_STREQ(exchangeability_word(like), "yes");
  const ReplayFidelity unlike = assess_replay_fidelity({one_per_bin({9e3, 9e3, 9e3, 9e3})}, {a, b, c}, options());
  EXPECT_DOUBLE_EQ(unlike.ks_throughput_median, 1.0);
  EXPECT_STREQ(exchangeability_word(unlike), "no");
  EXPECT_DOUBLE_EQ(unlike.figures[static_cast<int>(ReplayFigure::run_time)].original_rank, 1 + 0.5 * 3);
  EXPECT_DOUBLE_EQ(unlike.figures[static_cast<int>(ReplayFigure::bytes)].original_rank, 4);
  EXPECT_DOUBLE_EQ(like.figures[static_cast<int>(ReplayFigure::bytes)].original_rank, 1.5);  // ties A, below B and C
  // Two replicas give one pair: no 95th percentile to speak of.
  EXPECT_STREQ(exchangeability_word(assess_replay_fidelity({a}, {b, c}, options())), "n/a");
}

TEST(ReplayFidelity, IntervalsAreReproducibleAndFollowTheSeed) {
  std::vector<ReplayRecord> replicas;
  for (int n = 6; n <= 13; ++n) replicas.push_back(one_per_bin(std::vector<double>(static_cast<std::size_t>(n), 50.0)));
  const std::vector<ReplayRecord> originals = {one_per_bin(std::vector<double>(10, 50.0))};
  const ReplayFidelity a = assess_replay_fidelity(originals, replicas, options());
  const ReplayFidelity b = assess_replay_fidelity(originals, replicas, options());
  FidelityOptions other = options();
  other.seed = 4;
  const ReplayFidelity c = assess_replay_fidelity(originals, replicas, other);
  const auto& run = [](const ReplayFidelity& f) { return f.figures[0].replay_error; };
  EXPECT_EQ(run(a).low, run(b).low);
  EXPECT_EQ(run(a).high, run(b).high);
  EXPECT_TRUE(run(a).low != run(c).low || run(a).high != run(c).high);
  EXPECT_LT(run(a).low, run(a).value);
  EXPECT_GT(run(a).high, run(a).value);
  EXPECT_EQ(a.latency_quantiles.size(), 9u);
  EXPECT_EQ(a.latency_quantiles[0].size(), 101u);
}

TEST(ReplayFidelity, AReplayWithoutDataRequestsIsRefused) {
  const ReplayRecord empty;
  EXPECT_NE(test::error_of([&] {
              assess_replay_fidelity({one_per_bin({1})}, {empty}, options());
            }).find("replica 0 did no data request"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] {
              assess_replay_fidelity({empty}, {one_per_bin({1})}, options());
            }).find("replay 1 of the original"),
            std::string::npos);
}

}  // namespace
}  // namespace gs
