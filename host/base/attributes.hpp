// A named attribute value, written to HDF5 by io/hdf5 and produced by whoever
// knows what it means (the model registry, the run driver).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gs {

using AttributeValue = std::variant<double, std::int64_t, std::uint64_t, std::string, std::vector<double>>;

struct Attribute {
  std::string name;
  AttributeValue value;
};

}  // namespace gs
