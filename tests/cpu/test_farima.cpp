// farima (host/models/farima.cpp): the exact Gaussian autocovariance against
// Hosking's closed form, the ARMA closed forms and a quadrature of the
// spectral density; Gaussian samples against it; the stable innovations'
// marginal law (Nolan's table), tail index (Hill) and truncation loss.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <cmath>
#include <complex>

#include "estimators/empirical.hpp"
#include "host/models/farima.hpp"
#include "kernels/portability.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;  // every Monte Carlo check allows 5 standard errors

FarimaParams farima(double d, std::vector<double> ar = {}, std::vector<double> ma = {}, double sigma = 1) {
  return FarimaParams{d, std::move(ar), std::move(ma), sigma};
}

std::string list(const std::vector<double>& x) { return fmt::format("[{}]", fmt::join(x, ", ")); }

// The `params:` of a Gaussian FARIMA.
std::string gaussian_params(const FarimaParams& m) {
  return fmt::format("{{d: {}, ar: {}, ma: {}, sigma: {}}}", m.d, list(m.ar), list(m.ma), m.sigma);
}

struct StableFarima {
  double alpha, beta, d;
  std::int64_t truncation;
  double sigma;
  std::string params() const {
    return fmt::format("{{d: {}, innovations: stable, alpha: {}, beta: {}, truncation: {}, sigma: {}}}", d, alpha, beta,
                       truncation, sigma);
  }
};

Generation generation_of(const StableFarima& model, std::uint64_t length) {
  return test::job(test::ensemble("farima", model.params(), 1, length), 1).generation;
}

// ρ(k) = Γ(k + d) Γ(1 − d) / (Γ(k − d + 1) Γ(d)), γ(0) = Γ(1 − 2d)/Γ(1 − d)²
// (Hosking 1981), with Γ(d) = Γ(d + 1)/d so that d < 0 works too.
TEST(Farima, FractionalAutocovarianceMatchesHosking) {
  for (double d : {0.2, 0.4, -0.3}) {
    const auto gamma = farima_autocovariance(farima(d, {}, {}, 1.3), 1000);
    for (std::uint64_t k : {0u, 1u, 2u, 10u, 100u, 1000u}) {
      const double gamma0 = std::exp(std::lgamma(1 - 2 * d) - 2 * std::lgamma(1 - d));
      const double rho =
          k == 0 ? 1.0
                 : std::exp(std::lgamma(k + d) + std::lgamma(1 - d) - std::lgamma(k - d + 1) - std::lgamma(d + 1)) * d;
      const double truth = 1.69 * gamma0 * rho;
      EXPECT_NEAR(gamma[k], truth, 1e-10 * std::fabs(truth)) << "d=" << d << " k=" << k;
    }
  }
}

TEST(Farima, ArmaPartsMatchTheirClosedForms) {
  const double phi = 0.6, theta = 0.3, sigma = 1.7, s2 = sigma * sigma;
  const auto ar1 = farima_autocovariance(farima(0, {phi}, {}, sigma), 30);
  for (int k = 0; k <= 30; ++k)
    EXPECT_NEAR(ar1[k], s2 * std::pow(phi, k) / (1 - phi * phi), 1e-12) << "AR(1) lag " << k;
  const auto ma1 = farima_autocovariance(farima(0, {}, {theta}, sigma), 3);
  EXPECT_NEAR(ma1[0], s2 * (1 + theta * theta), 1e-12);
  EXPECT_NEAR(ma1[1], s2 * theta, 1e-12);
  EXPECT_NEAR(ma1[2], 0.0, 1e-12);
  const auto arma = farima_autocovariance(farima(0, {phi}, {theta}, sigma), 10);
  double expected = s2 * (1 + 2 * phi * theta + theta * theta) / (1 - phi * phi);
  EXPECT_NEAR(arma[0], expected, 1e-12);
  expected = s2 * (1 + phi * theta) * (phi + theta) / (1 - phi * phi);
  for (int k = 1; k <= 10; ++k, expected *= phi) EXPECT_NEAR(arma[k], expected, 1e-12) << "ARMA(1,1) lag " << k;
}

// ARFIMA(2, d, 1) against γ(k) = 2 ∫_0^π f(ω) cos(kω) dω with
// f(ω) = σ²/(2π) |θ(e^{-iω})|² / |φ(e^{-iω})|² |2 sin(ω/2)|^{−2d} (tanh-sinh
// quadrature on 64 pieces, so that cos(kω) never oscillates within one).
TEST(Farima, AutocovarianceMatchesSpectralIntegral) {
  const FarimaParams model = farima(0.3, {0.5, -0.2}, {0.4}, 1.1);
  const auto gamma = farima_autocovariance(model, 50);
  boost::math::quadrature::tanh_sinh<double> integrator;
  for (int k : {0, 1, 2, 5, 20, 50}) {
    auto f = [&](double w) {
      const std::complex<double> z = std::polar(1.0, -w);
      const std::complex<double> theta = 1.0 + model.ma[0] * z;
      const std::complex<double> phi = 1.0 - model.ar[0] * z - model.ar[1] * z * z;
      const double spectrum = model.sigma * model.sigma / (2 * kPi) * std::norm(theta) / std::norm(phi) *
                              std::pow(2 * std::sin(w / 2), -2 * model.d);
      return 2 * spectrum * std::cos(k * w);
    };
    double truth = 0;
    for (int piece = 0; piece < 64; ++piece) truth += integrator.integrate(f, kPi * piece / 64, kPi * (piece + 1) / 64);
    EXPECT_NEAR(gamma[k], truth, 1e-9 * std::fabs(gamma[0])) << "lag " << k;
  }
}

TEST(Farima, GaussianSamplesHaveTheExactAutocovariance) {
  for (const FarimaParams& model :
       {farima(0.3), farima(-0.3), farima(0.0, {0.6}, {0.3}), farima(0.25, {0.5}, {-0.3})}) {
    const auto values = test::generate_float64("farima", gaussian_params(model), 1000, 1024, 11, 77);
    const auto acvf = test::autocovariances(values, 1000, 1024, 20);
    const auto truth = farima_autocovariance(model, 20);
    for (int k = 0; k <= 20; ++k) {
      EXPECT_LT(std::fabs(acvf[k].mean - truth[k]), kZ * acvf[k].se) << "d=" << model.d << " lag " << k;
    }
  }
}

// Values truncation + 1 apart share no innovation, so they are independent
// draws of the marginal S1(α, β Σ sign(a)|a|^α / Σ|a|^α, σ‖a‖_α, 0): for
// d > 0 every a_j > 0 and the skewness stays β.
std::vector<double> independent_values(const StableFarima& model, std::uint64_t replicas, std::uint64_t per_replica) {
  const std::uint64_t gap = static_cast<std::uint64_t>(model.truncation) + 1, length = gap * per_replica;
  const auto values = test::generate_float64("farima", model.params(), replicas, length, 11, 77);
  std::vector<double> picked;
  for (std::uint64_t r = 0; r < replicas; ++r) {
    for (std::uint64_t i = 0; i < length; i += gap) picked.push_back(values[r * length + i]);
  }
  return picked;
}

TEST(Farima, StableInnovationsGiveTheStableMarginal) {
  const StableFarima model{1.6, 0.5, 0.2, 200, 0.7};
  const auto weights = farima_ma_weights(farima(model.d, {}, {}, model.sigma), 200);
  double norm = 0;
  for (double a : weights) norm += std::pow(a, model.alpha);
  const double scale = model.sigma * std::pow(norm, 1 / model.alpha);
  const Generation generation = generation_of(model, 10);
  EXPECT_NEAR(test::number_attribute(generation.attributes, "marginal_beta"), 0.5, 1e-12);
  EXPECT_NEAR(test::number_attribute(generation.attributes, "marginal_scale"), scale, 1e-12 * scale);
  const SortedSample sample(independent_values(model, 2000, 16));
  const auto points = test::nolan_points(1.6, 0.5);
  ASSERT_EQ(points.size(), 11u);
  for (const auto& [x, cdf] : points) {
    EXPECT_LT(std::fabs(test::cdf_z_score(sample.cdf(scale * x), cdf, sample.size())), kZ) << "x=" << x;
  }
}

// Hill's estimator on the largest 0.5% of |X|: its standard error is α/sqrt(k);
// at α = 1.2 its bias at this depth is well inside that (checked on scipy's
// levy_stable draws).
TEST(Farima, StableInnovationsGiveTailIndexAlpha) {
  const StableFarima model{1.2, 0.0, 0.1, 200, 1.0};
  std::vector<double> magnitudes = independent_values(model, 4000, 16);
  for (double& x : magnitudes) x = std::fabs(x);
  std::sort(magnitudes.rbegin(), magnitudes.rend());
  const std::size_t k = magnitudes.size() / 200;
  double log_sum = 0;
  for (std::size_t i = 0; i < k; ++i) log_sum += std::log(magnitudes[i] / magnitudes[k]);
  const double hill = static_cast<double>(k) / log_sum;
  EXPECT_LT(std::fabs(hill - model.alpha), 4 * model.alpha / std::sqrt(static_cast<double>(k))) << "Hill " << hill;
}

TEST(Farima, TruncationLossIsReportedAndWarnedAbout) {
  const Generation short_plan = generation_of({1.9, 0, 0.45, 100, 1}, 100);
  const Generation long_plan = generation_of({1.9, 0, 0.1, 10000, 1}, 100);
  auto kept = [](const Generation& plan) { return test::number_attribute(plan.attributes, "variance_share_kept"); };
  // Independently: Σ_{j≤J} a_j² over γ(0) of the Gaussian FARIMA(0, d, 0).
  const auto weights = farima_ma_weights(farima(0.45), 100);
  double squares = 0;
  for (double a : weights) squares += a * a;
  EXPECT_NEAR(kept(short_plan), squares / std::exp(std::lgamma(1 - 0.9) - 2 * std::lgamma(1 - 0.45)), 1e-12);
  EXPECT_LT(kept(short_plan), 0.9);
  EXPECT_FALSE(short_plan.warning.empty());
  EXPECT_GT(kept(long_plan), 0.999);
  EXPECT_TRUE(long_plan.warning.empty());
}

}  // namespace
}  // namespace gs
