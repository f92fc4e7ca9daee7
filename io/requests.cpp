#include "io/requests.hpp"

#include <fmt/format.h>

namespace gs {

const char* file_class_name(FileClass c) {
  switch (c) {
    case FileClass::root_exclusive:
      return "root_exclusive";
    case FileClass::private_file:
      return "private";
    case FileClass::shared:
      return "shared";
    default:
      return "none";
  }
}

std::string NamePattern::name_for(std::int64_t rank) const {
  if (!learned) return rank == 0 ? root_name : fmt::format("{}.{}", root_name, rank);
  std::string name = texts[0];
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const std::int64_t value = numbers[i].base + numbers[i].step * rank;
    name += fmt::format("{:0{}}", value, numbers[i].width);
    name += texts[i + 1];
  }
  return name;
}

std::string soft_dependency_name(const SoftDependencyForm& form) { return form.base + (form.after_seek ? "1" : "0"); }

std::optional<SoftDependencyForm> soft_dependency_form(const std::string& name) {
  if (name.empty() || (name.back() != '0' && name.back() != '1')) return std::nullopt;
  return SoftDependencyForm{name.substr(0, name.size() - 1), name.back() == '1'};
}

}  // namespace gs
