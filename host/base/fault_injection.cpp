#include "host/base/fault_injection.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>

#include "host/base/errors.hpp"
#include "host/base/ranks.hpp"

namespace gs {

namespace {

struct Fault {
  std::string stage;
  int rank = -1;  // every rank
  int call = 1;   // the call of fault_point(stage) that throws
};

const Fault& fault() {
  static const Fault parsed = [] {
    Fault f;
    const char* text = std::getenv("GPUSYNTH_FAULT");
    if (!text) return f;
    f.stage = text;
    if (const auto at = f.stage.find('@'); at != std::string::npos) {
      f.rank = std::atoi(f.stage.c_str() + at + 1);
      f.stage.resize(at);
    }
    if (const auto hash = f.stage.find('#'); hash != std::string::npos) {
      f.call = std::max(1, std::atoi(f.stage.c_str() + hash + 1));
      f.stage.resize(hash);
    }
    return f;
  }();
  return parsed;
}

}  // namespace

void fault_point(const char* stage) {
  const Fault& f = fault();
  if (f.stage.empty() || f.stage != stage || (f.rank >= 0 && f.rank != ranks().rank)) return;
  static std::atomic<int> calls{0};  // of the one stage that faults
  if (++calls != f.call) return;
  throw InternalError(stage, "fault injected by GPUSYNTH_FAULT", __FILE__, __LINE__);
}

}  // namespace gs
