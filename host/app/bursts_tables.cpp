#include "host/app/bursts_tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gs {

namespace {

std::string interval(double value, const BlockBootstrapInterval& i) {
  return fmt::format("{:.3f} [{:.3f}, {:.3f}]", value, i.low, i.high);
}

void detection(std::string& out, const BurstAnalysis& a, const BurstAnalysisOptions& o) {
  out += fmt::format(
      "  {} bins of {} s; threshold {:.6g} = mean + {:.3f} sigma; {} burst bins ({:.2f} %) in {} runs, "
      "mean run {:.2f} bins\n",
      a.severity.size(), o.bin_seconds, a.threshold.threshold, a.threshold.k, a.bursts, 100 * a.burst_share,
      a.run_lengths.size(), a.mean_run_length);
  if (const std::string note = detection_note(a, o); !note.empty()) out += "  note: " + note + "\n";
}

void prediction(std::string& out, const BurstAnalysis& a, const BurstAnalysisOptions& o) {
  if (a.horizons.empty()) return;
  const HorizonEvaluation& first = a.horizons.front();
  out += fmt::format("  prediction ({} labels, features {}, {} scored rows from bin {}): F1 [{:.0f} % interval]\n",
                     to_string(o.prediction.label), to_string(o.features), first.test_rows, first.first_test_row,
                     100 * o.prediction.confidence);
  out += fmt::format("  {:>9}", "horizon");
  for (const ScoredPredictor& p : first.predictors) out += fmt::format("  {:<24}", to_string(p.predictor));
  out += "\n";
  for (const HorizonEvaluation& e : a.horizons) {
    out += fmt::format("  {:>9}", horizon_label(e.horizon_bins, o.bin_seconds));
    for (const ScoredPredictor& p : e.predictors) out += fmt::format("  {:<24}", interval(p.scores.f1, p.f1));
    out += "\n";
  }
  for (const std::string& note : prediction_notes(a, o.bin_seconds)) out += "  note: " + note + "\n";
  if (o.prediction.severity) {
    out += "  severity macro F1 (first and last horizon):";
    for (const HorizonEvaluation* e : {&a.horizons.front(), &a.horizons.back()})
      for (const ScoredPredictor& p : e->predictors)
        out += fmt::format(" {}@{}bins {:.3f}", to_string(p.predictor), e->horizon_bins, p.severity.macro);
    out += "\n";
  }
}

void scheduling(std::string& out, const BurstAnalysis& a, const BurstAnalysisOptions& o) {
  out += fmt::format("  Algorithm 1 (min {} s, max {} s, {} options of {} s): mean over the windows, s\n",
                     o.scheduling.min_time, o.scheduling.max_time, o.scheduling.window, o.bin_seconds);
  out += fmt::format("  {:<14} {:>7} {:>5}  {:<26} {:<26} {:<26}\n", "decided by", "windows", "alpha", "delay",
                     "runtime", "total");
  for (const ScheduleSummary& s : a.scheduling)
    for (std::size_t k = 0; k < s.per_alpha.size(); ++k) {
      const auto cell = [](double v, const BlockBootstrapInterval& i) {
        return std::isnan(v) ? std::string("n/a (no window)")
                             : fmt::format("{:.0f} [{:.0f}, {:.0f}]", v, i.low, i.high);
      };
      out += fmt::format("  {:<14} {:>7} {:>5g}  {:<26} {:<26} {:<26}\n", s.decided_by, s.windows, s.per_alpha[k].alpha,
                         cell(s.delay[k], s.delay_interval[k]), cell(s.runtime[k], s.runtime_interval[k]),
                         cell(s.total[k], s.total_interval[k]));
    }
  if (!a.scheduling_note.empty()) out += "  note: " + a.scheduling_note + "\n";
}

void monte_carlo(std::string& out, const MonteCarloResult& r, const BurstAnalysisOptions& o) {
  const BurstFiguresOf<FigureDistribution>& f = r.summary.figures;
  out += fmt::format("  Monte Carlo '{}': {} replicas; {}the replicas' mean [interval]\n", r.ensemble,
                     r.replicas.size(), std::isnan(f.burst_share.real) ? "" : "real series against ");
  // The figures a reader looks at first: share, k, runs, F1 of the first model at the first and last horizon,
  // and the runtime of a perfect predictor's schedule with alpha = 1 and 0.
  std::vector<const FigureDistribution*> shown = {&f.burst_share, &f.k, &f.mean_run_length};
  if (!f.run_length_shares.empty()) shown.push_back(&f.run_length_shares.front());
  const std::string model =
      to_string(o.prediction.models.empty() ? Predictor::persistence : o.prediction.models.front());
  const auto predictor = std::find(f.axes.predictors.begin(), f.axes.predictors.end(), model);
  if (predictor != f.axes.predictors.end() && !f.axes.horizons.empty()) {
    const auto p = static_cast<std::size_t>(predictor - f.axes.predictors.begin());
    shown.push_back(&f.predicted(p, 0).f1);
    if (f.axes.horizons.size() > 1) shown.push_back(&f.predicted(p, f.axes.horizons.size() - 1).f1);
  }
  for (std::size_t a = 0; a < f.axes.alphas.size(); ++a)  // decision 0 is the perfect predictor
    if (f.axes.alphas[a] == 0 || f.axes.alphas[a] == 1) shown.push_back(&f.scheduled(0, a).runtime);
  shown.push_back(&r.summary.run_length_distance);
  for (const FigureDistribution* d : shown)
    out += fmt::format("    {:<28} real {:<10.4g} replicas {:.4g} [{:.4g}, {:.4g}]  p = {:.3f}\n", d->name, d->real,
                       d->mean, d->low, d->high, d->p_value);
}

void augmentation(std::string& out, const AugmentationResult& r) {
  out += fmt::format("  trained with {} replicas of '{}': F1 real only -> with replicas, difference interval\n",
                     r.replicas, r.ensemble);
  const std::size_t columns = r.horizon_bins.size();
  for (std::size_t m = 0; m < r.predictors.size(); ++m)
    for (std::size_t h = 0; h < columns; h += std::max<std::size_t>(1, columns / 4)) {
      const AugmentedF1& cell = r.at(m, h);
      out += fmt::format("    {:<10} {:>9}  {:.3f} -> {:.3f}  [{:+.3f}, {:+.3f}]\n", r.predictors[m],
                         horizon_label(r.horizon_bins[h], r.bin_seconds), cell.real_only, cell.augmented,
                         cell.difference_low, cell.difference_high);
    }
  for (const std::string& note : r.notes) out += "    note: " + note + "\n";
}

}  // namespace

std::string bursts_tables(const std::vector<BurstsOutcome>& outcomes) {
  std::string out;
  for (const BurstsOutcome& o : outcomes) {
    out += fmt::format("bursts '{}' ({:.1f} s)\n", o.name, o.seconds);
    if (o.real) {
      detection(out, *o.real, o.options);
      prediction(out, *o.real, o.options);
      scheduling(out, *o.real, o.options);
    }
    for (const MonteCarloResult& r : o.monte_carlo) monte_carlo(out, r, o.replica_options);
    for (const AugmentationResult& r : o.augmented) augmentation(out, r);
  }
  return out;
}

}  // namespace gs
