// Per-element work of each model, as functors with one GS_HD
// operator()(row, column, tally) over a batch's rows (replicas) and `columns`.
// The CPU backend runs them in an OpenMP loop, the CUDA backend in one
// bounds-checked 2-D kernel: the same code. (Two indices rather than one flat
// index: splitting a flat 64-bit index costs a software division per element
// on a GPU.) Output buffers are row-major; row r is replica first + r.
#pragma once

#include <cstdint>

#include "complex.hpp"
#include "lfsn.hpp"
#include "philox.hpp"
#include "stable.hpp"
#include "workload.hpp"

namespace gs {

// i.i.d. α-stable. Philox use: bins 2j and 2j+1 of replica r use one call at
// (replica r, position j, draw 0), words (0, 1) and (2, 3). Column j is that
// pair of bins.
template <class Real, class Out>
struct StablePairsKernel {
  StableSampler<Real> law;
  RngStreamKey key;
  WorkloadMapping map;
  std::uint64_t first_replica = 0;
  std::uint64_t length = 0;
  std::uint64_t pairs_per_row = 0;  // ceil(length / 2)
  Out* out = nullptr;

  GS_HD std::uint64_t columns() const { return pairs_per_row; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t pair, StoreTally& tally) const {
    const PhiloxBits r = philox_bits(key, static_cast<std::uint32_t>(first_replica + row), pair, 0);
    const std::uint64_t bin = 2 * pair;
    Out* dst = out + row * length + bin;
    dst[0] = store_workload<Out>(law(r[0], r[1]), map, tally);
    if (bin + 1 < length) dst[1] = store_workload<Out>(law(r[2], r[3]), map, tally);
  }
};

// LFSN convolves in double whatever the storage type: a float32 FFT spreads
// the rounding error of the largest innovation (about n^(1/α)) over the whole
// replica, which is visible for α ≤ 1.

// LFSN step 1: the innovations Z(t), t < fine_points, of each row, zero-padded
// to fft_length.
template <class Real>
struct LfsnInnovationsKernel {
  LfsnInnovation<Real> innovation;
  std::uint64_t first_replica = 0;
  std::uint64_t fine_points = 0;
  std::uint64_t fft_length = 0;
  double* signal = nullptr;

  GS_HD std::uint64_t columns() const { return fft_length; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t t, StoreTally& tally) const {
    signal[row * fft_length + t] = t < fine_points
                    ? static_cast<double>(
                          innovation(static_cast<std::uint32_t>(first_replica + row), t, tally.saturated))
                    : 0.0;
  }
};

// LFSN step 2 (between the forward and inverse FFT): multiply each row's
// spectrum by the kernel's (already scaled by 1/fft_length).
struct SpectrumProductKernel {
  const Complex<double>* kernel = nullptr;
  std::uint64_t spectrum_length = 0;  // fft_length / 2 + 1
  Complex<double>* spectra = nullptr;

  GS_HD std::uint64_t columns() const { return spectrum_length; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t j, StoreTally&) const {
    Complex<double>& value = spectra[row * spectrum_length + j];
    value = value * kernel[j];
  }
};

// LFSN step 3: N(k) = y(Km + m·k) − drift, mapped to the workload and stored.
template <class Out>
struct LfsnStoreKernel {
  const double* convolved = nullptr;  // rows of fft_length
  std::uint64_t fft_length = 0;
  std::uint64_t kernel_points = 0;  // Km
  std::uint64_t m = 1;
  std::uint64_t length = 0;
  double drift = 0;
  WorkloadMapping map;
  Out* out = nullptr;

  GS_HD std::uint64_t columns() const { return length; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t k, StoreTally& tally) const {
    out[row * length + k] = store_workload<Out>(convolved[row * fft_length + kernel_points + m * k] - drift, map, tally);
  }
};

}  // namespace gs
