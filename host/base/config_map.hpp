// Typed access to a YAML mapping with located errors: every getter reports the
// file, line, column and the full key path ("ensembles[0].params.alpha"). Each
// mapping names its known keys first, so a misspelt key is reported as such
// rather than as the required key it was meant to be.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/base/errors.hpp"

namespace gs {

class ConfigMap {
 public:
  // `node` must be a mapping; `where` is its key path ("" at the top). A key
  // outside `known` is a UserError at once.
  ConfigMap(const YAML::Node& node, std::string file, std::string where, const std::vector<std::string>& known);

  bool has(const std::string& key) const { return static_cast<bool>(node_[key]); }
  std::optional<double> number(const std::string& key);
  std::optional<std::int64_t> integer(const std::string& key);
  std::optional<std::uint64_t> unsigned_integer(const std::string& key);
  std::optional<std::string> text(const std::string& key);
  // Whether the key is present with a single value (not a list or a mapping).
  bool holds_scalar(const std::string& key);
  std::optional<std::vector<double>> numbers(const std::string& key);
  // A list of `rows` lists of `columns` finite numbers (0: any, but rectangular).
  std::optional<std::vector<std::vector<double>>> matrix(const std::string& key, std::size_t rows, std::size_t columns);
  std::optional<ConfigMap> map(const std::string& key, const std::vector<std::string>& known);
  std::optional<YAML::Node> sequence(const std::string& key);

  // One of `choices`; the error lists them.
  std::optional<std::string> choice(const std::string& key, const std::vector<std::string>& choices);

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

  YAML::Node node_;
  std::string file_;
  std::string where_;
};

UserError located_error_at(const YAML::Node& node, const std::string& file, const std::string& message);

// Range check helper: throws "<path> = <value> is out of range; accepted: <range>".
void require_in_range(const ConfigMap& map, const std::string& key, double value, bool ok, const std::string& accepted);

}  // namespace gs
