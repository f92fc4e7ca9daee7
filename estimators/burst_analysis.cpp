#include "estimators/burst_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/parallel.hpp"
#include "kernels/philox.hpp"

namespace gs {

namespace {

// NaN for no values: a mean over none is undefined (a scheduling decision
// without windows has no delay, not one of 0 s).
double mean_of(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? NAN : sum / static_cast<double>(values.size());
}

// Means per α of one way of deciding, with block-bootstrap intervals over the
// windows (consecutive windows overlap: blocks of ⌈m^(1/3)⌉); NaN without a
// window (a mean over none is undefined, not a delay of 0 s).
ScheduleSummary summarize_schedule(std::string decided_by, std::size_t windows, std::vector<ScheduledWindows> per_alpha,
                                   const PredictionOptions& bootstrap) {
  ScheduleSummary s;
  s.decided_by = std::move(decided_by);
  s.windows = windows;
  const std::size_t block =
      static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(std::max<std::size_t>(windows, 1)))));
  const std::uint32_t stream = stream_of_name("bursts/scheduling/" + s.decided_by);
  for (const ScheduledWindows& w : per_alpha) {
    s.delay.push_back(mean_of(w.delay));
    s.runtime.push_back(mean_of(w.runtime));
    s.total.push_back(mean_of(w.total));
    const auto interval = [&](const std::vector<double>& values) {
      if (values.empty()) return BlockBootstrapInterval{NAN, NAN};
      if (bootstrap.resamples == 0) return BlockBootstrapInterval{};
      return block_bootstrap(values.size(), block, bootstrap.resamples, bootstrap.confidence, bootstrap.seed, stream,
                             [&](const std::vector<std::size_t>& positions) {
                               double sum = 0;
                               for (std::size_t p : positions) sum += values[p];
                               return sum / static_cast<double>(positions.size());
                             });
    };
    s.delay_interval.push_back(interval(w.delay));
    s.runtime_interval.push_back(interval(w.runtime));
    s.total_interval.push_back(interval(w.total));
  }
  s.per_alpha = std::move(per_alpha);
  return s;
}

}  // namespace

BurstThreshold burst_threshold(const std::vector<double>& series, const BurstAnalysisOptions& options) {
  return options.k ? burst_threshold_for_k(series, *options.k) : burst_threshold_for_share(series, options.share);
}

BurstAnalysis analyse_bursts(const BurstChannels& channels, const BurstAnalysisOptions& options,
                             const std::vector<ExtraSeries>& extra, bool parallel) {
  BurstAnalysis a;
  const std::vector<double>& series = channels.bytes;
  a.threshold = burst_threshold(series, options);
  a.severity = burst_severity(series, a.threshold);
  for (int s : a.severity) a.bursts += s > 0;
  a.burst_share = static_cast<double>(a.bursts) / static_cast<double>(series.size());
  a.run_lengths = burst_run_lengths(a.severity);
  a.run_length_counts.assign(std::max<std::size_t>(options.run_length_limit, 1), 0);
  for (std::size_t run : a.run_lengths) ++a.run_length_counts[std::min(run, a.run_length_counts.size()) - 1];
  if (!a.run_lengths.empty())
    a.mean_run_length = static_cast<double>(a.bursts) / static_cast<double>(a.run_lengths.size());
  a.sigma_histogram = sigma_histogram(series, options.histogram_step, options.histogram_limit);

  const double bin_minutes = options.bin_seconds / 60;
  ScheduleOptions scheduling = options.scheduling;
  scheduling.bin_seconds = options.bin_seconds;
  const std::vector<std::size_t> all_windows = burst_windows(a.severity, 0, scheduling);
  const auto observed = [&](std::size_t w) {
    return std::vector<int>(a.severity.begin() + static_cast<std::ptrdiff_t>(w),
                            a.severity.begin() + static_cast<std::ptrdiff_t>(w + scheduling.window));
  };
  a.scheduling.push_back(summarize_schedule("perfect", all_windows.size(),
                                            schedule_windows(all_windows, observed, a.severity, scheduling),
                                            options.prediction));
  if (options.horizons.empty()) return a;

  const FeatureMatrix features = burst_features(channels, options.features, bin_minutes);
  a.feature_names = features.names;
  a.horizons.resize(options.horizons.size());
  const auto evaluate = [&](std::size_t h, LogisticWorkspace* workspace) {
    throw_if_interrupted();  // a horizon takes up to a second on the real series
    a.horizons[h] = evaluate_horizon(features, a.severity, options.horizons[h], options.prediction, extra, workspace);
  };
  if (parallel) {
    for_each_in_parallel(options.horizons.size(), [&](std::size_t h) { evaluate(h, nullptr); });
  } else {
    LogisticWorkspace workspace;
    for (std::size_t h = 0; h < options.horizons.size(); ++h) evaluate(h, &workspace);
  }

  // Algorithm 1 on predictions: the pattern of window w is what each horizon's
  // model said at row w − 1 (the end of the bin before), so horizons 1 … window
  // must all be there, as `at` labels.
  std::vector<const HorizonEvaluation*> by_bin(scheduling.window + 1, nullptr);
  for (const HorizonEvaluation& e : a.horizons)
    if (e.horizon_bins <= scheduling.window) by_bin[e.horizon_bins] = &e;
  const bool every_horizon = std::all_of(by_bin.begin() + 1, by_bin.end(), [](auto* e) { return e != nullptr; });
  if (options.prediction.label != BurstLabel::at || !every_horizon) {
    a.scheduling_note = fmt::format(
        "predicted patterns are scheduled when the horizons are every bin 1 … {} with label 'at' (the burst in "
        "each bin of the window)",
        scheduling.window);
    return a;
  }
  const std::size_t first_test_row = a.horizons.front().first_test_row;
  const std::vector<std::size_t> test_windows = burst_windows(a.severity, first_test_row + 1, scheduling);
  a.scheduling.push_back(summarize_schedule("perfect-test", test_windows.size(),
                                            schedule_windows(test_windows, observed, a.severity, scheduling),
                                            options.prediction));
  for (const ScoredPredictor& scored : a.horizons.front().predictors) {
    const Predictor model = scored.predictor;
    if (model == Predictor::persistence || model == Predictor::climatology) continue;  // the models alone
    const auto predicted = [&](std::size_t w) {
      std::vector<int> pattern(scheduling.window);
      for (std::size_t b = 0; b < scheduling.window; ++b) pattern[b] = by_bin[b + 1]->of(model).predicted[w - 1];
      return pattern;
    };
    a.scheduling.push_back(summarize_schedule(to_string(model), test_windows.size(),
                                              schedule_windows(test_windows, predicted, a.severity, scheduling),
                                              options.prediction));
  }
  return a;
}

std::string horizon_label(std::size_t bins, double bin_seconds) {
  const double seconds = static_cast<double>(bins) * bin_seconds;
  const double minutes = seconds / 60;
  return std::abs(minutes - std::round(minutes)) < 1e-9 * std::max(1.0, minutes) ? fmt::format("{:g}min", minutes)
                                                                                 : fmt::format("{:g}s", seconds);
}

BurstFigures burst_figures(const BurstAnalysis& a, const BurstAnalysisOptions& options) {
  BurstFigureAxes axes;
  axes.run_lengths = a.run_length_counts.size();
  if (!a.horizons.empty())
    for (const ScoredPredictor& p : a.horizons.front().predictors) axes.predictors.push_back(to_string(p.predictor));
  for (const HorizonEvaluation& e : a.horizons)
    axes.horizons.push_back(horizon_label(e.horizon_bins, options.bin_seconds));
  axes.severity = options.prediction.severity;
  for (const ScheduleSummary& s : a.scheduling) axes.decisions.push_back(s.decided_by);
  for (const ScheduledWindows& w : a.scheduling.front().per_alpha) axes.alphas.push_back(w.alpha);

  BurstFigures f;
  f.shape(std::move(axes));
  f.burst_share = a.burst_share;
  f.k = a.threshold.k;
  f.mean_run_length = a.mean_run_length;
  const double runs = static_cast<double>(a.run_lengths.size());
  for (std::size_t k = 0; k < a.run_length_counts.size(); ++k)
    f.run_length_shares[k] = runs > 0 ? static_cast<double>(a.run_length_counts[k]) / runs : 0.0;
  for (std::size_t h = 0; h < a.horizons.size(); ++h)
    for (std::size_t p = 0; p < a.horizons[h].predictors.size(); ++p) {
      const ScoredPredictor& scored = a.horizons[h].predictors[p];
      f.unconverged_fits += static_cast<std::uint64_t>(scored.unconverged_fits);
      f.predicted(p, h) = {scored.scores.f1, scored.average_precision,
                           options.prediction.severity ? scored.severity.macro : 0.0};
    }
  for (std::size_t d = 0; d < a.scheduling.size(); ++d)
    for (std::size_t k = 0; k < f.axes.alphas.size(); ++k) {
      const ScheduleSummary& s = a.scheduling[d];
      f.scheduled(d, k) = {s.delay[k], s.runtime[k], s.total[k]};
    }
  return f;
}

std::vector<double> figure_values(const BurstFigures& f) {
  std::vector<double> values;
  for_each_figure(f, [&](const std::string&, double v) { values.push_back(v); });
  return values;
}

void set_figure_values(BurstFigures& f, const std::vector<double>& values) {
  std::size_t next = 0;
  for_each_figure(f, [&](const std::string&, double& v) { v = values.at(next++); });
  if (next != values.size())
    throw InternalError("set_figure_values", fmt::format("{} values for {} figures", values.size(), next), __FILE__,
                        __LINE__);
}

namespace {

// A figure's distribution over the replicas' values (NaN ones, undefined in a
// replica, left out) against the real value.
FigureDistribution distribution_of(std::string name, double real, std::vector<double> values, double confidence) {
  FigureDistribution d;
  d.name = std::move(name);
  d.real = real;
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
  if (values.empty()) {
    d.mean = d.low = d.high = d.p_value = NAN;
    return d;
  }
  d.mean = mean_of(values);
  std::sort(values.begin(), values.end());
  const double median = quantile_of_sorted(values.data(), values.size(), 0.5);
  d.low = quantile_of_sorted(values.data(), values.size(), (1 - confidence) / 2);
  d.high = quantile_of_sorted(values.data(), values.size(), (1 + confidence) / 2);
  d.p_value = NAN;
  if (!std::isnan(d.real)) {
    double extreme = 0;
    for (double v : values) extreme += std::abs(v - median) >= std::abs(d.real - median);
    d.p_value = (1 + extreme) / (1 + static_cast<double>(values.size()));
  }
  return d;
}

FigureDistribution run_length_fit(const BurstFigures* real, const std::vector<BurstFigures>& replicas,
                                  double confidence) {
  FigureDistribution d;
  d.name = "run_length_distance";
  d.real = d.p_value = NAN;
  const std::size_t count = replicas.front().run_length_shares.size();
  std::vector<double> mean(count, 0.0);
  for (const BurstFigures& r : replicas)
    for (std::size_t j = 0; j < count; ++j) mean[j] += r.run_length_shares[j] / static_cast<double>(replicas.size());
  const auto distance = [&](const BurstFigures& f) {
    double sum = 0;
    for (std::size_t j = 0; j < count; ++j) sum += std::abs(f.run_length_shares[j] - mean[j]);
    return sum / 2;
  };
  std::vector<double> values;
  for (const BurstFigures& r : replicas) values.push_back(distance(r));
  d.mean = mean_of(values);
  std::sort(values.begin(), values.end());
  d.low = quantile_of_sorted(values.data(), values.size(), (1 - confidence) / 2);
  d.high = quantile_of_sorted(values.data(), values.size(), (1 + confidence) / 2);
  if (real) {
    d.real = distance(*real);
    double as_far = 0;
    for (double v : values) as_far += v >= d.real;
    d.p_value = (1 + as_far) / (1 + static_cast<double>(values.size()));
  }
  return d;
}

}  // namespace

BurstFiguresSummary summarize_figures(const BurstFigures* real, const std::vector<BurstFigures>& replicas,
                                      double confidence) {
  if (replicas.empty()) throw InternalError("summarize_figures", "no replica", __FILE__, __LINE__);
  const BurstFigureAxes& axes = real ? real->axes : replicas.front().axes;
  std::vector<std::vector<double>> values;  // [replica, figure]
  for (const BurstFigures& r : replicas) {
    if (!(r.axes == axes))
      throw InternalError("summarize_figures", "the replicas' figures have other axes", __FILE__, __LINE__);
    values.push_back(figure_values(r));
  }
  const std::vector<double> real_values = real ? figure_values(*real) : std::vector<double>{};
  BurstFiguresSummary s;
  s.figures.shape(axes);
  std::size_t k = 0;
  for_each_figure(s.figures, [&](const std::string& name, FigureDistribution& d) {
    std::vector<double> column;
    for (const std::vector<double>& v : values) column.push_back(v[k]);
    d = distribution_of(name, real ? real_values[k] : NAN, std::move(column), confidence);
    ++k;
  });
  s.run_length_distance = run_length_fit(real, replicas, confidence);
  return s;
}

std::string prediction_non_finding(const BinaryScores& s) {
  if (s.true_positives + s.false_negatives == 0)
    return "the scored bins hold no burst: every F1 is 0 by definition, nothing is learned about prediction";
  if (s.false_negatives == 0 && s.true_negatives == 0)
    return fmt::format("a burst predicted in every scored bin: F1 {:.3f} is that of always saying burst, no skill",
                       s.f1);
  if (s.true_positives + s.false_positives == 0) return "no burst predicted in any scored bin: F1 0, no skill";
  return "";
}

std::string detection_note(const BurstAnalysis& a, const BurstAnalysisOptions& o) {
  if (o.k) return "";
  const auto asked = static_cast<std::size_t>(std::floor(o.share * static_cast<double>(a.severity.size())));
  const std::size_t found = a.bursts;
  if (asked == 0)
    return fmt::format(
        "share {} of {} bins asks for no burst bin (floor({} x {}) = 0): none is detected and nothing "
        "below describes bursts; a larger share, k, or a longer series gives some",
        o.share, a.severity.size(), o.share, a.severity.size());
  if (found >= asked) return "";
  return fmt::format(
      "share {} asks for {} burst bins, but {} of the {} largest values equal the threshold {:.6g} and a bin equal "
      "to it is no burst: {} burst bins",
      o.share, asked, asked - found, asked, a.threshold.threshold, found);
}

std::string unconverged_note(std::uint64_t fits) {
  return fmt::format(
      "{} logistic fit{} stopped after {} Newton steps without converging (the bursts nearly separable from the "
      "other bins in the training rows): the probabilities are the last step's",
      fits, fits == 1 ? "" : "s", kLogisticIterations);
}

std::vector<std::string> prediction_notes(const BurstAnalysis& analysis, double bin_seconds) {
  std::vector<std::string> notes;
  for (const HorizonEvaluation& e : analysis.horizons) {
    const std::string horizon = horizon_label(e.horizon_bins, bin_seconds);
    if (e.predictors.front().severity.classes_present == 1)  // computed, over one class
      notes.push_back(
          fmt::format("{}: the scored bins hold one severity class: each severity macro F1 is that "
                      "class's F1 alone, nothing is learned about severity",
                      horizon));
    if (e.test_burst_share == 0) {  // the same for every predictor: said once
      notes.push_back(fmt::format("{}: {}", horizon, prediction_non_finding(e.predictors.front().scores)));
      continue;
    }
    for (const ScoredPredictor& p : e.predictors) {
      if (const std::string why = prediction_non_finding(p.scores);
          !why.empty() && p.predictor != Predictor::climatology)
        notes.push_back(fmt::format("{} {}: {}", horizon, to_string(p.predictor), why));
      if (p.unconverged_fits > 0) notes.push_back(fmt::format("{} {}: {}", horizon, to_string(p.predictor),
                                                             unconverged_note(p.unconverged_fits)));
    }
  }
  return notes;
}

}  // namespace gs
