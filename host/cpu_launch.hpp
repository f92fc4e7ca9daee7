// The CPU launcher: an OpenMP loop over (row, column) that runs a
// kernels/generate.hpp functor and sums its tallies. Results never depend on
// the thread count: each element is a pure function of its indices. After an
// interrupt the remaining elements are skipped (the caller discards the batch).
#pragma once

#include <cstdint>

#include "host/backend.hpp"
#include "host/interrupt.hpp"
#include "kernels/workload.hpp"

namespace gs {

template <class Kernel>
Tally cpu_for_each(std::uint64_t rows, const Kernel& kernel) {
  constexpr std::int64_t block = 1 << 14;  // columns between interrupt polls
  const auto columns = static_cast<std::int64_t>(kernel.columns());
  const std::int64_t blocks = (columns + block - 1) / block;
  std::uint64_t clipped = 0, saturated = 0;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : clipped, saturated)
  for (std::int64_t row = 0; row < static_cast<std::int64_t>(rows); ++row) {
    for (std::int64_t b = 0; b < blocks; ++b) {
      if (pending_interrupt()) continue;
      StoreTally tally;
      const std::int64_t end = (b + 1) * block < columns ? (b + 1) * block : columns;
      for (std::int64_t c = b * block; c < end; ++c) {
        kernel(static_cast<std::uint64_t>(row), static_cast<std::uint64_t>(c), tally);
      }
      clipped += tally.clipped;
      saturated += tally.saturated;
    }
  }
  return Tally{clipped, saturated};
}

// Row 0 of the kernel, run serially by the calling thread (inside a parallel
// region, with the kernel's buffers pointing at that thread's row).
template <class Kernel>
Tally serial_for_each(const Kernel& kernel) {
  StoreTally tally;
  const std::uint64_t columns = kernel.columns();
  for (std::uint64_t c = 0; c < columns; ++c) kernel(0, c, tally);
  return Tally{tally.clipped, tally.saturated};
}

}  // namespace gs
