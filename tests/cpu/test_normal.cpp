// normal (host/models/normal.cpp): the values' quantiles against the normal law.
#include <gtest/gtest.h>

#include <cmath>

#include "estimators/empirical.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;  // every Monte Carlo check allows 5 standard errors

TEST(Normal, QuantilesMatchTheNormalLaw) {
  const double mu = 3, sigma = 2;
  // odd: the last bin of a row uses half a pair
  const SortedSample sample(test::generate_float64("normal", "{mu: 3, sigma: 2}", 100, 5001, 11, 77));
  for (double z : {-4.0, -3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0}) {
    const double p = 0.5 * std::erfc(-z / std::sqrt(2.0));
    EXPECT_LT(std::fabs(test::cdf_z_score(sample.cdf(mu + sigma * z), p, sample.size())), kZ) << "z=" << z;
  }
}

}  // namespace
}  // namespace gs
