// The α-stable (and LFSN) fit on every shipped real trace at two bin widths
// (issue: fits you can trust on real traces): ln L is possible (counts are
// fitted as rounded values, whose probabilities are at most 1, so ln L ≤ 0; a
// density's ln L ≤ n ln(max f), with max f ≤ Γ(1 + 1/α)/(πσ)), the estimates do not depend on the seed, and
// an estimate on a bound of the search or without standard errors is never
// called "ok". The traces are those of tests/data (README there).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "estimators/model_fit.hpp"
#include "estimators/stable_fit.hpp"
#include "estimators/stable_law.hpp"
#include "host/models/fit.hpp"
#include "io/series_source.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

struct RealTrace {
  std::string file, format, bin;
  bool header;
  std::string column;  // timestamps: the time column
};

void PrintTo(const RealTrace& t, std::ostream* os) { *os << t.file << " (" << t.format << ", " << t.bin << ")"; }

RealTrace trace(std::string file, std::string format, std::string bin, bool header = false, std::string column = "") {
  return {std::move(file), std::move(format), std::move(bin), header, std::move(column)};
}

LoadedSeries load(const RealTrace& t) {
  SeriesSource source;
  source.traces = {test::data_path(t.file)};
  source.trace.format = t.format;
  source.trace.header = t.header;
  if (!t.column.empty()) source.trace.time_column = t.column;
  source.bin = t.bin;
  return read_series(source);
}

// Every fitted model of `models` on the series, with the seed given.
std::vector<FittedModel> fitted(const LoadedSeries& s, std::uint64_t seed, const std::vector<std::string>& models) {
  FitData data(s.series, s.trace.kind != Trace::Kind::series, s.binned.bin_width, s.trace.series_times, {}, seed);
  return fit_models(data, models);
}

double number(const FittedModel& r, const char* key) { return r.fit[key].as<double>(); }

// Whether an estimate of the α-stable law lies on a bound of the search
// (α = 0.1 or 2, |β| = 1) or lacks a standard error.
bool on_a_bound(const FittedModel& r) {
  const double alpha = number(r, "alpha"), beta = number(r, "beta");
  bool missing_se = false;
  for (const char* se : {"alpha_se", "beta_se", "sigma_se", "mu_S1_se"})
    missing_se = missing_se || !std::isfinite(number(r, se));
  return alpha <= 0.11 || alpha >= 2.0 - 1e-12 || std::fabs(beta) >= 1.0 - 1e-12 || missing_se;
}

class StableFitOnRealTraces : public ::testing::TestWithParam<RealTrace> {};

TEST_P(StableFitOnRealTraces, LogLikelihoodIsPossibleAndBoundsAreNamed) {
  const LoadedSeries s = load(GetParam());
  ASSERT_GE(s.series.size(), 20u);
  const std::vector<FittedModel> models = fitted(s, 1, {"stable", "lfsn"});
  const FittedModel& stable = models[0];
  if (!stable.invalid.empty()) {  // stopped only with the reason: an atom no continuous law has
    EXPECT_NE(stable.invalid.find("an atom a continuous law cannot have"), std::string::npos) << stable.invalid;
    std::printf("  %s %s: stopped: %s\n", GetParam().file.c_str(), GetParam().bin.c_str(), stable.invalid.c_str());
    return;
  }
  const double log_l = number(stable, "log_likelihood"), n = static_cast<double>(s.series.size());
  const bool rounded = stable.fit["likelihood"].as<std::string>().rfind("rounded", 0) == 0;
  bool whole = true;
  for (double v : s.series) whole = whole && v == std::round(v);
  EXPECT_EQ(rounded, whole) << "whole numbers are fitted as rounded values, and only they";
  if (rounded) {
    EXPECT_LE(log_l, 0.0) << "probabilities of rounded values are at most 1";
  } else {
    // f ≤ (1/2π)∫|φ(t)| dt = Γ(1 + 1/α)/(π σ) for every α-stable law.
    const double alpha = number(stable, "alpha"), sigma = number(stable, "sigma");
    EXPECT_LE(log_l, n * (std::lgamma(1 + 1 / alpha) - std::log(kPi * sigma)));
  }
  EXPECT_EQ(std::string(validity_of(stable)), on_a_bound(stable) ? "boundary" : "ok")
      << "alpha " << number(stable, "alpha") << ", beta " << number(stable, "beta");
  if (on_a_bound(stable)) {
    EXPECT_FALSE(stable.boundary.empty());
  }
  // LFSN: the same marginal law, called the same.
  const FittedModel& lfsn = models[1];
  if (lfsn.invalid.empty()) {
    EXPECT_EQ(number(lfsn, "log_likelihood"), log_l);
    EXPECT_EQ(std::string(validity_of(lfsn)), validity_of(stable));
  }
  RecordProperty("fit", stable.estimates + " " + stable.statistic + " " + validity_of(stable));
  std::printf("  %s %s: %s %s [%s]\n", GetParam().file.c_str(), GetParam().bin.c_str(), stable.estimates.c_str(),
              stable.statistic.c_str(), validity_of(stable));
}

INSTANTIATE_TEST_SUITE_P(Shipped, StableFitOnRealTraces,
                         ::testing::Values(trace("nonmpi_dxt_anonymized.dxt.txt.gz", "dxt", "10ms"),
                                           trace("nonmpi_dxt_anonymized.dxt.txt.gz", "dxt", "100ms"),
                                           trace("dxt.dxt.txt.gz", "dxt", "1s"), trace("dxt.dxt.txt.gz", "dxt", "10s"),
                                           trace("dxt.parser.txt.gz", "darshan", "1s"),
                                           trace("dxt.parser.txt.gz", "darshan", "10s"),
                                           trace("loop0_blk.txt.gz", "blkparse", "10ms"),
                                           trace("loop0_blk.txt.gz", "blkparse", "100ms"),
                                           trace("mqsim_tpcc_small.disksim.gz", "disksim", "10s"),
                                           trace("mqsim_tpcc_small.disksim.gz", "disksim", "100s"),
                                           trace("cloudphysics_per_second.counts", "counts", "1s"),
                                           trace("cloudphysics_vscsi.csv.gz", "timestamps", "10s", true, "time"),
                                           trace("atlas10k_latency_2000.series.gz", "series", "")),
                         [](const auto& info) {
                           std::string name = info.param.file.substr(0, info.param.file.find('.')) + "_" +
                                              info.param.format + "_" +
                                              (info.param.bin.empty() ? "values" : info.param.bin);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// The seed feeds only the start's bootstrap: the same estimates, bit for bit,
// for seeds 1 and 2 (the dithering of counts it once fed is gone).
TEST(StableFitOnRealTraces, SameEstimatesForAnySeed) {
  for (const RealTrace& t : {trace("nonmpi_dxt_anonymized.dxt.txt.gz", "dxt", "10ms"),
                             trace("atlas10k_latency_2000.series.gz", "series", "")}) {
    const LoadedSeries s = load(t);
    const FittedModel one = fitted(s, 1, {"stable"}).front(), two = fitted(s, 2, {"stable"}).front();
    for (const char* key : {"alpha", "beta", "sigma", "mu_S1", "log_likelihood"})
      EXPECT_EQ(number(one, key), number(two, key)) << t.file << " " << t.bin << " " << key;
  }
}

// Continuous series: draws whose estimates lie near the edge of a skewed law's
// support (α ≤ 0.6, β = ±1; scipy's levy_stable.rvs) and the Edison per-file
// write times (real). The ln L at stored parameters equals the sum of an
// independent density (mpmath, tests/data/stable_loglik_reference.csv, made
// by scripts/make_stable_loglik_reference.py) to 1e-6 relative, far inside the
// 0.5 or 2e-4 that scipy and R stabledist disagree by; the fit's ln L is that of
// its own estimates and at least that of the true law and of the stored estimates.
StableLawParams s1_law(double alpha, double beta, double sigma, double mu) {
  return {alpha, beta, sigma, mu, StableParameterization::S1};
}

LoadedSeries load_values(const std::string& file) {
  SeriesSource source;
  source.traces = {test::data_path(file)};
  source.trace.format = "values";
  if (file.find(".tsv") != std::string::npos) {
    source.trace.header = true;
    source.trace.value_column = "posix_f_write_time_s";
  }
  return read_series(source);
}

TEST(StableFitOnContinuousSeries, LogLikelihoodMatchesAnIndependentDensityAndBeatsTheTruth) {
  const auto table = test::read_csv(test::data_path("stable_loglik_reference.csv"));
  const auto ifile = table.column("file"), ilabel = table.column("label"), ia = table.column("alpha"),
             ib = table.column("beta"), is = table.column("sigma"), im = table.column("mu"), in = table.column("n"),
             il = table.column("log_likelihood");
  std::map<std::string, double> best_reference;  // the largest reference ln L of each file
  for (const auto& row : table.rows) {
    const LoadedSeries s = load_values(row[ifile]);
    ASSERT_EQ(s.series.size(), std::stoul(row[in])) << row[ifile];
    const StableLawParams law = s1_law(std::stod(row[ia]), std::stod(row[ib]), std::stod(row[is]), std::stod(row[im]));
    const double reference = std::stod(row[il]);
    EXPECT_NEAR(stable_log_likelihood(s.series, law), reference, 1e-6 * std::fabs(reference))
        << row[ifile] << " at the " << row[ilabel];
    auto [at, fresh] = best_reference.emplace(row[ifile], reference);
    if (!fresh) at->second = std::max(at->second, reference);
  }
  ASSERT_EQ(best_reference.size(), 3u);
  for (const auto& [file, reference] : best_reference) {
    const LoadedSeries s = load_values(file);
    const FittedModel fit = fitted(s, 1, {"stable"}).front();
    ASSERT_TRUE(fit.invalid.empty()) << file << ": " << fit.invalid;
    const double log_l = number(fit, "log_likelihood");
    EXPECT_EQ(fit.fit["likelihood"].as<std::string>().rfind("density", 0), 0u) << file;
    const StableLawParams estimates =
        s1_law(number(fit, "alpha"), number(fit, "beta"), number(fit, "sigma"), number(fit, "mu_S1"));
    EXPECT_NEAR(log_l, stable_log_likelihood(s.series, estimates), 1e-6 * std::fabs(log_l)) << file;
    // The simplex stops within about 1e-7 relative of its optimum.
    EXPECT_GE(log_l, reference - 1e-6 * std::fabs(reference)) << file;
    std::printf("  %s: %s %s [%s]; best stored ln L %.6f\n", file.c_str(), fit.estimates.c_str(), fit.statistic.c_str(),
                validity_of(fit), reference);
  }
}

// Counts (issue 61): nonmpi_dxt_anonymized per 100 ms (n 264, 42 % zeros),
// whose fitted law's support edge μ1 lies 0.0009 below the zero bin's lower
// end. The fit reaches ln L ≥ −1185.15 (the best optimum that mpmath, scipy
// and R stabledist found: −1185.1459 at σ 1.10; before, −1187.37 at σ 1.37,
// the tables' far tail 7 % off beyond their reach), and its ln L is the
// independent one (tests/data/stable_rounded_loglik_reference.csv, mpmath at
// 30 digits at the estimates stored there): each ln P off by at most
// 2·1e-10/P (stable_log_probability's bound), summed over the values.
TEST(StableFitOnCounts, NonmpiPer100msReachesTheOptimumWithTheIndependentLogLikelihood) {
  const LoadedSeries s = load(trace("nonmpi_dxt_anonymized.dxt.txt.gz", "dxt", "100ms"));
  SeriesSource stored;
  stored.traces = {test::data_path("nonmpi_dxt_anonymized_100ms.counts")};
  stored.trace.format = "values";
  ASSERT_EQ(s.series, read_series(stored).series) << "the counts the reference was computed on";
  const auto table = test::read_csv(test::data_path("stable_rounded_loglik_reference.csv"));
  ASSERT_EQ(table.rows.size(), 1u);
  const auto& row = table.rows[0];
  const StableLawParams stored_estimates =
      s1_law(std::stod(row[table.column("alpha")]), std::stod(row[table.column("beta")]),
             std::stod(row[table.column("sigma")]), std::stod(row[table.column("mu")]));
  const double reference = std::stod(row[table.column("log_likelihood")]);
  double bound = 0;
  for (double k : s.series) bound += 2e-10 / std::exp(stable_log_probability(k - 0.5, k + 0.5, stored_estimates));
  EXPECT_NEAR(stable_log_likelihood(s.series, stored_estimates, StableLikelihood::rounded), reference, bound);

  const FittedModel fit = fitted(s, 1, {"stable"}).front();
  const double log_l = number(fit, "log_likelihood");
  EXPECT_GE(log_l, -1185.15);
  EXPECT_GE(log_l, reference - bound) << "the fit stops at least where the stored estimates are";
  const StableLawParams estimates =
      s1_law(number(fit, "alpha"), number(fit, "beta"), number(fit, "sigma"), number(fit, "mu_S1"));
  EXPECT_EQ(log_l, stable_log_likelihood(s.series, estimates, StableLikelihood::rounded));
  // The stored estimates are the fit's (the reference is at the reported estimates); the simplex
  // stops within 5e-4 in α, far inside its SE (0.014).
  EXPECT_NEAR(estimates.alpha, stored_estimates.alpha, 5e-4);
  EXPECT_NEAR(estimates.sigma, stored_estimates.sigma, 5e-3);
  std::printf("  nonmpi per 100 ms: %s %s; mpmath at the stored estimates %.10f (bound %.1e)\n", fit.estimates.c_str(),
              fit.statistic.c_str(), reference, bound);
}

// Standard errors (issue 61): the observed information measures ln L's
// curvature at the maximum only. On nonmpi per 100 ms ln L bends sharply there
// (the support's edge next to the zero bin) and flattens further out: the
// 95 % profile-likelihood intervals are 16× (σ) and 4.6× (α) wider than the
// information says (the issue: a numerical Hessian with wider steps, 16× and
// 6×), and the fit reports the profile's with "profile". On CloudPhysics per
// second (n 7201, ln L close to quadratic) the two agree within 5 % (the
// profile interval's asymmetry is O(n^−½)) and the fit reports the information's.
double se_ratio(const FittedModel& fit, const std::string& name) {
  return number(fit, (name + "_se").c_str()) / number(fit, (name + "_se_information").c_str());
}
std::string se_from(const FittedModel& fit, const std::string& name) {
  return fit.fit[name + "_se_from"].as<std::string>().substr(0, 7);
}
double profile_half_width(const FittedModel& fit, const std::string& name) {
  const YAML::Node interval = fit.fit[name + "_profile_95"];
  return (interval[1].as<double>() - interval[0].as<double>()) / (2 * 1.959963984540054);
}

TEST(StableFitStandardErrors, ProfileIntervalWhereTheInformationIsFarTooNarrow) {
  const FittedModel fit =
      fitted(load(trace("nonmpi_dxt_anonymized.dxt.txt.gz", "dxt", "100ms")), 1, {"stable"}).front();
  EXPECT_EQ(se_from(fit, "sigma"), "profile");
  EXPECT_EQ(se_from(fit, "alpha"), "profile");
  EXPECT_GT(se_ratio(fit, "sigma"), 10.0);
  EXPECT_GT(se_ratio(fit, "alpha"), 3.0);
  EXPECT_EQ(number(fit, "sigma_se"), profile_half_width(fit, "sigma"));
  EXPECT_NE(fit.estimates.find("(profile)"), std::string::npos) << fit.estimates;
  std::printf("  nonmpi per 100 ms: %s; alpha 95 %% [%.4g, %.4g]\n", fit.estimates.c_str(),
              fit.fit["alpha_profile_95"][0].as<double>(), fit.fit["alpha_profile_95"][1].as<double>());
}

TEST(StableFitStandardErrors, InformationWhereTheLikelihoodIsNearlyQuadratic) {
  const FittedModel fit = fitted(load(trace("cloudphysics_per_second.counts", "counts", "1s")), 1, {"stable"}).front();
  EXPECT_EQ(se_from(fit, "alpha"), "informa");
  EXPECT_EQ(number(fit, "alpha_se"), number(fit, "alpha_se_information"));
  for (const std::string name : {"alpha", "sigma", "mu_S1"})
    EXPECT_NEAR(profile_half_width(fit, name) / number(fit, (name + "_se_information").c_str()), 1.0, 0.05) << name;
  std::printf("  cloudphysics per second: %s\n", fit.estimates.c_str());
}

// FARIMA(2, d, 2), the order BIC picks for CloudPhysics per second: the Whittle search stops at its budget on
// the ridge of AR and MA roots that nearly cancel (besides d on its bound), and the reason says what to try.
TEST(FarimaFitRealTraces, AnUnconvergedSearchSaysWhatToTry) {
  const FarimaFit fit = fit_farima(load(trace("cloudphysics_per_second.counts", "counts", "1s")).series, 2, 2);
  EXPECT_FALSE(fit.converged);
  EXPECT_NE(fit.boundary.find("the Whittle search stopped before it converged (5000 evaluations): AR and MA terms "
                              "whose roots nearly cancel make a ridge; try smaller --farima-p/--farima-q"),
            std::string::npos)
      << fit.boundary;
}

}  // namespace
}  // namespace gs
