#include "host/app/json.hpp"

#include <cmath>
#include <string>

#include "io/line_reader.hpp"

namespace gs {

nlohmann::json json_number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

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
      if (text == "true" || text == "false") return text == "true";
      return text;
    }
    default:
      return nullptr;
  }
}

}  // namespace gs
