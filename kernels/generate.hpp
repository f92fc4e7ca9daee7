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
    signal[row * fft_length + t] =
        t < fine_points
            ? static_cast<double>(innovation(static_cast<std::uint32_t>(first_replica + row), t, tally.saturated))
            : 0.0;
  }
};

// LFSN step 2, between the forward transform (length L) and the inverse one
// (length M = L/m): multiply by the kernel's spectrum (scaled by 1/L) and fold
// it m-fold, F[f] = Σ_r Y[f + rM], which is the spectrum of the convolution
// kept at every m-th point. Only Y[0..L/2] is stored; Y[j] = conj Y[L − j]
// beyond. Column f < M/2 + 1 of each row.
struct SpectrumFoldKernel {
  const Complex<double>* kernel = nullptr;   // L/2 + 1 values
  const Complex<double>* spectra = nullptr;  // rows of L/2 + 1
  Complex<double>* folded = nullptr;         // rows of M/2 + 1
  std::uint64_t fft_length = 0;              // L
  std::uint64_t inverse_length = 0;          // M
  std::uint64_t m = 1;

  GS_HD std::uint64_t columns() const { return inverse_length / 2 + 1; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t f, StoreTally&) const {
    const std::uint64_t half = fft_length / 2;
    const Complex<double>* y = spectra + row * (half + 1);
    Complex<double> sum{0.0, 0.0};
    for (std::uint64_t r = 0; r < m; ++r) {
      const std::uint64_t j = f + r * inverse_length;
      if (j <= half) {
        const Complex<double> p = y[j] * kernel[j];
        sum.re += p.re;
        sum.im += p.im;
      } else {
        const Complex<double> p = y[fft_length - j] * kernel[fft_length - j];
        sum.re += p.re;
        sum.im -= p.im;
      }
    }
    folded[row * columns() + f] = sum;
  }
};

// LFSN step 3: N(k) = y(Km + m·k) − drift = decimated(K + k) − drift, mapped
// to the workload and stored.
template <class Out>
struct LfsnStoreKernel {
  const double* decimated = nullptr;  // rows of `row_stride` values
  std::uint64_t row_stride = 0;
  std::uint64_t offset = 0;  // K
  std::uint64_t length = 0;
  double drift = 0;
  WorkloadMapping map;
  Out* out = nullptr;

  GS_HD std::uint64_t columns() const { return length; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t k, StoreTally& tally) const {
    out[row * length + k] = store_workload<Out>(decimated[row * row_stride + offset + k] - drift, map, tally);
  }
};

}  // namespace gs
