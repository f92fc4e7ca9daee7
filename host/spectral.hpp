// Spectral plans: how the replicas of lfsn, farima, fgn, fbm and norros are
// made through FFTs (see kernels/generate.hpp for the per-element steps), with
// everything that is computed once per ensemble — kernel coefficients or the
// circulant's eigenvalues — and the derived quantities a user should see.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/models.hpp"
#include "io/attributes.hpp"

namespace gs {

enum class SpectralMethod {
  convolution,  // stable innovations ∗ kernel, every m-th point kept
  circulant,    // exact Gaussian by circulant embedding
};

struct SpectralPlan {
  SpectralMethod method = SpectralMethod::convolution;
  // convolution: Z(t) = innovation_scale·X(t), X i.i.d. innovation_law,
  // t < fine_points; the kernel g[k] = coefficients[k − 1], k ≥ 1.
  StableLawParams innovation_law;
  double innovation_scale = 1;
  std::vector<double> coefficients;
  // circulant: sqrt(λ_j / M)·scale, j = 0..M/2.
  std::vector<double> amplitudes;
  std::uint64_t m = 1;                // fine points per output value
  std::uint64_t offset = 0;           // first kept value of the decimated inverse transform
  std::uint64_t fine_points = 0;      // Philox positions per replica
  std::uint64_t inverse_length = 0;   // M
  std::uint64_t fft_length = 0;       // L = m·M (convolution); M (circulant)
  double location = 0;                // added to every kept value
  bool cumulative = false;            // fbm: partial sums of the kept values
  std::vector<Attribute> attributes;  // derived quantities, for the output file
  std::string summary;                // one line for the printed plan
  std::string warning;                // for the log (e.g. variance lost to truncation)
};

// The plan of a spectral model for series of `length` values; nullopt for the
// other models. UserError when the model cannot be embedded.
std::optional<SpectralPlan> make_spectral_plan(const ModelParams& params, std::uint64_t length);

// Unit-variance fGn autocovariance γ(k), accurate for large k.
double fgn_autocovariance(double H, std::uint64_t k);

// Exact autocovariance γ(0..max_lag) of Gaussian FARIMA(p, d, q) with
// innovation variance σ²: the ARMA part's weights ψ (θ(B)/φ(B), kept until
// below 1e-18 of their largest) convolved with the fractional noise's
// γ_d(k) = Γ(1−2d)/Γ(1−d)² · Π (i−1+d)/(i−d).
std::vector<double> farima_autocovariance(const FarimaModel& model, std::uint64_t max_lag);

// a_0..a_J of the MA(∞) representation X_t = Σ a_j ε_{t−j} of FARIMA(p, d, q).
std::vector<double> farima_ma_weights(const FarimaModel& model, std::uint64_t J);

// The eigenvalues λ_0..λ_{M/2} of the circulant embedding of γ(0..M/2), M
// even: first row γ(0), γ(1), …, γ(M/2), …, γ(1).
std::vector<double> circulant_eigenvalues(const std::vector<double>& autocovariance);

}  // namespace gs
