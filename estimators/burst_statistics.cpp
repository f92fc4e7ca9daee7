#include "estimators/burst_statistics.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

#include "estimators/deterministic_exp.hpp"
#include "estimators/empirical.hpp"
#include "estimators/logistic_lanes.hpp"
#include "estimators/series.hpp"
#include "host/base/errors.hpp"
#include "kernels/philox.hpp"

namespace gs {

namespace {

// Mean and population standard deviation (denominator n, the paper's σ over all bins).
std::pair<double, double> mean_and_sigma(const std::vector<double>& series) {
  if (series.empty()) throw UserError("burst threshold of an empty series");
  check_series_magnitude(series, "the series");
  const MeanSd m = mean_and_sd(series);
  const auto n = static_cast<double>(series.size());
  return {m.mean, m.sd * std::sqrt((n - 1) / n)};
}

}  // namespace

BurstThreshold burst_threshold_for_k(const std::vector<double>& series, double k) {
  BurstThreshold t;
  std::tie(t.mean, t.sigma) = mean_and_sigma(series);
  t.k = k;
  t.threshold = t.mean + k * t.sigma;
  return t;
}

BurstThreshold burst_threshold_for_share(const std::vector<double>& series, double share) {
  if (!(share > 0 && share < 1))
    throw UserError(fmt::format("burst share {} is out of range; accepted: 0 < share < 1", share));
  BurstThreshold t;
  std::tie(t.mean, t.sigma) = mean_and_sigma(series);
  const auto bursts = static_cast<std::size_t>(std::floor(share * static_cast<double>(series.size())));
  std::vector<double> sorted = series;
  // The (bursts + 1)-th largest value: only the `bursts` largest lie above it.
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(bursts), sorted.end(),
                   std::greater<>());
  t.threshold = sorted[bursts];
  t.k = t.sigma > 0 ? (t.threshold - t.mean) / t.sigma : 0.0;
  return t;
}

std::vector<int> burst_severity(const std::vector<double>& series, const BurstThreshold& t) {
  const double top = t.mean + 10 * t.sigma;
  const double width = (top - t.threshold) / 5;
  std::vector<int> classes(series.size(), 0);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double x = series[i];
    if (!(x > t.threshold)) continue;
    if (width <= 0 || x > top) {
      classes[i] = 6;
      continue;
    }
    classes[i] = 1 + std::min(4, static_cast<int>((x - t.threshold) / width));
  }
  return classes;
}

std::vector<std::size_t> burst_run_lengths(const std::vector<int>& severity) {
  std::vector<std::size_t> runs;
  std::size_t run = 0;
  for (int s : severity) {
    if (s > 0) {
      ++run;
    } else if (run > 0) {
      runs.push_back(run);
      run = 0;
    }
  }
  if (run > 0) runs.push_back(run);
  return runs;
}

std::vector<std::uint64_t> sigma_histogram(const std::vector<double>& series, double step, double limit) {
  const auto [mean, sigma] = mean_and_sigma(series);
  const auto bins = static_cast<std::size_t>(std::llround(2 * limit / step));
  std::vector<std::uint64_t> counts(bins, 0);
  for (double x : series) {
    const double z = sigma > 0 ? (x - mean) / sigma : 0.0;
    const double position = std::floor((z + limit) / step);
    const auto bin = static_cast<std::size_t>(std::clamp(position, 0.0, static_cast<double>(bins - 1)));
    ++counts[bin];
  }
  return counts;
}

std::vector<double> exponential_moving_average(const std::vector<double>& series, double window_bins) {
  if (!(window_bins >= 1)) throw UserError(fmt::format("EMA window {} bins; accepted: at least 1", window_bins));
  const double alpha = 2 / (window_bins + 1);
  std::vector<double> ema(series.size());
  for (std::size_t t = 0; t < series.size(); ++t)
    ema[t] = t == 0 ? series[0] : alpha * series[t] + (1 - alpha) * ema[t - 1];
  return ema;
}

std::vector<double> macd(const std::vector<double>& series, double short_window_bins, double long_window_bins) {
  std::vector<double> out = exponential_moving_average(series, short_window_bins);
  const std::vector<double> slow = exponential_moving_average(series, long_window_bins);
  for (std::size_t t = 0; t < out.size(); ++t) out[t] -= slow[t];
  return out;
}

double job_runtime(const std::vector<int>& pattern, std::size_t start, double bin_seconds, double min_time,
                   double max_time, bool past_end_is_burst) {
  const double progress_free = bin_seconds;
  const double progress_burst = bin_seconds * min_time / max_time;
  double remaining = min_time;
  std::size_t j = start;
  while (remaining > 1e-9 * min_time) {
    const bool burst = j < pattern.size() ? pattern[j] > 0 : past_end_is_burst;
    remaining -= burst ? progress_burst : progress_free;
    ++j;
  }
  return static_cast<double>(j - start) * bin_seconds;
}

void check_schedule_options(const ScheduleOptions& o) {
  if (!(o.bin_seconds > 0 && o.min_time > 0 && o.max_time >= o.min_time))
    throw UserError(
        fmt::format("burst-aware start: bin {} s, min_time {} s, max_time {} s; accepted: bin > 0, "
                    "0 < min_time <= max_time",
                    o.bin_seconds, o.min_time, o.max_time));
  if (o.window == 0) throw UserError("burst-aware start over a window of 0 bins; accepted: at least 1");
  for (double alpha : o.alphas)
    if (!(alpha >= 0 && alpha <= 1)) throw UserError(fmt::format("alpha {}; accepted: 0 <= alpha <= 1", alpha));
}

std::vector<double> start_option_runtimes(const std::vector<int>& pattern, double bin_seconds, double min_time,
                                          double max_time, std::size_t options) {
  std::vector<double> runtimes(options);
  for (std::size_t i = 0; i < options; ++i)  // start in bin i of the pattern
    runtimes[i] = job_runtime(pattern, i, bin_seconds, min_time, max_time, true);
  return runtimes;
}

BurstAwareStart best_start(const std::vector<double>& runtimes, double bin_seconds, double alpha, bool one_based) {
  BurstAwareStart best;
  best.score = INFINITY;
  const std::size_t numbering = one_based ? 1 : 0;
  for (std::size_t i = 0; i < runtimes.size(); ++i) {
    const double delay = static_cast<double>(i + numbering) * bin_seconds;
    const double score = alpha * delay + (1 - alpha) * runtimes[i];
    if (score < best.score) best = {i + numbering, delay, runtimes[i], score};
  }
  return best;
}

BurstAwareStart burst_aware_start(const std::vector<int>& pattern, double bin_seconds, double min_time, double max_time,
                                  double alpha, const BurstAwareOptions& options) {
  ScheduleOptions checked;
  checked.bin_seconds = bin_seconds;
  checked.min_time = min_time;
  checked.max_time = max_time;
  checked.alphas = {alpha};
  checked.window = options.options;
  check_schedule_options(checked);
  return best_start(start_option_runtimes(pattern, bin_seconds, min_time, max_time, options.options), bin_seconds,
                    alpha, options.one_based);
}

std::vector<std::size_t> burst_windows(const std::vector<int>& realized, std::size_t first, const ScheduleOptions& o) {
  check_schedule_options(o);
  const auto tail = static_cast<std::size_t>(std::ceil(o.max_time / o.bin_seconds - 1e-9));
  std::vector<std::size_t> windows;
  std::size_t bursts = 0;  // in bins w … w + window − 1, kept as the window slides
  for (std::size_t k = first; k < std::min(realized.size(), first + o.window); ++k) bursts += realized[k] > 0;
  for (std::size_t w = first; w + o.window + tail <= realized.size(); ++w) {
    if (bursts > 0) windows.push_back(w);
    bursts -= realized[w] > 0;
    bursts += realized[w + o.window] > 0;
  }
  return windows;
}

const char* to_string(FeatureSet set) {
  switch (set) {
    case FeatureSet::fs1:
      return "fs1";
    case FeatureSet::fs2:
      return "fs2";
    case FeatureSet::fs3:
      return "fs3";
    case FeatureSet::fs3_bytes:
      return "fs3-bytes";
  }
  return "?";
}

FeatureSet parse_feature_set(const std::string& text) {
  for (FeatureSet set : {FeatureSet::fs1, FeatureSet::fs2, FeatureSet::fs3, FeatureSet::fs3_bytes})
    if (text == to_string(set)) return set;
  throw UserError(fmt::format("feature set '{}'; accepted: fs1, fs2, fs3, fs3-bytes", text));
}

FeatureSet bytes_only(FeatureSet set) {
  return set == FeatureSet::fs3 || set == FeatureSet::fs3_bytes ? FeatureSet::fs3_bytes : FeatureSet::fs1;
}

FeatureMatrix burst_features(const BurstChannels& c, FeatureSet set, double bin_minutes) {
  const std::size_t n = c.bytes.size();
  const bool all_channels = set == FeatureSet::fs2 || set == FeatureSet::fs3;
  if (all_channels && (c.operations.size() != n || c.io_time.size() != n))
    throw UserError(
        "burst features FS2/FS3 need operations and I/O time for every bin (darshan's count and time "
        "channels); a series of bytes alone has fs1 and fs3-bytes");
  if (!(bin_minutes > 0)) throw UserError(fmt::format("bin of {} minutes; accepted: > 0", bin_minutes));
  check_series_magnitude(c.bytes, "the bytes channel");
  std::vector<std::pair<std::string, std::vector<double>>> columns = {{"bytes", c.bytes}};
  if (all_channels) {
    check_series_magnitude(c.operations, "the operations channel");
    check_series_magnitude(c.io_time, "the I/O time channel");
    columns.emplace_back("operations", c.operations);
    columns.emplace_back("io_time", c.io_time);
  }
  if (set == FeatureSet::fs3 || set == FeatureSet::fs3_bytes) {
    const auto bins = [&](double minutes) { return std::max(1.0, minutes / bin_minutes); };
    for (double minutes : {60.0, 130.0, 500.0, 1000.0})
      columns.emplace_back(fmt::format("ema_{}min", minutes), exponential_moving_average(c.bytes, bins(minutes)));
    columns.emplace_back("macd_60_130min", macd(c.bytes, bins(60), bins(130)));
    columns.emplace_back("macd_500_1000min", macd(c.bytes, bins(500), bins(1000)));
  }
  FeatureMatrix m;
  m.rows = n;
  for (const auto& [name, _] : columns) m.names.push_back(name);
  m.values.resize(n * columns.size());
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t k = 0; k < columns.size(); ++k) m.values[t * columns.size() + k] = columns[k].second[t];
  return m;
}

std::vector<int> persistence_predictions(const std::vector<int>& severity, std::size_t rows) {
  std::vector<int> out(std::min(rows, severity.size()));
  for (std::size_t t = 0; t < out.size(); ++t) out[t] = severity[t] > 0;
  return out;
}

namespace {

// The training rows on the standardized scale: a column of ones, then
// (x − mean)/sd of those rows, and the labels; stored by column in the
// workspace, so that every sum of a pass reads contiguous memory. The
// workspace also holds the pass's η, exp(−|η|), weights, residuals, the
// likelihood's row terms and blocks, and the score's partial sums.
struct StandardizedDesign {
  std::size_t n = 0, p = 0;
  std::vector<double> mean, sd;
  double* x = nullptr;  // column k: x[k·n … k·n + n − 1]
  double *y = nullptr, *eta = nullptr, *weight = nullptr, *residual = nullptr, *term = nullptr;
  double* exp_term = nullptr;   // exp(−|η|)
  double* block_log = nullptr;  // a block's log Π(1 + e), n/16 rounded up
  double* scratch = nullptr;    // logistic_scratch_size(p)
};

StandardizedDesign standardized_design(const FeatureMatrix& features, const std::vector<int>& labels,
                                       const std::vector<std::size_t>& rows, LogisticWorkspace& workspace) {
  StandardizedDesign d;
  d.p = features.names.size() + 1;
  d.n = rows.size();
  const std::size_t columns = d.p - 1;
  const LogisticPasses& passes = logistic_passes();
  std::vector<double> squares(columns);
  d.mean.assign(d.p, 0.0);
  passes.column_moments(features.values.data(), columns, rows.data(), d.n, d.mean.data() + 1, squares.data());
  d.sd.assign(d.p, 1.0);
  for (std::size_t k = 0; k < columns; ++k)
    if (squares[k] > 0) d.sd[k + 1] = std::sqrt(squares[k] / static_cast<double>(d.n));
  // Room for every row of `features`, so that the larger fits after the first never reallocate.
  const std::size_t most_rows = std::max(features.rows, d.n);
  const std::size_t room = most_rows * (d.p + 7) + logistic_scratch_size(d.p);
  if (workspace.size < room) {
    workspace.values.reset(new double[room]);
    workspace.size = room;
  }
  d.x = workspace.values.get();
  d.y = d.x + d.n * d.p;
  d.eta = d.y + d.n;
  d.weight = d.eta + d.n;
  d.residual = d.weight + d.n;
  d.term = d.residual + d.n;
  d.exp_term = d.term + d.n;
  d.block_log = d.exp_term + d.n;
  d.scratch = d.block_log + d.n;
  std::fill_n(d.x, d.n, 1.0);
  passes.standardize(features.values.data(), columns, rows.data(), d.n, d.mean.data() + 1, d.sd.data() + 1, d.x + d.n);
  for (std::size_t i = 0; i < d.n; ++i) d.y[i] = labels[rows[i]] != 0;
  return d;
}

// The log-likelihood at β, leaving each row's weight p(1 − p) and residual
// y − p in the workspace for irls_terms: Σ y·η − log(1 + exp(η)), with
// log(1 + exp(η)) = max(η, 0) + log(1 + e), e = exp(−|η|), finite for any η.
// The log(1 + e) are taken 16 rows at a time, as log1p of Π(1 + e) − 1 (a log1p
// per row was the pass's largest cost). That excess is summed as
// s ← (s + e) + s·e, never forming 1 + e, so a tiny e (rows far on their side,
// as in nearly separable fits) keeps its digits: every term is positive, so each
// block's sum carries at most ~50 roundings of 2^-53 relative to itself, and
// log1p does not enlarge a relative error. The sum thus stays within ~1e-14 of
// its own size, below the 1e-13 and 1e-12 relative tests of fit_logistic, its
// only users. The sum takes each block's log1p after its last row, as a pass
// row by row would.
double log_likelihood(const StandardizedDesign& d, const Eigen::VectorXd& beta) {
  constexpr std::size_t kRowsPerLog = 16;
  const std::size_t n = d.n, blocks = (n + kRowsPerLog - 1) / kRowsPerLog;
  const LogisticPasses& passes = logistic_passes();
  passes.linear_predictor(d.x, n, d.p, beta.data(), d.eta);
  exp_of_negative_magnitude(d.eta, n, d.exp_term);
  passes.row_terms(d.eta, d.exp_term, d.y, n, d.weight, d.residual, d.term);
  for (std::size_t b = 0; b < blocks; ++b) {
    double excess = 0;  // Π(1 + e) − 1 over the block's rows so far
    for (std::size_t i = b * kRowsPerLog; i < std::min(n, (b + 1) * kRowsPerLog); ++i)
      excess = (excess + d.exp_term[i]) + excess * d.exp_term[i];
    d.block_log[b] = excess;
  }
  log1p_of(d.block_log, blocks, d.block_log);
  double sum = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    for (std::size_t i = b * kRowsPerLog; i < std::min(n, (b + 1) * kRowsPerLog); ++i) sum += d.term[i];
    sum -= d.block_log[b];
  }
  return sum;
}

// The score (gradient of the log-likelihood) and the Fisher information XᵀWX
// at the β of the last log_likelihood call.
struct IrlsTerms {
  Eigen::VectorXd gradient;
  Eigen::MatrixXd information;
};

IrlsTerms irls_terms(const StandardizedDesign& d) {
  IrlsTerms t{Eigen::VectorXd(d.p), Eigen::MatrixXd(d.p, d.p)};
  logistic_passes().score_and_information(d.x, d.n, d.p, d.weight, d.residual, t.gradient.data(), t.information.data(),
                                          d.scratch);
  return t;
}

// Where Newton's method starts on the standardized scale: the warm start's
// coefficients carried onto these rows' means and deviations, or else the
// intercept of the rows' burst share and no slopes (the fit of the constant).
Eigen::VectorXd starting_point(const StandardizedDesign& d, const LogisticModel* warm) {
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(d.p));
  if (warm && warm->coefficients.size() == d.p) {
    beta(0) = warm->coefficients[0];
    for (std::size_t k = 1; k < d.p; ++k) {
      beta(static_cast<Eigen::Index>(k)) = warm->coefficients[k] * d.sd[k];
      beta(0) += warm->coefficients[k] * d.mean[k];
    }
    return beta;
  }
  double positives = 0;
  for (std::size_t i = 0; i < d.n; ++i) positives += d.y[i];
  const double share = (positives + 0.5) / (static_cast<double>(d.n) + 1);  // finite when no row is a burst
  beta(0) = std::log(share / (1 - share));
  return beta;
}

// From the standardized scale back to the original one: b_k = β_k / sd_k,
// b_0 = β_0 − Σ β_k·mean_k/sd_k (as a matrix: the coefficients and their covariance).
Eigen::MatrixXd to_original_scale(const StandardizedDesign& d) {
  const auto p = static_cast<Eigen::Index>(d.p);
  Eigen::MatrixXd to_original = Eigen::MatrixXd::Identity(p, p);
  for (std::size_t k = 1; k < d.p; ++k) {
    const auto column = static_cast<Eigen::Index>(k);
    to_original(column, column) = 1 / d.sd[k];
    to_original(0, column) = -d.mean[k] / d.sd[k];
  }
  return to_original;
}

}  // namespace

LogisticModel fit_logistic(const FeatureMatrix& features, const std::vector<int>& labels,
                           const std::vector<std::size_t>& rows, double l2, const LogisticModel* warm,
                           LogisticWorkspace* workspace) {
  const std::size_t p = features.names.size() + 1, n = rows.size();
  if (n < p) throw UserError(fmt::format("logistic regression on {} rows for {} coefficients", n, p));
  LogisticWorkspace own;
  const StandardizedDesign d = standardized_design(features, labels, rows, workspace ? *workspace : own);
  Eigen::VectorXd beta = starting_point(d, warm);
  const double ridge = l2 * static_cast<double>(n);
  const auto objective = [&](const Eigen::VectorXd& at) {  // the penalized log-likelihood
    return log_likelihood(d, at) - ridge / 2 * at.squaredNorm();
  };
  double value = objective(beta);
  LogisticModel model;
  for (model.iterations = 1; model.iterations <= kLogisticIterations; ++model.iterations) {
    IrlsTerms t = irls_terms(d);
    t.information.diagonal().array() += ridge;
    const Eigen::VectorXd ascent = t.gradient - ridge * beta;
    Eigen::VectorXd step = t.information.ldlt().solve(ascent);
    // Newton's full step can overshoot where the classes are (nearly)
    // separable, and then wanders without converging: shorten it until the
    // penalized likelihood does not fall (beyond the rounding of its sum), to
    // the maximum of the parabola through the values at 0 and at the last
    // length and the slope at 0, kept within [0.1, 0.5] of the last length
    // (backtracking with quadratic interpolation, Nocedal & Wright §3.5).
    const double slope = ascent.dot(step);
    double length = 1, trial = objective(beta + step);
    int backtracks = 0;
    for (; trial < value - 1e-13 * std::fabs(value) && backtracks < 60; ++backtracks) {
      const double curvature = (trial - value - slope * length) / (length * length);
      const double peak = curvature < 0 ? -slope / (2 * curvature) : length / 2;
      length = std::clamp(peak, 0.1 * length, 0.5 * length);
      trial = objective(beta + length * step);
    }
    if (backtracks == 60) {  // no ascent left at the rounding's scale: at the maximum
      objective(beta);
      break;
    }
    step *= length;
    beta += step;
    const double gain = trial - value;
    value = trial;
    // Converged when the step is below 1e-10, or when the penalized
    // likelihood, and with it every fitted probability, no longer moves
    // (relative gain below 1e-12, in the manner of glm's deviance test):
    // nearly separable classes keep taking steps that change nothing but
    // far-out coefficients.
    if (step.cwiseAbs().maxCoeff() < 1e-10 || gain <= 1e-12 * (std::fabs(value) + 0.1)) break;
  }
  model.converged = model.iterations <= kLogisticIterations;
  model.log_likelihood = value + ridge / 2 * beta.squaredNorm();  // `value` is the objective at `beta`
  const Eigen::VectorXd original = to_original_scale(d) * beta;
  model.coefficients.assign(original.data(), original.data() + p);
  return model;
}

std::vector<double> logistic_standard_errors(const FeatureMatrix& features, const std::vector<int>& labels,
                                             const std::vector<std::size_t>& rows, const LogisticModel& model,
                                             double l2) {
  const std::size_t p = features.names.size() + 1;
  LogisticWorkspace workspace;
  const StandardizedDesign d = standardized_design(features, labels, rows, workspace);
  // The coefficients on the standardized scale: β_k = b_k·sd_k, β_0 = b_0 + Σ b_k·mean_k.
  Eigen::VectorXd beta(static_cast<Eigen::Index>(p));
  beta(0) = model.coefficients[0];
  for (std::size_t k = 1; k < p; ++k) {
    beta(static_cast<Eigen::Index>(k)) = model.coefficients[k] * d.sd[k];
    beta(0) += model.coefficients[k] * d.mean[k];
  }
  log_likelihood(d, beta);  // leaves the weights at β in the workspace
  Eigen::MatrixXd information = irls_terms(d).information;
  information.diagonal().array() += l2 * static_cast<double>(rows.size());
  const Eigen::MatrixXd to_original = to_original_scale(d);
  const Eigen::MatrixXd original_covariance = to_original * information.inverse() * to_original.transpose();
  std::vector<double> errors(p);
  for (std::size_t k = 0; k < p; ++k) errors[k] = std::sqrt(std::max(0.0, original_covariance(k, k)));
  return errors;
}

std::vector<double> LogisticModel::probabilities(const FeatureMatrix& features, std::size_t first,
                                                 std::size_t count) const {
  std::vector<double> eta(count), e(count);
  const std::size_t columns = features.names.size();
  if (coefficients.size() != columns + 1)
    throw InternalError("LogisticModel::probabilities", "coefficients and features differ in number", __FILE__,
                        __LINE__);
  logistic_passes().row_predictor(features.values.data() + first * columns, columns, count, coefficients.data(),
                                  eta.data());
  exp_of_negative_magnitude(eta.data(), count, e.data());
  logistic_passes().probabilities(eta.data(), e.data(), count, e.data());
  return e;
}

double LogisticModel::probability(const FeatureMatrix& features, std::size_t row) const {
  return probabilities(features, row, 1)[0];
}

const char* to_string(BurstLabel label) { return label == BurstLabel::at ? "at" : "within"; }

std::vector<int> burst_labels(const std::vector<int>& severity, std::size_t horizon_bins, BurstLabel how) {
  std::vector<int> labels = severity_labels(severity, horizon_bins, how);
  for (int& label : labels) label = label > 0;
  return labels;
}

std::vector<int> severity_labels(const std::vector<int>& severity, std::size_t horizon_bins, BurstLabel how) {
  if (horizon_bins == 0) throw UserError("a burst prediction horizon of 0 bins; accepted: at least 1 bin");
  std::vector<int> labels;
  if (severity.size() <= horizon_bins) return labels;
  labels.resize(severity.size() - horizon_bins);
  for (std::size_t t = 0; t < labels.size(); ++t) {
    if (how == BurstLabel::at) {
      labels[t] = severity[t + horizon_bins];
      continue;
    }
    int highest = 0;  // H is a few dozen bins at most: the direct maximum is cheap
    for (std::size_t k = 1; k <= horizon_bins; ++k) highest = std::max(highest, severity[t + k]);
    labels[t] = highest;
  }
  return labels;
}

MulticlassF1 multiclass_f1(const std::vector<int>& truth, const std::vector<int>& predicted, int classes,
                           const std::vector<std::size_t>& which) {
  std::vector<double> tp(classes, 0), fp(classes, 0), fn(classes, 0);
  const auto add = [&](std::size_t i) {
    count_class_decision(truth[i], predicted[i], tp.data(), fp.data(), fn.data());
  };
  if (which.empty())
    for (std::size_t i = 0; i < truth.size(); ++i) add(i);
  else
    for (std::size_t i : which) add(i);
  return multiclass_f1_of_counts(tp, fp, fn);
}

MulticlassF1 multiclass_f1_of_counts(const std::vector<double>& tp, const std::vector<double>& fp,
                                     const std::vector<double>& fn) {
  const int classes = static_cast<int>(tp.size());
  MulticlassF1 out;
  out.per_class.assign(classes, 0.0);
  double present = 0, support_total = 0;
  for (int c = 0; c < classes; ++c) {
    const double denominator = 2 * tp[c] + fp[c] + fn[c];
    if (denominator > 0) out.per_class[c] = 2 * tp[c] / denominator;
    const double support = tp[c] + fn[c];
    if (support == 0) continue;
    present += 1;
    support_total += support;
    out.macro += out.per_class[c];
    out.weighted += support * out.per_class[c];
  }
  if (present > 0) out.macro /= present;
  out.classes_present = static_cast<int>(present);
  if (support_total > 0) out.weighted /= support_total;
  return out;
}

BinaryScores binary_scores(const std::vector<int>& truth, const std::vector<int>& predicted,
                           const std::vector<std::size_t>& which) {
  std::uint64_t cells[kBinaryCells] = {};
  const auto add = [&](std::size_t i) { ++cells[binary_cell(truth[i] != 0, predicted[i] != 0)]; };
  if (which.empty())
    for (std::size_t i = 0; i < truth.size(); ++i) add(i);
  else
    for (std::size_t i : which) add(i);
  return binary_scores_of_cells(cells);
}

BinaryScores binary_scores_of_cells(const std::uint64_t* cells) {
  BinaryScores s;
  s.true_positives = cells[0];
  s.false_positives = cells[1];
  s.false_negatives = cells[2];
  s.true_negatives = cells[3];
  const double tp = static_cast<double>(s.true_positives);
  if (s.true_positives + s.false_positives > 0)
    s.precision = tp / static_cast<double>(s.true_positives + s.false_positives);
  if (s.true_positives + s.false_negatives > 0)
    s.recall = tp / static_cast<double>(s.true_positives + s.false_negatives);
  if (s.precision + s.recall > 0) s.f1 = 2 * s.precision * s.recall / (s.precision + s.recall);
  return s;
}

namespace {

// A key whose increasing order is the scores' decreasing one: the IEEE bits made
// monotone (negative numbers' bits flipped, positive ones' sign bit set), then
// complemented; −0 counts as +0 (they compare equal), NaN never comes here.
std::uint64_t decreasing_key(double score) {
  score += 0.0;  // −0 + 0 = +0 when rounding to nearest
  std::uint64_t bits;
  std::memcpy(&bits, &score, sizeof bits);
  const std::uint64_t monotone = bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
  return ~monotone;
}

// Places 0 … n − 1 in increasing order of key, equal keys in place order: a
// least-significant-digit radix sort (stable pass by pass), 8 bits a pass, a
// pass skipped where every key has the same digit. The order is total, so it is
// the one any correct sort of (key, place) pairs gives.
std::vector<std::size_t> places_by_key(const std::vector<std::uint64_t>& key) {
  const std::size_t n = key.size();
  std::vector<std::size_t> place(n), next(n);
  for (std::size_t k = 0; k < n; ++k) place[k] = k;
  for (int shift = 0; shift < 64; shift += 8) {
    std::size_t start[257] = {};
    for (std::uint64_t k : key) ++start[((k >> shift) & 0xff) + 1];
    if (std::find(std::begin(start) + 1, std::end(start), n) != std::end(start)) continue;  // one digit for all
    for (int d = 0; d < 256; ++d) start[d + 1] += start[d];
    for (std::size_t k : place) next[start[(key[k] >> shift) & 0xff]++] = k;
    place.swap(next);
  }
  return place;
}

}  // namespace

std::vector<std::size_t> rows_by_decreasing_score(const std::vector<double>& score,
                                                  const std::vector<std::size_t>& rows) {
  std::vector<std::uint64_t> key(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double s = score[rows[k]];
    if (std::isnan(s))  // no order, and no run of ties, holds a NaN
      throw InternalError("rows_by_decreasing_score", fmt::format("row {} has no score (NaN)", rows[k]), __FILE__,
                          __LINE__);
    key[k] = decreasing_key(s);
  }
  const std::vector<std::size_t> places = places_by_key(key);
  std::vector<std::size_t> order(rows.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = rows[places[k]];
  return order;
}

namespace {

// Average precision's running sum: at each level (a run of tied scores) with
// hits, its hits times the precision there; the mean over the hits at the end.
// The hits and rows seen are whole numbers, as doubles the same values as the
// sums of 1s a pass over the sorted rows would make.
class PrecisionAtHits {
 public:
  void add(std::uint64_t new_hits, std::uint64_t seen) {
    hits_ += new_hits;
    sum_ += static_cast<double>(new_hits) * (static_cast<double>(hits_) / static_cast<double>(seen));
  }
  double average() const { return hits_ > 0 ? sum_ / static_cast<double>(hits_) : 0; }

 private:
  std::uint64_t hits_ = 0;
  double sum_ = 0;
};

void check_rows(const char* where, const std::vector<std::size_t>& rows, std::size_t size) {
  for (std::size_t row : rows)
    if (row >= size) throw InternalError(where, fmt::format("row {} of {}", row, size), __FILE__, __LINE__);
}

// How many of the levels (in decreasing order) are above x: a binary search
// without branches on the comparisons (their outcome is a coin flip per row).
std::size_t levels_above(const std::vector<double>& levels, double x) {
  if (levels.empty() || !(levels.back() <= x)) return levels.size();  // below every level: most rows
  const double* base = levels.data();
  for (std::size_t n = levels.size(); n > 1;) {
    const std::size_t half = n / 2;
    base = base[half - 1] > x ? base + half : base;
    n -= half;
  }
  return static_cast<std::size_t>(base - levels.data()) + (*base > x);
}

}  // namespace

std::vector<HitLevel> hit_levels(const std::vector<int>& truth, const std::vector<double>& score,
                                 const std::vector<std::size_t>& rows) {
  check_rows("hit_levels", rows, std::min(truth.size(), score.size()));
  std::vector<double> burst_scores;
  for (std::size_t row : rows) {
    if (std::isnan(score[row]))  // no order, and no run of ties, holds a NaN
      throw InternalError("hit_levels", fmt::format("row {} has no score (NaN)", row), __FILE__, __LINE__);
    if (truth[row] != 0) burst_scores.push_back(score[row]);
  }
  std::sort(burst_scores.begin(), burst_scores.end(), std::greater<>());
  std::vector<double> level_scores;
  std::vector<HitLevel> levels;
  for (double s : burst_scores) {
    if (level_scores.empty() || s != level_scores.back()) {
      level_scores.push_back(s);
      levels.push_back({std::numeric_limits<double>::quiet_NaN(), 0, 0});  // its value: its first row's, below
    }
    ++levels.back().hits;
  }
  std::vector<std::uint64_t> at(levels.size() + 1, 0);  // rows above the next level, at each level
  for (std::size_t row : rows) {
    const double x = score[row];
    const std::size_t i = levels_above(level_scores, x);
    ++at[i];
    if (i < levels.size() && std::isnan(levels[i].score) && level_scores[i] == x) levels[i].score = x;
  }
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < levels.size(); ++i) levels[i].seen = seen += at[i];
  return levels;
}

double average_precision(const std::vector<int>& truth, const std::vector<double>& score,
                         const std::vector<std::size_t>& which) {
  std::vector<std::size_t> all;
  if (which.empty()) {
    all.resize(truth.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  }
  PrecisionAtHits precision;
  for (const HitLevel& l : hit_levels(truth, score, which.empty() ? all : which)) precision.add(l.hits, l.seen);
  return precision.average();
}

double f1_optimal_threshold(const std::vector<double>& probability, const std::vector<int>& labels,
                            const std::vector<std::size_t>& rows) {
  const std::vector<HitLevel> levels = hit_levels(labels, probability, rows);
  double positives = 0, true_positives = 0, best_f1 = -1, threshold = 1.0 + 1e-9;
  for (const HitLevel& l : levels) positives += static_cast<double>(l.hits);
  for (const HitLevel& l : levels) {
    true_positives += static_cast<double>(l.hits);
    const double f1 = 2 * true_positives / (static_cast<double>(l.seen) + positives);
    if (f1 > best_f1) {
      best_f1 = f1;
      threshold = l.score;
    }
  }
  return threshold;
}

RankedRows::RankedRows(const std::vector<int>& truth, const std::vector<double>& score,
                       const std::vector<std::size_t>& rows) {
  check_rows("RankedRows", rows, std::min(truth.size(), score.size()));
  if (rows.size() > UINT32_MAX)
    throw InternalError("RankedRows", fmt::format("{} rows; at most 2^32 - 1", rows.size()), __FILE__, __LINE__);
  std::vector<std::size_t> position_of_row(truth.size(), SIZE_MAX);
  for (std::size_t j = 0; j < rows.size(); ++j) {
    if (position_of_row[rows[j]] != SIZE_MAX)
      throw InternalError("RankedRows", fmt::format("row {} is scored twice", rows[j]), __FILE__, __LINE__);
    position_of_row[rows[j]] = j;
  }
  const std::vector<std::size_t> order = rows_by_decreasing_score(score, rows);
  position_.resize(order.size());
  for (std::size_t k = 0, run_bursts = 0; k < order.size(); ++k) {
    position_[k] = static_cast<std::uint32_t>(position_of_row[order[k]]);
    if (truth[order[k]] != 0) {
      burst_position_.push_back(position_[k]);
      ++run_bursts;
    }
    if ((k + 1 == order.size() || score[order[k + 1]] != score[order[k]]) && run_bursts > 0) {
      hit_runs_.push_back({k + 1, burst_position_.size() - run_bursts, run_bursts});
      run_bursts = 0;
    }
  }
}

// average_precision's sums: per run, in decreasing order of score, the rows
// seen and the hits so far, and the sum of the run's hits times the precision
// there. The rows seen are counted over every place up to the last run with a
// burst row; a run whose burst rows this resample does not hold adds
// 0·precision = +0 to the sum and is skipped.
double RankedRows::average_precision(const std::vector<std::uint32_t>& multiplicity) const {
  if (multiplicity.size() != position_.size())
    throw InternalError("RankedRows::average_precision",
                        fmt::format("{} multiplicities for {} scored rows", multiplicity.size(), position_.size()),
                        __FILE__, __LINE__);
  PrecisionAtHits precision;
  std::uint64_t seen = 0;
  std::size_t k = 0;
  for (const HitRun& run : hit_runs_) {
    for (; k < run.end; ++k) seen += multiplicity[position_[k]];
    std::uint64_t new_hits = 0;
    for (std::size_t b = run.first_burst; b < run.first_burst + run.bursts; ++b)
      new_hits += multiplicity[burst_position_[b]];
    if (new_hits > 0) precision.add(new_hits, seen);
  }
  return precision.average();
}

std::vector<ResampleBlock> block_resample_blocks(std::size_t n, std::size_t block, std::uint64_t seed,
                                                 std::uint32_t stream, std::uint32_t resample) {
  block = std::clamp<std::size_t>(block, 1, std::max<std::size_t>(n, 1));
  const std::size_t starts = n - block + 1;
  std::vector<ResampleBlock> blocks;
  blocks.reserve(n / block + 1);
  for (std::size_t held = 0, position = 0; held < n; ++position) {
    const PhiloxBits bits = philox_bits({seed, stream}, resample, position, 0);
    const auto start = static_cast<std::size_t>(uniform_open(bits[0]) * static_cast<double>(starts));
    blocks.push_back({std::min(start, starts - 1), std::min(block, n - held)});
    held += blocks.back().length;
  }
  return blocks;
}

std::vector<std::size_t> block_resample(std::size_t n, std::size_t block, std::uint64_t seed, std::uint32_t stream,
                                        std::uint32_t resample) {
  std::vector<std::size_t> indices;
  indices.reserve(n);
  for (const ResampleBlock& b : block_resample_blocks(n, block, seed, stream, resample))
    for (std::size_t k = 0; k < b.length; ++k) indices.push_back(b.start + k);
  return indices;
}

void block_multiplicities(const std::vector<ResampleBlock>& blocks, std::size_t n,
                          std::vector<std::uint32_t>& multiplicity) {
  multiplicity.assign(n + 1, 0);  // first as differences: +1 where a block starts, −1 after it ends
  for (const ResampleBlock& b : blocks) {
    ++multiplicity[b.start];
    --multiplicity[b.start + b.length];
  }
  std::uint32_t held = 0;
  for (std::size_t i = 0; i < n; ++i) multiplicity[i] = held += multiplicity[i];
  multiplicity.resize(n);
}

void BlockTallies::tally(const std::vector<ResampleBlock>& blocks, std::uint64_t* tallies) const {
  std::fill_n(tallies, counters_, 0);
  for (const ResampleBlock& b : blocks) {
    const std::uint32_t* before = prefix_.data() + b.start * counters_;
    const std::uint32_t* after = prefix_.data() + (b.start + b.length) * counters_;
    for (std::size_t c = 0; c < counters_; ++c) tallies[c] += after[c] - before[c];
  }
}

BlockBootstrapInterval quantile_interval(std::vector<double> values, double confidence) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {quantile_of_sorted(values.data(), values.size(), (1 - confidence) / 2),
          quantile_of_sorted(values.data(), values.size(), (1 + confidence) / 2)};
}

}  // namespace gs
