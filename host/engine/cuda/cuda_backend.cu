// The CUDA backend: a model's direct kernel run by the device launcher its
// header registered (kernels/cuda/launch.cuh), batched cuFFT D2Z/Z2D plans
// cached per (FFT length, batch) for the spectral models, the kernel spectrum
// or circulant amplitudes uploaded once per ensemble, page-locked host
// buffers. It knows no model by name. Generation of batch k+1 overlaps the HDF5 write
// of batch k (the driver's writer thread); the copy back rides the same stream.
#include <cuda_runtime.h>
#include <cufft.h>
#include <fmt/format.h>

#include <cub/block/block_scan.cuh>
#include <map>
#include <vector>

#include "host/base/fft.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/cuda/cuda_bootstrap.hpp"
#include "host/engine/cuda/cuda_compare.hpp"
#include "host/engine/precision.hpp"
#include "host/engine/spectral_steps.hpp"
#include "kernels/cuda/check.hpp"
#include "kernels/cuda/device_array.hpp"
#include "kernels/cuda/launch.cuh"

namespace gs {

namespace {

int multiprocessor_count() {
  int device = 0, count = 0;
  GS_CUDA_CHECK(cudaGetDevice(&device));
  GS_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// Batch work common to every model: tallies on the device, the copy of the
// batch's rows back to the (page-locked) host buffer when one is given, and a
// study's comparison of the rows where they are.
class CudaBatch {
 public:
  CudaBatch(std::uint64_t max_rows, std::uint64_t row_bytes, StorageType storage)
      : out_(max_rows * row_bytes),
        tallies_(2),
        max_rows_(max_rows),
        row_bytes_(row_bytes),
        storage_(storage),
        multiprocessors_(multiprocessor_count()) {}

  unsigned char* out() const { return out_.data(); }
  unsigned long long* tallies() const { return tallies_.data(); }
  cudaStream_t stream() const { return stream_.get(); }
  int multiprocessors() const { return multiprocessors_; }

  void begin() { GS_CUDA_CHECK(cudaMemsetAsync(tallies_.data(), 0, 2 * sizeof(unsigned long long), stream_.get())); }

  void set_comparison(const SeriesProfile& real, const CompareOptions& options) {
    comparer_ = make_device_comparer(storage_, real, options, max_rows_, stream_.get());
  }
  BatchComparison compare(std::uint64_t rows) { return comparer_->compare(out_.data(), rows); }

  Tally finish(std::uint64_t rows, void* host_out) {
    unsigned long long host_tallies[2] = {0, 0};
    if (host_out)
      GS_CUDA_CHECK(cudaMemcpyAsync(host_out, out_.data(), rows * row_bytes_, cudaMemcpyDeviceToHost, stream_.get()));
    GS_CUDA_CHECK(
        cudaMemcpyAsync(host_tallies, tallies_.data(), sizeof(host_tallies), cudaMemcpyDeviceToHost, stream_.get()));
    GS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return Tally{host_tallies[0], host_tallies[1]};
  }

 private:
  DeviceArray<unsigned char> out_;
  DeviceArray<unsigned long long> tallies_;
  std::uint64_t max_rows_, row_bytes_;
  StorageType storage_;
  int multiprocessors_;
  Stream stream_;
  std::unique_ptr<DeviceComparer> comparer_;
};

// What every CUDA generator shares: its batch on the device, which a study
// compares in place (the rows leave the device only when they are stored).
class CudaGenerator : public EnsembleGenerator {
 public:
  CudaGenerator(std::uint64_t max_rows, std::uint64_t row_bytes, StorageType storage)
      : batch_(max_rows, row_bytes, storage) {}
  bool compares_in_place() const override { return true; }
  void set_comparison(const SeriesProfile& real, const CompareOptions& options) override {
    batch_.set_comparison(real, options);
  }
  BatchComparison compare_batch(std::uint64_t count) override { return batch_.compare(count); }

 protected:
  CudaBatch batch_;
};

// Models whose kernel writes the output directly: the launcher the kernel's
// header registered, with its table (e.g. hmm's observation times) uploaded
// once and its scratch rows on the device.
class CudaDirectGenerator final : public CudaGenerator {
 public:
  CudaDirectGenerator(const DirectKernel& kernel, std::uint64_t max_batch, const EnsembleJob& job,
                      MathPrecision precision)
      : CudaGenerator(max_batch, job.spec->length * storage_bytes(job.request.storage), job.request.storage),
        kernel_(kernel),
        launch_(kernel.cuda_launch(precision == MathPrecision::fast)),
        table_(kernel.table().size()),
        scratch_(max_batch * kernel.scratch_per_replica()) {
    if (!launch_)
      throw InternalError("CudaDirectGenerator",
                          fmt::format("the kernel of model '{}' has no CUDA launcher: its header lacks "
                                      "GS_DIRECT_KERNEL or was not built for CUDA",
                                      job.spec->model->name()),
                          __FILE__, __LINE__);
    if (!kernel.table().empty())
      GS_CUDA_CHECK(cudaMemcpy(table_.data(), kernel.table().data(), kernel.table().size() * sizeof(double),
                               cudaMemcpyHostToDevice));
  }

  Tally generate(std::uint64_t first, std::uint64_t count, void* out) override {
    batch_.begin();
    launch_(kernel_.data(), first, count, batch_.out(), table_.data(), scratch_.data(), batch_.tallies(),
            batch_.multiprocessors(), batch_.stream());
    return batch_.finish(count, out);
  }

 private:
  DirectKernel kernel_;
  CudaDirectLaunch launch_;
  DeviceArray<double> table_;
  DeviceArray<double> scratch_;
};

// Batched real FFTs for one spectral ensemble, made once per batch size: D2Z
// of length L (rows of L doubles → rows of L/2 + 1; convolution only), and Z2D
// of length M = L/m from the folded rows (M/2 + 1) back into the signal rows
// (stride L).
class CufftPlans {
 public:
  CufftPlans(std::uint64_t length, std::uint64_t inverse_length, bool forward, cudaStream_t stream)
      : length_(length), inverse_length_(inverse_length), with_forward_(forward), stream_(stream) {}
  CufftPlans(const CufftPlans&) = delete;
  CufftPlans& operator=(const CufftPlans&) = delete;
  ~CufftPlans() {
    for (auto& [batch, plans] : plans_) {
      if (with_forward_) cufftDestroy(plans.first);
      cufftDestroy(plans.second);
    }
  }

  std::pair<cufftHandle, cufftHandle> get(std::uint64_t batch) {
    const auto found = plans_.find(batch);
    if (found != plans_.end()) return found->second;
    long long n = static_cast<long long>(length_), n_half = n / 2 + 1;
    long long k = static_cast<long long>(inverse_length_), k_half = k / 2 + 1;
    std::size_t work = 0;
    cufftHandle forward = 0, inverse;
    if (with_forward_) {
      GS_CUFFT_CHECK(cufftCreate(&forward));
      GS_CUFFT_CHECK(cufftMakePlanMany64(forward, 1, &n, &n, 1, n, &n_half, 1, n_half, CUFFT_D2Z,
                                         static_cast<long long>(batch), &work));
      GS_CUFFT_CHECK(cufftSetStream(forward, stream_));
    }
    GS_CUFFT_CHECK(cufftCreate(&inverse));
    GS_CUFFT_CHECK(cufftMakePlanMany64(inverse, 1, &k, &k_half, 1, k_half, &n, 1, n, CUFFT_Z2D,
                                       static_cast<long long>(batch), &work));
    GS_CUFFT_CHECK(cufftSetStream(inverse, stream_));
    return plans_.emplace(batch, std::make_pair(forward, inverse)).first->second;
  }

 private:
  std::uint64_t length_, inverse_length_;
  bool with_forward_;
  cudaStream_t stream_;
  std::map<std::uint64_t, std::pair<cufftHandle, cufftHandle>> plans_;
};

// fbm: in-place inclusive prefix sums of values [offset, offset + length) of
// every row, one block per row (CUB's block scan, a running carry between
// tiles). The summation order differs from the CPU's left-to-right sum in the
// last bits of double.
constexpr int kScanThreads = 256;

__global__ void row_prefix_sum_kernel(double* rows, std::uint64_t count, std::uint64_t stride, std::uint64_t offset,
                                      std::uint64_t length) {
  using BlockScan = cub::BlockScan<double, kScanThreads>;
  __shared__ typename BlockScan::TempStorage scratch;
  for (std::uint64_t row = blockIdx.x; row < count; row += gridDim.x) {
    double* values = rows + row * stride + offset;
    double carry = 0;
    for (std::uint64_t base = 0; base < length; base += kScanThreads) {
      const std::uint64_t i = base + threadIdx.x;
      double x = i < length ? values[i] : 0.0, tile_total = 0;
      BlockScan(scratch).InclusiveSum(x, x, tile_total);
      __syncthreads();
      if (i < length) values[i] = x + carry;
      carry += tile_total;
    }
  }
}

template <class Real, class Out>
class CudaSpectralGenerator final : public CudaGenerator {
 public:
  CudaSpectralGenerator(const EnsembleJob& job, std::uint64_t max_batch, MathPrecision precision)
      : CudaGenerator(max_batch, job.spec->length * sizeof(Out), job.request.storage),
        plan_(*job.generation.spectral),
        convolution_(plan_.method == SpectralMethod::convolution),
        fast_innovations_(std::is_same<Real, float>::value && precision == MathPrecision::fast),
        noise_(make_circulant_noise_kernel(job)),
        store_(make_filtered_store_kernel<Out>(job)),
        signal_(max_batch * plan_.fft_length),
        spectra_(convolution_ ? max_batch * (plan_.fft_length / 2 + 1) : 0),
        folded_(max_batch * (plan_.inverse_length / 2 + 1)),
        filter_(plan_.amplitudes.size()),
        kernel_spectrum_(convolution_ ? plan_.fft_length / 2 + 1 : 0),
        plans_(plan_.fft_length, plan_.inverse_length, convolution_, batch_.stream()) {
    if (convolution_) {
      innovations_ = make_innovations_kernel<Real>(job);
      fold_ = make_spectrum_fold_kernel(job);
      // The kernel's spectrum: computed once per ensemble (in double, on the
      // host) and shared by every replica and batch.
      const std::vector<Complex<double>> spectrum =
          CpuFftPair(plan_.fft_length, plan_.inverse_length).kernel_spectrum(plan_.coefficients);
      GS_CUDA_CHECK(cudaMemcpy(kernel_spectrum_.data(), spectrum.data(), spectrum.size() * sizeof(Complex<double>),
                               cudaMemcpyHostToDevice));
      fold_.kernel = kernel_spectrum_.data();
      fold_.spectra = spectra_.data();
      fold_.folded = folded_.data();
    } else {
      GS_CUDA_CHECK(cudaMemcpy(filter_.data(), plan_.amplitudes.data(), plan_.amplitudes.size() * sizeof(double),
                               cudaMemcpyHostToDevice));
      noise_.amplitude = filter_.data();
      noise_.folded = folded_.data();
    }
  }

  Tally generate(std::uint64_t first, std::uint64_t count, void* out) override {
    const auto [forward, inverse] = plans_.get(count);
    batch_.begin();
    if (convolution_) {
      InnovationsKernel<Real> innovations = innovations_;
      innovations.first_replica = first;
      innovations.signal = signal_.data();
      if constexpr (std::is_same<Real, float>::value) {  // float64 has no fast form
        if (fast_innovations_)
          cuda_for_each(count, WithFastMath<InnovationsKernel<Real>>{innovations}, batch_.tallies(),
                        batch_.multiprocessors(), batch_.stream());
      }
      if (!fast_innovations_)
        cuda_for_each(count, innovations, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
      GS_CUFFT_CHECK(cufftExecD2Z(forward, signal_.data(), reinterpret_cast<cufftDoubleComplex*>(spectra_.data())));
      cuda_for_each(count, fold_, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
    } else {
      CirculantNoiseKernel noise = noise_;
      noise.first_replica = first;
      cuda_for_each(count, noise, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
    }
    GS_CUFFT_CHECK(cufftExecZ2D(inverse, reinterpret_cast<cufftDoubleComplex*>(folded_.data()), signal_.data()));
    if (plan_.cumulative) {
      const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>(count, 65535));
      row_prefix_sum_kernel<<<blocks, kScanThreads, 0, batch_.stream()>>>(signal_.data(), count, plan_.fft_length,
                                                                          plan_.offset, store_.length);
      GS_CUDA_CHECK(cudaGetLastError());
    }
    FilteredStoreKernel<Out> store = store_;
    store.decimated = signal_.data();
    store.out = reinterpret_cast<Out*>(batch_.out());
    cuda_for_each(count, store, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
    return batch_.finish(count, out);
  }

 private:
  SpectralPlan plan_;
  bool convolution_;
  bool fast_innovations_;  // precision fast, read once as the direct generator's launcher is
  InnovationsKernel<Real> innovations_;
  SpectrumFoldKernel fold_;
  CirculantNoiseKernel noise_;
  FilteredStoreKernel<Out> store_;
  DeviceArray<double> signal_;
  DeviceArray<Complex<double>> spectra_;
  DeviceArray<Complex<double>> folded_;
  DeviceArray<double> filter_;
  DeviceArray<Complex<double>> kernel_spectrum_;
  CufftPlans plans_;
};

class CudaBackend final : public BackendDevice {
 public:
  explicit CudaBackend(MathPrecision precision) : precision_(precision) {
    GS_CUDA_CHECK(cudaGetDevice(&device_));
    GS_CUDA_CHECK(cudaGetDeviceProperties(&properties_, device_));
  }

  Backend kind() const override { return Backend::cuda; }

  std::string description() const override {
    return fmt::format("GPU: {} (sm_{}{}, {} SMs, {:.1f} GiB)", properties_.name, properties_.major, properties_.minor,
                       properties_.multiProcessorCount,
                       static_cast<double>(properties_.totalGlobalMem) / (1024.0 * 1024 * 1024));
  }

  std::uint64_t default_memory_budget() const override {
    std::size_t free = 0, total = 0;
    GS_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free / 10 * 8;  // leave room for cuFFT plans, the context and other processes
  }

  MemoryNeed memory_need(const EnsembleJob& job) const override {
    MemoryNeed need;
    need.per_replica = job.spec->length * storage_bytes(job.request.storage);
    if (const auto& direct = job.generation.direct) {
      need.per_replica += direct->scratch_per_replica() * sizeof(double);
      need.fixed = direct->table().size() * sizeof(double);
    }
    if (const auto& plan = job.generation.spectral) {
      const std::uint64_t n = plan->fft_length, folded = plan->inverse_length / 2 + 1;
      if (plan->method == SpectralMethod::convolution) {
        // signal + spectra + folded spectra + cuFFT's workspace (at most one more complex row).
        const std::uint64_t half = n / 2 + 1;
        need.per_replica += n * sizeof(double) + (2 * half + folded) * sizeof(Complex<double>);
        need.fixed = half * sizeof(Complex<double>);
      } else {
        // signal + folded noise + cuFFT's workspace.
        need.per_replica += n * sizeof(double) + 2 * folded * sizeof(Complex<double>);
        need.fixed = plan->amplitudes.size() * sizeof(double);
      }
    }
    return need;
  }

  HostBuffer host_buffer(std::size_t bytes) const override {
    void* data = nullptr;
    GS_CUDA_CHECK(cudaMallocHost(&data, bytes));
    return HostBuffer(static_cast<unsigned char*>(data), [](unsigned char* p) { cudaFreeHost(p); });
  }

  std::unique_ptr<Resampler> make_resampler() const override { return make_cuda_resampler(); }

  std::unique_ptr<EnsembleGenerator> make_generator(const EnsembleJob& job, std::uint64_t max_batch) override {
    if (job.generation.direct)
      return std::make_unique<CudaDirectGenerator>(*job.generation.direct, max_batch, job, precision_);
    return with_value_types(job.request, [&](auto real, auto out) -> std::unique_ptr<EnsembleGenerator> {
      return std::make_unique<CudaSpectralGenerator<decltype(real), decltype(out)>>(job, max_batch, precision_);
    });
  }

 private:
  MathPrecision precision_;
  int device_ = 0;
  cudaDeviceProp properties_{};
};

__global__ void philox_words_kernel(RngStreamKey key, std::uint32_t replica, std::uint64_t first, std::uint64_t calls,
                                    std::uint32_t* out) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= calls) return;
  const PhiloxBits bits = philox_bits(key, replica, first + i, 0);
  for (int w = 0; w < 4; ++w) out[4 * i + w] = bits[w];
}

}  // namespace

bool cuda_backend_compiled() { return true; }

int cuda_device_count(std::string* why_none) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why_none) *why_none = fmt::format("the CUDA runtime reports: {}", cudaGetErrorString(status));
    cudaGetLastError();  // clear the sticky error of a failed initialisation
    return 0;
  }
  if (count == 0 && why_none) *why_none = "the CUDA runtime finds no device";
  return count;
}

std::unique_ptr<BackendDevice> make_cuda_backend(const ExecutionContext& context) {
  std::string why;
  if (cuda_device_count(&why) == 0) throw UserError("no CUDA device is usable: " + why);
  return std::make_unique<CudaBackend>(context.precision);
}

void use_cuda_device(int device) { GS_CUDA_CHECK(cudaSetDevice(device)); }

std::vector<std::uint32_t> cuda_philox_words(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first,
                                             std::uint64_t calls) {
  DeviceArray<std::uint32_t> words(4 * calls);
  const unsigned threads = 256;
  philox_words_kernel<<<static_cast<unsigned>((calls + threads - 1) / threads), threads>>>(key, replica, first, calls,
                                                                                           words.data());
  GS_CUDA_CHECK(cudaGetLastError());
  std::vector<std::uint32_t> host(4 * calls);
  GS_CUDA_CHECK(cudaMemcpy(host.data(), words.data(), host.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace gs
