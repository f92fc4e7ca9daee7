// System-level I/O bursts (the Darshan burst paper, sections IV–V): the
// burst threshold mean + k·σ (k given, or chosen for a share of burst bins),
// severity classes, runs of consecutive bursts, the histogram in 0.2σ steps,
// the EMA/MACD features, and the burst-aware start of Algorithm 1. σ is the
// population standard deviation of the series (the paper's "stdev of all
// data points"). Nothing here looks ahead: a feature at bin t uses bins ≤ t.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gs {

struct BurstThreshold {
  double mean = 0, sigma = 0;  // of the series
  double k = 0;                // threshold = mean + k·sigma
  double threshold = 0;        // a bin is a burst when its value is above it (strictly)
};

// mean + k·σ.
BurstThreshold burst_threshold_for_k(const std::vector<double>& series, double k);

// The threshold that makes ⌊share·n⌋ bins bursts: the (⌊share·n⌋ + 1)-th largest
// value, so with distinct values exactly ⌊share·n⌋ bins lie above it (ties
// above it can only make fewer). share in (0, 1).
BurstThreshold burst_threshold_for_share(const std::vector<double>& series, double share);

// Severity classes: 0 no burst; 1–5 the five equal ranges from the threshold
// to mean + 10σ; 6 above mean + 10σ (all bursts are 6 when the threshold is
// already there).
constexpr int kSeverityClasses = 7;
std::vector<int> burst_severity(const std::vector<double>& series, const BurstThreshold& threshold);

// Lengths of the runs of consecutive bursts, in order.
std::vector<std::size_t> burst_run_lengths(const std::vector<int>& severity);

// Bins counted by (value − mean)/σ in steps of `step` σ from −limit to +limit
// (values beyond land in the end bins): 2·limit/step counts, the first for
// [−limit, −limit + step).
std::vector<std::uint64_t> sigma_histogram(const std::vector<double>& series, double step = 0.2, double limit = 10.0);

// EMA with α = 2/(n + 1) over a window of n bins: E_0 = x_0, E_t = α·x_t + (1 − α)·E_{t−1}.
std::vector<double> exponential_moving_average(const std::vector<double>& series, double window_bins);

// MACD = EMA over the short window − EMA over the long window (the paper's
// printed eq. (3), "E_t − E_{t−1}", is the usual definition with its
// subscripts garbled: it names two EMAs of different time frames).
std::vector<double> macd(const std::vector<double>& series, double short_window_bins, double long_window_bins);

// Algorithm 1, burst-aware start of a job of `min_time` seconds (`max_time`
// when every bin is a burst) on a predicted `pattern` of one prediction
// interval: starting in bin i for i = 0 … options − 1 with delay i·bin;
// `one_based` numbers the options 1 … options as the printed loop does, so its
// delay is (i + 1)·bin (the first bin counts as waited). A bin without a burst
// does bin_seconds of work, a burst bin bin_seconds·min_time/max_time (the
// reading of the garbled lines 2–3 that makes a job in bursts take max_time);
// bins past the pattern count as bursts (the paper: "we assume the worst").
// Score α·delay + (1 − α)·runtime; the earliest start wins ties.
struct BurstAwareStart {
  std::size_t start = 0;  // the chosen option
  double delay = 0;       // s
  double runtime = 0;     // s, whole bins
  double score = 0;
};
struct BurstAwareOptions {
  std::size_t options = 24;
  bool one_based = false;
};
BurstAwareStart burst_aware_start(const std::vector<int>& pattern, double bin_seconds, double min_time, double max_time,
                                  double alpha, const BurstAwareOptions& options = {});
// burst_aware_start in two parts, so that the runtimes serve every α: the
// runtime from each of the first `options` bins of the pattern, then the
// option of least score (runtimes[i] from option i; options unchecked).
std::vector<double> start_option_runtimes(const std::vector<int>& pattern, double bin_seconds, double min_time,
                                          double max_time, std::size_t options);
BurstAwareStart best_start(const std::vector<double>& runtimes, double bin_seconds, double alpha, bool one_based);

// The paper's feature sets for one direction (reads or writes), one row per
// bin, row t from bins ≤ t only: FS1 the bytes; FS2 + operations and I/O time;
// FS3 + the EMAs over 60, 130, 500 and 1000 minutes and the MACDs 60−130 and
// 500−1000 (windows converted to bins, at least 1).
struct BurstChannels {
  std::vector<double> bytes, operations, io_time;  // per bin
};
// fs3_bytes: FS3 without operations and I/O time, for series that have only
// bytes (the replicas of a model).
enum class FeatureSet { fs1, fs2, fs3, fs3_bytes };
const char* to_string(FeatureSet set);
FeatureSet parse_feature_set(const std::string& text);  // fs1, fs2, fs3, fs3-bytes; UserError otherwise
// The set computable from bytes alone: fs1 for fs1/fs2, fs3-bytes for fs3.
FeatureSet bytes_only(FeatureSet set);
struct FeatureMatrix {
  std::vector<std::string> names;
  std::size_t rows = 0;
  std::vector<double> values;  // row-major
  double at(std::size_t row, std::size_t column) const { return values[row * names.size() + column]; }
};
FeatureMatrix burst_features(const BurstChannels& channels, FeatureSet set, double bin_minutes);

// The honest baselines: persistence predicts for bin t what bin t is (a burst
// now, a burst at the horizon); climatology scores every bin with the
// training share of bursts, a constant, so its average precision is the share
// of bursts where it is scored (no function needed beyond average_precision).
std::vector<int> persistence_predictions(const std::vector<int>& severity, std::size_t rows);

// Logistic regression by iteratively reweighted least squares (Newton's
// method, each step shortened until the penalized likelihood does not fall;
// converged when a step is below 1e-10 or the likelihood's relative gain below
// 1e-12) on the
// standardized features (means and deviations of the training rows), with a
// small ridge (l2) so that separable or constant columns stay finite.
// Coefficients on the original scale: intercept first. Newton's method starts
// at `warm` (a fit on similar rows; fewer iterations, the same maximum to
// about 1e-10) or else at the constant model.
constexpr int kLogisticIterations = 100;
constexpr double kLogisticRidge = 1e-8;  // l2: a ridge of 1e-8·rows
struct LogisticModel {
  std::vector<double> coefficients;  // intercept, then one per feature
  double log_likelihood = 0;         // at the coefficients (without the ridge's penalty)
  int iterations = 0;
  bool converged = false;  // stopped within kLogisticIterations (a step below 1e-10, no gain left)
  // P(burst) of rows first … first + count − 1, and of one row (the same bits).
  std::vector<double> probabilities(const FeatureMatrix& features, std::size_t first, std::size_t count) const;
  double probability(const FeatureMatrix& features, std::size_t row) const;
};
// The memory of a fit (the standardized design by column, the pass's
// per-row terms), kept between fits so that a horizon's fits fill it once:
// fresh memory each fit cost a quarter of the Monte Carlo's time in page faults.
struct LogisticWorkspace {
  std::unique_ptr<double[]> values;  // not zeroed: a fit writes every value it reads
  std::size_t size = 0;
};
LogisticModel fit_logistic(const FeatureMatrix& features, const std::vector<int>& labels,
                           const std::vector<std::size_t>& rows, double l2 = kLogisticRidge,
                           const LogisticModel* warm = nullptr, LogisticWorkspace* workspace = nullptr);
// The standard errors of a fit's coefficients (intercept first), from the
// inverse Fisher information at them with the fit's ridge (l2 = 0: the usual
// SEs). Apart from the fit: the analyses use the coefficients alone, and the
// information at the estimate is another pass over the rows.
std::vector<double> logistic_standard_errors(const FeatureMatrix& features, const std::vector<int>& labels,
                                             const std::vector<std::size_t>& rows, const LogisticModel& model,
                                             double l2 = kLogisticRidge);

// The label of bin t for a horizon of H bins, for t = 0 … n − H − 1 (later
// bins have no future to label): `at` whether bin t + H is a burst, `within`
// whether any of bins t + 1 … t + H is.
enum class BurstLabel { at, within };
const char* to_string(BurstLabel label);
std::vector<int> burst_labels(const std::vector<int>& severity, std::size_t horizon_bins, BurstLabel how);

// Severity labels for horizon H: the class of bin t + H (`at`), or the
// highest class among bins t + 1 … t + H (`within`).
std::vector<int> severity_labels(const std::vector<int>& severity, std::size_t horizon_bins, BurstLabel how);

// One decision's place in a confusion table. Among classes, a hit is a true
// positive of its class and a miss a false positive of the class predicted
// and a false negative of the true one.
template <class Count>
void count_class_decision(int truth, int predicted, Count* true_positives, Count* false_positives,
                          Count* false_negatives) {
  if (truth == predicted) {
    ++true_positives[truth];
  } else {
    ++false_positives[predicted];
    ++false_negatives[truth];
  }
}
// Binary: the cell, in BinaryScores' order (true positives, false positives,
// false negatives, true negatives).
constexpr int kBinaryCells = 4;
inline int binary_cell(bool truth, bool predicted) { return truth ? (predicted ? 0 : 2) : (predicted ? 1 : 3); }

// F1 over several classes: each class's F1 (one against the rest), their
// unweighted mean over the classes present in the truth (macro, the default
// reported: rare severe classes count as much as the rest) and the mean
// weighted by each class's support.
struct MulticlassF1 {
  std::vector<double> per_class;  // kSeverityClasses entries; 0 for a class never present nor predicted
  double macro = 0, weighted = 0;
  int classes_present = 0;  // in the truth; with one, macro is that class's F1 and says nothing
};
MulticlassF1 multiclass_f1(const std::vector<int>& truth, const std::vector<int>& predicted, int classes,
                           const std::vector<std::size_t>& which = {});
// The same figures from each class's true positive, false positive and false negative counts.
MulticlassF1 multiclass_f1_of_counts(const std::vector<double>& true_positives,
                                     const std::vector<double>& false_positives,
                                     const std::vector<double>& false_negatives);

struct BinaryScores {
  std::uint64_t true_positives = 0, false_positives = 0, false_negatives = 0, true_negatives = 0;
  double precision = 0, recall = 0, f1 = 0;  // 0 where undefined (no positive predicted or present)
};
// Over the positions `which` of the two sequences (all when empty).
BinaryScores binary_scores(const std::vector<int>& truth, const std::vector<int>& predicted,
                           const std::vector<std::size_t>& which = {});
// The counts, precision, recall and F1 of a table's cells in binary_cell's order.
BinaryScores binary_scores_of_cells(const std::uint64_t* cells);

// The rows in decreasing order of their score, rows of equal score in the
// order given (a stable sort's order, by sorting (score, place) pairs). A NaN
// score is an InternalError.
std::vector<std::size_t> rows_by_decreasing_score(const std::vector<double>& score,
                                                  const std::vector<std::size_t>& rows);

// The levels of a ranking where burst rows lie, in decreasing order of score:
// each distinct score of a burst row (tied rows one level; the value of the
// first of `rows` at it, so −0 or +0 as a stable sort's run would begin), the
// burst rows at it and the rows scoring at least it (a row counted as often as
// `rows` holds it). Average precision and the F1-optimal threshold change only
// at these levels, so they need no order of the other rows: one pass over the
// rows, each placed among the levels by a binary search. A NaN score is an
// InternalError.
struct HitLevel {
  double score = 0;
  std::uint64_t hits = 0, seen = 0;
};
std::vector<HitLevel> hit_levels(const std::vector<int>& truth, const std::vector<double>& score,
                                 const std::vector<std::size_t>& rows);

// Area under the precision-recall curve as average precision: the mean of the
// precision at each true positive, scores in decreasing order (ties together).
// The hits, rows seen and their sums are those of a pass over the sorted rows
// (whole numbers; a run without a hit adds +0), so the same bits.
double average_precision(const std::vector<int>& truth, const std::vector<double>& score,
                         const std::vector<std::size_t>& which = {});

// The probability level with the best F1 over `rows` (a burst predicted where
// the probability is at least it; the highest level of the best), above 1 when
// no row is a burst. A sweep down every level of the probabilities has its
// best at a level holding a burst row (between them F1 only falls), so the
// sweep over hit_levels gives the same level.
double f1_optimal_threshold(const std::vector<double>& probability, const std::vector<int>& labels,
                            const std::vector<std::size_t>& rows);

// Average precision of many resamples of the same scored rows (the bootstrap's):
// the rows sorted by score once, and a resample's figure from its rows'
// multiplicities with the bits of average_precision on the resampled rows. The
// rows seen and the hits are whole numbers (exact in integers and in doubles
// alike), and a run of tied scores without a hit adds exactly 0 to the sum: so
// a resample counts the rows it holds up to the last run with a burst row and
// adds to the sum at those runs alone, in the same order.
class RankedRows {
 public:
  // `rows`: distinct row indices of truth and score.
  RankedRows(const std::vector<int>& truth, const std::vector<double>& score, const std::vector<std::size_t>& rows);
  // `multiplicity[j]`: how often the resample holds rows[j] (block_multiplicities).
  double average_precision(const std::vector<std::uint32_t>& multiplicity) const;

 private:
  struct HitRun {
    std::size_t end;                  // the place after the run of tied scores
    std::size_t first_burst, bursts;  // its burst rows: burst_position_[first_burst …]
  };
  std::vector<std::uint32_t> position_;  // per place in the order of decreasing score: the row's position in `rows`
  std::vector<std::uint32_t> burst_position_;  // the burst rows' positions, in the order of their places
  std::vector<HitRun> hit_runs_;               // the runs holding a burst row, in the order of decreasing score
};

// Moving-block bootstrap (bins are dependent): each resample joins blocks of
// `block` consecutive positions of 0 … n − 1 starting at uniform places
// (Philox at (key, resample, position)), cut to n; the interval holds the
// (1 ∓ confidence)/2 quantiles of the statistic over `resamples` resamples.
struct BlockBootstrapInterval {
  double low = 0, high = 0;
};
template <class Statistic>
BlockBootstrapInterval block_bootstrap(std::size_t n, std::size_t block, std::uint32_t resamples, double confidence,
                                       std::uint64_t seed, std::uint32_t stream, Statistic statistic);
std::vector<std::size_t> block_resample(std::size_t n, std::size_t block, std::uint64_t seed, std::uint32_t stream,
                                        std::uint32_t resample);
// The same resample as its blocks: positions start … start + length − 1, in order.
struct ResampleBlock {
  std::size_t start = 0, length = 0;
};
std::vector<ResampleBlock> block_resample_blocks(std::size_t n, std::size_t block, std::uint64_t seed,
                                                 std::uint32_t stream, std::uint32_t resample);
// How often the blocks hold each of the positions 0 … n − 1 (into `multiplicity`, resized to n).
void block_multiplicities(const std::vector<ResampleBlock>& blocks, std::size_t n,
                          std::vector<std::uint32_t>& multiplicity);

// Whole-number tallies over resamples of positions 0 … n − 1, each position
// adding its own counters: kept as prefix sums, a resample's tallies cost one
// subtraction per block and counter instead of an addition per position (the
// bootstrap's counts of a predictor's decisions; whole numbers, so the same
// counts in any order). The prefix sums are 32-bit: enough while a counter's
// total over all positions stays below 2^32 (the bootstrap's add 0 or 1 per row).
// Memory: 4·counters bytes per position (the bootstrap's 25 counters with
// severity: 100 bytes per scored row and predictor, 40 MB for the four
// predictors of 10^5 scored rows).
class BlockTallies {
 public:
  // counters_of(position, counters) adds the position's counters into counters[0 … counters − 1].
  template <class CountersOf>
  BlockTallies(std::size_t n, std::size_t counters, CountersOf counters_of);
  std::size_t counters() const { return counters_; }
  // The resample's tallies into tallies[0 … counters − 1].
  void tally(const std::vector<ResampleBlock>& blocks, std::uint64_t* tallies) const;

 private:
  std::size_t counters_;
  std::vector<std::uint32_t> prefix_;  // (n + 1) × counters: the tallies of positions 0 … i − 1 at row i
};

template <class CountersOf>
BlockTallies::BlockTallies(std::size_t n, std::size_t counters, CountersOf counters_of)
    : counters_(counters), prefix_((n + 1) * counters, 0) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t* next = prefix_.data() + (i + 1) * counters;
    std::copy_n(next - counters, counters, next);
    counters_of(i, next);
  }
}
BlockBootstrapInterval quantile_interval(std::vector<double> values, double confidence);

template <class Statistic>
BlockBootstrapInterval block_bootstrap(std::size_t n, std::size_t block, std::uint32_t resamples, double confidence,
                                       std::uint64_t seed, std::uint32_t stream, Statistic statistic) {
  std::vector<double> values(resamples);
  for (std::uint32_t b = 0; b < resamples; ++b) values[b] = statistic(block_resample(n, block, seed, stream, b));
  return quantile_interval(std::move(values), confidence);
}

// How long a job of `min_time` seconds takes from bin `start` of a pattern
// (Algorithm 1's inner loop, in whole bins); bins past the pattern are bursts
// when `past_end_is_burst`, else free.
double job_runtime(const std::vector<int>& pattern, std::size_t start, double bin_seconds, double min_time,
                   double max_time, bool past_end_is_burst);

// Algorithm 1 over windows of a series (`realized`, its severity): for each
// window start w the start is chosen on `decided(w)`, a pattern of `window`
// bins (the realized bins themselves for a perfect predictor, or what a
// predictor said before bin w), and the runtime is what the realized series
// gives from there (the gain a forecaster actually delivers).
struct ScheduleOptions {
  double bin_seconds = 300, min_time = 600, max_time = 1800;
  std::size_t window = 24;
  bool one_based = false;
  std::vector<double> alphas = {1, 0.7, 0.6, 0.5, 0.4, 0};
};
struct ScheduledWindows {
  double alpha = 0;
  std::vector<double> delay, runtime, total;  // s, per window
};
// The windows worth scheduling: starts w ≥ first whose `window` bins hold a
// burst and after which the slowest job from the last option still ends
// inside the series (w + window + ⌈max_time/bin⌉ ≤ n).
std::vector<std::size_t> burst_windows(const std::vector<int>& realized, std::size_t first,
                                       const ScheduleOptions& options);
template <class Decided>
std::vector<ScheduledWindows> schedule_windows(const std::vector<std::size_t>& windows, Decided decided,
                                               const std::vector<int>& realized, const ScheduleOptions& options);
void check_schedule_options(const ScheduleOptions& options);

template <class Decided>
std::vector<ScheduledWindows> schedule_windows(const std::vector<std::size_t>& windows, Decided decided,
                                               const std::vector<int>& realized, const ScheduleOptions& o) {
  check_schedule_options(o);
  std::vector<ScheduledWindows> out(o.alphas.size());
  for (std::size_t a = 0; a < o.alphas.size(); ++a) out[a].alpha = o.alphas[a];
  for (std::size_t w : windows) {
    const std::vector<double> runtimes =
        start_option_runtimes(decided(w), o.bin_seconds, o.min_time, o.max_time, o.window);
    for (std::size_t a = 0; a < o.alphas.size(); ++a) {
      const BurstAwareStart chosen = best_start(runtimes, o.bin_seconds, o.alphas[a], o.one_based);
      const std::size_t bin = w + chosen.start - (o.one_based ? 1 : 0);
      const double runtime = job_runtime(realized, bin, o.bin_seconds, o.min_time, o.max_time, false);
      out[a].delay.push_back(chosen.delay);
      out[a].runtime.push_back(runtime);
      out[a].total.push_back(chosen.delay + runtime);
    }
  }
  return out;
}

}  // namespace gs
