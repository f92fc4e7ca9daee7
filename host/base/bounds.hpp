// The accepted range of a number, each end closed, open or absent: a model's
// parameter (host/models/params.hpp) and a config key (host/base/config_schema.hpp)
// state and check their ranges with it.
#pragma once

#include <optional>
#include <string>

namespace gs {

struct Bounds {
  std::optional<double> lower, upper;
  bool lower_open = false, upper_open = false;

  bool contains(double x) const;
  bool any() const { return lower || upper; }
  // "0 < alpha <= 2", "sigma > 0", "whole number 1 <= m <= 1048576"; "any" without ends.
  std::string describe(const std::string& name, bool whole = false) const;
};

}  // namespace gs
