// Typed access to a YAML mapping with located errors: every getter reports the
// file, line, column and the full key path ("ensembles[0].params.alpha"). A
// mapping of the config is read against its spec in the config's schema
// (host/base/config_schema.hpp): a misspelt key is reported as such rather than
// as the required key it was meant to be, a number outside the spec's bounds is
// refused, an absent key with a default reads as the default, and the code may
// ask only for keys the spec declares. A mapping whose keys are data (a model's
// parameters, operation names) is read against the names it is given.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "host/base/config_schema.hpp"
#include "host/base/errors.hpp"

namespace gs {

class ConfigMap {
 public:
  // `node` must be a mapping; `where` is its key path ("" at the top); its keys
  // are those of the schema's mapping `id`. A key outside them is a UserError at once.
  ConfigMap(const YAML::Node& node, std::string file, std::string where, const ConfigSchema& schema,
            const std::string& id);
  // A mapping whose keys are data: `known` (a model's parameters, operation names).
  ConfigMap(const YAML::Node& node, std::string file, std::string where, const std::vector<std::string>& known);

  bool has(const std::string& key) const;
  // A number, a whole number: the value, else the spec's default, else nothing.
  std::optional<double> number(const std::string& key);
  std::optional<std::int64_t> integer(const std::string& key);
  std::optional<std::uint64_t> unsigned_integer(const std::string& key);
  std::optional<std::string> text(const std::string& key);
  // A flag: true or false (false when absent).
  bool flag(const std::string& key);
  // Whether the key is present with a single value (not a list or a mapping).
  bool holds_scalar(const std::string& key);
  std::optional<std::vector<double>> numbers(const std::string& key);
  // A list of `rows` lists of `columns` finite numbers (0: any, but rectangular).
  std::optional<std::vector<std::vector<double>>> matrix(const std::string& key, std::size_t rows, std::size_t columns);
  // The key's mapping, read against the schema's mapping its spec names.
  std::optional<ConfigMap> map(const std::string& key);
  std::optional<YAML::Node> sequence(const std::string& key);
  // The key's node as written, for a value of more than one form (a path or a
  // list of paths; a word or a mapping); the caller checks it.
  YAML::Node node(const std::string& key);

  // One of the spec's choices (else its default); the error lists them.
  std::optional<std::string> choice(const std::string& key);
  // One of `choices` (a mapping of data: a model's parameter).
  std::optional<std::string> choice(const std::string& key, const std::vector<std::string>& choices);
  // The spec of a key of this mapping (InternalError when it has none).
  const KeySpec& spec(const std::string& key) const;

  // Throws when the key is absent, naming what it is for.
  template <class T>
  T require(std::optional<T> value, const std::string& key, const std::string& what) const {
    if (!value) throw error_here(fmt_missing(key, what));
    return *value;
  }

  // A user error located at `key` (or at the mapping when the key is absent).
  UserError error_at(const std::string& key, const std::string& message) const;
  UserError error_here(const std::string& message) const;

  const std::string& where() const { return where_; }
  const std::string& file() const { return file_; }
  std::string path_of(const std::string& key) const;

 private:
  YAML::Node get(const std::string& key);
  std::string fmt_missing(const std::string& key, const std::string& what) const;
  // The spec of `key`, which must be of one of `types`; null for a mapping of data.
  const KeySpec* declared(const std::string& key, std::initializer_list<KeyType> types) const;
  // The same for a key that only a mapping of the schema has (a sub-mapping, a choice of the spec's).
  const KeySpec& declared_in_schema(const std::string& key, std::initializer_list<KeyType> types) const;
  void check_bounds(const std::string& key, const KeySpec* spec, double value) const;

  YAML::Node node_;
  std::string file_;
  std::string where_;
  const ConfigSchema* schema_ = nullptr;
  const MappingSpec* spec_ = nullptr;
};

UserError located_error_at(const YAML::Node& node, const std::string& file, const std::string& message);

// Range check helper: throws "<path> = <value> is out of range; accepted: <range>".
void require_in_range(const ConfigMap& map, const std::string& key, double value, bool ok, const std::string& accepted);

}  // namespace gs
