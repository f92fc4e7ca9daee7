// The whole burst analysis of one series (the Darshan burst paper, sections
// IV–V): detection (threshold, severity, runs, σ histogram), prediction per
// horizon, and Algorithm 1 over every window with a burst, decided on the
// observed pattern (a perfect predictor) and on each model's predictions
// (scored against what happened). The same analysis runs on the real series
// and on every replica of a fitted model; a Monte Carlo summary sets the real
// series' figures beside the replicas' distributions.
#pragma once

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

// The analysis' figures as one flat row of named numbers, the unit of the
// Monte Carlo: burst share, k, mean run length, the run-length shares, F1 and
// average precision per predictor and horizon, and the scheduling means per
// decision and α.
struct BurstFigures {
  std::vector<std::string> names;
  std::vector<double> values;
  std::size_t run_length_first = 0, run_length_count = 0;  // where the run-length shares are in the row
  std::uint64_t unconverged_fits = 0;  // the analysis's logistic fits that stopped without converging
};
BurstFigures burst_figures(const BurstAnalysis& analysis, const BurstAnalysisOptions& options);

// The replicas' distribution of every figure against the real series: mean,
// quantile interval and the two-sided Monte Carlo p-value of the real value,
// (1 + #{replicas at least as far from the replicas' median}) / (1 + R).
// Without a real series (null) real and p_value are NaN.
struct FigureDistribution {
  std::string name;
  double real = 0, mean = 0, low = 0, high = 0, p_value = 1;
};
std::vector<FigureDistribution> figure_distributions(const BurstFigures* real,
                                                     const std::vector<BurstFigures>& replicas, double confidence);

// Does a model reproduce the real run-length distribution? The total
// variation distance between a series' run-length shares and the replicas'
// mean shares, for the real series and for every replica; p_value is the
// one-sided Monte Carlo p-value (1 + #{replica distance >= real}) / (1 + R).
// Named "run_length_distance"; NaN real and p without a real series.
FigureDistribution run_length_fit(const BurstFigures* real, const std::vector<BurstFigures>& replicas,
                                  double confidence);

}  // namespace gs
