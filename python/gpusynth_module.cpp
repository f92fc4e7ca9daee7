// The Python module `gpusynth` (docs/python.md): generate, fit, stats and
// read_trace call the engine the CLI runs (run_config, fit_models,
// compute_statistics, read_series), so a seed gives the CLI's bits and a
// mistake the CLI's message, as gpusynth.UserError (a ValueError).
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "estimators/series.hpp"
#include "host/app/stats.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/engine/config.hpp"
#include "host/engine/plan.hpp"
#include "host/engine/run.hpp"
#include "host/models/fit.hpp"
#include "io/ensemble_file.hpp"
#include "io/hdf5_library.hpp"
#include "io/series_source.hpp"
#include "version.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace gs {

namespace {

// Where a config given as text or a dict is said to come from in errors; its
// relative trace paths are taken from the working directory.
constexpr const char* kTextConfig = "<config>";

// How deep dicts and lists may nest in a config (or a keyword) given as
// Python values: a config is a few levels deep, and the conversion recurses.
constexpr std::size_t kMaxNesting = 100;

// A Python value as the config reader would read it from a file: mappings,
// lists and plain scalars (numbers as their shortest exact text). A dict or
// list that contains itself, or nesting deeper than kMaxNesting, is a
// UserError naming where (`config['x']['x']`), not a stack overflow.
class ToYaml {
 public:
  explicit ToYaml(std::string root) : root_(std::move(root)) {}

  YAML::Node operator()(const py::handle& value) {
    if (value.is_none()) return YAML::Node(YAML::NodeType::Null);
    if (py::isinstance<py::bool_>(value)) return YAML::Node(value.cast<bool>() ? "true" : "false");
    if (py::isinstance<py::str>(value)) return YAML::Node(value.cast<std::string>());
    if (py::hasattr(value, "__fspath__"))
      return YAML::Node(py::module_::import("os").attr("fspath")(value).cast<std::string>());
    if (py::isinstance<py::dict>(value)) {
      const Level level(*this, value);
      YAML::Node map(YAML::NodeType::Map);
      for (const auto& [key, item] : value.cast<py::dict>()) {
        const std::string name = py::str(key).cast<std::string>();
        keys_.push_back(fmt::format("[{}]", py::repr(key).cast<std::string>()));
        map[name] = (*this)(item);
        keys_.pop_back();
      }
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
      const Level level(*this, value);
      YAML::Node list(YAML::NodeType::Sequence);
      std::size_t index = 0;
      for (const auto& item : value) {
        keys_.push_back(fmt::format("[{}]", index++));
        list.push_back((*this)(item));
        keys_.pop_back();
      }
      return list;
    }
    throw UserError(
        fmt::format("{}: a value of Python type '{}' has no YAML form; accepted: dict, list, str, int, float, bool, "
                    "None",
                    where(keys_.size()), type_name(value)));
  }

 private:
  // A dict or list being converted: refused when it is one of its own
  // containers (recursion) or one level too deep.
  class Level {
   public:
    Level(ToYaml& outer, const py::handle& value) : outer_(outer) {
      auto& open = outer_.open_;
      const auto same = std::find(open.begin(), open.end(), value.ptr());
      if (same != open.end())
        throw UserError(
            fmt::format("{}: this {} contains itself (it is {}); a config is a tree of dicts, lists and values, and a "
                        "recursive one is not accepted",
                        outer_.where(outer_.keys_.size()), type_name(value),
                        outer_.where(static_cast<std::size_t>(same - open.begin()))));
      if (open.size() == kMaxNesting)
        throw UserError(
            fmt::format("{}: dicts and lists nested more than {} deep; accepted: at most {} levels (the depth limit)",
                        outer_.where(outer_.keys_.size()), kMaxNesting, kMaxNesting));
      open.push_back(value.ptr());
    }
    ~Level() { outer_.open_.pop_back(); }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

   private:
    ToYaml& outer_;
  };

  static std::string type_name(const py::handle& value) {
    return py::str(value.get_type().attr("__name__")).cast<std::string>();
  }

  // `config['a'][0]` for the first `depth` keys; a deep path is shortened.
  std::string where(std::size_t depth) const {
    std::string text = root_;
    for (std::size_t i = 0; i < depth; ++i) {
      if (depth > 8 && i == 4) {
        text += fmt::format("…({} more)…", depth - 5);
        i = depth - 1;
      }
      text += keys_[i];
    }
    return text;
  }

  std::string root_;
  std::vector<PyObject*> open_;    // the dicts and lists being converted, outermost first
  std::vector<std::string> keys_;  // the key or index of every level below the root
};

YAML::Node to_yaml(const py::handle& value, const std::string& root) { return ToYaml(root)(value); }

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

// Calls run at once from several threads: each run has its own execution
// context (precision, lanes: host/engine/context.hpp), every HDF5 call holds
// the library's lock (io/hdf5.hpp; Debian's HDF5 is not built thread-safe),
// and the calls in flight share one interrupt guard (InterruptScope), so
// Ctrl-C stops all of them.

bool in_main_thread() {
  const py::module_ threading = py::module_::import("threading");
  return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

// Whether this thread is inside a call: a call made from inside a call (a
// config value's __iter__ or __fspath__ calling gpusynth) is refused, as its
// interrupt handling and its reading of the outer call's config would tangle.
thread_local bool inside_call = false;

class EngineCall {
 public:
  EngineCall() {
    if (inside_call) throw UserError("gpusynth's functions cannot be called from inside one of its calls");
    inside_call = true;
  }
  ~EngineCall() { inside_call = false; }
  EngineCall(const EngineCall&) = delete;
  EngineCall& operator=(const EngineCall&) = delete;
};

// The CLI's interrupt guard (SIGINT and SIGTERM recorded, polled by the long
// loops), shared by the calls in flight: the first saves Python's handlers
// and installs the guard, the last removes it and puts Python's handlers back
// whole (InterruptGuard restores them with std::signal, which adds
// SA_RESTART, and a blocking read such as input() would then no longer stop
// at Ctrl-C). A signal recorded while calls are in flight stops each of them.
class InterruptScope {
 public:
  InterruptScope() {
    const std::lock_guard<std::mutex> lock(mutex());
    Shared& shared = state();
    if (shared.scopes++ > 0) return;
    sigaction(SIGINT, nullptr, &shared.python_int);
    sigaction(SIGTERM, nullptr, &shared.python_term);
    shared.forwarded = false;
    shared.guard.emplace();
  }
  ~InterruptScope() {
    const std::lock_guard<std::mutex> lock(mutex());
    Shared& shared = state();
    if (--shared.scopes > 0) return;
    shared.guard.reset();
    sigaction(SIGINT, &shared.python_int, nullptr);
    sigaction(SIGTERM, &shared.python_term, nullptr);
  }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // Whether the caller is the first of the calls a signal stopped to hand
  // Ctrl-C on to the main thread (once per guard: Python raises it once).
  static bool first_to_forward() {
    const std::lock_guard<std::mutex> lock(mutex());
    return !std::exchange(state().forwarded, true);
  }

 private:
  struct Shared {
    int scopes = 0;
    bool forwarded = false;  // Ctrl-C handed on to the main thread under this guard
    struct sigaction python_int {};
    struct sigaction python_term {};
    std::optional<InterruptGuard> guard;
  };
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static Shared& state() {
    static Shared shared;
    return shared;
  }
};

// A call stopped by SIGINT or SIGTERM: KeyboardInterrupt in its thread.
// Python gives Ctrl-C to the main thread, so when this is another thread the
// main thread gets it too (as though the guard had not taken it), once
// however many calls the signal stopped.
[[noreturn]] void raise_interrupt(int signal) {
  if (signal == SIGINT && !in_main_thread() && InterruptScope::first_to_forward()) {
#if PY_VERSION_HEX >= 0x030A0000
    PyErr_SetInterruptEx(SIGINT);
#else
    PyErr_SetInterrupt();
#endif
  }
  PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw py::error_already_set();
}

// Runs engine work without the GIL under the interrupt guard: Ctrl-C stops
// the long loops within a step and becomes KeyboardInterrupt.
template <class Work>
auto engine_call(Work&& work) -> decltype(work()) {
  int signal = 0;
  {
    py::gil_scoped_release unlocked;
    InterruptScope interrupts;
    try {
      return work();
    } catch (const Interrupted& interrupted) {
      signal = interrupted.signal;
    }
  }
  raise_interrupt(signal);
}

// A 1-D series of finite values, as the trace readers would accept it.
std::vector<double> series_from(const py::handle& given, const char* what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(given);
  if (!a) throw UserError(fmt::format("{}: a 1-D sequence of numbers is needed", what));
  if (a.ndim() != 1) throw UserError(fmt::format("{}: a 1-D series is needed, found {} dimensions", what, a.ndim()));
  std::vector<double> values(a.data(), a.data() + a.size());
  if (values.size() < 2)
    throw UserError(fmt::format("{}: the series has {} value(s); at least 2 are needed", what, values.size()));
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
  YAML::Node node = to_yaml(keys, function);
  node["trace"] = to_yaml(paths, std::string(function) + (std::string_view(function) == "stats" ? ".series" : ".path"));
  if (!format.is_none()) node["format"] = to_yaml(format, std::string(function) + ".format");
  if (!node["name"]) {
    const YAML::Node trace = node["trace"];
    const std::string first = trace.IsSequence() && trace.size() > 0 ? trace[0].Scalar() : trace.Scalar();
    node["name"] = h5::group_name_from(default_dataset_name(first));
  }
  return parse_dataset(node, "gpusynth", function).source;
}

bool is_path(const py::handle& value) { return py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__"); }

// A one-line str that YAML reads as a single plain value, not as a mapping
// (a config is always one), or that is no YAML but ends with .yaml or .yml:
// a config file's path.
bool names_a_file(const std::string& text) {
  if (text.find_first_of("\r\n") != std::string::npos) return false;
  std::error_code ec;
  if (std::filesystem::exists(text, ec)) return true;
  try {
    const YAML::Node node = YAML::Load(text);
    return node.IsScalar() && node.Tag() != "!";
  } catch (const YAML::Exception&) {
    const auto ends = [&](const std::string& tail) {
      return text.size() > tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
    };
    return ends(".yaml") || ends(".yml");
  }
}

// generate's config: a dict, YAML text, or the path of a config file (a
// pathlib.Path, or a one-line str that is not the text of a mapping). A path
// that does not exist is the CLI's error ("x.yaml: cannot open the config
// file: No such file or directory"), never YAML text of one string.
RunConfig config_from(const py::object& config) {
  if (py::isinstance<py::dict>(config)) {
    YAML::Emitter text;
    text << to_yaml(config, "config");
    return parse_config(text.c_str(), kTextConfig);
  }
  if (py::hasattr(config, "__fspath__"))
    return load_config(py::module_::import("os").attr("fspath")(config).cast<std::string>());
  if (!py::isinstance<py::str>(config))
    throw UserError("config: a dict, YAML text or the path of a config file is needed");
  const std::string text = config.cast<std::string>();
  if (names_a_file(text)) return load_config(text);
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

// The memory generate's arrays may take: memory_limit (also the run's
// --memory-limit), or the CLI's default host budget.
struct MemoryBudget {
  std::uint64_t bytes = 0;
  bool given = false;

  std::string describe() const {
    return given ? fmt::format("{} (memory_limit)", format_bytes(bytes))
                 : fmt::format("{} (the default: a quarter of the available memory, 64 MiB to 4 GiB)",
                               format_bytes(bytes));
  }
};

MemoryBudget memory_budget_from(const py::object& limit) {
  if (limit.is_none()) return {default_host_budget(), false};
  if (py::isinstance<py::str>(limit)) {
    try {
      return {parse_memory_size(limit.cast<std::string>()), true};
    } catch (const UserError& e) {
      throw UserError(fmt::format("memory_limit: {}", e.what()));
    }
  }
  if (!py::isinstance<py::bool_>(limit) && PyIndex_Check(limit.ptr())) {
    const py::int_ bytes(py::reinterpret_borrow<py::object>(limit));
    const unsigned long long value =
        PyLong_AsUnsignedLongLong(bytes.ptr());  // (unsigned long long)-1: negative or too large
    if (PyErr_Occurred()) PyErr_Clear();
    if (value >= 1 && value < 18000000000000000000ull) return {value, true};
    throw UserError(fmt::format("memory_limit = {} is out of range; accepted: bytes >= 1, or a size such as '2GiB'",
                                py::str(limit).cast<std::string>()));
  }
  throw UserError("memory_limit: bytes (an int) or a size such as '2GiB' is needed");
}

// The bytes generate returns for it: the array, and the indexes xarray loads
// with it (and the file's writer builds): 8 bytes a replica, 16 a bin (bin
// index and time).
double result_bytes(const SeriesShape& s) {
  return static_cast<double>(s.replicas) * (static_cast<double>(s.bins) * storage_bytes(s.storage) + 8.0) +
         16.0 * static_cast<double>(s.bins);
}

// generate holds every stored replica in memory: refused before the run (and
// before the read-back, for a study's fitted ensembles) when that is more than
// the budget, with the numbers, as the CLI's plan refuses a batch.
void check_result_memory(const std::vector<SeriesShape>& shapes, const MemoryBudget& budget, const std::string& note) {
  double total = 0;
  for (const SeriesShape& s : shapes) total += result_bytes(s);
  if (total <= static_cast<double>(budget.bytes)) return;
  std::string parts;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (i == 4) {
      parts += fmt::format(", and {} more", shapes.size() - i);
      break;
    }
    const SeriesShape& s = shapes[i];
    parts += fmt::format("{}'{}' {} replicas × {} bins of {}: {}", i ? ", " : "", s.name, s.replicas, s.bins,
                         to_string(s.storage), format_estimated_bytes(result_bytes(s)));
  }
  throw UserError(fmt::format(
      "generate returns every replica in memory and they need {} with their replica and bin indexes ({}), more "
      "than the memory budget {}; lower replicas, raise memory_limit, or run the config with the CLI (gpusynth "
      "CONFIG), which streams the replicas to its file{}",
      format_estimated_bytes(total), parts, budget.describe(), note));
}

// The replicas a run stores (run.cpp's rule): all, or a study's first store_replicas.
std::uint64_t stored_replicas(const RunConfig& config, const EnsembleSpec& spec) {
  return std::min(config.study.compare ? config.study.compare->store_replicas.value_or(UINT64_MAX) : UINT64_MAX,
                  spec.replicas);
}

py::dtype numpy_type(StorageType storage) {
  return storage == StorageType::uint32    ? py::dtype::of<std::uint32_t>()
         : storage == StorageType::float32 ? py::dtype::of<float>()
                                           : py::dtype::of<double>();
}

// Rows read at a time: whole chunks, about 16 MiB, so that an interrupt is
// seen between reads well within a second.
std::uint64_t slab_rows(const SeriesShape& s) {
  constexpr std::uint64_t kSlabBytes = 16ull << 20;
  const std::uint64_t row_bytes = std::max<std::uint64_t>(1, s.bins * storage_bytes(s.storage));
  const std::uint64_t rows = std::max<std::uint64_t>(1, kSlabBytes / row_bytes);
  return std::max(s.chunk_rows, rows / s.chunk_rows * s.chunk_rows);
}

// The series as a numpy array, read slab by slab without the GIL; an
// interrupt between slabs throws Interrupted.
// The file is opened and closed without the GIL, as every HDF5 call of the
// module is made: a thread holding the library's lock (read_xarray) may be
// waiting for the GIL.
py::array read_numpy(const std::string& path, const SeriesShape& s) {
  py::array out(numpy_type(s.storage),
                std::vector<py::ssize_t>{static_cast<py::ssize_t>(s.replicas), static_cast<py::ssize_t>(s.bins)});
  if (out.size() == 0) return out;
  auto* base = static_cast<unsigned char*>(out.mutable_data());
  const std::uint64_t row_bytes = s.bins * storage_bytes(s.storage), step = slab_rows(s);
  {
    py::gil_scoped_release unlocked;
    const SeriesReader file(path);
    for (std::uint64_t first = 0; first < s.replicas; first += step) {
      throw_if_interrupted();
      file.read_rows(s, first, std::min(step, s.replicas - first), base + first * row_bytes);
    }
    throw_if_interrupted();
  }
  return out;
}

// The series as xr.open_dataset(file, group="ensembles/<name>",
// engine="h5netcdf") gives it, loaded: the series slab by slab (an interrupt
// between slabs throws Interrupted), then the rest.
py::object read_xarray(const py::module_& xarray, const std::string& path, const SeriesShape& s) {
  // h5py enters the HDF5 library gpusynth links when gpusynth is built
  // without MPI (Debian's serial one; with MPI gpusynth links the openmpi
  // one): the read holds the library's lock, taken without the GIL (the
  // lock's holder may need the GIL).
  std::unique_lock<std::recursive_mutex> library(h5::library_mutex(), std::defer_lock);
  {
    py::gil_scoped_release unlocked;
    library.lock();
  }
  py::object dataset = xarray.attr("open_dataset")(path, "group"_a = "ensembles/" + s.name, "engine"_a = "h5netcdf");
  const py::object series = dataset["series"];
  py::array values(py::dtype::from_args(series.attr("dtype")),
                   std::vector<py::ssize_t>{static_cast<py::ssize_t>(s.replicas), static_cast<py::ssize_t>(s.bins)});
  const std::uint64_t step = slab_rows(s);
  for (std::uint64_t first = 0; first < s.replicas; first += step) {
    throw_if_interrupted();
    const py::slice rows(static_cast<py::ssize_t>(first), static_cast<py::ssize_t>(std::min(first + step, s.replicas)),
                         1);
    values[rows] = series[rows].attr("values");
  }
  throw_if_interrupted();
  dataset["series"] = series.attr("copy")("deep"_a = false, "data"_a = values);
  dataset.attr("load")();
  dataset.attr("close")();
  return dataset;
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
                  std::optional<bool> as_xarray, bool quiet, std::optional<std::string> precision,
                  const py::object& memory_limit, const py::object& fft_wisdom) {
  const EngineCall call;
  RunConfig config = config_from(config_given);
  std::optional<py::module_> xarray;
  if (as_xarray.value_or(true)) {
    xarray = import_xarray();
    if (as_xarray.value_or(false) && !xarray)
      throw py::import_error("as_xarray=True needs xarray and h5netcdf (Debian: python3-xarray python3-h5netcdf)");
  }
  const MemoryBudget budget = memory_budget_from(memory_limit);
  const bool kept = output.has_value();
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
  if (budget.given) options.memory_limit = budget.bytes;
  if (backend) options.backend = parse_backend_choice(*backend);
  if (precision) options.precision = parse_math_precision(*precision);
  if (!fft_wisdom.is_none())
    options.fft_wisdom = py::module_::import("os").attr("fspath")(fft_wisdom).cast<std::string>();
  apply_overrides(config, options);
  std::vector<SeriesShape> planned;
  for (const EnsembleSpec& spec : config.ensembles)
    planned.push_back({spec.name, stored_replicas(config, spec), spec.length, 1, spec.storage()});
  check_result_memory(planned, budget, "");
  // From the run to the last array read back, Ctrl-C (SIGINT) and SIGTERM are
  // recorded and polled: the run stops within a step, the read-back between
  // slabs.
  std::optional<InterruptScope> interrupts(std::in_place);
  const RunOutcome outcome = [&] {
    py::gil_scoped_release unlocked;
    return run_config(config, options);
  }();
  int signal = outcome.interrupted_by;
  py::dict ensembles;
  if (!signal) {
    try {
      std::vector<SeriesShape> shapes;
      {
        py::gil_scoped_release unlocked;
        const SeriesReader file(*output);
        for (const EnsembleResult& e : outcome.ensembles) shapes.push_back(file.shape(e.name));
      }
      check_result_memory(shapes, budget, kept ? fmt::format("; the run's file '{}' is complete", *output) : "");
      if (xarray) {
        for (const SeriesShape& s : shapes) ensembles[py::str(s.name)] = read_xarray(*xarray, *output, s);
      } else {
        for (const SeriesShape& s : shapes) ensembles[py::str(s.name)] = read_numpy(*output, s);
      }
    } catch (const Interrupted& interrupted) {
      signal = interrupted.signal;
    }
  }
  interrupts.reset();
  if (!signal) signal = pending_interrupt();  // one that came after the last slab
  if (signal) raise_interrupt(signal);
  return ensembles;
}

py::dict fitted_dict(const FittedModel& r, const std::string& name, std::uint64_t replicas, bool counts) {
  py::dict d("model"_a = r.model, "valid"_a = r.invalid.empty(), "validity"_a = validity_of(r),
             "boundary"_a = r.boundary.empty() ? py::object(py::none()) : py::object(py::str(r.boundary)),
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
  const EngineCall call;
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
  if (replicas < 1 || replicas > 0xffffffffull)  // as the CLI's --replicas
    throw UserError(fmt::format("replicas = {} is out of range; accepted: 1 to 4294967295", replicas));
  const bool one = py::isinstance<py::str>(model);
  std::vector<std::string> models;
  if (one)
    models.push_back(model.cast<std::string>());
  else
    for (const auto& m : model) models.push_back(py::str(m).cast<std::string>());
  if (models.empty())
    throw UserError(fmt::format("model: the list of models is empty; accepted: a model or a list of them, from {}",
                                fmt::join(fittable_model_names(), ", ")));
  check_fittable(models, "model");
  if (!h5::is_group_name(name))
    throw UserError(fmt::format("name '{}' is not accepted; accepted: {}", name, h5::kGroupNameRule));
  FitSettings settings;
  for (const auto& [key, value] : fit_options) {
    const std::string option = py::str(key).cast<std::string>();
    settings.set(option, to_yaml(value, option).Scalar(), option);
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
  const EngineCall call;
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
  const EngineCall call;
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
        "memory_limit"_a = py::none(), "fft_wisdom"_a = py::none(),
        "Runs a config as `gpusynth CONFIG` does and returns {ensemble name: replicas x bins}: numpy arrays in the\n"
        "stored type, or xarray Datasets (series(replica, bin)) when xarray and h5netcdf are importable and\n"
        "as_xarray is not False. config: a dict, YAML text, or a config file's path. output: also keep the\n"
        "HDF5 file there (else a private temporary file, removed). memory_limit: bytes or '2GiB', the budget of\n"
        "the returned arrays and the run's --memory-limit (default: a quarter of the available memory, at most\n"
        "4 GiB). fft_wisdom: a file made by `gpusynth fft-wisdom` (as --fft-wisdom). Calls from several threads\n"
        "run one at a time.");
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
