// The study's per-replica comparison on the device: CUB segmented sorts of the
// rows (and of the absolute differences the trimmed errors average), then one
// thread per replica for the formulas on sorted values, one block per replica
// for the KS distance and per (lag, replica) for the autocovariances, and the
// Hurst estimates of cuda_hurst.cu.
// Large batches go through in chunks whose workspace stays under
// kComparisonWorkspaceBytes.
#include <fmt/format.h>

#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <limits>
#include <optional>
#include <vector>

#include "host/engine/cuda/cuda_compare.hpp"
#include "host/engine/cuda/cuda_hurst.hpp"
#include "host/engine/cuda/workspace.hpp"
#include "kernels/compare.hpp"
#include "kernels/cuda/device_array.hpp"
#include "kernels/cuda/launch.cuh"

namespace gs {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::size_t kMaxMetrics = 8;

// What the kernels read of the real series.
struct RealView {
  const double* sorted;
  const double* acf;
  std::uint64_t n;
  unsigned acf_size;  // lags + 1
  double peak_to_mean, cv;
};

// out[i] = |reference[i mod n] − rows[i]|, i < total.
template <class Out>
__global__ void absolute_differences_kernel(const double* reference, const Out* rows, std::uint64_t n,
                                            std::uint64_t total, double* out) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
    out[i] = fabs(reference[i % n] - static_cast<double>(rows[i]));
}

struct SummaryArgs {
  Metric metrics[kMaxMetrics];
  unsigned metric_count;
  double trim;
  const double* errors_sorted;   // |x_(i) − y_(i)| sorted per row (trimmed_error), or null
  const double* aligned_sorted;  // |x_t − y_t| sorted per row (trimmed_error_aligned), or null
  double* metrics_out;           // rows × metric_count
  double* quantiles_out;         // rows × kCurveLevels
  double* means;                 // rows
};

// One thread per replica: every metric but acf (acf_kernel) and hurst (DeviceHurst).
template <class Out>
__global__ void replica_summary_kernel(RealView real, SummaryArgs a, const Out* rows, const Out* sorted,
                                       std::uint64_t count) {
  const std::uint64_t r = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= count) return;
  const std::uint64_t n = real.n;
  const Out* y = sorted + r * n;
  const MeanSd moments = mean_and_sd_of(rows + r * n, n);  // time order, as the host sums
  a.means[r] = moments.mean;
  const BurstinessRatios ratios = burstiness_ratios(moments, static_cast<double>(y[n - 1]));
  for (std::size_t i = 0; i < kCurveLevels; ++i)
    a.quantiles_out[r * kCurveLevels + i] = quantile_of_sorted(y, n, static_cast<double>(i) / (kCurveLevels - 1));
  for (unsigned m = 0; m < a.metric_count; ++m) {
    double value = std::numeric_limits<double>::quiet_NaN();
    switch (a.metrics[m]) {
      case Metric::trimmed_error:
        value = trimmed_mean_of_sorted(a.errors_sorted + r * n, n, a.trim);
        break;
      case Metric::trimmed_error_aligned:
        value = trimmed_mean_of_sorted(a.aligned_sorted + r * n, n, a.trim);
        break;
      case Metric::ks:
        continue;  // ks_kernel
      case Metric::peak_to_mean_ratio:
        value = ratios.peak_to_mean / real.peak_to_mean;
        break;
      case Metric::cv_ratio:
        value = ratios.cv / real.cv;
        break;
      default:
        break;
    }
    a.metrics_out[r * a.metric_count + m] = value;
  }
}

struct Larger {
  __device__ double operator()(double a, double b) const { return a > b ? a : b; }
};

// The KS distance of each replica to the real series, a block per replica:
// ks_gap after every value of both samples, by binary search in each (one
// thread walking a replica's 2n values left the device idle: 2.5 s of a
// study's 3.5 s compare stage on an H100).
template <class Out>
__global__ void ks_kernel(RealView real, const Out* sorted, std::uint64_t count, unsigned metric,
                          unsigned metric_count, double* metrics_out) {
  using Reduce = cub::BlockReduce<double, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  const std::uint64_t n = real.n;
  for (std::uint64_t r = blockIdx.x; r < count; r += gridDim.x) {
    const Out* y = sorted + r * n;
    double distance = 0;
    for (std::uint64_t t = threadIdx.x; t < 2 * n; t += blockDim.x) {
      const double v = t < n ? real.sorted[t] : static_cast<double>(y[t - n]);
      const double gap = ks_gap_at(real.sorted, n, y, n, v);
      distance = gap > distance ? gap : distance;
    }
    const double largest = Reduce(storage).Reduce(distance, Larger());
    if (threadIdx.x == 0) metrics_out[r * metric_count + metric] = largest;
    __syncthreads();  // the next replica reuses `storage`
  }
}

// cov[r, k] = Σ_{t < n−k} (y_t − ȳ)(y_{t+k} − ȳ): block (k, r), rows strided by gridDim.y.
template <class Out>
__global__ void autocovariance_kernel(const Out* rows, const double* means, std::uint64_t n, unsigned acf_size,
                                      std::uint64_t count, double* cov) {
  using Reduce = cub::BlockReduce<double, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  const unsigned k = blockIdx.x;
  for (std::uint64_t r = blockIdx.y; r < count; r += gridDim.y) {
    const Out* y = rows + r * n;
    const double mean = means[r];
    double sum = 0;
    for (std::uint64_t t = threadIdx.x; t + k < n; t += blockDim.x)
      sum += (static_cast<double>(y[t]) - mean) * (static_cast<double>(y[t + k]) - mean);
    const double total = Reduce(storage).Sum(sum);
    if (threadIdx.x == 0) cov[r * acf_size + k] = total;
    __syncthreads();  // the next row reuses `storage`
  }
}

// The ACF r(k) = cov(k)/cov(0) (NaN beyond lag 0 for a constant row, as on the
// host) and, when `acf_metric` ≥ 0, its distance to the real ACF.
__global__ void acf_kernel(RealView real, const double* cov, std::uint64_t count, int acf_metric, unsigned metric_count,
                           double* acf_out, double* metrics_out) {
  const std::uint64_t r = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= count) return;
  const double* c = cov + r * real.acf_size;
  double* acf = acf_out + r * real.acf_size;
  acf[0] = 1.0;
  for (unsigned k = 1; k < real.acf_size; ++k)
    acf[k] = c[0] > 1e-300 ? c[k] / c[0] : std::numeric_limits<double>::quiet_NaN();
  if (acf_metric >= 0) metrics_out[r * metric_count + acf_metric] = acf_distance(acf, real.acf, real.acf_size - 1);
}

// CUB's segmented sort with its temporary storage kept between calls.
class SegmentedSorter {
 public:
  template <class Key>
  void sort(const Key* in, Key* out, std::uint64_t rows, std::uint64_t n, const std::int64_t* offsets,
            cudaStream_t stream) {
    const auto items = static_cast<std::int64_t>(rows * n), segments = static_cast<std::int64_t>(rows);
    std::size_t bytes = 0;
    GS_CUDA_CHECK(
        cub::DeviceSegmentedSort::SortKeys(nullptr, bytes, in, out, items, segments, offsets, offsets + 1, stream));
    if (!temp_ || temp_->size() < bytes) temp_ = std::make_unique<DeviceArray<unsigned char>>(bytes);
    GS_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(temp_->data(), bytes, in, out, items, segments, offsets,
                                                     offsets + 1, stream));
  }

 private:
  std::unique_ptr<DeviceArray<unsigned char>> temp_;
};

template <class T>
void upload(DeviceArray<T>& to, const std::vector<T>& from) {
  GS_CUDA_CHECK(cudaMemcpy(to.data(), from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice));
}

template <class Out>
class CudaComparer final : public DeviceComparer {
 public:
  CudaComparer(StorageType storage, const SeriesProfile& real, const CompareOptions& options, std::uint64_t max_rows,
               cudaStream_t stream)
      : options_(options),
        stream_(stream),
        n_(real.values.size()),
        acf_size_(static_cast<unsigned>(real.acf.size())),
        trimmed_(metric_index(options, Metric::trimmed_error).has_value()),
        aligned_(metric_index(options, Metric::trimmed_error_aligned).has_value()),
        chunk_rows_(std::clamp<std::uint64_t>(
            kComparisonWorkspaceBytes / (n_ * (sizeof(Out) + sizeof(double) * (1 + trimmed_ + aligned_))), 1,
            max_rows)),
        real_sorted_(n_),
        real_values_(n_),
        real_acf_(acf_size_),
        offsets_(chunk_rows_ + 1),
        sorted_(chunk_rows_ * n_),
        differences_(trimmed_ || aligned_ ? chunk_rows_ * n_ : 0),
        errors_sorted_(trimmed_ ? chunk_rows_ * n_ : 0),
        aligned_sorted_(aligned_ ? chunk_rows_ * n_ : 0),
        metrics_(chunk_rows_ * options.metrics.size()),
        quantiles_(chunk_rows_ * kCurveLevels),
        means_(chunk_rows_),
        cov_(chunk_rows_ * acf_size_),
        acf_(chunk_rows_ * acf_size_) {
    if (options.metrics.size() > kMaxMetrics)
      throw InternalError("CudaComparer", "more metrics than kMaxMetrics", __FILE__, __LINE__);
    upload(real_sorted_, real.sorted);
    upload(real_values_, real.values);
    upload(real_acf_, real.acf);
    std::vector<std::int64_t> offsets(chunk_rows_ + 1);
    for (std::uint64_t r = 0; r <= chunk_rows_; ++r) offsets[r] = static_cast<std::int64_t>(r * n_);
    upload(offsets_, offsets);
    view_ = RealView{real_sorted_.data(), real_acf_.data(), n_, acf_size_, real.peak_to_mean, real.cv};
    const auto acf = metric_index(options, Metric::acf);
    acf_metric_ = acf ? static_cast<int>(*acf) : -1;
    ks_metric_ = metric_index(options, Metric::ks);
    hurst_metric_ = metric_index(options, Metric::hurst);
    if (hurst_metric_) {
      const NamedHurstEstimator* estimator = find_hurst_estimator(options.hurst_estimator);
      if (!estimator) throw UserError(fmt::format("no Hurst estimator '{}'", options.hurst_estimator));
      hurst_ = make_device_hurst(estimator->method, storage, n_, chunk_rows_, stream_);
      real_hurst_ = real.hurst;
    }
  }

  BatchComparison compare(const void* rows, std::uint64_t count) override {
    const std::size_t metric_count = options_.metrics.size();
    BatchComparison out;
    out.metrics.resize(count * metric_count);
    out.quantiles.resize(count * kCurveLevels);
    out.acf.resize(count * acf_size_);
    SummaryArgs a{};
    std::copy(options_.metrics.begin(), options_.metrics.end(), a.metrics);
    a.metric_count = static_cast<unsigned>(metric_count);
    a.trim = options_.trim;
    a.errors_sorted = errors_sorted_.data();
    a.aligned_sorted = aligned_sorted_.data();
    a.metrics_out = metrics_.data();
    a.quantiles_out = quantiles_.data();
    a.means = means_.data();
    for (std::uint64_t first = 0; first < count; first += chunk_rows_) {
      const std::uint64_t k = std::min(chunk_rows_, count - first), items = k * n_;
      const Out* chunk = static_cast<const Out*>(rows) + first * n_;
      sorter_.sort(chunk, sorted_.data(), k, n_, offsets_.data(), stream_);
      if (trimmed_) {
        absolute_differences_kernel<<<grid_stride_blocks(items, kThreads), kThreads, 0, stream_>>>(
            real_sorted_.data(), sorted_.data(), n_, items, differences_.data());
        GS_CUDA_CHECK(cudaGetLastError());
        sorter_.sort(differences_.data(), errors_sorted_.data(), k, n_, offsets_.data(), stream_);
      }
      if (aligned_) {
        absolute_differences_kernel<<<grid_stride_blocks(items, kThreads), kThreads, 0, stream_>>>(
            real_values_.data(), chunk, n_, items, differences_.data());
        GS_CUDA_CHECK(cudaGetLastError());
        sorter_.sort(differences_.data(), aligned_sorted_.data(), k, n_, offsets_.data(), stream_);
      }
      replica_summary_kernel<<<grid_stride_blocks(k, kThreads), kThreads, 0, stream_>>>(view_, a, chunk, sorted_.data(),
                                                                                        k);
      GS_CUDA_CHECK(cudaGetLastError());
      if (ks_metric_) {
        ks_kernel<<<static_cast<unsigned>(std::min<std::uint64_t>(k, 65535)), kThreads, 0, stream_>>>(
            view_, sorted_.data(), k, static_cast<unsigned>(*ks_metric_), static_cast<unsigned>(metric_count),
            metrics_.data());
        GS_CUDA_CHECK(cudaGetLastError());
      }
      if (hurst_) hurst_->estimate(chunk, k, metrics_.data() + *hurst_metric_, metric_count, real_hurst_);
      const dim3 blocks(acf_size_, static_cast<unsigned>(std::min<std::uint64_t>(k, 65535)));
      autocovariance_kernel<<<blocks, kThreads, 0, stream_>>>(chunk, means_.data(), n_, acf_size_, k, cov_.data());
      GS_CUDA_CHECK(cudaGetLastError());
      acf_kernel<<<grid_stride_blocks(k, kThreads), kThreads, 0, stream_>>>(
          view_, cov_.data(), k, acf_metric_, static_cast<unsigned>(metric_count), acf_.data(), metrics_.data());
      GS_CUDA_CHECK(cudaGetLastError());
      copy_back(metrics_, out.metrics, first * metric_count, k * metric_count);
      copy_back(quantiles_, out.quantiles, first * kCurveLevels, k * kCurveLevels);
      copy_back(acf_, out.acf, first * acf_size_, k * acf_size_);
      GS_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the chunk's buffers are reused next
    }
    return out;
  }

 private:
  void copy_back(const DeviceArray<double>& from, std::vector<double>& to, std::uint64_t at, std::uint64_t values) {
    GS_CUDA_CHECK(
        cudaMemcpyAsync(to.data() + at, from.data(), values * sizeof(double), cudaMemcpyDeviceToHost, stream_));
  }

  CompareOptions options_;
  cudaStream_t stream_;
  std::uint64_t n_;
  unsigned acf_size_;
  bool trimmed_, aligned_;
  std::uint64_t chunk_rows_;
  DeviceArray<double> real_sorted_, real_values_, real_acf_;
  DeviceArray<std::int64_t> offsets_;
  DeviceArray<Out> sorted_;
  DeviceArray<double> differences_, errors_sorted_, aligned_sorted_;
  DeviceArray<double> metrics_, quantiles_, means_, cov_, acf_;
  SegmentedSorter sorter_;
  RealView view_{};
  int acf_metric_ = -1;
  std::optional<std::size_t> ks_metric_, hurst_metric_;
  std::unique_ptr<DeviceHurst> hurst_;
  double real_hurst_ = 0;
};

}  // namespace

std::unique_ptr<DeviceComparer> make_device_comparer(StorageType storage, const SeriesProfile& real,
                                                     const CompareOptions& options, std::uint64_t max_rows,
                                                     cudaStream_t stream) {
  switch (storage) {
    case StorageType::float32:
      return std::make_unique<CudaComparer<float>>(storage, real, options, max_rows, stream);
    case StorageType::float64:
      return std::make_unique<CudaComparer<double>>(storage, real, options, max_rows, stream);
    default:
      return std::make_unique<CudaComparer<std::uint32_t>>(storage, real, options, max_rows, stream);
  }
}

}  // namespace gs
