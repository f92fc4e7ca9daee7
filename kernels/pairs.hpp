// i.i.d. values two per Philox call (the stable and normal models): bins 2j and
// 2j+1 of replica r use one call at (replica r, position j, draw 0), and
// `Draws` turns its four words into the pair. Column j is that pair of bins.
// A direct kernel (kernels/launch.hpp).
#pragma once

#include <cstdint>

#include "philox.hpp"
#include "workload.hpp"

namespace gs {

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
    const PhiloxBits r = philox_bits(key, static_cast<std::uint32_t>(first_replica + row), pair, Draws::kDraw);
    const auto values = draws(r);
    put(row, pair, values.first, values.second, tally);
  }

  // The pair's two values to bins 2·pair and 2·pair + 1 (the CPU's packs put
  // each lane's values here too).
  template <class Real>
  GS_HD void put(std::uint64_t row, std::uint64_t pair, Real first, Real second, StoreTally& tally) const {
    const std::uint64_t bin = 2 * pair;
    Out* dst = out + row * length + bin;
    dst[0] = store_workload<Out>(first, map, tally);
    if (bin + 1 < length) dst[1] = store_workload<Out>(second, map, tally);
  }
};

}  // namespace gs
