// The CUDA backend: the functors of kernels/generate.hpp run by one generic
// kernel (cuda_launch.cuh), batched cuFFT D2Z/Z2D plans cached per (FFT
// length, batch) for LFSN, the kernel spectrum uploaded once per ensemble,
// page-locked host buffers. Generation of batch k+1 overlaps the HDF5 write
// of batch k (the driver's writer thread); the copy back rides the same stream.
#include <cuda_runtime.h>
#include <cufft.h>
#include <fmt/format.h>

#include <map>
#include <vector>

#include "host/backend.hpp"
#include "host/cuda/cuda_check.hpp"
#include "host/cuda/cuda_launch.cuh"
#include "host/fft.hpp"
#include "host/prepare.hpp"

namespace gs {

const char* cufft_error_name(cufftResult result) {
  switch (result) {
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED (out of device memory; lower --memory-limit)";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    default:
      return "cuFFT error";
  }
}

namespace {

// Device memory owned by one object.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count > 0) GS_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (data_) cudaFree(data_);
  }
  T* data() const { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

class Stream {
 public:
  Stream() { GS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

int multiprocessor_count() {
  int device = 0, count = 0;
  GS_CUDA_CHECK(cudaGetDevice(&device));
  GS_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// Batch work common to every model: tallies on the device and the copy of the
// batch's rows back to the (page-locked) host buffer.
class CudaBatch {
 public:
  CudaBatch(std::uint64_t max_rows, std::uint64_t row_bytes)
      : out_(max_rows * row_bytes), tallies_(2), row_bytes_(row_bytes), multiprocessors_(multiprocessor_count()) {}

  unsigned char* out() const { return out_.data(); }
  unsigned long long* tallies() const { return tallies_.data(); }
  cudaStream_t stream() const { return stream_.get(); }
  int multiprocessors() const { return multiprocessors_; }

  void begin() { GS_CUDA_CHECK(cudaMemsetAsync(tallies_.data(), 0, 2 * sizeof(unsigned long long), stream_.get())); }

  Tally finish(std::uint64_t rows, void* host_out) {
    unsigned long long host_tallies[2] = {0, 0};
    GS_CUDA_CHECK(cudaMemcpyAsync(host_out, out_.data(), rows * row_bytes_, cudaMemcpyDeviceToHost, stream_.get()));
    GS_CUDA_CHECK(
        cudaMemcpyAsync(host_tallies, tallies_.data(), sizeof(host_tallies), cudaMemcpyDeviceToHost, stream_.get()));
    GS_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return Tally{host_tallies[0], host_tallies[1]};
  }

 private:
  DeviceArray<unsigned char> out_;
  DeviceArray<unsigned long long> tallies_;
  std::uint64_t row_bytes_;
  int multiprocessors_;
  Stream stream_;
};

template <class Real, class Out>
class CudaStableGenerator final : public EnsembleGenerator {
 public:
  CudaStableGenerator(const EnsembleJob& job, std::uint64_t max_batch)
      : kernel_(make_stable_kernel<Real, Out>(job)), batch_(max_batch, job.spec->length * sizeof(Out)) {}

  Tally generate(std::uint64_t first, std::uint64_t count, void* out) override {
    StablePairsKernel<Real, Out> kernel = kernel_;
    kernel.first_replica = first;
    kernel.out = reinterpret_cast<Out*>(batch_.out());
    batch_.begin();
    cuda_for_each(count, kernel, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
    return batch_.finish(count, out);
  }

 private:
  StablePairsKernel<Real, Out> kernel_;
  CudaBatch batch_;
};

// Batched real FFTs for one LFSN ensemble, made once per batch size: D2Z of
// length L (rows of L doubles → rows of L/2 + 1), and Z2D of length M = L/m
// from the folded rows (M/2 + 1) back into the signal rows (stride L).
class CufftPlans {
 public:
  CufftPlans(std::uint64_t length, std::uint64_t inverse_length, cudaStream_t stream)
      : length_(length), inverse_length_(inverse_length), stream_(stream) {}
  CufftPlans(const CufftPlans&) = delete;
  CufftPlans& operator=(const CufftPlans&) = delete;
  ~CufftPlans() {
    for (auto& [batch, plans] : plans_) {
      cufftDestroy(plans.first);
      cufftDestroy(plans.second);
    }
  }

  std::pair<cufftHandle, cufftHandle> get(std::uint64_t batch) {
    const auto found = plans_.find(batch);
    if (found != plans_.end()) return found->second;
    long long n = static_cast<long long>(length_), n_half = n / 2 + 1;
    long long k = static_cast<long long>(inverse_length_), k_half = k / 2 + 1;
    std::size_t work = 0;
    cufftHandle forward, inverse;
    GS_CUFFT_CHECK(cufftCreate(&forward));
    GS_CUFFT_CHECK(cufftMakePlanMany64(forward, 1, &n, &n, 1, n, &n_half, 1, n_half, CUFFT_D2Z,
                                       static_cast<long long>(batch), &work));
    GS_CUFFT_CHECK(cufftCreate(&inverse));
    GS_CUFFT_CHECK(cufftMakePlanMany64(inverse, 1, &k, &k_half, 1, k_half, &n, 1, n, CUFFT_Z2D,
                                       static_cast<long long>(batch), &work));
    GS_CUFFT_CHECK(cufftSetStream(forward, stream_));
    GS_CUFFT_CHECK(cufftSetStream(inverse, stream_));
    return plans_.emplace(batch, std::make_pair(forward, inverse)).first->second;
  }

 private:
  std::uint64_t length_, inverse_length_;
  cudaStream_t stream_;
  std::map<std::uint64_t, std::pair<cufftHandle, cufftHandle>> plans_;
};

template <class Real, class Out>
class CudaLfsnGenerator final : public EnsembleGenerator {
 public:
  CudaLfsnGenerator(const EnsembleJob& job, std::uint64_t max_batch)
      : innovations_(make_lfsn_innovations_kernel<Real>(job)),
        fold_(make_spectrum_fold_kernel(job)),
        store_(make_lfsn_store_kernel<Out>(job)),
        batch_(max_batch, job.spec->length * sizeof(Out)),
        signal_(max_batch * job.lfsn->fft_length),
        spectra_(max_batch * (job.lfsn->fft_length / 2 + 1)),
        folded_(max_batch * (job.lfsn->inverse_length / 2 + 1)),
        kernel_spectrum_(job.lfsn->fft_length / 2 + 1),
        plans_(job.lfsn->fft_length, job.lfsn->inverse_length, batch_.stream()) {
    // The kernel's spectrum: computed once per ensemble (in double, on the host)
    // and shared by every replica and batch.
    const std::vector<Complex<double>> spectrum =
        CpuFftPair(job.lfsn->fft_length, job.lfsn->inverse_length).kernel_spectrum(job.lfsn->coefficients);
    GS_CUDA_CHECK(cudaMemcpy(kernel_spectrum_.data(), spectrum.data(), spectrum.size() * sizeof(Complex<double>),
                             cudaMemcpyHostToDevice));
    fold_.kernel = kernel_spectrum_.data();
    fold_.spectra = spectra_.data();
    fold_.folded = folded_.data();
  }

  Tally generate(std::uint64_t first, std::uint64_t count, void* out) override {
    const auto [forward, inverse] = plans_.get(count);
    batch_.begin();
    LfsnInnovationsKernel<Real> innovations = innovations_;
    innovations.first_replica = first;
    innovations.signal = signal_.data();
    cuda_for_each(count, innovations, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
    GS_CUFFT_CHECK(cufftExecD2Z(forward, signal_.data(), reinterpret_cast<cufftDoubleComplex*>(spectra_.data())));
    cuda_for_each(count, fold_, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
    GS_CUFFT_CHECK(cufftExecZ2D(inverse, reinterpret_cast<cufftDoubleComplex*>(folded_.data()), signal_.data()));
    LfsnStoreKernel<Out> store = store_;
    store.decimated = signal_.data();
    store.out = reinterpret_cast<Out*>(batch_.out());
    cuda_for_each(count, store, batch_.tallies(), batch_.multiprocessors(), batch_.stream());
    return batch_.finish(count, out);
  }

 private:
  LfsnInnovationsKernel<Real> innovations_;
  SpectrumFoldKernel fold_;
  LfsnStoreKernel<Out> store_;
  CudaBatch batch_;
  DeviceArray<double> signal_;
  DeviceArray<Complex<double>> spectra_;
  DeviceArray<Complex<double>> folded_;
  DeviceArray<Complex<double>> kernel_spectrum_;
  CufftPlans plans_;
};

class CudaBackend final : public BackendDevice {
 public:
  CudaBackend() {
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
    need.per_replica = job.spec->length * storage_bytes(job.storage);
    if (job.lfsn) {
      const std::uint64_t n = job.lfsn->fft_length, half = n / 2 + 1, folded = job.lfsn->inverse_length / 2 + 1;
      // signal + spectra + folded spectra + cuFFT's workspace (at most one more complex row).
      need.per_replica += n * sizeof(double) + (2 * half + folded) * sizeof(Complex<double>);
      need.fixed = half * sizeof(Complex<double>);
    }
    return need;
  }

  HostBuffer host_buffer(std::size_t bytes) const override {
    void* data = nullptr;
    GS_CUDA_CHECK(cudaMallocHost(&data, bytes));
    return HostBuffer(static_cast<unsigned char*>(data), [](unsigned char* p) { cudaFreeHost(p); });
  }

  std::unique_ptr<EnsembleGenerator> make_generator(const EnsembleJob& job, std::uint64_t max_batch) override {
    return with_value_types(job, [&](auto real, auto out) -> std::unique_ptr<EnsembleGenerator> {
      using Real = decltype(real);
      using Out = decltype(out);
      if (job.lfsn) return std::make_unique<CudaLfsnGenerator<Real, Out>>(job, max_batch);
      return std::make_unique<CudaStableGenerator<Real, Out>>(job, max_batch);
    });
  }

 private:
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

std::unique_ptr<BackendDevice> make_cuda_backend() {
  std::string why;
  if (cuda_device_count(&why) == 0) throw UserError("no CUDA device is usable: " + why);
  return std::make_unique<CudaBackend>();
}

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
