// Fitting the Gaussian and Markov comparison models to a binned series
// (docs/fitting.md), and Norros' effective-bandwidth relations of the
// self-similarity paper. The α-stable laws are in stable_fit.hpp, the
// continuous-time HMM in hmm_fit.hpp.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace gs {

constexpr double kNotAvailable = std::numeric_limits<double>::quiet_NaN();

// Normal: the sample mean and sd (denominator n − 1); se(μ) = σ/√n,
// se(σ) = σ/√(2(n − 1)); the Gaussian log-likelihood at the estimates.
struct NormalFit {
  double mu = 0, sigma = 0, se_mu = kNotAvailable, se_sigma = kNotAvailable;
  double log_likelihood = kNotAvailable;
};
NormalFit fit_normal(const std::vector<double>& x);

// Oly–Reed Markov chain over k rate levels: thresholds at the j/k quantiles
// split the values into k states (fewer when ties make quantiles coincide);
// each state's level and noise are the mean and sd of its values; P by
// counting transitions, se(P_ij) = sqrt(P_ij(1 − P_ij)/n_i). Log-likelihood:
// the chain's transitions plus the Gaussian noise of each value, but for a
// state whose values are equal up to 1e-12 of its level (an atom: noise 0,
// no density terms; the note names it).
struct MarkovFit {
  std::vector<double> levels, noise;
  std::vector<std::vector<double>> transition, transition_se;
  std::vector<std::size_t> visits;  // values per state
  double log_likelihood = kNotAvailable;
  std::string note;
};
MarkovFit fit_markov(const std::vector<double>& x, std::size_t states);

// FARIMA(p, d, q) by Whittle's likelihood (Gaussian) over the Fourier
// frequencies: f(λ) = σ²/(2π)·|θ(e^{−iλ})|²/|φ(e^{−iλ})|²·|2 sin(λ/2)|^{−2d},
// σ² profiled out; stationarity and invertibility by construction (partial
// autocorrelations through tanh, d = 0.49·tanh(·)). SEs from the Hessian of the
// profiled Whittle likelihood. log_likelihood = −Σ_j [ln 2πf(λ_j) + I(λ_j)/f(λ_j)];
// AIC = −2ℓ + 2k, BIC = −2ℓ + k ln n with k = p + q + 2.
struct FarimaFit {
  std::size_t p = 0, q = 0;
  double d = 0, sigma = 0, mean = 0;
  std::vector<double> ar, ma;
  double se_d = kNotAvailable;
  std::vector<double> se_ar, se_ma;
  double log_likelihood = kNotAvailable, aic = kNotAvailable, bic = kNotAvailable;
  bool converged = false;
  // Why an estimate lies on a bound of the search (|d| within 0.001 of 0.49, a
  // partial autocorrelation within 0.001 of ±1), the search did not converge,
  // the estimates have no standard errors, or (p, q > 0) FARIMA(p − 1, d, q − 1)
  // fits as well (a common factor: ar and ma not identified), and what to try;
  // else empty.
  std::string boundary;
};
FarimaFit fit_farima(const std::vector<double>& x, std::size_t p, std::size_t q);

// Every (p, q) in [0, max_p] × [0, max_q]; the one with the smallest BIC (or
// AIC) first, then the others in order of the criterion.
std::vector<FarimaFit> select_farima(const std::vector<double>& x, std::size_t max_p, std::size_t max_q,
                                     bool use_bic = true);

// Norros' arrivals A(t) = λt + sqrt(aλ)·Z(t) from counts per bin of width Δ
// (seconds) and a Hurst estimate: λ = mean/Δ, a = var/(λΔ^{2H});
// se(λ) = sd·n^{H−1}/Δ (the standard error of a long-range dependent mean).
struct NorrosFit {
  double lambda = 0, a = 0, H = 0.5, bin = 1;
  double se_lambda = kNotAvailable, se_H = kNotAvailable;
};
NorrosFit fit_norros(const std::vector<double>& counts, double bin_width, double H, double se_H);

// Eq. (3) of the self-similarity paper (Norros 1995): the effective bandwidth
// C = λ + [−2aλ ln ε · κ(H)² · b^{2H−2}]^{1/(2H)}, κ(H) = H^H (1 − H)^{1−H},
// for miss probability ε ∈ (0, 1) and b > 0 outstanding streams (buffer).
double norros_bandwidth(double lambda, double a, double H, double epsilon, double b);

// The arrival rate λ at which eq. (3) and eq. (4), λ = Cε/(b(1 − ε)), hold
// together: λ^{2H−1} = −2a ln ε κ(H)² b^{2H−2} ε^{2H} / (b(1 − ε) − ε)^{2H}.
// (The paper's printed eq. (5) lacks the factor ε^{2H}; substituting its λ back
// into (3) and (4) does not close without it.) H = 1/2 has no unique λ and
// b(1 − ε) ≤ ε no positive one: both are UserErrors.
double norros_arrival_rate(double a, double H, double epsilon, double b);

}  // namespace gs
