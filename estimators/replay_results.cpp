#include "estimators/replay_results.hpp"

#include <variant>

namespace gs {

std::string text_attribute(const ReplayResult& r, const char* name) {
  for (const Attribute& a : r.attributes)
    if (a.name == name && std::holds_alternative<std::string>(a.value)) return std::get<std::string>(a.value);
  return std::string();
}

}  // namespace gs
