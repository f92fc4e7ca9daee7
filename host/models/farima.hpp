// FARIMA(p, d, q) (host/models/farima.cpp): φ(B)(1 − B)^d X_t = θ(B) ε_t with
// φ(B) = 1 − φ_1 B − … − φ_p B^p, θ(B) = 1 + θ_1 B + … + θ_q B^q, ε_t i.i.d.
// N(0, σ²) or S1(α, β, σ, 0). Its autocovariance and MA(∞) weights, for the
// model and the tests.
#pragma once

#include <cstdint>
#include <vector>

namespace gs {

struct FarimaParams {
  double d = 0.0;
  std::vector<double> ar;  // φ_1..φ_p
  std::vector<double> ma;  // θ_1..θ_q
  double sigma = 1.0;
};

// Exact autocovariance γ(0..max_lag) of Gaussian FARIMA(p, d, q) with
// innovation variance σ²: the ARMA part's weights ψ (θ(B)/φ(B), kept until
// below 1e-18 of their largest) convolved with the fractional noise's
// γ_d(k) = Γ(1−2d)/Γ(1−d)² · Π (i−1+d)/(i−d).
std::vector<double> farima_autocovariance(const FarimaParams& model, std::uint64_t max_lag);

// a_0..a_J of the MA(∞) representation X_t = Σ a_j ε_{t−j} of FARIMA(p, d, q).
std::vector<double> farima_ma_weights(const FarimaParams& model, std::uint64_t J);

}  // namespace gs
