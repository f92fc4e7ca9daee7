// What the spectral models (lfsn, farima, fgn, fbm, norros) share to fill in
// their SpectralPlan (host/models/generation.hpp): the sizes of a decimated
// convolution, the circulant embedding of an autocovariance, and fGn's
// autocovariance.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "host/models/generation.hpp"

namespace gs {

// A convolution of `taps` kernel coefficients with innovations on a grid of m
// points per output value, kept at every m-th point: the sizes without
// wrap-around for `length` outputs (fine_points, inverse_length, fft_length).
void set_convolution_sizes(SpectralPlan& plan, std::uint64_t taps, std::uint64_t length);

// The exact Gaussian series of autocovariance γ by circulant embedding
// (Davies–Harte), scaled by `scale`: `autocovariance(P)` gives γ(0..P). The
// embedding starts at M = 2P ≥ 2(n − 1), P 2·3·5·7-smooth, and doubles while
// an eigenvalue is negative beyond rounding (up to 4 times, then UserError).
// Its attributes and summary describe the embedding.
Generation circulant_generation(const std::function<std::vector<double>(std::uint64_t)>& autocovariance,
                                std::uint64_t length, double scale);

// The eigenvalues λ_0..λ_{M/2} of the circulant embedding of γ(0..M/2), M
// even: first row γ(0), γ(1), …, γ(M/2), …, γ(1).
std::vector<double> circulant_eigenvalues(const std::vector<double>& autocovariance);

// Unit-variance fGn autocovariance γ(k), accurate for large k.
double fgn_autocovariance(double H, std::uint64_t k);
// γ(0..P) of unit-variance fGn (fgn, fbm, norros).
std::vector<double> fgn_autocovariances(double H, std::uint64_t P);

// The Philox use of the circulant's noise, for rng_use.
PhiloxUse circulant_noise_use();

}  // namespace gs
