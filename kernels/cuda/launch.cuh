// The CUDA launcher: one bounds-checked 2-D grid-stride kernel that runs a
// per-element functor over (row, column) — the same functor the OpenMP loop of
// kernels/launch.hpp runs — and sums its tallies (warp shuffle, one atomic per
// warp); and the device launchers of the direct kernels.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/block/block_scan.cuh>

#include "kernels/chains.hpp"
#include "kernels/cuda/check.hpp"
#include "kernels/fast_math.hpp"
#include "kernels/launch.hpp"
#include "kernels/workload.hpp"

namespace gs {

// tallies[0] += clipped, tallies[1] += saturated over a block's threads (warp
// shuffle, one atomic per warp); every thread of the warp calls it.
__device__ inline void add_tallies(const StoreTally& tally, unsigned long long* tallies) {
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

// Rows along y, columns along
// x, both grid-strided, counted in Index: 32 bits wherever the indices fit,
// since 64-bit integer arithmetic takes several instructions per operation on
// a GPU and the per-element kernels are bound by their instruction count.
template <class Index, class Kernel>
__global__ void for_each_index_kernel(Index rows, Kernel kernel, unsigned long long* tallies) {
  StoreTally tally;
  const Index columns = static_cast<Index>(kernel.columns());
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index row = blockIdx.y; row < rows; row += gridDim.y) {
    for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < columns; c += stride) {
      kernel(row, c, tally);
    }
  }
  add_tallies(tally, tallies);
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
  const std::uint64_t columns = kernel.columns();
  const dim3 grid = launch_grid(rows, columns, threads, multiprocessors);
  // 32-bit counters when no index nor its next grid stride can pass 2^32.
  constexpr std::uint64_t k32 = std::uint64_t{1} << 32;
  if (rows + grid.y < k32 && columns + std::uint64_t{grid.x} * threads < k32) {
    for_each_index_kernel<std::uint32_t><<<grid, threads, 0, stream>>>(static_cast<std::uint32_t>(rows), kernel, tallies);
  } else {
    for_each_index_kernel<std::uint64_t><<<grid, threads, 0, stream>>>(rows, kernel, tallies);
  }
  GS_CUDA_CHECK(cudaGetLastError());
}

// A kernel sequential in time (one replica per call) with its replicas laid
// along the launcher's columns, so they fill the device's threads rather than
// one thread per block.
template <class Kernel>
struct ReplicasAsColumns {
  Kernel kernel;
  std::uint64_t rows = 0;

  GS_HD std::uint64_t columns() const { return rows; }
  GS_HD void operator()(std::uint64_t, std::uint64_t replica, StoreTally& tally) const { kernel(replica, 0, tally); }
};

// A finite-state chain (kernels/launch.hpp) with each replica's time axis in
// segments of `segment` bins, segment i of a batch being segment i % segments
// of row i / segments. Pass 1 (a thread per segment): the segment's steps
// composed into a map of the states, map[s] = the state after the segment when
// the one before it is s. Pass 2 (a thread per row): the maps chained into
// every segment's entry state. Pass 3 (a thread per segment): the segment
// walked from its entry state and stored. The states, and so the values, are
// those of the sequential walk, from the same words.
struct ChainSegments {
  std::uint64_t rows, segment, segments;
  __device__ std::uint64_t row(std::uint64_t i) const { return i / segments; }
  __device__ std::uint64_t first(std::uint64_t i) const { return (i % segments) * segment; }
  __device__ std::uint64_t end(std::uint64_t i, std::uint64_t length) const {
    return first(i) + segment < length ? first(i) + segment : length;
  }
};

template <class Kernel>
__global__ void chain_maps_kernel(Kernel kernel, ChainSegments g, std::uint8_t* maps) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.rows * g.segments;
       i += stride) {
    const std::uint64_t first = g.first(i), end = g.end(i, kernel.length);
    const std::uint32_t replica = kernel.replica_of(g.row(i));
    int map[kMaxStates];  // unrolled over kMaxStates, so the map stays in registers
#pragma unroll
    for (int s = 0; s < kMaxStates; ++s) map[s] = s;
    for (std::uint64_t t = first; t < end; ++t) {
      const auto bits = kernel.draw(replica, t);
#pragma unroll
      for (int s = 0; s < kMaxStates; ++s)
        if (s < kernel.states) map[s] = kernel.next_state(bits, t, map[s]);
    }
#pragma unroll
    for (int s = 0; s < kMaxStates; ++s) maps[i * kMaxStates + s] = static_cast<std::uint8_t>(map[s]);
  }
}

template <int kMapSize>
__global__ void chain_entries_kernel(ChainSegments g, const std::uint8_t* maps, std::uint8_t* entries) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t row = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; row < g.rows;
       row += stride) {
    std::uint8_t state = 0;  // not read: segment 0 starts with the initial law
    for (std::uint64_t j = row * g.segments; j < (row + 1) * g.segments; ++j) {
      entries[j] = state;
      state = maps[j * kMapSize + state];
    }
  }
}

template <class Kernel>
__global__ void chain_store_kernel(Kernel kernel, ChainSegments g, const std::uint8_t* entries,
                                   unsigned long long* tallies) {
  StoreTally tally;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.rows * g.segments;
       i += stride) {
    const std::uint64_t row = g.row(i), first = g.first(i), end = g.end(i, kernel.length);
    const std::uint32_t replica = kernel.replica_of(row);
    int state = entries[i];
    for (std::uint64_t t = first; t < end; ++t) {
      const auto bits = kernel.draw(replica, t);
      state = kernel.next_state(bits, t, state);
      kernel.store(row, t, state, bits, tally);
    }
  }
  add_tallies(tally, tallies);
}

template <class Kernel>
void cuda_chain_launch(const Kernel& kernel, std::uint64_t rows, unsigned long long* tallies, cudaStream_t stream) {
  if (rows == 0 || kernel.length == 0) return;
  // Segments of at least 64 bins, short enough for about 2^20 of them per batch.
  const std::uint64_t segment = std::max<std::uint64_t>(64, (rows * kernel.length) >> 20);
  const ChainSegments g{rows, segment, (kernel.length + segment - 1) / segment};
  const std::uint64_t count = rows * g.segments;
  std::uint8_t *maps = nullptr, *entries = nullptr;
  GS_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&maps), count * kMaxStates, stream));
  GS_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&entries), count, stream));
  constexpr unsigned threads = 256;
  chain_maps_kernel<<<grid_stride_blocks(count, threads), threads, 0, stream>>>(kernel, g, maps);
  GS_CUDA_CHECK(cudaGetLastError());
  chain_entries_kernel<kMaxStates><<<grid_stride_blocks(rows, threads), threads, 0, stream>>>(g, maps, entries);
  GS_CUDA_CHECK(cudaGetLastError());
  chain_store_kernel<<<grid_stride_blocks(count, threads), threads, 0, stream>>>(kernel, g, entries, tallies);
  GS_CUDA_CHECK(cudaGetLastError());
  GS_CUDA_CHECK(cudaFreeAsync(maps, stream));
  GS_CUDA_CHECK(cudaFreeAsync(entries, stream));
}

// A sum over sources (kernels/launch.hpp): the difference rows cleared, a
// thread per (replica, source) adding its terms atomically (integers modulo
// 2^64: any order gives the same sums), then a block per replica taking the
// prefix sums tile by tile (cub::BlockScan) and storing the bins.
template <class Kernel>
__global__ void add_sources_kernel(Kernel kernel, std::uint64_t rows) {
  const std::uint64_t items = rows * kernel.sources;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < items; i += stride) {
    const std::uint64_t row = i / kernel.sources;
    auto* difference = reinterpret_cast<unsigned long long*>(kernel.difference_row(row));
    kernel.add_source(row, static_cast<std::uint32_t>(i % kernel.sources),
                      [difference](std::uint64_t j, std::uint64_t term) {
                        atomicAdd(difference + j, static_cast<unsigned long long>(term));
                      });
  }
}

template <class Kernel, int kThreads>
__global__ void prefix_sums_kernel(Kernel kernel, std::uint64_t rows, unsigned long long* tallies) {
  using Scan = cub::BlockScan<unsigned long long, kThreads>;
  __shared__ typename Scan::TempStorage scan;
  StoreTally tally;
  for (std::uint64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const std::uint64_t* difference = kernel.difference_row(row);
    unsigned long long carried = 0;
    for (std::uint64_t tile = 0; tile < kernel.length; tile += kThreads) {
      const std::uint64_t i = tile + threadIdx.x;
      unsigned long long prefix = i < kernel.length ? difference[i] : 0, tile_sum = 0;
      Scan(scan).InclusiveSum(prefix, prefix, tile_sum);
      __syncthreads();  // the scan's shared memory is reused by the next tile
      if (i < kernel.length) kernel.store(row, i, carried + prefix, tally);
      carried += tile_sum;
    }
  }
  add_tallies(tally, tallies);
}

template <class Kernel>
void cuda_sources_launch(const Kernel& kernel, std::uint64_t rows, unsigned long long* tallies, cudaStream_t stream) {
  if (rows == 0 || kernel.length == 0) return;
  GS_CUDA_CHECK(cudaMemsetAsync(kernel.difference_row(0), 0, rows * kernel.length * sizeof(std::uint64_t), stream));
  constexpr unsigned threads = 256;
  add_sources_kernel<<<grid_stride_blocks(rows * kernel.sources, threads), threads, 0, stream>>>(kernel, rows);
  GS_CUDA_CHECK(cudaGetLastError());
  const auto blocks = static_cast<unsigned>(rows < (1u << 20) ? rows : (1u << 20));
  prefix_sums_kernel<Kernel, threads><<<blocks, threads, 0, stream>>>(kernel, rows, tallies);
  GS_CUDA_CHECK(cudaGetLastError());
}

// The CudaDirectLaunch of one direct kernel type: its copy bound to the batch
// (device memory), run by cuda_for_each on `stream`; kFast: with the fast
// lanes of kernels/fast_math.hpp.
template <class Kernel, bool kFast = false>
void cuda_direct_launch(const void* data, std::uint64_t first, std::uint64_t count, void* out, const double* table,
                        double* scratch, unsigned long long* tallies, int multiprocessors, void* stream) {
  Kernel kernel = *static_cast<const Kernel*>(data);
  bind_batch(kernel, first, out, table, scratch);
  const auto on = static_cast<cudaStream_t>(stream);
  if constexpr (IsFiniteStateChain<Kernel>::value) {
    cuda_chain_launch(kernel, count, tallies, on);
  } else if constexpr (SumsSources<Kernel>::value) {
    cuda_sources_launch(kernel, count, tallies, on);
  } else if constexpr (IsSequentialInTime<Kernel>::value) {
    cuda_for_each(1, ReplicasAsColumns<Kernel>{kernel, count}, tallies, multiprocessors, on);
  } else if constexpr (kFast) {
    cuda_for_each(count, WithFastMath<Kernel>{kernel}, tallies, multiprocessors, on);
  } else {
    cuda_for_each(count, kernel, tallies, multiprocessors, on);
  }
}

// Whether a kernel has at<Words> (kernels/fast_math.hpp), so a fast launcher.
template <class Kernel, class = void>
struct HasFastMath : std::false_type {};
template <class Kernel>
struct HasFastMath<Kernel, std::void_t<decltype(std::declval<const Kernel&>().template at<FastPhiloxWords>(
                               0, 0, std::declval<StoreTally&>()))>> : std::true_type {};

// Every (compute, storage) pair an ensemble can ask for (see
// kernels/workload.hpp): float32 or float64 values, or counts from either;
// precision fast for float32 where the kernel has it.

template <template <class, class> class Kernel>
bool register_cuda_direct_kernel() {
  CudaDirectLaunchSlot<Kernel<float, float>>::launch = &cuda_direct_launch<Kernel<float, float>>;
  CudaDirectLaunchSlot<Kernel<float, std::uint32_t>>::launch = &cuda_direct_launch<Kernel<float, std::uint32_t>>;
  if constexpr (HasFastMath<Kernel<float, float>>::value) {
    CudaDirectLaunchSlot<Kernel<float, float>>::fast_launch = &cuda_direct_launch<Kernel<float, float>, true>;
    CudaDirectLaunchSlot<Kernel<float, std::uint32_t>>::fast_launch =
        &cuda_direct_launch<Kernel<float, std::uint32_t>, true>;
  }
  CudaDirectLaunchSlot<Kernel<double, double>>::launch = &cuda_direct_launch<Kernel<double, double>>;
  CudaDirectLaunchSlot<Kernel<double, std::uint32_t>>::launch = &cuda_direct_launch<Kernel<double, std::uint32_t>>;
  return true;
}

}  // namespace gs

// The CUDA build of a direct kernel's header (a .cu file CMake generates for
// every kernels/*.hpp that uses GS_DIRECT_KERNEL) defines
// GS_CUDA_DIRECT_KERNEL_BUILD before including this file and then the header:
// its GS_DIRECT_KERNEL(Template) registers the launchers at start-up.
#if defined(GS_CUDA_DIRECT_KERNEL_BUILD)
#undef GS_DIRECT_KERNEL
#define GS_DIRECT_KERNEL(Template) \
  static const bool gs_cuda_launchers_of_##Template = ::gs::register_cuda_direct_kernel<Template>();
#endif
