#include "host/app/replay_tables.hpp"

#include <fmt/format.h>

#include <cmath>
#include <variant>

namespace gs {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// A figure's unit as the report's figures show it (MiB, MiB/s, µs) and the factor from its own (B,
// B/s, s) to that unit.
struct Shown {
  const char* unit;
  double per_unit;
};
Shown shown_unit(ReplayFigure figure) {
  switch (figure) {
    case ReplayFigure::bytes:
      return {"MiB", kMiB};
    case ReplayFigure::throughput:
      return {"MiB/s", kMiB};
    case ReplayFigure::latency_median:
    case ReplayFigure::latency_p99:
      return {"µs", 1e-6};
    default:
      return {unit_of(figure), 1};
  }
}

std::string value(double x) { return std::isnan(x) ? std::string("n/a") : fmt::format("{:.4g}", x); }

// An estimate in percent with its interval; n/a where a replica left it undefined (a replay of run time 0
// has no throughput).
std::string percent(const Estimate& e) {
  if (std::isnan(e.value)) return "n/a";
  return fmt::format("{:.1f} % [{:.1f}, {:.1f}]", 100 * e.value, 100 * e.low, 100 * e.high);
}

std::string figures_table(const ReplayFidelity& f) {
  std::string out =
      fmt::format("  {:<21} {:>6} {:>11} {:>11} {:>29} {:>26} {:>9} {:>7} {:>9}\n", "figure", "unit", "original",
                  "again", "replicas: mean [95 %]", "replay error [95 %]", "own", "in own", "rank");
  const std::size_t values = f.synthetic.size() + 1;
  for (const FigureComparison& c : f.figures) {
    const Shown shown = shown_unit(c.figure);
    const auto in_unit = [&](double x) { return value(x / shown.per_unit); };
    out += fmt::format(
        "  {:<21} {:>6} {:>11} {:>11} {:>29} {:>26} {:>9} {:>7} {:>9}\n", to_string(c.figure), shown.unit,
        in_unit(c.original), in_unit(c.original_again),
        fmt::format("{} [{}, {}]", in_unit(c.synthetic.value), in_unit(c.synthetic.low), in_unit(c.synthetic.high)),
        percent(c.replay_error),
        std::isnan(c.noise_error) ? std::string("n/a") : fmt::format("{:.1f} %", 100 * c.noise_error),
        within_own_noise(c),
        std::isnan(c.original_rank) ? std::string("n/a") : fmt::format("{:g}/{}", c.original_rank, values));
  }
  out += fmt::format(
      "  (own: the original's second replay against its first, the system's own noise; in own: whether the "
      "replicas' error interval reaches down into it; rank: the original's among itself and the {} replicas, 1 the "
      "smallest)\n",
      f.synthetic.size());
  return out;
}

// Two figures, each against its own goal: the replayer's (//TRACE's: the original's replay against
// the traced run) and the synthesis' (the replicas against the original's replay). Bytes, reads and
// writes get no verdict: the replicas keep the trace's by construction or not at all.
std::string fidelity_lines(const ReplayFidelity& f) {
  const ReplayerFidelity& r = f.replayer;
  const FigureComparison &run = f.figures[static_cast<int>(ReplayFigure::run_time)],
                         &throughput = f.figures[static_cast<int>(ReplayFigure::throughput)];
  const auto error = [](double e) { return std::isnan(e) ? std::string("n/a") : fmt::format("{:.1f} %", 100 * e); };
  const auto goal = [](double e) { return std::isnan(e) ? "n/a" : e <= kTraceReplayError ? "meets" : "above"; };
  std::string out = fmt::format(
      "  the replayer (//TRACE's figure: the original's replay against the traced run): run time {} s against "
      "{} s, {} ({} the 6 % goal); throughput {} MiB/s against {} MiB/s, {} ({})\n",
      value(run.original), value(r.trace_run_time), error(r.run_time_error), goal(r.run_time_error),
      value(throughput.original / kMiB), value(r.trace_throughput / kMiB), error(r.throughput_error),
      goal(r.throughput_error));
  out += fmt::format(
      "  the synthesis (the replicas against the original's replay): run time error {} ({} the 6 % goal), "
      "throughput error {} ({}); the system's own: {}, {}\n",
      percent(run.replay_error), error_against_goal(run.replay_error, kTraceReplayError),
      percent(throughput.replay_error), error_against_goal(throughput.replay_error, kTraceReplayError),
      error(run.noise_error), error(throughput.noise_error));
  return out;
}

std::string verdict(const ReplayFidelity& f) {
  std::string out = fidelity_lines(f);
  // The busy bins and the bytes done first: on a sparse trace most bins are idle, and an idle bin
  // lies inside any band that holds 0, so the all-bins coverage meets any goal there.
  out += fmt::format(
      "  band coverage of the {} busy bins (where the original moved data) {} ({} the 90 % goal); of the bytes "
      "done by each bin's end {} ({})\n",
      f.busy_bins, percent(f.busy_coverage), coverage_against_goal(f.busy_coverage), percent(f.cumulative_coverage),
      coverage_against_goal(f.cumulative_coverage));
  out += fmt::format(
      "  of all {} bins, idle ones included: {}; a replica among the others: {}; the original's second replay: {}\n",
      f.original_bins, percent(f.coverage),
      std::isnan(f.replica_coverage) ? std::string("n/a") : fmt::format("{:.1f} %", 100 * f.replica_coverage),
      std::isnan(f.original_again_coverage) ? std::string("n/a")
                                            : fmt::format("{:.1f} %", 100 * f.original_again_coverage));
  out += fmt::format(
      "  KS throughput per bin {:.3f} [{:.3f}, {:.3f}] (floor {}), latency {:.3f} [{:.3f}, {:.3f}] "
      "(floor {})\n",
      f.ks_throughput.value, f.ks_throughput.low, f.ks_throughput.high, value(f.ks_throughput_floor),
      f.ks_latency.value, f.ks_latency.low, f.ks_latency.high, value(f.ks_latency_floor));
  const ReplicaSpread& spread = f.ks_throughput_replicas;
  out += fmt::format(
      "  the original as one more replica: KS throughput per bin, median over the replicas {} against the 95th "
      "percentile {} between two replicas (median {}, {} pairs) and {} between the original's two replays: "
      "exchangeable {}\n",
      value(f.ks_throughput_median), value(spread.p95), value(spread.median), spread.pairs,
      value(f.ks_throughput_floor), exchangeability_word(f));
  return out;
}

}  // namespace

std::string replay_tables(const std::vector<ReplayResult>& results) {
  std::string out;
  for (const ReplayResult& r : results) {
    const ReplayFidelity& f = r.fidelity;
    const auto text = [&](const char* name) { return text_attribute(r, name); };
    out += fmt::format("replay '{}': {} replay(s) of the original, {} replicas, bins of {} s\n", r.name,
                       f.originals.size(), f.synthetic.size(), f.options.bin_seconds);
    // What was measured: the figures are this file system's, with these options, on this device.
    out += fmt::format("  target {}: {} on {}, mounted at {} ({})\n", text("target"), text("filesystem_type"),
                       text("filesystem_device"), text("filesystem_mount_point"), text("filesystem_mount_options"));
    if (const std::string servers = text("fio_servers"); !servers.empty())  // --clients: one replay over many
      out += fmt::format("  fio servers {}: {}\n", servers, text("fio_server_processes"));
    if (const std::string w = text("warnings"); !w.empty()) out += fmt::format("  warning: {}\n", w);
    out += figures_table(f);
    out += verdict(f);
  }
  return out;
}

}  // namespace gs
