#include "host/base/config_schema.hpp"

#include <fmt/format.h>

#include <mutex>
#include <set>

#include "host/base/errors.hpp"

namespace gs {

const char* to_string(KeyType type) {
  switch (type) {
    case KeyType::whole:
      return "whole number";
    case KeyType::number:
      return "number";
    case KeyType::text:
      return "text";
    case KeyType::flag:
      return "true or false";
    case KeyType::choice:
      return "choice";
    case KeyType::duration:
      return "duration";
    case KeyType::path:
      return "path";
    case KeyType::paths:
      return "path or list of paths";
    case KeyType::texts:
      return "text or list of texts";
    case KeyType::numbers:
      return "list of numbers";
    case KeyType::names:
      return "list of names";
    case KeyType::mapping:
      return "mapping";
    case KeyType::mappings:
      return "list of mappings";
    case KeyType::counts:
      return "mapping of names to counts";
    case KeyType::model_params:
      return "the model's parameters";
    case KeyType::any:
      return "mapping";
  }
  return "value";
}

KeySpec& KeySpec::defaults(double x) {
  default_number = x;
  default_text = fmt::format("{}", x);
  return *this;
}
KeySpec& KeySpec::defaults(const std::string& text) {
  default_text = text;
  return *this;
}
KeySpec& KeySpec::need() {
  required = true;
  return *this;
}
KeySpec& KeySpec::in(const std::string& unit_name) {
  unit = unit_name;
  return *this;
}
KeySpec& KeySpec::stated(const std::string& accepted_range) {
  accepted = accepted_range;
  return *this;
}
KeySpec& KeySpec::or_words(std::vector<std::string> accepted_words) {
  words = std::move(accepted_words);
  return *this;
}

std::string KeySpec::range_description() const {
  if (!accepted.empty()) return accepted;
  if (type == KeyType::choice) return fmt::format("{}", fmt::join(choices, ", "));
  if (type == KeyType::flag) return "true, false";
  if (bounds.any()) return bounds.describe(name, type == KeyType::whole);
  return "";
}

std::string KeySpec::default_description() const {
  if (required) return "required";
  return default_text.empty() ? "none" : default_text;
}

namespace {

KeySpec key_of(const std::string& name, KeyType type, const std::string& doc) {
  KeySpec spec;
  spec.name = name;
  spec.type = type;
  spec.doc = doc;
  return spec;
}

}  // namespace

KeySpec whole_key(const std::string& name, const std::string& doc) { return key_of(name, KeyType::whole, doc); }
KeySpec number_key(const std::string& name, const std::string& doc) { return key_of(name, KeyType::number, doc); }
KeySpec text_key(const std::string& name, const std::string& doc) { return key_of(name, KeyType::text, doc); }
KeySpec flag_key(const std::string& name, const std::string& doc) {
  return key_of(name, KeyType::flag, doc).defaults("false");
}
KeySpec choice_key(const std::string& name, const std::string& doc, std::vector<std::string> choices) {
  KeySpec spec = key_of(name, KeyType::choice, doc);
  spec.choices = std::move(choices);
  return spec;
}
KeySpec duration_key(const std::string& name, const std::string& doc) { return key_of(name, KeyType::duration, doc); }
KeySpec path_key(const std::string& name, const std::string& doc) { return key_of(name, KeyType::path, doc); }
KeySpec typed_key(const std::string& name, KeyType type, const std::string& doc) { return key_of(name, type, doc); }
KeySpec mapping_key(const std::string& name, const std::string& id, const std::string& doc) {
  KeySpec spec = key_of(name, KeyType::mapping, doc);
  spec.mapping = id;
  return spec;
}
KeySpec mappings_key(const std::string& name, const std::string& id, const std::string& doc) {
  KeySpec spec = key_of(name, KeyType::mappings, doc);
  spec.mapping = id;
  return spec;
}

const KeySpec* MappingSpec::find(const std::string& name) const {
  for (const KeySpec& key : keys)
    if (key.name == name) return &key;
  return nullptr;
}

std::vector<std::string> MappingSpec::names() const {
  std::vector<std::string> out;
  for (const KeySpec& key : keys) out.push_back(key.name);
  return out;
}

ConfigSchema::ConfigSchema(std::vector<MappingSpec> mappings) : mappings_(std::move(mappings)) {
  for (std::size_t i = 0; i < mappings_.size(); ++i)
    if (!index_.emplace(mappings_[i].id, i).second)
      throw InternalError("ConfigSchema", fmt::format("the mapping '{}' is declared twice", mappings_[i].id), __FILE__,
                          __LINE__);
}

const MappingSpec& ConfigSchema::mapping(const std::string& id) const {
  const auto found = index_.find(id);
  if (found == index_.end())
    throw InternalError("ConfigSchema::mapping", fmt::format("no mapping '{}' is declared", id), __FILE__, __LINE__);
  return mappings_[found->second];
}

namespace {

// Parsing is rare and small: one lock per key asked costs nothing measurable.
std::mutex asked_mutex;
std::set<std::string>& asked_keys() {
  static std::set<std::string> keys;
  return keys;
}

}  // namespace

void note_key_asked(const MappingSpec& mapping, const KeySpec& key) {
  const std::lock_guard<std::mutex> lock(asked_mutex);
  asked_keys().insert(mapping.id + "/" + key.name);
}

std::vector<std::string> keys_asked() {
  const std::lock_guard<std::mutex> lock(asked_mutex);
  return {asked_keys().begin(), asked_keys().end()};
}

}  // namespace gs
