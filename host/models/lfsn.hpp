// The discretised LFSN of one ensemble (host/models/lfsn.cpp): its normalised
// kernel and sizes, for the model, its fit adapter and the tests.
#pragma once

#include <cstdint>
#include <vector>

namespace gs {

struct LfsnParams {
  double alpha = 1.5;
  double beta = 0.0;
  double H = 0.8;
  std::int64_t m = 16;   // fine grid points per output step
  std::int64_t K = 256;  // kernel cut-off, in output steps
};

// Normalised kernel c_1..c_{Km}, the fine-grid and FFT sizes for a series of
// `length` outputs, and the exact marginal law S1(α, beta_eff, 1, 0) of N(i)
// after `drift` is subtracted. Only every m-th point of the convolution is
// kept, so its spectrum is folded m-fold and transformed back at length
// M = L/m (kernels/spectral.hpp, SpectrumFoldKernel).
struct LfsnKernel {
  double d = 0;                      // H − 1/α
  std::vector<double> coefficients;  // c_k, k = 1..Km, Σ|c_k|^α = 1
  double raw_alpha_norm = 0;         // (Σ |h_d(k/m)|^α)^{1/α} before normalisation
  double beta_eff = 0;               // β Σ sign(c_k)|c_k|^α
  double drift = 0;                  // subtracted from every N(i); non-zero only at α = 1
  std::uint64_t fine_points = 0;     // T = Km + m(length − 1) innovations per replica
  std::uint64_t inverse_length = 0;  // M: smallest 2^a3^b5^c7^d with m·M ≥ T + 1
  std::uint64_t fft_length = 0;      // L = m·M, the forward transform
};

LfsnKernel make_lfsn_kernel(const LfsnParams& params, std::uint64_t length);

}  // namespace gs
