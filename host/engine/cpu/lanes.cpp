#include "host/engine/cpu/lanes.hpp"

#include <fmt/format.h>
#include <sleef.h>

#include <algorithm>

namespace gs {

// host/engine/cpu/lane_kernels.inc, once per instruction set and precision:
// fills or clears the slots, and the lanes on chosen inputs.
#define GS_DECLARE_LANES_OF(form)                                                                                    \
  namespace form {                                                                                                   \
  void set_lane_slots(bool on);                                                                                      \
  void philox_lanes(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first, std::uint32_t draw,         \
                    PhiloxBits* out);                                                                                \
  template <class Real>                                                                                              \
  void stable_lanes(const StableSampler<Real>& law, const std::uint32_t* kv, const std::uint32_t* kw, std::size_t n, \
                    Real* out);                                                                                      \
  }
GS_DECLARE_LANES_OF(avx2_accurate_lanes)
GS_DECLARE_LANES_OF(avx2_fast_lanes)
GS_DECLARE_LANES_OF(avx512_accurate_lanes)
GS_DECLARE_LANES_OF(avx512_fast_lanes)
#undef GS_DECLARE_LANES_OF

#if defined(GPUSYNTH_NO_LANES)
#define GS_NO_LANES_OF(form)                                                                                   \
  void form::set_lane_slots(bool) {}                                                                           \
  void form::philox_lanes(const RngStreamKey&, std::uint32_t, std::uint64_t, std::uint32_t, PhiloxBits*) {}    \
  template <class Real>                                                                                        \
  void form::stable_lanes(const StableSampler<Real>&, const std::uint32_t*, const std::uint32_t*, std::size_t, \
                          Real*) {}
GS_NO_LANES_OF(avx2_accurate_lanes)
GS_NO_LANES_OF(avx2_fast_lanes)
GS_NO_LANES_OF(avx512_accurate_lanes)
GS_NO_LANES_OF(avx512_fast_lanes)
#undef GS_NO_LANES_OF
#endif

namespace {

// One (instruction set, precision)'s entry points.
struct LaneForm {
  void (*set_slots)(bool on);
  void (*philox)(const RngStreamKey&, std::uint32_t, std::uint64_t, std::uint32_t, PhiloxBits*);
  void (*stable_float)(const StableSampler<float>&, const std::uint32_t*, const std::uint32_t*, std::size_t, float*);
  void (*stable_double)(const StableSampler<double>&, const std::uint32_t*, const std::uint32_t*, std::size_t, double*);
};
#define GS_LANE_FORM(form) \
  LaneForm { &form::set_lane_slots, &form::philox_lanes, &form::stable_lanes<float>, &form::stable_lanes<double> }

CpuLanes lanes_now = CpuLanes::none;
[[maybe_unused]] const bool lanes_at_start = use_cpu_lanes(true);

// The form of `lanes` (not none) at the precision in use (host/engine/precision.hpp).
LaneForm form_of(CpuLanes lanes) {
  const bool fast = math_precision() == MathPrecision::fast;
  if (lanes == CpuLanes::avx512) return fast ? GS_LANE_FORM(avx512_fast_lanes) : GS_LANE_FORM(avx512_accurate_lanes);
  return fast ? GS_LANE_FORM(avx2_fast_lanes) : GS_LANE_FORM(avx2_accurate_lanes);
}
#undef GS_LANE_FORM

}  // namespace

const char* to_string(CpuLanes lanes) {
  switch (lanes) {
    case CpuLanes::avx2:
      return "AVX2";
    case CpuLanes::avx512:
      return "AVX-512";
    default:
      return "none";
  }
}

int lane_count(CpuLanes lanes) { return lanes == CpuLanes::avx512 ? 16 : lanes == CpuLanes::avx2 ? 8 : 1; }

CpuLanes widest_cpu_lanes() {
#if defined(GPUSYNTH_NO_LANES)
  return CpuLanes::none;
#else
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return CpuLanes::none;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) return CpuLanes::avx512;
  return CpuLanes::avx2;
#endif
}

bool cpu_lanes_supported() { return widest_cpu_lanes() != CpuLanes::none; }

CpuLanes use_cpu_lanes(CpuLanes lanes) {
  lanes = std::min(lanes, widest_cpu_lanes());
  // Only ever entered on a CPU that has the lanes being set or cleared.
  if (lanes_now != CpuLanes::none) form_of(lanes_now).set_slots(false);
  if (lanes != CpuLanes::none) form_of(lanes).set_slots(true);
  lanes_now = lanes;
  return lanes;
}

bool use_cpu_lanes(bool on) { return use_cpu_lanes(on ? CpuLanes::avx512 : CpuLanes::none) != CpuLanes::none; }

CpuLanes active_cpu_lanes() { return lanes_now; }

void refill_cpu_lane_slots() {
  if (lanes_now != CpuLanes::none) form_of(lanes_now).set_slots(true);
}

int philox_by_lanes(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first, std::uint32_t draw,
                    PhiloxBits out[kMaxCpuLanes]) {
  if (lanes_now == CpuLanes::none) return 0;
  form_of(lanes_now).philox(key, replica, first, draw, out);
  return lane_count(lanes_now);
}

template <class Real>
bool stable_by_lanes(const StableSampler<Real>& law, const std::uint32_t* kv, const std::uint32_t* kw, std::size_t n,
                     Real* out) {
  if (lanes_now == CpuLanes::none) return false;
  if constexpr (sizeof(Real) == 4) {
    form_of(lanes_now).stable_float(law, kv, kw, n, out);
  } else {
    form_of(lanes_now).stable_double(law, kv, kw, n, out);
  }
  return true;
}
template bool stable_by_lanes(const StableSampler<float>&, const std::uint32_t*, const std::uint32_t*, std::size_t,
                              float*);
template bool stable_by_lanes(const StableSampler<double>&, const std::uint32_t*, const std::uint32_t*, std::size_t,
                              double*);

std::string cpu_math_description() {
  if (lanes_now == CpuLanes::none) return "C library (scalar)";
  return fmt::format("SLEEF {}.{}.{} {} lanes ({} wide; deterministic finz functions{})", SLEEF_VERSION_MAJOR,
                     SLEEF_VERSION_MINOR, SLEEF_VERSION_PATCHLEVEL, to_string(lanes_now), lane_count(lanes_now),
                     math_precision() == MathPrecision::fast ? "; 3.5-ulp log, sin and sincospi: precision fast" : "");
}

}  // namespace gs
