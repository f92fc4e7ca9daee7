// Hurst estimates on the device, one block per replica. Plot estimators: the
// block's threads compute the candidate points of kernels/hurst.hpp and thread
// 0 fits the line through them in point order, as the host does. Whittle
// estimators: batched cuFFT periodograms (as estimators/series.cpp's), then
// every thread of a block runs the same Brent minimisation, whose sums over
// frequencies are block-wide reductions broadcast to all threads.
#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <limits>

#include "host/engine/cuda/cuda_hurst.hpp"
#include "host/engine/cuda/workspace.hpp"
#include "kernels/cuda/device_array.hpp"
#include "kernels/cuda/launch.cuh"

namespace gs {
namespace {

constexpr unsigned kPlotThreads = 128;
constexpr unsigned kWhittleThreads = 256;
constexpr unsigned kMaxBlocks = 65535;

// One block per row, up to kMaxBlocks (the kernels loop over the rest).
unsigned blocks_for(std::uint64_t rows) { return static_cast<unsigned>(std::min<std::uint64_t>(rows, kMaxBlocks)); }

// The mean of x[0..n), the same value in every thread of the block.
template <unsigned Threads, class Real>
__device__ double block_mean(const Real* x, std::uint64_t n,
                             typename cub::BlockReduce<double, Threads>::TempStorage& storage, double& broadcast) {
  double sum = 0;
  for (std::uint64_t t = threadIdx.x; t < n; t += Threads) sum += static_cast<double>(x[t]);
  sum = cub::BlockReduce<double, Threads>(storage).Sum(sum);
  if (threadIdx.x == 0) broadcast = sum / static_cast<double>(n);
  __syncthreads();
  const double mean = broadcast;
  __syncthreads();  // `storage` and `broadcast` serve the next row
  return mean;
}

template <class Out>
__global__ void plot_hurst_kernel(HurstMethod method, const Out* rows, std::uint64_t n, std::uint64_t count,
                                  double* out, std::uint64_t stride, double reference) {
  using Reduce = cub::BlockReduce<double, kPlotThreads>;
  __shared__ typename Reduce::TempStorage storage;
  __shared__ double mean;
  // HurstPoint has default member initialisers, which __shared__ variables may not have.
  __shared__ alignas(HurstPoint) unsigned char point_bytes[sizeof(HurstPoint) * kHurstMaxPoints];
  HurstPoint* points = reinterpret_cast<HurstPoint*>(point_bytes);
  const int point_count = hurst_point_count(method, n);
  for (std::uint64_t r = blockIdx.x; r < count; r += gridDim.x) {
    const Out* x = rows + r * n;
    const double row_mean = method == HurstMethod::dfa ? block_mean<kPlotThreads>(x, n, storage, mean) : 0.0;
    for (int p = static_cast<int>(threadIdx.x); p < point_count; p += kPlotThreads)
      points[p] = hurst_point(method, x, n, p, row_mean);
    __syncthreads();
    if (threadIdx.x == 0) out[r * stride] = hurst_from_plot(method, points, point_count).H - reference;
    __syncthreads();  // the next row overwrites `points`
  }
}

// The Whittle estimators' SumOver on the device: a block-wide sum, broadcast.
struct BlockSum {
  using Reduce = cub::BlockReduce<HurstSums, kWhittleThreads>;
  typename Reduce::TempStorage* storage;
  HurstSums* total;

  template <class Term>
  __device__ HurstSums operator()(std::size_t count, Term term) const {
    HurstSums local{0, 0};
    for (std::size_t j = threadIdx.x; j < count; j += kWhittleThreads) local = local + term(j);
    const HurstSums sum = Reduce(*storage).Sum(local);
    if (threadIdx.x == 0) *total = sum;
    __syncthreads();
    const HurstSums result = *total;
    __syncthreads();  // `storage` and `total` serve the next sum
    return result;
  }
};

__global__ void whittle_kernel(HurstMethod method, const double* periodograms, std::uint64_t n, std::uint64_t count,
                               double* out, std::uint64_t stride, double reference) {
  __shared__ typename BlockSum::Reduce::TempStorage storage;
  __shared__ HurstSums total;
  const BlockSum sum{&storage, &total};
  const std::uint64_t m = (n - 1) / 2;
  for (std::uint64_t r = blockIdx.x; r < count; r += gridDim.x) {
    const double* I = periodograms + r * m;
    const HurstResult result =
        method == HurstMethod::whittle ? whittle_hurst(sum, I, n) : local_whittle_hurst(sum, I, n);
    if (threadIdx.x == 0) out[r * stride] = result.H - reference;
  }
}

// signal = row − its mean, in double: the periodogram's input.
template <class Out>
__global__ void centre_kernel(const Out* rows, std::uint64_t n, std::uint64_t count, double* signal) {
  using Reduce = cub::BlockReduce<double, kWhittleThreads>;
  __shared__ typename Reduce::TempStorage storage;
  __shared__ double mean;
  for (std::uint64_t r = blockIdx.x; r < count; r += gridDim.x) {
    const Out* x = rows + r * n;
    const double row_mean = block_mean<kWhittleThreads>(x, n, storage, mean);
    for (std::uint64_t t = threadIdx.x; t < n; t += kWhittleThreads)
      signal[r * n + t] = static_cast<double>(x[t]) - row_mean;
  }
}

// I[r, j] = |spectrum[r, j + 1]|² / (2πn), j < (n − 1)/2.
__global__ void periodogram_kernel(const cufftDoubleComplex* spectra, std::uint64_t n, std::uint64_t count,
                                   double* periodograms) {
  const std::uint64_t m = (n - 1) / 2, half = n / 2 + 1, total = count * m;
  const std::uint64_t step = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const cufftDoubleComplex z = spectra[(i / m) * half + i % m + 1];
    periodograms[i] = (z.x * z.x + z.y * z.y) / (2 * kPi * static_cast<double>(n));
  }
}

__global__ void fill_kernel(double* out, std::uint64_t count, std::uint64_t stride, double value) {
  const std::uint64_t step = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t r = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < count; r += step)
    out[r * stride] = value;
}

template <class Out>
class CudaHurst final : public DeviceHurst {
 public:
  CudaHurst(HurstMethod method, std::uint64_t n, std::uint64_t max_rows, cudaStream_t stream)
      : method_(method),
        n_(n),
        stream_(stream),
        spectral_(method == HurstMethod::whittle || method == HurstMethod::local_whittle),
        chunk_rows_(std::clamp<std::uint64_t>(
            kComparisonWorkspaceBytes /
                (n * sizeof(double) + (n / 2 + 1) * sizeof(cufftDoubleComplex) + (n - 1) / 2 * sizeof(double)),
            1, max_rows)) {
    if (!spectral_ || n_ < hurst_minimum_length(method_)) return;
    signal_storage_ = std::make_unique<DeviceArray<double>>(chunk_rows_ * n_);
    spectra_ = std::make_unique<DeviceArray<cufftDoubleComplex>>(chunk_rows_ * (n_ / 2 + 1));
    periodograms_ = std::make_unique<DeviceArray<double>>(chunk_rows_ * ((n_ - 1) / 2));
    // Rows past a short last chunk are transformed too (one plan); start them at 0.
    GS_CUDA_CHECK(cudaMemsetAsync(signal_storage_->data(), 0, chunk_rows_ * n_ * sizeof(double), stream_));
    long long length = static_cast<long long>(n_), half = length / 2 + 1;
    std::size_t work = 0;
    GS_CUFFT_CHECK(cufftCreate(&plan_));
    GS_CUFFT_CHECK(cufftMakePlanMany64(plan_, 1, &length, &length, 1, length, &half, 1, half, CUFFT_D2Z,
                                       static_cast<long long>(chunk_rows_), &work));
    GS_CUFFT_CHECK(cufftSetStream(plan_, stream_));
  }
  CudaHurst(const CudaHurst&) = delete;
  CudaHurst& operator=(const CudaHurst&) = delete;
  ~CudaHurst() override {
    if (plan_) cufftDestroy(plan_);
  }

  void estimate(const void* rows, std::uint64_t count, double* out, std::uint64_t stride, double reference) override {
    const Out* values = static_cast<const Out*>(rows);
    if (count == 0) return;  // a grid of 0 blocks is a launch error
    if (n_ < hurst_minimum_length(method_)) {
      fill_kernel<<<grid_stride_blocks(count, 256), 256, 0, stream_>>>(out, count, stride,
                                                                       std::numeric_limits<double>::quiet_NaN());
      GS_CUDA_CHECK(cudaGetLastError());
      return;
    }
    if (!spectral_) {
      plot_hurst_kernel<<<blocks_for(count), kPlotThreads, 0, stream_>>>(method_, values, n_, count, out, stride,
                                                                         reference);
      GS_CUDA_CHECK(cudaGetLastError());
      return;
    }
    const std::uint64_t m = (n_ - 1) / 2;
    for (std::uint64_t first = 0; first < count; first += chunk_rows_) {
      const std::uint64_t k = std::min(chunk_rows_, count - first);
      centre_kernel<<<blocks_for(k), kWhittleThreads, 0, stream_>>>(values + first * n_, n_, k,
                                                                    signal_storage_->data());
      GS_CUDA_CHECK(cudaGetLastError());
      GS_CUFFT_CHECK(cufftExecD2Z(plan_, signal_storage_->data(), spectra_->data()));
      periodogram_kernel<<<grid_stride_blocks(k * m, 256), 256, 0, stream_>>>(spectra_->data(), n_, k,
                                                                              periodograms_->data());
      GS_CUDA_CHECK(cudaGetLastError());
      whittle_kernel<<<blocks_for(k), kWhittleThreads, 0, stream_>>>(method_, periodograms_->data(), n_, k,
                                                                     out + first * stride, stride, reference);
      GS_CUDA_CHECK(cudaGetLastError());
    }
  }

 private:
  HurstMethod method_;
  std::uint64_t n_;
  cudaStream_t stream_;
  bool spectral_;
  std::uint64_t chunk_rows_;
  std::unique_ptr<DeviceArray<double>> signal_storage_, periodograms_;
  std::unique_ptr<DeviceArray<cufftDoubleComplex>> spectra_;
  cufftHandle plan_ = 0;
};

}  // namespace

std::unique_ptr<DeviceHurst> make_device_hurst(HurstMethod method, StorageType storage, std::uint64_t n,
                                               std::uint64_t max_rows, cudaStream_t stream) {
  switch (storage) {
    case StorageType::float32:
      return std::make_unique<CudaHurst<float>>(method, n, max_rows, stream);
    case StorageType::float64:
      return std::make_unique<CudaHurst<double>>(method, n, max_rows, stream);
    default:
      return std::make_unique<CudaHurst<std::uint32_t>>(method, n, max_rows, stream);
  }
}

}  // namespace gs
