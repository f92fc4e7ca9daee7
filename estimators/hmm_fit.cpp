#include "estimators/hmm_fit.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <unsupported/Eigen/MatrixFunctions>

#include "estimators/chain_law.hpp"
#include "estimators/empirical.hpp"
#include "estimators/minimize.hpp"
#include "host/base/errors.hpp"
#include "host/base/parallel.hpp"
#include "kernels/philox.hpp"

namespace gs {
namespace {

using Eigen::MatrixXd;
using Eigen::RowVectorXd;
using Eigen::VectorXd;

constexpr double kMinLogSd = 1e-3;
constexpr std::uint32_t kStartStream = 0x4E3A7u;

struct Params {
  MatrixXd Q;
  VectorXd mu, sigma, initial;
};

struct Data {
  std::vector<double> dt;     // dt[t] = times[t] − times[t−1], t ≥ 1
  std::vector<double> log_y;  // ln y_t
  double sum_log_y = 0;       // Σ ln y_t (the log-normal's Jacobian)
  // The distinct interval lengths (ascending), the t with each, and each t's
  // interval: one transition matrix and one Van Loan exponential per length.
  std::vector<double> intervals;
  std::vector<std::vector<std::size_t>> members;
  std::vector<std::size_t> interval_of;  // t ≥ 1
};

Data prepare(const std::vector<double>& times, const std::vector<double>& values) {
  if (times.size() != values.size()) throw UserError("hmm fit: times and values differ in length");
  if (times.size() < 10) throw UserError("hmm fit: at least 10 observations are needed");
  Data d;
  d.dt.assign(times.size(), 0.0);
  for (std::size_t t = 0; t < times.size(); ++t) {
    if (!(values[t] > 0) || !std::isfinite(values[t]))
      throw UserError(
          fmt::format("hmm fit: value {} = {} is not a positive latency (log-normal emissions)", t, values[t]));
    d.log_y.push_back(std::log(values[t]));
    d.sum_log_y += d.log_y.back();
    if (t > 0) {
      d.dt[t] = times[t] - times[t - 1];
      if (!(d.dt[t] > 0)) throw UserError(fmt::format("hmm fit: time {} does not follow time {}", t, t - 1));
    }
  }
  std::map<double, std::vector<std::size_t>> by_length;
  for (std::size_t t = 1; t < times.size(); ++t) by_length[d.dt[t]].push_back(t);
  d.interval_of.assign(times.size(), 0);
  for (auto& [length, members] : by_length) {
    for (std::size_t t : members) d.interval_of[t] = d.intervals.size();
    d.intervals.push_back(length);
    d.members.push_back(std::move(members));
  }
  return d;
}

// Emission densities of ln y per state, each row scaled by its largest entry
// (returned in `log_scale`), so that nothing underflows.
MatrixXd emissions(const Data& d, const Params& p, std::vector<double>& log_scale) {
  const auto n = static_cast<Eigen::Index>(d.log_y.size()), k = p.mu.size();
  MatrixXd e(n, k);
  log_scale.resize(static_cast<std::size_t>(n));
  for (Eigen::Index t = 0; t < n; ++t) {
    double top = -std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < k; ++i) {
      const double z = (d.log_y[t] - p.mu(i)) / p.sigma(i);
      e(t, i) = -0.5 * z * z - std::log(p.sigma(i)) - 0.5 * std::log(2 * kPi);
      top = std::max(top, e(t, i));
    }
    for (Eigen::Index i = 0; i < k; ++i) e(t, i) = std::exp(e(t, i) - top);
    log_scale[t] = top;
  }
  return e;
}

// exp(QΔ) for every distinct Δ, in d.intervals order (independent: in parallel).
std::vector<MatrixXd> transition_matrices(const Data& d, const MatrixXd& Q) {
  std::vector<MatrixXd> P(d.intervals.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(P.size()); ++i)
    P[static_cast<std::size_t>(i)] = (Q * d.intervals[static_cast<std::size_t>(i)]).exp();
  return P;
}

struct Forward {
  MatrixXd alpha;  // normalised forward probabilities
  VectorXd c;      // scaling factors
  double log_likelihood;
};

Forward forward(const Data& d, const Params& p, const MatrixXd& e, const std::vector<double>& log_scale,
                const std::vector<MatrixXd>& P) {
  const auto n = static_cast<Eigen::Index>(d.log_y.size());
  Forward f{MatrixXd(n, p.mu.size()), VectorXd(n), 0.0};
  RowVectorXd a = p.initial.transpose().cwiseProduct(e.row(0));
  for (Eigen::Index t = 0; t < n; ++t) {
    if (t > 0) a = (f.alpha.row(t - 1) * P[d.interval_of[static_cast<std::size_t>(t)]]).cwiseProduct(e.row(t));
    f.c(t) = a.sum();
    if (!(f.c(t) > 0)) {
      f.log_likelihood = -std::numeric_limits<double>::infinity();
      return f;
    }
    f.alpha.row(t) = a / f.c(t);
    f.log_likelihood += std::log(f.c(t)) + log_scale[t];
  }
  f.log_likelihood -= d.sum_log_y;
  return f;
}

// One EM iteration; returns the log-likelihood of `p` (before the update).
double em_step(const Data& d, Params& p) {
  const auto n = static_cast<Eigen::Index>(d.log_y.size()), k = p.mu.size();
  std::vector<double> log_scale;
  const MatrixXd e = emissions(d, p, log_scale);
  const auto P = transition_matrices(d, p.Q);
  const Forward f = forward(d, p, e, log_scale, P);
  if (!std::isfinite(f.log_likelihood)) return f.log_likelihood;
  MatrixXd beta(n, k);
  beta.row(n - 1).setOnes();
  for (Eigen::Index t = n - 1; t > 0; --t)
    beta.row(t - 1) =
        (P[d.interval_of[static_cast<std::size_t>(t)]] * e.row(t).cwiseProduct(beta.row(t)).transpose()).transpose() /
        f.c(t);
  const MatrixXd gamma = f.alpha.cwiseProduct(beta);

  // Expected time in each state and jumps between states, one Van Loan
  // exponential per distinct interval length (in parallel; summed in order).
  std::vector<MatrixXd> integrals(d.intervals.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t l = 0; l < static_cast<std::int64_t>(integrals.size()); ++l) {
    const double delta = d.intervals[static_cast<std::size_t>(l)];
    MatrixXd W = MatrixXd::Zero(k, k);
    for (std::size_t t : d.members[static_cast<std::size_t>(l)]) {
      const auto ti = static_cast<Eigen::Index>(t);
      W += f.alpha.row(ti - 1).transpose() * e.row(ti).cwiseProduct(beta.row(ti)) / f.c(ti);
    }
    MatrixXd block = MatrixXd::Zero(2 * k, 2 * k);
    block.topLeftCorner(k, k) = p.Q * delta;
    block.bottomRightCorner(k, k) = p.Q * delta;
    block.topRightCorner(k, k) = W.transpose() * delta;
    integrals[static_cast<std::size_t>(l)] = block.exp().topRightCorner(k, k);
  }
  VectorXd time_in = VectorXd::Zero(k);
  MatrixXd jumps = MatrixXd::Zero(k, k);
  for (const MatrixXd& M : integrals) {
    for (Eigen::Index i = 0; i < k; ++i) {
      time_in(i) += M(i, i);
      for (Eigen::Index j = 0; j < k; ++j)
        if (i != j) jumps(i, j) += p.Q(i, j) * M(j, i);
    }
  }
  for (Eigen::Index i = 0; i < k; ++i) {
    double out = 0;
    for (Eigen::Index j = 0; j < k; ++j) {
      if (i == j) continue;
      p.Q(i, j) = time_in(i) > 0 ? std::max(jumps(i, j), 0.0) / time_in(i) : 0.0;
      out += p.Q(i, j);
    }
    p.Q(i, i) = -out;
    const double weight = gamma.col(i).sum();
    if (weight > 0) {
      double mean = 0, var = 0;
      for (Eigen::Index t = 0; t < n; ++t) mean += gamma(t, i) * d.log_y[t];
      mean /= weight;
      for (Eigen::Index t = 0; t < n; ++t) var += gamma(t, i) * (d.log_y[t] - mean) * (d.log_y[t] - mean);
      p.mu(i) = mean;
      p.sigma(i) = std::max(kMinLogSd, std::sqrt(var / weight));
    }
  }
  p.initial = gamma.row(0).transpose() / gamma.row(0).sum();
  return f.log_likelihood;
}

double log_likelihood_of(const Data& d, const Params& p) {
  std::vector<double> log_scale;
  const MatrixXd e = emissions(d, p, log_scale);
  return forward(d, p, e, log_scale, transition_matrices(d, p.Q)).log_likelihood;
}

// Start 0 spreads the states over the quantiles of ln y; later starts draw
// the quantile levels and the jump rates at random (Philox, key = seed).
Params initial_params(const Data& d, std::size_t k, int start, std::uint64_t seed, double mean_dt) {
  const SortedSample sorted(d.log_y);
  const double spread = mean_and_sd(d.log_y).sd;
  Params p{MatrixXd::Zero(k, k), VectorXd(k), VectorXd(k), VectorXd::Constant(k, 1.0 / k)};
  std::vector<double> u(2 * k);
  for (std::size_t i = 0; i < u.size(); ++i) {
    const PhiloxBits bits = philox_bits({seed, kStartStream}, static_cast<std::uint32_t>(start), i, 0);
    u[i] = start == 0 ? 0.5 : uniform_open(bits[0]);
  }
  std::vector<double> levels(k);
  for (std::size_t i = 0; i < k; ++i)
    levels[i] = start == 0 ? (i + 0.5) / k : (i + u[i]) / k;  // one level per stratum, ordered
  for (std::size_t i = 0; i < k; ++i) {
    const auto ii = static_cast<Eigen::Index>(i);
    p.mu(ii) = sorted.quantile(levels[i]);
    p.sigma(ii) = std::max(kMinLogSd, spread / static_cast<double>(k));
    const double rate = (start == 0 ? 0.1 : 0.02 + 0.3 * u[k + i]) / mean_dt;  // leave after ~10 observations
    for (std::size_t j = 0; j < k; ++j)
      if (j != i) p.Q(ii, static_cast<Eigen::Index>(j)) = rate / static_cast<double>(k - 1);
    p.Q(ii, ii) = -rate;
  }
  return p;
}

std::vector<std::vector<double>> to_rows(const MatrixXd& m) {
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(m.rows()), std::vector<double>(m.cols()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) rows[i][j] = m(i, j);
  return rows;
}

}  // namespace

double hmm_log_likelihood(const std::vector<double>& times, const std::vector<double>& values,
                          const std::vector<std::vector<double>>& generator, const std::vector<double>& mu,
                          const std::vector<double>& sigma, const std::vector<double>& initial) {
  const Data d = prepare(times, values);
  const auto k = static_cast<Eigen::Index>(mu.size());
  Params p{MatrixXd(k, k), VectorXd(k), VectorXd(k), VectorXd(k)};
  for (Eigen::Index i = 0; i < k; ++i) {
    p.mu(i) = mu[i], p.sigma(i) = sigma[i];
    for (Eigen::Index j = 0; j < k; ++j) p.Q(i, j) = generator[i][j];
  }
  const auto law = initial.empty() ? stationary_law(generator, true) : std::optional<std::vector<double>>(initial);
  if (!law) throw UserError("hmm: the generator has no unique stationary law; give the initial law");
  for (Eigen::Index i = 0; i < k; ++i) p.initial(i) = (*law)[i];
  return log_likelihood_of(d, p);
}

HmmFit fit_hmm(const std::vector<double>& times, const std::vector<double>& values, const HmmFitOptions& options) {
  const Data d = prepare(times, values);
  const std::size_t k = options.states;
  if (k < 1 || k > 8) throw UserError("hmm fit: states must be 1 to 8");
  const double mean_dt = (times.back() - times.front()) / static_cast<double>(times.size() - 1);
  // The starts run side by side; the best is chosen in start order.
  struct Start {
    Params p;
    std::vector<double> trace;
    bool converged = false;
    double log_likelihood = 0;
  };
  std::vector<Start> starts(static_cast<std::size_t>(std::max(options.starts, 0)));
  for_each_in_parallel(starts.size(), [&](std::size_t s) {
    Start& start = starts[s];
    start.p = initial_params(d, k, static_cast<int>(s), options.seed, mean_dt);
    double previous = -std::numeric_limits<double>::infinity();
    for (int it = 0; it < options.max_iterations; ++it) {
      const double ll = em_step(d, start.p);
      if (!std::isfinite(ll)) break;
      start.trace.push_back(ll);
      if (std::fabs(ll - previous) <= options.tolerance * std::fabs(ll)) {
        start.converged = true;
        break;
      }
      previous = ll;
    }
    start.log_likelihood = log_likelihood_of(d, start.p);  // of the final parameters
  });
  HmmFit fit;
  Params best;
  double best_ll = -std::numeric_limits<double>::infinity();
  for (std::size_t s = 0; s < starts.size(); ++s) {
    const Start& start = starts[s];
    fit.start_log_likelihoods.push_back(start.log_likelihood);
    if (start.log_likelihood > best_ll) {
      best_ll = start.log_likelihood, best = start.p, fit.best_start = static_cast<int>(s);
      fit.trace = start.trace, fit.converged = start.converged;
      fit.iterations = static_cast<int>(start.trace.size());
    }
  }
  if (!std::isfinite(best_ll)) throw UserError("hmm fit: no start reached a finite likelihood");
  // Order the states by their log-mean, so fits are comparable.
  std::vector<Eigen::Index> order(k);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return best.mu(a) < best.mu(b); });
  Params sorted = best;
  for (std::size_t i = 0; i < k; ++i) {
    const auto a = static_cast<Eigen::Index>(i);
    sorted.mu(a) = best.mu(order[i]), sorted.sigma(a) = best.sigma(order[i]),
    sorted.initial(a) = best.initial(order[i]);
    for (std::size_t j = 0; j < k; ++j) sorted.Q(a, static_cast<Eigen::Index>(j)) = best.Q(order[i], order[j]);
  }
  fit.generator = to_rows(sorted.Q);
  fit.mu.assign(sorted.mu.data(), sorted.mu.data() + k);
  fit.sigma.assign(sorted.sigma.data(), sorted.sigma.data() + k);
  fit.initial.assign(sorted.initial.data(), sorted.initial.data() + k);
  fit.log_likelihood = best_ll;
  fit.generator_se.assign(k, std::vector<double>(k, std::numeric_limits<double>::quiet_NaN()));
  fit.mu_se.assign(k, std::numeric_limits<double>::quiet_NaN());
  fit.sigma_se.assign(k, std::numeric_limits<double>::quiet_NaN());
  if (!fit.converged) fit.note = fmt::format("EM stopped after {} iterations without converging", fit.iterations);

  if (options.standard_errors) {
    // Observed information in (ln q_ij for i ≠ j, μ_i, ln σ_i); the rates' SE
    // by the delta method (se(q) = q·se(ln q)). The initial law stays fixed.
    std::vector<double> theta;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        if (i != j) theta.push_back(std::log(std::max(fit.generator[i][j], 1e-300)));
    for (std::size_t i = 0; i < k; ++i) theta.push_back(fit.mu[i]);
    for (std::size_t i = 0; i < k; ++i) theta.push_back(std::log(fit.sigma[i]));
    const Objective negative = [&](const std::vector<double>& v) {
      Params p = sorted;
      std::size_t at = 0;
      for (std::size_t i = 0; i < k; ++i) {
        double out = 0;
        for (std::size_t j = 0; j < k; ++j)
          if (i != j) out += p.Q(i, j) = std::exp(v[at++]);
        p.Q(i, i) = -out;
      }
      for (std::size_t i = 0; i < k; ++i) p.mu(i) = v[at++];
      for (std::size_t i = 0; i < k; ++i) p.sigma(i) = std::exp(v[at++]);
      return -log_likelihood_of(d, p);
    };
    const auto se = standard_errors(numerical_hessian(negative, theta, std::vector<double>(theta.size(), 1e-4)));
    std::size_t at = 0;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        if (i != j) fit.generator_se[i][j] = fit.generator[i][j] * se[at++];
    for (std::size_t i = 0; i < k; ++i) fit.mu_se[i] = se[at++];
    for (std::size_t i = 0; i < k; ++i) fit.sigma_se[i] = fit.sigma[i] * se[at++];
    if (std::isnan(se[0]))
      fit.note += (fit.note.empty() ? "" : "; ") + std::string("observed information not positive definite");
  }
  return fit;
}

}  // namespace gs
