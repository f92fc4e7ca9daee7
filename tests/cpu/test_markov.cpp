// markov (host/models/markov.cpp): transition frequencies, within-state values,
// the stationary start, and the stationary law of a reducible chain.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "estimators/chain_law.hpp"
#include "kernels/markov.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;  // every Monte Carlo check allows 5 standard errors

const std::vector<double> kLevels = {1, 10, 100};
const std::vector<std::vector<double>> kTransition = {{0.9, 0.1, 0.0}, {0.3, 0.5, 0.2}, {0.0, 0.6, 0.4}};
const std::vector<double> kNoise = {0.0, 1.0, 5.0};
const char* const kThreeLevels =
    "{levels: [1, 10, 100], transition: [[0.9, 0.1, 0.0], [0.3, 0.5, 0.2], [0.0, 0.6, 0.4]], noise: [0, 1, 5]}";

// The values and hidden states of `replicas` chains of the three-level model.
std::pair<std::vector<double>, std::vector<std::uint8_t>> three_level_chains(std::uint64_t replicas,
                                                                             std::uint64_t length, std::uint64_t seed) {
  const EnsembleSpec spec = test::ensemble("markov", kThreeLevels, replicas, length, Dtype::float64, 77);
  return test::run_chain(test::direct_kernel<MarkovChainKernel<double>>(test::job(spec, seed)), replicas);
}

TEST(Markov, TransitionFrequenciesMatchTheMatrix) {
  const std::uint64_t replicas = 200, length = 5000;
  const auto [values, states] = three_level_chains(replicas, length, 5);
  for (std::size_t i = 0; i < 3; ++i) {
    std::vector<double> observed(3, 0.0), expected(3, 0.0);
    for (std::uint64_t r = 0; r < replicas; ++r) {
      for (std::uint64_t t = 1; t < length; ++t) {
        if (states[r * length + t - 1] == i) observed[states[r * length + t]] += 1;
      }
    }
    const double from_i = std::accumulate(observed.begin(), observed.end(), 0.0);
    for (std::size_t j = 0; j < 3; ++j) expected[j] = from_i * kTransition[i][j];
    test::expect_counts_fit(observed, expected, "transitions");
  }
  // Within-state values: level plus N(0, noise²).
  for (std::size_t s = 0; s < 3; ++s) {
    double n = 0, sum = 0, squares = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (states[i] != s) continue;
      n += 1;
      sum += values[i] - kLevels[s];
      squares += std::pow(values[i] - kLevels[s], 2);
    }
    const double sd = kNoise[s];
    EXPECT_LE(std::fabs(sum / n), kZ * sd / std::sqrt(n)) << "state " << s;
    if (sd > 0) {
      EXPECT_NEAR(std::sqrt(squares / n), sd, kZ * sd / std::sqrt(2 * n)) << "state " << s;
    }
  }
}

TEST(Markov, StartsAndStaysInTheStationaryMix) {
  // π solves π P = π: the model's default initial law; check it against the balance equations too.
  const std::vector<double> pi = *stationary_law(kTransition, false);
  const auto described = make_model("markov", kThreeLevels)->describe();
  const auto initial =
      std::find_if(described.begin(), described.end(), [](const Attribute& a) { return a.name == "initial"; });
  ASSERT_NE(initial, described.end());
  EXPECT_EQ(std::get<std::vector<double>>(initial->value), pi);
  for (std::size_t j = 0; j < 3; ++j) {
    double flow = 0;
    for (std::size_t i = 0; i < 3; ++i) flow += pi[i] * kTransition[i][j];
    EXPECT_NEAR(flow, pi[j], 1e-12);
  }
  const std::uint64_t replicas = 20000, length = 50;
  const auto [values, states] = three_level_chains(replicas, length, 6);
  for (std::uint64_t t : {0u, 49u}) {
    std::vector<double> observed(3, 0.0), expected(3, 0.0);
    for (std::uint64_t r = 0; r < replicas; ++r) observed[states[r * length + t]] += 1;
    for (std::size_t j = 0; j < 3; ++j) expected[j] = pi[j] * static_cast<double>(replicas);
    test::expect_counts_fit(observed, expected, t == 0 ? "initial states" : "states at t = 49");
  }
}

TEST(Markov, ReducibleChainNeedsAnInitialLaw) {
  EXPECT_FALSE(stationary_law({{1, 0}, {0, 1}}, false).has_value());
  EXPECT_FALSE(stationary_law({{0, 0}, {0, 0}}, true).has_value());
  const auto pi = stationary_law({{-2, 2}, {1, -1}}, true);
  ASSERT_TRUE(pi.has_value());
  EXPECT_NEAR((*pi)[0], 1.0 / 3, 1e-12);
}

}  // namespace
}  // namespace gs
