#include "estimators/hmm_fit.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <numeric>
#include <unsupported/Eigen/MatrixFunctions>

#include "estimators/chain_law.hpp"
#include "estimators/eigen_decomposition.hpp"
#include "estimators/empirical.hpp"
#include "estimators/minimize.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/parallel.hpp"
#include "kernels/philox.hpp"

namespace gs {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kMinLogSd = 1e-3;
constexpr std::uint32_t kStartStream = 0x4E3A7u;
constexpr int kMixtureIterations = 500;
constexpr int kMaxFitStates = 10;       // --hmm-states accepts 1 to 10
constexpr double kBoundaryRate = 1e-8;  // a rate below this times the fastest exit rate is at its boundary 0

struct Params {
  MatrixXd Q;
  VectorXd mu, sigma, initial;
};

struct Data {
  std::vector<double> dt;     // dt[t] = times[t] − times[t−1], t ≥ 1
  std::vector<double> log_y;  // ln y_t
  double sum_log_y = 0;       // Σ ln y_t (the log-normal's Jacobian)
  // The distinct interval lengths (ascending) and each t's: the per-interval
  // route has one transition matrix and one Van Loan exponential per length.
  std::vector<double> intervals;
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
  for (const auto& [length, members] : by_length) {
    for (std::size_t t : members) d.interval_of[t] = d.intervals.size();
    d.intervals.push_back(length);
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

// (e^z − 1)/z, accurate near 0 (the Van Loan integral of two close eigenvalues).
std::complex<double> expm1_ratio(std::complex<double> z) {
  if (std::abs(z) >= 0.1) return (std::exp(z) - 1.0) / z;
  std::complex<double> sum = 0, term = 1;
  for (int n = 1; n <= 12; ++n) sum += term /= static_cast<double>(n), term *= z;
  return sum;
}

// The chain between observations: v·exp(QΔ_t), exp(QΔ_t)·v and the Van Loan
// integrals ∫₀^Δ e^{Q(Δ−s)} b a e^{Qs} ds summed over t. With Q = V D V⁻¹ all
// three cost O(k²) per observation (the integrand is rank one; its integral is
// V[(V⁻¹b)(aV) ∘ J(Δ)]V⁻¹, J_xy = (e^{d_yΔ} − e^{d_xΔ})/(d_y − d_x)). When V is
// ill-conditioned (Q nearly defective), or when few Δ are distinct, every
// distinct Δ gets its own Padé exponential and Van Loan block exponential instead.
class Propagator {
 public:
  // Vectors of at most kMaxFitStates entries live on the stack: the per-observation steps allocate nothing.
  using Complex = std::complex<double>;
  using ComplexColumn = Eigen::Matrix<Complex, Eigen::Dynamic, 1, 0, kMaxFitStates, 1>;
  using ComplexRow = Eigen::Matrix<Complex, 1, Eigen::Dynamic, Eigen::RowMajor, 1, kMaxFitStates>;
  using Column = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxFitStates, 1>;
  using Row = Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor, 1, kMaxFitStates>;
  using ComplexMatrix = Eigen::Matrix<Complex, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxFitStates, kMaxFitStates>;

  Propagator(const Data& d, const MatrixXd& Q) : d_(d), Q_(Q), k_(Q.rows()) {
    const bool many_intervals = d.intervals.size() * kIntervalsPerObservation > d.dt.size();
    const auto spectrum = many_intervals ? eigen_decomposition(Q, true) : std::nullopt;
    if (spectrum) {
      V_ = spectrum->vectors;
      const Eigen::FullPivLU<ComplexMatrix> lu(V_);
      if (lu.rcond() > kMinConditionReciprocal) {
        V_inv_ = lu.inverse();
        eigenvalues_ = spectrum->values;
        spectral_ = true;
        flow_sum_ = ComplexMatrix::Zero(k_, k_);
        inverse_gap_ = ComplexMatrix::Zero(k_, k_);
        for (Eigen::Index x = 0; x < k_; ++x)
          for (Eigen::Index y = 0; y < k_; ++y)
            if (eigenvalues_(y) != eigenvalues_(x)) inverse_gap_(x, y) = 1.0 / (eigenvalues_(y) - eigenvalues_(x));
        decay_.resize(static_cast<Eigen::Index>(d.dt.size()), k_);
        for (std::size_t t = 1; t < d.dt.size(); ++t)
          decay_.row(static_cast<Eigen::Index>(t)) = (eigenvalues_.transpose() * d.dt[t]).array().exp();
        return;
      }
    }
    P_.resize(d.intervals.size());
#pragma omp parallel for schedule(dynamic, 64)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(P_.size()); ++i)
      P_[static_cast<std::size_t>(i)] = (Q * d.intervals[static_cast<std::size_t>(i)]).exp();
    W_.assign(d.intervals.size(), MatrixXd::Zero(k_, k_));
  }

  bool spectral() const { return spectral_; }

  Row forward(const Row& a, std::size_t t) const {
    if (!spectral_) return a * P_[d_.interval_of[t]];
    const ComplexRow x = (a.cast<Complex>() * V_).cwiseProduct(decay_.row(static_cast<Eigen::Index>(t)));
    return (x * V_inv_).real().cwiseMax(0.0);
  }

  Column backward(const Column& v, std::size_t t) const {
    if (!spectral_) return P_[d_.interval_of[t]] * v;
    const ComplexColumn x =
        (V_inv_ * v.cast<Complex>()).cwiseProduct(decay_.row(static_cast<Eigen::Index>(t)).transpose());
    return (V_ * x).real().cwiseMax(0.0);
  }

  // Adds the integral over observation t's interval with integrand e^{Q(Δ−s)} b a e^{Qs}.
  void add_flow(std::size_t t, const Row& a, const Column& b) {
    if (!spectral_) {
      W_[d_.interval_of[t]].noalias() += b * a;
      return;
    }
    const double delta = d_.dt[t];
    const ComplexColumn left = V_inv_ * b.cast<Complex>();
    const ComplexRow right = a.cast<Complex>() * V_;
    const ComplexRow e = decay_.row(static_cast<Eigen::Index>(t));
    for (Eigen::Index y = 0; y < k_; ++y) {
      for (Eigen::Index x = 0; x < k_; ++x) {
        const Complex gap = eigenvalues_(y) - eigenvalues_(x);
        const Complex J =
            std::abs(gap * delta) < 0.1 ? delta * e(x) * expm1_ratio(gap * delta) : (e(y) - e(x)) * inverse_gap_(x, y);
        flow_sum_(x, y) += left(x) * right(y) * J;
      }
    }
  }

  // Σ_t of the integrals added.
  MatrixXd flow() const {
    if (spectral_) return (V_ * flow_sum_ * V_inv_).real();
    std::vector<MatrixXd> integrals(d_.intervals.size());
#pragma omp parallel for schedule(dynamic, 64)
    for (std::int64_t l = 0; l < static_cast<std::int64_t>(integrals.size()); ++l) {
      const auto i = static_cast<std::size_t>(l);
      const double delta = d_.intervals[i];
      MatrixXd block = MatrixXd::Zero(2 * k_, 2 * k_);
      block.topLeftCorner(k_, k_) = Q_ * delta;
      block.bottomRightCorner(k_, k_) = Q_ * delta;
      block.topRightCorner(k_, k_) = W_[i] * delta;
      integrals[i] = block.exp().topRightCorner(k_, k_);
    }
    MatrixXd total = MatrixXd::Zero(k_, k_);
    for (const MatrixXd& M : integrals) total += M;
    return total;
  }

 private:
  static constexpr double kMinConditionReciprocal = 1e-8;
  // A Padé exponential and a Van Loan block exponential cost about as much as
  // 16 observations' spectral steps: with fewer distinct Δ (regular probes)
  // the per-interval route is the cheaper one.
  static constexpr std::size_t kIntervalsPerObservation = 16;

  const Data& d_;
  MatrixXd Q_;
  Eigen::Index k_;
  bool spectral_ = false;
  ComplexMatrix V_, V_inv_, flow_sum_, inverse_gap_;
  Eigen::VectorXcd eigenvalues_;
  Eigen::MatrixXcd decay_;       // row t: e^{d Δ_t}
  std::vector<MatrixXd> P_, W_;  // the fallback: per distinct interval
};

struct Forward {
  MatrixXd alpha;  // normalised forward probabilities
  VectorXd c;      // scaling factors
  double log_likelihood;
};

Forward forward(const Data& d, const Params& p, const MatrixXd& e, const std::vector<double>& log_scale,
                const Propagator& chain) {
  const auto n = static_cast<Eigen::Index>(d.log_y.size());
  Forward f{MatrixXd(n, p.mu.size()), VectorXd(n), 0.0};
  Propagator::Row a = p.initial.transpose().cwiseProduct(e.row(0));
  for (Eigen::Index t = 0; t < n; ++t) {
    if (t > 0) a = chain.forward(f.alpha.row(t - 1), static_cast<std::size_t>(t)).cwiseProduct(e.row(t));
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
  Propagator chain(d, p.Q);
  const Forward f = forward(d, p, e, log_scale, chain);
  if (!std::isfinite(f.log_likelihood)) return f.log_likelihood;
  // Backward pass; the expected time in each state and jumps between states
  // come from the flow of every interval, with integrand rank one:
  // b = e_t∘β_t / c_t, a = α_{t−1} (Hobolth & Jensen 2011).
  MatrixXd beta(n, k);
  beta.row(n - 1).setOnes();
  for (Eigen::Index t = n - 1; t > 0; --t) {
    const Propagator::Column b = e.row(t).cwiseProduct(beta.row(t)).transpose() / f.c(t);
    chain.add_flow(static_cast<std::size_t>(t), f.alpha.row(t - 1), b);
    beta.row(t - 1) = chain.backward(b, static_cast<std::size_t>(t)).transpose();
  }
  const MatrixXd gamma = f.alpha.cwiseProduct(beta);
  const MatrixXd M = chain.flow();
  VectorXd time_in = VectorXd::Zero(k);
  MatrixXd jumps = MatrixXd::Zero(k, k);
  for (Eigen::Index i = 0; i < k; ++i) {
    time_in(i) += M(i, i);
    for (Eigen::Index j = 0; j < k; ++j)
      if (i != j) jumps(i, j) += p.Q(i, j) * M(j, i);
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
  return forward(d, p, e, log_scale, Propagator(d, p.Q)).log_likelihood;
}

// A k-component normal mixture of ln y (the marginal law of the emissions),
// seeded by k-means++ from Philox stream (seed, start) and refined by EM.
struct Mixture {
  std::vector<double> weight, mean, sd;

  // ln(weight_i · density_i(x)) up to the constant −ln √(2π): the E-step's and the labelling's score.
  double log_share(std::size_t i, double x) const {
    const double z = (x - mean[i]) / sd[i];
    return std::log(weight[i]) - 0.5 * z * z - std::log(sd[i]);
  }
};

// The uniforms of a start: Philox stream (seed, kStartStream), replica = start,
// position = which, draw = the purpose (k-means++ seeding or rate scaling).
enum class StartDraw : std::uint32_t { seeding = 0, rate_scale = 1 };
double start_uniform(std::uint64_t seed, int start, StartDraw purpose, std::uint64_t which) {
  return uniform_open(philox_bits({seed, kStartStream}, static_cast<std::uint32_t>(start), which,
                                  static_cast<std::uint32_t>(purpose))[0]);
}

Mixture fit_mixture(const std::vector<double>& x, std::size_t k, std::uint64_t seed, int start) {
  const std::size_t n = x.size();
  std::uint64_t draws = 0;
  const auto uniform = [&] { return start_uniform(seed, start, StartDraw::seeding, draws++); };
  // Greedy k-means++ (as scikit-learn's): each next centre is the best of
  // 2 + ln k candidates drawn with probability ∝ squared distance to the
  // nearest centre, best meaning the smallest sum of those distances after.
  const int candidates = 2 + static_cast<int>(std::log(static_cast<double>(k)));
  std::vector<double> centres = {x[std::min(n - 1, static_cast<std::size_t>(uniform() * static_cast<double>(n)))]};
  std::vector<double> nearest(n);
  for (std::size_t t = 0; t < n; ++t) nearest[t] = std::pow(x[t] - centres[0], 2);
  while (centres.size() < k) {
    const double total = std::accumulate(nearest.begin(), nearest.end(), 0.0);
    double best_potential = std::numeric_limits<double>::infinity(), best_centre = x[n - 1];
    for (int c = 0; c < candidates; ++c) {
      double target = uniform() * total;
      std::size_t chosen = n - 1;
      for (std::size_t t = 0; t < n && total > 0; ++t)
        if ((target -= nearest[t]) <= 0) {
          chosen = t;
          break;
        }
      double potential = 0;
      for (std::size_t t = 0; t < n; ++t) potential += std::min(nearest[t], std::pow(x[t] - x[chosen], 2));
      if (potential < best_potential) best_potential = potential, best_centre = x[chosen];
    }
    centres.push_back(best_centre);
    for (std::size_t t = 0; t < n; ++t) nearest[t] = std::min(nearest[t], std::pow(x[t] - best_centre, 2));
  }
  const double spread = std::max(kMinLogSd, mean_and_sd(x).sd);
  Mixture m{std::vector<double>(k, 1.0 / static_cast<double>(k)), centres,
            std::vector<double>(k, spread / static_cast<double>(k))};
  std::vector<double> r(k);
  std::vector<double> weight(k), sum(k), squares(k);
  double previous = -std::numeric_limits<double>::infinity();
  for (int iteration = 0; iteration < kMixtureIterations; ++iteration) {
    std::fill(weight.begin(), weight.end(), 0.0), std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(squares.begin(), squares.end(), 0.0);
    double log_likelihood = 0;
    for (std::size_t t = 0; t < n; ++t) {
      double top = -std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < k; ++i) top = std::max(top, r[i] = m.log_share(i, x[t]));
      double total = 0;
      for (std::size_t i = 0; i < k; ++i) total += r[i] = std::exp(r[i] - top);
      log_likelihood += top + std::log(total);
      for (std::size_t i = 0; i < k; ++i) {
        const double w = r[i] / total;
        weight[i] += w, sum[i] += w * x[t], squares[i] += w * x[t] * x[t];
      }
    }
    for (std::size_t i = 0; i < k; ++i) {
      if (!(weight[i] > 0)) continue;  // an empty component keeps its place
      m.weight[i] = weight[i] / static_cast<double>(n);
      m.mean[i] = sum[i] / weight[i];
      m.sd[i] = std::max(kMinLogSd, std::sqrt(std::max(0.0, squares[i] / weight[i] - m.mean[i] * m.mean[i])));
    }
    if (log_likelihood - previous <= 1e-10 * std::fabs(log_likelihood)) break;
    previous = log_likelihood;
  }
  return m;
}

// A start: the emissions of a mixture fit of ln y, the generator from the
// sojourns of its most likely labels (jumps between consecutive labels over
// the time spent in each; half a jump where none was seen, since EM never
// revives a zero rate). Start 0 keeps those rates; later starts scale each
// row's rates by a Philox factor in [1/4, 4] so that their dynamics differ too.
Params initial_params(const Data& d, std::size_t k, int start, std::uint64_t seed) {
  const Mixture m = fit_mixture(d.log_y, k, seed, start);
  const auto kk = static_cast<Eigen::Index>(k);
  Params p{MatrixXd::Zero(kk, kk), VectorXd(kk), VectorXd(kk), VectorXd(kk)};
  for (std::size_t i = 0; i < k; ++i) p.mu(i) = m.mean[i], p.sigma(i) = m.sd[i], p.initial(i) = m.weight[i];
  std::vector<std::size_t> label(d.log_y.size());
  for (std::size_t t = 0; t < label.size(); ++t) {
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < k; ++i) {
      const double score = m.log_share(i, d.log_y[t]);
      if (score > best) best = score, label[t] = i;
    }
  }
  MatrixXd jumps = MatrixXd::Zero(kk, kk);
  VectorXd time_in = VectorXd::Zero(kk);
  for (std::size_t t = 1; t < label.size(); ++t) {
    time_in(label[t - 1]) += d.dt[t];
    if (label[t] != label[t - 1]) jumps(label[t - 1], label[t]) += 1;
  }
  const double total_time = time_in.sum();
  for (Eigen::Index i = 0; i < kk; ++i) {
    const double scale =
        start == 0
            ? 1.0
            : std::pow(4.0, 2 * start_uniform(seed, start, StartDraw::rate_scale, static_cast<std::uint64_t>(i)) - 1);
    double out = 0;
    for (Eigen::Index j = 0; j < kk; ++j)
      if (j != i) out += p.Q(i, j) = scale * std::max(jumps(i, j), 0.5) / std::max(time_in(i), total_time / 1e3);
    p.Q(i, i) = -out;
  }
  return p;
}

// The EM parameters as an unconstrained vector for SQUAREM's extrapolation:
// ln q_ij (i ≠ j), μ_i, ln σ_i.
VectorXd unconstrained(const Params& p) {
  const auto k = p.mu.size();
  VectorXd theta(k * (k - 1) + 2 * k);
  Eigen::Index at = 0;
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index j = 0; j < k; ++j)
      if (i != j) theta(at++) = std::log(std::max(p.Q(i, j), std::numeric_limits<double>::min()));
  for (Eigen::Index i = 0; i < k; ++i) theta(at++) = p.mu(i);
  for (Eigen::Index i = 0; i < k; ++i) theta(at++) = std::log(p.sigma(i));
  return theta;
}

// The parameters of `theta`, with the initial law of `like`.
Params constrained(const VectorXd& theta, const Params& like) {
  Params p = like;
  const auto k = p.mu.size();
  Eigen::Index at = 0;
  for (Eigen::Index i = 0; i < k; ++i) {
    double out = 0;
    for (Eigen::Index j = 0; j < k; ++j)
      if (i != j) out += p.Q(i, j) = std::exp(theta(at++));
    p.Q(i, i) = -out;
  }
  for (Eigen::Index i = 0; i < k; ++i) p.mu(i) = theta(at++);
  for (Eigen::Index i = 0; i < k; ++i) p.sigma(i) = std::max(kMinLogSd, std::exp(theta(at++)));
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

namespace {

// One EM start: its parameters, the ln L of every step, whether it converged.
struct EmStart {
  Params p;
  std::vector<double> trace;
  bool converged = false;
  double log_likelihood = 0;
};

// Start `s` run to convergence (or max_iterations) by EM with SQUAREM.
EmStart run_em_start(const Data& d, std::size_t k, std::size_t s, const HmmFitOptions& options) {
  EmStart start;
  start.p = initial_params(d, k, static_cast<int>(s), options.seed);
  // Appends the ln L of the point a step starts from; false when the run ends.
  const auto record = [&](double ll) {
    throw_if_interrupted();
    if (!std::isfinite(ll)) return false;
    const double previous = start.trace.empty() ? -std::numeric_limits<double>::infinity() : start.trace.back();
    start.trace.push_back(ll);
    start.converged = std::fabs(ll - previous) <= options.tolerance * std::fabs(ll);
    return !start.converged && static_cast<int>(start.trace.size()) < options.max_iterations;
  };
  // SQUAREM (Varadhan & Roland 2008, steplength S3): two EM steps θ1 = F(θ0),
  // θ2 = F(θ1), then an EM step from θ0 − 2αr + α²v (r = θ1 − θ0,
  // v = θ2 − 2θ1 + θ0, α = −‖r‖/‖v‖ ≤ −1) when its ln L is not below θ1's,
  // else on from θ2: the likelihood never decreases.
  while (true) {
    const VectorXd theta0 = unconstrained(start.p);
    if (!record(em_step(d, start.p))) break;
    const VectorXd theta1 = unconstrained(start.p);
    const double ll1 = start.trace.back();
    if (!record(em_step(d, start.p))) break;
    const VectorXd r = theta1 - theta0, v = unconstrained(start.p) - theta1 - r;
    if (!(v.norm() > 0)) continue;
    const double alpha = std::min(-1.0, -r.norm() / v.norm());
    Params trial = constrained(theta0 - 2 * alpha * r + alpha * alpha * v, start.p);
    const double ll = em_step(d, trial);
    if (!(ll >= ll1)) continue;
    start.p = trial;
    if (!record(ll)) break;
  }
  start.log_likelihood = log_likelihood_of(d, start.p);  // of the final parameters
  return start;
}

// The states ordered by their log-mean, so that fits are comparable.
Params states_by_mean(const Params& best, std::size_t k) {
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
  return sorted;
}

// The standard errors of the fit at `sorted` from the observed information,
// and a note naming the parameters that have none.
void add_standard_errors(const Data& d, const Params& sorted, std::size_t k, HmmFit& fit) {
  // Observed information in (ln q_ij for i ≠ j, μ_i, ln σ_i); the rates' SE
  // by the delta method (se(q) = q·se(ln q)). The initial law stays fixed.
  // A rate at its boundary 0, or a parameter in which ln L is not concave,
  // has no SE: it is named in the note, and the others' SEs hold it fixed.
  const VectorXd optimum = unconstrained(sorted);
  const std::vector<double> theta(optimum.data(), optimum.data() + optimum.size());
  const Objective negative = [&](const std::vector<double>& v) {
    return -log_likelihood_of(d, constrained(Eigen::Map<const VectorXd>(v.data(), optimum.size()), sorted));
  };
  const auto information = numerical_hessian(negative, theta, std::vector<double>(theta.size(), 1e-4));
  std::vector<std::string> names, why(theta.size());
  double fastest = 0;
  for (std::size_t i = 0; i < k; ++i) fastest = std::max(fastest, -fit.generator[i][i]);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      if (i != j) {
        if (fit.generator[i][j] < kBoundaryRate * fastest) why[names.size()] = "rate at its boundary 0";
        names.push_back(fmt::format("q[{}][{}]", i, j));
      }
  for (std::size_t i = 0; i < k; ++i) names.push_back(fmt::format("mu[{}]", i));
  for (std::size_t i = 0; i < k; ++i) names.push_back(fmt::format("sigma[{}]", i));
  std::vector<std::size_t> free;
  for (std::size_t a = 0; a < theta.size(); ++a) {
    if (why[a].empty() && !(information[a][a] > 0)) why[a] = "ln L not concave in it";
    if (why[a].empty()) free.push_back(a);
  }
  std::vector<std::vector<double>> kept(free.size(), std::vector<double>(free.size()));
  for (std::size_t a = 0; a < free.size(); ++a)
    for (std::size_t b = 0; b < free.size(); ++b) kept[a][b] = information[free[a]][free[b]];
  const auto kept_se = standard_errors(kept);
  std::vector<double> se(theta.size(), std::numeric_limits<double>::quiet_NaN());
  const bool definite = !kept_se.empty() && !std::isnan(kept_se[0]);
  if (definite)
    for (std::size_t a = 0; a < free.size(); ++a) se[free[a]] = kept_se[a];
  std::size_t at = 0;
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      if (i != j) fit.generator_se[i][j] = fit.generator[i][j] * se[at++];
  for (std::size_t i = 0; i < k; ++i) fit.mu_se[i] = se[at++];
  for (std::size_t i = 0; i < k; ++i) fit.sigma_se[i] = fit.sigma[i] * se[at++];
  std::vector<std::string> missing;
  for (std::size_t a = 0; a < theta.size(); ++a)
    if (!why[a].empty()) missing.push_back(names[a] + " (" + why[a] + ")");
  std::string said;
  if (!missing.empty())
    said = fmt::format("no SE for {}; the other SEs hold {} fixed", fmt::join(missing, ", "),
                       missing.size() == 1 ? "it" : "them");
  if (!definite && !free.empty())
    said += (said.empty() ? "" : "; ") + std::string("observed information not positive definite: no SE");
  if (!said.empty()) fit.note += (fit.note.empty() ? "" : "; ") + said;
}

}  // namespace

HmmFit fit_hmm(const std::vector<double>& times, const std::vector<double>& values, const HmmFitOptions& options) {
  const Data d = prepare(times, values);
  const std::size_t k = options.states;
  if (k < 1 || k > kMaxFitStates) throw UserError(fmt::format("hmm fit: states must be 1 to {}", kMaxFitStates));
  // The starts run side by side; the best is chosen in start order.
  std::vector<EmStart> starts(static_cast<std::size_t>(std::max(options.starts, 0)));
  for_each_in_parallel(starts.size(), [&](std::size_t s) { starts[s] = run_em_start(d, k, s, options); });
  HmmFit fit;
  Params best;
  double best_ll = -std::numeric_limits<double>::infinity();
  for (std::size_t s = 0; s < starts.size(); ++s) {
    const EmStart& start = starts[s];
    fit.start_log_likelihoods.push_back(start.log_likelihood);
    if (start.log_likelihood > best_ll) {
      best_ll = start.log_likelihood, best = start.p, fit.best_start = static_cast<int>(s);
      fit.trace = start.trace, fit.converged = start.converged;
      fit.iterations = static_cast<int>(start.trace.size());
    }
  }
  if (!std::isfinite(best_ll)) throw UserError("hmm fit: no start reached a finite likelihood");
  for (const double ll : fit.start_log_likelihoods) fit.starts_at_best += ll >= best_ll - kSameOptimum;
  const Params sorted = states_by_mean(best, k);
  fit.generator = to_rows(sorted.Q);
  fit.mu.assign(sorted.mu.data(), sorted.mu.data() + k);
  fit.sigma.assign(sorted.sigma.data(), sorted.sigma.data() + k);
  fit.initial.assign(sorted.initial.data(), sorted.initial.data() + k);
  fit.log_likelihood = best_ll;
  fit.generator_se.assign(k, std::vector<double>(k, std::numeric_limits<double>::quiet_NaN()));
  fit.mu_se.assign(k, std::numeric_limits<double>::quiet_NaN());
  fit.sigma_se.assign(k, std::numeric_limits<double>::quiet_NaN());
  if (!fit.converged) fit.note = fmt::format("EM stopped after {} iterations without converging", fit.iterations);
  if (options.standard_errors) add_standard_errors(d, sorted, k, fit);
  return fit;
}

}  // namespace gs
