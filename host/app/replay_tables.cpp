#include "host/app/replay_tables.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gs {

namespace {

constexpr double kTraceReplayError = 0.06;  // //TRACE's "average replay error below 6 %"
constexpr double kCoverageGoal = 0.90;

std::string value(double x) { return std::isnan(x) ? std::string("n/a") : fmt::format("{:.4g}", x); }

std::string percent(const Estimate& e) {
  return fmt::format("{:.1f} % [{:.1f}, {:.1f}]", 100 * e.value, 100 * e.low, 100 * e.high);
}

std::string figures_table(const ReplayFidelity& f) {
  std::string out = fmt::format("  {:<21} {:>6} {:>11} {:>11} {:>29} {:>26} {:>9}\n", "figure", "unit", "original",
                                "again", "replicas: mean [95 %]", "replay error [95 %]", "own");
  for (const FigureComparison& c : f.figures)
    out += fmt::format(
        "  {:<21} {:>6} {:>11} {:>11} {:>29} {:>26} {:>9}\n", to_string(c.figure), unit_of(c.figure), value(c.original),
        value(c.original_again),
        fmt::format("{} [{}, {}]", value(c.synthetic.value), value(c.synthetic.low), value(c.synthetic.high)),
        percent(c.replay_error),
        std::isnan(c.noise_error) ? std::string("n/a") : fmt::format("{:.1f} %", 100 * c.noise_error));
  return out;
}

std::string verdict(const ReplayFidelity& f) {
  std::string out;
  for (const FigureComparison& c : f.figures)
    if (c.figure == ReplayFigure::run_time || c.figure == ReplayFigure::bytes)
      out += fmt::format("  {} replay error {:.1f} % ({} //TRACE's 6 %)\n", to_string(c.figure),
                         100 * c.replay_error.value,
                         c.replay_error.high < kTraceReplayError  ? "below"
                         : c.replay_error.low > kTraceReplayError ? "above"
                                                                  : "interval across");
  out += fmt::format(
      "  band coverage {} of {} bins ({} the 90 % goal), {} of the {} busy ones; a replica among "
      "the others: {}; the original's second replay: {}\n",
      percent(f.coverage), f.original_bins,
      f.coverage.low >= kCoverageGoal   ? "meets"
      : f.coverage.high < kCoverageGoal ? "below"
                                        : "interval across",
      percent(f.busy_coverage), f.busy_bins,
      std::isnan(f.replica_coverage) ? std::string("n/a") : fmt::format("{:.1f} %", 100 * f.replica_coverage),
      std::isnan(f.original_again_coverage) ? std::string("n/a")
                                            : fmt::format("{:.1f} %", 100 * f.original_again_coverage));
  out += fmt::format("  bytes done by each bin's end inside the replicas' band: {}\n", percent(f.cumulative_coverage));
  out += fmt::format(
      "  KS throughput per bin {:.3f} [{:.3f}, {:.3f}] (floor {}), latency {:.3f} [{:.3f}, {:.3f}] "
      "(floor {})\n",
      f.ks_throughput.value, f.ks_throughput.low, f.ks_throughput.high, value(f.ks_throughput_floor),
      f.ks_latency.value, f.ks_latency.low, f.ks_latency.high, value(f.ks_latency_floor));
  return out;
}

}  // namespace

std::string replay_tables(const std::vector<ReplayResult>& results) {
  std::string out;
  for (const ReplayResult& r : results) {
    const ReplayFidelity& f = r.fidelity;
    out += fmt::format("replay '{}': {} replay(s) of the original, {} replicas, bins of {} s\n", r.name,
                       f.originals.size(), f.synthetic.size(), f.options.bin_seconds);
    out += figures_table(f);
    out += verdict(f);
  }
  return out;
}

}  // namespace gs
