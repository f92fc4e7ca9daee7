#include "host/base/config_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace gs {

namespace {

std::string describe_type(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Scalar:
      return fmt::format("'{}'", node.Scalar());
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    default:
      return "an undefined value";
  }
}

}  // namespace

UserError located_error_at(const YAML::Node& node, const std::string& file, const std::string& message) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return located_error(file, 0, 0, message);
  return located_error(file, mark.line + 1, mark.column + 1, message);
}

namespace {

// Every key of `node` once, and among `known`.
void check_keys(const YAML::Node& node, const std::string& file, const std::string& where,
                const std::vector<std::string>& known) {
  if (!node.IsMap()) {
    throw located_error_at(node, file,
                           fmt::format("{} must be a mapping of keys to values, found {}",
                                       where.empty() ? "the file" : where, describe_type(node)));
  }
  std::map<std::string, YAML::Mark> seen;
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    // yaml-cpp keeps both entries of a repeated key and answers with the first.
    if (const auto [first, fresh] = seen.emplace(key, entry.first.Mark()); !fresh)
      throw located_error_at(entry.first, file,
                             fmt::format("the key '{}' appears twice in {} (first on line {}); keep one", key,
                                         where.empty() ? "the file" : where, first->second.line + 1));
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      throw located_error_at(entry.first, file,
                             fmt::format("unknown key '{}' in {}; accepted keys: {}", key,
                                         where.empty() ? "the file" : where, fmt::join(known, ", ")));
    }
  }
}

bool is_one_of(KeyType type, std::initializer_list<KeyType> types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

}  // namespace

ConfigMap::ConfigMap(const YAML::Node& node, std::string file, std::string where, const ConfigSchema& schema,
                     const std::string& id)
    : node_(node), file_(std::move(file)), where_(std::move(where)), schema_(&schema), spec_(&schema.mapping(id)) {
  check_keys(node_, file_, where_, spec_->names());
}

ConfigMap::ConfigMap(const YAML::Node& node, std::string file, std::string where, const std::vector<std::string>& known)
    : node_(node), file_(std::move(file)), where_(std::move(where)) {
  check_keys(node_, file_, where_, known);
}

const KeySpec* ConfigMap::declared(const std::string& key, std::initializer_list<KeyType> types) const {
  if (!spec_) return nullptr;
  const KeySpec* spec = spec_->find(key);
  if (!spec)
    throw InternalError("ConfigMap",
                        fmt::format("'{}' is read from {} but its schema '{}' declares no such key", key,
                                    where_.empty() ? "the file" : where_, spec_->id),
                        __FILE__, __LINE__);
  if (types.size() && !is_one_of(spec->type, types))
    throw InternalError("ConfigMap",
                        fmt::format("'{}' of the schema's '{}' is a {}, read here as another type", key, spec_->id,
                                    to_string(spec->type)),
                        __FILE__, __LINE__);
  note_key_asked(*spec_, *spec);
  return spec;
}

const KeySpec& ConfigMap::declared_in_schema(const std::string& key, std::initializer_list<KeyType> types) const {
  const KeySpec* spec = declared(key, types);
  if (!spec)
    throw InternalError("ConfigMap", fmt::format("'{}' needs the schema, and {} is a mapping of data", key, where_),
                        __FILE__, __LINE__);
  return *spec;
}

const KeySpec& ConfigMap::spec(const std::string& key) const { return declared_in_schema(key, {}); }

void ConfigMap::check_bounds(const std::string& key, const KeySpec* spec, double value) const {
  if (spec && spec->bounds.any())
    require_in_range(*this, key, value, spec->bounds.contains(value), spec->range_description());
}

bool ConfigMap::has(const std::string& key) const {
  declared(key, {});
  return static_cast<bool>(node_[key]);
}

std::string ConfigMap::path_of(const std::string& key) const { return where_.empty() ? key : where_ + "." + key; }

YAML::Node ConfigMap::get(const std::string& key) {
  const YAML::Node value = node_[key];
  if (value && value.IsNull()) throw error_at(key, fmt::format("{} has no value", path_of(key)));
  return value;
}

UserError ConfigMap::error_at(const std::string& key, const std::string& message) const {
  const YAML::Node value = node_[key];
  return located_error_at(value ? value : node_, file_, message);
}

UserError ConfigMap::error_here(const std::string& message) const { return located_error_at(node_, file_, message); }

std::string ConfigMap::fmt_missing(const std::string& key, const std::string& what) const {
  return fmt::format("{} is missing the required key '{}' ({})", where_.empty() ? "the file" : where_, key, what);
}

std::optional<double> ConfigMap::number(const std::string& key) {
  const KeySpec* spec = declared(key, {KeyType::number});
  const YAML::Node value = get(key);
  if (!value) return spec ? spec->default_number : std::nullopt;
  double x = 0;
  if (!value.IsScalar() || !YAML::convert<double>::decode(value, x) || std::isnan(x)) {
    throw error_at(key, fmt::format("{} must be a number, found {}", path_of(key), describe_type(value)));
  }
  if (!std::isfinite(x)) throw error_at(key, fmt::format("{} must be finite, found {}", path_of(key), value.Scalar()));
  check_bounds(key, spec, x);
  return x;
}

std::optional<std::int64_t> ConfigMap::integer(const std::string& key) {
  const KeySpec* spec = declared(key, {KeyType::whole});
  const YAML::Node value = get(key);
  if (!value) {
    if (spec && spec->default_number) return static_cast<std::int64_t>(*spec->default_number);
    return std::nullopt;
  }
  std::int64_t n = 0;
  double x = 0;  // accept 1e6 and 4096.0 when they are whole numbers
  if (value.IsScalar() && YAML::convert<std::int64_t>::decode(value, n)) {
    check_bounds(key, spec, static_cast<double>(n));
    return n;
  }
  if (value.IsScalar() && YAML::convert<double>::decode(value, x) && std::isfinite(x) && x == std::floor(x) &&
      std::fabs(x) <= 9007199254740992.0) {
    check_bounds(key, spec, x);
    return static_cast<std::int64_t>(x);
  }
  throw error_at(key, fmt::format("{} must be a whole number, found {}", path_of(key), describe_type(value)));
}

std::optional<std::uint64_t> ConfigMap::unsigned_integer(const std::string& key) {
  const KeySpec* spec = declared(key, {KeyType::whole});
  const YAML::Node value = get(key);
  if (!value) {
    if (spec && spec->default_number) return static_cast<std::uint64_t>(*spec->default_number);
    return std::nullopt;
  }
  if (value.IsScalar() && !value.Scalar().empty() && value.Scalar()[0] != '-') {
    std::uint64_t n = 0;
    if (YAML::convert<std::uint64_t>::decode(value, n)) {
      check_bounds(key, spec, static_cast<double>(n));
      return n;
    }
    double x = 0;
    if (YAML::convert<double>::decode(value, x) && x >= 0 && x == std::floor(x) && x <= 9007199254740992.0) {
      check_bounds(key, spec, x);
      return static_cast<std::uint64_t>(x);
    }
  }
  throw error_at(key,
                 fmt::format("{} must be a non-negative whole number, found {}", path_of(key), describe_type(value)));
}

std::optional<std::string> ConfigMap::text(const std::string& key) {
  const KeySpec* spec = declared(key, {});
  if (spec && spec->words.empty() &&
      !is_one_of(spec->type, {KeyType::text, KeyType::path, KeyType::duration, KeyType::choice}))
    throw InternalError("ConfigMap::text", fmt::format("'{}' of '{}' is a {}", key, spec_->id, to_string(spec->type)),
                        __FILE__, __LINE__);
  const YAML::Node value = get(key);
  if (!value) return std::nullopt;
  if (!value.IsScalar()) {
    throw error_at(key, fmt::format("{} must be a text value, found {}", path_of(key), describe_type(value)));
  }
  return value.Scalar();
}

bool ConfigMap::flag(const std::string& key) {
  const KeySpec* spec = declared(key, {KeyType::flag});
  const YAML::Node value = get(key);
  if (!value) return spec && spec->default_text == "true";
  if (!value.IsScalar() || (value.Scalar() != "true" && value.Scalar() != "false"))
    throw error_at(key,
                   fmt::format("{} = {} is not accepted; accepted: true, false", path_of(key), describe_type(value)));
  return value.Scalar() == "true";
}

bool ConfigMap::holds_scalar(const std::string& key) {
  declared(key, {});
  const YAML::Node value = get(key);
  return value && value.IsScalar();
}

std::optional<std::vector<double>> ConfigMap::numbers(const std::string& key) {
  const KeySpec* spec = declared(key, {KeyType::numbers});
  const YAML::Node value = get(key);
  if (!value) return std::nullopt;
  if (!value.IsSequence()) {
    throw error_at(key, fmt::format("{} must be a list of numbers, found {}", path_of(key), describe_type(value)));
  }
  std::vector<double> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    double x = 0;
    if (!value[i].IsScalar() || !YAML::convert<double>::decode(value[i], x) || !std::isfinite(x)) {
      throw located_error_at(
          value[i], file_,
          fmt::format("{}[{}] must be a finite number, found {}", path_of(key), i, describe_type(value[i])));
    }
    if (spec && spec->bounds.any() && !spec->bounds.contains(x))
      throw located_error_at(
          value[i], file_,
          fmt::format("{}[{}] = {} is out of range; accepted: {}", path_of(key), i, x, spec->range_description()));
    out.push_back(x);
  }
  return out;
}

std::optional<std::vector<std::vector<double>>> ConfigMap::matrix(const std::string& key, std::size_t rows,
                                                                  std::size_t columns) {
  declared(key, {KeyType::numbers});
  const YAML::Node value = get(key);
  if (!value) return std::nullopt;
  const std::string shape = fmt::format("a list of {} rows, each a list of {} numbers",
                                        rows ? std::to_string(rows) : "k", columns ? std::to_string(columns) : "k");
  if (!value.IsSequence() || value.size() == 0 || (rows && value.size() != rows)) {
    throw error_at(key, fmt::format("{} must be {}, found {}", path_of(key), shape,
                                    value.IsSequence() ? fmt::format("{} rows", value.size()) : describe_type(value)));
  }
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const YAML::Node row = value[i];
    const std::size_t wanted = columns ? columns : (out.empty() ? row.size() : out[0].size());
    if (!row.IsSequence() || row.size() != wanted || wanted == 0) {
      throw located_error_at(
          row, file_,
          fmt::format("{}[{}] must be a list of {} numbers ({} is {}), found {}", path_of(key), i, wanted, path_of(key),
                      shape, row.IsSequence() ? fmt::format("{} numbers", row.size()) : describe_type(row)));
    }
    std::vector<double> numbers;
    for (std::size_t j = 0; j < row.size(); ++j) {
      double x = 0;
      if (!row[j].IsScalar() || !YAML::convert<double>::decode(row[j], x) || !std::isfinite(x)) {
        throw located_error_at(
            row[j], file_,
            fmt::format("{}[{}][{}] must be a finite number, found {}", path_of(key), i, j, describe_type(row[j])));
      }
      numbers.push_back(x);
    }
    out.push_back(std::move(numbers));
  }
  return out;
}

std::optional<ConfigMap> ConfigMap::map(const std::string& key) {
  const KeySpec& spec = declared_in_schema(key, {KeyType::mapping});
  const YAML::Node value = get(key);
  if (!value) return std::nullopt;
  return ConfigMap(value, file_, path_of(key), *schema_, spec.mapping);
}

YAML::Node ConfigMap::node(const std::string& key) {
  declared(key, {});
  return node_[key];
}

std::optional<YAML::Node> ConfigMap::sequence(const std::string& key) {
  declared(key, {KeyType::mappings, KeyType::names, KeyType::numbers, KeyType::paths, KeyType::texts});
  const YAML::Node value = get(key);
  if (!value) return std::nullopt;
  if (!value.IsSequence()) {
    throw error_at(key, fmt::format("{} must be a list, found {}", path_of(key), describe_type(value)));
  }
  return value;
}

std::optional<std::string> ConfigMap::choice(const std::string& key) {
  const KeySpec& spec = declared_in_schema(key, {KeyType::choice});
  const std::vector<std::string>& choices = spec.choices;
  if (!node_[key] && std::find(choices.begin(), choices.end(), spec.default_text) != choices.end())
    return spec.default_text;
  return choice(key, choices);
}

std::optional<std::string> ConfigMap::choice(const std::string& key, const std::vector<std::string>& choices) {
  const auto value = text(key);
  if (!value) return std::nullopt;
  if (std::find(choices.begin(), choices.end(), *value) != choices.end()) return value;
  throw error_at(
      key, fmt::format("{} = '{}' is not accepted; accepted: {}", path_of(key), *value, fmt::join(choices, ", ")));
}

void require_in_range(const ConfigMap& map, const std::string& key, double value, bool ok,
                      const std::string& accepted) {
  if (!ok) {
    throw map.error_at(key, fmt::format("{} = {} is out of range; accepted: {}", map.path_of(key), value, accepted));
  }
}

}  // namespace gs
