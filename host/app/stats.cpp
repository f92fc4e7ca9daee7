#include "host/app/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "estimators/empirical.hpp"
#include "estimators/series.hpp"
#include "host/app/json.hpp"
#include "host/base/errors.hpp"
#include "host/base/output_file.hpp"
#include "host/base/parallel.hpp"
#include "host/base/run_paths.hpp"
#include "io/hdf5_library.hpp"
#include "io/line_reader.hpp"
#include "io/stats_file.hpp"
#include "version.hpp"

namespace gs {

namespace {

const std::vector<std::size_t> kPrintedLags = {1, 2, 5, 10, 20, 50, 100};

std::string readable_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) bytes /= 1024, ++u;
  return fmt::format("{:.4g} {}", bytes, units[u]);
}

double channel_total(const BinnedSeries& b, const char* name) {
  const auto it = b.channels.find(name);
  if (it == b.channels.end()) return NAN;
  double s = 0;
  for (double v : it->second) s += v;
  return s;
}

}  // namespace

nlohmann::json summary_json(const TraceStatistics& s, const std::vector<std::string>& sha) {
  nlohmann::json j = statistics_json(s);
  j["source"] = s.loaded.trace.sources;
  j["sha256"] = sha;
  j["format"] = s.loaded.trace.format;
  j["series"] = s.loaded.series_name;
  j["bin_width"] = json_number(s.loaded.binned.bin_width > 0 ? s.loaded.binned.bin_width : NAN);
  j["lines"] = s.loaded.trace.lines;
  j["bad_lines"] = s.loaded.trace.bad_lines;
  j["incomplete_modules"] = s.loaded.trace.incomplete_modules;
  if (s.loaded.trace.kind == Trace::Kind::events) {
    j["events"] = s.loaded.trace.times.size();
    const double span = s.loaded.trace.times.back() - s.loaded.trace.times.front();
    j["duration"] = span;
    j["rate"] = json_number(span > 0 ? static_cast<double>(s.loaded.trace.times.size()) / span : NAN);
  } else {  // binned and (time, value) traces have no events: the keys are there, undefined
    j["events"] = j["duration"] = j["rate"] = nullptr;
  }
  return j;
}

namespace {

void print_summary(const StatsOptions& options, const TraceStatistics& s) {
  const Trace& t = s.loaded.trace;
  std::string sources;
  for (const auto& p : t.sources)
    sources += (sources.empty() ? "" : ", ") + std::filesystem::path(p).filename().string();
  std::printf("trace        %s (%s): %llu lines", sources.c_str(), t.format.c_str(),
              static_cast<unsigned long long>(t.lines));
  if (t.bad_lines) std::printf(", %llu bad lines skipped", static_cast<unsigned long long>(t.bad_lines));
  std::printf("\n");
  if (t.header_detected) std::printf("             its first line holds no number: read as the column names\n");
  for (const auto& e : t.bad_line_examples) std::printf("             skipped: %s\n", e.c_str());
  if (t.kind == Trace::Kind::events) {
    const double span = t.times.back() - t.times.front();
    std::printf("events       %zu over %.6g s: %.6g events/s\n", t.times.size(), span,
                span > 0 ? static_cast<double>(t.times.size()) / span : NAN);
    if (!t.ops.empty())
      std::printf("             reads %.0f, writes %.0f\n", channel_total(s.loaded.binned, "count_read"),
                  channel_total(s.loaded.binned, "count_write"));
    if (t.reordered)
      std::printf("             %llu events out of time order were sorted (--sort)\n",
                  static_cast<unsigned long long>(t.reordered));
  }
  if (s.loaded.binned.channels.count("bytes"))
    std::printf("bytes        %s", readable_bytes(channel_total(s.loaded.binned, "bytes")).c_str());
  if (s.loaded.binned.channels.count("bytes_read"))
    std::printf(" (read %s, written %s)", readable_bytes(channel_total(s.loaded.binned, "bytes_read")).c_str(),
                readable_bytes(channel_total(s.loaded.binned, "bytes_write")).c_str());
  if (s.loaded.binned.channels.count("bytes")) std::printf("\n");
  if (t.untimed_records)
    std::printf("             %llu records (%s) had no timestamps and are not in the series\n",
                static_cast<unsigned long long>(t.untimed_records), readable_bytes(t.untimed_bytes).c_str());
  if (t.negative_timers)
    std::printf("             %llu negative I/O-time counters (a darshan timer artefact) were read as 0\n",
                static_cast<unsigned long long>(t.negative_timers));
  if (t.logs_without_records)
    std::printf("             %llu of the logs have no counter records (jobs without I/O)\n",
                static_cast<unsigned long long>(t.logs_without_records));
  if (s.loaded.binned.bin_width > 0)
    std::printf("series       %s per %.6g s bin: %zu bins\n", s.loaded.series_name.c_str(), s.loaded.binned.bin_width,
                s.loaded.series.size());
  else
    std::printf("series       %zu values (irregular times kept; statistics over the sequence)\n",
                s.loaded.series.size());
  const Burstiness& b = s.burstiness;
  const double width = s.loaded.binned.bin_width;
  const std::string unit = width > 0 ? fmt::format("{} per {:.6g} s bin", s.loaded.series_name, width)
                                     : fmt::format("{} per value", s.loaded.series_name);
  std::printf(
      "burstiness   of the %s: mean %.6g  sd %.6g  cv (sd/mean) %.4g  peak (largest bin) %.6g  "
      "peak/mean %.4g\n",
      unit.c_str(), b.mean, b.sd, b.cv, b.peak, b.peak_to_mean);
  std::printf(
      "IDC          index of dispersion, Var/mean of the sums over m consecutive %s (1 for Poisson, growing "
      "with m under long memory):\n             ",
      width > 0 ? "bins" : "values");
  for (std::size_t i = 0; i < b.idc.size(); ++i) {
    const std::string window =
        width > 0 ? fmt::format(" ({:.6g} s)", width * static_cast<double>(b.idc_scales[i])) : "";
    std::printf("m=%zu%s: %.4g  ", b.idc_scales[i], window.c_str(), b.idc[i]);
  }
  std::printf("\nACF          ");
  for (std::size_t lag : kPrintedLags)
    if (lag < s.acf.size()) std::printf("%zu: %.3f  ", lag, s.acf[lag]);
  std::printf("\nHurst        ");
  for (const auto& h : s.hurst) std::printf("%s %.3f ± %.3f  ", h.key, h.estimate.H, h.estimate.se);
  std::printf(
      "\n             (rs … local_whittle are second-order: under infinite variance they measure about\n"
      "             H − 1/α + 1/2; `stable` measures H itself. See docs/statistics.md.)\n");
  for (const auto& h : s.hurst)
    if (!h.estimate.note.empty()) std::printf("             %s: %s\n", h.key, h.estimate.note.c_str());
  if (!s.loaded.interarrivals.empty()) {
    const Burstiness& ib = s.interarrival_burstiness;
    std::printf("inter-arrival %zu gaps: mean %.6g s  cv %.4g  ACF ", s.loaded.interarrivals.size(), ib.mean, ib.cv);
    for (std::size_t lag : {1, 2, 5, 10})
      if (lag < s.interarrival_acf.size()) std::printf("%zu: %.3f  ", lag, s.interarrival_acf[lag]);
    std::printf("\n");
  }
  if (!options.output.empty())
    std::printf("wrote        %s (/datasets/%s)\n", options.output.c_str(), options.source.name.c_str());
}

}  // namespace

TraceStatistics compute_statistics(const StatsOptions& options) {
  TraceStatistics s;
  s.loaded = read_series(options.source);
  compute_statistics(s, options.max_lag);
  return s;
}

void compute_statistics(TraceStatistics& s, std::size_t max_lag) {
  const std::vector<double>& series = s.loaded.series;
  const std::vector<double>& gaps = s.loaded.interarrivals;
  s.acf = autocorrelation(series, std::min(max_lag, series.size() - 1));
  if (gaps.size() >= 2) s.interarrival_acf = autocorrelation(gaps, std::min(max_lag, gaps.size() - 1));
  s.burstiness = burstiness(series);
  if (!gaps.empty()) s.interarrival_burstiness = burstiness(gaps);
  const auto& estimators = hurst_estimators();
  s.hurst.resize(estimators.size());
  parallel_for(estimators.size(), [&](std::size_t i) {
    s.hurst[i] = NamedHurst{estimators[i].key, estimators[i].estimate(series)};
  });
}

nlohmann::json statistics_json(const TraceStatistics& s) {
  using nlohmann::json;
  json j;
  j["length"] = s.loaded.series.size();
  j["mean"] = json_number(s.burstiness.mean);
  j["sd"] = json_number(s.burstiness.sd);
  j["cv"] = json_number(s.burstiness.cv);
  j["peak"] = json_number(s.burstiness.peak);
  j["peak_to_mean"] = json_number(s.burstiness.peak_to_mean);
  json idc = json::object();
  for (std::size_t i = 0; i < s.burstiness.idc.size(); ++i)
    idc[std::to_string(s.burstiness.idc_scales[i])] = json_number(s.burstiness.idc[i]);
  j["idc"] = idc;
  json acf = json::array();
  for (double v : s.acf) acf.push_back(json_number(v));
  j["acf"] = acf;
  json hurst = json::object();
  for (const auto& h : s.hurst) {
    json e = {{"H", json_number(h.estimate.H)}, {"se", json_number(h.estimate.se)}};
    if (!h.estimate.note.empty()) e["note"] = h.estimate.note;
    hurst[h.key] = e;
  }
  j["hurst"] = hurst;
  if (!s.loaded.interarrivals.empty()) {
    const Burstiness& b = s.interarrival_burstiness;
    json ia = {{"count", s.loaded.interarrivals.size()}, {"mean", json_number(b.mean)}, {"cv", json_number(b.cv)}};
    json iacf = json::array();
    for (double v : s.interarrival_acf) iacf.push_back(json_number(v));
    ia["acf"] = iacf;
    j["interarrival"] = ia;
  } else {
    j["interarrival"] = nullptr;
  }
  return j;
}

int stats_command(const StatsOptions& given) {
  StatsOptions options = given;
  std::string& name = options.source.name;
  if (name.empty() && !options.source.traces.empty())
    name = h5::group_name_from(default_dataset_name(options.source.traces[0]));
  if (!h5::is_group_name(name))
    throw UserError(fmt::format("--name '{}' is not accepted; accepted: {}", name, h5::kGroupNameRule));
  if (!options.output.empty()) {  // before the work, not after
    RunPaths paths;
    paths.add_output(fmt::format("-o '{}'", options.output), resolve_output_target(options.output, "-o"));
    add_source_inputs(options.source, "", paths);
    paths.check();
  }
  const TraceStatistics s = compute_statistics(options);
  if (options.max_lag + 1 > s.acf.size())
    std::fprintf(stderr, "note: --max-lag %zu is cut to %zu, the series' length - 1\n", options.max_lag,
                 s.acf.size() - 1);
  if (const std::string w = incomplete_modules_warning(s.loaded.trace.incomplete_modules); !w.empty())
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (const std::string w = coarse_bin_warning(s.loaded, options.source); !w.empty())
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  const std::vector<std::string> sha = trace_digests(options.source.traces);
  if (!options.output.empty()) write_statistics_file(options.output, options.source.name, options.command_line, s, sha);
  if (options.json)
    std::printf("%s\n", summary_json(s, sha).dump(2).c_str());
  else
    print_summary(options, s);
  return kExitOk;
}

}  // namespace gs
