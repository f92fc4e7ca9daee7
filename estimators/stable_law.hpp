// Density, distribution function and quantiles of α-stable laws, for fitting
// (docs/fitting.md). Nolan's integral representation (Nolan 1997, "Numerical
// calculation of stable densities and distribution functions", Thm. 1) in his
// S0 parameterization, which is continuous in α; S1 laws are shifted to S0.
// The integrand is split at its single peak and integrated by tanh–sinh
// quadrature on each side (relative accuracy about 1e-10 away from the
// α → 1 limit; within |α − 1| < 1e-3 the density is interpolated linearly in
// α between α = 1 and α = 1 ± 1e-3, where the representation loses precision).
#pragma once

#include <boost/math/interpolators/cardinal_cubic_b_spline.hpp>
#include <vector>

#include "kernels/stable.hpp"

namespace gs {

// Standard S0 law (σ = 1, location 0).
double stable_pdf_s0(double z, double alpha, double beta);
double stable_cdf_s0(double z, double alpha, double beta);
double stable_quantile_s0(double p, double alpha, double beta);  // p ∈ (0, 1)

// Any law of StableLawParams (either parameterization, any σ, μ).
double stable_pdf(double x, const StableLawParams& law);
double stable_log_pdf(double x, const StableLawParams& law);
double stable_cdf(double x, const StableLawParams& law);
double stable_quantile(double p, const StableLawParams& law);

// The same law in the other parameterization (only the location changes):
// μ0 = μ1 + βσ tan(πα/2) for α ≠ 1 and μ0 = μ1 + (2/π)βσ ln σ for α = 1.
StableLawParams to_s0(const StableLawParams& law);
StableLawParams to_s1(const StableLawParams& law);

// ln f of the standard S0 law on a grid of step 0.05 in u = asinh(z) over
// |z| ≤ reach, interpolated by a cubic B-spline; beyond it, the power tail
// |z|^{−(1+α)} continued from the edge (the Gaussian law at α = 2). Building one costs a few hundred integrals, so
// maximum likelihood builds one per (α, β) and evaluates it at every observation.
class StableLogDensityTable {
 public:
  StableLogDensityTable(double alpha, double beta, double reach = 1e4);
  double operator()(double z) const;
  // ln f with its first and second derivatives in z, for Newton steps in the
  // location and scale (the spline's second derivative is continuous).
  struct Derivatives {
    double value = 0, first = 0, second = 0;
  };
  Derivatives derivatives(double z) const;
  double alpha() const { return alpha_; }
  double beta() const { return beta_; }

 private:
  double alpha_, beta_;
  double u_min_, u_max_;
  boost::math::interpolators::cardinal_cubic_b_spline<double> spline_;
};

}  // namespace gs
