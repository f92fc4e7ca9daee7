// Probe: where does the float32 stable kernel lose its bandwidth? Variants of
// index width, store width, block size, compile-time Gaussian branch, and
// -use_fast_math; medians of 15 timed runs after 2 warm-ups (CUDA events).
#include <curand.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>
#include <cstring>
#include "variants.cuh"
namespace accurate { void run_all(double, std::uint64_t, std::uint64_t, float*, unsigned long long*, int, int); }
namespace fast { void run_all(double, std::uint64_t, std::uint64_t, float*, unsigned long long*, int, int); }

static double median_ms(const std::function<void()>& work, int repeats = 15) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 2; ++i) work();
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    cudaEventRecord(a); work(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  GS_CUDA_CHECK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  cudaDeviceProp prop{}; cudaGetDeviceProperties(&prop, 0);
  const int sms = prop.multiProcessorCount;
  const std::uint64_t n = 1ull << 30;
  float *buf, *ref; unsigned long long* tallies;
  GS_CUDA_CHECK(cudaMalloc(&buf, n * 4)); GS_CUDA_CHECK(cudaMalloc(&ref, (1ull << 26) * 4));
  GS_CUDA_CHECK(cudaMalloc(&tallies, 16));
  const double memset_ms = median_ms([&] { cudaMemsetAsync(buf, 0x3f, n * 4); });
  std::printf("device %s; write roofline %.3f ms for 4 B x 2^30 (%.0f GB/s)\n", prop.name, memset_ms, n * 4 / memset_ms / 1e6);
  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  const double cur = median_ms([&] { curandGenerateNormal(g, buf, n, 0, 1); });
  std::printf("%-58s %8.3f ms %6.1f%%\n", "curandGenerateNormal", cur, 100 * memset_ms / cur);
  const char* names[] = {"engine law, engine launcher (64-bit index)", "engine law, 32-bit index + float2 store",
                         "Gaussian only, engine launcher", "Gaussian only, 32-bit index + float2",
                         "engine law, 32-bit + float2, 512 threads", "engine law, 32-bit + float2, 128 threads"};
  struct Shape { std::uint64_t rows, length; const char* label; };
  const Shape shapes[] = {{1, n, "1 x 2^30"}, {1024, 1ull << 20, "1024 x 2^20"}};
  for (double alpha : {2.0, 1.5}) {
    for (const Shape& s : shapes) {
      for (int v = 0; v < 6; ++v) {
        if (alpha != 2 && (v == 2 || v == 3)) continue;
        const double a = median_ms([&] { accurate::run_all(alpha, s.rows, s.length, buf, tallies, sms, v); });
        std::printf("a=%.1f %-11s %-46s %8.3f ms %6.1f%%\n", alpha, s.label, names[v], a, 100 * memset_ms / a);
        if (v == 1 || v == 3 || v == 0) {
          const double f = median_ms([&] { fast::run_all(alpha, s.rows, s.length, buf, tallies, sms, v); });
          std::printf("a=%.1f %-11s %-46s %8.3f ms %6.1f%%  (-use_fast_math)\n", alpha, s.label, names[v], f,
                      100 * memset_ms / f);
        }
      }
    }
  }
  // Bits: every accurate variant against variant 0, on 8 rows of odd and even length.
  for (double alpha : {2.0, 1.5}) for (std::uint64_t len : {(1ull << 22) + 1, 1ull << 22}) {
    const std::uint64_t rows = 8, total = rows * len;
    std::vector<float> r0(total), r1(total);
    accurate::run_all(alpha, rows, len, ref, tallies, sms, 0);
    cudaMemcpy(r0.data(), ref, total * 4, cudaMemcpyDeviceToHost);
    for (int v = 1; v < 6; ++v) {
      if (alpha != 2 && (v == 2 || v == 3)) continue;
      cudaMemset(ref, 0xff, total * 4);
      accurate::run_all(alpha, rows, len, ref, tallies, sms, v);
      cudaMemcpy(r1.data(), ref, total * 4, cudaMemcpyDeviceToHost);
      std::uint64_t diff = 0; for (std::uint64_t i = 0; i < total; ++i) diff += std::memcmp(&r0[i], &r1[i], 4) != 0;
      std::printf("bits a=%.1f length %llu variant %d: %llu of %llu differ\n", alpha, (unsigned long long)len, v,
                  (unsigned long long)diff, (unsigned long long)total);
    }
    cudaMemset(ref, 0xff, total * 4);
    fast::run_all(alpha, rows, len, ref, tallies, sms, 1);
    cudaMemcpy(r1.data(), ref, total * 4, cudaMemcpyDeviceToHost);
    double worst = 0; std::uint64_t nonfinite = 0;
    for (std::uint64_t i = 0; i < total; ++i) {
      if (!std::isfinite(r1[i])) { ++nonfinite; continue; }
      worst = std::max(worst, std::fabs(double(r1[i]) - r0[i]) / std::max(1e-30, std::fabs(double(r0[i]))));
    }
    std::printf("fast vs accurate a=%.1f length %llu: largest relative difference %.3g, non-finite %llu\n", alpha,
                (unsigned long long)len, worst, (unsigned long long)nonfinite);
  }
  return 0;
}
