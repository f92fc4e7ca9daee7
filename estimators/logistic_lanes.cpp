#include "estimators/logistic_lanes.hpp"

#include <cstddef>

namespace gs {

// The AVX form, in its own object compiled with -mavx.
namespace avx_logistic_lanes {
const LogisticPasses& passes();
}

namespace baseline_logistic_lanes {
#include "estimators/logistic_lanes.inc"
}  // namespace baseline_logistic_lanes

const LogisticPasses* logistic_passes_in_form(VectorForm form) {
  if (form > widest_vector_form()) return nullptr;
#if defined(__x86_64__)
  if (form >= VectorForm::avx) return &avx_logistic_lanes::passes();
#endif
  return &baseline_logistic_lanes::kPasses;
}

const LogisticPasses& logistic_passes() {
  static const LogisticPasses& widest = *logistic_passes_in_form(widest_vector_form());
  return widest;
}

}  // namespace gs
