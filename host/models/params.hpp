// The parameters of a model, declared once as a table of ParamSpec in the
// model's file: name, type, meaning, range and default. ParamValues reads a
// config's `params:` mapping against that table — unknown keys, wrong types,
// missing required keys and values out of range are UserErrors naming the
// file, line, column, key path and the accepted range — and the reference
// (`gpusynth run --help`, docs/models.md) is checked against the same table.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "host/base/bounds.hpp"
#include "host/base/config_map.hpp"

namespace gs {

using Matrix = std::vector<std::vector<double>>;
// Row-major: entry [i·columns + j] (HDF5 attributes are flat).
std::vector<double> flattened(const Matrix& m);

enum class ParamType { real, whole, reals, matrix, choice, text };

struct ParamSpec : BoundedSpec<ParamSpec> {
  std::string name;
  ParamType type = ParamType::real;
  std::string meaning;
  bool required = true;
  double default_number = 0;         // real, whole: the value when absent (not required)
  std::string default_text;          // choice: the value when absent; others: what absence means
  // bounds (BoundedSpec): real and whole; every entry of reals and matrix
  std::vector<std::string> choices;  // choice
  std::string word;                  // reals: a word accepted instead of the list (hmm's times: dataset)
  std::string list_of = "numbers";   // reals: what the list holds, for messages

  ParamSpec& defaults(double x);                         // real, whole
  ParamSpec& defaults(const std::string& text);          // choice (a value) or reals/matrix (in words)
  ParamSpec& optional(const std::string& absent_means);  // may be absent; the model decides
  ParamSpec& or_word(const std::string& accepted, const std::string& items);

  // The default as the reference shows it ("required" when there is none).
  std::string default_description() const;
  // The range as the reference shows it.
  std::string range_description() const;
};

ParamSpec real_param(const std::string& name, const std::string& meaning);
ParamSpec whole_param(const std::string& name, const std::string& meaning);
ParamSpec reals_param(const std::string& name, const std::string& meaning);
ParamSpec matrix_param(const std::string& name, const std::string& meaning);
ParamSpec choice_param(const std::string& name, const std::string& meaning, std::vector<std::string> choices);
ParamSpec text_param(const std::string& name, const std::string& meaning);

// The accepted keys of a `params:` mapping.
std::vector<std::string> param_names(const std::vector<ParamSpec>& specs);

class ParamValues {
 public:
  // Reads every key of `map` (a config's params, whose known keys are the
  // specs' names) and checks it against its spec.
  ParamValues(ConfigMap map, const std::vector<ParamSpec>& specs);

  double real(const std::string& name) const;  // the value, or the default
  std::int64_t whole(const std::string& name) const;
  const std::vector<double>& reals(const std::string& name) const;  // empty when absent
  const Matrix& matrix(const std::string& name) const;              // empty when absent
  const std::string& choice(const std::string& name) const;
  const std::string& text(const std::string& name) const;  // empty when absent
  // The word given instead of a list (ParamSpec::word), or empty.
  const std::string& word(const std::string& name) const;
  bool given(const std::string& name) const;

  // For the checks a table cannot express (between parameters).
  UserError error_at(const std::string& name, const std::string& message) const { return map_.error_at(name, message); }
  UserError error_here(const std::string& message) const { return map_.error_here(message); }
  // "<path> = <value> is out of range; accepted: <bounds>" unless bounds contain value.
  void check_range(const std::string& name, double value, const Bounds& bounds, bool whole = false) const;
  std::string path_of(const std::string& name) const { return map_.path_of(name); }
  const std::string& where() const { return map_.where(); }
  const std::string& file() const { return map_.file(); }

 private:
  using Value = std::variant<double, std::int64_t, std::vector<double>, Matrix, std::string>;
  const Value* find(const std::string& name) const;
  const ParamSpec& spec(const std::string& name) const;

  ConfigMap map_;
  std::vector<ParamSpec> specs_;
  std::map<std::string, Value> values_;
  std::map<std::string, std::string> words_;
};

}  // namespace gs
