// hmm (host/models/hmm.cpp): exponential holding times and jumps that follow Q,
// observations whose transitions follow exp(QΔ), the stationary occupancy, the
// log-normal emissions, and irregular observation times.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <unsupported/Eigen/MatrixFunctions>

#include "estimators/chain_law.hpp"
#include "kernels/hmm.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;  // every Monte Carlo check allows 5 standard errors

const std::vector<std::vector<double>> kGenerator = {{-0.5, 0.4, 0.1}, {0.2, -0.3, 0.1}, {1.0, 2.0, -3.0}};
const std::vector<double> kMu = {0.0, 1.0, 3.0}, kSigma = {0.1, 0.25, 0.5};
const double kInterval = 0.7;
const std::string kTitanLike =
    "generator: [[-0.5, 0.4, 0.1], [0.2, -0.3, 0.1], [1.0, 2.0, -3.0]], mu: [0, 1, 3], sigma: [0.1, 0.25, 0.5]";

// The values and hidden states of `replicas` chains observed at `times`
// ("interval: 0.7" by default).
std::pair<std::vector<double>, std::vector<std::uint8_t>> titan_like_chains(
    std::uint64_t replicas, std::uint64_t length, std::uint64_t seed, const std::string& times = "interval: 0.7") {
  const EnsembleSpec spec =
      test::ensemble("hmm", "{" + kTitanLike + ", " + times + "}", replicas, length, Dtype::float64, 77);
  const EnsembleJob job = test::job(spec, seed);
  HmmKernel<double> kernel = test::direct_kernel<HmmKernel<double>>(job);
  const std::vector<double>& table = job.generation.direct->table();
  kernel.table = table.empty() ? nullptr : table.data();
  return test::run_chain(kernel, replicas);
}

TEST(Hmm, HoldingTimesAreExponentialAndJumpsFollowQ) {
  const HmmKernel<double> kernel = test::direct_kernel<HmmKernel<double>>(
      test::job(test::ensemble("hmm", "{" + kTitanLike + ", interval: 0.7}", 1, 10, Dtype::float64, 77), 7));
  std::vector<std::vector<double>> holding(3);
  std::vector<std::vector<double>> jumps(3, std::vector<double>(3, 0.0));
  for (std::uint32_t replica = 0; replica < 100; ++replica) {
    HmmPath path = kernel.begin(replica);
    double entered = kernel.observation_time(0);
    for (int e = 0; e < 1000; ++e) {
      const int from = path.state;
      holding[from].push_back(path.sojourn_end - entered);
      entered = path.sojourn_end;
      kernel.jump_once(replica, path);
      jumps[from][path.state] += 1;
    }
  }
  for (int s = 0; s < 3; ++s) {
    const double rate = -kGenerator[s][s], n = static_cast<double>(holding[s].size());
    const double mean = std::accumulate(holding[s].begin(), holding[s].end(), 0.0) / n;
    EXPECT_LT(std::fabs(mean - 1 / rate), kZ / rate / std::sqrt(n)) << "state " << s;
    // P(T > t) = exp(−rate·t) at three points.
    for (double q : {0.1, 1.0, 3.0}) {
      const double p = std::exp(-q);
      const double beyond = static_cast<double>(
          std::count_if(holding[s].begin(), holding[s].end(), [&](double h) { return h > q / rate; }));
      EXPECT_LT(std::fabs(test::cdf_z_score(beyond / n, p, holding[s].size())), kZ) << "state " << s << " q=" << q;
    }
    std::vector<double> expected(3, 0.0);
    const double total = std::accumulate(jumps[s].begin(), jumps[s].end(), 0.0);
    for (int j = 0; j < 3; ++j) expected[j] = j == s ? 0.0 : total * kGenerator[s][j] / rate;
    test::expect_counts_fit(jumps[s], expected, "jump targets");
  }
}

TEST(Hmm, ObservationsFollowExpQtOccupancyAndEmissions) {
  const std::uint64_t replicas = 400, length = 2000;
  const auto [values, states] = titan_like_chains(replicas, length, 8);
  const std::vector<double> pi = *stationary_law(kGenerator, true);
  Eigen::Matrix3d q;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) q(i, j) = kGenerator[i][j];
  }
  const Eigen::Matrix3d transition = (q * kInterval).exp();
  std::vector<std::vector<double>> observed(3, std::vector<double>(3, 0.0));
  std::vector<double> occupancy(3, 0.0);
  for (std::uint64_t r = 0; r < replicas; ++r) {
    for (std::uint64_t t = 0; t < length; ++t) {
      const int s = states[r * length + t];
      occupancy[s] += 1;
      if (t > 0) observed[states[r * length + t - 1]][s] += 1;
    }
  }
  for (int i = 0; i < 3; ++i) {
    const double from_i = std::accumulate(observed[i].begin(), observed[i].end(), 0.0);
    std::vector<double> expected(3);
    for (int j = 0; j < 3; ++j) expected[j] = from_i * transition(i, j);
    test::expect_counts_fit(observed[i], expected, "P(interval) = exp(Q interval)");
  }
  // Occupancy: the stationary law of Q, with a standard error from the
  // replicas' own occupancy fractions (the path is correlated in time).
  for (int s = 0; s < 3; ++s) {
    std::vector<double> fractions(replicas);
    for (std::uint64_t r = 0; r < replicas; ++r) {
      fractions[r] =
          static_cast<double>(std::count(states.begin() + r * length, states.begin() + (r + 1) * length, s)) /
          static_cast<double>(length);
    }
    const test::Estimate share = test::across_replicas(fractions);
    EXPECT_LT(std::fabs(share.mean - pi[s]), kZ * share.se) << "state " << s;
  }
  EXPECT_NEAR(pi[0] * q(0, 0) + pi[1] * q(1, 0) + pi[2] * q(2, 0), 0.0, 1e-12);
  for (int s = 0; s < 3; ++s) {
    double n = 0, sum = 0, squares = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (states[i] != s) continue;
      const double x = std::log(values[i]) - kMu[s];
      n += 1;
      sum += x;
      squares += x * x;
    }
    EXPECT_LT(std::fabs(sum / n), kZ * kSigma[s] / std::sqrt(n)) << "log-mean of state " << s;
    EXPECT_NEAR(std::sqrt(squares / n), kSigma[s], kZ * kSigma[s] / std::sqrt(2 * n)) << "log-sd " << s;
  }
}

TEST(Hmm, IrregularTimesAreUsedAsGiven) {
  const std::uint64_t replicas = 3000;
  const auto [values, states] = titan_like_chains(replicas, 5, 9, "times: [0.0, 0.001, 0.002, 50.0, 50.001]");
  // 1 ms apart the state almost never changes (P ≤ 3e-3); 50 time units apart
  // it is nearly independent of the past.
  int same_close = 0, same_far = 0;
  for (std::uint64_t r = 0; r < replicas; ++r) {
    same_close += states[r * 5] == states[r * 5 + 1];
    same_far += states[r * 5 + 2] == states[r * 5 + 3];
  }
  EXPECT_GT(same_close, 0.99 * replicas);
  EXPECT_LT(same_far, 0.8 * replicas);
}

}  // namespace
}  // namespace gs
