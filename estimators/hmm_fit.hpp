// EM for a continuous-time hidden Markov chain observed at irregular times
// with log-normal emissions (the Titan latency model; docs/fitting.md).
//
// E-step: scaled forward–backward with P(Δt) = exp(QΔt) between observations.
// The expected time spent in each state and the expected number of jumps k → l
// over an interval of length Δ follow from the Van Loan integral
// ∫₀^Δ e^{Q(Δ−s)} Wᵀ e^{Qs} ds, W(i, j) = α_{t−1}(i) e_t(j) β_t(j) / c_t: time in
// k is its (k, k) entry and the jumps k → l are q_kl times its (l, k) entry
// (Hobolth & Jensen 2011). Both the exponentials and the integrals come from
// one eigendecomposition of Q per iteration (block exponentials per distinct Δ
// when Q is nearly defective). M-step: q_kl = jumps / time; each state's
// log-mean and log-sd are the posterior-weighted mean and sd of ln y.
//
// Starts: a normal mixture of ln y (k-means++ seeds, EM) gives the emissions,
// the sojourns of its labels the generator; quantile starts miss states whose
// occupancy is small (two quantiles fall inside the dominant state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gs {

struct HmmFitOptions {
  std::size_t states = 3;
  int starts = 5;               // EM runs from different initial values; the best likelihood is kept
  int max_iterations = 500;     // per start
  double tolerance = 1e-8;      // relative change of the log-likelihood that counts as converged
  std::uint64_t seed = 1;       // the random starts (Philox), so fits are reproducible
  bool standard_errors = true;  // observed information by a numerical Hessian (costly for many distinct Δt)
};

// Starts whose final ln L is this close to the best count as reaching it.
constexpr double kSameOptimum = 0.5;

struct HmmFit {
  std::vector<std::vector<double>> generator;  // Q, states ordered by increasing mu
  std::vector<double> mu, sigma;               // log-normal emission per state
  std::vector<double> initial;                 // posterior law of the first state
  // Standard errors of the off-diagonal rates, mu and sigma (NaN where unavailable).
  std::vector<std::vector<double>> generator_se;
  std::vector<double> mu_se, sigma_se;
  double log_likelihood = 0;
  int iterations = 0;  // of the best start
  bool converged = false;
  int best_start = 0;
  std::vector<double> start_log_likelihoods;  // the final value of every start
  int starts_at_best = 0;                     // starts ending within kSameOptimum of the best ln L
  std::vector<double> trace;                  // log-likelihood per iteration of the best start
  std::string note;
};

// times strictly increasing, values > 0 (latencies).
HmmFit fit_hmm(const std::vector<double>& times, const std::vector<double>& values, const HmmFitOptions& options);

// ln L of the model (initial law `initial`, or the stationary law when empty).
double hmm_log_likelihood(const std::vector<double>& times, const std::vector<double>& values,
                          const std::vector<std::vector<double>>& generator, const std::vector<double>& mu,
                          const std::vector<double>& sigma, const std::vector<double>& initial);

}  // namespace gs
