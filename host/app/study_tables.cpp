#include "host/app/study_tables.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gs {

std::string study_tables(const Study& study) {
  const CompareOptions& options = study.options();
  std::vector<std::string> labels;
  for (const Study::Compared& c : study.compared())
    if (std::find(labels.begin(), labels.end(), c.entry.label) == labels.end()) labels.push_back(c.entry.label);
  std::size_t name_width = 7;
  for (const Study::Dataset& d : study.datasets()) name_width = std::max(name_width, d.name.size());
  const auto cell_of = [&](const Study::Dataset& d, const std::string& label) -> const Study::Compared* {
    for (const std::size_t i : d.compared)
      if (study.compared()[i].entry.label == label) return &study.compared()[i];
    return nullptr;
  };
  const auto stopped_of = [&](const Study::Dataset& d, const std::string& label) {
    return std::any_of(d.stopped.begin(), d.stopped.end(), [&](const StoppedModel& s) { return s.model == label; });
  };
  const auto header = [&]() {
    std::string line = fmt::format("{:<{}}", "dataset", name_width);
    for (const auto& l : labels) line += fmt::format("  {:>24}", l);
    return line + "\n";
  };
  std::string out;
  const BootstrapOptions& b = options.bootstrap;
  for (std::size_t m = 0; m < options.metrics.size(); ++m) {
    out += fmt::format("\n{}: median [{:g}% {} interval] over the replicas\n", metric_name(options.metrics[m]),
                       100 * b.confidence, to_string(b.method));
    out += header();
    for (const Study::Dataset& d : study.datasets()) {
      std::string line = fmt::format("{:<{}}", d.name, name_width);
      for (const auto& l : labels) {
        const Study::Compared* c = cell_of(d, l);
        std::string cell = stopped_of(d, l) ? "stopped" : "-";
        if (c) {
          const MedianSummary& s = c->summaries[m];
          cell = s.used == 0 ? std::string("n/a (no finite value)")
                             : fmt::format("{:.3g} [{:.3g}, {:.3g}]", s.median, s.chosen(b.method).low,
                                           s.chosen(b.method).high);
        }
        line += fmt::format("  {:>24}", cell);
      }
      out += line + "\n";
    }
    // Why a metric has no value: the real series' H, or every replica's.
    for (const Study::Dataset& d : study.datasets())
      for (const auto& l : labels)
        if (const Study::Compared* c = cell_of(d, l); c && c->summaries[m].used == 0) {
          const bool real_missing = options.metrics[m] == Metric::hurst && !d.real.hurst_note.empty();
          out += fmt::format("  n/a for {} / {}: {}\n", d.name, l,
                             real_missing ? fmt::format("H of the real series by '{}' has no value ({}); try "
                                                        "compare: {{hurst_estimator: rs}} or a coarser bin",
                                                        options.hurst_estimator, d.real.hurst_note)
                                          : "no replica gives a finite value");
        }
  }
  out += fmt::format(
      "\nmatching degree by {} (3 best, 2 better than average, 1 average, 0 below; '?' = its "
      "interval overlaps a model of another degree)\n",
      metric_name(options.rank_by));
  out += header();
  for (const Study::Dataset& d : study.datasets()) {
    std::string line = fmt::format("{:<{}}", d.name, name_width);
    for (const auto& l : labels) {
      const Study::Compared* c = cell_of(d, l);
      line += fmt::format("  {:>24}", c ? fmt::format("{}{}", c->degree, c->separated ? "" : "?") : "-");
    }
    out += line + "\n";
  }
  bool any_paired = false;
  for (const Study::Dataset& d : study.datasets()) {
    for (const auto& p : d.paired) {
      if (!any_paired)
        out += fmt::format("\nP({} of A < B's) [{:g}% percentile interval]\n", metric_name(options.rank_by),
                           100 * b.confidence);
      any_paired = true;
      out += fmt::format("{:<{}}  {} < {}: {:.3f} [{:.3f}, {:.3f}]\n", d.name, name_width, p.a, p.b, p.result.p,
                         p.result.ci.low, p.result.ci.high);
    }
  }
  return out;
}

}  // namespace gs
