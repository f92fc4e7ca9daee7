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

struct StableFit {
  std::string method;      // "quantiles" (McCulloch) or "ml"
  StableLawParams s0, s1;  // the estimate in both parameterizations
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // Standard errors of α, β, σ, the S0 location μ0 and the S1 location μ1.
  double se_alpha = kNaN, se_beta = kNaN, se_sigma = kNaN, se_mu0 = kNaN, se_mu1 = kNaN;
  double log_likelihood = kNaN;  // ML only
  std::size_t n = 0;
  int iterations = 0;
  bool converged = true;
  std::string note;  // boundary estimates, identifiability
};

// McCulloch (1986): α and β from ν_α = (x.95 − x.05)/(x.75 − x.25) and
// ν_β = (x.95 + x.05 − 2x.5)/(x.95 − x.05), inverted through a grid of the
// exact stable quantiles (α ∈ [0.5, 2] by 0.1, β ∈ [0, 1] by 0.1, computed
// once per process); σ and μ from the exact quantiles of the fitted (α, β).
// α below 0.5 is reported as 0.5 with a note. Standard errors: `bootstrap`
// resamples drawn with Philox (key `seed`, a fixed stream), so the fit is
// deterministic for a given seed.
StableFit fit_stable_quantiles(const std::vector<double>& x, std::uint64_t seed, int bootstrap = 200);

// Maximum likelihood over (α, β, σ, μ0) starting from `start`: ln f from a
// StableLogDensityTable per (α, β), the location and scale profiled out by
// Newton's method for each (α, β), and (α, β) themselves by Nelder–Mead. Standard
// errors from the observed information (central-difference Hessian of the
// log-likelihood at the maximum); the S1 location's by the delta method.
// α at the Gaussian boundary 2 leaves β unidentified: its SE is NaN and the
// note says why. Data with an atom too large for the likelihood to have a
// maximum (a share above α/(1 + α) at the smallest α searched) are a UserError.
StableFit fit_stable_ml(const std::vector<double>& x, const StableFit& start);

// Σ ln f(x_i) by the integral representation, without tables.
double stable_log_likelihood(const std::vector<double>& x, const StableLawParams& law);

}  // namespace gs
