// The config's keys, declared once. Every mapping a config can hold (the file,
// an ensemble, a `requests:` entry's `timing`, …) is a MappingSpec listing its
// KeySpecs: name, type, unit, accepted range, default, a sentence of
// documentation; the mapping says where it is read. ConfigMap reads a mapping
// against its spec: an unknown key in the file is the user's error, a key the
// code asks for that the spec lacks (or asks for as another type) is an
// InternalError, and a number outside the spec's bounds is refused with the
// spec's accepted range. The reference (docs/config-keys.md), the JSON Schema
// (`gpusynth config-schema`) and the fuzz dictionary are generated from the same
// specs (host/app/config_reference.hpp); the table is host/engine/config_keys.cpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/base/bounds.hpp"

namespace gs {

enum class KeyType {
  whole,         // a whole number
  number,        // a finite number
  text,          // a text value
  flag,          // true or false
  choice,        // one of `choices`
  duration,      // a width with its unit: 100ms, 1s, 5min
  path,          // a file, relative to the config's folder
  paths,         // a path, or a list of paths
  texts,         // a text, or a list of texts
  numbers,       // a list of finite numbers
  names,         // a list of names
  mapping,       // a mapping: the schema's mapping `KeySpec::mapping`
  mappings,      // a list of mappings, each the schema's mapping `KeySpec::mapping`
  counts,        // a mapping of names (operations, access modes) to counts >= 0
  model_params,  // a mapping checked against the ensemble's model's table (host/models/params.hpp)
  any,           // a mapping of names to numbers, texts or lists (an ensemble's fit:, written by `gpusynth fit`)
};

const char* to_string(KeyType type);

struct KeySpec : BoundedSpec<KeySpec> {
  std::string name;
  KeyType type = KeyType::text;
  std::string doc;                       // a sentence
  std::string unit;                      // of a number or list: "s", "bytes", "bins" (empty: none)
  bool required = false;                 // required in every mapping of its kind (others say when in `doc`)
  std::optional<double> default_number;  // whole, number: the value when absent
  std::string default_text;              // choice, flag: the value when absent; others: what absence means in words
  // bounds (BoundedSpec): whole, number, numbers (each entry), checked on reading
  std::string accepted;                  // the range as errors state it, where `bounds` alone would not say it
  std::vector<std::string> choices;      // choice
  std::vector<std::string> words;        // words accepted instead of the value (timing: slack)
  std::string mapping;                   // mapping, mappings: the id of the mapping in the schema

  KeySpec& defaults(double x);
  KeySpec& defaults(const std::string& text);
  KeySpec& need();
  KeySpec& in(const std::string& unit_name);
  KeySpec& stated(const std::string& accepted_range);
  KeySpec& or_words(std::vector<std::string> accepted_words);

  // The accepted range as the reference and the errors state it.
  std::string range_description() const;
  // The default as the reference states it ("required", "none" or the value).
  std::string default_description() const;
};

KeySpec whole_key(const std::string& name, const std::string& doc);
KeySpec number_key(const std::string& name, const std::string& doc);
KeySpec text_key(const std::string& name, const std::string& doc);
KeySpec flag_key(const std::string& name, const std::string& doc);  // default false
KeySpec choice_key(const std::string& name, const std::string& doc, std::vector<std::string> choices);
KeySpec duration_key(const std::string& name, const std::string& doc);
KeySpec path_key(const std::string& name, const std::string& doc);
KeySpec typed_key(const std::string& name, KeyType type, const std::string& doc);
// A mapping or a list of mappings whose keys are the schema's mapping `id`.
KeySpec mapping_key(const std::string& name, const std::string& id, const std::string& doc);
KeySpec mappings_key(const std::string& name, const std::string& id, const std::string& doc);

struct MappingSpec {
  std::string id;       // its path with [] for list items: "requests[].timing"
  std::string doc;      // a sentence
  std::string read_in;  // the source file (and function) that reads it
  std::vector<KeySpec> keys;

  const KeySpec* find(const std::string& name) const;
  std::vector<std::string> names() const;
};

// Every mapping of a config, the file's own first (id "").
class ConfigSchema {
 public:
  explicit ConfigSchema(std::vector<MappingSpec> mappings);
  const MappingSpec& mapping(const std::string& id) const;  // InternalError when absent
  const std::vector<MappingSpec>& mappings() const { return mappings_; }

 private:
  std::vector<MappingSpec> mappings_;
  std::map<std::string, std::size_t> index_;
};

// The keys ConfigMap was asked for in this process, as "mapping id/key":
// tests read a config holding every mapping and check that each declared key
// is read somewhere (a key nothing reads is documented in vain).
void note_key_asked(const MappingSpec& mapping, const KeySpec& key);
std::vector<std::string> keys_asked();

}  // namespace gs
