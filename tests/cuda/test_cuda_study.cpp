// A study's device-side pieces called directly, against the host's: the Hurst
// estimates (host/engine/cuda/cuda_hurst.cu against estimators/hurst.cpp, the formulas
// of kernels/hurst.hpp on both sides) and the bootstrap resamples
// (cuda_bootstrap.cu against CpuResampler, bit for bit). Built with the CUDA
// backend only; skipped, with the reason, without a device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "estimators/bootstrap.hpp"
#include "estimators/hurst.hpp"
#include "host/engine/cuda/cuda_bootstrap.hpp"
#include "host/engine/cuda/cuda_hurst.hpp"
#include "kernels/philox.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

void check(cudaError_t status) { ASSERT_EQ(status, cudaSuccess) << cudaGetErrorString(status); }

// H − reference of each row on the device, written at stride 2 into a buffer
// prefilled with a sentinel that the odd slots must keep.
template <class T>
std::vector<double> device_estimates(HurstMethod method, StorageType storage, const std::vector<T>& rows,
                                     std::uint64_t n, double reference) {
  const std::uint64_t count = rows.size() / n;
  constexpr double kSentinel = -7;
  void* device_rows = nullptr;
  double* device_out = nullptr;
  check(cudaMalloc(&device_rows, rows.size() * sizeof(T)));
  check(cudaMalloc(&device_out, 2 * count * sizeof(double)));
  check(cudaMemcpy(device_rows, rows.data(), rows.size() * sizeof(T), cudaMemcpyHostToDevice));
  std::vector<double> out(2 * count, kSentinel);
  check(cudaMemcpy(device_out, out.data(), out.size() * sizeof(double), cudaMemcpyHostToDevice));
  make_device_hurst(method, storage, n, count, nullptr)->estimate(device_rows, count, device_out, 2, reference);
  check(cudaDeviceSynchronize());
  check(cudaMemcpy(out.data(), device_out, out.size() * sizeof(double), cudaMemcpyDeviceToHost));
  cudaFree(device_rows);
  cudaFree(device_out);
  std::vector<double> H(count);
  for (std::uint64_t r = 0; r < count; ++r) {
    EXPECT_EQ(out[2 * r + 1], kSentinel) << "row " << r << " wrote outside its slot";
    H[r] = out[2 * r] + reference;
  }
  return H;
}

template <class T>
std::vector<double> host_estimates(HurstEstimator estimator, const std::vector<T>& rows, std::uint64_t n) {
  std::vector<double> H(rows.size() / n);
  for (std::size_t r = 0; r < H.size(); ++r)
    H[r] = estimator(std::vector<double>(rows.begin() + r * n, rows.begin() + (r + 1) * n)).H;
  return H;
}

// The plot estimators run the same loops in the same order (differences: the
// device's libm and fused multiply–adds, ~1e-15); the Whittle ones stop Brent
// within 2^-29 of a minimum whose objective is summed in another order.
double tolerance(HurstMethod method) {
  return method == HurstMethod::whittle || method == HurstMethod::local_whittle ? 1e-6 : 1e-9;
}

template <class T>
void expect_match(const std::vector<T>& rows, std::uint64_t n, StorageType storage, const char* what) {
  for (const NamedHurstEstimator& e : hurst_estimators()) {
    const std::vector<double> host = host_estimates(e.estimate, rows, n);
    const std::vector<double> device = device_estimates(e.method, storage, rows, n, 0.25);
    for (std::size_t r = 0; r < host.size(); ++r) {
      if (std::isnan(host[r])) {
        EXPECT_TRUE(std::isnan(device[r])) << e.key << " on " << what << ", row " << r;
        continue;
      }
      EXPECT_NEAR(device[r], host[r], tolerance(e.method)) << e.key << " on " << what << ", row " << r;
    }
  }
}

TEST(CudaHurst, EveryEstimatorMatchesTheHostOnEachStorageType) {
  GS_REQUIRE_CUDA_DEVICE();
  constexpr std::uint64_t kReplicas = 24, kLength = 4096;
  const std::vector<double> noise = test::generate_float64("fgn", "{H: 0.75}", kReplicas, kLength, 41);
  expect_match(noise, kLength, StorageType::float64, "fGn, float64");

  const std::vector<double> stable =
      test::generate_float64("lfsn", "{alpha: 1.5, beta: 0, H: 0.8, m: 8, K: 512}", kReplicas, kLength, 42);
  expect_match(std::vector<float>(stable.begin(), stable.end()), kLength, StorageType::float32, "LFSN, float32");

  // Integer counts: ties and zero wavelet coefficients, as arrival counts have.
  std::vector<std::uint32_t> counts(noise.size());
  for (std::size_t i = 0; i < noise.size(); ++i)
    counts[i] = static_cast<std::uint32_t>(std::max(0.0, 3 + 2 * noise[i]));
  expect_match(counts, kLength, StorageType::uint32, "counts, uint32");
}

TEST(CudaHurst, ShortAndConstantRowsGiveNaN) {
  GS_REQUIRE_CUDA_DEVICE();
  for (const NamedHurstEstimator& e : hurst_estimators()) {
    for (const double H : device_estimates(e.method, StorageType::float64, std::vector<double>(3 * 30, 1.0), 30, 0))
      EXPECT_TRUE(std::isnan(H)) << e.key << ": too short";
    for (const double H : device_estimates(e.method, StorageType::float64, std::vector<double>(3 * 512, 2.0), 512, 0))
      EXPECT_TRUE(std::isnan(H)) << e.key << ": constant";
  }
}

// Rows of 10^6 values: the periodograms' workspace holds 26 rows, so 40 rows
// go through in two chunks. (Not 2^20: there m = ⌊n^0.65⌋ sits on 2^13, where
// the host's and the device's pow may round to different sides.)
TEST(CudaHurst, LongRowsGoThroughInChunks) {
  GS_REQUIRE_CUDA_DEVICE();
  constexpr std::uint64_t kReplicas = 40, kLength = 1000000;
  const std::vector<double> noise = test::generate_float64("fgn", "{H: 0.6}", kReplicas, kLength, 43);
  const std::vector<float> rows(noise.begin(), noise.end());
  const std::vector<double> host = host_estimates(hurst_local_whittle, rows, kLength);
  const std::vector<double> device =
      device_estimates(HurstMethod::local_whittle, StorageType::float32, rows, kLength, 0.0);
  for (std::size_t r = 0; r < kReplicas; ++r) EXPECT_NEAR(device[r], host[r], 1e-6) << "row " << r;
}

// The same Philox indices and the same selection or integer sums: the device's
// bootstrap statistics equal the CPU's exactly, for odd and even counts, with
// ties, and over several chunks of resamples (2^20 values: 128 per chunk).
TEST(CudaBootstrap, ResamplesEqualTheCpusToTheBit) {
  GS_REQUIRE_CUDA_DEVICE();
  CpuResampler cpu;
  const std::unique_ptr<Resampler> gpu = make_cuda_resampler();
  for (const std::uint64_t n : {std::uint64_t{999}, std::uint64_t{1000}, std::uint64_t{1} << 20}) {
    std::vector<double> a(n), b(n / 2 + 3);
    for (std::uint64_t i = 0; i < a.size(); ++i) a[i] = std::floor(50 * uniform_open(philox_bits({5, 1}, 0, i, 0)[0]));
    for (std::uint64_t i = 0; i < b.size(); ++i) b[i] = std::floor(60 * uniform_open(philox_bits({5, 2}, 0, i, 0)[0]));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const std::uint32_t resamples = n > 100000 ? 300 : 2000;
    const RngStreamKey key{77, 3};
    EXPECT_EQ(gpu->medians(a, resamples, key), cpu.medians(a, resamples, key)) << "n " << n;
    EXPECT_EQ(gpu->probabilities_below(a, b, resamples, key), cpu.probabilities_below(a, b, resamples, key))
        << "n " << n;
  }
}

}  // namespace
}  // namespace gs
