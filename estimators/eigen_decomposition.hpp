#pragma once

#include <Eigen/Dense>
#include <optional>

namespace gs {

// The eigenvalues of a real square matrix, and its eigenvectors when asked: Eigen's EigenSolver
// (real Schur form), compiled in this one place. Its instantiation costs about ten CPU-seconds of
// a first build, and the CT-HMM fit's propagator and FARIMA's AR roots both need it.
struct RealEigenDecomposition {
  Eigen::VectorXcd values;
  Eigen::MatrixXcd vectors;  // empty unless asked for; column j belongs to values(j)
};

// Nothing when the QR iteration does not converge.
std::optional<RealEigenDecomposition> eigen_decomposition(const Eigen::MatrixXd& matrix, bool with_vectors);

}  // namespace gs
