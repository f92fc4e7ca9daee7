#include "host/engine/cpu/lanes.hpp"

#include <fmt/format.h>
#include <sleef.h>

namespace gs {

// host/engine/cpu/lanes_avx2.cpp (compiled for AVX2), once per precision:
// fills or clears the slots, and the lanes on chosen inputs.
#define GS_DECLARE_LANES_OF(precision)                                                                              \
  namespace precision {                                                                                             \
  void set_avx2_lane_slots(bool on);                                                                                \
  void philox_avx2(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first, std::uint32_t draw,         \
                   PhiloxBits out[8]);                                                                              \
  template <class Real>                                                                                             \
  void stable_avx2(const StableSampler<Real>& law, const std::uint32_t* kv, const std::uint32_t* kw, std::size_t n, \
                   Real* out);                                                                                      \
  }
GS_DECLARE_LANES_OF(accurate_lanes)
GS_DECLARE_LANES_OF(fast_lanes)
#undef GS_DECLARE_LANES_OF

namespace {
bool lanes_on = false;
[[maybe_unused]] const bool lanes_at_start = use_cpu_lanes(true);

// The slots of the precision in use (host/engine/precision.hpp).
void set_lane_slots(bool on) {
  if (math_precision() == MathPrecision::fast) {
    fast_lanes::set_avx2_lane_slots(on);
  } else {
    accurate_lanes::set_avx2_lane_slots(on);
  }
}
}  // namespace

#if defined(GPUSYNTH_NO_LANES)
bool cpu_lanes_supported() { return false; }
#define GS_NO_LANES_OF(precision)                                                                                  \
  void precision::set_avx2_lane_slots(bool) {}                                                                     \
  void precision::philox_avx2(const RngStreamKey&, std::uint32_t, std::uint64_t, std::uint32_t, PhiloxBits*) {}    \
  template <class Real>                                                                                            \
  void precision::stable_avx2(const StableSampler<Real>&, const std::uint32_t*, const std::uint32_t*, std::size_t, \
                              Real*) {}
GS_NO_LANES_OF(accurate_lanes)
GS_NO_LANES_OF(fast_lanes)
#undef GS_NO_LANES_OF
#else
bool cpu_lanes_supported() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#endif

bool use_cpu_lanes(bool on) {
  on = on && cpu_lanes_supported();
  if (on || lanes_on) set_lane_slots(on);  // only ever entered on an AVX2 machine
  lanes_on = on;
  return on;
}

bool cpu_lanes_in_use() { return lanes_on; }

void refill_cpu_lane_slots() {
  if (lanes_on) set_lane_slots(true);
}

bool philox_by_lanes(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first, std::uint32_t draw,
                     PhiloxBits out[8]) {
  if (!cpu_lanes_supported()) return false;
  accurate_lanes::philox_avx2(key, replica, first, draw, out);
  return true;
}

template <class Real>
bool stable_by_lanes(const StableSampler<Real>& law, const std::uint32_t* kv, const std::uint32_t* kw, std::size_t n,
                     Real* out) {
  if (!cpu_lanes_supported()) return false;
  if (math_precision() == MathPrecision::fast) {
    fast_lanes::stable_avx2(law, kv, kw, n, out);
  } else {
    accurate_lanes::stable_avx2(law, kv, kw, n, out);
  }
  return true;
}
template bool stable_by_lanes(const StableSampler<float>&, const std::uint32_t*, const std::uint32_t*, std::size_t,
                              float*);
template bool stable_by_lanes(const StableSampler<double>&, const std::uint32_t*, const std::uint32_t*, std::size_t,
                              double*);

std::string cpu_math_description() {
  if (!lanes_on) return "C library (scalar)";
  return fmt::format("SLEEF {}.{}.{} AVX2 lanes (deterministic finz functions{})", SLEEF_VERSION_MAJOR,
                     SLEEF_VERSION_MINOR, SLEEF_VERSION_PATCHLEVEL,
                     math_precision() == MathPrecision::fast ? "; 3.5-ulp log, sin and sincospi: precision fast" : "");
}

}  // namespace gs
