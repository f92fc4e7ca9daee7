// The CPU's lanes: the generic formulas of kernels/ (kernels/lanes.hpp) on packs
// of eight (AVX2) or sixteen (AVX-512) lanes (host/engine/cpu/simd.hpp), with SLEEF's deterministic
// functions, for the kernels whose time is in their math: the stable and normal
// models and the innovations and frequency noise of the spectral models; and
// the spectral models' store to real storage (no functions: the scalar bits).
//
// Reproducibility: a lane's value depends only on its own words, never on its
// position in a pack or on which lanes are in use (the last, partial pack of a
// row is computed by the same code, its unused lanes discarded), so values do
// not depend on threads or batches; nor on the width, since SLEEF's finz
// functions give the same bits at every width and the arithmetic is IEEE's:
// AVX2 and AVX-512 write the same files. They differ from the scalar path by
// the functions' last bits (tests/cpu/test_lanes.cpp checks both).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "host/engine/precision.hpp"
#include "kernels/launch.hpp"
#include "kernels/philox.hpp"
#include "kernels/stable.hpp"

namespace gs {

// The lanes' instruction sets: eight lanes on AVX2 with FMA (x86-64-v3),
// sixteen on AVX-512 F and DQ; none is the scalar path.
enum class CpuLanes { none, avx2, avx512 };
constexpr int kMaxCpuLanes = 16;
const char* to_string(CpuLanes lanes);
// Values computed at once: 8, 16, or 1 for the scalar path.
int lane_count(CpuLanes lanes);

// The widest lanes this CPU runs, and whether it runs any.
CpuLanes widest_cpu_lanes();
bool cpu_lanes_supported();

// `wanted`, or the widest this CPU has below it.
CpuLanes supported_cpu_lanes(CpuLanes wanted);
// The launchers' form (kernels/launch.hpp) of lanes at a precision: the
// lanes this CPU has up to `lanes`; the scalar path (index -1) where it has none.
CpuLaneForm cpu_lane_form(CpuLanes lanes, MathPrecision precision);

// "SLEEF 3.5.1 AVX-512 lanes (…)" or "C library (scalar)": what computes the
// elementary functions with these lanes and precision, for the output's
// `device` attribute.
std::string cpu_math_description(CpuLanes lanes, MathPrecision precision);

// Lanes on chosen inputs, for tests and tools (0 or false, nothing written,
// where this CPU has none of them): the Philox calls at positions first,
// first + 1, … (returns how many: the lanes' count), and a law's values on n
// given word pairs.
int philox_by_lanes(CpuLanes lanes, const RngStreamKey& key, std::uint32_t replica, std::uint64_t first,
                    std::uint32_t draw, PhiloxBits out[kMaxCpuLanes]);
// The scalar rest of a ziggurat draw (kernels/ziggurat.hpp: ziggurat_rest_of), compiled
// without the lanes' instruction sets. The lanes' translation units call it for their rare
// lanes outside a layer's core instead of instantiating the shared template themselves, whose
// copy with AVX-512 instructions the linker could pick for the scalar path (build.lanes_objects).
double ziggurat_rest_on_host(const PhiloxBits& bits, int which, const RngStreamKey& key, std::uint32_t replica,
                             std::uint64_t position, std::uint32_t draw);

template <class Real>
bool stable_by_lanes(CpuLanes lanes, MathPrecision precision, const StableSampler<Real>& law, const std::uint32_t* kv,
                     const std::uint32_t* kw, std::size_t n, Real* out);

}  // namespace gs
