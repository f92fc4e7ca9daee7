#include "estimators/burst_statistics.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"
#include "kernels/philox.hpp"

namespace gs {

namespace {

// Mean and population standard deviation (denominator n, the paper's σ over all bins).
std::pair<double, double> mean_and_sigma(const std::vector<double>& series) {
  if (series.empty()) throw UserError("burst threshold of an empty series");
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
    throw UserError(fmt::format("burst-aware start: bin {} s, min_time {} s, max_time {} s; accepted: bin > 0, "
                                "0 < min_time <= max_time",
                                o.bin_seconds, o.min_time, o.max_time));
  if (o.window == 0) throw UserError("burst-aware start over a window of 0 bins; accepted: at least 1");
  for (double alpha : o.alphas)
    if (!(alpha >= 0 && alpha <= 1)) throw UserError(fmt::format("alpha {}; accepted: 0 <= alpha <= 1", alpha));
}

BurstAwareStart burst_aware_start(const std::vector<int>& pattern, double bin_seconds, double min_time,
                                  double max_time, double alpha, const BurstAwareOptions& options) {
  ScheduleOptions checked;
  checked.bin_seconds = bin_seconds;
  checked.min_time = min_time;
  checked.max_time = max_time;
  checked.alphas = {alpha};
  checked.window = options.options;
  check_schedule_options(checked);
  BurstAwareStart best;
  best.score = INFINITY;
  const std::size_t numbering = options.one_based ? 1 : 0;
  for (std::size_t i = 0; i < options.options; ++i) {  // start in bin i of the pattern
    const double delay = static_cast<double>(i + numbering) * bin_seconds;
    const double runtime = job_runtime(pattern, i, bin_seconds, min_time, max_time, true);
    const double score = alpha * delay + (1 - alpha) * runtime;
    if (score < best.score) best = {i + numbering, delay, runtime, score};
  }
  return best;
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
    case FeatureSet::fs1: return "fs1";
    case FeatureSet::fs2: return "fs2";
    case FeatureSet::fs3: return "fs3";
    case FeatureSet::fs3_bytes: return "fs3-bytes";
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
    throw UserError("burst features FS2/FS3 need operations and I/O time for every bin (darshan's count and time "
                    "channels); a series of bytes alone has fs1 and fs3-bytes");
  if (!(bin_minutes > 0)) throw UserError(fmt::format("bin of {} minutes; accepted: > 0", bin_minutes));
  std::vector<std::pair<std::string, std::vector<double>>> columns = {{"bytes", c.bytes}};
  if (all_channels) {
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

LogisticModel fit_logistic(const FeatureMatrix& features, const std::vector<int>& labels,
                           const std::vector<std::size_t>& rows, double l2) {
  const std::size_t p = features.names.size() + 1, n = rows.size();
  if (n < p) throw UserError(fmt::format("logistic regression on {} rows for {} coefficients", n, p));
  // Standardized design: a column of ones, then (x − mean)/sd of the training rows.
  std::vector<double> mean(p, 0.0), sd(p, 1.0);
  for (std::size_t k = 1; k < p; ++k) {
    double sum = 0, squares = 0;
    for (std::size_t r : rows) sum += features.at(r, k - 1);
    mean[k] = sum / static_cast<double>(n);
    for (std::size_t r : rows) squares += (features.at(r, k - 1) - mean[k]) * (features.at(r, k - 1) - mean[k]);
    sd[k] = squares > 0 ? std::sqrt(squares / static_cast<double>(n)) : 1.0;
  }
  Eigen::MatrixXd x(n, p);
  Eigen::VectorXd y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x(i, 0) = 1;
    for (std::size_t k = 1; k < p; ++k) x(i, k) = (features.at(rows[i], k - 1) - mean[k]) / sd[k];
    y(i) = labels[rows[i]] != 0;
  }
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(p);
  Eigen::MatrixXd information(p, p);
  LogisticModel model;
  for (model.iterations = 1; model.iterations <= 100; ++model.iterations) {
    Eigen::VectorXd prob(n), weight(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double eta = x.row(i).dot(beta);
      prob(i) = 1 / (1 + std::exp(-eta));
      weight(i) = std::max(prob(i) * (1 - prob(i)), 1e-12);
    }
    information = x.transpose() * weight.asDiagonal() * x;
    information.diagonal().array() += l2 * static_cast<double>(n);
    const Eigen::VectorXd gradient = x.transpose() * (y - prob) - l2 * static_cast<double>(n) * beta;
    const Eigen::VectorXd step = information.ldlt().solve(gradient);
    beta += step;
    if (step.cwiseAbs().maxCoeff() < 1e-10) break;
  }
  const Eigen::MatrixXd covariance = information.inverse();
  // Back to the original scale: b_k = β_k / sd_k, b_0 = β_0 − Σ β_k·mean_k/sd_k.
  model.coefficients.assign(p, 0.0);
  model.standard_errors.assign(p, 0.0);
  Eigen::MatrixXd to_original = Eigen::MatrixXd::Identity(p, p);
  for (std::size_t k = 1; k < p; ++k) {
    to_original(k, k) = 1 / sd[k];
    to_original(0, k) = -mean[k] / sd[k];
  }
  const Eigen::VectorXd original = to_original * beta;
  const Eigen::MatrixXd original_covariance = to_original * covariance * to_original.transpose();
  for (std::size_t k = 0; k < p; ++k) {
    model.coefficients[k] = original(k);
    model.standard_errors[k] = std::sqrt(std::max(0.0, original_covariance(k, k)));
  }
  return model;
}

double LogisticModel::probability(const FeatureMatrix& features, std::size_t row) const {
  double eta = coefficients[0];
  for (std::size_t k = 1; k < coefficients.size(); ++k) eta += coefficients[k] * features.at(row, k - 1);
  return 1 / (1 + std::exp(-eta));
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
    const int t = truth[i], p = predicted[i];
    if (t == p) {
      tp[t] += 1;
    } else {
      fp[p] += 1;
      fn[t] += 1;
    }
  };
  if (which.empty())
    for (std::size_t i = 0; i < truth.size(); ++i) add(i);
  else
    for (std::size_t i : which) add(i);
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
  BinaryScores s;
  const auto add = [&](std::size_t i) {
    const bool t = truth[i] != 0, p = predicted[i] != 0;
    s.true_positives += t && p;
    s.false_positives += !t && p;
    s.false_negatives += t && !p;
    s.true_negatives += !t && !p;
  };
  if (which.empty())
    for (std::size_t i = 0; i < truth.size(); ++i) add(i);
  else
    for (std::size_t i : which) add(i);
  const double tp = static_cast<double>(s.true_positives);
  if (s.true_positives + s.false_positives > 0) s.precision = tp / static_cast<double>(s.true_positives + s.false_positives);
  if (s.true_positives + s.false_negatives > 0) s.recall = tp / static_cast<double>(s.true_positives + s.false_negatives);
  if (s.precision + s.recall > 0) s.f1 = 2 * s.precision * s.recall / (s.precision + s.recall);
  return s;
}

double average_precision(const std::vector<int>& truth, const std::vector<double>& score,
                         const std::vector<std::size_t>& which) {
  std::vector<std::size_t> order = which;
  if (order.empty()) {
    order.resize(truth.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  double positives = 0;
  for (std::size_t i : order) positives += truth[i] != 0;
  if (positives == 0) return 0;
  double seen = 0, hits = 0, sum = 0;
  for (std::size_t k = 0; k < order.size();) {
    std::size_t end = k;  // a run of tied scores counts as one threshold
    double new_hits = 0;
    while (end < order.size() && score[order[end]] == score[order[k]]) new_hits += truth[order[end++]] != 0;
    seen += static_cast<double>(end - k);
    hits += new_hits;
    sum += new_hits * (hits / seen);
    k = end;
  }
  return sum / positives;
}

RankedRows::RankedRows(const std::vector<int>& truth, const std::vector<double>& score,
                       const std::vector<std::size_t>& rows)
    : truth_(truth), score_(score), order_(rows), multiplicity_(truth.size(), 0) {
  std::sort(order_.begin(), order_.end());
  order_.erase(std::unique(order_.begin(), order_.end()), order_.end());
  std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
}

// As average_precision: per run of tied scores, the rows seen and the hits grow by whole numbers (a row
// counted as often as the resample holds it), so every partial sum is the one the sorted resample gives.
double RankedRows::average_precision(const std::vector<std::size_t>& resampled) const {
  for (std::size_t i : resampled) ++multiplicity_[i];
  double positives = 0;
  for (std::size_t i : order_) positives += truth_[i] != 0 ? static_cast<double>(multiplicity_[i]) : 0.0;
  double seen = 0, hits = 0, sum = 0;
  if (positives > 0) {
    for (std::size_t k = 0; k < order_.size();) {
      std::size_t end = k;
      double new_hits = 0, rows = 0;
      while (end < order_.size() && score_[order_[end]] == score_[order_[k]]) {
        const auto m = static_cast<double>(multiplicity_[order_[end]]);
        rows += m;
        new_hits += truth_[order_[end++]] != 0 ? m : 0.0;
      }
      k = end;
      if (rows == 0) continue;  // a run the resample does not hold: the sorted resample has no such threshold
      seen += rows;
      hits += new_hits;
      sum += new_hits * (hits / seen);
    }
  }
  for (std::size_t i : resampled) multiplicity_[i] = 0;
  return positives > 0 ? sum / positives : 0;
}

std::vector<std::size_t> block_resample(std::size_t n, std::size_t block, std::uint64_t seed, std::uint32_t stream,
                                        std::uint32_t resample) {
  block = std::clamp<std::size_t>(block, 1, std::max<std::size_t>(n, 1));
  const std::size_t starts = n - block + 1;
  std::vector<std::size_t> indices;
  indices.reserve(n + block);
  for (std::uint64_t position = 0; indices.size() < n; ++position) {
    const PhiloxBits bits = philox_bits({seed, stream}, resample, position, 0);
    const auto start = static_cast<std::size_t>(uniform_open(bits[0]) * static_cast<double>(starts));
    for (std::size_t k = 0; k < block && indices.size() < n; ++k) indices.push_back(std::min(start, starts - 1) + k);
  }
  return indices;
}

BlockBootstrapInterval quantile_interval(std::vector<double> values, double confidence) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {quantile_of_sorted(values.data(), values.size(), (1 - confidence) / 2),
          quantile_of_sorted(values.data(), values.size(), (1 + confidence) / 2)};
}

}  // namespace gs
