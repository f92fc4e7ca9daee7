#include "host/base/errors.hpp"

#include <fmt/format.h>

namespace gs {

InternalError::InternalError(const std::string& call, const std::string& what, const char* file, int line)
    : std::runtime_error(fmt::format("{} {} ({}:{})", call, what, file, line)) {}

UserError located_error(const std::string& path, int line, int column, const std::string& message) {
  if (line <= 0) return UserError(fmt::format("{}: {}", path, message));
  return UserError(fmt::format("{}:{}:{}: {}", path, line, column, message));
}

}  // namespace gs
