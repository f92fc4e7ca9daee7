// Density, distribution function and quantiles of α-stable laws, for fitting
// (docs/fitting.md). Nolan's integral representation (Nolan 1997, "Numerical
// calculation of stable densities and distribution functions", Thm. 1) in his
// S0 parameterization, which is continuous in α; S1 laws are shifted to S0.
// The integrand is split at its single peak and integrated by tanh–sinh
// quadrature on each side (relative accuracy about 1e-10 away from the
// α → 1 limit; within |α − 1| < 1e-3 the density is interpolated linearly in
// α between α = 1 and α = 1 ± 1e-3, where the representation loses precision).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/stable.hpp"

namespace gs {

// Standard S0 law (σ = 1, location 0).
double stable_pdf_s0(double z, double alpha, double beta);
double stable_log_pdf_s0(double z, double alpha, double beta);  // −∞ outside the support
double stable_cdf_s0(double z, double alpha, double beta);
double stable_sf_s0(double z, double alpha, double beta);        // 1 − F, without cancellation
double stable_quantile_s0(double p, double alpha, double beta);  // p ∈ (0, 1)

// Any law of StableLawParams (either parameterization, any σ, μ).
double stable_pdf(double x, const StableLawParams& law);
double stable_log_pdf(double x, const StableLawParams& law);
double stable_cdf(double x, const StableLawParams& law);
double stable_quantile(double p, const StableLawParams& law);
// ln P(a < X < b) (a < b, either may be infinite) without cancellation: where
// both ends lie in one far tail, the interval's own integral (the tail series
// term by term); else F(b) − F(a) or (1 − F(a)) − (1 − F(b)), whichever has
// the smaller terms. An S1 law is taken in its own variable (x − μ1)/σ, so an
// end next to the support's edge (α < 1, |β| = 1, where μ1 is the edge) keeps
// its distance from it to the last bit. About 1e-10 relative (the quadrature).
double stable_log_probability(double a, double b, const StableLawParams& law);

// The same law in the other parameterization (only the location changes):
// μ0 = μ1 + βσ tan(πα/2) for α ≠ 1 and μ0 = μ1 + (2/π)βσ ln σ for α = 1.
StableLawParams to_s0(const StableLawParams& law);
StableLawParams to_s1(const StableLawParams& law);

class TailSeries;  // stable_law.cpp: the density's series in the far tails

// ln f of the standard S0 law on nodes in u = asinh((z − c)/κ) (c = 0, κ = 1
// for α ≥ 1; c = ζ, κ ≤ 1e-3 for α < 1, so that the edge of a skewed law is
// resolved in ln(z − ζ)) over |z| ≤ reach and, on a heavy side, on by factors of
// 4 (to at most 1e8) until the tail series holds at the last node: a grid of step 0.05 in u, with
// every interval halved (up to 12 times) where cubics through the neighbouring
// nodes disagree at its middle by more than 1e-7 + 1e-7·|ln f| (a kink: the
// light side of a law with |β| near 1, a support's edge near α = 1), and a
// cubic Hermite interpolant through the nodes with 5-point slopes. ln f is
// computed in logarithms, so the light tails carry no floor and no kink. Beyond
// the nodes on a heavy side, ln f, its derivatives and the interval masses are
// the tail series' (exact; at α = 1 and within 1e-6 of it, where there is none,
// and where ln f < −2000, ln f goes on along the steeper of the end's slope and
// the power tail's); where f = 0 (outside the support of α < 1,
// |β| = 1) it is −∞. Building one costs a few hundred integrals, so maximum
// likelihood builds one per (α, β) and evaluates it at every observation.
class StableLogDensityTable {
 public:
  StableLogDensityTable(double alpha, double beta, double reach = 1e4);
  double operator()(double z) const;
  // ln f with its first and second derivatives in z, for Newton steps in the
  // location and scale.
  struct Derivatives {
    double value = 0, first = 0, second = 0;
  };
  Derivatives derivatives(double z) const;
  // ln P(a < Z < b), a < b (either may be infinite): the interpolated density
  // integrated over each node interval by 8-point Gauss–Legendre in u, from
  // cumulative masses across many intervals, and in closed form beyond the
  // nodes (the likelihood of a rounded value is P(k − ½ < X < k + ½)).
  double log_probability(double a, double b) const;
  double alpha() const { return alpha_; }
  double beta() const { return beta_; }
  std::size_t nodes() const;

 private:
  double z_of(double u) const;
  void evaluate(const std::vector<double>& u, std::vector<double>& v, std::size_t from) const;
  void refine(std::vector<double>& u, std::vector<double>& v) const;
  void cumulate_masses();
  std::size_t interval_of(double u) const;
  Derivatives hermite(std::size_t k, double u) const;  // in u
  double log_integral_in(std::size_t k, double u1, double u2) const;
  double log_tail(bool below, double z1, double z2) const;

  double alpha_, beta_;
  double center_, scale_, zeta_;
  std::vector<double> u_, value_, slope_;      // the nodes, ln f and d ln f/du there
  double base_ = 0;                            // u of the first node
  std::vector<std::uint32_t> cell_first_;      // per step of 0.05 from base_: the node at or before its start
  std::vector<double> log_mass_;               // ln ∫ f dz over each node interval
  std::vector<double> log_below_, log_above_;  // ln of the mass below / above each node
  double slope_min_ = 0, slope_max_ = 0;
  // Beyond the nodes below / above: the tail series where it holds (exact,
  // its terms' coefficients kept), else null and ln f goes on along
  // slope_min_ / slope_max_ (a light tail, below the cut).
  std::shared_ptr<const TailSeries> series_below_, series_above_;
  // u of the support's edges: f = 0 at and beyond them (α < 1, |β| = 1).
  double support_min_ = -std::numeric_limits<double>::infinity();
  double support_max_ = std::numeric_limits<double>::infinity();
};

}  // namespace gs
