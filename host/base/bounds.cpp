#include "host/base/bounds.hpp"

#include <fmt/format.h>

namespace gs {

bool Bounds::contains(double x) const {
  if (lower && (lower_open ? !(x > *lower) : !(x >= *lower))) return false;
  if (upper && (upper_open ? !(x < *upper) : !(x <= *upper))) return false;
  return true;
}

std::string Bounds::describe(const std::string& name, bool whole) const {
  const std::string prefix = whole ? "whole number " : "";
  if (lower && upper)
    return fmt::format("{}{} {} {} {} {}", prefix, *lower, lower_open ? "<" : "<=", name,
                       upper_open ? "<" : "<=", *upper);
  if (lower) return fmt::format("{}{} {} {}", prefix, name, lower_open ? ">" : ">=", *lower);
  if (upper) return fmt::format("{}{} {} {}", prefix, name, upper_open ? "<" : "<=", *upper);
  return whole ? "any whole number" : "any finite number";
}

}  // namespace gs
