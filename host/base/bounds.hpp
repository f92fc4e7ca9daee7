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

// The range setters of a spec that holds Bounds (a model's ParamSpec, a config's
// KeySpec), each returning the spec so that a table reads as one expression:
// real_param("alpha", "…").above(0).at_most(2).
template <class Spec>
struct BoundedSpec {
  Bounds bounds;

  Spec& above(double x) { return set_lower(x, true); }
  Spec& at_least(double x) { return set_lower(x, false); }
  Spec& below(double x) { return set_upper(x, true); }
  Spec& at_most(double x) { return set_upper(x, false); }
  Spec& between(double lower, double upper) {  // closed at both ends
    set_lower(lower, false);
    return set_upper(upper, false);
  }

 private:
  Spec& set_lower(double x, bool open) {
    bounds.lower = x;
    bounds.lower_open = open;
    return static_cast<Spec&>(*this);
  }
  Spec& set_upper(double x, bool open) {
    bounds.upper = x;
    bounds.upper_open = open;
    return static_cast<Spec&>(*this);
  }
};

}  // namespace gs
