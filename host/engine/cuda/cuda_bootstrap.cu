// Bootstrap resamples on the device: one thread per Philox call counts the
// indices it draws (atomics into a count row per resample), then one thread per
// resample turns its counts into the median or the Mann–Whitney probability.
// Resamples go through in chunks whose count rows stay under
// kComparisonWorkspaceBytes; only the statistics come back.
#include <algorithm>
#include <vector>

#include "host/engine/cuda/cuda_bootstrap.hpp"
#include "host/engine/cuda/workspace.hpp"
#include "kernels/compare.hpp"
#include "kernels/cuda/device_array.hpp"
#include "kernels/cuda/launch.cuh"

namespace gs {
namespace {

constexpr unsigned kThreads = 256;

// counts[b·n + k] = how often resample first + b (b < resamples) drew index k;
// the rows start at 0.
__global__ void count_draws_kernel(RngStreamKey key, std::uint32_t first, std::uint32_t resamples, std::uint32_t draw,
                                   std::uint32_t n, std::uint32_t* counts) {
  const std::uint64_t calls = (static_cast<std::uint64_t>(n) + 3) / 4, total = calls * resamples;
  const std::uint64_t step = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const std::uint64_t b = i / calls;
    std::uint32_t* row = counts + b * n;
    for_each_index_of_call(key, first + static_cast<std::uint32_t>(b), draw, i % calls, n,
                           [row](std::uint32_t k) { atomicAdd(row + k, 1u); });
  }
}

__global__ void medians_kernel(const double* sorted, const std::uint32_t* counts, std::uint32_t n,
                               std::uint32_t resamples, double* out) {
  const std::uint64_t b = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b < resamples) out[b] = median_of_counts(sorted, counts + b * n, n);
}

__global__ void probabilities_kernel(const double* a, const std::uint32_t* counts_a, std::uint32_t na, const double* b,
                                     const std::uint32_t* counts_b, std::uint32_t nb, std::uint32_t resamples,
                                     double* out) {
  const std::uint64_t r = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < resamples) out[r] = probability_below_of_counts(a, counts_a + r * na, na, b, counts_b + r * nb, nb);
}

// A device buffer of at least `count` elements, reallocated only to grow.
template <class T>
T* at_least(std::unique_ptr<DeviceArray<T>>& buffer, std::size_t count) {
  if (!buffer || buffer->size() < count) buffer = std::make_unique<DeviceArray<T>>(count);
  return buffer->data();
}

class CudaResampler final : public Resampler {
 public:
  std::vector<double> medians(const std::vector<double>& sorted, std::uint32_t resamples,
                              const RngStreamKey& key) override {
    const auto n = static_cast<std::uint32_t>(sorted.size());
    const double* values = upload(values_a_, sorted);
    double* out = at_least(out_, resamples);
    const std::uint32_t chunk = chunk_of(n, resamples);
    std::uint32_t* counts = at_least(counts_a_, static_cast<std::size_t>(chunk) * n);
    for (std::uint32_t first = 0; first < resamples; first += chunk) {
      const std::uint32_t k = std::min(chunk, resamples - first);
      count(key, first, k, 0, n, counts);
      medians_kernel<<<grid_stride_blocks(k, kThreads), kThreads, 0, stream_.get()>>>(values, counts, n, k,
                                                                                      out + first);
      GS_CUDA_CHECK(cudaGetLastError());
    }
    return download(out, resamples);
  }

  std::vector<double> probabilities_below(const std::vector<double>& a, const std::vector<double>& b,
                                          std::uint32_t resamples, const RngStreamKey& key) override {
    const auto na = static_cast<std::uint32_t>(a.size()), nb = static_cast<std::uint32_t>(b.size());
    const double* values_a = upload(values_a_, a);
    const double* values_b = upload(values_b_, b);
    double* out = at_least(out_, resamples);
    const std::uint32_t chunk = chunk_of(na + nb, resamples);
    std::uint32_t* counts_a = at_least(counts_a_, static_cast<std::size_t>(chunk) * na);
    std::uint32_t* counts_b = at_least(counts_b_, static_cast<std::size_t>(chunk) * nb);
    for (std::uint32_t first = 0; first < resamples; first += chunk) {
      const std::uint32_t k = std::min(chunk, resamples - first);
      count(key, first, k, 0, na, counts_a);
      count(key, first, k, 1, nb, counts_b);
      probabilities_kernel<<<grid_stride_blocks(k, kThreads), kThreads, 0, stream_.get()>>>(
          values_a, counts_a, na, values_b, counts_b, nb, k, out + first);
      GS_CUDA_CHECK(cudaGetLastError());
    }
    return download(out, resamples);
  }

 private:
  // Resamples per chunk: their count rows (4 bytes per value) within the workspace.
  static std::uint32_t chunk_of(std::uint64_t values, std::uint32_t resamples) {
    return static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(kComparisonWorkspaceBytes / (4 * std::max<std::uint64_t>(values, 1)), 1, resamples));
  }

  void count(const RngStreamKey& key, std::uint32_t first, std::uint32_t resamples, std::uint32_t draw, std::uint32_t n,
             std::uint32_t* counts) {
    GS_CUDA_CHECK(
        cudaMemsetAsync(counts, 0, static_cast<std::size_t>(resamples) * n * sizeof(std::uint32_t), stream_.get()));
    count_draws_kernel<<<grid_stride_blocks((static_cast<std::uint64_t>(n) + 3) / 4 * resamples, kThreads), kThreads, 0,
                         stream_.get()>>>(key, first, resamples, draw, n, counts);
    GS_CUDA_CHECK(cudaGetLastError());
  }

  const double* upload(std::unique_ptr<DeviceArray<double>>& to, const std::vector<double>& from) {
    double* data = at_least(to, from.size());
    GS_CUDA_CHECK(
        cudaMemcpyAsync(data, from.data(), from.size() * sizeof(double), cudaMemcpyHostToDevice, stream_.get()));
    return data;
  }

  std::vector<double> download(const double* from, std::uint32_t count) {
    std::vector<double> to(count);
    GS_CUDA_CHECK(cudaMemcpyAsync(to.data(), from, count * sizeof(double), cudaMemcpyDeviceToHost, stream_.get()));
    GS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return to;
  }

  Stream stream_;
  std::unique_ptr<DeviceArray<double>> values_a_, values_b_, out_;
  std::unique_ptr<DeviceArray<std::uint32_t>> counts_a_, counts_b_;
};

}  // namespace

std::unique_ptr<Resampler> make_cuda_resampler() { return std::make_unique<CudaResampler>(); }

}  // namespace gs
