// GPU benchmark, one run (CUDA events, median of repetitions after warm-up):
//   the device's write bandwidth (cudaMemset) and copy bandwidth (read + write),
//   cuRAND's curandGenerateNormal (Philox, float) as the reference generator,
//   the fused α-stable kernel (draw, CMS, store) in samples/s and bytes/s, and
//   LFSN samples/s against the bare cuFFT D2Z + Z2D of the same batch,
//   fGn against the bare cuFFT Z2D of its batch, its ziggurat noise beside the
//   Box–Muller noise of the streams before version 6, and
//   the study's Hurst estimates per estimator and its bootstrap resamples
//   against the host's.
// Run: build/bench/bench_cuda [log2 samples, default 30]
#include <cuda_runtime.h>
#include <cufft.h>
#include <curand.h>
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "bootstrap_sample.hpp"
#include "estimators/bootstrap.hpp"
#include "estimators/hurst.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/cuda/cuda_bootstrap.hpp"
#include "host/engine/cuda/cuda_hurst.hpp"
#include "host/engine/spectral_steps.hpp"
#include "host/models/model.hpp"
#include "kernels/cuda/check.hpp"
#include "kernels/cuda/launch.cuh"
#include "kernels/gaussian.hpp"

namespace {

using gs::StorageType;

// Median milliseconds of `repeats` runs of `work` after two warm-ups.
double median_ms(const std::function<void()>& work, int repeats = 15) {
  cudaEvent_t start, stop;
  GS_CUDA_CHECK(cudaEventCreate(&start));
  GS_CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 2; ++i) work();
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    GS_CUDA_CHECK(cudaEventRecord(start));
    work();
    GS_CUDA_CHECK(cudaEventRecord(stop));
    GS_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    GS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct StableCase {
  const char* label;
  double alpha, beta;
  const char* parameterization;
  gs::Dtype dtype;
  gs::ValueKind values;
};

gs::EnsembleSpec stable_spec(const StableCase& c, std::uint64_t length) {
  gs::EnsembleSpec spec;
  spec.name = "bench";
  spec.model = gs::make_model(
      "stable", fmt::format("{{alpha: {}, beta: {}, parameterization: {}}}", c.alpha, c.beta, c.parameterization));
  spec.dtype = c.dtype;
  spec.values = c.values;
  spec.workload = gs::WorkloadMapping{2.0, 10.0};
  spec.replicas = 1;
  spec.length = length;
  return spec;
}

// A spectral model's batch of `replicas` rows of `length` values (float32).
gs::EnsembleSpec spectral_spec(const char* name, const char* model, const char* params, std::uint64_t length,
                               std::uint64_t replicas, std::uint32_t stream) {
  gs::EnsembleSpec spec;
  spec.name = name;
  spec.model = gs::make_model(model, params);
  spec.length = length;
  spec.replicas = replicas;
  spec.stream = stream;
  return spec;
}

// The cost floor of any sampler that needs two uniforms per value: one
// Philox4x32-10 call per two values, stored as float.
struct PhiloxFloorKernel {
  gs::RngStreamKey key;
  std::uint64_t pairs = 0;
  float* out = nullptr;
  GS_HD std::uint64_t columns() const { return pairs; }
  GS_HD void operator()(std::uint64_t, std::uint64_t j, gs::StoreTally&) const {
    const gs::PhiloxBits bits = gs::philox_bits(key, 0, j, 0);
    out[2 * j] = static_cast<float>(bits[0] ^ bits[1]);
    out[2 * j + 1] = static_cast<float>(bits[2] ^ bits[3]);
  }
};

// The circulant noise as streams before version 6 drew it (Box–Muller from
// words 0-1 and 2 of the frequency's call), for the ziggurat's device time.
struct BoxMullerNoiseKernel {
  gs::CirculantNoiseKernel noise;
  GS_HD std::uint64_t columns() const { return noise.columns(); }
  GS_HD void operator()(std::uint64_t row, std::uint64_t j, gs::StoreTally&) const {
    const gs::PhiloxBits bits = gs::philox_bits(noise.key, noise.replica_of(row), j, gs::CirculantNoiseKernel::kDraw);
    const gs::ValuePair<double> w = gs::normal_pair<double>(bits[0], bits[1], bits[2]);
    noise.put(row, j, w.first, w.second);
  }
};

// The model's direct kernel through the launcher the engine uses (`fast`:
// precision fast's, kernels/fast_math.hpp).
double time_stable(const gs::EnsembleJob& job, void* device_out, unsigned long long* tallies, int sms, bool fast) {
  const gs::DirectKernel& kernel = *job.generation.direct;
  const gs::CudaDirectLaunch launch = kernel.cuda_launch(fast);
  return median_ms([&] { launch(kernel.data(), 0, 1, device_out, nullptr, nullptr, tallies, sms, nullptr); });
}

}  // namespace

// fGn (H = 0.8) at 4096 bins, a batch of 4096 replicas: the whole batch
// against the bare cuFFT Z2D of its rows (issue 60's ratio, as bench_cpu
// states it for FFTW), and its noise kernel by the ziggurat and by Box–Muller.
void time_fgn(unsigned long long* tallies, int sms) {
  const gs::EnsembleSpec spec = spectral_spec("bench-fgn", "fgn", "{H: 0.8}", 4096, 4096, 3);
  const gs::EnsembleJob job = gs::make_job(spec, 42);
  const gs::SpectralPlan& plan = *job.generation.spectral;
  const std::uint64_t rows = spec.replicas, M = plan.inverse_length, half = M / 2 + 1;
  auto backend = gs::make_cuda_backend(gs::ExecutionContext{});
  auto generator = backend->make_generator(job, rows);
  // Into page-locked memory, as the engine's batches go (a pageable vector
  // doubled the batch's time on an H200, bench/results/2026-11-30-h200).
  const std::size_t out_bytes = rows * spec.length * sizeof(float);
  const gs::HostBuffer pinned = backend->host_buffer(out_bytes);
  const double batch_ms = median_ms([&] { generator->generate(0, rows, pinned.get()); }, 7);
  double* signal = nullptr;
  double* amplitudes = nullptr;
  cufftDoubleComplex* spectra = nullptr;
  GS_CUDA_CHECK(cudaMalloc(&signal, rows * plan.fft_length * sizeof(double)));
  GS_CUDA_CHECK(cudaMalloc(&spectra, rows * half * sizeof(cufftDoubleComplex)));
  GS_CUDA_CHECK(cudaMalloc(&amplitudes, plan.amplitudes.size() * sizeof(double)));
  GS_CUDA_CHECK(
      cudaMemcpy(amplitudes, plan.amplitudes.data(), plan.amplitudes.size() * sizeof(double), cudaMemcpyHostToDevice));
  GS_CUDA_CHECK(cudaMemset(spectra, 0, rows * half * sizeof(cufftDoubleComplex)));
  cufftHandle inverse;
  int size = static_cast<int>(M);
  GS_CUFFT_CHECK(cufftPlanMany(&inverse, 1, &size, nullptr, 1, half, nullptr, 1, static_cast<int>(plan.fft_length),
                               CUFFT_Z2D, rows));
  const double fft_ms = median_ms([&] { GS_CUFFT_CHECK(cufftExecZ2D(inverse, spectra, signal)); });
  gs::CirculantNoiseKernel noise = gs::make_circulant_noise_kernel(job);
  noise.amplitude = amplitudes;
  noise.folded = reinterpret_cast<gs::Complex<double>*>(spectra);
  const double ziggurat_ms = median_ms([&] { gs::cuda_for_each(rows, noise, tallies, sms, nullptr); });
  const double box_muller_ms =
      median_ms([&] { gs::cuda_for_each(rows, BoxMullerNoiseKernel{noise}, tallies, sms, nullptr); });
  const double copy_back_ms =
      median_ms([&] { GS_CUDA_CHECK(cudaMemcpy(pinned.get(), signal, out_bytes, cudaMemcpyDeviceToHost)); });
  const double frequencies = static_cast<double>(rows * half);
  std::printf("\nfGn H=0.8, 4096 bins, %llu replicas per batch, inverse FFT length %llu (double)\n",
              static_cast<unsigned long long>(rows), static_cast<unsigned long long>(M));
  std::printf("%-52s %10.3f ms  %8.3g output samples/s\n", "  whole batch (generate() into page-locked memory)",
              batch_ms, rows * spec.length / batch_ms * 1e3);
  std::printf("%-52s %10.3f ms  (%.0f%% of the batch)\n", "  copy of the batch's output to page-locked host memory",
              copy_back_ms, 100 * copy_back_ms / batch_ms);
  std::printf("%-52s %10.3f ms  (%.0f%% of the batch)\n", "  bare cuFFT Z2D (M) of the batch", fft_ms,
              100 * fft_ms / batch_ms);
  std::printf("%-52s %10.3f ms  (%.0f%% of the batch; %.3g frequencies/s)\n", "  noise kernel, ziggurat (stream 6)",
              ziggurat_ms, 100 * ziggurat_ms / batch_ms, frequencies / ziggurat_ms * 1e3);
  std::printf("%-52s %10.3f ms  (%.3g frequencies/s; ziggurat %.2fx its speed)\n",
              "  noise kernel, Box-Muller (streams before 6)", box_muller_ms, frequencies / box_muller_ms * 1e3,
              box_muller_ms / ziggurat_ms);
  std::printf("%-52s %10.2f x\n", "  batch time / its bare FFT time", batch_ms / fft_ms);
  std::printf("%-52s %10.2f x\n", "  (batch time - copy to host) / its bare FFT time",
              (batch_ms - copy_back_ms) / fft_ms);
  cufftDestroy(inverse);
  cudaFree(signal);
  cudaFree(spectra);
  cudaFree(amplitudes);
}

// A study's hurst metric: every estimator over 1000 replicas of 7201 values
// (the cloudphysics trace's length), float32, on the device (cuda_hurst.cu)
// and on every host core (estimators/hurst.cpp, OpenMP over replicas).
void time_hurst() {
  constexpr std::uint64_t kReplicas = 1000, kLength = 7201;
  std::vector<float> rows(kReplicas * kLength);
  std::uint64_t state = 88172645463325252ull;  // xorshift64: AR(1) noise, any series will do
  float ar = 0;
  for (float& v : rows) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    ar = 0.6f * ar + static_cast<float>(static_cast<double>(state >> 11) * 0x1.0p-53 - 0.5);
    v = ar;
  }
  float* device_rows = nullptr;
  double* device_out = nullptr;
  GS_CUDA_CHECK(cudaMalloc(&device_rows, rows.size() * sizeof(float)));
  GS_CUDA_CHECK(cudaMalloc(&device_out, kReplicas * sizeof(double)));
  GS_CUDA_CHECK(cudaMemcpy(device_rows, rows.data(), rows.size() * sizeof(float), cudaMemcpyHostToDevice));
  std::printf("\nHurst estimates, %llu replicas x %llu float32 values (host: %d threads)\n",
              static_cast<unsigned long long>(kReplicas), static_cast<unsigned long long>(kLength),
              omp_get_max_threads());
  for (const gs::NamedHurstEstimator& e : gs::hurst_estimators()) {
    auto hurst = gs::make_device_hurst(e.method, StorageType::float32, kLength, kReplicas, nullptr);
    const bool whittle = e.method == gs::HurstMethod::whittle;
    const double device_ms =
        median_ms([&] { hurst->estimate(device_rows, kReplicas, device_out, 1, 0.0); }, whittle ? 3 : 15);
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic)
    for (std::uint64_t r = 0; r < kReplicas; ++r)
      e.estimate(std::vector<double>(rows.begin() + r * kLength, rows.begin() + (r + 1) * kLength));
    const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("  %-14s device %10.3f ms  host %10.1f ms  %8.1f x\n", e.key, device_ms, host_ms, host_ms / device_ms);
  }
  cudaFree(device_rows);
  cudaFree(device_out);
}

// A study's bootstrap: 2000 resamples of 1000 per-replica values (medians) and
// of two such sets (paired probabilities), on the device and on every host
// core; the two must agree to the bit.
void time_bootstrap() {
  const BootstrapSample sample = bootstrap_sample();
  const std::vector<double>& a = sample.a;
  const std::vector<double>& b = sample.b;
  const gs::RngStreamKey key{9, 9};
  gs::CpuResampler cpu;
  const std::unique_ptr<gs::Resampler> gpu = gs::make_cuda_resampler();
  const auto wall_ms = [](const std::function<void()>& work) {
    work();  // warm-up
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 10; ++i) work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / 10;
  };
  std::printf("\nBootstrap, 2000 resamples of 1000 values (host: %d threads; wall time, including transfers)\n",
              omp_get_max_threads());
  const double cpu_medians = wall_ms([&] { cpu.medians(a, 2000, key); });
  const double gpu_medians = wall_ms([&] { gpu->medians(a, 2000, key); });
  const double cpu_pairs = wall_ms([&] { cpu.probabilities_below(a, b, 2000, key); });
  const double gpu_pairs = wall_ms([&] { gpu->probabilities_below(a, b, 2000, key); });
  const bool same = cpu.medians(a, 2000, key) == gpu->medians(a, 2000, key) &&
                    cpu.probabilities_below(a, b, 2000, key) == gpu->probabilities_below(a, b, 2000, key);
  std::printf("  %-14s device %10.3f ms  host %10.3f ms  %8.1f x\n", "medians", gpu_medians, cpu_medians,
              cpu_medians / gpu_medians);
  std::printf("  %-14s device %10.3f ms  host %10.3f ms  %8.1f x\n", "P(A < B)", gpu_pairs, cpu_pairs,
              cpu_pairs / gpu_pairs);
  std::printf("  device and host results identical: %s\n", same ? "yes" : "NO");
}

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 30;
  const std::uint64_t n = std::uint64_t{1} << log2n;
  cudaDeviceProp prop{};
  GS_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("device: %s, sm_%d%d, %d SMs, %.1f GiB\n", prop.name, prop.major, prop.minor, sms,
              prop.totalGlobalMem / 1073741824.0);
  std::printf("samples per measurement: 2^%d = %llu\n\n", log2n, static_cast<unsigned long long>(n));

  // 8 bytes per sample covers float64 output; float32 and uint32 use half.
  void* buffer = nullptr;
  void* second = nullptr;
  GS_CUDA_CHECK(cudaMalloc(&buffer, n * 8));
  GS_CUDA_CHECK(cudaMalloc(&second, n * 4));
  unsigned long long* tallies = nullptr;
  GS_CUDA_CHECK(cudaMalloc(&tallies, 2 * sizeof(unsigned long long)));

  const double bytes4 = static_cast<double>(n) * 4;
  const double memset_ms = median_ms([&] { GS_CUDA_CHECK(cudaMemsetAsync(buffer, 0x3f, n * 4)); });
  const double write_gbs = bytes4 / memset_ms / 1e6;
  const double copy_ms =
      median_ms([&] { GS_CUDA_CHECK(cudaMemcpyAsync(second, buffer, n * 4, cudaMemcpyDeviceToDevice)); });
  std::printf("%-52s %10.3f ms  %8.1f GB/s written\n", "cudaMemset (write roofline), 4 B x n", memset_ms, write_gbs);
  std::printf("%-52s %10.3f ms  %8.1f GB/s read+written\n", "cudaMemcpy device-to-device, 4 B x n", copy_ms,
              2 * bytes4 / copy_ms / 1e6);

  curandGenerator_t curand;
  if (curandCreateGenerator(&curand, CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS) return 1;
  curandSetPseudoRandomGeneratorSeed(curand, 42);
  const double curand_ms = median_ms([&] { curandGenerateNormal(curand, static_cast<float*>(buffer), n, 0.0f, 1.0f); });
  std::printf("%-52s %10.3f ms  %8.3g samples/s  %5.1f%% of write roofline\n",
              "curandGenerateNormal float (Philox4x32-10)", curand_ms, n / curand_ms * 1e3,
              100 * (bytes4 / curand_ms / 1e6) / write_gbs);
  curandDestroyGenerator(curand);
  const PhiloxFloorKernel floor_kernel{gs::RngStreamKey{42, 1}, n / 2, static_cast<float*>(buffer)};
  const double floor_ms = median_ms([&] { gs::cuda_for_each(1, floor_kernel, tallies, sms, nullptr); });
  std::printf("%-52s %10.3f ms  %8.3g samples/s  %5.1f%% of write roofline\n",
              "Philox4x32-10 alone, 2 words per float (RNG floor)", floor_ms, n / floor_ms * 1e3,
              100 * (bytes4 / floor_ms / 1e6) / write_gbs);
  std::printf("\n");

  const StableCase cases[] = {
      {"stable a=1.5 b=0.5 S1, float32 real", 1.5, 0.5, "S1", gs::Dtype::float32, gs::ValueKind::real},
      {"stable a=0.7 b=1 S1, float32 real", 0.7, 1.0, "S1", gs::Dtype::float32, gs::ValueKind::real},
      {"stable a=1.0001 b=0.5 S0 (near-1 form), float32", 1.0001, 0.5, "S0", gs::Dtype::float32, gs::ValueKind::real},
      {"stable a=1 b=0.5, float32 real", 1.0, 0.5, "S1", gs::Dtype::float32, gs::ValueKind::real},
      {"stable a=2 (Gaussian), float32 real", 2.0, 0.0, "S1", gs::Dtype::float32, gs::ValueKind::real},
      {"stable a=1.5 b=0.5 S1, uint32 counts", 1.5, 0.5, "S1", gs::Dtype::float32, gs::ValueKind::counts},
      {"stable a=1.5 b=0.5 S1, float64 real", 1.5, 0.5, "S1", gs::Dtype::float64, gs::ValueKind::real},
  };
  for (const StableCase& c : cases) {
    gs::EnsembleSpec spec = stable_spec(c, n);
    spec.stream = 1;
    const gs::EnsembleJob job = gs::make_job(spec, 42);
    const double bytes = static_cast<double>(n) * gs::storage_bytes(job.request.storage);
    const bool has_fast = job.generation.direct->cuda_launch(true) != job.generation.direct->cuda_launch();
    for (bool fast : {false, true}) {
      if (fast && !has_fast) continue;
      const double ms = time_stable(job, buffer, tallies, sms, fast);
      std::printf("%-52s %10.3f ms  %8.3g samples/s  %5.1f%% of write roofline\n",
                  fmt::format("{}{}", c.label, fast ? ", precision fast" : "").c_str(), ms, n / ms * 1e3,
                  100 * (bytes / ms / 1e6) / write_gbs);
    }
  }
  std::printf("\n");

  // LFSN with the quickstart's parameters, in batches of 256 replicas.
  const gs::EnsembleSpec lfsn =
      spectral_spec("bench-lfsn", "lfsn", "{alpha: 1.5, beta: 0.5, H: 0.8, m: 16, K: 256}", 4096, 256, 2);
  const gs::EnsembleJob job = gs::make_job(lfsn, 42);
  const gs::SpectralPlan& plan = *job.generation.spectral;
  const std::uint64_t L = plan.fft_length, half = L / 2 + 1, rows = lfsn.replicas;
  auto backend = gs::make_cuda_backend(gs::ExecutionContext{});
  auto generator = backend->make_generator(job, rows);
  std::vector<float> host(rows * lfsn.length);
  const double lfsn_ms = median_ms([&] { generator->generate(0, rows, host.data()); }, 7);
  // The bare FFTs the batch makes: D2Z of length L, Z2D of length M = L/m
  // (and, for reference, the full-length Z2D of a convolution kept whole).
  const std::uint64_t M = plan.inverse_length, m_half = M / 2 + 1;
  double* signal = nullptr;
  cufftDoubleComplex* spectra = nullptr;
  GS_CUDA_CHECK(cudaMalloc(&signal, rows * L * sizeof(double)));
  GS_CUDA_CHECK(cudaMalloc(&spectra, rows * half * sizeof(cufftDoubleComplex)));
  GS_CUDA_CHECK(cudaMemset(signal, 0, rows * L * sizeof(double)));
  GS_CUDA_CHECK(cudaMemset(spectra, 0, rows * half * sizeof(cufftDoubleComplex)));
  cufftHandle forward, inverse, full_inverse;
  int size = static_cast<int>(L), inverse_size = static_cast<int>(M);
  GS_CUFFT_CHECK(cufftPlanMany(&forward, 1, &size, nullptr, 1, size, nullptr, 1, half, CUFFT_D2Z, rows));
  GS_CUFFT_CHECK(
      cufftPlanMany(&inverse, 1, &inverse_size, nullptr, 1, m_half, nullptr, 1, inverse_size, CUFFT_Z2D, rows));
  GS_CUFFT_CHECK(cufftPlanMany(&full_inverse, 1, &size, nullptr, 1, half, nullptr, 1, size, CUFFT_Z2D, rows));
  const double fft_ms = median_ms([&] {
    GS_CUFFT_CHECK(cufftExecD2Z(forward, signal, spectra));
    GS_CUFFT_CHECK(cufftExecZ2D(inverse, spectra, signal));
  });
  const double full_fft_ms = median_ms([&] {
    GS_CUFFT_CHECK(cufftExecD2Z(forward, signal, spectra));
    GS_CUFFT_CHECK(cufftExecZ2D(full_inverse, spectra, signal));
  });
  auto innovations = gs::make_innovations_kernel<float>(job);
  innovations.signal = signal;
  const double innovations_ms = median_ms([&] { gs::cuda_for_each(rows, innovations, tallies, sms, nullptr); });
  const double fast_innovations_ms = median_ms([&] {
    gs::cuda_for_each(rows, gs::WithFastMath<gs::InnovationsKernel<float>>{innovations}, tallies, sms, nullptr);
  });
  std::printf(
      "LFSN a=1.5 b=0.5 H=0.8 m=16 K=256, 4096 bins, %llu replicas per batch, FFT length %llu, inverse %llu "
      "(double)\n",
      static_cast<unsigned long long>(rows), static_cast<unsigned long long>(L), static_cast<unsigned long long>(M));
  std::printf("%-52s %10.3f ms  %8.3g output samples/s\n", "  whole batch (generate(), incl. copy to host)", lfsn_ms,
              rows * lfsn.length / lfsn_ms * 1e3);
  const gs::HostBuffer pinned = backend->host_buffer(host.size() * sizeof(float));
  const double copy_back_ms = median_ms(
      [&] { GS_CUDA_CHECK(cudaMemcpy(pinned.get(), buffer, host.size() * sizeof(float), cudaMemcpyDeviceToHost)); });
  std::printf("%-52s %10.3f ms  (%.0f%% of the batch)\n", "  copy of the batch's output to page-locked host memory",
              copy_back_ms, 100 * copy_back_ms / lfsn_ms);
  std::printf("%-52s %10.3f ms  (%.0f%% of the batch)\n", "  bare cuFFT D2Z (L) + Z2D (L/m) of the batch", fft_ms,
              100 * fft_ms / lfsn_ms);
  std::printf("%-52s %10.3f ms  (full-length inverse, for reference)\n", "  bare cuFFT D2Z (L) + Z2D (L)", full_fft_ms);
  std::printf("%-52s %10.3f ms  (%.0f%% of the batch; %.3g innovations/s)\n", "  innovations kernel (1 CMS per point)",
              innovations_ms, 100 * innovations_ms / lfsn_ms, rows * L / innovations_ms * 1e3);
  std::printf("%-52s %10.3f ms  (%.3g innovations/s)\n", "  the same with precision fast", fast_innovations_ms,
              rows * L / fast_innovations_ms * 1e3);
  std::printf("%-52s %10.2f x\n", "  batch time / its bare FFT time", lfsn_ms / fft_ms);
  std::printf("%-52s %10.2f x\n", "  batch time / bare full-length D2Z + Z2D", lfsn_ms / full_fft_ms);
  time_fgn(tallies, sms);
  time_hurst();
  time_bootstrap();
  cufftDestroy(forward);
  cufftDestroy(inverse);
  cufftDestroy(full_inverse);
  cudaFree(signal);
  cudaFree(spectra);
  cudaFree(buffer);
  cudaFree(second);
  cudaFree(tallies);
  return 0;
}
