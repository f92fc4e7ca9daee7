#include "host/app/json.hpp"

#include <cmath>
#include <string>
#include <string_view>

#include "io/line_reader.hpp"

namespace gs {

nlohmann::json json_number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

namespace {

// YAML's spellings of NaN and the infinities (yaml-cpp writes a double NaN as .nan).
bool is_yaml_nan_or_infinity(const std::string& text) {
  const std::string_view magnitude =
      !text.empty() && (text[0] == '+' || text[0] == '-') ? std::string_view(text).substr(1) : std::string_view(text);
  return text == ".nan" || text == ".NaN" || text == ".NAN" || magnitude == ".inf" || magnitude == ".Inf" ||
         magnitude == ".INF";
}

}  // namespace

nlohmann::json json_of(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& entry : node) object[entry.first.as<std::string>()] = json_of(entry.second);
      return object;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const auto& item : node) array.push_back(json_of(item));
      return array;
    }
    case YAML::NodeType::Scalar: {
      const std::string text = node.Scalar();
      double value = 0;
      if (parse_number(text, value)) return json_number(value);
      if (is_yaml_nan_or_infinity(text)) return nullptr;
      if (text == "true" || text == "false") return text == "true";
      return text;
    }
    default:
      return nullptr;
  }
}

}  // namespace gs
