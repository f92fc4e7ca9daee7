// ensemble.yaml, schema v1, parsed into typed structs (docs/config.md). Every
// key is checked: unknown keys, wrong types, duplicate names and missing
// required keys are user errors naming the file, line, column and key; a
// model's `params:` are checked against its own table (host/models/).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "estimators/compare.hpp"
#include "host/base/attributes.hpp"
#include "host/base/fft.hpp"
#include "host/base/run_paths.hpp"
#include "host/engine/bursts_spec.hpp"
#include "host/engine/precision.hpp"
#include "host/engine/requests_spec.hpp"
#include "host/models/fit.hpp"
#include "host/models/model.hpp"
#include "io/series_source.hpp"
#include "kernels/workload.hpp"

namespace gs {

constexpr std::uint64_t kDefaultSeed = 20240601;  // recorded in every output

enum class BackendChoice { automatic, cpu, cuda };
enum class ValueKind { real, counts };

const char* to_string(BackendChoice b);
const char* to_string(ValueKind v);
BackendChoice parse_backend_choice(const std::string& text);  // throws UserError

struct EnsembleSpec {
  std::string name;
  std::shared_ptr<Model> model;
  WorkloadMapping workload;
  ValueKind values = ValueKind::real;
  Dtype dtype = Dtype::float32;  // compute and storage precision of real values
  std::uint64_t replicas = 0;
  std::uint64_t length = 0;
  std::uint32_t stream = 0;  // Philox stream: FNV-1a of the name unless given
  bool stream_given = false;
  int line = 0;                // where the ensemble is declared
  std::string dataset;         // the real trace this ensemble was fitted to (datasets[].name), if any
  double bin_seconds = 0;      // that trace's bin width (set with the datasets), 0 for none
  std::vector<Attribute> fit;  // what `gpusynth fit` estimated, stored under /ensembles/<name>/fit

  // uint32 for counts, else the dtype.
  StorageType storage() const;
};

// A real trace referenced by the config (written by `gpusynth fit`): read and
// binned as `gpusynth stats` does, stored under /datasets/<name>/series.
struct DatasetSpec {
  std::string name;
  SeriesSource source;  // traces (paths relative to the config resolved), format, bin, …
  int line = 0;
};

// A comparison study (docs/studies.md): `models` fitted to every dataset
// become ensembles `<dataset>-<model>`; with `compare`, every ensemble that
// has a dataset is compared with it, replica by replica.
struct StudySpec {
  std::vector<std::string> models;  // as `gpusynth fit --models`
  std::uint64_t replicas = 1000;    // of each fitted ensemble
  FitSettings fitting;              // the fit adapters' options (`fitting:`)
  // `cap_over_peak: K`: each fitted ensemble's workload cap is K × its dataset's peak (its largest value).
  std::optional<double> cap_over_peak;
  std::optional<CompareOptions> compare;
};

struct RunConfig {
  std::string path;  // the file it came from
  std::string text;  // its full text, recorded in the output
  std::uint64_t seed = kDefaultSeed;
  BackendChoice backend = BackendChoice::automatic;
  MathPrecision precision = MathPrecision::accurate;  // the sampling kernels' functions (host/engine/precision.hpp)
  std::string output;
  int compression = 1;  // deflate level 0..9 (0: none)
  std::vector<DatasetSpec> datasets;
  std::vector<EnsembleSpec> ensembles;
  StudySpec study;
  std::vector<RequestsSpec> requests;  // request-level syntheses (docs/requests.md)
  std::vector<BurstsSpec> bursts;      // burst analyses (docs/bursts.md)
  std::string fft_wisdom_path;         // `fft_wisdom:` (beside the config), and its line and column
  std::pair<int, int> fft_wisdom_mark{0, 0};
  std::shared_ptr<const FftWisdom> fft_wisdom;  // the CPU's FFT plans (host/base/fft.hpp) once read; null: none
};

class ConfigMap;
// The `name` of an entry that becomes an HDF5 group (ensembles, datasets,
// requests, bursts), required (`meaning` says what it names) and checked:
// a UserError at the mapping's key `name` otherwise.
std::string required_group_name(ConfigMap& map, const std::string& meaning);
// The `format` of an entry with traces: the key, one of its spec's choices, or
// where it is left out what the first trace tells without doubt (its first
// lines, or a binary .darshan log's records: detect_trace_format, as the
// command line does) when that is one of the choices; else the missing key's
// UserError, `what` saying what it means.
std::string trace_format_key(ConfigMap& map, const std::vector<std::string>& traces, const std::string& what);

RunConfig load_config(const std::string& path);

// Every file the run of `config` reads (the config, its datasets' traces and
// trace lists, its requests' traces and counters, its FFT wisdom), as inputs
// its outputs may not replace (host/base/run_paths.hpp).
void add_config_inputs(const RunConfig& config, RunPaths& paths);

// The wisdom `fft_wisdom:` names read into config.fft_wisdom (errors located
// at the key); nothing without the key.
void read_config_fft_wisdom(RunConfig& config);

// FFTW wisdom read from `path` and checked by FFTW: a UserError naming the
// path when it cannot be read or this FFTW refuses it.
std::shared_ptr<const FftWisdom> read_fft_wisdom(const std::string& path);
RunConfig parse_config(const std::string& text, const std::string& path);

// One `datasets:` entry (also the keywords of the Python module's read_trace);
// `where` names it in errors ("datasets[0]"), relative traces are taken from
// the folder of `file`.
DatasetSpec parse_dataset(const YAML::Node& node, const std::string& file, const std::string& where);

// One `ensembles:` entry (also for the ensembles a study fits); `index` names
// it in errors.
EnsembleSpec parse_ensemble(const YAML::Node& node, const std::string& file, std::size_t index);

// An ensemble from YAML text as it would stand under `ensembles:`, for tests
// and benchmarks ("{name: x, model: lfsn, params: {...}, replicas: 8, length: 4096}").
EnsembleSpec ensemble_from_yaml(const std::string& text);

}  // namespace gs
