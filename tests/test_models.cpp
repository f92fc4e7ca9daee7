// The comparison models (fgn, fbm, norros, farima, normal, markov, hmm)
// against closed forms and independent computations. Monte Carlo checks use
// independent replicas: an estimate's standard error is the spread of its
// per-replica values over sqrt(replicas), and every check allows 5 of them.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <cmath>
#include <numeric>
#include <unsupported/Eigen/MatrixFunctions>

#include "estimators/empirical.hpp"
#include "host/backend.hpp"
#include "host/config.hpp"
#include "host/cpu_launch.hpp"
#include "host/errors.hpp"
#include "host/prepare.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kZ = 5.0;

EnsembleSpec spec_of(ModelParams params, std::uint64_t replicas, std::uint64_t length) {
  EnsembleSpec spec;
  spec.name = "models-test";
  spec.params = std::move(params);
  spec.replicas = replicas;
  spec.length = length;
  spec.dtype = Dtype::float64;
  spec.stream = 77;
  return spec;
}

EnsembleJob job_of(const EnsembleSpec& spec, std::uint64_t seed) {
  EnsembleJob job;
  job.spec = &spec;
  job.key = RngStreamKey{seed, spec.stream};
  job.storage = StorageType::float64;
  job.spectral = make_spectral_plan(spec.params, spec.length);
  return job;
}

// replicas × length float64 values through the CPU backend.
std::vector<double> generate(const EnsembleSpec& spec, std::uint64_t seed = 11) {
  const EnsembleJob job = job_of(spec, seed);
  std::vector<double> values(spec.replicas * spec.length);
  const Tally tally = make_cpu_backend()->make_generator(job, spec.replicas)->generate(0, spec.replicas, values.data());
  EXPECT_EQ(tally.saturated, 0u);
  return values;
}

struct Estimate {
  double mean = 0, se = 0;
};

// Mean and standard error of per-replica statistics.
Estimate across_replicas(const std::vector<double>& per_replica) {
  const double n = static_cast<double>(per_replica.size());
  const double mean = std::accumulate(per_replica.begin(), per_replica.end(), 0.0) / n;
  double ss = 0;
  for (double x : per_replica) ss += (x - mean) * (x - mean);
  return {mean, std::sqrt(ss / (n - 1) / n)};
}

// Unbiased sample autocovariances (known mean `mean`) at lags 0..max_lag,
// one estimate per replica.
std::vector<Estimate> autocovariances(const std::vector<double>& values, std::uint64_t replicas, std::uint64_t length,
                                      std::uint64_t max_lag, double mean = 0) {
  std::vector<Estimate> out;
  for (std::uint64_t k = 0; k <= max_lag; ++k) {
    std::vector<double> per_replica(replicas);
    for (std::uint64_t r = 0; r < replicas; ++r) {
      const double* x = values.data() + r * length;
      double sum = 0;
      for (std::uint64_t t = 0; t + k < length; ++t) sum += (x[t] - mean) * (x[t + k] - mean);
      per_replica[r] = sum / static_cast<double>(length - k);
    }
    out.push_back(across_replicas(per_replica));
  }
  return out;
}

// The fGn autocovariance from its definition in long double; beyond lag 1000,
// where the difference cancels, from its binomial series
// γ(k) = k^{2H} Σ_{j≥1} C(2H, 2j) k^{−2j}.
double fgn_gamma_reference(double H, double sigma, long k) {
  const long double kk = k, h2 = 2.0L * H;
  if (k < 1000) {
    auto p = [h2](long double x) { return std::pow(std::fabs(x), h2); };
    return static_cast<double>(sigma * sigma * 0.5L * (p(kk + 1) - 2 * p(kk) + p(kk - 1)));
  }
  long double sum = 0, binomial = 1;  // C(2H, i), built term by term
  for (int i = 1; i <= 12; ++i) {
    binomial *= (h2 - (i - 1)) / i;
    if (i % 2 == 0) sum += binomial * std::pow(kk, -static_cast<long double>(i));
  }
  return static_cast<double>(sigma * sigma * std::pow(kk, h2) * sum);
}

FgnModel fgn(double H, double sigma, bool cumulative = false) {
  FgnModel model;
  model.H = H;
  model.sigma = sigma;
  model.cumulative = cumulative;
  return model;
}

TEST(Fgn, AutocovarianceMatchesClosedForm) {
  for (double H : {0.3, 0.5, 0.9}) {
    const auto spec = spec_of(fgn(H, 1.5), 1000, 1024);
    const auto values = generate(spec);
    const auto acvf = autocovariances(values, spec.replicas, spec.length, 20);
    for (long k = 0; k <= 20; ++k) {
      const double truth = fgn_gamma_reference(H, 1.5, k);
      EXPECT_LT(std::fabs(acvf[k].mean - truth), kZ * acvf[k].se) << "H=" << H << " lag " << k << " truth " << truth;
    }
  }
}

TEST(Fgn, SharedAutocovarianceIsAccurateAtLargeLags) {
  for (double H : {0.1, 0.3, 0.7, 0.99}) {
    for (long k : {1L, 2L, 10L, 1000L, 1000000L}) {
      const double truth = fgn_gamma_reference(H, 1.0, k);
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
  const auto plan = make_spectral_plan(fgn(0.99, 1), 1000);
  for (double a : plan->amplitudes) EXPECT_TRUE(std::isfinite(a) && a >= 0);
}

TEST(Fbm, VarianceGrowsAsTToTheTwoH) {
  for (double H : {0.3, 0.8}) {
    const auto spec = spec_of(fgn(H, 2.0, true), 2000, 1000);
    const auto values = generate(spec);
    for (std::uint64_t t : {1u, 10u, 100u, 1000u}) {
      std::vector<double> squares(spec.replicas);
      for (std::uint64_t r = 0; r < spec.replicas; ++r) squares[r] = std::pow(values[r * spec.length + t - 1], 2);
      const Estimate variance = across_replicas(squares);
      const double truth = 4.0 * std::pow(static_cast<double>(t), 2 * H);
      EXPECT_LT(std::fabs(variance.mean - truth), kZ * variance.se) << "H=" << H << " t=" << t;
    }
  }
}

TEST(Norros, BinsHaveMeanLambdaBinAndVarianceALambdaBinToTheTwoH) {
  NorrosModel model;
  model.lambda = 50;
  model.a = 3;
  model.H = 0.75;
  model.bin = 2;
  const auto spec = spec_of(model, 1000, 256);
  const auto values = generate(spec);
  const double mean = model.lambda * model.bin;
  const double variance = model.a * model.lambda * std::pow(model.bin, 2 * model.H);
  std::vector<double> means(spec.replicas);
  for (std::uint64_t r = 0; r < spec.replicas; ++r) {
    means[r] = std::accumulate(values.begin() + r * spec.length, values.begin() + (r + 1) * spec.length, 0.0) /
               static_cast<double>(spec.length);
  }
  const Estimate m = across_replicas(means);
  EXPECT_LT(std::fabs(m.mean - mean), kZ * m.se);
  const auto acvf = autocovariances(values, spec.replicas, spec.length, 3, mean);
  for (long k = 0; k <= 3; ++k) {
    const double truth = variance * fgn_gamma_reference(model.H, 1.0, k);
    EXPECT_LT(std::fabs(acvf[k].mean - truth), kZ * acvf[k].se) << "lag " << k;
  }
}

FarimaModel farima(double d, std::vector<double> ar = {}, std::vector<double> ma = {}, double sigma = 1) {
  FarimaModel model;
  model.d = d;
  model.ar = std::move(ar);
  model.ma = std::move(ma);
  model.sigma = sigma;
  return model;
}

double attribute(const SpectralPlan& plan, const std::string& name) {
  for (const auto& a : plan.attributes) {
    if (a.name == name) return std::get<double>(a.value);
  }
  ADD_FAILURE() << "no attribute " << name;
  return NAN;
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
  const FarimaModel model = farima(0.3, {0.5, -0.2}, {0.4}, 1.1);
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
  for (const FarimaModel& model : {farima(0.3), farima(-0.3), farima(0.0, {0.6}, {0.3}), farima(0.25, {0.5}, {-0.3})}) {
    const auto spec = spec_of(model, 1000, 1024);
    const auto values = generate(spec);
    const auto acvf = autocovariances(values, spec.replicas, spec.length, 20);
    const auto truth = farima_autocovariance(model, 20);
    for (int k = 0; k <= 20; ++k) {
      EXPECT_LT(std::fabs(acvf[k].mean - truth[k]), kZ * acvf[k].se) << "d=" << model.d << " lag " << k;
    }
  }
}

FarimaModel stable_farima(double alpha, double beta, double d, std::int64_t truncation, double sigma) {
  FarimaModel model = farima(d, {}, {}, sigma);
  model.innovations = Innovations::stable;
  model.alpha = alpha;
  model.beta = beta;
  model.truncation = truncation;
  return model;
}

// Values truncation + 1 apart share no innovation, so they are independent
// draws of the marginal S1(α, β Σ sign(a)|a|^α / Σ|a|^α, σ‖a‖_α, 0): for
// d > 0 every a_j > 0 and the skewness stays β.
std::vector<double> independent_values(const FarimaModel& model, std::uint64_t replicas, std::uint64_t per_replica) {
  const std::uint64_t gap = static_cast<std::uint64_t>(model.truncation) + 1;
  const auto spec = spec_of(model, replicas, gap * per_replica);
  const auto values = generate(spec);
  std::vector<double> picked;
  for (std::uint64_t r = 0; r < replicas; ++r) {
    for (std::uint64_t i = 0; i < spec.length; i += gap) picked.push_back(values[r * spec.length + i]);
  }
  return picked;
}

TEST(Farima, StableInnovationsGiveTheStableMarginal) {
  const FarimaModel model = stable_farima(1.6, 0.5, 0.2, 200, 0.7);
  const auto weights = farima_ma_weights(model, 200);
  double norm = 0;
  for (double a : weights) norm += std::pow(a, model.alpha);
  const double scale = model.sigma * std::pow(norm, 1 / model.alpha);
  EXPECT_NEAR(attribute(*make_spectral_plan(model, 10), "marginal_beta"), 0.5, 1e-12);
  EXPECT_NEAR(attribute(*make_spectral_plan(model, 10), "marginal_scale"), scale, 1e-12 * scale);
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
  const FarimaModel model = stable_farima(1.2, 0.0, 0.1, 200, 1.0);
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
  const auto short_plan = make_spectral_plan(stable_farima(1.9, 0, 0.45, 100, 1), 100);
  const auto long_plan = make_spectral_plan(stable_farima(1.9, 0, 0.1, 10000, 1), 100);
  auto kept = [](const SpectralPlan& plan) { return attribute(plan, "variance_share_kept"); };
  // Independently: Σ_{j≤J} a_j² over γ(0) of the Gaussian FARIMA(0, d, 0).
  const auto weights = farima_ma_weights(farima(0.45), 100);
  double squares = 0;
  for (double a : weights) squares += a * a;
  EXPECT_NEAR(kept(*short_plan), squares / std::exp(std::lgamma(1 - 0.9) - 2 * std::lgamma(1 - 0.45)), 1e-12);
  EXPECT_LT(kept(*short_plan), 0.9);
  EXPECT_FALSE(short_plan->warning.empty());
  EXPECT_GT(kept(*long_plan), 0.999);
  EXPECT_TRUE(long_plan->warning.empty());
}

TEST(Normal, QuantilesMatchTheNormalLaw) {
  NormalModel model;
  model.mu = 3;
  model.sigma = 2;
  const auto spec = spec_of(model, 100, 5001);  // odd: the last bin of a row uses half a pair
  const SortedSample sample(generate(spec));
  for (double z : {-4.0, -3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0}) {
    const double p = 0.5 * std::erfc(-z / std::sqrt(2.0));
    EXPECT_LT(std::fabs(test::cdf_z_score(sample.cdf(model.mu + model.sigma * z), p, sample.size())), kZ) << "z=" << z;
  }
}

// Markov: runs the kernel with its optional state output.
template <class Kernel>
std::pair<std::vector<double>, std::vector<std::uint8_t>> run_chain(Kernel kernel, std::uint64_t replicas) {
  std::vector<double> values(replicas * kernel.length);
  std::vector<std::uint8_t> states(values.size());
  kernel.out = values.data();
  kernel.hidden = states.data();
  cpu_for_each(replicas, kernel);
  return {values, states};
}

// Pearson's chi-square of observed counts against expected ones (cells with
// positive expectation); cells of zero expectation must be empty.
void expect_counts_fit(const std::vector<double>& observed, const std::vector<double>& expected, const char* what) {
  double chi2 = 0;
  int cells = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    if (expected[i] == 0) {
      EXPECT_EQ(observed[i], 0.0) << what << " cell " << i;
      continue;
    }
    chi2 += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
    ++cells;
  }
  const boost::math::chi_squared law(cells - 1);
  EXPECT_LT(chi2, boost::math::quantile(law, 1 - 1e-5))
      << what << ": chi-square " << chi2 << " on " << cells - 1 << " degrees of freedom";
}

MarkovModel three_level_markov() {
  MarkovModel model;
  model.levels = {1, 10, 100};
  model.transition = {{0.9, 0.1, 0.0}, {0.3, 0.5, 0.2}, {0.0, 0.6, 0.4}};
  model.noise = {0.0, 1.0, 5.0};
  model.initial = *stationary_law(model.transition, false);
  return model;
}

TEST(Markov, TransitionFrequenciesMatchTheMatrix) {
  const MarkovModel model = three_level_markov();
  const auto spec = spec_of(model, 200, 5000);
  const auto [values, states] = run_chain(make_markov_kernel<double>(job_of(spec, 5)), spec.replicas);
  for (std::size_t i = 0; i < 3; ++i) {
    std::vector<double> observed(3, 0.0), expected(3, 0.0);
    for (std::uint64_t r = 0; r < spec.replicas; ++r) {
      for (std::uint64_t t = 1; t < spec.length; ++t) {
        if (states[r * spec.length + t - 1] == i) observed[states[r * spec.length + t]] += 1;
      }
    }
    const double from_i = std::accumulate(observed.begin(), observed.end(), 0.0);
    for (std::size_t j = 0; j < 3; ++j) expected[j] = from_i * model.transition[i][j];
    expect_counts_fit(observed, expected, "transitions");
  }
  // Within-state values: level plus N(0, noise²).
  for (std::size_t s = 0; s < 3; ++s) {
    double n = 0, sum = 0, squares = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (states[i] != s) continue;
      n += 1;
      sum += values[i] - model.levels[s];
      squares += std::pow(values[i] - model.levels[s], 2);
    }
    const double sd = model.noise[s];
    EXPECT_LE(std::fabs(sum / n), kZ * sd / std::sqrt(n)) << "state " << s;
    if (sd > 0) {
      EXPECT_NEAR(std::sqrt(squares / n), sd, kZ * sd / std::sqrt(2 * n)) << "state " << s;
    }
  }
}

TEST(Markov, StartsAndStaysInTheStationaryMix) {
  const MarkovModel model = three_level_markov();
  // π solves π P = π: (0.6, 0.2, 0.2)/… — check the solver against the balance equations too.
  const auto& pi = model.initial;
  for (std::size_t j = 0; j < 3; ++j) {
    double flow = 0;
    for (std::size_t i = 0; i < 3; ++i) flow += pi[i] * model.transition[i][j];
    EXPECT_NEAR(flow, pi[j], 1e-12);
  }
  const auto spec = spec_of(model, 20000, 50);
  const auto [values, states] = run_chain(make_markov_kernel<double>(job_of(spec, 6)), spec.replicas);
  for (std::uint64_t t : {0u, 49u}) {
    std::vector<double> observed(3, 0.0), expected(3, 0.0);
    for (std::uint64_t r = 0; r < spec.replicas; ++r) observed[states[r * spec.length + t]] += 1;
    for (std::size_t j = 0; j < 3; ++j) expected[j] = pi[j] * static_cast<double>(spec.replicas);
    expect_counts_fit(observed, expected, t == 0 ? "initial states" : "states at t = 49");
  }
}

TEST(Markov, ReducibleChainNeedsAnInitialLaw) {
  EXPECT_FALSE(stationary_law({{1, 0}, {0, 1}}, false).has_value());
  EXPECT_FALSE(stationary_law({{0, 0}, {0, 0}}, true).has_value());
  const auto pi = stationary_law({{-2, 2}, {1, -1}}, true);
  ASSERT_TRUE(pi.has_value());
  EXPECT_NEAR((*pi)[0], 1.0 / 3, 1e-12);
}

HmmModel titan_like_hmm() {
  HmmModel model;
  model.generator = {{-0.5, 0.4, 0.1}, {0.2, -0.3, 0.1}, {1.0, 2.0, -3.0}};
  model.mu = {0.0, 1.0, 3.0};
  model.sigma = {0.1, 0.25, 0.5};
  model.initial = *stationary_law(model.generator, true);
  model.interval = 0.7;
  return model;
}

TEST(Hmm, HoldingTimesAreExponentialAndJumpsFollowQ) {
  const HmmModel model = titan_like_hmm();
  const auto spec = spec_of(model, 1, 10);
  const HmmKernel<double> kernel = make_hmm_kernel<double>(job_of(spec, 7));
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
    const double rate = -model.generator[s][s], n = static_cast<double>(holding[s].size());
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
    for (int j = 0; j < 3; ++j) expected[j] = j == s ? 0.0 : total * model.generator[s][j] / rate;
    expect_counts_fit(jumps[s], expected, "jump targets");
  }
}

TEST(Hmm, ObservationsFollowExpQtOccupancyAndEmissions) {
  const HmmModel model = titan_like_hmm();
  const auto spec = spec_of(model, 400, 2000);
  const auto [values, states] = run_chain(make_hmm_kernel<double>(job_of(spec, 8)), spec.replicas);
  Eigen::Matrix3d q;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) q(i, j) = model.generator[i][j];
  }
  const Eigen::Matrix3d transition = (q * model.interval).exp();
  std::vector<std::vector<double>> observed(3, std::vector<double>(3, 0.0));
  std::vector<double> occupancy(3, 0.0);
  for (std::uint64_t r = 0; r < spec.replicas; ++r) {
    for (std::uint64_t t = 0; t < spec.length; ++t) {
      const int s = states[r * spec.length + t];
      occupancy[s] += 1;
      if (t > 0) observed[states[r * spec.length + t - 1]][s] += 1;
    }
  }
  for (int i = 0; i < 3; ++i) {
    const double from_i = std::accumulate(observed[i].begin(), observed[i].end(), 0.0);
    std::vector<double> expected(3);
    for (int j = 0; j < 3; ++j) expected[j] = from_i * transition(i, j);
    expect_counts_fit(observed[i], expected, "P(interval) = exp(Q interval)");
  }
  // Occupancy: the stationary law of Q, with a standard error from the
  // replicas' own occupancy fractions (the path is correlated in time).
  for (int s = 0; s < 3; ++s) {
    std::vector<double> fractions(spec.replicas);
    for (std::uint64_t r = 0; r < spec.replicas; ++r) {
      fractions[r] =
          static_cast<double>(std::count(states.begin() + r * spec.length, states.begin() + (r + 1) * spec.length, s)) /
          static_cast<double>(spec.length);
    }
    const Estimate share = across_replicas(fractions);
    EXPECT_LT(std::fabs(share.mean - model.initial[s]), kZ * share.se) << "state " << s;
  }
  EXPECT_NEAR(model.initial[0] * q(0, 0) + model.initial[1] * q(1, 0) + model.initial[2] * q(2, 0), 0.0, 1e-12);
  for (int s = 0; s < 3; ++s) {
    double n = 0, sum = 0, squares = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (states[i] != s) continue;
      const double x = std::log(values[i]) - model.mu[s];
      n += 1;
      sum += x;
      squares += x * x;
    }
    EXPECT_LT(std::fabs(sum / n), kZ * model.sigma[s] / std::sqrt(n)) << "log-mean of state " << s;
    EXPECT_NEAR(std::sqrt(squares / n), model.sigma[s], kZ * model.sigma[s] / std::sqrt(2 * n)) << "log-sd " << s;
  }
}

TEST(Hmm, IrregularTimesAreUsedAsGiven) {
  HmmModel model = titan_like_hmm();
  model.times = {0.0, 0.001, 0.002, 50.0, 50.001};
  const auto spec = spec_of(model, 3000, 5);
  const auto [values, states] = run_chain(make_hmm_kernel<double>(job_of(spec, 9)), spec.replicas);
  // 1 ms apart the state almost never changes (P ≤ 3e-3); 50 time units apart
  // it is nearly independent of the past.
  int same_close = 0, same_far = 0;
  for (std::uint64_t r = 0; r < spec.replicas; ++r) {
    same_close += states[r * 5] == states[r * 5 + 1];
    same_far += states[r * 5 + 2] == states[r * 5 + 3];
  }
  EXPECT_GT(same_close, 0.99 * spec.replicas);
  EXPECT_LT(same_far, 0.8 * spec.replicas);
}

// Every model: a batch split anywhere gives the same values.
TEST(Models, ResultsDoNotDependOnBatchBoundaries) {
  MarkovModel markov = three_level_markov();
  HmmModel hmm = titan_like_hmm();
  NormalModel normal;
  for (const ModelParams& params :
       std::vector<ModelParams>{fgn(0.7, 1), fgn(0.3, 1, true), NorrosModel{}, farima(0.2, {0.3}),
                                stable_farima(1.5, 0.2, 0.1, 50, 1), normal, markov, hmm}) {
    auto spec = spec_of(params, 7, 101);
    const EnsembleJob job = job_of(spec, 3);
    auto generator = make_cpu_backend()->make_generator(job, 7);
    std::vector<double> whole(7 * 101), parts(7 * 101);
    generator->generate(0, 7, whole.data());
    generator->generate(0, 3, parts.data());
    generator->generate(3, 4, parts.data() + 3 * 101);
    EXPECT_EQ(whole, parts) << model_name(params);
  }
}

void expect_config_error(const std::string& model, const std::string& params, const std::string& expected,
                         const std::string& extra = "") {
  const std::string text = "output: out.h5\nensembles:\n  - name: x\n    model: " + model + "\n    params: {" + params +
                           "}\n    replicas: 2\n    length: " + (extra.empty() ? "10" : extra) + "\n";
  try {
    parse_config(text, "models.yaml");
    ADD_FAILURE() << "no error for " << params;
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("models.yaml:"), std::string::npos) << e.what();
  }
}

TEST(Models, BadParametersAreLocatedUserErrors) {
  expect_config_error("fgn", "H: 1.2", "H = 1.2 is out of range; accepted: 0 < H < 1");
  expect_config_error("norros", "lambda: 10, H: 0.8", "missing the required key 'a'");
  expect_config_error("farima", "d: 0.6", "accepted: -0.5 < d < 0.5");
  expect_config_error("farima", "d: 0.3, innovations: stable, alpha: 1.2", "1 - 1/alpha = 0.166667");
  expect_config_error("farima", "d: 0.1, alpha: 1.5", "applies only with innovations: stable");
  expect_config_error("farima", "d: 0.1, ar: [1.2]", "is not stationary");
  expect_config_error("markov", "levels: [1, 2], transition: [[0.5, 0.4], [0.5, 0.5]]",
                      "transition[0] = [0.5, 0.4] sums to 0.9");
  expect_config_error("markov", "levels: [1, 2], transition: [[0.5, 0.5]]", "must be a list of 2 rows");
  expect_config_error("markov", "levels: [1, 2], transition: [[1, 0], [0, 1]]", "give the initial law");
  expect_config_error("hmm", "generator: [[-1, 1], [1, 1]], mu: [0, 0], sigma: [1, 1]", "is not a generator row");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0], sigma: [1, 1]", "one per state (2)");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], times: [0, 2, 1]",
                      "observation times must increase strictly");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], times: [0, 1, 2]", "length = 3",
                      "5");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], interval: 1, times: [0]",
                      "give the observation times one way");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], interval: 1, times: dataset",
                      "give the observation times one way");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], times: trace",
                      "= 'trace' is not accepted; accepted: a list of times or 'dataset'");
  // `times: dataset` parses; the run fills the times from the dataset (tests/cli_test.sh).
  const RunConfig config = parse_config(
      "output: o.h5\nensembles:\n  - {name: h, model: hmm, params: {generator: [[-1, 1], [1, -1]], mu: [0, 1], "
      "sigma: [1, 1], times: dataset}, replicas: 2, length: 3}\n",
      "models.yaml");
  const auto& hmm = std::get<HmmModel>(config.ensembles[0].params);
  EXPECT_TRUE(hmm.times_from_dataset);
  EXPECT_TRUE(hmm.times.empty());
}

TEST(Models, TimesFileIsReadRelativeToTheConfig) {
  test::TempDir dir;
  test::write_file(dir.path("times.txt"), "# seconds\n0.5\n1.25\n\n4 # late\n");
  test::write_file(dir.path("run.yaml"),
                   "output: o.h5\nensembles:\n  - {name: h, model: hmm, params: {generator: "
                   "[[-1, 1], [1, -1]], mu: [0, 1], sigma: [1, 1], times_file: times.txt}, "
                   "replicas: 2, length: 3}\n");
  const RunConfig config = load_config(dir.path("run.yaml"));
  EXPECT_EQ(std::get<HmmModel>(config.ensembles[0].params).times, (std::vector<double>{0.5, 1.25, 4}));
  test::write_file(dir.path("times.txt"), "0.5\n0.4\n");
  try {
    load_config(dir.path("run.yaml"));
    ADD_FAILURE() << "decreasing times accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("times.txt:2:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gs
