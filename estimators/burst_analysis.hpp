// The whole burst analysis of one series (the Darshan burst paper, sections
// IV–V): detection (threshold, severity, runs, σ histogram), prediction per
// horizon, and Algorithm 1 over every window with a burst, decided on the
// observed pattern (a perfect predictor) and on each model's predictions
// (scored against what happened). The same analysis runs on the real series
// and on every replica of a fitted model; a Monte Carlo summary sets the real
// series' figures beside the replicas' distributions.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "estimators/burst_prediction.hpp"
#include "estimators/burst_statistics.hpp"

namespace gs {

struct BurstAnalysisOptions {
  std::optional<double> k;  // threshold mean + k·σ; else the one that makes `share` of the bins bursts
  double share = 0.01;
  FeatureSet features = FeatureSet::fs3;
  double bin_seconds = 300;
  std::vector<std::size_t> horizons;  // bins, increasing; empty: no prediction
  PredictionOptions prediction;
  ScheduleOptions scheduling;         // its bin_seconds is the series'
  std::size_t run_length_limit = 12;  // run-length counts of 1 … limit − 1 bins, the last one ≥ limit
  double histogram_step = 0.2, histogram_limit = 10;
};

// The threshold the options ask for: mean + k·σ when k is given, else the
// one that makes `share` of the bins bursts.
BurstThreshold burst_threshold(const std::vector<double>& series, const BurstAnalysisOptions& options);

// Algorithm 1 decided one way over a set of windows: per α the windows'
// delays, runtimes and totals, their means and (real series) block-bootstrap
// intervals of the means.
struct ScheduleSummary {
  std::string decided_by;  // perfect (all windows), perfect-test (the scored windows), or a predictor
  std::size_t windows = 0;
  std::vector<ScheduledWindows> per_alpha;
  std::vector<double> delay, runtime, total;  // means per α
  std::vector<BlockBootstrapInterval> delay_interval, runtime_interval, total_interval;
};

struct BurstAnalysis {
  BurstThreshold threshold;
  std::vector<int> severity;
  std::size_t bursts = 0;  // bins with severity > 0
  double burst_share = 0;
  std::vector<std::size_t> run_lengths;
  std::vector<std::uint64_t> run_length_counts;  // options.run_length_limit entries
  double mean_run_length = 0;                    // 0 without bursts
  std::vector<std::uint64_t> sigma_histogram;
  std::vector<std::string> feature_names;
  std::vector<HorizonEvaluation> horizons;
  std::vector<ScheduleSummary> scheduling;
  std::string scheduling_note;  // why the predicted patterns were not scheduled, if they were not
};

// `parallel`: the horizons on the cores (one series); false inside a loop
// over replicas.
BurstAnalysis analyse_bursts(const BurstChannels& channels, const BurstAnalysisOptions& options,
                             const std::vector<ExtraSeries>& extra = {}, bool parallel = true);

// A horizon of `bins` bins as a duration: "5min", or "30s" when not whole minutes.
std::string horizon_label(std::size_t bins, double bin_seconds);

// What an F1 cannot show (a non-finding presented as a finding): "" when the
// scores carry information, else why not: the scored rows hold no burst (every
// F1 is 0 by definition), the predictor says "burst" in every scored row (its
// F1 is that of always saying so, 2p/(1 + p) with p the bursts' share: no
// skill) or never.
std::string prediction_non_finding(const BinaryScores& scores);

// One line per (horizon, predictor) of the real series' prediction whose F1
// is a non-finding, naming the horizon, the predictor and why.
std::vector<std::string> prediction_notes(const BurstAnalysis& analysis, double bin_seconds);
// Where a share's threshold falls among tied values, fewer bins than
// ⌊share·n⌋ lie strictly above it: how many were asked and found, and why;
// "" when the detection gives what was asked or k was given.
std::string detection_note(const BurstAnalysis& analysis, const BurstAnalysisOptions& options);
// What a count of logistic fits that stopped at the iteration cap means.
std::string unconverged_note(std::uint64_t fits);

// One predictor's figures at one horizon, and one way of deciding's means at one α.
template <class T>
struct PredictionFiguresOf {
  T f1{}, average_precision{}, severity_macro_f1{};
};
template <class T>
struct ScheduleFiguresOf {
  T delay{}, runtime{}, total{};
};

// The axes of the analysis' figures, set by the options alone (the same for
// the real series and every replica): those of the HDF5 file's prediction and
// scheduling groups.
struct BurstFigureAxes {
  std::size_t run_lengths = 0;          // run-length shares 1 … limit − 1 bins, the last ≥ limit
  std::vector<std::string> predictors;  // persistence, climatology, then the models
  std::vector<std::string> horizons;    // horizon_label of each horizon
  bool severity = false;                // whether severity_macro_f1 is a figure
  std::vector<std::string> decisions;   // ScheduleSummary::decided_by
  std::vector<double> alphas;
  bool operator==(const BurstFigureAxes& o) const {
    return run_lengths == o.run_lengths && predictors == o.predictors && horizons == o.horizons &&
           severity == o.severity && decisions == o.decisions && alphas == o.alphas;
  }
};

// The analysis' figures on named axes, the unit of the Monte Carlo: burst
// share, k, mean run length, the run-length shares, F1 and average precision
// [predictor, horizon], and the scheduling means [decision, α]. T is a value
// (one series) or a FigureDistribution (the replicas' against the real series).
template <class T>
struct BurstFiguresOf {
  BurstFigureAxes axes;
  T burst_share{}, k{}, mean_run_length{};
  std::vector<T> run_length_shares;                // [run length]
  std::vector<PredictionFiguresOf<T>> prediction;  // [predictor, horizon]: use predicted()
  std::vector<ScheduleFiguresOf<T>> scheduling;    // [decision, α]: use scheduled()

  // Cells for the axes, every figure T{}.
  void shape(BurstFigureAxes a) {
    axes = std::move(a);
    run_length_shares.assign(axes.run_lengths, T{});
    prediction.assign(axes.predictors.size() * axes.horizons.size(), {});
    scheduling.assign(axes.decisions.size() * axes.alphas.size(), {});
  }
  PredictionFiguresOf<T>& predicted(std::size_t predictor, std::size_t horizon) {
    return prediction[predictor * axes.horizons.size() + horizon];
  }
  const PredictionFiguresOf<T>& predicted(std::size_t predictor, std::size_t horizon) const {
    return prediction[predictor * axes.horizons.size() + horizon];
  }
  ScheduleFiguresOf<T>& scheduled(std::size_t decision, std::size_t alpha) {
    return scheduling[decision * axes.alphas.size() + alpha];
  }
  const ScheduleFiguresOf<T>& scheduled(std::size_t decision, std::size_t alpha) const {
    return scheduling[decision * axes.alphas.size() + alpha];
  }
};

// Calls visit(name, figure) for every figure of `f`, in the one order of the
// Monte Carlo's rows (the HDF5 file's `figure` dimension): burst_share, k,
// mean_run_length, run_length_share_1 … run_length_share_<limit>+, then per
// horizon and predictor f1/<predictor>/<horizon>, average_precision/…,
// severity_macro_f1/… (with severity), then per decision and α
// delay/<decision>/alpha=<α>, runtime/…, total/….
template <class Figures, class Visit>
void for_each_figure(Figures& f, Visit visit) {
  const BurstFigureAxes& axes = f.axes;
  visit(std::string("burst_share"), f.burst_share);
  visit(std::string("k"), f.k);
  visit(std::string("mean_run_length"), f.mean_run_length);
  for (std::size_t k = 0; k < f.run_length_shares.size(); ++k)
    visit(fmt::format("run_length_share_{}{}", k + 1, k + 1 == f.run_length_shares.size() ? "+" : ""),
          f.run_length_shares[k]);
  for (std::size_t h = 0; h < axes.horizons.size(); ++h)
    for (std::size_t p = 0; p < axes.predictors.size(); ++p) {
      auto& cell = f.predicted(p, h);
      const std::string at = axes.predictors[p] + "/" + axes.horizons[h];
      visit("f1/" + at, cell.f1);
      visit("average_precision/" + at, cell.average_precision);
      if (axes.severity) visit("severity_macro_f1/" + at, cell.severity_macro_f1);
    }
  for (std::size_t d = 0; d < axes.decisions.size(); ++d)
    for (std::size_t a = 0; a < axes.alphas.size(); ++a) {
      auto& cell = f.scheduled(d, a);
      const std::string at = fmt::format("{}/alpha={}", axes.decisions[d], axes.alphas[a]);
      visit("delay/" + at, cell.delay);
      visit("runtime/" + at, cell.runtime);
      visit("total/" + at, cell.total);
    }
}

struct BurstFigures : BurstFiguresOf<double> {
  std::uint64_t unconverged_fits = 0;  // the analysis's logistic fits that stopped without converging
};
BurstFigures burst_figures(const BurstAnalysis& analysis, const BurstAnalysisOptions& options);

// A series' figures in for_each_figure's order, and back into `f` (shaped).
std::vector<double> figure_values(const BurstFigures& f);
void set_figure_values(BurstFigures& f, const std::vector<double>& values);

// The replicas' distribution of a figure against the real series: mean,
// quantile interval and the two-sided Monte Carlo p-value of the real value,
// (1 + #{replicas at least as far from the replicas' median}) / (1 + R).
// Without a real series real and p_value are NaN.
struct FigureDistribution {
  std::string name;  // for_each_figure's
  double real = 0, mean = 0, low = 0, high = 0, p_value = 1;
};

// Every figure's distribution on the figures' axes, and whether the model
// reproduces the real run-length distribution: the total variation distance
// between a series' run-length shares and the replicas' mean shares, for the
// real series and for every replica, with the one-sided Monte Carlo p-value
// (1 + #{replica distance >= real}) / (1 + R), named "run_length_distance".
struct BurstFiguresSummary {
  BurstFiguresOf<FigureDistribution> figures;
  FigureDistribution run_length_distance;
};
// `real` may be null (no real series: real and p NaN); the replicas are not empty.
BurstFiguresSummary summarize_figures(const BurstFigures* real, const std::vector<BurstFigures>& replicas,
                                      double confidence);

}  // namespace gs
