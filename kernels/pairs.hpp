// i.i.d. values two per Philox call (the stable and normal models): bins 2j and
// 2j+1 of replica r use one call at (replica r, position j, draw 0), and
// `Draws` turns its four words into the pair. Column j is that pair of bins.
// A direct kernel (kernels/launch.hpp).
#pragma once

#include <cstdint>

#include "fast_math.hpp"
#include "philox.hpp"
#include "workload.hpp"

namespace gs {

#if defined(__CUDA_ARCH__)
// The vector type of two stored values (one 8- or 16-byte store).
template <class T>
struct DevicePair;
template <>
struct DevicePair<float> {
  using type = float2;
};
template <>
struct DevicePair<double> {
  using type = double2;
};
template <>
struct DevicePair<std::uint32_t> {
  using type = uint2;
};
#endif

template <class Draws, class Out>
struct PairsKernel {
  Draws draws;
  RngStreamKey key;
  WorkloadMapping map;
  std::uint64_t first_replica = 0;
  std::uint64_t length = 0;
  std::uint64_t pairs_per_row = 0;  // ceil(length / 2)
  Out* out = nullptr;

  GS_HD std::uint64_t columns() const { return pairs_per_row; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t pair, StoreTally& tally) const {
    at<PhiloxBits>(row, pair, tally);
  }
  // With the call's words as Words: PhiloxBits, or the GPU's fast lanes
  // (kernels/fast_math.hpp).
  template <class Words>
  GS_HD void at(std::uint64_t row, std::uint64_t pair, StoreTally& tally) const {
    const PhiloxBits r = philox_bits(key, static_cast<std::uint32_t>(first_replica + row), pair, Draws::kDraw);
    const auto values = draws(Words(r));
    put(row, pair, value_of(values.first), value_of(values.second), tally);
  }

  // The pair's two values to bins 2·pair and 2·pair + 1 (the CPU's packs put
  // each lane's values here too).
  template <class Real>
  GS_HD void put(std::uint64_t row, std::uint64_t pair, Real first, Real second, StoreTally& tally) const {
    const std::uint64_t bin = 2 * pair;
    Out* dst = out + row * length + bin;
    const Out a = store_workload<Out>(first, map, tally);
    if (bin + 1 == length) {
      dst[0] = a;
      return;
    }
    const Out b = store_workload<Out>(second, map, tally);
#if defined(__CUDA_ARCH__)
    // One store of both where the pair is aligned (every pair when the row length is
    // even): half the store instructions of a kernel that is bound by its instructions.
    if (reinterpret_cast<std::uintptr_t>(dst) % (2 * sizeof(Out)) == 0) {
      *reinterpret_cast<typename DevicePair<Out>::type*>(dst) = {a, b};
      return;
    }
#endif
    dst[0] = a;
    dst[1] = b;
  }
};

}  // namespace gs
