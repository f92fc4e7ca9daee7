// The steps of the spectral models (lfsn, farima, fgn, fbm, norros) as
// functors with one GS_HD operator()(row, column, tally) over a batch's rows
// (replicas) and `columns`: the CPU backend runs them in an OpenMP loop, the
// CUDA backend in one bounds-checked 2-D kernel, between the FFTs. (Two
// indices rather than one flat index: splitting a flat 64-bit index costs a
// software division per element on a GPU.) Row r is replica first + r.
#pragma once

#include <cstdint>

#include "complex.hpp"
#include "lfsn.hpp"
#include "philox.hpp"
#include "workload.hpp"
#include "ziggurat.hpp"

namespace gs {

// Spectral models (lfsn, farima, fgn/fbm/norros) filter in double whatever the
// storage type: a float32 FFT spreads the rounding error of the largest
// innovation (about n^(1/α)) over the whole replica, visible for α ≤ 1. Two
// ways into the same inverse transform of length M:
//   convolution (lfsn, farima with stable innovations): innovations in time,
//     forward FFT of length L = m·M, product with the kernel's spectrum and
//     m-fold fold (SpectrumFoldKernel);
//   circulant embedding (fgn, fbm, norros, farima with Gaussian innovations):
//     Gaussian noise drawn directly in frequency (CirculantNoiseKernel).
// Both end in FilteredStoreKernel.

// Convolution step 1: the innovations Z(t), t < fine_points, of each row,
// zero-padded to fft_length.
template <class Real>
struct InnovationsKernel {
  StableInnovation<Real> innovation;
  std::uint64_t first_replica = 0;
  std::uint64_t fine_points = 0;
  std::uint64_t fft_length = 0;
  double* signal = nullptr;

  GS_HD std::uint64_t columns() const { return fft_length; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t t, StoreTally& tally) const { at<PhiloxBits>(row, t, tally); }
  // With the calls' words as Words (kernels/fast_math.hpp).
  template <class Words>
  GS_HD void at(std::uint64_t row, std::uint64_t t, StoreTally& tally) const {
    signal[row * fft_length + t] = t < fine_points
                                       ? static_cast<double>(innovation.template operator()<Words>(
                                             static_cast<std::uint32_t>(first_replica + row), t, tally.saturated))
                                       : 0.0;
  }
};

// Convolution step 2, between the forward transform (length L) and the inverse one
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

  // Adds Y[j]·K[j] (any j < L) to `sum`, from the stored half: conj(Y[L − j]·K[L − j]) past L/2.
  GS_HD void add_product(Complex<double>& sum, const Complex<double>* y, std::uint64_t j) const {
    if (j <= fft_length / 2) {
      const Complex<double> p = y[j] * kernel[j];
      sum.re += p.re;
      sum.im += p.im;
    } else {
      const Complex<double> p = y[fft_length - j] * kernel[fft_length - j];
      sum.re += p.re;
      sum.im -= p.im;
    }
  }

  GS_HD void operator()(std::uint64_t row, std::uint64_t f, StoreTally&) const {
    const Complex<double>* y = spectra + row * (fft_length / 2 + 1);
    Complex<double> sum{0.0, 0.0};
    for (std::uint64_t r = 0; r < m; ++r) add_product(sum, y, f + r * inverse_length);
    folded[row * columns() + f] = sum;
  }

  // The whole of one row on the host, with the same sums in the same order
  // (each column adds r = 0, 1, … m − 1 to 0) but read as m contiguous runs
  // of the spectrum instead of m strided reads per column.
  void fold_row(std::uint64_t row) const {
    const Complex<double>* y = spectra + row * (fft_length / 2 + 1);
    Complex<double>* out = folded + row * columns();
    for (std::uint64_t f = 0; f < columns(); ++f) out[f] = Complex<double>{0.0, 0.0};
    for (std::uint64_t r = 0; r < m; ++r)
      for (std::uint64_t f = 0; f < columns(); ++f) add_product(out[f], y, f + r * inverse_length);
  }
};

// Circulant embedding (Davies–Harte): a stationary Gaussian series with
// autocovariance γ is the first n values of the real inverse transform of
// sqrt(λ_j / M)·W_j, where λ_j ≥ 0 are the eigenvalues of the circulant whose
// first row is γ(0), γ(1), …, γ(M/2), …, γ(1) (γ(M/2) in the middle) and W is
// Hermitian complex white noise: W_0, W_{M/2} real N(0, 1), W_j = (U_j + iV_j)/√2
// otherwise. Then E[Y_k Y_l] = (1/M) Σ_j λ_j e^{2πij(k−l)/M} = γ(k − l) exactly.
// Philox use: frequency j of replica r uses the call at (replica r, position j,
// draw 0), U_j from words 0–1 and V_j from words 2–3 by the ziggurat
// (kernels/ziggurat.hpp), whose rare retries take draws 1, 2, … of the same position.
// Column j ≤ M/2 of each row.
struct CirculantNoiseKernel {
  static constexpr std::uint32_t kDraw = 0;
  static_assert(kDraw <= kZigguratMaxPairDraw, "the ziggurat's retries follow the pair's draw");
  static constexpr double kHalfRoot2 = 0.7071067811865476;  // 1/√2, the scale of a complex frequency's parts

  const double* amplitude = nullptr;  // sqrt(λ_j / M), j = 0..M/2
  RngStreamKey key;
  std::uint64_t first_replica = 0;
  std::uint64_t inverse_length = 0;   // M, even
  Complex<double>* folded = nullptr;  // rows of M/2 + 1

  GS_HD std::uint64_t columns() const { return inverse_length / 2 + 1; }
  GS_HD std::uint32_t replica_of(std::uint64_t row) const { return static_cast<std::uint32_t>(first_replica + row); }

  GS_HD void operator()(std::uint64_t row, std::uint64_t j, StoreTally&) const {
    const ValuePair<double> w = ziggurat_normal_pair(key, replica_of(row), j, kDraw);
    put(row, j, w.first, w.second);
  }

  // Frequency j from its normal pair (the CPU's packs put the lanes of a pack
  // that holds j = 0 or M/2, or ends a row, here too, and the others with the
  // same products in vectors).
  GS_HD bool is_real_frequency(std::uint64_t j) const { return j == 0 || 2 * j == inverse_length; }
  GS_HD void put(std::uint64_t row, std::uint64_t j, double first, double second) const {
    const double a = amplitude[j];
    folded[row * columns() + j] = is_real_frequency(j)
                                      ? Complex<double>{a * first, 0.0}
                                      : Complex<double>{a * first * kHalfRoot2, a * second * kHalfRoot2};
  }
};

// Last step: value k of a row is decimated(offset + k) + location (for lfsn
// decimated(K + k) = y(Km + m·k), location = −drift), mapped to the workload and
// stored.
template <class Out>
struct FilteredStoreKernel {
  const double* decimated = nullptr;  // rows of `row_stride` values
  std::uint64_t row_stride = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  double location = 0;
  WorkloadMapping map;
  Out* out = nullptr;

  GS_HD std::uint64_t columns() const { return length; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t k, StoreTally& tally) const {
    out[row * length + k] = store_workload<Out>(decimated[row * row_stride + offset + k] + location, map, tally);
  }
};

}  // namespace gs
