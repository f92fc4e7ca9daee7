// model: farima — FARIMA(p, d, q) with Gaussian innovations, exact by circulant
// embedding of its autocovariance, or with α-stable innovations (Stoev and
// Taqqu's FARIMA, the partner of lfsn), as a truncated MA(∞) by FFT
// convolution.
#include "host/models/farima.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "estimators/eigen_decomposition.hpp"
#include "estimators/model_fit.hpp"
#include "host/base/errors.hpp"
#include "host/base/fft.hpp"
#include "host/models/fit.hpp"
#include "host/models/model.hpp"
#include "host/models/spectral.hpp"
#include "kernels/lfsn.hpp"

namespace gs {

namespace {

// ψ_0, ψ_1, … of θ(B)/φ(B), until the last max(p, 1) weights past q + p are
// all below 1e-18 of the largest (the AR roots are inside |z| < 0.9999, so
// they decay geometrically).
std::vector<double> arma_weights(const std::vector<double>& ar, const std::vector<double>& ma) {
  const std::size_t p = ar.size(), q = ma.size();
  std::vector<double> psi = {1.0};
  double largest = 1;
  for (std::size_t j = 1;; ++j) {
    double value = j <= q ? ma[j - 1] : 0.0;
    for (std::size_t i = 1; i <= std::min(j, p); ++i) value += ar[i - 1] * psi[j - i];
    psi.push_back(value);
    largest = std::max(largest, std::fabs(value));
    if (j >= q + p) {
      const std::size_t window = std::max<std::size_t>(p, 1);
      const bool negligible = std::all_of(psi.end() - static_cast<std::ptrdiff_t>(window), psi.end(),
                                          [&](double x) { return std::fabs(x) <= 1e-18 * largest; });
      if (negligible || p == 0) break;
    }
    if (psi.size() > (std::size_t{1} << 23)) {
      throw UserError(
          "the AR part's weights do not decay within 2^23 lags; its roots are too close to the unit "
          "circle");
    }
  }
  while (psi.size() > 1 && psi.back() == 0.0) psi.pop_back();
  return psi;
}

// Unit-variance fractional noise FD(d): γ(0) = Γ(1−2d)/Γ(1−d)², γ(k)/γ(k−1) = (k−1+d)/(k−d).
std::vector<double> fractional_autocovariance(double d, std::uint64_t max_lag) {
  std::vector<double> gamma(max_lag + 1);
  gamma[0] = std::exp(std::lgamma(1 - 2 * d) - 2 * std::lgamma(1 - d));
  for (std::uint64_t k = 1; k <= max_lag; ++k) {
    const double kd = static_cast<double>(k);
    gamma[k] = gamma[k - 1] * (kd - 1 + d) / (kd - d);
  }
  return gamma;
}

// Largest modulus of the roots of z^p − φ_1 z^{p−1} − … − φ_p (the companion
// matrix's eigenvalues): the AR part is stationary when it is below 1.
double ar_root_modulus(const std::vector<double>& ar) {
  const auto p = static_cast<Eigen::Index>(ar.size());
  if (p == 0) return 0;
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(p, p);
  for (Eigen::Index j = 0; j < p; ++j) companion(0, j) = ar[static_cast<std::size_t>(j)];
  for (Eigen::Index i = 1; i < p; ++i) companion(i, i - 1) = 1;
  const auto roots = eigen_decomposition(companion, false);
  if (!roots) throw UserError(fmt::format("farima: the AR roots of ar = [{}] did not converge", fmt::join(ar, ", ")));
  return roots->values.cwiseAbs().maxCoeff();
}

}  // namespace

std::vector<double> farima_autocovariance(const FarimaParams& model, std::uint64_t max_lag) {
  const double variance = model.sigma * model.sigma;
  const std::vector<double> psi = arma_weights(model.ar, model.ma);
  if (psi.size() == 1) {
    std::vector<double> gamma = fractional_autocovariance(model.d, max_lag);
    for (double& g : gamma) g *= variance;
    return gamma;
  }
  // γ(k) = σ² Σ_{|h| ≤ J} r(h) γ_d(|k − h|), r(h) = Σ_j ψ_j ψ_{j+|h|}.
  const std::uint64_t J = psi.size() - 1;
  const std::vector<double> r = linear_convolution(psi, std::vector<double>(psi.rbegin(), psi.rend()));
  const std::vector<double> gamma_d = fractional_autocovariance(model.d, max_lag + J);
  std::vector<double> two_sided(max_lag + 2 * J + 1);
  for (std::uint64_t i = 0; i < two_sided.size(); ++i) two_sided[i] = gamma_d[i >= J ? i - J : J - i];
  const std::vector<double> full = linear_convolution(r, two_sided);
  std::vector<double> gamma(max_lag + 1);
  for (std::uint64_t k = 0; k <= max_lag; ++k) gamma[k] = variance * full[k + 2 * J];
  return gamma;
}

std::vector<double> farima_ma_weights(const FarimaParams& model, std::uint64_t J) {
  // a = θ(B)/φ(B) applied to π_d, π_0 = 1, π_j = π_{j−1}(j − 1 + d)/j.
  std::vector<double> pi(J + 1), a(J + 1);
  pi[0] = 1;
  for (std::uint64_t j = 1; j <= J; ++j)
    pi[j] = pi[j - 1] * (static_cast<double>(j) - 1 + model.d) / static_cast<double>(j);
  for (std::uint64_t j = 0; j <= J; ++j) {
    double value = pi[j];
    for (std::uint64_t i = 1; i <= std::min<std::uint64_t>(j, model.ma.size()); ++i)
      value += model.ma[i - 1] * pi[j - i];
    for (std::uint64_t i = 1; i <= std::min<std::uint64_t>(j, model.ar.size()); ++i)
      value += model.ar[i - 1] * a[j - i];
    a[j] = value;
  }
  return a;
}

namespace {
namespace models_farima {

class FarimaModel final : public Model {
 public:
  FarimaModel(const FarimaParams& params, bool stable, double alpha, double beta, std::int64_t truncation)
      : p_(params), stable_(stable), alpha_(alpha), beta_(beta), truncation_(truncation) {}

  std::vector<Attribute> describe() const override {
    std::vector<Attribute> attrs = {
        {"d", p_.d},
        {"ar", p_.ar},
        {"ma", p_.ma},
        {"p", static_cast<std::int64_t>(p_.ar.size())},
        {"q", static_cast<std::int64_t>(p_.ma.size())},
        {"sigma", p_.sigma},
        {"innovations", std::string(stable_ ? "stable" : "gaussian")},
        {"law", std::string("phi(B) (1 - B)^d X_t = theta(B) eps_t, phi(B) = 1 - ar[0] B - ... - ar[p-1] B^p, "
                            "theta(B) = 1 + ma[0] B + ... + ma[q-1] B^q")}};
    if (stable_) {
      attrs.push_back({"alpha", alpha_});
      attrs.push_back({"beta", beta_});
      attrs.push_back({"truncation", truncation_});
      attrs.push_back({"innovation_law", std::string("eps_t i.i.d. S1(alpha, beta, sigma, 0) (Nolan's S1)")});
    } else {
      attrs.push_back({"innovation_law", std::string("eps_t i.i.d. N(0, sigma^2)")});
    }
    return attrs;
  }

  std::string rng_use() const override {
    if (!stable_) return describe_philox_uses({circulant_noise_use()});
    using Innovation = StableInnovation<double>;
    return describe_philox_uses(
        {{"innovation eps(t), t = 0..truncation+length-1, of replica r", "t", Innovation::kDraw,
          fmt::format("words {},{} (Chambers-Mallows-Stuck, {}); X(i) uses eps(i..i+truncation)", Innovation::kWords,
                      Innovation::kWords + 1, kUniformRule)}});
  }

  Generation generation(const GenerationRequest& request) const override {
    if (stable_) return stable_generation(request.length);
    const FarimaParams model = p_;
    Generation generation = circulant_generation([&model](std::uint64_t P) { return farima_autocovariance(model, P); },
                                                 request.length, 1.0);
    generation.attributes.push_back({"variance", farima_autocovariance(model, 0)[0]});
    generation.summary = "farima (Gaussian, exact): " + generation.summary;
    return generation;
  }

 private:
  Generation stable_generation(std::uint64_t length) const {
    SpectralPlan plan;
    const auto J = static_cast<std::uint64_t>(truncation_);
    plan.coefficients = farima_ma_weights(p_, J);
    plan.innovation_law.alpha = alpha_;
    plan.innovation_law.beta = beta_;
    plan.innovation_scale = p_.sigma;
    plan.m = 1;
    plan.offset = J + 1;  // X(i) = y(J + 1 + i) = Σ_j a_j Z(J + i − j)
    set_convolution_sizes(plan, J + 1, length);
    double norm_power = 0, signed_power = 0, square_sum = 0, a_log_a = 0;
    for (double a : plan.coefficients) {
      norm_power += std::pow(std::fabs(a), alpha_);
      signed_power += std::copysign(std::pow(std::fabs(a), alpha_), a);
      square_sum += a * a;
      if (a != 0) a_log_a += a * std::log(p_.sigma * std::fabs(a));
    }
    const double scale = p_.sigma * std::pow(norm_power, 1 / alpha_);
    const double beta = beta_ * signed_power / norm_power;
    // At α = 1 scaling by c shifts the location by −(2/π)β c ln|c| (Samorodnitsky–Taqqu 1.2.3).
    const double location = alpha_ == 1.0 ? -2 / kPi * beta_ * p_.sigma * a_log_a : 0.0;
    FarimaParams gaussian = p_;
    gaussian.sigma = 1;
    const double variance_kept = square_sum / farima_autocovariance(gaussian, 0)[0];
    // a_j ~ C j^{d−1}: the α-norm's tail beyond J is about |a_J|^α J / (α(1−d) − 1).
    const double tail =
        std::pow(std::fabs(plan.coefficients.back()), alpha_) * static_cast<double>(J) / (alpha_ * (1 - p_.d) - 1);
    const double alpha_norm_kept = norm_power / (norm_power + tail);
    Generation generation;
    generation.rng_positions = plan.fine_points;
    generation.attributes = {
        {"method", std::string("truncated MA(inf): X_t = sum_{j=0}^{truncation} a_j eps_{t-j}, FFT convolution in "
                               "double precision without wrap-around")},
        {"marginal_law", fmt::format("X_t ~ S1(alpha={}, beta={:.10g}, scale={:.10g}, location={:.10g}) exactly "
                                     "(Nolan's S1)",
                                     alpha_, beta, scale, location)},
        {"marginal_beta", beta},
        {"marginal_scale", scale},
        {"marginal_location", location},
        {"variance_share_kept", variance_kept},
        {"variance_share_kept_definition",
         std::string("sum_{j<=truncation} a_j^2 / sum_j a_j^2: the share of the Gaussian (alpha = 2) variance the "
                     "truncation keeps")},
        {"alpha_norm_share_kept", alpha_norm_kept},
        {"fft_length", plan.fft_length},
    };
    generation.summary = fmt::format(
        "farima: MA(inf) truncated at {} lags, FFT length {}; keeps {:.4f} of the Gaussian "
        "variance and about {:.4f} of the alpha-norm; marginal S1({}, {:.4g}, {:.4g}, {:.4g})",
        J, plan.fft_length, variance_kept, alpha_norm_kept, alpha_, beta, scale, location);
    if (variance_kept < 0.99) {
      generation.warning = fmt::format(
          "the truncation at {} lags keeps only {:.1f}% of the Gaussian variance (d = {}); "
          "raise params.truncation for more of the long memory",
          J, 100 * variance_kept, p_.d);
    }
    generation.spectral = std::move(plan);
    return generation;
  }

  FarimaParams p_;
  bool stable_;
  double alpha_, beta_;
  std::int64_t truncation_;
};

constexpr std::size_t kMaxOrder = 32;

std::shared_ptr<Model> make(const ParamValues& p) {
  const bool stable = p.choice("innovations") == "stable";
  if (stable) {
    if (!p.given("alpha"))
      throw p.error_here(
          fmt::format("{} is missing the required key 'alpha' (the characteristic exponent of the "
                      "stable innovations, 0 < alpha <= 2)",
                      p.where()));
  } else {
    for (const char* key : {"alpha", "beta", "truncation"})
      if (p.given(key))
        throw p.error_at(key, fmt::format("{} applies only with innovations: stable (Gaussian FARIMA is generated "
                                          "exactly, without truncation)",
                                          p.path_of(key)));
  }
  FarimaParams params;
  params.d = p.real("d");
  if (stable) {
    const double top = 1 - 1 / p.real("alpha");  // Σ|a_j|^α converges only below it
    p.check_range("d", params.d, Bounds{-1.0, top, true, true});
  } else {
    p.check_range("d", params.d, Bounds{-0.5, 0.5, true, true});
  }
  for (const char* key : {"ar", "ma"})
    if (p.reals(key).size() > kMaxOrder)
      throw p.error_at(key, fmt::format("{} has {} coefficients; accepted: at most {}", p.path_of(key),
                                        p.reals(key).size(), kMaxOrder));
  params.ar = p.reals("ar");
  params.ma = p.reals("ma");
  const double modulus = ar_root_modulus(params.ar);
  if (!(modulus < 0.9999)) {
    throw p.error_at("ar", fmt::format("{} = [{}] is not stationary: its characteristic roots reach modulus "
                                       "{:.6g}; accepted: every root of z^p - ar[0] z^(p-1) - ... - ar[p-1] "
                                       "inside |z| < 0.9999",
                                       p.path_of("ar"), fmt::join(params.ar, ", "), modulus));
  }
  params.sigma = p.real("sigma");
  return std::make_shared<FarimaModel>(params, stable, p.real("alpha"), p.real("beta"), p.whole("truncation"));
}

// d, AR and MA by Whittle's likelihood; (p, q) by BIC over 0..2 unless given.
FittedModel fit(FitData& data) {
  const std::vector<double>& x = data.series();
  const auto p = data.settings().whole("farima_p"), q = data.settings().whole("farima_q");
  std::vector<FarimaFit> fits;
  if (p || q)
    fits.push_back(fit_farima(x, static_cast<std::size_t>(p.value_or(0)), static_cast<std::size_t>(q.value_or(0))));
  else
    fits = select_farima(x, 2, 2);
  const FarimaFit& f = fits.front();
  FittedModel r;
  r.params = flow_map();
  r.params["d"] = f.d;
  r.params["ar"] = flow_list(f.ar);
  r.params["ma"] = flow_list(f.ma);
  r.params["sigma"] = f.sigma;
  r.workload = flow_map();
  r.workload["delta"] = f.mean;
  r.fit["method"] = "Whittle likelihood (Gaussian), SEs from the observed information";
  r.fit["p"] = f.p;
  r.fit["q"] = f.q;
  r.fit["order_selection"] = fits.size() > 1 ? "BIC over p, q in 0..2" : "given";
  record(r.fit, "d", f.d, f.se_d);
  record_list(r.fit, "ar", f.ar, f.se_ar);
  record_list(r.fit, "ma", f.ma, f.se_ma);
  r.fit["sigma"] = f.sigma;
  r.fit["log_likelihood"] = f.log_likelihood;
  r.fit["aic"] = f.aic;
  r.fit["bic"] = f.bic;
  std::string arma;
  for (std::size_t j = 0; j < f.ar.size(); ++j)
    arma += ", " + pm(fmt::format("ar{}", j + 1).c_str(), f.ar[j], f.se_ar[j]);
  for (std::size_t j = 0; j < f.ma.size(); ++j)
    arma += ", " + pm(fmt::format("ma{}", j + 1).c_str(), f.ma[j], f.se_ma[j]);
  r.estimates = fmt::format("({}, d, {}): {}{}, sigma = {:.4g}", f.p, f.q, pm("d", f.d, f.se_d), arma, f.sigma);
  r.statistic = fmt::format("BIC = {:.6g}", f.bic);
  r.add_boundary(f.boundary);
  return r;
}

[[maybe_unused]] const bool registered = register_model({
    "farima",
    "FARIMA(p, d, q), Gaussian (exact) or alpha-stable innovations",
    "{d: 0.19, ar: [0.3], ma: [0.2], sigma: 15}",
    {real_param("d", "the fractional differencing parameter; Gaussian: -0.5 < d < 0.5, stable: -1 < d < 1 - 1/alpha"),
     reals_param("ar", "phi_1..phi_p, at most 32; every root of z^p - phi_1 z^(p-1) - ... inside |z| < 0.9999")
         .optional("[]"),
     reals_param("ma", "theta_1..theta_q, at most 32").optional("[]"),
     real_param("sigma", "the innovations' standard deviation (Gaussian) or S1 scale (stable)").above(0).defaults(1),
     choice_param("innovations", "gaussian or stable", {"gaussian", "stable"}),
     real_param("alpha", "stable innovations: the characteristic exponent")
         .above(0)
         .at_most(2)
         .optional("required with stable innovations"),
     real_param("beta", "stable innovations: the skewness").at_least(-1).at_most(1).defaults(0),
     whole_param("truncation", "stable innovations: the MA(inf) lags kept")
         .at_least(1)
         .at_most(1 << 26)
         .defaults(10000)},
    make,
    fit,
    true,
    {{"farima_p", "AR order of farima (default: BIC over 0..2)", {}, "", 0, 5},
     {"farima_q", "MA order of farima (default: BIC over 0..2)", {}, "", 0, 5}},
    // GPU/host, 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    8.5,
});

}  // namespace models_farima
}  // namespace

}  // namespace gs
