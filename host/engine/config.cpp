#include "host/engine/config.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "host/base/config_map.hpp"
#include "host/base/errors.hpp"
#include "host/base/fft.hpp"
#include "host/base/paths.hpp"
#include "host/engine/config_keys.hpp"
#include "io/hdf5_library.hpp"
#include "io/line_reader.hpp"
#include "io/trace.hpp"
#include "kernels/philox.hpp"

namespace gs {

const char* to_string(BackendChoice b) {
  switch (b) {
    case BackendChoice::cpu:
      return "cpu";
    case BackendChoice::cuda:
      return "cuda";
    default:
      return "auto";
  }
}
const char* to_string(ValueKind v) { return v == ValueKind::counts ? "counts" : "real"; }

BackendChoice parse_backend_choice(const std::string& text) {
  if (text == "auto") return BackendChoice::automatic;
  if (text == "cpu") return BackendChoice::cpu;
  if (text == "cuda") return BackendChoice::cuda;
  throw UserError(fmt::format("backend '{}' is not accepted; accepted: auto, cpu, cuda", text));
}

StorageType EnsembleSpec::storage() const {
  if (values == ValueKind::counts) return StorageType::uint32;
  return dtype == Dtype::float64 ? StorageType::float64 : StorageType::float32;
}

std::string trace_format_key(ConfigMap& map, const std::vector<std::string>& traces, const std::string& what) {
  const std::vector<std::string>& accepted = map.spec("format").choices;
  std::optional<std::string> format = map.choice("format");
  if (!format && !traces.empty()) {
    std::optional<std::string> told;
    try {
      told = detect_trace_format(traces.front());
    } catch (const UserError&) {  // a trace that cannot be read is named where it is read
    }
    if (told && std::find(accepted.begin(), accepted.end(), *told) != accepted.end()) format = told;
  }
  return map.require(format, "format", what);
}

std::string required_group_name(ConfigMap& map, const std::string& meaning) {
  std::string name = map.require(map.text("name"), "name", meaning);
  if (!h5::is_group_name(name))
    throw map.error_at(
        "name", fmt::format("{}.name = '{}' is not accepted; accepted: {}", map.where(), name, h5::kGroupNameRule));
  return name;
}

namespace {

WorkloadMapping parse_workload(ConfigMap& map, ValueKind& values) {
  WorkloadMapping workload;
  workload.v = *map.number("v");
  workload.delta = *map.number("delta");
  if (const auto cap = map.number("cap")) workload.cap = *cap;
  values = *map.choice("values") == "counts" ? ValueKind::counts : ValueKind::real;
  return workload;
}

}  // namespace

DatasetSpec parse_dataset(const YAML::Node& node, const std::string& file, const std::string& where) {
  ConfigMap map(node, file, where, config_schema(), "datasets[]");
  DatasetSpec d;
  d.line = static_cast<int>(node.Mark().line) + 1;
  d.name = required_group_name(map, "the dataset's name (under /datasets)");
  SeriesSource& r = d.source;
  r.name = d.name;
  const YAML::Node trace = map.node("trace");
  const auto trace_list = map.text("trace_list");
  if (!trace && !trace_list)
    throw map.error_here(fmt::format("{} needs 'trace' (the trace file(s)) or 'trace_list'", map.where()));
  r.keys = map.where();
  const auto add_trace = [&](const YAML::Node& item) {
    if (!item.IsScalar() || item.Scalar().empty())
      throw located_error_at(item, file, fmt::format("{}.trace must name trace files", map.where()));
    r.traces.push_back(path_beside(file, item.Scalar()));
  };
  if (trace && trace.IsSequence()) {
    if (trace.size() == 0) throw located_error_at(trace, file, fmt::format("{}.trace lists no file", map.where()));
    for (const auto& item : trace) add_trace(item);
  } else if (trace) {
    add_trace(trace);
  }
  if (trace_list) {
    try {
      r.trace_list = path_beside(file, *trace_list);
      append_trace_list(r.trace_list, r.traces);
    } catch (const UserError& e) {
      throw map.error_at("trace_list", e.what());
    }
  }
  r.trace.format =
      trace_format_key(map, r.traces,
                       fmt::format("the trace format, one of {}; told from the first trace when its first lines or "
                                   "a .darshan log's records leave no doubt (dxt, darshan, blkparse)",
                                   fmt::join(trace_format_names(), ", ")));
  r.bin = map.text("bin").value_or("");
  if (trace_format(r.trace.format).kind != Trace::Kind::series) {
    if (r.bin.empty())
      throw map.error_here(fmt::format("{} needs 'bin': the width of its bins (e.g. 1s)", map.where()));
    try {
      parse_duration(r.bin, r.option("bin").c_str());
    } catch (const UserError& e) {
      throw map.error_at("bin", e.what());
    }
  }
  r.channel = map.text("series").value_or("");
  r.trace.time_column = map.text("column").value_or(r.trace.time_column);
  r.trace.value_column = map.text("value_column").value_or(r.trace.value_column);
  r.trace.op_column = map.text("op_column").value_or(r.trace.op_column);
  r.trace.size_column = map.text("size_column").value_or(r.trace.size_column);
  r.trace.header = map.flag("header");
  if (auto delimiter = map.choice("delimiter"))
    r.trace.delimiter = *delimiter == "comma" ? ',' : *delimiter == "tab" ? '\t' : ' ';
  if (auto unit = map.choice("time_unit")) r.trace.time_unit = parse_time_unit(*unit);
  const auto texts = [&](const char* key, std::vector<std::string>& out) {
    const YAML::Node value = map.node(key);
    if (!value) return;
    out.clear();
    if (value.IsScalar()) {
      out.push_back(value.Scalar());
      return;
    }
    if (!value.IsSequence())
      throw map.error_at(key, fmt::format("{} must be a text or a list of texts", map.path_of(key)));
    for (const auto& item : value) {
      if (!item.IsScalar()) throw located_error_at(item, file, fmt::format("{} must list texts", map.path_of(key)));
      out.push_back(item.Scalar());
    }
  };
  texts("modules", r.trace.modules);
  texts("read_values", r.trace.read_values);
  texts("write_values", r.trace.write_values);
  r.trace.blk_action = map.choice("blk_event")->front();
  r.trace.sort = map.flag("sort");
  r.trace.skip_bad_lines = map.flag("skip_bad_lines");
  r.trace.spread = parse_spread(*map.choice("spread"));
  r.trace.align = parse_align(*map.choice("align"));
  return d;
}

namespace {

// A number of a `fit:` entry (YAML writes NaN as .nan), or nothing when it is text.
std::optional<double> fit_number(const std::string& text) {
  if (text == ".nan" || text == ".NaN") return static_cast<double>(NAN);
  double number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec == std::errc() && end == text.data() + text.size()) return number;
  return std::nullopt;
}

// `fit:` of an ensemble: a flat mapping of numbers, texts and number lists.
std::vector<Attribute> parse_fit(const YAML::Node& node, const std::string& file, const std::string& where) {
  std::vector<Attribute> attrs;
  if (!node.IsMap()) throw located_error_at(node, file, fmt::format("{}.fit must be a mapping", where));
  for (const auto& item : node) {
    if (!item.first.IsScalar())
      throw located_error_at(item.first, file, fmt::format("{}.fit: a key must be a name", where));
    const std::string key = item.first.Scalar();
    const YAML::Node value = item.second;
    if (value.IsScalar()) {
      if (const auto number = fit_number(value.Scalar()))
        attrs.push_back({key, *number});
      else
        attrs.push_back({key, value.Scalar()});
      continue;
    }
    if (!value.IsSequence())
      throw located_error_at(value, file, fmt::format("{}.fit.{} must be a number, a text or a list", where, key));
    std::vector<double> numbers;
    for (const auto& v : value) {
      const auto number = v.IsScalar() ? fit_number(v.Scalar()) : std::nullopt;
      if (!number) throw located_error_at(v, file, fmt::format("{}.fit.{} must list numbers", where, key));
      numbers.push_back(*number);
    }
    attrs.push_back({key, numbers});
  }
  return attrs;
}

CompareOptions parse_compare(ConfigMap& top) {
  CompareOptions o;
  auto map = top.map("compare");
  if (const auto metrics = map->sequence("metrics")) {
    o.metrics.clear();
    for (const auto& item : *metrics) {
      const std::string name = item.IsScalar() ? item.Scalar() : "";
      const auto parsed = parse_metric(name);
      if (!parsed)
        throw located_error_at(item, map->file(),
                               fmt::format("compare.metrics: '{}' is not a metric; accepted: trimmed_error, "
                                           "trimmed_error_aligned, ks, acf, hurst, burstiness",
                                           name));
      for (Metric m : *parsed)
        if (std::find(o.metrics.begin(), o.metrics.end(), m) == o.metrics.end()) o.metrics.push_back(m);
    }
    if (o.metrics.empty()) throw map->error_at("metrics", "compare.metrics must list at least one metric");
  }
  o.trim = *map->number("trim");
  o.acf_lags = *map->unsigned_integer("acf_lags");
  o.hurst_estimator = *map->choice("hurst_estimator");
  if (auto bootstrap = map->map("bootstrap")) {
    o.bootstrap.resamples = static_cast<std::uint32_t>(*bootstrap->unsigned_integer("resamples"));
    o.bootstrap.confidence = *bootstrap->number("confidence");
    o.bootstrap.method = *bootstrap->choice("method") == "bca" ? IntervalMethod::bca : IntervalMethod::percentile;
  }
  if (const auto rank = map->choice("rank_by")) {
    o.rank_by = parse_metric(*rank)->front();
    if (!metric_index(o, o.rank_by))
      throw map->error_at("rank_by", fmt::format("compare.rank_by = {} is not among compare.metrics", *rank));
  } else if (!metric_index(o, o.rank_by)) {
    const auto error = std::find_if(o.metrics.begin(), o.metrics.end(), is_error_metric);
    if (error == o.metrics.end())
      throw map->error_at("metrics",
                          "compare.metrics needs one of trimmed_error, trimmed_error_aligned, ks, acf "
                          "(the matching degree ranks models by it)");
    o.rank_by = *error;
  }
  if (const auto keep = map->text("store_replicas"); keep && *keep != "all") {
    const auto count = map->unsigned_integer("store_replicas");
    o.store_replicas = count;
  }
  return o;
}

void parse_study(ConfigMap& top, StudySpec& study) {
  if (const auto models = top.sequence("models")) {
    for (const auto& item : *models) {
      const std::string name = item.IsScalar() ? item.Scalar() : "";
      try {
        check_fittable({name}, "models");
      } catch (const UserError& e) {
        throw located_error_at(item, top.file(), e.what());
      }
      study.models.push_back(name);
    }
  }
  study.replicas = *top.unsigned_integer("replicas");
  study.cap_over_peak = top.number("cap_over_peak");
  if (auto fitting = top.map("fitting")) {
    for (const FitOptionSpec* option : fit_option_specs()) {
      if (!fitting->has(option->name)) continue;
      const std::string value = option->choices.empty() ? std::to_string(*fitting->unsigned_integer(option->name))
                                                        : *fitting->choice(option->name);
      study.fitting.set(option->name, value, fitting->path_of(option->name));
    }
  }
  if (top.has("compare")) study.compare = parse_compare(top);
}

// Where a second document of `text` starts, if it has one. The parser is
// asked for two documents at most (LoadAll would ask until the stream ends).
std::optional<YAML::Mark> second_document_start(const std::string& text) {
  struct DocumentStarts : YAML::EventHandler {
    std::vector<YAML::Mark> starts;
    void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
  } documents;
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  for (int n = 0; n < 2 && parser.HandleNextDocument(documents); ++n) {
  }
  if (documents.starts.size() < 2) return std::nullopt;
  return documents.starts[1];
}

}  // namespace

EnsembleSpec parse_ensemble(const YAML::Node& node, const std::string& file, std::size_t index) {
  ConfigMap map(node, file, fmt::format("ensembles[{}]", index), config_schema(), "ensembles[]");
  EnsembleSpec spec;
  spec.line = static_cast<int>(node.Mark().line) + 1;
  spec.name = required_group_name(map, fmt::format("a unique name: {}", h5::kGroupNameRule));
  ConfigMap named(node, file, fmt::format("ensembles[{}] ({})", index, spec.name), config_schema(), "ensembles[]");
  const std::string model =
      named.require(named.text("model"), "model", fmt::format("one of {}", fmt::join(model_names(), ", ")));
  const ModelTraits* traits = find_model(model);
  if (!traits) {
    throw named.error_at("model", fmt::format("{}.model = '{}' is not a known model; accepted: {}", named.where(),
                                              model, fmt::join(model_names(), ", ")));
  }
  if (!named.has("params"))
    throw named.error_here(
        fmt::format("{} is missing the required key 'params' (the "
                    "parameters of {})",
                    named.where(), model));
  spec.model = make_model(*traits, named.node("params"), file, named.path_of("params"));
  if (auto workload = named.map("workload")) spec.workload = parse_workload(*workload, spec.values);
  spec.replicas = named.require(named.unsigned_integer("replicas"), "replicas", "how many independent series, >= 1");
  spec.length = named.require(named.unsigned_integer("length"), "length", "the number of bins of each series, >= 1");
  if (const auto fixed = spec.model->fixed_length(); fixed && *fixed != spec.length) {
    throw named.error_at("length", fmt::format("{}.length = {} but the model lists {} observation times; accepted: "
                                               "length = {}",
                                               named.where(), spec.length, *fixed, *fixed));
  }
  spec.dataset = named.text("dataset").value_or("");
  if (const YAML::Node fit = named.node("fit")) spec.fit = parse_fit(fit, file, named.where());
  spec.dtype = *named.choice("dtype") == "float64" ? Dtype::float64 : Dtype::float32;
  if (auto stream = named.unsigned_integer("stream")) {
    spec.stream = static_cast<std::uint32_t>(*stream);
    spec.stream_given = true;
  } else {
    spec.stream = stream_of_name(spec.name);
  }
  return spec;
}

namespace {

// The checked config of a loaded document.
// version, seed, backend, precision, output, fft_wisdom and compression.
void parse_run_keys(ConfigMap& top, const std::string& path, RunConfig& config) {
  top.unsigned_integer("version");  // only 1 is accepted
  config.seed = *top.unsigned_integer("seed");
  config.backend = parse_backend_choice(*top.choice("backend"));
  config.precision = parse_math_precision(*top.choice("precision"));
  // Optional: -o gives it, and --no-output and --dry-run write nothing (run_config checks).
  if (auto output = top.text("output")) {
    if (output->empty()) throw top.error_at("output", "output must not be empty");
    config.output = path_beside(path, *output);  // relative to the config, as every path in it
  }
  if (auto wisdom = top.text("fft_wisdom")) {  // read by apply_overrides: `gpusynth fft-wisdom` makes it
    if (wisdom->empty()) throw top.error_at("fft_wisdom", "fft_wisdom must not be empty");
    config.fft_wisdom_path = path_beside(path, *wisdom);
    const YAML::Mark mark = top.node("fft_wisdom").Mark();
    config.fft_wisdom_mark = {mark.line + 1, mark.column + 1};
  }
  config.compression = static_cast<int>(*top.integer("compression"));
}

// `datasets`, their names unique; the index of each name.
std::map<std::string, std::size_t> parse_datasets(ConfigMap& top, const std::string& path, RunConfig& config) {
  std::map<std::string, std::size_t> dataset_names;
  if (const auto datasets = top.sequence("datasets")) {
    for (std::size_t i = 0; i < datasets->size(); ++i) {
      DatasetSpec d = parse_dataset((*datasets)[i], path, fmt::format("datasets[{}]", i));
      if (dataset_names.count(d.name))
        throw located_error_at((*datasets)[i], path,
                               fmt::format("datasets[{}].name = '{}' is already used", i, d.name));
      dataset_names[d.name] = i;
      config.datasets.push_back(std::move(d));
    }
  }
  return dataset_names;
}

// `requests`, their names unique.
void parse_requests_list(ConfigMap& top, const std::string& path, RunConfig& config) {
  if (const auto requests = top.sequence("requests")) {
    std::map<std::string, std::size_t> request_names;
    for (std::size_t i = 0; i < requests->size(); ++i) {
      RequestsSpec spec = parse_requests((*requests)[i], path, i);
      if (request_names.count(spec.name))
        throw located_error_at((*requests)[i], path,
                               fmt::format("requests[{}].name = '{}' is already used", i, spec.name));
      request_names[spec.name] = i;
      config.requests.push_back(std::move(spec));
    }
  }
}

// `bursts`, their names unique and their datasets among `dataset_names`.
void parse_bursts_list(ConfigMap& top, const std::string& path, const std::map<std::string, std::size_t>& dataset_names,
                       RunConfig& config) {
  if (const auto bursts = top.sequence("bursts")) {
    std::map<std::string, std::size_t> burst_names;
    for (std::size_t i = 0; i < bursts->size(); ++i) {
      BurstsSpec spec = parse_bursts((*bursts)[i], path, i);
      if (burst_names.count(spec.name))
        throw located_error_at((*bursts)[i], path, fmt::format("bursts[{}].name = '{}' is already used", i, spec.name));
      burst_names[spec.name] = i;
      if (!spec.dataset.empty() && !dataset_names.count(spec.dataset))
        throw located_error_at((*bursts)[i]["dataset"], path,
                               fmt::format("bursts[{}].dataset = '{}' is not among the datasets", i, spec.dataset));
      config.bursts.push_back(std::move(spec));
    }
  }
}

// `ensembles` (required when nothing else is asked for), their names and Philox streams unique and their
// datasets among `dataset_names`; the index of each name.
std::map<std::string, std::size_t> parse_ensembles(ConfigMap& top, const std::string& path,
                                                   const std::map<std::string, std::size_t>& dataset_names,
                                                   RunConfig& config) {
  const bool ensembles_needed = config.study.models.empty() && config.requests.empty() && config.bursts.empty();
  const YAML::Node list = ensembles_needed
                              ? top.require(top.sequence("ensembles"), "ensembles", "a list of ensembles to generate")
                              : top.sequence("ensembles").value_or(YAML::Node(YAML::NodeType::Sequence));
  if (list.size() == 0 && ensembles_needed) throw top.error_at("ensembles", "ensembles must list at least one ensemble");
  std::map<std::string, std::size_t> names;
  std::map<std::uint32_t, std::string> streams;
  for (std::size_t i = 0; i < list.size(); ++i) {
    EnsembleSpec spec = parse_ensemble(list[i], path, i);
    if (names.count(spec.name)) {
      throw located_error_at(
          list[i]["name"], path,
          fmt::format("ensembles[{}].name = '{}' is already used by ensembles[{}]; names must be unique", i, spec.name,
                      names[spec.name]));
    }
    names[spec.name] = i;
    if (!spec.dataset.empty() && !dataset_names.count(spec.dataset)) {
      throw located_error_at(list[i]["dataset"], path,
                             fmt::format("ensembles[{}].dataset = '{}' is not among the datasets", i, spec.dataset));
    }
    if (streams.count(spec.stream)) {
      throw located_error_at(list[i], path,
                             fmt::format("ensembles[{}] ({}) has Philox stream {}, the same as ensemble '{}'; "
                                         "set a distinct 'stream' on one of them",
                                         i, spec.name, spec.stream, streams[spec.stream]));
    }
    streams[spec.stream] = spec.name;
    config.ensembles.push_back(std::move(spec));
  }
  return names;
}

// The ensembles that bursts and requests entries name exist: the config's own (`names`) or a study's.
void check_ensemble_references(ConfigMap& top, const std::string& path, const std::map<std::string, std::size_t>& names,
                               const RunConfig& config) {
  // A study's ensembles are named <dataset>-<model>.
  const auto known_ensemble = [&](const std::string& name) {
    bool fitted = false;
    for (const auto& d : config.datasets)
      for (const auto& m : config.study.models) fitted = fitted || name == d.name + "-" + m;
    return fitted || names.count(name) > 0;
  };
  if (!config.bursts.empty()) check_bursts_with_datasets(config.bursts, config.datasets, *top.sequence("bursts"), path);
  for (std::size_t i = 0; i < config.bursts.size(); ++i)
    for (const std::string& ensemble : config.bursts[i].ensembles.value_or(std::vector<std::string>{}))
      if (!known_ensemble(ensemble))
        throw located_error_at((*top.sequence("bursts"))[i]["ensembles"], path,
                               fmt::format("bursts[{}].ensembles names '{}', which is not among the ensembles", i,
                                           ensemble));
  // A Monte Carlo or an augmentation needs ensembles: the entry's, or the study's fitted to its dataset.
  for (std::size_t i = 0; i < config.bursts.size(); ++i) {
    const BurstsSpec& b = config.bursts[i];
    const YAML::Node entry = (*top.sequence("bursts"))[i];
    if (b.ensembles ? !b.ensembles->empty() : !config.study.models.empty()) continue;
    for (const char* key : {"monte_carlo", "augment"})
      if (entry[key])
        throw located_error_at(entry[key], path,
                               fmt::format("bursts[{}].{}: the entry has no ensembles to run it on (no 'ensembles:' "
                                           "and no 'models:' fitted to its dataset); give either, or leave '{}' out",
                                           i, key, key));
  }
  for (std::size_t i = 0; i < config.requests.size(); ++i) {
    const RequestsSpec& r = config.requests[i];
    if (!r.timing_ensemble.empty() && !known_ensemble(r.timing_ensemble))
      throw located_error_at((*top.sequence("requests"))[i]["timing"], path,
                             fmt::format("requests[{}].timing.ensemble = '{}' is not among the ensembles", i,
                                         r.timing_ensemble));
  }
}

RunConfig config_from(const YAML::Node& root, const std::string& text, const std::string& path) {
  RunConfig config;
  config.path = path;
  config.text = text;
  ConfigMap top(root, path, "", config_schema(), "");
  parse_run_keys(top, path, config);
  const std::map<std::string, std::size_t> dataset_names = parse_datasets(top, path, config);
  parse_study(top, config.study);
  if (!config.study.models.empty() && config.datasets.empty())
    throw top.error_at("models", "models are fitted to the datasets: list at least one under 'datasets'");
  parse_requests_list(top, path, config);
  parse_bursts_list(top, path, dataset_names, config);
  const std::map<std::string, std::size_t> names = parse_ensembles(top, path, dataset_names, config);
  check_ensemble_references(top, path, names, config);
  return config;
}

}  // namespace

RunConfig parse_config(const std::string& text, const std::string& path) {
  // yaml-cpp stops at a NUL byte without consuming it (LoadAll then never ends): a config is text.
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line_start = text.rfind('\n', nul);
    throw located_error(path, static_cast<int>(std::count(text.begin(), text.begin() + nul, '\n')) + 1,
                        static_cast<int>(nul - (line_start == std::string::npos ? 0 : line_start + 1)) + 1,
                        "a NUL byte: a config is a text file");
  }
  YAML::Node root;
  std::optional<YAML::Mark> second_document;
  try {
    root = YAML::Load(text);
    second_document = second_document_start(text);
  } catch (const YAML::Exception& e) {
    throw located_error(path, e.mark.line + 1, e.mark.column + 1, fmt::format("not valid YAML: {}", e.msg));
  }
  if (second_document)  // yaml-cpp would ignore it
    throw located_error(path, second_document->line + 1, second_document->column + 1,
                        "a second YAML document ('---'); a config is one document");
  if (!root || root.IsNull()) throw UserError(fmt::format("{}: the file is empty", path));
  try {
    return config_from(root, text, path);
  } catch (const YAML::Exception& e) {  // a node of a kind no check expected: still a mistake in the file
    throw located_error(path, e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.column + 1,
                        fmt::format("unexpected YAML here: {}", e.msg));
  }
}

EnsembleSpec ensemble_from_yaml(const std::string& text) { return parse_ensemble(YAML::Load(text), "<ensemble>", 0); }

namespace {

// The whole of the file at `path`, or a UserError: `directory_error` for a
// directory, `open_error` and the system's reason when it cannot be opened.
std::string whole_file(const std::string& path, const std::string& directory_error, const std::string& open_error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw UserError(directory_error);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(open_error + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::shared_ptr<const FftWisdom> read_fft_wisdom(const std::string& path) {
  const std::string text = whole_file(path, fmt::format("'{}' is a directory, not FFTW wisdom", path),
                                      fmt::format("cannot open the FFTW wisdom '{}': ", path));
  if (!fftw_accepts_wisdom(text))
    throw UserError(
        fmt::format("'{}' is not FFTW wisdom this FFTW ({}) reads (made by another FFTW version or build, "
                    "or not wisdom at all); make it here with `gpusynth fft-wisdom CONFIG -o {}`",
                    path, fftw_version_text(), path));
  return std::make_shared<const FftWisdom>(FftWisdom{path, text, bytes_sha256(text)});
}

void read_config_fft_wisdom(RunConfig& config) {
  if (config.fft_wisdom_path.empty()) return;
  try {
    config.fft_wisdom = read_fft_wisdom(config.fft_wisdom_path);
  } catch (const UserError& e) {
    throw located_error(config.path, config.fft_wisdom_mark.first, config.fft_wisdom_mark.second, e.what());
  }
}

RunConfig load_config(const std::string& path) {
  return parse_config(whole_file(path, fmt::format("{}: is a directory; give the config file (ensemble.yaml)", path),
                                 fmt::format("{}: cannot open the config file: ", path)),
                      path);
}

void add_config_inputs(const RunConfig& config, RunPaths& paths) {
  if (!config.path.empty()) paths.add_input("the config", config.path);
  for (const DatasetSpec& d : config.datasets) add_source_inputs(d.source, fmt::format("dataset '{}' ", d.name), paths);
  for (const RequestsSpec& spec : config.requests) {
    paths.add_inputs(spec.where + ".trace", spec.traces);
    if (!spec.counters.empty()) paths.add_input(spec.where + ".counters", spec.counters);
  }
  // The wisdom read (--fft-wisdom's or the config's), else the one `fft_wisdom:` names.
  const std::string& wisdom = config.fft_wisdom ? config.fft_wisdom->path : config.fft_wisdom_path;
  if (!wisdom.empty()) paths.add_input("the FFT wisdom", wisdom);
}

}  // namespace gs
