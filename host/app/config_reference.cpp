#include "host/app/config_reference.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "host/base/errors.hpp"
#include "host/engine/config_keys.hpp"
#include "host/models/model.hpp"

namespace gs {

namespace {

using json = nlohmann::ordered_json;

// A $defs name for a mapping id: "requests[].timing" -> "requests_item.timing".
std::string definition_name(const std::string& id) {
  if (id.empty()) return "config";
  std::string name;
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (id.compare(i, 2, "[]") == 0) {
      name += "_item";
      ++i;
    } else if (id[i] != '<' && id[i] != '>') {
      name += id[i];
    }
  }
  return name;
}

constexpr const char* kDurationPattern = "^[+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?(ns|us|ms|min|h|s)?$";

std::string reference_to(const std::string& id) { return "#/$defs/" + definition_name(id); }

void add_bounds(json& out, const Bounds& bounds) {
  if (bounds.lower) out[bounds.lower_open ? "exclusiveMinimum" : "minimum"] = *bounds.lower;
  if (bounds.upper) out[bounds.upper_open ? "exclusiveMaximum" : "maximum"] = *bounds.upper;
}

json text_or_list() {
  return {{"anyOf", json::array({{{"type", "string"}}, {{"type", "array"}, {"items", {{"type", "string"}}}}})}};
}

// The JSON Schema of one key's value, without its description.
json value_schema(const KeySpec& key) {
  json out;
  switch (key.type) {
    case KeyType::whole:
      out["type"] = "integer";
      add_bounds(out, key.bounds);
      break;
    case KeyType::number:
      out["type"] = "number";
      add_bounds(out, key.bounds);
      break;
    case KeyType::text:
    case KeyType::path:
      out["type"] = {"string", "number"};  // the parsers take any scalar as text: `column: 2`
      break;
    case KeyType::duration:  // as parse_duration reads it: a positive number of s, or with its unit
      out = {{"type", {"string", "number"}}, {"exclusiveMinimum", 0}, {"pattern", kDurationPattern}};
      break;
    case KeyType::flag:
      out["type"] = "boolean";
      break;
    case KeyType::choice:
      out["enum"] = key.choices;
      break;
    case KeyType::paths:
    case KeyType::texts:
      out = text_or_list();
      break;
    case KeyType::numbers: {
      json item = {{"type", "number"}};
      add_bounds(item, key.bounds);
      out = {{"type", "array"}, {"items", item}};
      break;
    }
    case KeyType::names:
      out = {{"type", "array"}, {"items", {{"type", "string"}}}};
      break;
    case KeyType::mapping:
      out["$ref"] = reference_to(key.mapping);
      break;
    case KeyType::mappings:
      out = {{"type", "array"}, {"items", {{"$ref", reference_to(key.mapping)}}}};
      break;
    case KeyType::counts:
      out = {{"type", "object"}, {"additionalProperties", {{"type", "number"}, {"minimum", 0}}}};
      break;
    case KeyType::model_params:
    case KeyType::any:
      out["type"] = "object";
      break;
  }
  if (!key.words.empty()) out = {{"anyOf", json::array({{{"enum", key.words}}, out})}};
  return out;
}

std::string key_description(const KeySpec& key) {
  std::string text = key.doc;
  if (!key.unit.empty()) text += fmt::format(" Unit: {}.", key.unit);
  const std::string range = key.range_description();
  if (!range.empty() && key.type != KeyType::choice) text += fmt::format(" Accepted: {}.", range);
  text += fmt::format(" Default: {}.", key.default_description());
  return text;
}

json mapping_schema(const MappingSpec& mapping) {
  json properties = json::object();
  json required = json::array();
  for (const KeySpec& key : mapping.keys) {
    json value = value_schema(key);
    value["description"] = key_description(key);
    if (key.default_number && key.type == KeyType::whole)
      value["default"] = static_cast<std::int64_t>(*key.default_number);
    else if (key.default_number)
      value["default"] = *key.default_number;
    else if (key.type == KeyType::choice && !key.default_text.empty())
      value["default"] = key.default_text;
    properties[key.name] = value;
    if (key.required) required.push_back(key.name);
  }
  json out = {
      {"type", "object"}, {"description", mapping.doc}, {"properties", properties}, {"additionalProperties", false}};
  if (!required.empty()) out["required"] = required;
  return out;
}

// A model's `params:` from its table (host/models/params.hpp).
json params_schema(const ModelTraits& traits) {
  json properties = json::object();
  json required = json::array();
  for (const ParamSpec& p : traits.params) {
    json value;
    json item = {{"type", "number"}};
    add_bounds(item, p.bounds);
    switch (p.type) {
      case ParamType::real:
      case ParamType::whole:
        value = item;
        if (p.type == ParamType::whole) value["type"] = "integer";
        break;
      case ParamType::reals:
        value = {{"type", "array"}, {"items", item}};
        if (!p.word.empty()) value = {{"anyOf", json::array({{{"const", p.word}}, value})}};
        break;
      case ParamType::matrix:
        value = {{"type", "array"}, {"items", {{"type", "array"}, {"items", item}}}};
        break;
      case ParamType::choice:
        value = {{"enum", p.choices}};
        break;
      case ParamType::text:
        value = {{"type", "string"}};
        break;
    }
    value["description"] =
        fmt::format("{}. Accepted: {}. Default: {}.", p.meaning, p.range_description(), p.default_description());
    properties[p.name] = value;
    if (p.required) required.push_back(p.name);
  }
  json out = {
      {"type", "object"}, {"description", traits.summary}, {"properties", properties}, {"additionalProperties", false}};
  if (!required.empty()) out["required"] = required;
  return out;
}

// An ensemble's `params:` follow its `model:`: one if/then per model.
json params_by_model() {
  json cases = json::array();
  for (const std::string& name : model_names())
    cases.push_back({{"if", {{"properties", {{"model", {{"const", name}}}}}, {"required", {"model"}}}},
                     {"then", {{"properties", {{"params", {{"$ref", "#/$defs/params." + name}}}}}}}});
  return cases;
}

}  // namespace

std::string config_json_schema() {
  const ConfigSchema& schema = config_schema();
  json defs = json::object();
  for (const MappingSpec& mapping : schema.mappings()) {
    if (mapping.id.empty()) continue;
    json def = mapping_schema(mapping);
    for (const KeySpec& key : mapping.keys)
      if (key.type == KeyType::model_params) def["allOf"] = params_by_model();
    defs[definition_name(mapping.id)] = def;
  }
  for (const std::string& name : model_names()) defs["params." + name] = params_schema(*find_model(name));
  json out = mapping_schema(schema.mapping(""));
  out["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  out["title"] = "gpusynth config (ensemble.yaml)";
  out["description"] = "The config of `gpusynth CONFIG.yaml`: docs/config.md, docs/config-keys.md.";
  out["$defs"] = defs;
  return out.dump(2) + "\n";
}

namespace {

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string type_cell(const KeySpec& key) {
  if (key.type == KeyType::mapping || key.type == KeyType::mappings) {
    const std::string target = fmt::format("[`{}`](#{})", key.mapping, definition_name(key.mapping));
    const std::string kind = key.type == KeyType::mapping ? "mapping: " + target : "list of " + target;
    return key.words.empty() ? kind : fmt::format("{}, or {}", fmt::join(key.words, ", "), kind);
  }
  if (key.type == KeyType::model_params) return "mapping: the model's (docs/models.md)";
  if (key.type == KeyType::whole && !key.words.empty())
    return fmt::format("{} or whole number", fmt::join(key.words, ", "));
  return to_string(key.type);
}

}  // namespace

std::string config_keys_markdown() {
  std::string out =
      "# Every key of the config\n\n"
      "Generated by `gpusynth config-schema --format markdown` from the schema the parsers read a config\n"
      "against (host/engine/config_keys.cpp); docs/config.md explains the config, this page lists its keys.\n"
      "A mapping's id is its path, `[]` standing for an item of a list. The same schema, as JSON Schema\n"
      "(`gpusynth config-schema > gpusynth.schema.json`), lets an editor complete and check a config\n"
      "(with the YAML language server: `# yaml-language-server: $schema=gpusynth.schema.json` as its first line).\n";
  for (const MappingSpec& mapping : config_schema().mappings()) {
    out += fmt::format("\n## <a id=\"{}\"></a>`{}`\n\n{} Read in `{}`.\n\n", definition_name(mapping.id),
                       mapping.id.empty() ? "(the file)" : mapping.id, mapping.doc, mapping.read_in);
    out += "| key | type | default | accepted | unit | meaning |\n|---|---|---|---|---|---|\n";
    for (const KeySpec& key : mapping.keys)
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", key.name, cell(type_cell(key)),
                         cell(key.default_description()), cell(key.range_description()), cell(key.unit), cell(key.doc));
  }
  return out;
}

std::string config_fuzz_dictionary() {
  std::vector<std::string> tokens;
  std::set<std::string> seen;
  const auto add = [&](const std::string& token) {
    if (seen.insert(token).second) tokens.push_back(token);
  };
  for (const MappingSpec& mapping : config_schema().mappings())
    for (const KeySpec& key : mapping.keys) {
      add(key.name + ":");
      for (const std::string& choice : key.choices) add(fmt::format("{}: {}", key.name, choice));
      for (const std::string& word : key.words) add(fmt::format("{}: {}", key.name, word));
      for (const auto& end : {key.bounds.lower, key.bounds.upper})
        if (end) add(fmt::format("{}", *end));
    }
  for (const std::string& name : model_names()) add("model: " + name);
  // Values no table lists: YAML's own syntax, numbers at the ends of the types, durations and operation names.
  for (const char* token : {"{",
                            "}",
                            "[",
                            "]",
                            "{{",
                            "---",
                            "''",
                            ".inf",
                            ".nan",
                            "-1",
                            "1e300",
                            "1e308",
                            "9223372036854775807",
                            "4611686018427387904",
                            "10000000000000h",
                            "50ms",
                            "5min",
                            "read_only",
                            "write_only",
                            "read_write",
                            "MPI_File_write_at",
                            "MPI_File_open",
                            "fsync",
                            "lseek",
                            "logistic",
                            "xgboost",
                            "bytes_read",
                            "count_read",
                            "time_read"})
    add(token);
  std::string out =
      "# libFuzzer dictionary of the config target (scripts/fuzz.sh passes -dict=fuzz/<target>.dict).\n"
      "# Generated by `gpusynth config-schema --format dict` from the config's schema: every key, choice\n"
      "# and bound, then values no table lists.\n";
  for (const std::string& token : tokens) {
    std::string escaped;
    for (char c : token) escaped += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    out += "\"" + escaped + "\"\n";
  }
  return out;
}

int config_schema_command(const ConfigSchemaOptions& options) {
  const std::string text = options.format == "markdown" ? config_keys_markdown()
                           : options.format == "dict"   ? config_fuzz_dictionary()
                                                        : config_json_schema();
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

}  // namespace gs
