// A model of gpusynth, described once, in its own file host/models/<name>.cpp,
// by one ModelTraits entry that the file registers at start-up: its name, its
// parameters (ParamSpec: ranges, defaults, located errors), how a Model made
// from them describes itself, which Philox counters it uses, how it generates
// (a spectral plan or a direct kernel, host/models/generation.hpp) and, when
// it can be fitted to a trace, its fit adapter (host/models/fit.hpp). The
// registry gives the names, the config reader, both backends' dispatch and
// `gpusynth fit`. Adding a model is its model file, its kernel header when it
// has per-element math (kernels/<name>.hpp), a test and a docs section.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/base/attributes.hpp"
#include "host/models/generation.hpp"
#include "host/models/params.hpp"

namespace gs {

class FitData;
struct FittedModel;

// What an ensemble's dataset offers a model (hmm's `times: dataset`).
struct DatasetFacts {
  std::string name;
  bool binned = true;         // counts per bin; else (time, value) pairs
  std::uint64_t length = 0;   // values of the series
  std::vector<double> times;  // the observation times of (time, value) pairs
};

// A vector stored beside an ensemble's series (hmm: observation_times).
struct SideVector {
  std::string name;
  std::vector<double> values;
  std::vector<Attribute> attributes;
};

class Model {
 public:
  virtual ~Model() = default;
  const std::string& name() const { return name_; }

  // Every parameter, defaults included, and the law, as output attributes.
  virtual std::vector<Attribute> describe() const = 0;
  // Which Philox counters the values use (the `rng_use` attribute).
  virtual std::string rng_use() const = 0;
  // How an ensemble of request.length values is generated; UserError when it cannot be.
  virtual Generation generation(const GenerationRequest& request) const = 0;

  // The series length the model fixes (hmm with listed observation times).
  virtual std::optional<std::uint64_t> fixed_length() const { return std::nullopt; }
  // The model as an ensemble of `length` values runs it with its dataset
  // (null when it has none): a new model where the dataset changes it, else
  // null (this one as it is). Called by the run's plan for each ensemble; the
  // parsed config's model is left as it was. `where` ("file:line: ensemble
  // 'x'") locates errors.
  virtual std::shared_ptr<Model> with_dataset(const DatasetFacts* /*dataset*/, std::uint64_t /*length*/,
                                              const std::string& /*where*/) const {
    return nullptr;
  }
  // Vectors the output stores beside the series.
  virtual std::vector<SideVector> side_vectors(std::uint64_t /*length*/) const { return {}; }

 private:
  friend std::shared_ptr<Model> make_model(const struct ModelTraits&, const YAML::Node&, const std::string&,
                                           const std::string&);
  std::string name_;
};

// A `fitting:` option of the models' fit adapters, also `--<name>` (with
// dashes) of `gpusynth fit`: a choice, or a whole number in [min, max].
struct FitOptionSpec {
  std::string name;
  std::string help;
  std::vector<std::string> choices;  // empty: a whole number
  std::string default_value;         // empty: absent unless given (the adapter decides)
  std::int64_t min = 0, max = 0;
};

struct ModelTraits {
  std::string name;
  std::string summary;  // one line, for --help and the reference
  std::string example;  // `params:` of a typical ensemble (YAML flow map): the reference's and the tests'
  std::vector<ParamSpec> params;
  std::shared_ptr<Model> (*make)(const ParamValues& params) = nullptr;
  // Estimates the model from a trace's series (null: the model is not fitted).
  FittedModel (*fit)(FitData& data) = nullptr;
  bool fitted_by_default = false;  // among `gpusynth fit`'s default --models
  std::vector<FitOptionSpec> fit_options;
  // The GPU's generation rate over the host's (16 threads, AVX-512 lanes) for the model's example, as
  // measured (bench/models_backends.sh); `--backend auto` generates a model below 1 on the host. NaN:
  // not measured yet (cli.engine's AutoBackend test fails until it is).
  double measured_device_speedup = std::numeric_limits<double>::quiet_NaN();
};

// Adds a model to the registry; every model file calls it once at start-up
// (`const bool registered = register_model({...});`). Returns true.
bool register_model(ModelTraits traits);

// Every model, by name.
std::vector<const ModelTraits*> registered_models();
const ModelTraits* find_model(const std::string& name);
std::vector<std::string> model_names();
std::vector<std::string> fittable_model_names();
std::vector<std::string> default_fit_models();
// Every model's fit options, by name.
std::vector<const FitOptionSpec*> fit_option_specs();

// The model of `traits` with the parameters of `params` (a config's
// `params:` mapping; `file` and `where`, its key path, locate the errors).
std::shared_ptr<Model> make_model(const ModelTraits& traits, const YAML::Node& params, const std::string& file,
                                  const std::string& where);
// The model `name` with the parameters of YAML text ("{alpha: 1.5, H: 0.8}"),
// for tests and benchmarks; UserError for an unknown name.
std::shared_ptr<Model> make_model(const std::string& name, const std::string& params_yaml);

}  // namespace gs
