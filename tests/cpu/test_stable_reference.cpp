// The α-stable density and distribution function against an independent
// reference, and the likelihood tables against the density (issue: fits you
// can trust on real traces). The reference (tests/data/stable_reference_S0.csv
// and _S1.csv, made by scripts/make_stable_reference.py with mpmath at 40
// digits, checked against closed forms, Fourier inversion and Nolan's tables;
// its header says how) covers α ∈ [0.1, 2] with α within 5e-4 of 1, every
// sign of β, and points within 1e-3 of the edge of a skewed law's support,
// where the density falls far below the double range (its logarithm is kept).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "estimators/stable_law.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr double kLogTiny = -690.7755;  // ln 1e-300
constexpr double kRelative = 1e-6;      // the accuracy held: relative in f (absolute in ln f)

// strtod, not stod: a dozen tail probabilities are subnormal (about 1e-308),
// which stod refuses.
double parse(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

// ln f: within 1e-6 where f > 1e-300 (relative 1e-6 in f), within 1e-6 of
// |ln f| below (the density in logarithms), −∞ where the reference says f = 0.
void expect_log_density(double mine, double reference, const std::string& where) {
  if (reference == -std::numeric_limits<double>::infinity()) {
    EXPECT_EQ(mine, reference) << where;
  } else if (reference > kLogTiny) {
    EXPECT_NEAR(mine, reference, kRelative) << where;
  } else {
    EXPECT_NEAR(mine, reference, kRelative * std::fabs(reference)) << where;
  }
}

// F or 1 − F, whichever is smaller, relative 1e-6 where above 1e-300.
void expect_tail(double mine, double reference, const std::string& where) {
  if (!(reference > 1e-300) || reference > 0.5) return;
  EXPECT_NEAR(mine, reference, kRelative * reference) << where;
}

TEST(StableDensity, MatchesIndependentReferenceInS0) {
  const auto table = test::read_csv(test::data_path("stable_reference_S0.csv"));
  const auto ia = table.column("alpha"), ib = table.column("beta"), ix = table.column("x"),
             il = table.column("log_pdf"), ic = table.column("cdf"), is = table.column("sf");
  std::size_t below_double = 0, outside = 0;
  double worst = 0;
  for (const auto& row : table.rows) {
    const double alpha = parse(row[ia]), beta = parse(row[ib]), x = parse(row[ix]);
    const std::string where = "alpha=" + row[ia] + " beta=" + row[ib] + " x=" + row[ix];
    const double reference = parse(row[il]);
    const double mine = stable_log_pdf_s0(x, alpha, beta);
    expect_log_density(mine, reference, where);
    if (std::isfinite(reference) && reference > kLogTiny) worst = std::max(worst, std::fabs(mine - reference));
    below_double += std::isfinite(reference) && reference <= kLogTiny;
    outside += !std::isfinite(reference);
    expect_tail(stable_cdf_s0(x, alpha, beta), parse(row[ic]), where + " cdf");
    expect_tail(stable_sf_s0(x, alpha, beta), parse(row[is]), where + " sf");
  }
  // The grid reaches where it must: below the double range and outside the support.
  EXPECT_GT(below_double, 10u);
  EXPECT_GT(outside, 10u);
  RecordProperty("worst_abs_log_error", std::to_string(worst));
  std::printf("  %zu points, %zu below 1e-300, %zu outside the support; worst |d ln f| %.3g\n", table.rows.size(),
              below_double, outside, worst);
}

TEST(StableDensity, MatchesIndependentReferenceInS1WithScaleAndLocation) {
  const auto table = test::read_csv(test::data_path("stable_reference_S1.csv"));
  const auto ia = table.column("alpha"), ib = table.column("beta"), isg = table.column("sigma"),
             imu = table.column("mu"), ix = table.column("x"), il = table.column("log_pdf"), ic = table.column("cdf");
  for (const auto& row : table.rows) {
    const StableLawParams law{parse(row[ia]), parse(row[ib]), parse(row[isg]), parse(row[imu]),
                              StableParameterization::S1};
    const double x = parse(row[ix]);
    const std::string where =
        "S1 alpha=" + row[ia] + " beta=" + row[ib] + " sigma=" + row[isg] + " mu=" + row[imu] + " x=" + row[ix];
    expect_log_density(stable_log_pdf(x, law), parse(row[il]), where);
    const double cdf = parse(row[ic]);
    expect_tail(stable_cdf(x, law), cdf, where + " cdf");
  }
}

// The likelihood tables against the density they interpolate, on dense grids
// across each law and within 1e-4 of ζ, for laws that stress them: the edge
// of a skewed law's support (α < 1, β = ±1), |β| near 1 (a kink where the
// light side meets the other side's mass), α near 1 (ζ far away, the edge a
// wall), α near 2. Where ln f > −30 (where any datum of a fit that holds
// lies) within 2e-6 + 1e-6 |ln f|; down to −500 within 1e-4 |ln f|; below,
// the table says below −250 (no datum there is possible either way). The
// tables' total mass is 1 within 1e-7, and their distribution function the
// direct one within 1e-6 relative in ln F.
TEST(StableDensity, LogDensityTableMatchesTheDensityEverywhere) {
  struct Case {
    double alpha, beta;
  };
  double worst = 0;
  for (const Case c : {Case{0.3, 1.0}, Case{0.5, -1.0}, Case{0.5, 0.999}, Case{0.7, 0.4}, Case{0.9, 1.0},
                       Case{0.95, 0.999}, Case{0.99, 0.5}, Case{1.0, 1.0}, Case{1.0, -0.3}, Case{1.01, 0.99},
                       Case{1.3, 1.0}, Case{1.5, 0.0}, Case{1.8, -0.999}, Case{1.95, 1.0}, Case{2.0, 0.0},
                       Case{0.999, 0.9}, Case{1 - 1e-7, 1.0}, Case{0.9999, -1.0}}) {
    constexpr double kReach = 200;  // the table holds |z| ≤ kReach; beyond it only continues
    const StableLogDensityTable table(c.alpha, c.beta, kReach);
    const double zeta = c.alpha == 1.0 ? 0.0 : -c.beta * std::tan(kPi * c.alpha / 2);
    const std::string law = "alpha=" + std::to_string(c.alpha) + " beta=" + std::to_string(c.beta);
    for (int i = -300; i <= 300; ++i) {
      const double near = zeta + std::copysign(std::pow(10.0, -4 + 6.0 * std::abs(i) / 300.0), i);
      for (const double z : {near, 150.0 * i / 300.0 + 0.013}) {
        if (std::fabs(z) > kReach) continue;  // ζ lies beyond the table for α near 1
        const double exact = stable_log_pdf_s0(z, c.alpha, c.beta), mine = table(z);
        const std::string where = law + " z=" + std::to_string(z);
        if (exact > -30) {
          EXPECT_NEAR(mine, exact, 2e-6 + 1e-6 * std::fabs(exact)) << where;
          worst = std::max(worst, std::fabs(mine - exact));
        } else if (exact > -500) {
          EXPECT_NEAR(mine, exact, 1e-4 * std::fabs(exact)) << where;
        } else {
          EXPECT_LT(mine, -250) << where;
        }
      }
    }
    EXPECT_NEAR(table.log_probability(-INFINITY, INFINITY), 0.0, 1e-7) << law;
    for (const double z : {zeta - 3, zeta - 0.5, zeta + 0.5, zeta + 3, -20.0, 20.0}) {
      if (std::fabs(z) > kReach) continue;
      const double f = stable_cdf_s0(z, c.alpha, c.beta), s = stable_sf_s0(z, c.alpha, c.beta);
      if (f > 1e-200 && f <= 0.5) {
        EXPECT_NEAR(table.log_probability(-INFINITY, z), std::log(f), 1e-6 * std::max(1.0, -std::log(f)))
            << law << " F(" << z << ")";
      }
      if (s > 1e-200 && s < 0.5) {
        EXPECT_NEAR(table.log_probability(z, INFINITY), std::log(s), 1e-6 * std::max(1.0, -std::log(s)))
            << law << " S(" << z << ")";
      }
    }
  }
  RecordProperty("worst_abs_log_error_above_minus_30", std::to_string(worst));
}

// ln P(a < X < b), the likelihood of a rounded value, at the points where a
// difference of distribution functions is hard (issue 61): an end at μ (the
// support's edge for α < 1, |β| = 1), the mode inside, both ends far in a
// tail, a narrow interval. tests/data/stable_interval_reference.csv (mpmath at
// 30 digits; scripts/make_stable_loglik_reference.py intervals). The law's
// own stable_log_probability: each F or 1 − F holds 1e-10 relative (the
// quadrature's tolerance), so ln P is off by at most 2·1e-10·scale/P (scale:
// the larger term of the difference), and the series is exact to 1e-13. The
// likelihood table with the fit's smallest reach (50), so that the far tails
// lie beyond its nodes: its ln f holds 1e-6 (1 + |ln f|) (the refinement's
// tolerance), hence ln P within that at the interval's smaller density.
TEST(StableIntervalProbability, MatchesIndependentReferenceWhereTheDifferenceIsHard) {
  const auto table = test::read_csv(test::data_path("stable_interval_reference.csv"));
  const auto il = table.column("label"), ia = table.column("alpha"), ib = table.column("beta"),
             is = table.column("sigma"), im = table.column("mu"), ilo = table.column("a"), ihi = table.column("b"),
             ip = table.column("log_probability"), iscale = table.column("scale");
  ASSERT_GE(table.rows.size(), 17u);
  for (const auto& row : table.rows) {
    const StableLawParams law{parse(row[ia]), parse(row[ib]), parse(row[is]), parse(row[im]),
                              StableParameterization::S1};
    const double a = parse(row[ilo]), b = parse(row[ihi]), reference = parse(row[ip]);
    const double quadrature = 2e-10 * parse(row[iscale]) / std::exp(reference) + 1e-13;
    EXPECT_NEAR(stable_log_probability(a, b, law), reference, quadrature) << row[il];
    const StableLawParams s0 = to_s0(law);
    const StableLogDensityTable tabulated(law.alpha, law.beta, 50);
    const double za = (a - s0.mu) / s0.sigma, zb = (b - s0.mu) / s0.sigma;
    const double worst_log_f = std::min(tabulated(za), tabulated(zb));
    const double interpolation = 1e-6 * (1 + std::fabs(std::isfinite(worst_log_f) ? worst_log_f : 0.0));
    EXPECT_NEAR(tabulated.log_probability(za, zb), reference, interpolation) << row[il] << " (table)";
  }
}

}  // namespace
}  // namespace gs
