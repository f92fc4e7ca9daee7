// What a replay's headline says of itself (estimators/replay_fidelity.hpp):
// page-cache service read from the latencies per 4 KiB, each figure against
// the system's own replay-to-replay noise, and the goals the synthesis misses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "estimators/replay_fidelity.hpp"

namespace gs {
namespace {

// `count` requests of `bytes` each, reads or writes, every one taking `latency` s.
ReplayRecord requests(std::size_t count, double bytes, double latency, bool read) {
  ReplayRecord r;
  for (std::size_t i = 0; i < count; ++i) r.ios.push_back({0.01 * i, 0.01 * i + latency, latency, bytes, read});
  return r;
}

TEST(ReplayVerdicts, LatencyPer4KiBTellsMemoryFromADevice) {
  // 64 KiB in 40 µs is 2.5 µs per 4 KiB: a memory copy, not a device.
  ReplayRecord r = requests(9, 65536, 40e-6, true);
  EXPECT_DOUBLE_EQ(median_latency_per_4kib(r, true), 2.5e-6);
  EXPECT_TRUE(std::isnan(median_latency_per_4kib(r, false)));
  EXPECT_NE(page_cache_warning(r).find("reads 2.5 µs"), std::string::npos) << page_cache_warning(r);
  // A request smaller than 4 KiB costs a whole block: 100 bytes in 8 µs is 8 µs.
  EXPECT_DOUBLE_EQ(median_latency_per_4kib(requests(3, 100, 8e-6, false), false), 8e-6);
  // 4 KiB in 80 µs (NVMe flash) is a device; so is the median of mostly slow requests.
  EXPECT_EQ(page_cache_warning(requests(5, 4096, 80e-6, false)), "");
  ReplayRecord mixed = requests(5, 4096, 80e-6, true);
  for (const ReplayedIo& io : requests(4, 4096, 1e-6, true).ios) mixed.ios.push_back(io);
  EXPECT_EQ(page_cache_warning(mixed), "");
  // At the threshold itself: not below it.
  EXPECT_EQ(page_cache_warning(requests(3, 4096, kDeviceSecondsPer4KiB, true)), "");
}

TEST(ReplayVerdicts, WithinTheSystemsOwnNoise) {
  FigureComparison c;
  c.noise_error = 0.05;
  c.replay_error = {0.08, 0.04, 0.12};
  EXPECT_STREQ(within_own_noise(c), "yes");  // the interval reaches down to 4 % < 5 %
  c.replay_error = {0.08, 0.06, 0.12};
  EXPECT_STREQ(within_own_noise(c), "no");
  c.noise_error = std::numeric_limits<double>::quiet_NaN();  // replayed once
  EXPECT_STREQ(within_own_noise(c), "n/a");
}

TEST(ReplayVerdicts, ShortfallsOnlyWhereTheIntervalIsWhollyOnTheWrongSide) {
  ReplayFidelity f;
  f.figures.resize(kReplayFigures);
  f.figures[static_cast<int>(ReplayFigure::run_time)].replay_error = {0.10, 0.07, 0.13};    // above 6 %
  f.figures[static_cast<int>(ReplayFigure::throughput)].replay_error = {0.06, 0.03, 0.09};  // across
  f.busy_coverage = {0.5, 0.4, 0.6};                                                        // below 90 %
  f.cumulative_coverage = {0.9, 0.85, 0.95};                                                // across
  const std::vector<std::string> s = fidelity_shortfalls(f);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NE(s[0].find("run_time error 10.0 % [7.0, 13.0] is above the 6 % goal"), std::string::npos) << s[0];
  EXPECT_NE(s[1].find("covers 50.0 % [40.0, 60.0] of the busy bins, below the 90 % goal"), std::string::npos) << s[1];
  f.figures[static_cast<int>(ReplayFigure::run_time)].replay_error = {0.04, 0.02, 0.06};
  f.busy_coverage = {0.95, 0.9, 0.99};
  EXPECT_TRUE(fidelity_shortfalls(f).empty());
}

TEST(ReplayVerdicts, AnOriginalOutsideTheReplicasSpreadIsAShortfall) {
  ReplayFidelity f;
  f.figures.resize(kReplayFigures);
  f.busy_coverage = f.cumulative_coverage = {0.95, 0.92, 0.98};  // every other figure meets its goal
  f.synthetic.resize(3);
  f.ks_throughput_replicas.p95 = 0.2;
  f.ks_throughput_median = 0.3;  // farther from the replicas than 95 % of replica pairs are from each other
  EXPECT_STREQ(exchangeability_word(f), "no");
  const std::vector<std::string> s = fidelity_shortfalls(f);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NE(s[0].find("not exchangeable"), std::string::npos) << s[0];
  f.ks_throughput_median = 0.2;  // at the 95th percentile: one more replica
  EXPECT_STREQ(exchangeability_word(f), "yes");
  EXPECT_TRUE(fidelity_shortfalls(f).empty());
  // Replicas that replay to the same bins (no spread between them): the original no farther from them than
  // from its own second replay is one more replica, farther it is not.
  f.ks_throughput_replicas.p95 = 0;
  f.ks_throughput_median = 0.3;
  f.ks_throughput_floor = 0.3;
  EXPECT_STREQ(exchangeability_word(f), "yes");
  EXPECT_TRUE(fidelity_shortfalls(f).empty());
  f.ks_throughput_floor = 0.29;
  EXPECT_STREQ(exchangeability_word(f), "no");
  f.ks_throughput_floor = std::nan("");  // replayed once: the replicas' spread alone
  EXPECT_STREQ(exchangeability_word(f), "no");
  f.synthetic.resize(2);  // two replicas give one pair: no spread to judge by
  f.ks_throughput_median = 0.3;
  EXPECT_STREQ(exchangeability_word(f), "n/a");
  EXPECT_TRUE(fidelity_shortfalls(f).empty());
}

}  // namespace
}  // namespace gs
