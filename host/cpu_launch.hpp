// The CPU launcher: an OpenMP loop over a flat 64-bit index that runs a
// kernels/generate.hpp functor and sums its tallies. Results never depend on
// the thread count: each element is a pure function of its index. After an
// interrupt the remaining elements are skipped (the caller discards the batch).
#pragma once

#include <cstdint>

#include "host/backend.hpp"
#include "host/interrupt.hpp"
#include "kernels/workload.hpp"

namespace gs {

template <class Kernel>
Tally cpu_for_each(std::uint64_t count, const Kernel& kernel) {
  constexpr std::int64_t block = 1 << 16;  // elements between interrupt polls
  const auto n = static_cast<std::int64_t>(count);
  std::uint64_t clipped = 0, saturated = 0;
#pragma omp parallel for schedule(static) reduction(+ : clipped, saturated)
  for (std::int64_t start = 0; start < n; start += block) {
    if (pending_interrupt()) continue;
    StoreTally tally;
    const std::int64_t end = start + block < n ? start + block : n;
    for (std::int64_t i = start; i < end; ++i) kernel(static_cast<std::uint64_t>(i), tally);
    clipped += tally.clipped;
    saturated += tally.saturated;
  }
  return Tally{clipped, saturated};
}

// The same loop run serially by the calling thread (inside a parallel region).
template <class Kernel>
Tally serial_for_each(std::uint64_t count, const Kernel& kernel) {
  StoreTally tally;
  for (std::uint64_t i = 0; i < count; ++i) kernel(i, tally);
  return Tally{tally.clipped, tally.saturated};
}

}  // namespace gs
