#include "host/spectral.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "host/errors.hpp"
#include "host/fft.hpp"
#include "kernels/portability.hpp"

namespace gs {

namespace {

// Innovations on `fine_points` points, convolved with a kernel of `taps`
// coefficients, kept at every m-th point: sizes with no wrap-around.
void set_convolution_sizes(SpectralPlan& plan, std::uint64_t taps, std::uint64_t length) {
  plan.fine_points = taps + plan.m * (length - 1);
  plan.inverse_length = fft_friendly_length((plan.fine_points + 1 + plan.m - 1) / plan.m);
  plan.fft_length = plan.m * plan.inverse_length;
}

SpectralPlan lfsn_plan(const LfsnModel& model, std::uint64_t length) {
  const LfsnKernel kernel = make_lfsn_kernel(model, length);
  SpectralPlan plan;
  plan.innovation_law.alpha = model.alpha;
  plan.innovation_law.beta = model.beta;  // a·X⁺ − b·X⁻ of eq. (4) in one draw (kernels/lfsn.hpp)
  plan.coefficients = kernel.coefficients;
  plan.m = static_cast<std::uint64_t>(model.m);
  plan.offset = static_cast<std::uint64_t>(model.K);
  plan.fine_points = kernel.fine_points;
  plan.inverse_length = kernel.inverse_length;
  plan.fft_length = kernel.fft_length;
  plan.location = -kernel.drift;
  plan.attributes = {
      {"marginal_law", fmt::format("N(i) ~ S1(alpha={}, beta={:.10g}, scale=1, location=0) exactly (Nolan's S1 = "
                                   "eq. (3)); X = N",
                                   model.alpha, kernel.beta_eff)},
      {"marginal_beta", kernel.beta_eff},
      {"kernel",
       std::string("c_k = h_d(k/m) / (sum_j |h_d(j/m)|^alpha)^(1/alpha), k = 1..K*m, h_d(x) = x^d - "
                   "(x-1)^d (x >= 1), x^d (0 < x <= 1); N(i) = sum_k c_k Z(m*i - k), Z ~ S1(alpha, beta, 1, 0) "
                   "i.i.d. (the law of eq. (4)'s a X+ - b X-, a = ((1+beta)/2)^(1/alpha), b = "
                   "((1-beta)/2)^(1/alpha))")},
      {"kernel_alpha_norm", kernel.raw_alpha_norm},
      {"drift_removed", kernel.drift},
      {"fine_points", kernel.fine_points},
      {"fft_length", kernel.fft_length},
      {"inverse_fft_length", kernel.inverse_length},
      {"convolution", std::string("circular FFT convolution in double precision, no wrap-around (fft_length > "
                                  "fine_points); only every m-th point is kept, so the product spectrum is folded "
                                  "m-fold and inverted at length inverse_fft_length = fft_length/m")},
  };
  plan.summary = fmt::format(
      "lfsn: FFT length {} forward, {} inverse ({} fine-grid innovations per replica), kernel "
      "{} coefficients, marginal S1(alpha, beta_eff={:.6g}, 1, 0)",
      kernel.fft_length, kernel.inverse_length, kernel.fine_points, kernel.coefficients.size(), kernel.beta_eff);
  return plan;
}

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

// The exact Gaussian series of autocovariance γ by circulant embedding. The
// embedding starts at M = 2P ≥ 2(n − 1), P 2·3·5·7-smooth, and doubles while
// an eigenvalue is negative beyond rounding (fGn never needs it: its minimal
// embedding is non-negative definite for every H, Craigmile 2003).
template <class Autocovariance>
SpectralPlan circulant_plan(Autocovariance autocovariance, std::uint64_t length, double scale) {
  SpectralPlan plan;
  plan.method = SpectralMethod::circulant;
  std::uint64_t half = fft_friendly_length(std::max<std::uint64_t>(length - 1, 1));
  for (int attempt = 0;; ++attempt, half *= 2) {
    const std::vector<double> lambda = circulant_eigenvalues(autocovariance(half));
    const double largest = *std::max_element(lambda.begin(), lambda.end());
    const double smallest = *std::min_element(lambda.begin(), lambda.end());
    const double tolerance = 1e-10 * largest;
    if (smallest < -tolerance) {
      if (attempt < 4) continue;
      throw UserError(
          fmt::format("the autocovariance cannot be embedded in a non-negative definite circulant "
                      "(smallest eigenvalue {:.3g} of {:.3g} at embedding size {}); the model's "
                      "parameters are too close to the edge of stationarity",
                      smallest, largest, 2 * half));
    }
    const std::uint64_t M = 2 * half;
    std::uint64_t clamped = 0;
    plan.amplitudes.resize(lambda.size());
    for (std::size_t j = 0; j < lambda.size(); ++j) {
      clamped += lambda[j] < 0;
      plan.amplitudes[j] = scale * std::sqrt(std::max(lambda[j], 0.0) / static_cast<double>(M));
    }
    plan.inverse_length = plan.fft_length = M;
    plan.fine_points = half + 1;
    plan.attributes = {
        {"method", std::string("exact: circulant embedding (Davies-Harte) of the autocovariance, first row gamma(0), "
                               "gamma(1), ..., gamma(M/2), ..., gamma(1); Y = real inverse FFT of sqrt(lambda_j/M) "
                               "W_j with Hermitian complex Gaussian W; the first `length` values are kept")},
        {"embedding_size", M},
        {"smallest_eigenvalue", smallest},
        {"largest_eigenvalue", largest},
        {"eigenvalues_clamped", clamped},
    };
    plan.summary = fmt::format(
        "circulant embedding of size {} (inverse FFT length {}), eigenvalues in [{:.3g}, "
        "{:.3g}]{}",
        M, M, smallest, largest, clamped ? fmt::format(", {} rounding-level negatives set to 0", clamped) : "");
    return plan;
  }
}

SpectralPlan farima_stable_plan(const FarimaModel& model, std::uint64_t length) {
  SpectralPlan plan;
  const auto J = static_cast<std::uint64_t>(model.truncation);
  plan.coefficients = farima_ma_weights(model, J);
  plan.innovation_law.alpha = model.alpha;
  plan.innovation_law.beta = model.beta;
  plan.innovation_scale = model.sigma;
  plan.m = 1;
  plan.offset = J + 1;  // X(i) = y(J + 1 + i) = Σ_j a_j Z(J + i − j)
  set_convolution_sizes(plan, J + 1, length);
  double norm_power = 0, signed_power = 0, square_sum = 0, a_log_a = 0;
  for (double a : plan.coefficients) {
    norm_power += std::pow(std::fabs(a), model.alpha);
    signed_power += std::copysign(std::pow(std::fabs(a), model.alpha), a);
    square_sum += a * a;
    if (a != 0) a_log_a += a * std::log(model.sigma * std::fabs(a));
  }
  const double scale = model.sigma * std::pow(norm_power, 1 / model.alpha);
  const double beta = model.beta * signed_power / norm_power;
  // At α = 1 scaling by c shifts the location by −(2/π)β c ln|c| (Samorodnitsky–Taqqu 1.2.3).
  const double location = model.alpha == 1.0 ? -2 / kPi * model.beta * model.sigma * a_log_a : 0.0;
  FarimaModel gaussian = model;
  gaussian.sigma = 1;
  const double variance_kept = square_sum / farima_autocovariance(gaussian, 0)[0];
  // a_j ~ C j^{d−1}: the α-norm's tail beyond J is about |a_J|^α J / (α(1−d) − 1).
  const double tail = std::pow(std::fabs(plan.coefficients.back()), model.alpha) * static_cast<double>(J) /
                      (model.alpha * (1 - model.d) - 1);
  const double alpha_norm_kept = norm_power / (norm_power + tail);
  plan.attributes = {
      {"method", std::string("truncated MA(inf): X_t = sum_{j=0}^{truncation} a_j eps_{t-j}, FFT convolution in "
                             "double precision without wrap-around")},
      {"marginal_law", fmt::format("X_t ~ S1(alpha={}, beta={:.10g}, scale={:.10g}, location={:.10g}) exactly "
                                   "(Nolan's S1)",
                                   model.alpha, beta, scale, location)},
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
  plan.summary = fmt::format(
      "farima: MA(inf) truncated at {} lags, FFT length {}; keeps {:.4f} of the Gaussian "
      "variance and about {:.4f} of the alpha-norm; marginal S1({}, {:.4g}, {:.4g}, {:.4g})",
      J, plan.fft_length, variance_kept, alpha_norm_kept, model.alpha, beta, scale, location);
  if (variance_kept < 0.99) {
    plan.warning = fmt::format(
        "the truncation at {} lags keeps only {:.1f}% of the Gaussian variance (d = {}); "
        "raise params.truncation for more of the long memory",
        J, 100 * variance_kept, model.d);
  }
  return plan;
}

}  // namespace

double fgn_autocovariance(double H, std::uint64_t k) {
  if (k == 0) return 1.0;
  // ½ k^{2H} ((1 + 1/k)^{2H} − 2 + (1 − 1/k)^{2H}), each power by expm1/log1p.
  const double x = 1.0 / static_cast<double>(k), h2 = 2 * H;  // at k = 1, expm1(h2·log1p(−1)) = −1 exactly
  return 0.5 * std::pow(static_cast<double>(k), h2) *
         (std::expm1(h2 * std::log1p(x)) + std::expm1(h2 * std::log1p(-x)));
}

std::vector<double> farima_autocovariance(const FarimaModel& model, std::uint64_t max_lag) {
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

std::vector<double> farima_ma_weights(const FarimaModel& model, std::uint64_t J) {
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

std::vector<double> circulant_eigenvalues(const std::vector<double>& autocovariance) {
  const std::size_t half = autocovariance.size() - 1, M = 2 * half;
  const CpuFftPair fft(M, M);
  FftBuffer<double> row(M);
  FftBuffer<Complex<double>> spectrum(fft.spectrum_size());
  for (std::size_t j = 0; j < M; ++j) row.data()[j] = autocovariance[std::min(j, M - j)];
  fft.forward(row.data(), spectrum.data());
  std::vector<double> lambda(half + 1);
  for (std::size_t j = 0; j <= half; ++j) lambda[j] = spectrum.data()[j].re;  // real: the row is symmetric
  return lambda;
}

namespace {

auto fgn_lags(double H) {
  return [H](std::uint64_t half) {
    std::vector<double> gamma(half + 1);
    for (std::uint64_t k = 0; k <= half; ++k) gamma[k] = fgn_autocovariance(H, k);
    return gamma;
  };
}

}  // namespace

std::optional<SpectralPlan> make_spectral_plan(const ModelParams& params, std::uint64_t length) {
  if (const auto* lfsn = std::get_if<LfsnModel>(&params)) return lfsn_plan(*lfsn, length);
  if (const auto* fgn = std::get_if<FgnModel>(&params)) {
    SpectralPlan plan = circulant_plan(fgn_lags(fgn->H), length, fgn->sigma);
    plan.cumulative = fgn->cumulative;
    plan.summary = (fgn->cumulative ? "fbm (partial sums of fgn): " : "fgn: ") + plan.summary;
    return plan;
  }
  if (const auto* norros = std::get_if<NorrosModel>(&params)) {
    const double bin_sd = std::sqrt(norros->a * norros->lambda) * std::pow(norros->bin, norros->H);
    SpectralPlan plan = circulant_plan(fgn_lags(norros->H), length, bin_sd);
    plan.location = norros->lambda * norros->bin;
    plan.attributes.push_back({"bin_mean", plan.location});
    plan.attributes.push_back({"bin_sd", bin_sd});
    plan.summary = "norros: " + plan.summary;
    return plan;
  }
  if (const auto* farima = std::get_if<FarimaModel>(&params)) {
    if (farima->innovations == Innovations::stable) return farima_stable_plan(*farima, length);
    const FarimaModel model = *farima;
    SpectralPlan plan =
        circulant_plan([&model](std::uint64_t half) { return farima_autocovariance(model, half); }, length, 1.0);
    plan.attributes.push_back({"variance", farima_autocovariance(model, 0)[0]});
    plan.summary = "farima (Gaussian, exact): " + plan.summary;
    return plan;
  }
  return std::nullopt;
}

}  // namespace gs
