// The Chambers–Mallows–Stuck sampler of kernels/stable.hpp against independent
// references: J. P. Nolan's tables (S1 body, S0 tails, scale/location), closed
// forms (Gaussian, Cauchy, Lévy), a long-double textbook transform, and the
// corners where popular samplers fail (α = 1 with β ≠ 0, β = ±1, α → 1 in S0).
// Tolerances: empirical CDFs are binomial; |z| < 5 per point (about 6e-7
// two-sided each, so a few thousand points stay below 1e-3 family-wise).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <vector>

#include "estimators/empirical.hpp"
#include "host/engine/plan.hpp"
#include "kernels/stable.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

using test::cdf_z_score;
using test::draw_stable;

constexpr double kMaxZ = 5.0;

StableLawParams law(double alpha, double beta, StableParameterization p = StableParameterization::S1, double sigma = 1,
                    double mu = 0) {
  StableLawParams params;
  params.alpha = alpha;
  params.beta = beta;
  params.sigma = sigma;
  params.mu = mu;
  params.parameterization = p;
  return params;
}

// Weron's form of CMS, standard law, in long double: accurate away from the
// edges of V and from α = 1 in S0, which is where it is used here.
long double textbook_cms(long double a, long double b, long double V, long double W, bool s0) {
  const long double pi = 3.14159265358979323846264338327950288L;
  if (a == 1)
    return 2 / pi * ((pi / 2 + b * V) * std::tan(V) - b * std::log(pi / 2 * W * std::cos(V) / (pi / 2 + b * V)));
  const long double t = std::tan(pi * a / 2);
  const long double B = std::atan(b * t) / a;
  // exp(y log x) rather than powl, which is slow and no more accurate here.
  const auto power = [](long double x, long double y) { return std::exp(y * std::log(x)); };
  const long double S = power(1 + b * b * t * t, 1 / (2 * a));
  const long double x =
      S * std::sin(a * (V + B)) / power(std::cos(V), 1 / a) * power(std::cos(V - a * (V + B)) / W, (1 - a) / a);
  return s0 ? x - b * t : x;
}

TEST(StableSampler, MatchesLongDoubleTextbookTransform) {
  test::on_each_cpu_path([&] {
    double worst_float = 0;
    for (double a : {0.3, 0.5, 0.8, 0.95, 1.0, 1.05, 1.3, 1.5, 1.9, 1.99}) {
      for (double b : {-1.0, -0.7, -0.2, 0.0, 0.3, 0.9, 1.0}) {
        for (auto p : {StableParameterization::S1, StableParameterization::S0}) {
          const auto sd = test::on_cpu_path(make_stable_sampler<double>(law(a, b, p)));
          const auto sf = test::on_cpu_path(make_stable_sampler<float>(law(a, b, p)));
          const RngStreamKey key{404, 4};
          for (std::uint64_t j = 0; j < 500; ++j) {
            const PhiloxBits words = philox_bits(key, 0, j, 0);
            // Keep u away from the edges, where the textbook form itself loses precision.
            const std::uint32_t kv = 0x01000000u + words[0] % 0xfe000000u, kw = 0x00100000u + words[1] % 0xfef00000u;
            {
              const long double V = 3.14159265358979323846264338327950288L * ((kv + 0.5L) / 4294967296.0L - 0.5L);
              const long double W = -std::log((kw + 0.5L) / 4294967296.0L);
              const double ref = static_cast<double>(textbook_cms(a, b, V, W, p == StableParameterization::S0));
              const double scale = 1 + std::fabs(ref);
              ASSERT_NEAR(sd(kv, kw), ref, 1e-10 * scale)
                  << "alpha=" << a << " beta=" << b << " kv=" << kv << " kw=" << kw;
              ASSERT_NEAR(sf(kv, kw), ref, 2e-5 * scale)
                  << "alpha=" << a << " beta=" << b << " kv=" << kv << " kw=" << kw;
              worst_float = std::max(worst_float, std::fabs(sf(kv, kw) - ref) / scale);
            }
          }
        }
      }
    }
    RecordProperty("worst_float_relative_error", std::to_string(worst_float));
  });
}

// Nolan's S1 table: for each (α, β), 10^5 draws; at each tabulated x the
// empirical CDF must match Nolan's. S0 draws are compared at x − β tan(πα/2).
template <class Real>
void check_nolan_s1_table(StableParameterization parameterization) {
  const auto table = test::read_csv(test::data_path("stable_cdf_S1.csv"));
  const auto ia = table.column("alpha"), ib = table.column("beta"), ix = table.column("x"), ic = table.column("cdf");
  std::map<std::pair<double, double>, std::vector<std::pair<double, double>>> groups;
  for (const auto& row : table.rows) {
    groups[{std::stod(row[ia]), std::stod(row[ib])}].push_back({std::stod(row[ix]), std::stod(row[ic])});
  }
  ASSERT_EQ(groups.size(), 9u * 21u);
  const std::size_t n = 100000;
  double sum_z2 = 0;
  std::size_t points = 0;
  std::uint32_t stream = 1000;
  for (const auto& [ab, rows] : groups) {
    const auto [alpha, beta] = ab;
    const double shift =
        parameterization == StableParameterization::S0 && alpha != 1 ? beta * std::tan(kPi * alpha / 2) : 0.0;
    const SortedSample sample(draw_stable<Real>(law(alpha, beta, parameterization), n, 7, stream++));
    for (const auto& [x, cdf] : rows) {
      const double z = cdf_z_score(sample.cdf(x - shift), cdf, n);
      EXPECT_LT(std::fabs(z), kMaxZ) << "alpha=" << alpha << " beta=" << beta << " x=" << x << " cdf=" << cdf;
      sum_z2 += z * z;
      ++points;
    }
  }
  // Averaged over ~2000 points, z² must be near 1: a small systematic bias that
  // no single point shows would push it up.
  EXPECT_LT(sum_z2 / static_cast<double>(points), 1.5);
}

TEST(StableSampler, NolanS1TableDouble) {
  test::on_each_cpu_path([&] { check_nolan_s1_table<double>(StableParameterization::S1); });
}
TEST(StableSampler, NolanS1TableFloat) {
  test::on_each_cpu_path([&] { check_nolan_s1_table<float>(StableParameterization::S1); });
}
TEST(StableSampler, NolanS1TableShiftedToS0Double) {
  test::on_each_cpu_path([&] { check_nolan_s1_table<double>(StableParameterization::S0); });
}
TEST(StableSampler, NolanS1TableShiftedToS0Float) {
  test::on_each_cpu_path([&] { check_nolan_s1_table<float>(StableParameterization::S0); });
}

template <class Real>
void check_loc_scale_table() {
  const auto table = test::read_csv(test::data_path("stable_loc_scale.csv"));
  const auto ip = table.column("param"), ia = table.column("alpha"), ib = table.column("beta"),
             is = table.column("scale"), il = table.column("loc"), ix = table.column("x"), ic = table.column("cdf");
  std::map<std::tuple<std::string, double, double>, std::vector<std::pair<double, double>>> groups;
  double scale = 0, loc = 0;
  for (const auto& row : table.rows) {
    groups[{row[ip], std::stod(row[ia]), std::stod(row[ib])}].push_back({std::stod(row[ix]), std::stod(row[ic])});
    scale = std::stod(row[is]);
    loc = std::stod(row[il]);
  }
  ASSERT_EQ(groups.size(), 18u);
  const std::size_t n = 100000;
  std::uint32_t stream = 3000;
  for (const auto& [key, rows] : groups) {
    const auto& [param, alpha, beta] = key;
    const auto p = param == "S0" ? StableParameterization::S0 : StableParameterization::S1;
    const SortedSample sample(draw_stable<Real>(law(alpha, beta, p, scale, loc), n, 11, stream++));
    for (const auto& [x, cdf] : rows) {
      EXPECT_LT(std::fabs(cdf_z_score(sample.cdf(x), cdf, n)), kMaxZ)
          << param << " alpha=" << alpha << " beta=" << beta << " x=" << x << " cdf=" << cdf;
    }
  }
}

TEST(StableSampler, NolanScaleAndLocationBothParameterizationsDouble) {
  test::on_each_cpu_path([&] { check_loc_scale_table<double>(); });
}
TEST(StableSampler, NolanScaleAndLocationBothParameterizationsFloat) {
  test::on_each_cpu_path([&] { check_loc_scale_table<float>(); });
}

// Kolmogorov–Smirnov distance to an exact CDF; sqrt(n)·D < 2.69 has
// probability 1 − 1e-6 under the null hypothesis.
template <class Cdf>
double ks_distance(const SortedSample& sample, Cdf cdf) {
  const auto& v = sample.values();
  const double n = static_cast<double>(v.size());
  double d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, std::fabs(f - static_cast<double>(i) / n), std::fabs(static_cast<double>(i + 1) / n - f)});
  }
  return d;
}

template <class Real>
void check_closed_forms() {
  const std::size_t n = 100000;
  const double limit = 2.69 / std::sqrt(static_cast<double>(n));
  const double sigma = 2, mu = 3;
  for (auto p : {StableParameterization::S1, StableParameterization::S0}) {
    // α = 2: Gaussian with mean μ and variance 2σ², whatever β.
    for (double beta : {0.0, 1.0, -0.4}) {
      const SortedSample gauss(draw_stable<Real>(law(2, beta, p, sigma, mu), n, 21, 1));
      EXPECT_LT(ks_distance(gauss, [&](double x) { return 0.5 * std::erfc(-(x - mu) / (2 * sigma)); }), limit);
    }
    // α = 1, β = 0: Cauchy with scale σ and median μ.
    const SortedSample cauchy(draw_stable<Real>(law(1, 0, p, sigma, mu), n, 22, 1));
    EXPECT_LT(ks_distance(cauchy, [&](double x) { return 0.5 + std::atan((x - mu) / sigma) / kPi; }), limit);
    // α = 1/2, β = 1: Lévy; in S1 its support starts at μ, in S0 at μ − σ tan(π/4).
    const double start = p == StableParameterization::S1 ? mu : mu - sigma;
    const SortedSample levy(draw_stable<Real>(law(0.5, 1, p, sigma, mu), n, 23, 1));
    EXPECT_GE(levy.values().front(), start);
    EXPECT_LT(
        ks_distance(levy, [&](double x) { return x <= start ? 0.0 : std::erfc(std::sqrt(sigma / (2 * (x - start)))); }),
        limit);
    // The mirrored Lévy (β = −1) ends at −start + 2μ.
    const SortedSample mirrored(draw_stable<Real>(law(0.5, -1, p, sigma, mu), n, 24, 1));
    EXPECT_LE(mirrored.values().back(), 2 * mu - start);
  }
  // Sample variance at α = 2 (S1 = S0): 2σ² = 8 with a standard error of 8·sqrt(2/n).
  const auto values = draw_stable<Real>(law(2, 0, StableParameterization::S1, sigma, mu), n, 25, 1);
  double mean = 0, m2 = 0;
  for (double x : values) mean += x;
  mean /= static_cast<double>(n);
  for (double x : values) m2 += (x - mean) * (x - mean);
  EXPECT_NEAR(m2 / static_cast<double>(n - 1), 8.0, 5 * 8.0 * std::sqrt(2.0 / static_cast<double>(n)));
}

TEST(StableSampler, ClosedFormsGaussianCauchyLevyDouble) {
  test::on_each_cpu_path([&] { check_closed_forms<double>(); });
}
TEST(StableSampler, ClosedFormsGaussianCauchyLevyFloat) {
  test::on_each_cpu_path([&] { check_closed_forms<float>(); });
}

// Nolan's S0 quantile table out to p = 1e-4 and 1 − 1e-4, for β ∈ {−1, 0, 0.5, 1}
// (β < 0 by the table's symmetry x(α, −β, p) = −x(α, β, 1 − p)): 2·10^6 draws
// give ~200 values below the 1e-4 quantile.
template <class Real>
void check_s0_tails() {
  auto groups = test::nolan_s0_quantiles();
  for (auto& [ab, points] : groups) {  // p from 1e-4 to 1 − 1e-4 here
    points.erase(std::remove_if(
                     points.begin(), points.end(),
                     [](const auto& point) { return point.second < 1e-4 - 1e-12 || point.second > 1 - 1e-4 + 1e-12; }),
                 points.end());
  }
  ASSERT_EQ(groups.size(), 8u * 4u);
  const std::size_t n = 2000000;
  std::uint32_t stream = 5000;
  for (const auto& [ab, rows] : groups) {
    const auto [alpha, beta] = ab;
    const SortedSample sample(draw_stable<Real>(law(alpha, beta, StableParameterization::S0), n, 31, stream++));
    int failures = 0;
    for (const auto& [x, p] : rows) {
      const double z = cdf_z_score(sample.cdf(x), p, n);
      if (std::fabs(z) >= kMaxZ && failures++ < 5) {
        ADD_FAILURE() << "alpha=" << alpha << " beta=" << beta << " p=" << p << " x=" << x << " F_n=" << sample.cdf(x)
                      << " z=" << z;
      }
    }
  }
}

TEST(StableSampler, NolanS0TailsDouble) {
  test::on_each_cpu_path([&] { check_s0_tails<double>(); });
}
TEST(StableSampler, NolanS0TailsFloat) {
  test::on_each_cpu_path([&] { check_s0_tails<float>(); });
}

// S0 is continuous in α: with the same words, draws at α = 1 ± ε approach the
// α = 1 draw at rate ε. (scipy 1.10's sampler is off by 13 at ε = 1e-9.)
template <class Real>
double max_jump_at_alpha_one(double eps, double beta) {
  const auto at_one = test::on_cpu_path(make_stable_sampler<Real>(law(1.0, beta, StableParameterization::S0)));
  const auto near_one = test::on_cpu_path(make_stable_sampler<Real>(law(1.0 + eps, beta, StableParameterization::S0)));
  double worst = 0;
  const RngStreamKey key{99, 1};
  for (std::uint64_t j = 0; j < 100000; ++j) {
    const PhiloxBits w = philox_bits(key, 0, j, 0);
    for (int half = 0; half < 2; ++half) {
      const double z1 = static_cast<double>(at_one(w[2 * half], w[2 * half + 1]));
      const double z = static_cast<double>(near_one(w[2 * half], w[2 * half + 1]));
      worst = std::max(worst, std::fabs(z - z1) / (1 + std::fabs(z1)));
    }
  }
  return worst;
}

TEST(StableSampler, S0IsContinuousThroughAlphaOne) {
  test::on_each_cpu_path([&] {
    for (double beta : {-1.0, -0.3, 0.5, 1.0}) {
      for (double eps : {1e-6, -1e-6, 1e-9, -1e-9, 1e-12, -1e-12}) {
        // The derivative in α of a draw grows like log² of its size; 200·|ε| covers it.
        EXPECT_LT(max_jump_at_alpha_one<double>(eps, beta), 200 * std::fabs(eps) + 1e-13)
            << "beta=" << beta << " eps=" << eps;
      }
      for (double eps : {1e-3, -1e-3, 1e-5, -1e-5}) {
        // float adds its own rounding, ~1e-6 relative (FloatComputeAgreesWithDouble).
        EXPECT_LT(max_jump_at_alpha_one<float>(eps, beta), 200 * std::fabs(eps) + 1e-5)
            << "beta=" << beta << " eps=" << eps;
      }
    }
  });
}

// float32 ensembles compute in float: the same words must give the double
// result to float precision everywhere, tails and α → 1 included.
TEST(StableSampler, FloatComputeAgreesWithDouble) {
  test::on_each_cpu_path([&] {
    const RngStreamKey key{77, 3};
    for (double alpha : {0.3, 0.5, 0.8, 0.999, 1.0, 1.00001, 1.2, 1.5, 1.8, 1.99, 2.0}) {
      for (double beta : {-1.0, -0.4, 0.0, 0.7, 1.0}) {
        for (auto p : {StableParameterization::S0, StableParameterization::S1}) {
          const auto sd = test::on_cpu_path(make_stable_sampler<double>(law(alpha, beta, p)));
          const auto sf = test::on_cpu_path(make_stable_sampler<float>(law(alpha, beta, p)));
          double worst = 0;
          for (std::uint64_t j = 0; j < 20000; ++j) {
            const PhiloxBits w = philox_bits(key, 0, j, 0);
            for (int h = 0; h < 2; ++h) {
              const double zd = sd(w[2 * h], w[2 * h + 1]);
              const double zf = sf(w[2 * h], w[2 * h + 1]);
              if (std::isinf(zf)) continue;  // float overflow is saturated and counted downstream
              worst = std::max(worst, std::fabs(zf - zd) / (1 + std::fabs(zd)));
            }
          }
          EXPECT_LT(worst, 1e-5) << "alpha=" << alpha << " beta=" << beta;
        }
      }
    }
  });
}

TEST(StableSampler, CornersNeverGiveNaN) {
  test::on_each_cpu_path([&] {
    const std::uint32_t words[] = {0u,          1u,          2u,          0x3fffffffu, 0x7fffffffu, 0x80000000u,
                                   0x80000001u, 0xc0000000u, 0xfffffffdu, 0xfffffffeu, 0xffffffffu};
    for (double alpha : {0.1, 0.5, 0.7, 0.9999, 1.0, 1.0001, 1.3, 1.5, 1.9999, 2.0}) {
      for (double beta : {-1.0, -0.5, 0.0, 0.5, 1.0}) {
        for (auto p : {StableParameterization::S0, StableParameterization::S1}) {
          const auto sd = test::on_cpu_path(make_stable_sampler<double>(law(alpha, beta, p)));
          const auto sf = test::on_cpu_path(make_stable_sampler<float>(law(alpha, beta, p)));
          for (std::uint32_t kv : words) {
            for (std::uint32_t kw : words) {
              const double zd = sd(kv, kw);
              const float zf = sf(kv, kw);
              ASSERT_FALSE(std::isnan(zd)) << alpha << " " << beta << " " << kv << " " << kw;
              ASSERT_FALSE(std::isnan(zf)) << alpha << " " << beta << " " << kv << " " << kw;
              if (alpha >= 0.5) {
                ASSERT_TRUE(std::isfinite(zd)) << alpha << " " << beta << " " << kv << " " << kw;
              }
              if (alpha >= 1.0) {
                ASSERT_TRUE(std::isfinite(zf)) << alpha << " " << beta << " " << kv << " " << kw;
              }
            }
          }
        }
      }
    }
  });
}

TEST(StableSampler, TotallySkewedLawsRespectTheirSupport) {
  test::on_each_cpu_path([&] {
    // S1, α < 1, β = 1: support [0, ∞); β = −1: (−∞, 0]. Words at both edges.
    for (double alpha : {0.3, 0.6, 0.9}) {
      const auto up = test::on_cpu_path(make_stable_sampler<double>(law(alpha, 1.0)));
      const auto down = test::on_cpu_path(make_stable_sampler<double>(law(alpha, -1.0)));
      const RngStreamKey key{5, 5};
      for (std::uint64_t j = 0; j < 20000; ++j) {
        const PhiloxBits w = philox_bits(key, 0, j, 0);
        EXPECT_GE(up(w[0], w[1]), 0.0);
        EXPECT_LE(down(w[0], w[1]), 0.0);
      }
      EXPECT_GE(up(0u, 0xffffffffu), 0.0);
      EXPECT_GE(up(0xffffffffu, 0u), 0.0);
    }
  });
}

// α = 2 has a kernel of its own (StableDraws<Real, true>: the GPU compiles it
// without the other branches); its values are the general kernel's, bit for bit.
template <class Real>
void expect_gaussian_kernel_gives_the_general_kernels_values() {
  const std::uint64_t length = 20001;
  for (double beta : {0.0, 0.4, -1.0}) {
    const StableLawParams gaussian = law(2.0, beta, StableParameterization::S1, 1.7, -3.0);
    const EnsembleJob job = make_job(test::ensemble("stable", fmt::format("{{alpha: 2, beta: {}, sigma: 1.7, mu: -3}}", beta),
                                                    3, length, std::is_same<Real, float>::value ? Dtype::float32 : Dtype::float64),
                                     11);
    using Out = Real;
    const auto* own = job.generation.direct->template as<PairsKernel<StableDraws<Real, true>, Out>>();
    ASSERT_NE(own, nullptr) << "the stable model's kernel at alpha = 2 is not the Gaussian one";
    StablePairsKernel<Real, Out> general;
    general.draws.law = make_stable_sampler<Real>(gaussian);
    general.key = own->key;
    general.map = own->map;
    general.length = own->length;
    general.pairs_per_row = own->pairs_per_row;
    test::on_each_cpu_path([&] {
      std::vector<Out> expected(3 * length), got(3 * length, Out(-1));
      general.out = expected.data();
      cpu_for_each(3, general, test::context().lane_form());
      job.generation.direct->run_on_host(0, 3, got.data(), nullptr, test::context().lane_form());
      ASSERT_EQ(std::memcmp(expected.data(), got.data(), expected.size() * sizeof(Out)), 0) << "beta " << beta;
    });
  }
}

TEST(StableSampler, GaussianKernelGivesTheGeneralKernelsValues) {
  expect_gaussian_kernel_gives_the_general_kernels_values<float>();
  expect_gaussian_kernel_gives_the_general_kernels_values<double>();
}

}  // namespace
}  // namespace gs
