// Burst detection, features and Algorithm 1 of the Darshan burst paper
// (estimators/burst_statistics.hpp) against closed forms and a case solved by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "estimators/burst_analysis.hpp"
#include "estimators/burst_statistics.hpp"
#include "estimators/series.hpp"
#include "host/base/errors.hpp"
#include "kernels/gaussian.hpp"
#include "kernels/philox.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

std::vector<double> distinct_values(std::size_t n, std::uint64_t seed) {
  std::vector<double> x(n);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = std::exp(static_cast<double>(state >> 11) * 0x1.0p-53 * 6) + 1e-9 * static_cast<double>(i);
  }
  return x;
}

// With distinct values exactly ⌊0.01·n⌋ bins exceed the chosen threshold, for several n.
TEST(Bursts, ShareThresholdMakesExactlyTheShare) {
  for (std::size_t n : {100u, 999u, 1000u, 28800u}) {
    const std::vector<double> x = distinct_values(n, n);
    const BurstThreshold t = burst_threshold_for_share(x, 0.01);
    const auto above = std::count_if(x.begin(), x.end(), [&](double v) { return v > t.threshold; });
    EXPECT_EQ(static_cast<std::size_t>(above), n / 100) << n;
    EXPECT_NEAR(t.mean + t.k * t.sigma, t.threshold, 1e-12 * std::abs(t.threshold));
  }
}

// mean + k·σ (population σ) against a long-double two-pass reference, to 1e-12.
TEST(Bursts, GivenKIsMeanPlusKSigma) {
  const std::vector<double> x = distinct_values(5000, 7);
  long double sum = 0, squares = 0;
  for (double v : x) sum += v;
  const long double mean = sum / x.size();
  for (double v : x) squares += (v - mean) * (v - mean);
  const long double sigma = std::sqrt(squares / x.size());
  for (double k : {0.5, 1.23, 4.5}) {
    const BurstThreshold t = burst_threshold_for_k(x, k);
    EXPECT_NEAR(t.threshold, static_cast<double>(mean + k * sigma), 1e-12 * static_cast<double>(mean + k * sigma));
  }
}

// Every channel takes the estimators' range (estimators/series.hpp): finite
// values below 1e150 / n in magnitude (beyond, σ's sum of squares and the
// standardized features could overflow: a fuzzed series of 1e169s reached
// average precision with NaN scores). The bound itself and non-finite values
// are refused, naming the channel and the bin; the largest value below the
// bound is analysed, and its figures are those of the series scaled down by
// 2^460 (the analysis is scale-free).
TEST(Bursts, ValuesBeyondTheRangeAreRefusedNamingTheBin) {
  std::vector<double> x = distinct_values(400, 3);
  const double bound = kMaxSeriesScale / static_cast<double>(x.size());
  const auto refused = [](const auto& call, const std::string& expected) {
    try {
      call();
      ADD_FAILURE() << "no error; expected one with: " << expected;
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  BurstAnalysisOptions options;
  options.horizons = {1};
  options.prediction.resamples = 0;
  options.features = FeatureSet::fs3_bytes;
  for (const double bad : {bound, -bound, std::numeric_limits<double>::infinity(), std::nan("")}) {
    std::vector<double> y = x;
    y[7] = bad;
    SCOPED_TRACE(bad);
    refused([&] { burst_threshold_for_k(y, 1); }, "the series: value ");
    refused([&] { burst_threshold_for_k(y, 1); }, " at index 7 is ");
    refused([&] { burst_threshold_for_share(y, 0.01); },
            std::isfinite(bad) ? "accepted: |value| < 1e150 / 400 values" : "is not a finite number");
    refused([&] { burst_features(BurstChannels{y, {}, {}}, FeatureSet::fs3_bytes, 5); }, "the bytes channel: value");
    refused([&] { burst_features(BurstChannels{x, y, x}, FeatureSet::fs2, 5); }, "the operations channel: value");
    refused([&] { burst_features(BurstChannels{x, x, y}, FeatureSet::fs3, 5); }, "the I/O time channel: value");
  }
  const double top = *std::max_element(x.begin(), x.end());
  const double largest = std::nextafter(bound, 0.0);
  std::vector<double> large(x.size()), small(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    large[i] = x[i] / top * largest;
    small[i] = std::ldexp(large[i], -460);
  }
  ASSERT_EQ(*std::max_element(large.begin(), large.end()), largest);
  const BurstAnalysis at_the_bound = analyse_bursts(BurstChannels{large, {}, {}}, options, {}, false);
  const BurstAnalysis scaled = analyse_bursts(BurstChannels{small, {}, {}}, options, {}, false);
  EXPECT_EQ(at_the_bound.severity, scaled.severity);
  EXPECT_EQ(at_the_bound.horizons[0].predictors.back().scores.f1, scaled.horizons[0].predictors.back().scores.f1);
  EXPECT_EQ(at_the_bound.horizons[0].predictors.back().average_precision,
            scaled.horizons[0].predictors.back().average_precision);
}

TEST(Bursts, SeverityClassesRunsAndHistogram) {
  // 100 values: 96 zeros and the bursts 1 2 3 4 in two runs; mean 0.1, σ known.
  std::vector<double> x(100, 0.0);
  x[10] = 1;
  x[11] = 2;
  x[50] = 3;
  x[51] = 4;
  // mean 0.1, σ = √0.29 = 0.5385; k = 1: threshold 0.6385, mean + 10σ = 5.485, ranges of
  // 0.9693: 1 → class 1, 2 → 2, 3 → 3, 4 → 4.
  const BurstThreshold t = burst_threshold_for_k(x, 1.0);
  EXPECT_NEAR(t.sigma, std::sqrt(0.29), 1e-15);
  const std::vector<int> s = burst_severity(x, t);
  EXPECT_EQ((std::vector<int>{s[10], s[11], s[50], s[51]}), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(std::count(s.begin(), s.end(), 0), 96);
  BurstThreshold above = t;
  above.threshold = t.mean + 11 * t.sigma;  // at or past mean + 10σ: every burst is class 6
  std::vector<double> y = x;
  y[51] = 7;
  EXPECT_EQ(burst_severity(y, above)[51], 6);
  EXPECT_EQ(burst_run_lengths(s), (std::vector<std::size_t>{2, 2}));
  const std::vector<std::uint64_t> h = sigma_histogram(x);
  EXPECT_EQ(h.size(), 100u);
  EXPECT_EQ(std::accumulate(h.begin(), h.end(), std::uint64_t{0}), 100u);
  // The zeros lie at −mean/σ: bin ⌊(z + 10)/0.2⌋.
  EXPECT_EQ(h[static_cast<std::size_t>(std::floor((-t.mean / t.sigma + 10) / 0.2))], 96u);
}

// A step from 0 to 1 at bin s: E_t = 1 − (1 − α)^(t − s + 1) for t ≥ s, α = 2/(n + 1).
TEST(Bursts, EmaAndMacdOfAStep) {
  std::vector<double> x(200, 0.0);
  const std::size_t step = 20;
  std::fill(x.begin() + step, x.end(), 1.0);
  const double fast = 12, slow = 26;  // the paper's 60 and 130 minutes in 5-minute bins
  const auto closed = [&](double n, std::size_t t) {
    return t < step ? 0.0 : 1 - std::pow(1 - 2 / (n + 1), static_cast<double>(t - step + 1));
  };
  const std::vector<double> e = exponential_moving_average(x, fast);
  const std::vector<double> m = macd(x, fast, slow);
  for (std::size_t t = 0; t < x.size(); ++t) {
    EXPECT_NEAR(e[t], closed(fast, t), 1e-14) << t;
    EXPECT_NEAR(m[t], closed(fast, t) - closed(slow, t), 1e-14) << t;
  }
}

// The case by hand: bins of 300 s, min 600 s, max 1800 s, bursts in the
// first three bins. A burst bin does 100 s of work, a free one 300 s.
TEST(Bursts, AlgorithmOneOnAHandSolvedCase) {
  std::vector<int> pattern(24, 0);
  pattern[0] = pattern[1] = pattern[2] = 1;
  const BurstAwareStart now = burst_aware_start(pattern, 300, 600, 1800, 1.0);
  EXPECT_EQ(now.start, 0u);
  EXPECT_EQ(now.delay, 0.0);
  EXPECT_EQ(now.runtime, 1200.0);  // 100 + 100 + 100 + 300
  const BurstAwareStart wait = burst_aware_start(pattern, 300, 600, 1800, 0.0);
  EXPECT_EQ(wait.start, 3u);
  EXPECT_EQ(wait.delay, 900.0);
  EXPECT_EQ(wait.runtime, 600.0);
  // α = 0.5: starting at once scores 600, waiting 750: start at once.
  EXPECT_EQ(burst_aware_start(pattern, 300, 600, 1800, 0.5).start, 0u);
  // The printed 1-based numbering counts the first bin as waited.
  BurstAwareOptions printed;
  printed.one_based = true;
  const BurstAwareStart one = burst_aware_start(pattern, 300, 600, 1800, 1.0, printed);
  EXPECT_EQ(one.start, 1u);
  EXPECT_EQ(one.delay, 300.0);
  EXPECT_EQ(one.runtime, 1200.0);
  EXPECT_NE(test::error_of([&] { burst_aware_start(pattern, 300, 600, 500, 1.0); }).find("min_time <= max_time"),
            std::string::npos);
}

// FS3 in 5-minute bins: the 60-minute EMA is the 12-bin one; row t never
// changes when later bins do (no look-ahead).
TEST(Bursts, FeatureSetsLookOnlyBack) {
  BurstChannels c;
  for (int t = 0; t < 400; ++t) {
    c.bytes.push_back(std::sin(t * 0.1) + 2);
    c.operations.push_back(t % 7);
    c.io_time.push_back(0.01 * t);
  }
  EXPECT_EQ(burst_features(c, FeatureSet::fs1, 5).names, (std::vector<std::string>{"bytes"}));
  const FeatureMatrix fs3 = burst_features(c, FeatureSet::fs3, 5);
  ASSERT_EQ(fs3.names.size(), 9u);
  EXPECT_EQ(fs3.names[3], "ema_60min");
  const std::vector<double> ema12 = exponential_moving_average(c.bytes, 12);
  const std::vector<double> macd_long = macd(c.bytes, 100, 200);
  for (std::size_t t = 0; t < 400; ++t) {
    EXPECT_EQ(fs3.at(t, 3), ema12[t]);
    EXPECT_EQ(fs3.at(t, 8), macd_long[t]);
  }
  BurstChannels later = c;
  for (std::size_t t = 200; t < 400; ++t) later.bytes[t] = later.operations[t] = later.io_time[t] = 1e6;
  const FeatureMatrix changed = burst_features(later, FeatureSet::fs3, 5);
  for (std::size_t t = 0; t < 200; ++t)
    for (std::size_t k = 0; k < fs3.names.size(); ++k) EXPECT_EQ(changed.at(t, k), fs3.at(t, k)) << t << " " << k;
  c.io_time.pop_back();
  EXPECT_NE(test::error_of([&] { burst_features(c, FeatureSet::fs2, 5); }).find("FS2/FS3"), std::string::npos);
}

TEST(Bursts, Baselines) {
  const std::vector<int> severity = {0, 1, 1, 0, 0, 2, 0, 0};
  const std::vector<int> labels = burst_labels(severity, 1, BurstLabel::at);  // 1 1 0 0 1 0 0
  const std::vector<int> persistence = persistence_predictions(severity, labels.size());
  EXPECT_EQ(persistence, (std::vector<int>{0, 1, 1, 0, 0, 1, 0}));
  EXPECT_DOUBLE_EQ(binary_scores(labels, persistence).f1, 1.0 / 3);  // 1 hit, 2 false, 2 missed
  // Climatology: one constant score, so its average precision is the share of bursts.
  EXPECT_DOUBLE_EQ(average_precision(labels, std::vector<double>(labels.size(), 0.1)), 3.0 / 7);
}

// n rows of y ~ Bernoulli(σ(−2 + 1.5·x1 − 0.8·x2)), x1 ~ N(0, 1), x2 ~ N(5, 2²) (Philox normals).
struct LogisticSample {
  FeatureMatrix features;
  std::vector<int> y;
  std::vector<std::size_t> rows;
};
constexpr double kLogisticTruth[3] = {-2.0, 1.5, -0.8};

LogisticSample logistic_sample(std::size_t n) {
  LogisticSample s;
  s.features.names = {"x1", "x2"};
  s.features.rows = n;
  s.y.resize(n);
  s.rows.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto bits = philox_bits({42, 7}, 0, i, 0);
    const auto z = normal_pair<double>(bits[0], bits[1], bits[2]);
    const double x1 = z.first, x2 = 5 + 2 * z.second;
    s.features.values.push_back(x1);
    s.features.values.push_back(x2);
    const double p = 1 / (1 + std::exp(-(kLogisticTruth[0] + kLogisticTruth[1] * x1 + kLogisticTruth[2] * x2)));
    s.y[i] = uniform_open(bits[3]) < p;
    s.rows[i] = i;
  }
  return s;
}

// Every coefficient within 4 standard errors of the truth; the standard
// errors those of the Fisher information Σ p(1 − p)·x·xᵀ at the coefficients,
// summed and inverted in long double on the original scale (3 × 3, by
// cofactors), to 1e-9.
TEST(Bursts, LogisticRegressionRecoversKnownCoefficients) {
  const LogisticSample s = logistic_sample(20000);
  const LogisticModel model = fit_logistic(s.features, s.y, s.rows, 0.0);
  ASSERT_EQ(model.coefficients.size(), 3u);
  const std::vector<double> errors = logistic_standard_errors(s.features, s.y, s.rows, model, 0.0);
  long double information[3][3] = {};
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    const long double x[3] = {1, s.features.at(i, 0), s.features.at(i, 1)};
    long double eta = 0;
    for (int k = 0; k < 3; ++k) eta += model.coefficients[k] * x[k];
    const long double p = 1 / (1 + std::exp(-eta));
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) information[j][k] += p * (1 - p) * x[j] * x[k];
  }
  const auto& a = information;
  const long double determinant = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                                  a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                                  a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  const long double diagonal_cofactors[3] = {a[1][1] * a[2][2] - a[1][2] * a[2][1],
                                             a[0][0] * a[2][2] - a[0][2] * a[2][0],
                                             a[0][0] * a[1][1] - a[0][1] * a[1][0]};
  for (int k = 0; k < 3; ++k) {
    const double reference = static_cast<double>(std::sqrt(diagonal_cofactors[k] / determinant));
    EXPECT_NEAR(errors[k], reference, 1e-9 * reference) << k;
    EXPECT_NEAR(model.coefficients[k], kLogisticTruth[k], 4 * errors[k]) << k;
    EXPECT_LT(errors[k], 0.2) << k;
  }
  EXPECT_LT(model.iterations, 30);
  const double p0 = model.probability(s.features, 0);
  EXPECT_GT(p0, 0.0);
  EXPECT_LT(p0, 1.0);
}

// The maximum itself, checked apart from how it is computed: at the returned
// coefficients (l2 = 0) the score Σ x_ik·(y_i − p_i), summed in long double on
// the original scale, vanishes for every column k (x_0 = 1). Newton stops after
// a step below 1e-10 on the standardized scale, so what is left of the score
// is about n·max p(1−p)·1e-10 ≈ 5e-7, against Σ|x_ik| ≈ 2e4 to 1e5; the bound
// 1e-9 of Σ|x_ik| leaves room for rounding. 20003 rows: not a multiple of the
// four partial sums, so the last rows' lanes are in the test too.
TEST(Bursts, LogisticFitSolvesTheScoreEquations) {
  const LogisticSample s = logistic_sample(20003);
  const LogisticModel model = fit_logistic(s.features, s.y, s.rows, 0.0);
  long double score[3] = {0, 0, 0}, size[3] = {0, 0, 0}, log_likelihood = 0;
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    const long double x[3] = {1, s.features.at(i, 0), s.features.at(i, 1)};
    long double eta = 0;
    for (int k = 0; k < 3; ++k) eta += model.coefficients[k] * x[k];
    const long double residual = s.y[i] - 1 / (1 + std::exp(-eta));
    log_likelihood += s.y[i] * eta - std::log1p(std::exp(eta));
    for (int k = 0; k < 3; ++k) {
      score[k] += x[k] * residual;
      size[k] += std::fabs(x[k]);
    }
  }
  for (int k = 0; k < 3; ++k) EXPECT_LT(std::fabs(static_cast<double>(score[k] / size[k])), 1e-9) << k;
  // The maximum's log-likelihood as the fit summed it (logs of 16-row products), against long double
  // row by row at the returned coefficients (which hold it to their own rounding, ~1e-12 relative).
  EXPECT_NEAR(model.log_likelihood, static_cast<double>(log_likelihood), 1e-10 * std::fabs(model.log_likelihood));
}

// A warm start (a fit on 70 % of the rows, carried onto all rows' means and
// deviations) reaches the maximum of a cold start in fewer steps; started at
// the maximum itself, the first step is already below the stopping size.
TEST(Bursts, LogisticWarmStartReachesTheSameMaximum) {
  const LogisticSample s = logistic_sample(20000);
  const std::vector<std::size_t> first(s.rows.begin(), s.rows.begin() + 14000);
  const LogisticModel part = fit_logistic(s.features, s.y, first);
  const LogisticModel cold = fit_logistic(s.features, s.y, s.rows);
  const LogisticModel warm = fit_logistic(s.features, s.y, s.rows, kLogisticRidge, &part);
  const LogisticModel again = fit_logistic(s.features, s.y, s.rows, kLogisticRidge, &cold);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(warm.coefficients[k], cold.coefficients[k], 1e-9 * std::max(1.0, std::fabs(cold.coefficients[k])));
  EXPECT_LT(warm.iterations, cold.iterations);
  EXPECT_LE(again.iterations, 1);
}

// Separable classes (bursts at x in [1, 2], the rest in [-2, -1]): the ridge of
// 1e-8·rows holds the maximum where the score of the margin rows balances it,
// a standardized slope of about 18 (margin 1/sd = 0.65): the margin rows at
// about exp(−0.65·18) ≈ 1e-5 from their class, every row within 1e-4. Newton's
// full steps overshoot here; the safeguarded ones converge; `converged` is
// what the iteration count says.
TEST(Bursts, LogisticFitOnSeparableClassesConvergesAndSeparates) {
  FeatureMatrix m;
  m.names = {"x"};
  const std::size_t n = 2000;
  m.rows = n;
  std::vector<int> y(n);
  std::vector<std::size_t> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = i % 2;
    m.values.push_back((y[i] ? 1.0 : -1.0) * (1 + static_cast<double>(i) / n));
    rows[i] = i;
  }
  const LogisticModel fit = fit_logistic(m, y, rows);
  EXPECT_TRUE(fit.converged) << fit.iterations << " steps";
  EXPECT_EQ(fit.converged, fit.iterations <= kLogisticIterations);
  for (std::size_t i : {0u, 1u, 1998u, 1999u}) EXPECT_NEAR(fit.probability(m, i), y[i], 1e-4) << i;
  // Here every row's log(1 + e) is tiny (e below 1e-4): the fit's log-likelihood keeps their digits
  // (summed as Π(1 + e) − 1, never forming 1 + e), against long double row by row.
  long double log_likelihood = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double eta = fit.coefficients[0] + fit.coefficients[1] * m.values[i];
    log_likelihood += y[i] * eta - (std::max(eta, 0.0L) + std::log1p(std::exp(-std::fabs(eta))));
  }
  std::printf("separable: log-likelihood %.17g, long double %.17Lg\n", fit.log_likelihood, log_likelihood);
  EXPECT_NEAR(fit.log_likelihood, static_cast<double>(log_likelihood), 1e-12 * std::fabs(fit.log_likelihood));
}

// Over windows with a burst: a perfect predictor with α = 0 never runs longer
// than starting at once (α = 1); a predictor that never sees a burst starts at
// once and realizes α = 1's runtimes.
TEST(Bursts, SchedulingOverWindows) {
  std::vector<int> realized(100, 0);
  for (std::size_t i : {10u, 11u, 12u, 40u, 41u, 70u}) realized[i] = 1;
  ScheduleOptions options;
  options.alphas = {1, 0.5, 0};
  const std::vector<std::size_t> windows = burst_windows(realized, 0, options);
  // Windows of 24 bins with a burst, and room for the slowest job (6 bins) after the last option.
  for (std::size_t w = 0; w <= 100; ++w) {
    bool burst = false;
    for (std::size_t k = w; k < std::min<std::size_t>(w + 24, 100); ++k) burst = burst || realized[k];
    const bool listed = std::find(windows.begin(), windows.end(), w) != windows.end();
    EXPECT_EQ(listed, burst && w + 24 + 6 <= 100) << w;
  }
  const auto observed = [&](std::size_t w) {
    return std::vector<int>(realized.begin() + static_cast<std::ptrdiff_t>(w),
                            realized.begin() + static_cast<std::ptrdiff_t>(w + 24));
  };
  const auto perfect = schedule_windows(windows, observed, realized, options);
  ASSERT_EQ(perfect.size(), 3u);
  for (std::size_t w = 0; w < windows.size(); ++w) {
    EXPECT_EQ(perfect[0].delay[w], 0.0);
    EXPECT_LE(perfect[2].runtime[w], perfect[0].runtime[w]);
    EXPECT_EQ(perfect[2].runtime[w], 600.0);  // a free stretch of 2 bins always lies within 24
  }
  // Window 10 (bursts in bins 10-12): α = 1 runs 1200 s, α = 0 waits 900 s and runs 600 s.
  const auto at = std::find(windows.begin(), windows.end(), 10u) - windows.begin();
  EXPECT_EQ(perfect[0].runtime[at], 1200.0);
  EXPECT_EQ(perfect[2].delay[at], 900.0);
  const auto blind = schedule_windows(
      windows, [](std::size_t) { return std::vector<int>(24, 0); }, realized, options);
  for (std::size_t a = 0; a < options.alphas.size(); ++a) {
    EXPECT_EQ(blind[a].runtime, perfect[0].runtime);
    EXPECT_EQ(blind[a].delay, perfect[0].delay);
  }
}

// schedule_windows takes each window's runtimes once for every α: its
// choices are burst_aware_start's for each (window, α) taken alone, to the
// bit, over a series of many bursts and a predictor that is often wrong and
// sees runs of bursts up to the whole window (every option is some window's
// best; both numberings; ties between options included).
TEST(Bursts, SchedulingOverWindowsIsBurstAwareStartPerWindowAndAlpha) {
  std::vector<int> realized(600);
  for (std::size_t i = 0; i < realized.size(); ++i) realized[i] = (i * 2654435761u >> 7) % 5 < 2 ? 1 + i % 3 : 0;
  const auto guessed = [&](std::size_t w) {
    std::vector<int> pattern(24);
    const std::size_t run = w * 7 % 25;  // a burst over the first `run` bins, then scattered ones
    for (std::size_t b = 0; b < pattern.size(); ++b) pattern[b] = b < run || ((w + b) * 40503u >> 3) % 3 == 0;
    return pattern;
  };
  for (const bool one_based : {false, true}) {
    ScheduleOptions options;
    options.alphas = {1, 0.9, 0.7, 0.6, 0.5, 0.4, 0.25, 0.1, 0};
    options.one_based = one_based;
    const std::vector<std::size_t> windows = burst_windows(realized, 0, options);
    ASSERT_GT(windows.size(), 500u);
    const auto scheduled = schedule_windows(windows, guessed, realized, options);
    std::size_t waited = 0;
    for (std::size_t a = 0; a < options.alphas.size(); ++a)
      for (std::size_t w = 0; w < windows.size(); ++w) {
        const BurstAwareStart chosen =
            burst_aware_start(guessed(windows[w]), 300, 600, 1800, options.alphas[a], BurstAwareOptions{24, one_based});
        const double runtime = job_runtime(realized, windows[w] + chosen.start - one_based, 300, 600, 1800, false);
        ASSERT_EQ(scheduled[a].delay[w], chosen.delay) << a << " " << w;
        ASSERT_EQ(scheduled[a].runtime[w], runtime) << a << " " << w;
        ASSERT_EQ(scheduled[a].total[w], chosen.delay + runtime) << a << " " << w;
        waited += chosen.start > one_based;
      }
    EXPECT_GT(waited, windows.size());  // not every choice is "start at once"
  }
}

// Past the predicted interval the paper assumes the worst (bursts); the
// realized series has what it has.
TEST(Bursts, PastThePatternIsABurstWhenDeciding) {
  const std::vector<int> free(24, 0);
  EXPECT_EQ(job_runtime(free, 23, 300, 600, 1800, true), 1200.0);  // 300 + 100 + 100 + 100
  EXPECT_EQ(job_runtime(free, 23, 300, 600, 1800, false), 600.0);
  EXPECT_EQ(burst_aware_start(free, 300, 600, 1800, 0.0).start, 0u);
}

TEST(Bursts, LabelsPerHorizon) {
  const std::vector<int> severity = {0, 0, 1, 0, 0, 0, 2, 0};
  EXPECT_EQ(burst_labels(severity, 2, BurstLabel::at), (std::vector<int>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(burst_labels(severity, 2, BurstLabel::within), (std::vector<int>{1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(burst_labels(severity, 3, BurstLabel::within), (std::vector<int>{1, 1, 0, 1, 1}));
  EXPECT_TRUE(burst_labels(severity, 8, BurstLabel::at).empty());
}

TEST(Bursts, SeverityLabelsAndMulticlassF1ByHand) {
  const std::vector<int> severity = {0, 3, 0, 0, 6, 1, 0};
  EXPECT_EQ(severity_labels(severity, 1, BurstLabel::at), (std::vector<int>{3, 0, 0, 6, 1, 0}));
  EXPECT_EQ(severity_labels(severity, 2, BurstLabel::within), (std::vector<int>{3, 0, 6, 6, 1}));
  // truth 0 0 1 1 2, predicted 0 1 1 2 2: class 0 F1 2/3, class 1 F1 1/2, class 2 F1 2/3.
  const MulticlassF1 f = multiclass_f1({0, 0, 1, 1, 2}, {0, 1, 1, 2, 2}, 3);
  EXPECT_DOUBLE_EQ(f.per_class[0], 2.0 / 3);
  EXPECT_DOUBLE_EQ(f.per_class[1], 0.5);
  EXPECT_DOUBLE_EQ(f.per_class[2], 2.0 / 3);
  EXPECT_DOUBLE_EQ(f.macro, (2.0 / 3 + 0.5 + 2.0 / 3) / 3);
  EXPECT_DOUBLE_EQ(f.weighted, (2 * 2.0 / 3 + 2 * 0.5 + 1 * 2.0 / 3) / 5);
  // A class absent from the truth does not lower the macro mean.
  EXPECT_DOUBLE_EQ(multiclass_f1({0, 0, 1}, {0, 0, 1}, kSeverityClasses).macro, 1.0);
}

TEST(Bursts, ScoresByHand) {
  const std::vector<int> truth = {1, 1, 0, 0, 1, 0}, predicted = {1, 0, 1, 0, 1, 0};
  const BinaryScores s = binary_scores(truth, predicted);
  EXPECT_EQ(s.true_positives, 2u);
  EXPECT_EQ(s.false_positives, 1u);
  EXPECT_EQ(s.false_negatives, 1u);
  EXPECT_DOUBLE_EQ(s.precision, 2.0 / 3);
  EXPECT_DOUBLE_EQ(s.recall, 2.0 / 3);
  EXPECT_DOUBLE_EQ(s.f1, 2.0 / 3);
  EXPECT_EQ(binary_scores(truth, {0, 0, 0, 0, 0, 0}).f1, 0.0);
  // scikit-learn's documented example of average_precision_score: 0.8333…
  EXPECT_NEAR(average_precision({0, 0, 1, 1}, {0.1, 0.4, 0.35, 0.8}), 5.0 / 6, 1e-15);
  // Tied scores are one threshold: all tied, AP is the share of positives.
  EXPECT_NEAR(average_precision({0, 1, 0, 1}, {0.5, 0.5, 0.5, 0.5}), 0.5, 1e-15);
}

// Blocks of consecutive bins, reproducible per (seed, stream, resample); a
// perfect predictor's F1 interval is [1, 1]; an interval holds its estimate.
TEST(Bursts, BlockBootstrap) {
  // The positions as the Philox draws define them, written out here (block_resample once joined them this
  // way itself): blocks not dividing n, one position, blocks longer than n, no positions.
  const auto joined = [](std::size_t n, std::size_t block, std::uint32_t resample) {
    block = std::clamp<std::size_t>(block, 1, std::max<std::size_t>(n, 1));
    std::vector<std::size_t> positions;
    for (std::uint64_t k = 0; positions.size() < n; ++k) {
      const double u = uniform_open(philox_bits({1, 2}, resample, k, 0)[0]);
      const auto start = std::min(static_cast<std::size_t>(u * static_cast<double>(n - block + 1)), n - block);
      for (std::size_t j = 0; j < block && positions.size() < n; ++j) positions.push_back(start + j);
    }
    return positions;
  };
  for (const auto& [n, block] : {std::pair<std::size_t, std::size_t>{100, 7}, {100, 10}, {1, 1}, {5, 9}, {0, 3}})
    for (std::uint32_t resample = 0; resample < 20; ++resample)
      ASSERT_EQ(block_resample(n, block, 1, 2, resample), joined(n, block, resample)) << n << " " << block;
  const auto a = block_resample(100, 7, 1, 2, 3), b = block_resample(100, 7, 1, 2, 3);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, block_resample(100, 7, 1, 2, 4));
  ASSERT_EQ(a.size(), 100u);
  for (std::size_t k = 0; k + 1 < a.size(); ++k) {
    if (k % 7 != 6) {
      EXPECT_EQ(a[k + 1], a[k] + 1) << k;  // within a block the bins follow each other
    }
  }
  std::vector<int> truth(500, 0);
  for (std::size_t i = 0; i < truth.size(); i += 37) truth[i] = 1;
  const auto perfect = block_bootstrap(truth.size(), 8, 500, 0.95, 1, 1, [&](const std::vector<std::size_t>& idx) {
    return binary_scores(truth, truth, idx).f1;
  });
  EXPECT_EQ(perfect.low, 1.0);
  EXPECT_EQ(perfect.high, 1.0);
  std::vector<int> noisy = truth;
  for (std::size_t i = 5; i < noisy.size(); i += 41) noisy[i] = 1;
  const double estimate = binary_scores(truth, noisy).f1;
  const auto interval = block_bootstrap(truth.size(), 8, 1000, 0.95, 1, 1, [&](const std::vector<std::size_t>& idx) {
    return binary_scores(truth, noisy, idx).f1;
  });
  EXPECT_LT(interval.low, estimate);
  EXPECT_GT(interval.high, estimate);
  EXPECT_LT(interval.high - interval.low, 0.5);
}

// The order of rows_by_decreasing_score is std::stable_sort's by decreasing score (rows of one score in the order
// given): rows given in increasing, shuffled and repeated order; scores with ties, -0 beside 0, no ties, one
// score for every row (climatology's), and scores of every sign and size (subnormal, huge, infinite), whose keys
// differ in every byte of the radix sort.
TEST(Bursts, RowsByDecreasingScoreIsTheStableSortOrder) {
  for (const double step : {0.25, 0.0, -1.0, -2.0}) {  // ties, none, ±0 alone, and every magnitude (step −2)
    std::vector<double> score(300);
    for (std::size_t i = 0; i < score.size(); ++i) {
      const PhiloxBits bits = philox_bits({9, 4}, 0, i, 0);
      const double u = uniform_open(bits[0]) - 0.5;
      score[i] = step > 0     ? std::floor(u / step) * step
                 : step == 0  ? u
                 : step == -1 ? 0.0
                              : std::ldexp(u, static_cast<int>(bits[1] % 2100) - 1050);
    }
    score[10] = -0.0;
    score[11] = 0.0;
    if (step == -2.0) {
      score[12] = std::numeric_limits<double>::infinity();
      score[13] = -std::numeric_limits<double>::infinity();
      score[14] = 5e-324;
      score[15] = -5e-324;
      score[16] = std::numeric_limits<double>::max();
    }
    std::vector<std::size_t> increasing, shuffled, repeated;
    for (std::size_t i = 0; i < score.size(); ++i) increasing.push_back(i);
    for (std::size_t i = 0; i < score.size(); ++i) shuffled.push_back((i * 7919) % score.size());
    for (std::size_t i = 0; i < 200; ++i) repeated.push_back((i * 13) % 50);
    for (const auto* rows : {&increasing, &shuffled, &repeated}) {
      std::vector<std::size_t> expected = *rows;
      std::stable_sort(expected.begin(), expected.end(),
                       [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
      EXPECT_EQ(rows_by_decreasing_score(score, *rows), expected) << "step " << step;
    }
  }
}

// Average precision and the F1-optimal threshold from the hit levels are the bits of a sweep down the rows in
// a stable sort's order (the way they were computed before hit_levels): scores with ties, without, ±0 alone
// and of every magnitude (with ±inf and subnormals); rows in order, shuffled and repeated; bursts rare (1 in
// 50), common (1 in 2), at the extreme scores and absent. The threshold's sign is compared too (−0 or +0:
// the first row of its run).
TEST(Bursts, AveragePrecisionAndF1ThresholdAreThoseOfASweepDownTheSortedRows) {
  const auto sweep = [](const std::vector<int>& truth, const std::vector<double>& score,
                        const std::vector<std::size_t>& rows, double& threshold) {
    std::vector<std::size_t> order = rows;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
    double positives = 0, seen = 0, hits = 0, sum = 0, best_f1 = -1;
    for (std::size_t i : order) positives += truth[i] != 0;
    threshold = 1.0 + 1e-9;
    for (std::size_t k = 0; k < order.size() && positives > 0;) {
      std::size_t end = k;
      double new_hits = 0;
      while (end < order.size() && score[order[end]] == score[order[k]]) new_hits += truth[order[end++]] != 0;
      seen += static_cast<double>(end - k);
      hits += new_hits;
      sum += new_hits * (hits / seen);
      const double f1 = 2 * hits / (seen + positives);
      if (f1 > best_f1) {
        best_f1 = f1;
        threshold = score[order[k]];
      }
      k = end;
    }
    return positives > 0 ? sum / positives : 0.0;
  };
  std::size_t thresholds_below_one = 0;
  for (const double step : {0.25, 0.0, -1.0, -2.0}) {
    for (const std::uint32_t burst_every : {50u, 2u, 0u}) {
      std::vector<double> score(300);
      std::vector<int> truth(300);
      for (std::size_t i = 0; i < score.size(); ++i) {
        const PhiloxBits bits = philox_bits({9, 5}, burst_every, i, 0);
        const double u = uniform_open(bits[0]) - 0.5;
        score[i] = step > 0     ? std::floor(u / step) * step
                   : step == 0  ? u
                   : step == -1 ? (bits[2] & 1 ? 0.0 : -0.0)
                                : std::ldexp(u, static_cast<int>(bits[1] % 2100) - 1050);
        truth[i] = burst_every > 0 && bits[3] % burst_every == 0;
      }
      score[10] = -0.0;
      score[11] = 0.0;
      truth[11] = burst_every > 0;
      if (step == -2.0) {
        score[12] = std::numeric_limits<double>::infinity();
        score[13] = -std::numeric_limits<double>::infinity();
        score[14] = 5e-324;
        score[15] = -5e-324;
        truth[13] = truth[14] = burst_every > 0;
      }
      std::vector<std::size_t> increasing, shuffled, repeated;
      for (std::size_t i = 0; i < score.size(); ++i) increasing.push_back(i);
      for (std::size_t i = 0; i < score.size(); ++i) shuffled.push_back((i * 7919) % score.size());
      for (std::size_t i = 0; i < 200; ++i) repeated.push_back((i * 13) % 50);
      for (const auto* rows : {&increasing, &shuffled, &repeated}) {
        double threshold = 0;
        const double expected = sweep(truth, score, *rows, threshold);
        ASSERT_EQ(average_precision(truth, score, *rows), expected) << "step " << step << ", every " << burst_every;
        const double got = f1_optimal_threshold(score, truth, *rows);
        ASSERT_EQ(got, threshold) << "step " << step << ", every " << burst_every;
        ASSERT_EQ(std::signbit(got), std::signbit(threshold)) << "step " << step << ", every " << burst_every;
        thresholds_below_one += threshold < 1;
      }
    }
  }
  EXPECT_GE(thresholds_below_one, 24u);  // every case with bursts chose a level
  // By hand: F1 2·1/(1 + 2) at 0.9 and 2·2/(4 + 2) at 0.6, equal: the higher level is kept.
  EXPECT_EQ(f1_optimal_threshold({0.9, 0.8, 0.7, 0.6, 0.1}, {1, 0, 0, 1, 0}, {0, 1, 2, 3, 4}), 0.9);
  EXPECT_EQ(f1_optimal_threshold({0.9, 0.8, 0.7, 0.6, 0.1}, {1, 0, 1, 1, 0}, {0, 1, 2, 3, 4}), 0.6);  // 6/7
  EXPECT_GT(f1_optimal_threshold({0.9, 0.8}, {0, 0}, {0, 1}), 1.0);  // no burst: no level
  std::vector<double> nan_score(5, 0.5);
  nan_score[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(average_precision({0, 1, 0, 0, 1}, nan_score), InternalError);
}

// The bootstrap's average precision from rows sorted once gives the bits of sorting every resample:
// scores with many ties (a probability rounded to 1/8, as trees give) and without, scored rows a subset
// given out of order; the multiplicities are those of block_resample's positions, counted one by one.
TEST(Bursts, RankedRowsGiveTheBitsOfSortingEachResample) {
  for (const double step : {0.125, 0.0}) {
    std::vector<int> truth(600);
    std::vector<double> score(600);
    for (std::size_t i = 0; i < truth.size(); ++i) {
      const PhiloxBits bits = philox_bits({7, 3}, 0, i, 0);
      truth[i] = bits[0] % 5 == 0;
      const double u = uniform_open(bits[1]) + 0.3 * truth[i];
      score[i] = step > 0 ? std::floor(u / step) * step : u;
    }
    std::vector<std::size_t> scored;
    for (std::size_t i = 100; i < truth.size(); ++i) scored.push_back(i);
    std::swap(scored[3], scored[400]);
    const RankedRows ranked(truth, score, scored);
    std::vector<std::uint32_t> multiplicity;
    for (const std::size_t block : {6, 1, 1000}) {
      for (std::uint32_t b = 0; b < 200; ++b) {
        std::vector<std::size_t> resampled;
        std::vector<std::uint32_t> counted(scored.size(), 0);
        for (std::size_t position : block_resample(scored.size(), block, 11, 5, b)) {
          resampled.push_back(scored[position]);
          ++counted[position];
        }
        block_multiplicities(block_resample_blocks(scored.size(), block, 11, 5, b), scored.size(), multiplicity);
        ASSERT_EQ(multiplicity, counted) << "block " << block << ", resample " << b;
        ASSERT_EQ(ranked.average_precision(multiplicity), average_precision(truth, score, resampled))
            << "step " << step << ", block " << block << ", resample " << b;
      }
    }
    EXPECT_EQ(ranked.average_precision(std::vector<std::uint32_t>(scored.size(), 1)),
              average_precision(truth, score, scored));
  }
  const std::vector<int> none(10, 0);
  const std::vector<double> flat(10, 0.5);
  EXPECT_EQ(RankedRows(none, flat, {0, 1, 2}).average_precision({2, 1, 0}), 0.0);  // no positive: 0, as before
  EXPECT_THROW(RankedRows(none, flat, {0, 1, 1}), InternalError);                  // a row scored twice
  EXPECT_THROW(RankedRows(none, flat, {0, 1, 2}).average_precision({1, 1}), InternalError);
}

// A resample's tallies from prefix sums over its blocks are the counts of adding its positions one by one:
// the counts behind binary_scores and multiclass_f1 (as the bootstrap keeps them) for blocks shorter than,
// equal to and longer than the series, and a series of one position.
TEST(Bursts, BlockTalliesGiveTheCountsOfEachResample) {
  for (const std::size_t n : {1, 500}) {
    std::vector<int> truth(n), predicted(n);
    for (std::size_t i = 0; i < n; ++i) {
      const PhiloxBits bits = philox_bits({5, 9}, 0, i, 0);
      truth[i] = static_cast<int>(bits[0] % kSeverityClasses);
      predicted[i] = bits[1] % 3 == 0 ? truth[i] : static_cast<int>(bits[2] % kSeverityClasses);
    }
    const std::size_t counters = 4 + 3 * kSeverityClasses;
    const BlockTallies tallies(n, counters, [&](std::size_t i, std::uint32_t* c) {
      const bool t = truth[i] > 0, d = predicted[i] > 0;
      c[0] += t && d;
      c[1] += !t && d;
      c[2] += t && !d;
      c[3] += !t && !d;
      if (truth[i] == predicted[i]) {
        ++c[4 + truth[i]];
      } else {
        ++c[4 + kSeverityClasses + predicted[i]];
        ++c[4 + 2 * kSeverityClasses + truth[i]];
      }
    });
    std::vector<int> truth_binary(n), predicted_binary(n);
    for (std::size_t i = 0; i < n; ++i) {
      truth_binary[i] = truth[i] > 0;
      predicted_binary[i] = predicted[i] > 0;
    }
    std::vector<std::uint64_t> t(counters);
    for (const std::size_t block : {std::size_t{7}, n, n + 3}) {
      for (std::uint32_t b = 0; b < 100; ++b) {
        const std::vector<std::size_t> rows = block_resample(n, block, 3, 4, b);
        tallies.tally(block_resample_blocks(n, block, 3, 4, b), t.data());
        const BinaryScores direct = binary_scores(truth_binary, predicted_binary, rows);
        const BinaryScores tallied = binary_scores_of_cells(t.data());
        ASSERT_EQ(tallied.true_positives + tallied.false_positives + tallied.false_negatives + tallied.true_negatives,
                  n);
        ASSERT_EQ(tallied.true_positives, direct.true_positives) << "n " << n << ", block " << block << ", " << b;
        ASSERT_EQ(tallied.false_positives, direct.false_positives);
        ASSERT_EQ(tallied.false_negatives, direct.false_negatives);
        ASSERT_EQ(tallied.f1, direct.f1);
        ASSERT_EQ(tallied.precision, direct.precision);
        ASSERT_EQ(tallied.recall, direct.recall);
        const auto classes = [&](std::size_t first) {
          return std::vector<double>(t.begin() + first, t.begin() + first + kSeverityClasses);
        };
        const MulticlassF1 severity =
            multiclass_f1_of_counts(classes(4), classes(4 + kSeverityClasses), classes(4 + 2 * kSeverityClasses));
        const MulticlassF1 severity_direct = multiclass_f1(truth, predicted, kSeverityClasses, rows);
        ASSERT_EQ(severity.per_class, severity_direct.per_class) << "n " << n << ", block " << block << ", " << b;
        ASSERT_EQ(severity.macro, severity_direct.macro);
        ASSERT_EQ(severity.weighted, severity_direct.weighted);
        ASSERT_EQ(severity.classes_present, severity_direct.classes_present);
      }
    }
  }
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// The Monte Carlo summary by hand: 4 replicas of two figures against a real
// series; two-sided p-values around the replicas' median, and the run-length
// distance with its one-sided p-value.
TEST(Bursts, MonteCarloDistributionsByHand) {
  // Two run-length shares, and one scheduling mean (a delay) that a replica may leave undefined.
  const auto figures = [](double share_1, double share_2, double delay) {
    BurstFigures f;
    f.shape(BurstFigureAxes{2, {}, {}, false, {"perfect"}, {0}});
    f.run_length_shares = {share_1, share_2};
    f.scheduled(0, 0).delay = delay;
    return f;
  };
  const std::vector<BurstFigures> replicas = {figures(1.0, 0.0, 1.0), figures(0.8, 0.2, 0.8), figures(0.6, 0.4, 0.6),
                                              figures(0.6, 0.4, 0.6)};
  const BurstFigures real = figures(0.2, 0.8, 0.2);
  const BurstFiguresSummary s = summarize_figures(&real, replicas, 0.5);
  const FigureDistribution& share_1 = s.figures.run_length_shares[0];
  EXPECT_EQ(share_1.name, "run_length_share_1");
  EXPECT_NEAR(share_1.mean, 0.75, 1e-15);
  // Median 0.7; the real 0.2 is 0.5 away, no replica as far: p = 1/5.
  EXPECT_NEAR(share_1.p_value, 0.2, 1e-15);
  // Mean shares (0.75, 0.25): replica distances 0.25, 0.05, 0.15, 0.15; the real's 0.55: p = 1/5.
  EXPECT_EQ(s.run_length_distance.name, "run_length_distance");
  EXPECT_NEAR(s.run_length_distance.real, 0.55, 1e-12);
  EXPECT_NEAR(s.run_length_distance.mean, 0.15, 1e-12);
  EXPECT_NEAR(s.run_length_distance.p_value, 0.2, 1e-15);
  // A real series like the replicas: distance 0.15, three replicas as far or farther: p = 4/5.
  const BurstFigures typical = figures(0.6, 0.4, 0.6);
  EXPECT_NEAR(summarize_figures(&typical, replicas, 0.5).run_length_distance.p_value, 0.8, 1e-15);
  EXPECT_TRUE(std::isnan(summarize_figures(nullptr, replicas, 0.5).figures.run_length_shares[0].p_value));
  // A replica without a value (NaN: a mean over no scheduling window) is left out of the distribution: the
  // three others' mean 0.8 and median 0.8, from which the real 0.2 is farther than any: p = 1/4. A real
  // without a value has no p; a figure no replica defines has no distribution.
  std::vector<BurstFigures> undefined_in_one = replicas;
  undefined_in_one[3].scheduled(0, 0).delay = NAN;
  const FigureDistribution left_out = summarize_figures(&real, undefined_in_one, 0.5).figures.scheduled(0, 0).delay;
  EXPECT_EQ(left_out.name, "delay/perfect/alpha=0");
  EXPECT_NEAR(left_out.mean, 0.8, 1e-15);
  EXPECT_NEAR(left_out.p_value, 0.25, 1e-15);
  const BurstFigures undefined_real = figures(0.2, 0.8, NAN);
  EXPECT_TRUE(std::isnan(summarize_figures(&undefined_real, replicas, 0.5).figures.scheduled(0, 0).delay.p_value));
  for (BurstFigures& r : undefined_in_one) r.scheduled(0, 0).delay = NAN;
  const FigureDistribution none = summarize_figures(&real, undefined_in_one, 0.5).figures.scheduled(0, 0).delay;
  EXPECT_TRUE(std::isnan(none.mean) && std::isnan(none.low) && std::isnan(none.high) && std::isnan(none.p_value));
  // Replicas whose figures lie on other axes are not summarized together.
  std::vector<BurstFigures> mixed = replicas;
  mixed[1].shape(BurstFigureAxes{3, {}, {}, false, {"perfect"}, {0}});
  EXPECT_THROW(summarize_figures(&real, mixed, 0.5), InternalError);
}

// The figures' named axes and their one flat order (the HDF5 file's `figure`
// dimension): prediction cells are [predictor, horizon] but listed per horizon,
// then per predictor; scheduling cells [decision, alpha]. A cell set through the
// axes is the value of the figure of that name, and the flat values go back.
TEST(Bursts, FiguresHaveNamedAxesAndOneFlatOrder) {
  BurstFigures f;
  f.shape(BurstFigureAxes{2, {"persistence", "logistic"}, {"5min", "10min"}, true, {"perfect", "logistic"}, {1, 0.5}});
  f.predicted(1, 0).f1 = 0.25;      // logistic at 5 min
  f.predicted(0, 1).f1 = 0.75;      // persistence at 10 min
  f.scheduled(1, 1).runtime = 600;  // logistic's schedule, alpha 0.5
  std::vector<std::string> names;
  std::vector<double> values;
  for_each_figure(f, [&](const std::string& name, double v) {
    names.push_back(name);
    values.push_back(v);
  });
  const std::vector<std::string> expected = {"burst_share",
                                             "k",
                                             "mean_run_length",
                                             "run_length_share_1",
                                             "run_length_share_2+",
                                             "f1/persistence/5min",
                                             "average_precision/persistence/5min",
                                             "severity_macro_f1/persistence/5min",
                                             "f1/logistic/5min",
                                             "average_precision/logistic/5min",
                                             "severity_macro_f1/logistic/5min",
                                             "f1/persistence/10min",
                                             "average_precision/persistence/10min",
                                             "severity_macro_f1/persistence/10min",
                                             "f1/logistic/10min",
                                             "average_precision/logistic/10min",
                                             "severity_macro_f1/logistic/10min",
                                             "delay/perfect/alpha=1",
                                             "runtime/perfect/alpha=1",
                                             "total/perfect/alpha=1",
                                             "delay/perfect/alpha=0.5",
                                             "runtime/perfect/alpha=0.5",
                                             "total/perfect/alpha=0.5",
                                             "delay/logistic/alpha=1",
                                             "runtime/logistic/alpha=1",
                                             "total/logistic/alpha=1",
                                             "delay/logistic/alpha=0.5",
                                             "runtime/logistic/alpha=0.5",
                                             "total/logistic/alpha=0.5"};
  ASSERT_EQ(names, expected);
  const auto value_of = [&](const std::string& name) {
    return values[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin())];
  };
  EXPECT_EQ(value_of("f1/logistic/5min"), 0.25);
  EXPECT_EQ(value_of("f1/persistence/10min"), 0.75);
  EXPECT_EQ(value_of("runtime/logistic/alpha=0.5"), 600);
  EXPECT_EQ(figure_values(f), values);
  std::vector<double> counted(values.size());
  for (std::size_t i = 0; i < counted.size(); ++i) counted[i] = static_cast<double>(i);
  BurstFigures g = f;
  set_figure_values(g, counted);
  EXPECT_EQ(figure_values(g), counted);
  EXPECT_EQ(g.predicted(1, 0).f1, 8);  // "f1/logistic/5min" is the 9th figure
  EXPECT_THROW(set_figure_values(g, std::vector<double>(values.size() + 1)), InternalError);
}

// Non-findings are named (an F1 with no information is not a result): no burst
// in the scored rows, "burst" said in every row (F1 = 2p/(1 + p), the F1 of
// always saying burst), "burst" never said; an informative F1 gets no note.
TEST(Bursts, NonFindingsAreNamed) {
  const std::vector<int> none = {0, 0, 0, 0}, some = {0, 1, 0, 1}, all = {1, 1, 1, 1}, never = {0, 0, 0, 0};
  EXPECT_NE(prediction_non_finding(binary_scores(none, some)).find("the scored bins hold no burst"), std::string::npos);
  const BinaryScores always = binary_scores(some, all);
  EXPECT_DOUBLE_EQ(always.f1, 2 * 0.5 / (1 + 0.5));
  EXPECT_NE(prediction_non_finding(always).find("a burst predicted in every scored bin: F1 0.667"), std::string::npos);
  EXPECT_NE(prediction_non_finding(binary_scores(some, never)).find("no burst predicted"), std::string::npos);
  EXPECT_EQ(prediction_non_finding(binary_scores(some, {0, 1, 1, 0})), "");
  EXPECT_EQ(prediction_non_finding(binary_scores(some, some)), "");
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// Detection by share among tied values: share 0.02 of 200 bins asks for 4
// bursts; with the 5 largest values equal none lies strictly above the
// threshold (the 5th largest), and the note says so with the numbers; with 2
// of the top 5 above the tie, 2 bursts. Distinct values, or k given, give
// what was asked and no note.
TEST(Bursts, DetectionNoteSaysWhenTiesGiveFewerBurstsThanTheShareAsks) {
  std::vector<double> bytes(200);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<double>(i % 97);
  BurstAnalysisOptions options;
  options.share = 0.02;
  const auto analysed = [&] { return analyse_bursts(BurstChannels{bytes, {}, {}}, options, {}, false); };
  EXPECT_EQ(detection_note(analysed(), options), "");  // 96, 96, 95, 95 above 94
  for (std::size_t i : {10u, 20u, 30u, 40u, 50u}) bytes[i] = 500;
  BurstAnalysis tied = analysed();
  EXPECT_EQ(tied.threshold.threshold, 500);
  EXPECT_EQ(detection_note(tied, options),
            "share 0.02 asks for 4 burst bins, but 4 of the 4 largest values equal the threshold 500 and a bin equal "
            "to it is no burst: 0 burst bins");
  bytes[10] = bytes[20] = 600;
  EXPECT_EQ(detection_note(analysed(), options),
            "share 0.02 asks for 4 burst bins, but 2 of the 4 largest values equal the threshold 500 and a bin equal "
            "to it is no burst: 2 burst bins");
  options.share = 0.0049;  // floor(0.0049 x 200) = 0 bursts asked
  const BurstAnalysis none = analysed();
  EXPECT_EQ(none.bursts, 0u);
  // Without a burst no window is scheduled: its means are undefined (NaN), not delays of 0 s.
  ASSERT_FALSE(none.scheduling.empty());
  EXPECT_EQ(none.scheduling.front().windows, 0u);
  EXPECT_TRUE(std::isnan(none.scheduling.front().delay.front()) && std::isnan(none.scheduling.front().runtime.back()) &&
              std::isnan(none.scheduling.front().total_interval.front().low));
  EXPECT_EQ(detection_note(analysed(), options),
            "share 0.0049 of 200 bins asks for no burst bin (floor(0.0049 x 200) = 0): none is detected and nothing "
            "below describes bursts; a larger share, k, or a longer series gives some");
  options.k = 3.0;
  EXPECT_EQ(detection_note(analysed(), options), "");
}

}  // namespace
}  // namespace gs
