#include "host/app/characterize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"
#include "host/base/output_file.hpp"
#include "host/base/run_paths.hpp"
#include "host/requests/characteristics.hpp"
#include "io/request_trace.hpp"
#include "io/requests_file.hpp"
#include "version.hpp"

namespace gs {

namespace {

// The printed summary's median (type 7, the mean of the middle two for an even count); 0 for none.
double median_of(std::vector<double> v) { return v.empty() ? 0 : SortedSample(std::move(v)).quantile(0.5); }

std::string summary_text(const TraceCharacterization& c, const RequestTrace& trace) {
  std::string text = fmt::format(
      "{} requests read from {} rank(s); {} POSIX calls folded into their MPI-IO calls; {} requests after "
      "sanitization; {} file open sessions ({} inferred where the trace has no open/close)\n",
      c.sanitize.read, trace.ranks, c.sanitize.absorbed, c.sanitize.read - c.sanitize.absorbed, c.sanitize.sessions,
      c.sanitize.inferred_sessions);
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < std::min<std::size_t>(10, c.path_summary.root_exclusive_indices.size()); ++i)
    shown.push_back(std::to_string(c.path_summary.root_exclusive_indices[i]));
  text += fmt::format(
      "generic workload path: {} requests of the root ({} children aligned), {} root-exclusive{}{}\n",
      c.path.table.requests.size(), c.path_summary.children_aligned, c.path_summary.root_exclusive,
      shown.empty() ? "" : fmt::format(" at seq {}", fmt::join(shown, ", ")),
      c.path_summary.root_exclusive > shown.size() ? ", …" : "");
  if (const auto& classes = c.path_summary.rank_classes; classes.size() > 1) {
    std::vector<std::string> shown_classes;
    for (std::size_t k = 0; k < std::min<std::size_t>(classes.size(), 8); ++k)
      shown_classes.push_back(fmt::format("{} like rank {}", classes[k].size(), classes[k].front()));
    text += fmt::format(
        "rank classes: {} (ranks doing the same operations on the same files, of the same sizes): {}{}; a "
        "synthetic process runs the path of the class of the rank whose part it takes\n",
        classes.size(), fmt::join(shown_classes, ", "), classes.size() > shown_classes.size() ? ", …" : "");
  }
  if (c.path_summary.irregular_offsets || c.path_summary.child_only_files)
    text += fmt::format(
        "note: {} shared requests whose children's offsets follow no stride (the file's most common stride is "
        "used); {} files no root request touches (not in the path)\n",
        c.path_summary.irregular_offsets, c.path_summary.child_only_files);
  text += fmt::format("{:<15} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>12} {:>9}\n", "class", "files", "sessions",
                      "med ISG", "med IRG", "med D", "med OT", "med SIZE", "med ST");
  for (int ci = 0; ci < kClassesWithFiles; ++ci) {
    const ClassCharacteristics& k = c.characteristics.classes[ci];
    text += fmt::format("{:<15} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>12} {:>9.3g}\n",
                        file_class_name(static_cast<FileClass>(ci)), k.files, k.sessions.size(),
                        median_of(k.inter_session_gap), median_of(k.inter_request_gap), median_of(k.session_requests),
                        median_of(k.file_open_times), median_of(k.request_size), median_of(k.slack_time));
  }
  return text;
}

}  // namespace

int characterize_command(const CharacterizeOptions& o) {
  if (!o.output.empty()) {  // before the work, not after
    RunPaths paths;
    paths.add_output(fmt::format("--output '{}'", o.output), resolve_output_target(o.output, "--output"));
    paths.add_inputs("trace", o.traces);
    if (!o.counters.empty()) paths.add_input("--counters", o.counters);
    paths.check();
  }
  const RequestTrace trace = read_request_trace(o.traces, o.format, o.trace, o.counters);
  const TraceCharacterization c = characterize_requests(trace);
  if (const std::string w = request_trace_warning(trace); !w.empty()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (trace.bad_lines)
    std::fprintf(stderr, "gpusynth: skipped %llu malformed lines, e.g. %s\n",
                 static_cast<unsigned long long>(trace.bad_lines), trace.bad_line_examples.front().c_str());
  std::fputs(summary_text(c, trace).c_str(), stdout);
  if (o.output.empty()) return kExitOk;
  write_characterization_file(o.output, c,
                              {{"gpusynth_version", std::string(kVersion)},
                               {"stream_version", std::int64_t{kStreamVersion}},
                               {"command_line", o.command_line},
                               {"format", o.format},
                               {"sources", fmt::format("{}", fmt::join(o.traces, ", "))},
                               {"counters", o.counters},
                               {"ranks", static_cast<std::int64_t>(trace.ranks)},
                               {"requests_read", static_cast<std::int64_t>(c.sanitize.read)},
                               {"requests_absorbed", static_cast<std::int64_t>(c.sanitize.absorbed)},
                               {"sessions_inferred", static_cast<std::int64_t>(c.sanitize.inferred_sessions)},
                               {"root_exclusive", static_cast<std::int64_t>(c.path_summary.root_exclusive)},
                               {"rank_classes", static_cast<std::int64_t>(c.path_summary.rank_classes.size())}});
  std::printf("wrote %s\n", o.output.c_str());
  return kExitOk;
}

}  // namespace gs
