// onoff (host/models/onoff.cpp): the superposition of M ON/OFF sources with
// Pareto periods has mean M·μ_on/(μ_on + μ_off) per bin and is long-range
// dependent with H = (3 − min(α_on, α_off))/2 (Willinger, Taqqu, Sherman and
// Wilson 1997), read off the variance–time law Var(X^(m)) ∝ m^{2H−2} of its
// counts. Each replica gives one estimate; the checks allow 5 standard errors
// of their mean over the replicas.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "host/base/errors.hpp"
#include "host/engine/config.hpp"
#include "kernels/onoff.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;

struct Case {
  double alpha_on, alpha_off, mean_on, mean_off;
  double hurst() const { return (3 - std::min(alpha_on, alpha_off)) / 2; }
  std::string params(int sources) const {
    return fmt::format("{{sources: {}, alpha_on: {}, alpha_off: {}, mean_on: {}, mean_off: {}}}", sources, alpha_on,
                       alpha_off, mean_on, mean_off);
  }
};

constexpr int kSources = 50;
constexpr std::uint64_t kReplicas = 48, kLength = 1 << 16;

// H of one replica from the slope of log Var(X^(m)) on log m, at 20 block
// sizes log-spaced in [4, n/10]. The variance of the block means is taken
// about the model's exact mean: the sample mean of a long-range dependent
// series is itself far from it, which biases the usual estimator low.
double variance_time_hurst(const double* x, std::uint64_t n, double mean) {
  std::vector<double> log_m, log_var;
  std::uint64_t previous = 0;
  for (int i = 0; i < 20; ++i) {
    const auto m =
        static_cast<std::uint64_t>(std::round(4 * std::pow(static_cast<double>(n) / 40, static_cast<double>(i) / 19)));
    if (m == previous) continue;
    previous = m;
    const std::uint64_t blocks = n / m;
    double sum = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const double block_mean = std::accumulate(x + b * m, x + (b + 1) * m, 0.0) / static_cast<double>(m);
      sum += (block_mean - mean) * (block_mean - mean);
    }
    log_m.push_back(std::log(static_cast<double>(m)));
    log_var.push_back(std::log(sum / static_cast<double>(blocks)));
  }
  const double k = static_cast<double>(log_m.size());
  const double mx = std::accumulate(log_m.begin(), log_m.end(), 0.0) / k;
  const double my = std::accumulate(log_var.begin(), log_var.end(), 0.0) / k;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < log_m.size(); ++i) {
    sxy += (log_m[i] - mx) * (log_var[i] - my);
    sxx += (log_m[i] - mx) * (log_m[i] - mx);
  }
  return 1 + sxy / sxx / 2;
}

// One heavy-tailed period each (the other with finite variance), where the
// variance–time law is reached within the block sizes of a 2^16-bin series:
// heavy ON periods (H = 0.8) and heavy OFF periods (H = 0.7).
TEST(Onoff, MeanRateAndTheHurstExponentOfWillingerEtAl) {
  for (const Case c : {Case{1.4, 2.5, 10, 10}, Case{2.5, 1.6, 10, 30}}) {
    const auto values = test::generate_float64("onoff", c.params(kSources), kReplicas, kLength, 7);
    const double mean = kSources * c.mean_on / (c.mean_on + c.mean_off);
    std::vector<double> means(kReplicas), hurst(kReplicas);
    for (std::uint64_t r = 0; r < kReplicas; ++r) {
      const double* x = values.data() + r * kLength;
      means[r] = std::accumulate(x, x + kLength, 0.0) / static_cast<double>(kLength);
      hurst[r] = variance_time_hurst(x, kLength, mean);
    }
    const test::Estimate m = test::across_replicas(means), h = test::across_replicas(hurst);
    std::printf("onoff alpha_on %g alpha_off %g: mean %.3f (truth %.3f, se %.3f), H %.3f (truth %.3f, se %.3f)\n",
                c.alpha_on, c.alpha_off, m.mean, mean, m.se, h.mean, c.hurst(), h.se);
    EXPECT_LT(std::fabs(m.mean - mean), kZ * m.se) << c.params(kSources);
    EXPECT_LT(std::fabs(h.mean - c.hurst()), kZ * h.se) << c.params(kSources);
  }
}

// Every bin holds rate × the sources' ON time in it: between 0 and M·rate;
// and each bin of a one-source replica holds the ON time of the path rebuilt
// from the Philox words of the documented layout, within the 2^-32-bin grid
// the kernel sums on (two rounded ends per period in a bin).
TEST(Onoff, BinsHoldTheOnTimeOfTheSources) {
  const double rate = 2.5;
  const auto values = test::generate_float64(
      "onoff", fmt::format("{{sources: 3, alpha_on: 1.5, alpha_off: 1.5, mean_on: 0.7, mean_off: 2, rate: {}}}", rate),
      4, 5000, 3);
  for (double x : values) {
    ASSERT_GE(x, 0.0);
    ASSERT_LE(x, 3 * rate);
  }
  // One source with periods shorter and longer than a bin, its path rebuilt
  // from the same Philox words the kernel uses, and its ON time per bin
  // computed directly in long double.
  constexpr std::uint64_t kBins = 2000;
  const EnsembleSpec spec = test::ensemble(
      "onoff", "{sources: 1, alpha_on: 1.3, alpha_off: 1.7, mean_on: 1.5, mean_off: 2.5}", 1, kBins, Dtype::float64, 9);
  const EnsembleJob job = test::job(spec, 11);
  const auto kernel = test::direct_kernel<OnoffKernel<double>>(job);
  const auto generated = test::generate_float64(spec, 11);
  std::vector<long double> on_time(kBins, 0.0L);
  int periods_within_a_bin = 0;
  const auto add_on = [&](long double from, long double to) {
    to = std::min(to, static_cast<long double>(kBins));
    periods_within_a_bin += std::floor(from) == std::floor(to);
    for (auto bin = static_cast<std::uint64_t>(from); bin < kBins && bin < to; ++bin)
      on_time[bin] += std::min(to, bin + 1.0L) - std::max(from, static_cast<long double>(bin));
  };
  using K = OnoffKernel<double>;
  const PhiloxBits start = philox_bits(job.request.key, 0, 0, K::kStartDraw);
  bool on = uniform_open(start[K::kStateWord]) < kernel.on_probability;
  double t = (on ? kernel.on : kernel.off)
                 .remaining(standard_exponential64<double>(start[K::kRemainingWords], start[K::kRemainingWords + 1]));
  if (on) add_on(0, t);
  for (std::uint64_t q = 1; t < kBins; ++q) {
    on = !on;
    const PhiloxBits pair = philox_bits(job.request.key, 0, (q - 1) / 2, K::kPeriodDraw);
    const int word = static_cast<int>(2 * ((q - 1) % 2));
    const double length =
        (on ? kernel.on : kernel.off).length(standard_exponential64<double>(pair[word], pair[word + 1]));
    if (on) add_on(t, t + length);
    t += length;
  }
  ASSERT_GT(periods_within_a_bin, 100);  // the grid's rounding is met often
  for (std::uint64_t i = 0; i < kBins; ++i) {
    // Every OFF period is longer than a bin (its shortest is 2.5·0.7/1.7 bins), so
    // at most two ON periods meet a bin, each end rounded down by under 2^-32 bin.
    ASSERT_NEAR(generated[i], static_cast<double>(on_time[i]), 4 * 0x1p-32) << "bin " << i;
  }
}

// Bad parameters are located errors naming the accepted range.
TEST(Onoff, BadParametersAreLocatedUserErrors) {
  const auto error_of = [](const std::string& params) -> std::string {
    try {
      parse_config(
          "output: o.h5\nensembles:\n  - {name: x, model: onoff, params: " + params + ", replicas: 2, length: 10}\n",
          "onoff.yaml");
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of("{sources: 10, alpha_on: 1.0, alpha_off: 1.5}").find("onoff.yaml:3:"), std::string::npos);
  EXPECT_NE(error_of("{sources: 10, alpha_on: 1.0, alpha_off: 1.5}")
                .find("params.alpha_on = 1 is out of range; accepted: 1 < alpha_on <= 10"),
            std::string::npos);
  EXPECT_NE(error_of("{alpha_on: 1.5, alpha_off: 1.5}").find("missing the required key 'sources'"), std::string::npos);
  EXPECT_NE(error_of("{sources: 0, alpha_on: 1.5, alpha_off: 1.5}").find("whole number 1 <= sources <= 1048576"),
            std::string::npos);
  EXPECT_NE(error_of("{sources: 1, alpha_on: 1.5, alpha_off: 1.5, mean_on: 0}").find("mean_on > 0"), std::string::npos);
}

}  // namespace
}  // namespace gs
