// The CPU's eight-lane path: the generic formulas of kernels/ (kernels/lanes.hpp)
// on packs of eight (host/engine/cpu/simd.hpp), with SLEEF's deterministic
// functions, for the kernels whose time is in their math: the stable and normal
// models and the innovations and frequency noise of the spectral models.
//
// Reproducibility: a lane's value depends only on its own words, never on its
// position in a pack or on which lanes are in use (the last, partial pack of a
// row is computed by the same code, its unused lanes discarded), so values do
// not depend on threads or batches. They differ from the scalar path by the
// functions' last bits (tests/cpu/test_lanes.cpp bounds the difference).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "host/engine/precision.hpp"
#include "kernels/philox.hpp"
#include "kernels/stable.hpp"

namespace gs {

// Whether this CPU can run the lanes (AVX2 and FMA).
bool cpu_lanes_supported();

// Turns the lanes on or off for every kernel that has them (on by default
// where supported); returns whether they are on.
bool use_cpu_lanes(bool on);
bool cpu_lanes_in_use();

// Fills the slots with the lanes of the precision now in use, where the lanes
// are on (called by use_math_precision).
void refill_cpu_lane_slots();

// "SLEEF 3.5 AVX2 lanes" or "C library (scalar)": what computed the
// elementary functions, for the output's `device` attribute.
std::string cpu_math_description();

// The lanes on chosen inputs, for tests and tools (false, nothing written,
// where the CPU has no lanes): the Philox calls at positions first..first + 7,
// and a law's values on n given word pairs (at the precision in use).
bool philox_by_lanes(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first, std::uint32_t draw,
                     PhiloxBits out[8]);
template <class Real>
bool stable_by_lanes(const StableSampler<Real>& law, const std::uint32_t* kv, const std::uint32_t* kw, std::size_t n,
                     Real* out);

}  // namespace gs
