#include "estimators/chain_law.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <numeric>

namespace gs {

std::optional<std::vector<double>> stationary_law(const std::vector<std::vector<double>>& matrix, bool generator) {
  const auto k = static_cast<Eigen::Index>(matrix.size());
  Eigen::MatrixXd a(k, k);  // Pᵀ − I or Qᵀ: the stationary law spans its kernel
  for (Eigen::Index i = 0; i < k; ++i) {
    for (Eigen::Index j = 0; j < k; ++j) {
      a(j, i) = matrix[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] - (!generator && i == j ? 1.0 : 0.0);
    }
  }
  Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
  lu.setThreshold(1e-10);
  if (lu.dimensionOfKernel() != 1) return std::nullopt;
  const Eigen::VectorXd v = lu.kernel().col(0);
  const double sum = v.sum();
  std::vector<double> law(static_cast<std::size_t>(k));
  for (Eigen::Index i = 0; i < k; ++i) law[static_cast<std::size_t>(i)] = std::max(0.0, v(i) / sum);
  const double total = std::accumulate(law.begin(), law.end(), 0.0);
  for (double& p : law) p /= total;
  return law;
}

}  // namespace gs
