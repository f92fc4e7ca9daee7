// The logistic fit's passes over its rows (estimators/burst_statistics.cpp):
// the linear predictor, each row's probability terms, and the score with the
// Fisher information XᵀWX. Every form gives the same bits, so a fit does on
// every CPU (docs/bursts.md): each row's value is the same IEEE operations in
// the same order, and every sum over rows runs row i into partial sum i mod 4,
// added as (s0 + s1) + (s2 + s3), whichever rows a pack or a cache block holds.
// The baseline form is compiled for the target's baseline (two SSE2 registers a
// pack of four on x86-64); the AVX form (estimators/lanes_avx_logistic.cpp,
// compiled with -mavx, entered only on a CPU that has AVX) holds a pack in one
// register. The design is stored by column: column k of n rows at x + k·n.
#pragma once

#include <cstddef>

#include "estimators/deterministic_exp.hpp"

namespace gs {

struct LogisticPasses {
  // For the row-major features (`columns` a row) of the given rows, in their
  // order: mean[k] = Σ v_k / n, then squares[k] = Σ (v_k − mean[k])², for k < columns.
  void (*column_moments)(const double* features, std::size_t columns, const std::size_t* rows, std::size_t n,
                         double* mean, double* squares);
  // x[k·n + i] = (v_k of row rows[i] − mean[k]) / sd[k], for k < columns and i < n.
  void (*standardize)(const double* features, std::size_t columns, const std::size_t* rows, std::size_t n,
                      const double* mean, const double* sd, double* x);
  // eta[i] = Σ_k x_k[i]·beta[k], k from 0 up, starting from +0.
  void (*linear_predictor)(const double* x, std::size_t n, std::size_t p, const double* beta, double* eta);
  // η of `count` rows of row-major features (`columns` a row) with coefficients
  // b_0 … b_columns on their scale: b_0 + Σ_{k ≥ 1} b_k·v_{k−1}, k from 1 up.
  void (*row_predictor)(const double* features, std::size_t columns, std::size_t count, const double* b, double* eta);
  // From η and e = exp(−|η|), each row's P(y = 1) = 1/(1 + e) for η ≥ 0, e/(1 + e)
  // otherwise (finite for any η).
  void (*probabilities)(const double* eta, const double* e, std::size_t n, double* probability);
  // From η, e and y, each row's weight = max(P(1 − P), 1e-12); residual = y − P; and the
  // likelihood's term y·η − max(η, 0) (less log(1 + e), which the caller adds by blocks).
  void (*row_terms)(const double* eta, const double* e, const double* y, std::size_t n, double* weight,
                    double* residual, double* term);
  // gradient[k] = Σ_i residual_i·x_k[i]; information, p × p by column, both
  // triangles: (k, c) = Σ_i (weight_i·x_k[i])·x_c[i]. The partial sums wait in
  // scratch, logistic_scratch_size(p) doubles.
  void (*score_and_information)(const double* x, std::size_t n, std::size_t p, const double* weight,
                                const double* residual, double* gradient, double* information, double* scratch);
};

// The doubles score_and_information's scratch holds: four partial sums for each of the gradient's p values
// and the information's p(p + 1)/2.
constexpr std::size_t logistic_scratch_size(std::size_t p) { return 4 * (p + p * (p + 1) / 2); }

// The passes in a form (AVX-512 runs the AVX form); nullptr where this CPU lacks the form.
const LogisticPasses* logistic_passes_in_form(VectorForm form);

// The passes in the widest form this CPU runs.
const LogisticPasses& logistic_passes();

}  // namespace gs
