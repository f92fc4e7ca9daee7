// Numerical optimisation shared by the fitting estimators: GSL's Nelder–Mead
// simplex (nmsimplex2) for likelihoods without derivatives, and the central-
// difference Hessian from which standard errors follow (observed information).
#pragma once

#include <functional>
#include <vector>

namespace gs {

using Objective = std::function<double(const std::vector<double>&)>;

struct Minimum {
  std::vector<double> x;
  double value = 0;
  int iterations = 0;
  bool converged = false;  // simplex size fell below the tolerance
};

// Minimises f from `start` with initial simplex steps `step`; stops when the
// simplex's characteristic size is below `size_tolerance` or after
// `max_iterations`. A non-finite f counts as +∞ (outside the domain).
Minimum minimize_simplex(const Objective& f, const std::vector<double>& start, const std::vector<double>& step,
                         double size_tolerance, int max_iterations);

// ∂²f/∂x_i∂x_j at x by central differences with steps h_i.
std::vector<std::vector<double>> numerical_hessian(const Objective& f, const std::vector<double>& x,
                                                   const std::vector<double>& h);

// Standard errors from the observed information: sqrt of the diagonal of the
// inverse of `information` (a negative log-likelihood's Hessian). NaN for
// every entry when it is not positive definite.
std::vector<double> standard_errors(const std::vector<std::vector<double>>& information);

// The covariance (inverse of the information), empty when not positive definite.
std::vector<std::vector<double>> covariance(const std::vector<std::vector<double>>& information);

}  // namespace gs
