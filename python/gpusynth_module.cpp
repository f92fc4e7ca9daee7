// The Python module `gpusynth` (docs/python.md): generate, fit, stats and
// read_trace call the engine the CLI runs (run_config, fit_models,
// compute_statistics, read_series), so a seed gives the CLI's bits and a
// mistake the CLI's message, as gpusynth.UserError (a ValueError).
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "host/app/stats.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/engine/config.hpp"
#include "host/engine/run.hpp"
#include "host/models/fit.hpp"
#include "io/hdf5.hpp"
#include "io/series_source.hpp"
#include "version.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace gs {

namespace {

// Where a config given as text or a dict is said to come from in errors; its
// relative trace paths are taken from the working directory.
constexpr const char* kTextConfig = "<config>";

// A Python value as the config reader would read it from a file: mappings,
// lists and plain scalars (numbers as their shortest exact text).
YAML::Node to_yaml(const py::handle& value) {
  if (value.is_none()) return YAML::Node(YAML::NodeType::Null);
  if (py::isinstance<py::bool_>(value)) return YAML::Node(value.cast<bool>() ? "true" : "false");
  if (py::isinstance<py::str>(value)) return YAML::Node(value.cast<std::string>());
  if (py::hasattr(value, "__fspath__"))
    return YAML::Node(py::module_::import("os").attr("fspath")(value).cast<std::string>());
  if (py::isinstance<py::dict>(value)) {
    YAML::Node map(YAML::NodeType::Map);
    for (const auto& [key, item] : value.cast<py::dict>()) map[py::str(key).cast<std::string>()] = to_yaml(item);
    return map;
  }
  if (PyIndex_Check(value.ptr()))
    return YAML::Node(py::str(py::int_(py::reinterpret_borrow<py::object>(value))).cast<std::string>());
  if (py::isinstance<py::float_>(value) || py::hasattr(value, "__float__")) {
    const double x = value.cast<double>();
    if (std::isnan(x)) return YAML::Node(".nan");
    if (std::isinf(x)) return YAML::Node(x > 0 ? ".inf" : "-.inf");
    return YAML::Node(fmt::format("{}", x));
  }
  if (py::isinstance<py::iterable>(value)) {
    YAML::Node list(YAML::NodeType::Sequence);
    for (const auto& item : value) list.push_back(to_yaml(item));
    return list;
  }
  throw UserError(
      fmt::format("a value of Python type '{}' has no YAML form; accepted: dict, list, str, int, "
                  "float, bool, None",
                  py::str(value.get_type().attr("__name__")).cast<std::string>()));
}

// YAML as Python: mappings, lists, whole numbers, numbers (.nan, .inf),
// true/false and text.
py::object from_yaml(const YAML::Node& node) {
  if (node.IsMap()) {
    py::dict map;
    for (const auto& item : node) map[py::str(item.first.Scalar())] = from_yaml(item.second);
    return map;
  }
  if (node.IsSequence()) {
    py::list list;
    for (const auto& item : node) list.append(from_yaml(item));
    return list;
  }
  if (!node.IsScalar()) return py::none();
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return py::str(text);  // quoted in YAML text
  long long whole = 0;
  double number = 0;
  if (YAML::convert<long long>::decode(node, whole)) return py::int_(whole);
  if (YAML::convert<double>::decode(node, number)) return py::float_(number);
  if (text == "true" || text == "false") return py::bool_(text == "true");
  return py::str(text);
}

py::object json_to_python(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

[[noreturn]] void raise_keyboard_interrupt() {
  PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw py::error_already_set();
}

// Runs engine work without the GIL under the CLI's interrupt guard: Ctrl-C
// stops the long loops within a step and becomes KeyboardInterrupt.
template <class Work>
auto engine_call(Work&& work) -> decltype(work()) {
  {
    py::gil_scoped_release unlocked;
    InterruptGuard interrupts;
    try {
      return work();
    } catch (const Interrupted&) {
    }
  }
  raise_keyboard_interrupt();
}

// A 1-D series of finite values, as the trace readers would accept it.
std::vector<double> series_from(const py::handle& given, const char* what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(given);
  if (!a) throw UserError(fmt::format("{}: a 1-D sequence of numbers is needed", what));
  if (a.ndim() != 1) throw UserError(fmt::format("{}: a 1-D series is needed, found {} dimensions", what, a.ndim()));
  std::vector<double> values(a.data(), a.data() + a.size());
  if (values.size() < 2)
    throw UserError(fmt::format("{}: the series has {} value(s); at least 2 are needed", what, values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]))
      throw UserError(fmt::format("{}: value {} at index {} is not a finite number", what, values[i], i));
  check_series_magnitude(values, what);
  return values;
}

py::array_t<double> to_numpy(const std::vector<double>& values) {
  return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
}

// read_trace's and stats' keywords are the keys of a config's `datasets:`
// entry, checked by the config's own reader (errors name `function`).
SeriesSource source_from(const py::object& paths, const py::object& format, const py::dict& keys,
                         const char* function) {
  YAML::Node node = to_yaml(keys);
  node["trace"] = to_yaml(paths);
  if (!format.is_none()) node["format"] = to_yaml(format);
  if (!node["name"]) {
    const YAML::Node trace = node["trace"];
    const std::string first = trace.IsSequence() && trace.size() > 0 ? trace[0].Scalar() : trace.Scalar();
    node["name"] = h5::group_name_from(default_dataset_name(first));
  }
  return parse_dataset(node, "gpusynth", function).source;
}

bool is_path(const py::handle& value) { return py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__"); }

// generate's config: a dict, YAML text, or the path of a config file (a
// pathlib.Path, or a one-line str naming an existing file).
RunConfig config_from(const py::object& config) {
  if (py::isinstance<py::dict>(config)) {
    YAML::Emitter text;
    text << to_yaml(config);
    return parse_config(text.c_str(), kTextConfig);
  }
  if (py::hasattr(config, "__fspath__"))
    return load_config(py::module_::import("os").attr("fspath")(config).cast<std::string>());
  if (!py::isinstance<py::str>(config))
    throw UserError("config: a dict, YAML text or the path of a config file is needed");
  const std::string text = config.cast<std::string>();
  std::error_code ec;
  if (text.find('\n') == std::string::npos && std::filesystem::is_regular_file(text, ec)) return load_config(text);
  return parse_config(text, kTextConfig);
}

// A private directory for the run's file, removed with everything in it.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gpusynth-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      throw UserError(fmt::format("cannot create a temporary directory '{}': {}", pattern, std::strerror(errno)));
    path_ = pattern;
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  ~TemporaryDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// /ensembles/<name>/series in its stored type (uint32 counts, float32 or
// float64): the file's bits, replicas × bins.
py::array read_ensemble(hid_t file, const std::string& name) {
  const h5::Handle data = h5::open_dataset(file, "ensembles/" + name + "/series");
  const h5::Handle type(GS_H5_CHECK(H5Dget_type(data.id())), H5Tclose);
  const h5::Handle space(GS_H5_CHECK(H5Dget_space(data.id())), H5Sclose);
  std::vector<hsize_t> dims(2);
  GS_H5_CHECK(H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr));
  const bool counts = H5Tget_class(type.id()) == H5T_INTEGER;
  const bool single = !counts && H5Tget_size(type.id()) == 4;
  py::array out(counts   ? py::dtype::of<std::uint32_t>()
                : single ? py::dtype::of<float>()
                         : py::dtype::of<double>(),
                std::vector<py::ssize_t>{static_cast<py::ssize_t>(dims[0]), static_cast<py::ssize_t>(dims[1])});
  if (out.size() > 0)
    GS_H5_CHECK(H5Dread(data.id(),
                        counts   ? H5T_NATIVE_UINT32
                        : single ? H5T_NATIVE_FLOAT
                                 : H5T_NATIVE_DOUBLE,
                        H5S_ALL, H5S_ALL, H5P_DEFAULT, out.mutable_data()));
  return out;
}

// xarray with its h5netcdf engine, or nothing when either is missing.
std::optional<py::module_> import_xarray() {
  try {
    py::module_::import("h5netcdf");
    return py::module_::import("xarray");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    return std::nullopt;
  }
}

py::dict generate(const py::object& config_given, std::optional<std::string> backend, std::optional<std::uint64_t> seed,
                  std::optional<std::uint64_t> replicas, std::optional<std::string> output,
                  std::optional<bool> as_xarray, bool quiet, std::optional<std::string> precision) {
  RunConfig config = config_from(config_given);
  std::optional<py::module_> xarray;
  if (as_xarray.value_or(true)) {
    xarray = import_xarray();
    if (as_xarray.value_or(false) && !xarray)
      throw py::import_error("as_xarray=True needs xarray and h5netcdf (Debian: python3-xarray python3-h5netcdf)");
  }
  std::optional<TemporaryDirectory> scratch;
  if (!output) {
    scratch.emplace();
    output = (scratch->path() / "gpusynth.h5").string();
  }
  RunOptions options;
  options.config_path = config.path;
  options.command_line = "gpusynth.generate (Python)";
  options.quiet = quiet;
  options.output = output;
  options.seed = seed;
  options.replicas = replicas;
  if (backend) options.backend = parse_backend_choice(*backend);
  if (precision) options.precision = parse_math_precision(*precision);
  apply_overrides(config, options);
  const RunOutcome outcome = engine_call([&] {
    // One run at a time in a process: the kernels' precision and the CPU's lane
    // slots are process-wide (host/engine/precision.hpp), and Debian's HDF5 is
    // not built thread-safe. Taken without the GIL, so a waiting thread holds
    // nothing the running one needs.
    static std::mutex one_run_at_a_time;
    const std::lock_guard<std::mutex> lock(one_run_at_a_time);
    return run_config(config, options);
  });
  if (outcome.interrupted_by) raise_keyboard_interrupt();
  py::dict ensembles;
  if (xarray) {
    for (const EnsembleResult& e : outcome.ensembles) {
      py::object dataset =
          xarray->attr("open_dataset")(*output, "group"_a = "ensembles/" + e.name, "engine"_a = "h5netcdf");
      ensembles[py::str(e.name)] = dataset.attr("load")();
      dataset.attr("close")();
    }
    return ensembles;
  }
  const h5::Handle file = h5::open_file_read(*output);
  for (const EnsembleResult& e : outcome.ensembles) ensembles[py::str(e.name)] = read_ensemble(file.id(), e.name);
  return ensembles;
}

py::dict fitted_dict(const FittedModel& r, const std::string& name, std::uint64_t replicas, bool counts) {
  py::dict d("model"_a = r.model, "valid"_a = r.invalid.empty(),
             "invalid"_a = r.invalid.empty() ? py::object(py::none()) : py::object(py::str(r.invalid)),
             "params"_a = from_yaml(r.params), "workload"_a = from_yaml(r.workload), "fit"_a = from_yaml(r.fit),
             "estimates"_a = r.estimates, "statistic"_a = r.statistic,
             "warning"_a = r.warning.empty() ? py::object(py::none()) : py::object(py::str(r.warning)),
             "length"_a = r.length);
  if (r.invalid.empty()) {
    // Runnable as an `ensembles:` entry of generate's config; no dataset to compare with.
    YAML::Node ensemble = fitted_ensemble_node(r, name, replicas, counts);
    ensemble.remove("dataset");
    d["ensemble"] = from_yaml(ensemble);
  }
  return d;
}

py::object fit(const py::object& series_given, const py::object& model, double bin_width, const py::object& times_given,
               std::uint64_t seed, std::uint64_t replicas, const std::string& name, const py::kwargs& fit_options) {
  std::vector<double> series = series_from(series_given, "series");
  const bool binned = times_given.is_none();
  std::vector<double> times;
  if (!binned) {
    times = series_from(times_given, "times");
    if (times.size() != series.size())
      throw UserError(fmt::format("times: {} values for {} values of the series", times.size(), series.size()));
  }
  if (binned && !(bin_width > 0))
    throw UserError(fmt::format("bin_width = {} is out of range; accepted: seconds > 0", bin_width));
  const bool one = py::isinstance<py::str>(model);
  std::vector<std::string> models;
  if (one)
    models.push_back(model.cast<std::string>());
  else
    for (const auto& m : model) models.push_back(py::str(m).cast<std::string>());
  check_fittable(models, "model");
  if (!h5::is_group_name(name))
    throw UserError(fmt::format("name '{}' is not accepted; accepted: {}", name, h5::kGroupNameRule));
  FitSettings settings;
  for (const auto& [key, value] : fit_options) {
    const std::string option = py::str(key).cast<std::string>();
    settings.set(option, to_yaml(value).Scalar(), option);
  }
  const bool counts = replicas_as_counts(binned, series);
  const std::vector<FittedModel> fitted = engine_call([&] {
    FitData data(std::move(series), binned, binned ? bin_width : 0.0, std::move(times), settings, seed);
    return fit_models(data, models);
  });
  if (one) return fitted_dict(fitted.at(0), name, replicas, counts);
  py::dict all;
  for (const FittedModel& r : fitted) all[py::str(r.model)] = fitted_dict(r, name, replicas, counts);
  return all;
}

py::object stats(const py::object& series, long long max_lag, const py::object& format, const py::kwargs& keys) {
  if (max_lag < 1 || max_lag > 100000000)
    throw UserError(fmt::format("max_lag = {} is out of range; accepted: a whole number from 1 to 100000000", max_lag));
  if (is_path(series) ||
      (py::isinstance<py::list>(series) && py::len(series) > 0 && is_path(series.cast<py::list>()[0]))) {
    StatsOptions options;
    options.source = source_from(series, format, keys, "stats");
    options.max_lag = static_cast<std::size_t>(max_lag);
    return json_to_python(engine_call([&] {
      const TraceStatistics s = compute_statistics(options);
      return summary_json(s, trace_digests(options.source.traces));
    }));
  }
  if (!format.is_none() || py::len(keys) > 0)
    throw UserError("stats: format and trace keywords are for a trace path, not for a series of values");
  TraceStatistics s;
  s.loaded.series = series_from(series, "series");
  return json_to_python(engine_call([&] {
    compute_statistics(s, static_cast<std::size_t>(max_lag));
    return statistics_json(s);
  }));
}

py::dict read_trace_series(const py::object& paths, const py::object& format, const py::kwargs& keys) {
  const SeriesSource source = source_from(paths, format, keys, "read_trace");
  const LoadedSeries s = engine_call([&] { return read_series(source); });
  py::dict channels;
  for (const auto& [channel, values] : s.binned.channels) channels[py::str(channel)] = to_numpy(values);
  py::dict out(
      "series"_a = to_numpy(s.series), "series_name"_a = s.series_name, "format"_a = s.trace.format,
      "sources"_a = py::cast(s.trace.sources), "channels"_a = channels,
      "bin_width"_a = s.binned.bin_width > 0 ? py::object(py::float_(s.binned.bin_width)) : py::object(py::none()),
      "start"_a = s.binned.start, "lines"_a = s.trace.lines, "bad_lines"_a = s.trace.bad_lines,
      "header_detected"_a = s.trace.header_detected);
  if (s.trace.kind == Trace::Kind::events) {
    out["event_times"] = to_numpy(s.trace.times);
    out["interarrivals"] = to_numpy(s.interarrivals);
  }
  if (s.trace.kind == Trace::Kind::series) out["times"] = to_numpy(s.trace.series_times);
  return out;
}

}  // namespace

}  // namespace gs

PYBIND11_MODULE(gpusynth, m) {
  using namespace gs;
  m.doc() = "gpusynth: fit I/O workload models to traces and generate replicas with the CLI's engine (docs/python.md)";
  m.attr("__version__") = kVersion;
  h5::quiet_library_errors();  // HDF5 failures surface as exceptions, not printed stacks
  py::register_exception<UserError>(m, "UserError", PyExc_ValueError);
  py::register_exception<InternalError>(m, "InternalError", PyExc_RuntimeError);
  m.def("generate", &generate, "config"_a, "backend"_a = py::none(), "seed"_a = py::none(), "replicas"_a = py::none(),
        "output"_a = py::none(), "as_xarray"_a = py::none(), "quiet"_a = true, "precision"_a = py::none(),
        "Runs a config as `gpusynth CONFIG` does and returns {ensemble name: replicas x bins}: numpy arrays in the\n"
        "stored type, or xarray Datasets (series(replica, bin)) when xarray and h5netcdf are importable and\n"
        "as_xarray is not False. config: a dict, YAML text, or a config file's path. output: also keep the\n"
        "HDF5 file there (else a private temporary file, removed).");
  m.def("fit", &fit, "series"_a, "model"_a, py::kw_only(), "bin_width"_a = 1.0, "times"_a = py::none(), "seed"_a = 1,
        "replicas"_a = 100, "name"_a = "series",
        "Fits a model (or a list of models) to a 1-D series as `gpusynth fit` does: params, fit (estimates,\n"
        "*_se, log-likelihood), the printed estimates and statistic, and a runnable `ensemble` entry.\n"
        "bin_width: seconds per bin; times: the times of (time, value) pairs instead of bins; other keywords\n"
        "are the fit options (lfsn_hurst='stable', …; `fitting:` keys of a config).");
  m.def("stats", &stats, "series"_a, py::kw_only(), "max_lag"_a = 100, "format"_a = py::none(),
        "The statistics `gpusynth stats --json` prints, as a dict: of a 1-D series, or of a trace path read with\n"
        "format and the keys of a config's dataset (bin='1s', column=…, header=True, …).");
  m.def("read_trace", &read_trace_series, "path"_a, "format"_a,
        "Reads and bins a trace as `gpusynth stats` does: series (the analysed channel), channels, bin_width,\n"
        "start, and event_times/interarrivals or times by kind. Keywords: a config dataset's keys (bin='1s',\n"
        "column, value_column, header, delimiter, time_unit, series, sort, skip_bad_lines, …).");
}
