#include "estimators/eigen_decomposition.hpp"

namespace gs {

std::optional<RealEigenDecomposition> eigen_decomposition(const Eigen::MatrixXd& matrix, bool with_vectors) {
  Eigen::EigenSolver<Eigen::MatrixXd> solver;
  if (solver.compute(matrix, with_vectors).info() != Eigen::Success) return std::nullopt;
  RealEigenDecomposition d{solver.eigenvalues(), Eigen::MatrixXcd()};
  if (with_vectors) d.vectors = solver.eigenvectors();
  return d;
}

}  // namespace gs
