// Fitting an i.i.d. α-stable law to a sample (docs/fitting.md): McCulloch's
// quantile estimator and maximum likelihood with Nolan's density. Both report
// the law in S0 and S1 (they differ only in the location).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/stable.hpp"

namespace gs {

// How the likelihood treats each value: its density (continuous data), or,
// for whole numbers (counts per bin), the probability of the rounding interval,
// P(k − ½ < X < k + ½), which is exact for rounded data, bounded, and needs no
// dithering.
enum class StableLikelihood { density, rounded };
const char* to_string(StableLikelihood likelihood);

struct StableFit {
  std::string method;                                       // "quantiles" (McCulloch) or "ml"
  StableLikelihood likelihood = StableLikelihood::density;  // ML only
  StableLawParams s0, s1;                                   // the estimate in both parameterizations
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // Standard errors of α, β, σ, the S0 location μ0 and the S1 location μ1.
  double se_alpha = kNaN, se_beta = kNaN, se_sigma = kNaN, se_mu0 = kNaN, se_mu1 = kNaN;
  // ML with α inside (0.1, 2): the 95 % profile-likelihood intervals of α, σ and μ1 (where ln L,
  // maximised over the others with β at its estimate, lies within χ²₁(0.95)/2 = 1.92 of its
  // maximum; an end on a bound of the search, α 0.1 or 2, leaves the interval open there), the
  // observed information's SE, and which of the two se_alpha, se_sigma and se_mu1 each are, the
  // wider: "information", or "profile" (the interval's width / (2 · 1.96)).
  struct Profile {
    double lower = kNaN, upper = kNaN, information_se = kNaN;
    std::string se_from;  // empty where no interval was computed
  };
  Profile profile_alpha, profile_sigma, profile_mu1;
  double log_likelihood = kNaN;  // ML only
  std::size_t n = 0;
  int iterations = 0;
  bool converged = true;
  std::string note;      // identifiability
  std::string boundary;  // ML: why an estimate is on a bound of the search or lacks standard errors, and what to try
};

// McCulloch (1986): α and β from ν_α = (x.95 − x.05)/(x.75 − x.25) and
// ν_β = (x.95 + x.05 − 2x.5)/(x.95 − x.05), inverted through a grid of the
// exact stable quantiles (α ∈ [0.5, 2] by 0.1, β ∈ [0, 1] by 0.1, computed
// once per process); σ and μ from the exact quantiles of the fitted (α, β).
// α below 0.5 is reported as 0.5 with a note. Standard errors: `bootstrap`
// resamples drawn with Philox (key `seed`, a fixed stream), so the fit is
// deterministic for a given seed.
StableFit fit_stable_quantiles(const std::vector<double>& x, std::uint64_t seed, int bootstrap = 200);

// Maximum likelihood over (α, β, σ, μ0) starting from `start`, with α ∈ [0.1, 2]
// and β ∈ [−1, 1]: ln f (or the rounding interval's probability) from a
// StableLogDensityTable per (α, β), the location and scale profiled out by
// Newton's method for each (α, β), and (α, β) themselves by Nelder–Mead. The
// result depends on the data and the start only (no random numbers). Standard
// errors from the observed information (central-difference Hessian of the
// log-likelihood at the maximum); the S1 location's by the delta method; for
// α, σ and μ1 the wider of those and the profile-likelihood interval's (see
// StableFit::Profile). ln L is reported from the law itself (stable_log_likelihood).
// An estimate on a bound (α = 0.1, α = 2, |β| = 1) or without standard errors
// says so in `boundary`. Data with an atom too large for a density's
// likelihood to have a maximum (a share above α/(1 + α) at α = 0.1) are a
// UserError under StableLikelihood::density.
StableFit fit_stable_ml(const std::vector<double>& x, const StableFit& start,
                        StableLikelihood likelihood = StableLikelihood::density);

// Σ ln f(x_i), or for rounded values Σ ln P(x_i − ½ < X < x_i + ½) (stable_log_probability), from the
// law itself, without tables.
double stable_log_likelihood(const std::vector<double>& x, const StableLawParams& law,
                             StableLikelihood likelihood = StableLikelihood::density);

}  // namespace gs
