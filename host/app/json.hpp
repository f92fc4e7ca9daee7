// What the commands' --json print (nlohmann::json): numbers that may be NaN
// or infinite become null (JSON has neither), and a YAML node (a fitted
// model's params and fit) becomes the same structure in JSON.
#pragma once

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

namespace gs {

nlohmann::json json_number(double value);
// Maps become objects, sequences arrays, scalars numbers where the whole
// text is one (and true/false booleans; YAML's .nan and ±.inf null, as
// json_number makes them), else strings; null stays null.
nlohmann::json json_of(const YAML::Node& node);

}  // namespace gs
