#include "estimators/minimize.hpp"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <memory>

#include "host/base/interrupt.hpp"

namespace gs {
namespace {

double call(const gsl_vector* v, void* params) {
  const auto& f = *static_cast<const Objective*>(params);
  std::vector<double> x(v->size);
  for (std::size_t i = 0; i < v->size; ++i) x[i] = gsl_vector_get(v, i);
  const double value = f(x);
  return std::isfinite(value) ? value : std::numeric_limits<double>::max();
}

struct VectorDeleter {
  void operator()(gsl_vector* v) const { gsl_vector_free(v); }
};
struct MinimizerDeleter {
  void operator()(gsl_multimin_fminimizer* m) const { gsl_multimin_fminimizer_free(m); }
};

std::unique_ptr<gsl_vector, VectorDeleter> to_gsl(const std::vector<double>& x) {
  std::unique_ptr<gsl_vector, VectorDeleter> v(gsl_vector_alloc(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) gsl_vector_set(v.get(), i, x[i]);
  return v;
}

}  // namespace

Minimum minimize_simplex(const Objective& f, const std::vector<double>& start, const std::vector<double>& step,
                         double size_tolerance, int max_iterations) {
  const std::size_t n = start.size();
  gsl_multimin_function function{&call, n, const_cast<Objective*>(&f)};
  const auto x = to_gsl(start), s = to_gsl(step);
  std::unique_ptr<gsl_multimin_fminimizer, MinimizerDeleter> m(
      gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, n));
  gsl_multimin_fminimizer_set(m.get(), &function, x.get(), s.get());
  Minimum result;
  for (result.iterations = 1; result.iterations <= max_iterations; ++result.iterations) {
    throw_if_interrupted();
    if (gsl_multimin_fminimizer_iterate(m.get()) != GSL_SUCCESS) break;
    if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(m.get()), size_tolerance) == GSL_SUCCESS) {
      result.converged = true;
      break;
    }
  }
  result.x.resize(n);
  for (std::size_t i = 0; i < n; ++i) result.x[i] = gsl_vector_get(m->x, i);
  result.value = m->fval;
  return result;
}

std::vector<std::vector<double>> numerical_hessian(const Objective& f, const std::vector<double>& x,
                                                   const std::vector<double>& h) {
  const std::size_t n = x.size();
  std::vector<std::vector<double>> hessian(n, std::vector<double>(n));
  const auto at = [&](std::size_t i, double di, std::size_t j, double dj) {
    auto y = x;
    y[i] += di;
    y[j] += dj;
    return f(y);
  };
  const double center = f(x);
  for (std::size_t i = 0; i < n; ++i) {
    hessian[i][i] = (at(i, h[i], i, 0) - 2 * center + at(i, -h[i], i, 0)) / (h[i] * h[i]);
    for (std::size_t j = 0; j < i; ++j) {
      const double v = (at(i, h[i], j, h[j]) - at(i, h[i], j, -h[j]) - at(i, -h[i], j, h[j]) + at(i, -h[i], j, -h[j])) /
                       (4 * h[i] * h[j]);
      hessian[i][j] = hessian[j][i] = v;
    }
  }
  return hessian;
}

std::vector<std::vector<double>> covariance(const std::vector<std::vector<double>>& information) {
  const auto n = static_cast<Eigen::Index>(information.size());
  Eigen::MatrixXd m(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) m(i, j) = information[i][j];
  if (!m.allFinite()) return {};
  const Eigen::LLT<Eigen::MatrixXd> llt(m);
  if (llt.info() != Eigen::Success) return {};
  const Eigen::MatrixXd inverse = llt.solve(Eigen::MatrixXd::Identity(n, n));
  std::vector<std::vector<double>> out(n, std::vector<double>(n));
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) out[i][j] = inverse(i, j);
  return out;
}

std::vector<double> standard_errors(const std::vector<std::vector<double>>& information) {
  const auto cov = covariance(information);
  std::vector<double> se(information.size(), std::numeric_limits<double>::quiet_NaN());
  if (cov.empty()) return se;
  for (std::size_t i = 0; i < se.size(); ++i) se[i] = std::sqrt(cov[i][i]);
  return se;
}

}  // namespace gs
