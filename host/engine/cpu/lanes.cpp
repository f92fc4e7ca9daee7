#include "host/engine/cpu/lanes.hpp"

#include <fmt/format.h>
#include <sleef.h>

#include <algorithm>

#include "kernels/ziggurat.hpp"

namespace gs {

// host/engine/cpu/lane_kernels.inc, once per instruction set and precision:
// fills or clears the slots, and the lanes on chosen inputs.
#define GS_DECLARE_LANES_OF(form)                                                                                    \
  namespace form {                                                                                                   \
  void register_lane_slots(int form);                                                                                \
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
  void form::register_lane_slots(int) {}                                                                       \
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
  void (*register_slots)(int form);
  void (*philox)(const RngStreamKey&, std::uint32_t, std::uint64_t, std::uint32_t, PhiloxBits*);
  void (*stable_float)(const StableSampler<float>&, const std::uint32_t*, const std::uint32_t*, std::size_t, float*);
  void (*stable_double)(const StableSampler<double>&, const std::uint32_t*, const std::uint32_t*, std::size_t, double*);
};
#define GS_LANE_FORM(form) \
  LaneForm { &form::register_lane_slots, &form::philox_lanes, &form::stable_lanes<float>, &form::stable_lanes<double> }
// Indexed by CpuLaneForm::index (cpu_lane_form below).
const LaneForm kLaneForms[kCpuLaneForms] = {GS_LANE_FORM(avx2_accurate_lanes), GS_LANE_FORM(avx2_fast_lanes),
                                            GS_LANE_FORM(avx512_accurate_lanes), GS_LANE_FORM(avx512_fast_lanes)};
#undef GS_LANE_FORM

// Every form's launchers in the kernels' slots, once, before main: writing a
// function's address runs none of its instructions, so this is safe on any
// CPU; the forms a CPU lacks are never chosen (cpu_lane_form).
[[maybe_unused]] const bool slots_registered = [] {
  for (int form = 0; form < kCpuLaneForms; ++form) kLaneForms[form].register_slots(form);
  return true;
}();

const LaneForm& form_of(CpuLanes lanes, MathPrecision precision) {
  return kLaneForms[cpu_lane_form(lanes, precision).index];
}

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

CpuLanes supported_cpu_lanes(CpuLanes wanted) { return std::min(wanted, widest_cpu_lanes()); }

CpuLaneForm cpu_lane_form(CpuLanes lanes, MathPrecision precision) {
  lanes = supported_cpu_lanes(lanes);
  if (lanes == CpuLanes::none) return CpuLaneForm{};
  const int fast = precision == MathPrecision::fast ? 1 : 0;
  return CpuLaneForm{(lanes == CpuLanes::avx512 ? 2 : 0) + fast};
}

double ziggurat_rest_on_host(const PhiloxBits& bits, int which, const RngStreamKey& key, std::uint32_t replica,
                             std::uint64_t position, std::uint32_t draw) {
  return ziggurat_rest_of(bits, which, key, replica, position, draw);
}

int philox_by_lanes(CpuLanes lanes, const RngStreamKey& key, std::uint32_t replica, std::uint64_t first,
                    std::uint32_t draw, PhiloxBits out[kMaxCpuLanes]) {
  lanes = supported_cpu_lanes(lanes);
  if (lanes == CpuLanes::none) return 0;
  form_of(lanes, MathPrecision::accurate).philox(key, replica, first, draw, out);
  return lane_count(lanes);
}

template <class Real>
bool stable_by_lanes(CpuLanes lanes, MathPrecision precision, const StableSampler<Real>& law, const std::uint32_t* kv,
                     const std::uint32_t* kw, std::size_t n, Real* out) {
  lanes = supported_cpu_lanes(lanes);
  if (lanes == CpuLanes::none) return false;
  if constexpr (sizeof(Real) == 4) {
    form_of(lanes, precision).stable_float(law, kv, kw, n, out);
  } else {
    form_of(lanes, precision).stable_double(law, kv, kw, n, out);
  }
  return true;
}
template bool stable_by_lanes(CpuLanes, MathPrecision, const StableSampler<float>&, const std::uint32_t*,
                              const std::uint32_t*, std::size_t, float*);
template bool stable_by_lanes(CpuLanes, MathPrecision, const StableSampler<double>&, const std::uint32_t*,
                              const std::uint32_t*, std::size_t, double*);

std::string cpu_math_description(CpuLanes lanes, MathPrecision precision) {
  lanes = supported_cpu_lanes(lanes);
  if (lanes == CpuLanes::none) return "C library (scalar)";
  return fmt::format("SLEEF {}.{}.{} {} lanes ({} wide; deterministic finz functions{})", SLEEF_VERSION_MAJOR,
                     SLEEF_VERSION_MINOR, SLEEF_VERSION_PATCHLEVEL, to_string(lanes), lane_count(lanes),
                     precision == MathPrecision::fast ? "; 3.5-ulp log, sin and sincospi: precision fast" : "");
}

}  // namespace gs
