// The AVX form of estimators/logistic_lanes.hpp (a pack of four doubles in one register), compiled with -mavx.
#include <cstddef>

#include "estimators/logistic_lanes.hpp"

namespace gs {
namespace avx_logistic_lanes {

#include "estimators/logistic_lanes.inc"

const LogisticPasses& passes() { return kPasses; }

}  // namespace avx_logistic_lanes
}  // namespace gs
