// The CPU's lanes: the generic formulas of kernels/ (kernels/lanes.hpp) on packs
// of eight (AVX2) or sixteen (AVX-512) lanes (host/engine/cpu/simd.hpp), with SLEEF's deterministic
// functions, for the kernels whose time is in their math: the stable and normal
// models and the innovations and frequency noise of the spectral models.
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

// Turns the lanes on (the widest this CPU has) or off for every kernel that
// has them (on, the widest, by default); returns whether they are on.
bool use_cpu_lanes(bool on);
// Uses `lanes`, or the widest this CPU has below them; returns what is in use.
CpuLanes use_cpu_lanes(CpuLanes lanes);
CpuLanes active_cpu_lanes();

// Fills the slots with the lanes of the precision now in use, where the lanes
// are on (called by use_math_precision).
void refill_cpu_lane_slots();

// "SLEEF 3.5.1 AVX-512 lanes (…)" or "C library (scalar)": what computed the
// elementary functions, for the output's `device` attribute.
std::string cpu_math_description();

// The lanes in use on chosen inputs, for tests and tools (0 or false, nothing
// written, where they are off): the Philox calls at positions first, first + 1,
// … (returns how many: the lanes' count), and a law's values on n given word
// pairs (at the precision in use).
int philox_by_lanes(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first, std::uint32_t draw,
                    PhiloxBits out[kMaxCpuLanes]);
template <class Real>
bool stable_by_lanes(const StableSampler<Real>& law, const std::uint32_t* kv, const std::uint32_t* kw, std::size_t n,
                     Real* out);

}  // namespace gs
