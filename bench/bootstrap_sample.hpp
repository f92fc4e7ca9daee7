// The per-replica values the bootstrap benchmarks resample (bench_cpu on the
// host, bench_cuda on the device and the host): two sorted sets of 1000
// uniforms from Philox, the second shifted by 0.1.
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/philox.hpp"

struct BootstrapSample {
  std::vector<double> a, b;
};

inline BootstrapSample bootstrap_sample() {
  BootstrapSample s{std::vector<double>(1000), std::vector<double>(1000)};
  for (std::size_t i = 0; i < s.a.size(); ++i) {
    s.a[i] = gs::uniform_open(gs::philox_bits({1, 1}, 0, i, 0)[0]);
    s.b[i] = gs::uniform_open(gs::philox_bits({1, 2}, 0, i, 0)[0]) + 0.1;
  }
  std::sort(s.a.begin(), s.a.end());
  std::sort(s.b.begin(), s.b.end());
  return s;
}
