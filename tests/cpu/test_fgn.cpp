// fgn and fbm (host/models/fgn.cpp): the exact autocovariance of the circulant
// embedding against fGn's closed form, the circulant's non-negativity as H → 1,
// and fbm's variance growth. Monte Carlo checks use independent replicas.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "host/models/spectral.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;  // every Monte Carlo check allows 5 standard errors

// replicas × length float64 values of `model` with `params` through the CPU
// backend (stream 77).
std::vector<double> generate(const std::string& model, const std::string& params, std::uint64_t replicas,
                             std::uint64_t length, std::uint64_t seed = 11) {
  return test::generate_float64(model, params, replicas, length, seed, 77);
}

TEST(Fgn, AutocovarianceMatchesClosedForm) {
  for (double H : {0.3, 0.5, 0.9}) {
    const auto values = generate("fgn", fmt::format("{{H: {}, sigma: 1.5}}", H), 1000, 1024);
    const auto acvf = test::autocovariances(values, 1000, 1024, 20);
    for (long k = 0; k <= 20; ++k) {
      const double truth = test::fgn_autocovariance_reference(H, 1.5, k);
      EXPECT_LT(std::fabs(acvf[k].mean - truth), kZ * acvf[k].se) << "H=" << H << " lag " << k << " truth " << truth;
    }
  }
}

TEST(Fgn, SharedAutocovarianceIsAccurateAtLargeLags) {
  for (double H : {0.1, 0.3, 0.7, 0.99}) {
    for (long k : {1L, 2L, 10L, 1000L, 1000000L}) {
      const double truth = test::fgn_autocovariance_reference(H, 1.0, k);
      EXPECT_NEAR(fgn_autocovariance(H, static_cast<std::uint64_t>(k)), truth, 1e-9 * std::fabs(truth))
          << "H=" << H << " k=" << k;
    }
  }
}

// γ(M/2) in the middle of the circulant's first row keeps it non-negative
// definite as H → 1; a 0 there (as some libraries do) does not.
TEST(Fgn, CirculantWithGammaInTheMiddleIsNonNegative) {
  for (double H : {0.9, 0.99}) {
    for (std::uint64_t half : {500u, 1000u, 1024u}) {
      std::vector<double> gamma(half + 1);
      for (std::uint64_t k = 0; k <= half; ++k) gamma[k] = fgn_autocovariance(H, k);
      const auto lambda = circulant_eigenvalues(gamma);
      EXPECT_GT(*std::min_element(lambda.begin(), lambda.end()), 0.0) << "H=" << H << " half=" << half;
      gamma[half] = 0;
      const auto broken = circulant_eigenvalues(gamma);
      EXPECT_LT(*std::min_element(broken.begin(), broken.end()), 0.0) << "H=" << H << " half=" << half;
    }
  }
  const auto job = test::job(test::ensemble("fgn", "{H: 0.99}", 1, 1000), 1);
  for (double a : job.generation.spectral->amplitudes) EXPECT_TRUE(std::isfinite(a) && a >= 0);
}

TEST(Fbm, VarianceGrowsAsTToTheTwoH) {
  for (double H : {0.3, 0.8}) {
    const std::uint64_t replicas = 2000, length = 1000;
    const auto values = generate("fbm", fmt::format("{{H: {}, sigma: 2}}", H), replicas, length);
    for (std::uint64_t t : {1u, 10u, 100u, 1000u}) {
      std::vector<double> squares(replicas);
      for (std::uint64_t r = 0; r < replicas; ++r) squares[r] = std::pow(values[r * length + t - 1], 2);
      const test::Estimate variance = test::across_replicas(squares);
      const double truth = 4.0 * std::pow(static_cast<double>(t), 2 * H);
      EXPECT_LT(std::fabs(variance.mean - truth), kZ * variance.se) << "H=" << H << " t=" << t;
    }
  }
}

}  // namespace
}  // namespace gs
