// norros (host/models/norros.cpp): bins of Norros' FBM arrivals have mean λΔ and
// the autocovariance aλΔ^{2H}·γ_fGn(k).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;  // every Monte Carlo check allows 5 standard errors

TEST(Norros, BinsHaveMeanLambdaBinAndVarianceALambdaBinToTheTwoH) {
  const double lambda = 50, a = 3, H = 0.75, bin = 2;
  const std::uint64_t replicas = 1000, length = 256;
  const auto values = test::generate_float64("norros", "{lambda: 50, a: 3, H: 0.75, bin: 2}", replicas, length, 11, 77);
  const double mean = lambda * bin;
  const double variance = a * lambda * std::pow(bin, 2 * H);
  std::vector<double> means(replicas);
  for (std::uint64_t r = 0; r < replicas; ++r) {
    means[r] = std::accumulate(values.begin() + r * length, values.begin() + (r + 1) * length, 0.0) /
               static_cast<double>(length);
  }
  const test::Estimate m = test::across_replicas(means);
  EXPECT_LT(std::fabs(m.mean - mean), kZ * m.se);
  const auto acvf = test::autocovariances(values, replicas, length, 3, mean);
  for (long k = 0; k <= 3; ++k) {
    const double truth = variance * test::fgn_autocovariance_reference(H, 1.0, k);
    EXPECT_LT(std::fabs(acvf[k].mean - truth), kZ * acvf[k].se) << "lag " << k;
  }
}

}  // namespace
}  // namespace gs
