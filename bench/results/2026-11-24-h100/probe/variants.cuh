// Kernel variants of the float32 stable sampler, compiled twice: accurate
// (default flags) and fast (-use_fast_math), in namespaces PROBE_NS.
#pragma once
#include "kernels/cuda/launch.cuh"
#include "kernels/stable.hpp"

namespace PROBE_NS {
using namespace gs;

// The Gaussian branch alone, kind known at compile time.
struct GaussOnly {
  float scale = 1, shift = 0;
  __device__ __forceinline__ float operator()(std::uint32_t kv, std::uint32_t kw) const {
    const float W = standard_exponential<float>(kw);
    const float d = edge_distance<float>(kv);
    const float c = gs::cospi(d);
    const float cos_w = in_upper_half(kv) ? -c : c;
    return scale * (-2.f * gs::sqrt(W) * cos_w) + shift;
  }
};
struct EngineLaw {
  StableSampler<float> law;
  __device__ __forceinline__ float operator()(std::uint32_t kv, std::uint32_t kw) const { return law(kv, kw); }
};

// As PairsKernel (the engine's functor) with any law.
template <class Law>
struct Pairs64 {
  Law law; RngStreamKey key; WorkloadMapping map; std::uint64_t length = 0, pairs_per_row = 0; float* out = nullptr;
  GS_HD std::uint64_t columns() const { return pairs_per_row; }
  __device__ void operator()(std::uint64_t row, std::uint64_t pair, StoreTally& tally) const {
    const PhiloxBits r = philox_bits(key, static_cast<std::uint32_t>(row), pair, 0);
    const float a = law(r[0], r[1]), b = law(r[2], r[3]);
    const std::uint64_t bin = 2 * pair;
    float* dst = out + row * length + bin;
    dst[0] = store_workload<float>(a, map, tally);
    if (bin + 1 < length) dst[1] = store_workload<float>(b, map, tally);
  }
};

// 32-bit pair index within a row, the row's base pointer once, float2 stores
// when the length is even.
template <class Law>
__global__ void pairs32_kernel(Law law, RngStreamKey key, WorkloadMapping map, std::uint32_t rows, std::uint32_t length,
                               float* out, unsigned long long* tallies) {
  StoreTally tally;
  const std::uint32_t pairs = (length + 1) / 2;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t row = blockIdx.y; row < rows; row += gridDim.y) {
    float* base = out + static_cast<std::uint64_t>(row) * length;
    for (std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x; p < pairs; p += stride) {
      const PhiloxBits r = philox_bits(key, row, p, 0);
      const float a = store_workload<float>(law(r[0], r[1]), map, tally);
      const float b = store_workload<float>(law(r[2], r[3]), map, tally);
      if ((length & 1u) == 0) {
        reinterpret_cast<float2*>(base)[p] = make_float2(a, b);
      } else {
        base[2 * p] = a;
        if (2 * p + 1 < length) base[2 * p + 1] = b;
      }
    }
  }
  if (tally.saturated) atomicAdd(&tallies[1], 1ull);
}

template <class Law>
void launch64(const Law& law, RngStreamKey key, std::uint64_t rows, std::uint64_t length, float* out,
              unsigned long long* tallies, int sms) {
  Pairs64<Law> k{law, key, WorkloadMapping{}, length, (length + 1) / 2, out};
  cuda_for_each(rows, k, tallies, sms, nullptr);
}
template <class Law>
void launch32(const Law& law, RngStreamKey key, std::uint32_t rows, std::uint32_t length, float* out,
              unsigned long long* tallies, int sms, int threads = 256) {
  const dim3 grid = launch_grid(rows, (length + 1) / 2, threads, sms);
  pairs32_kernel<<<grid, threads>>>(law, key, WorkloadMapping{}, rows, length, out, tallies);
}

void run_all(double alpha, std::uint64_t rows, std::uint64_t length, float* out, unsigned long long* tallies, int sms,
             int variant);
}  // namespace PROBE_NS
