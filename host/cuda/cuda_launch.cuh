// The CUDA launcher: one bounds-checked 2-D grid-stride kernel that runs a
// kernels/generate.hpp functor over (row, column) — the same functor the
// OpenMP loop runs — and sums its tallies (warp shuffle, one atomic per warp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "host/cuda/cuda_check.hpp"
#include "kernels/workload.hpp"

namespace gs {

// tallies[0] += clipped, tallies[1] += saturated. Rows along y, columns along
// x, both grid-strided.
template <class Kernel>
__global__ void for_each_index_kernel(std::uint64_t rows, Kernel kernel, unsigned long long* tallies) {
  StoreTally tally;
  const std::uint64_t columns = kernel.columns();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    for (std::uint64_t c = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; c < columns;
         c += stride) {
      kernel(row, c, tally);
    }
  }
  unsigned clipped = tally.clipped, saturated = tally.saturated;
  for (int offset = 16; offset > 0; offset /= 2) {
    clipped += __shfl_down_sync(0xffffffffu, clipped, offset);
    saturated += __shfl_down_sync(0xffffffffu, saturated, offset);
  }
  if ((threadIdx.x & 31) == 0 && (clipped | saturated)) {
    atomicAdd(&tallies[0], static_cast<unsigned long long>(clipped));
    atomicAdd(&tallies[1], static_cast<unsigned long long>(saturated));
  }
}

// Enough blocks to fill the device several times over (32 per SM); the
// grid-stride loops cover the rest.
inline dim3 launch_grid(std::uint64_t rows, std::uint64_t columns, int threads, int multiprocessors) {
  const std::uint64_t y = rows < 65535 ? (rows > 0 ? rows : 1) : 65535;
  const std::uint64_t wanted_x = (columns + threads - 1) / threads;
  const std::uint64_t cap_x = (static_cast<std::uint64_t>(multiprocessors) * 32 + y - 1) / y;
  const std::uint64_t x = wanted_x < cap_x ? wanted_x : cap_x;
  return dim3(static_cast<unsigned>(x > 0 ? x : 1), static_cast<unsigned>(y));
}

// Blocks of `threads` for a 1-D grid-stride loop over `items`: one item per
// thread, at least one block and at most 2^20 (the loop covers the rest).
inline unsigned grid_stride_blocks(std::uint64_t items, unsigned threads) {
  const std::uint64_t blocks = (items + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks > (1u << 20) ? (1u << 20) : blocks);
}

template <class Kernel>
void cuda_for_each(std::uint64_t rows, const Kernel& kernel, unsigned long long* tallies, int multiprocessors,
                   cudaStream_t stream) {
  constexpr int threads = 256;
  for_each_index_kernel<<<launch_grid(rows, kernel.columns(), threads, multiprocessors), threads, 0, stream>>>(
      rows, kernel, tallies);
  GS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gs
