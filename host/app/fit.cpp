#include "host/app/fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "estimators/model_fit.hpp"
#include "host/app/json.hpp"
#include "host/base/errors.hpp"
#include "host/base/output_file.hpp"
#include "host/base/paths.hpp"
#include "host/base/run_paths.hpp"
#include "host/requests/phase_timing.hpp"
#include "host/requests/workload.hpp"
#include "io/hdf5_library.hpp"
#include "io/request_trace.hpp"
#include "version.hpp"

namespace gs {

namespace {

std::string default_yaml_output(const std::string& yaml_path) {
  std::filesystem::path p(yaml_path);
  p.replace_extension(".h5");
  return p.filename().string();
}

YAML::Node dataset_node(const SeriesSource& read, const std::string& name) {
  YAML::Node d(YAML::NodeType::Map);
  d["name"] = name;
  if (read.traces.size() == 1) {
    d["trace"] = std::filesystem::absolute(read.traces[0]).string();
  } else {
    for (const auto& t : read.traces) d["trace"].push_back(std::filesystem::absolute(t).string());
  }
  d["format"] = read.trace.format;
  if (!read.bin.empty()) d["bin"] = read.bin;
  if (!read.channel.empty()) d["series"] = read.channel;
  const TraceOptions defaults;
  const auto text_if = [&](const char* key, const std::string& value, const std::string& def) {
    if (value != def) d[key] = value;
  };
  text_if("column", read.trace.time_column, defaults.time_column);
  text_if("value_column", read.trace.value_column, defaults.value_column);
  text_if("op_column", read.trace.op_column, defaults.op_column);
  text_if("size_column", read.trace.size_column, defaults.size_column);
  if (read.trace.header) d["header"] = true;
  if (read.trace.delimiter)
    d["delimiter"] = read.trace.delimiter == ',' ? "comma" : read.trace.delimiter == '\t' ? "tab" : "space";
  if (read.trace.time_unit) d["time_unit"] = time_unit_name(*read.trace.time_unit);
  const auto list_if = [&](const char* key, const std::vector<std::string>& values,
                           const std::vector<std::string>& def) {
    if (values != def)
      for (const auto& v : values) d[key].push_back(v);
  };
  list_if("modules", read.trace.modules, defaults.modules);
  list_if("read_values", read.trace.read_values, defaults.read_values);
  list_if("write_values", read.trace.write_values, defaults.write_values);
  if (read.trace.blk_action != defaults.blk_action) d["blk_event"] = std::string(1, read.trace.blk_action);
  if (read.trace.sort) d["sort"] = true;
  if (read.trace.skip_bad_lines) d["skip_bad_lines"] = true;
  return d;
}

void print_fits(const std::vector<FittedModel>& fitted, const LoadedSeries& s) {
  std::printf("%-8s %-10s %-22s %s\n", "model", "validity", "fit statistic", "estimates ± SE");
  for (const FittedModel& r : fitted)
    std::printf("%-8s %-10s %-22s %s\n", r.model.c_str(), validity_of(r), r.invalid.empty() ? r.statistic.c_str() : "-",
                r.invalid.empty() ? r.estimates.c_str() : r.invalid.c_str());
  // The unit of every location, scale and level above: the series' values.
  const std::string unit = s.binned.bin_width > 0 ? fmt::format("{} per {:g} s bin", s.series_name, s.binned.bin_width)
                                                  : fmt::format("{} per value", s.series_name);
  std::printf("(levels, locations and scales in %s; H, d, alpha, beta, AR and MA coefficients have no unit)\n",
              unit.c_str());
}

// The request timing a `requests:` entry of a request trace (dxt, pioneer) gets by default: its phases
// and their spread (docs/models.md, "Request timing"); nothing for another format or a trace without a
// read or write.
std::optional<PhaseModel> request_timing_of(const SeriesSource& read) {
  if (read.trace.format != "dxt" && read.trace.format != "pioneer") return std::nullopt;
  SanitizeSummary summary;
  const Workload sanitized = sanitize(read_request_trace(read.traces, read.trace.format, read.trace, ""), summary);
  try {
    return fit_phases(sanitized);
  } catch (const UserError&) {
    return std::nullopt;  // no data request: no phases to fit
  }
}

std::string spread_text(const LogSpread& spread) {
  return fmt::format("{:.3g} ± {:.2g} (df {}, {})", spread.sd, spread.se, spread.df, spread.validity());
}

void print_request_timing(const PhaseModel& phases) {
  std::printf("%-8s %-10s %-22s span_sd = %s, gap_sd = %s\n", "phases", phases.span_spread.validity(),
              fmt::format("{} phases", phases.phases.size()).c_str(), spread_text(phases.span_spread).c_str(),
              spread_text(phases.gap_spread).c_str());
  std::printf(
      "(phases: the request timing of a requests: entry of this trace; span_sd and gap_sd, the log SDs "
      "of a repeated phase's span and of the gap after it, give the replicas their spread)\n");
}

nlohmann::json request_timing_json(const PhaseModel& phases) {
  nlohmann::json j = {
      {"model", "phases"}, {"phases", phases.phases.size()}, {"validity", phases.span_spread.validity()}};
  for (const auto& [name, spread] : phases.named_spreads())
    j[std::string(name) + "_sd"] = {
        {"estimate", spread->sd}, {"se", spread->se}, {"df", spread->df}, {"validity", spread->validity()}};
  return j;
}

// --json: the dataset and every model's validity, estimates with their SEs (its fit: entries) and the
// params and workload a config runs it with.
nlohmann::json fits_json(const SeriesSource& read, const LoadedSeries& s, const std::vector<FittedModel>& fitted) {
  nlohmann::json models = nlohmann::json::array();
  for (const FittedModel& r : fitted) {
    nlohmann::json m = {{"model", r.model}, {"validity", validity_of(r)}};
    if (!r.invalid.empty()) {
      m["stopped_because"] = r.invalid;
    } else {
      m["statistic"] = r.statistic;
      m["estimates"] = r.estimates;
      m["params"] = json_of(r.params);
      m["workload"] = json_of(r.workload);
      m["fit"] = json_of(r.fit);
    }
    if (!r.boundary.empty()) m["boundary"] = r.boundary;
    if (!r.warning.empty()) m["warning"] = r.warning;
    models.push_back(m);
  }
  return {{"dataset", read.name},
          {"traces", read.traces},
          {"format", read.trace.format},
          {"series", s.series_name},
          {"values", s.series.size()},
          {"bin_seconds", json_number(s.binned.bin_width > 0 ? s.binned.bin_width : NAN)},
          {"incomplete_modules", s.trace.incomplete_modules},
          {"models", models}};
}

// -o and the config's HDF5 output (--ensemble-output, else beside -o): neither
// an input of the fit nor the other, and the config's run would not replace a trace.
void check_fit_outputs(const FitOptions& o) {
  RunPaths paths;
  paths.add_output(fmt::format("-o '{}'", o.output), resolve_output_target(o.output, "-o"));
  const std::string h5 =
      o.ensemble_output.empty() ? path_beside(o.output, default_yaml_output(o.output)) : o.ensemble_output;
  paths.add_output(fmt::format("the config's output '{}'{}", h5, o.ensemble_output.empty() ? " (beside -o)" : ""), h5);
  add_source_inputs(o.source, "", paths);
  paths.check();
}

}  // namespace

int fit_command(const FitOptions& given) {
  FitOptions o = given;
  if (o.models.empty()) o.models = default_fit_models();
  check_fittable(o.models, "--models");
  SeriesSource& read = o.source;
  if (read.name.empty()) read.name = default_dataset_name(read.traces.at(0));
  read.name = h5::group_name_from(read.name);                    // it names the dataset and the fitted ensembles
  if (!o.output.empty()) check_fit_outputs(o);                   // before the work, not after
  const LoadedSeries s = read_series(read);
  if (const std::string w = incomplete_modules_warning(s.trace.incomplete_modules); !w.empty())
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (const std::string w = coarse_bin_warning(s, read); !w.empty()) std::fprintf(stderr, "warning: %s\n", w.c_str());
  std::fprintf(stderr, "fitting %zu models to %zu values of '%s' (%s)\n", o.models.size(), s.series.size(),
               read.name.c_str(), s.series_name.c_str());
  const bool counts = s.trace.kind != Trace::Kind::series;
  FitData data(s.series, counts, s.binned.bin_width, s.trace.series_times, o.settings, o.seed);
  const std::vector<FittedModel> fitted = fit_models(data, o.models);
  for (const FittedModel& r : fitted) {
    if (!r.warning.empty()) std::fprintf(stderr, "warning: %s\n", r.warning.c_str());
    if (!r.boundary.empty() && r.invalid.empty())
      std::fprintf(stderr, "warning: %s: %s\n", r.model.c_str(), r.boundary.c_str());
  }

  const std::optional<PhaseModel> timing = request_timing_of(read);
  if (o.json) {
    nlohmann::json j = fits_json(read, s, fitted);
    if (timing) j["request_timing"] = request_timing_json(*timing);
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    print_fits(fitted, s);
    if (timing) print_request_timing(*timing);
  }
  if (o.output.empty()) return kExitOk;

  YAML::Node root(YAML::NodeType::Map);
  root["seed"] = o.seed;
  // The config's paths are read relative to the config: its output beside it, or the one given, absolute.
  root["output"] =
      o.ensemble_output.empty() ? default_yaml_output(o.output) : std::filesystem::absolute(o.ensemble_output).string();
  root["datasets"].push_back(dataset_node(read, read.name));
  for (const FittedModel& r : fitted)
    if (r.invalid.empty())
      root["ensembles"].push_back(fitted_ensemble_node(r, read.name, o.replicas, replicas_as_counts(counts, s.series)));
  if (!root["ensembles"]) throw UserError("no model could be fitted to this trace; nothing written");
  // A study with the default comparison (docs/studies.md): every fitted ensemble against its
  // dataset, so that `gpusynth report` reads the run's file as it is.
  YAML::Node compare(YAML::NodeType::Map);
  compare.SetStyle(YAML::EmitterStyle::Flow);  // "compare: {}", not an empty value (null)
  root["compare"] = compare;
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << root;
  const std::vector<std::string> digests = trace_digests(read.traces);
  std::string warnings;  // a boundary fit is written only with its warning beside it
  for (const FittedModel& r : fitted)
    if (r.invalid.empty() && !r.boundary.empty())
      warnings += fmt::format("# WARNING: ensemble {}-{} is a boundary fit: {}\n", read.name, r.model, r.boundary);
  const std::string text = fmt::format(
      "# Written by gpusynth {} fit (seed {}) from {} (sha256 {}).\n# Run it with: gpusynth {}; then "
      "gpusynth report on its output\n# (compare: {{}} makes the run a study of every fitted model against "
      "the trace, docs/studies.md).\n{}{}\n",
      kVersion, o.seed, fmt::join(read.traces, ", "), fmt::join(digests, ", "), o.output, warnings, out.c_str());
  write_file_atomically(o.output, text, "-o");
  std::fprintf(stderr, "wrote %s\n", o.output.c_str());
  return kExitOk;
}

}  // namespace gs
