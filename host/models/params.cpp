#include "host/models/params.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gs {

std::vector<double> flattened(const Matrix& m) {
  std::vector<double> flat;
  for (const auto& row : m) flat.insert(flat.end(), row.begin(), row.end());
  return flat;
}

ParamSpec& ParamSpec::defaults(double x) {
  required = false;
  default_number = x;
  return *this;
}
ParamSpec& ParamSpec::defaults(const std::string& text) {
  required = false;
  default_text = text;
  return *this;
}
ParamSpec& ParamSpec::optional(const std::string& absent_means) { return defaults(absent_means); }
ParamSpec& ParamSpec::or_word(const std::string& accepted, const std::string& items) {
  word = accepted;
  list_of = items;
  return *this;
}

std::string ParamSpec::default_description() const {
  if (required) return "required";
  if (!default_text.empty()) return default_text;
  if (type == ParamType::real || type == ParamType::whole) return fmt::format("{}", default_number);
  return "none";
}

std::string ParamSpec::range_description() const {
  switch (type) {
    case ParamType::real:
      return bounds.describe(name);
    case ParamType::whole:
      return bounds.describe(name, true);
    case ParamType::choice:
      return fmt::format("{}", fmt::join(choices, " | "));
    case ParamType::reals:
      return fmt::format("a list of {}{}{}", list_of,
                         bounds.lower || bounds.upper ? ", each " + bounds.describe("x") : std::string(),
                         word.empty() ? std::string() : fmt::format(", or '{}'", word));
    case ParamType::matrix:
      return fmt::format("a list of rows of numbers{}",
                         bounds.lower || bounds.upper ? ", each " + bounds.describe("x") : std::string());
    case ParamType::text:
      return "a text";
  }
  return "";
}

namespace {

ParamSpec typed(const std::string& name, ParamType type, const std::string& meaning) {
  ParamSpec spec;
  spec.name = name;
  spec.type = type;
  spec.meaning = meaning;
  return spec;
}

}  // namespace

std::vector<std::string> param_names(const std::vector<ParamSpec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back(s.name);
  return names;
}

ParamSpec real_param(const std::string& name, const std::string& meaning) {
  return typed(name, ParamType::real, meaning);
}
ParamSpec whole_param(const std::string& name, const std::string& meaning) {
  return typed(name, ParamType::whole, meaning);
}
ParamSpec reals_param(const std::string& name, const std::string& meaning) {
  return typed(name, ParamType::reals, meaning);
}
ParamSpec matrix_param(const std::string& name, const std::string& meaning) {
  return typed(name, ParamType::matrix, meaning);
}
ParamSpec text_param(const std::string& name, const std::string& meaning) {
  return typed(name, ParamType::text, meaning);
}
ParamSpec choice_param(const std::string& name, const std::string& meaning, std::vector<std::string> choices) {
  ParamSpec spec = typed(name, ParamType::choice, meaning);
  spec.choices = std::move(choices);
  spec.required = false;
  spec.default_text = spec.choices.front();
  return spec;
}

ParamValues::ParamValues(ConfigMap map, const std::vector<ParamSpec>& specs) : map_(std::move(map)), specs_(specs) {
  for (const ParamSpec& s : specs_) {
    switch (s.type) {
      case ParamType::real: {
        auto value = map_.number(s.name);
        if (s.required) value = map_.require(value, s.name, s.meaning);
        if (value) check_range(s.name, *value, s.bounds);
        values_[s.name] = value.value_or(s.default_number);
        break;
      }
      case ParamType::whole: {
        auto value = map_.integer(s.name);
        if (s.required) value = map_.require(value, s.name, s.meaning);
        if (value) check_range(s.name, static_cast<double>(*value), s.bounds, true);
        values_[s.name] = value.value_or(static_cast<std::int64_t>(s.default_number));
        break;
      }
      case ParamType::reals: {
        if (!s.word.empty() && map_.holds_scalar(s.name)) {
          const std::string text = *map_.text(s.name);
          if (text != s.word)
            throw map_.error_at(s.name, fmt::format("{} = '{}' is not accepted; accepted: a list of {} or '{}'",
                                                    map_.path_of(s.name), text, s.list_of, s.word));
          words_[s.name] = text;
          break;
        }
        auto list = map_.numbers(s.name);
        if (s.required) list = map_.require(list, s.name, s.meaning);
        for (std::size_t i = 0; list && i < list->size(); ++i)
          if (!s.bounds.contains((*list)[i]))
            throw map_.error_at(s.name, fmt::format("{}[{}] = {} is out of range; accepted: {}", map_.path_of(s.name),
                                                    i, (*list)[i], s.bounds.describe(s.name + "[i]")));
        if (list) values_[s.name] = *list;
        break;
      }
      case ParamType::matrix: {
        auto rows = map_.matrix(s.name, 0, 0);
        if (s.required) rows = map_.require(rows, s.name, s.meaning);
        if (rows) values_[s.name] = *rows;
        break;
      }
      case ParamType::choice:
        values_[s.name] = map_.choice(s.name, s.choices).value_or(s.default_text);
        break;
      case ParamType::text: {
        auto text = map_.text(s.name);
        if (s.required) text = map_.require(text, s.name, s.meaning);
        if (text) values_[s.name] = *text;
        break;
      }
    }
  }
}

const ParamSpec& ParamValues::spec(const std::string& name) const {
  const auto found = std::find_if(specs_.begin(), specs_.end(), [&](const ParamSpec& s) { return s.name == name; });
  if (found == specs_.end())
    throw InternalError("ParamValues", fmt::format("no parameter '{}' in the table", name), __FILE__, __LINE__);
  return *found;
}

const ParamValues::Value* ParamValues::find(const std::string& name) const {
  spec(name);  // a name outside the table is a programming error
  const auto found = values_.find(name);
  return found == values_.end() ? nullptr : &found->second;
}

double ParamValues::real(const std::string& name) const { return std::get<double>(*find(name)); }
std::int64_t ParamValues::whole(const std::string& name) const { return std::get<std::int64_t>(*find(name)); }

const std::vector<double>& ParamValues::reals(const std::string& name) const {
  static const std::vector<double> none;
  const Value* v = find(name);
  return v ? std::get<std::vector<double>>(*v) : none;
}

const Matrix& ParamValues::matrix(const std::string& name) const {
  static const Matrix none;
  const Value* v = find(name);
  return v ? std::get<Matrix>(*v) : none;
}

const std::string& ParamValues::choice(const std::string& name) const { return std::get<std::string>(*find(name)); }

const std::string& ParamValues::text(const std::string& name) const {
  static const std::string none;
  const Value* v = find(name);
  return v ? std::get<std::string>(*v) : none;
}

const std::string& ParamValues::word(const std::string& name) const {
  static const std::string none;
  spec(name);
  const auto found = words_.find(name);
  return found == words_.end() ? none : found->second;
}

bool ParamValues::given(const std::string& name) const {
  const ParamSpec& s = spec(name);
  if (words_.count(name)) return true;
  if (s.type == ParamType::reals || s.type == ParamType::matrix || s.type == ParamType::text)
    return values_.count(name) > 0;
  return map_.has(name);
}

void ParamValues::check_range(const std::string& name, double value, const Bounds& bounds, bool whole) const {
  require_in_range(map_, name, value, bounds.contains(value), bounds.describe(name, whole));
}

}  // namespace gs
