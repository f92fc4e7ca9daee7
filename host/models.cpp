#include "host/models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kernels/lfsn.hpp"

namespace gs {

namespace {

double parse_alpha(ConfigMap& params) {
  const double alpha = params.require(params.number("alpha"), "alpha", "the characteristic exponent, 0 < alpha <= 2");
  require_in_range(params, "alpha", alpha, alpha > 0 && alpha <= 2, "0 < alpha <= 2");
  return alpha;
}

double parse_beta(ConfigMap& params) {
  const double beta = params.number("beta").value_or(0.0);
  require_in_range(params, "beta", beta, beta >= -1 && beta <= 1, "-1 <= beta <= 1");
  return beta;
}

ModelParams parse_stable(ConfigMap& params) {
  StableModel model;
  model.law.alpha = parse_alpha(params);
  model.law.beta = parse_beta(params);
  model.law.sigma = params.number("sigma").value_or(1.0);
  require_in_range(params, "sigma", model.law.sigma, model.law.sigma > 0, "sigma > 0");
  model.law.mu = params.number("mu").value_or(0.0);
  const std::string parameterization = params.choice("parameterization", {"S1", "S0"}).value_or("S1");
  model.law.parameterization = parameterization == "S0" ? StableParameterization::S0 : StableParameterization::S1;
  return model;
}

ModelParams parse_lfsn(ConfigMap& params) {
  LfsnModel model;
  model.alpha = parse_alpha(params);
  model.beta = parse_beta(params);
  model.H = params.require(params.number("H"), "H", "the Hurst exponent, 0 < H < 1");
  require_in_range(params, "H", model.H, model.H > 0 && model.H < 1, "0 < H < 1");
  if (std::fabs(model.H - 1 / model.alpha) < 1e-9) {
    throw params.error_at("H", fmt::format("{} = {} equals 1/alpha, so d = H - 1/alpha = 0 and the LFSN "
                                           "kernel degenerates (the paper's algorithm stops here); "
                                           "accepted: 0 < H < 1 with H != 1/alpha",
                                           params.path_of("H"), model.H));
  }
  model.m = params.integer("m").value_or(model.m);
  require_in_range(params, "m", static_cast<double>(model.m), model.m >= 1 && model.m <= (1 << 20),
                   "whole number 1 <= m <= 1048576");
  model.K = params.integer("K").value_or(model.K);
  require_in_range(params, "K", static_cast<double>(model.K), model.K >= 1 && model.K <= (1 << 24),
                   "whole number 1 <= K <= 16777216");
  if (model.m * model.K > (std::int64_t{1} << 28)) {
    throw params.error_at("K", fmt::format("{}: the kernel has m*K = {} coefficients; accepted: m*K <= 2^28",
                                           params.where(), model.m * model.K));
  }
  return model;
}

const char* parameterization_name(StableParameterization p) { return p == StableParameterization::S0 ? "S0" : "S1"; }

}  // namespace

const std::vector<ModelInfo>& model_registry() {
  static const std::vector<ModelInfo> registry = {
      {"stable",
       "i.i.d. alpha-stable values (Chambers-Mallows-Stuck)",
       {"alpha", "beta", "sigma", "mu", "parameterization"},
       parse_stable},
      {"lfsn", "linear fractional stable noise of eq. (4)", {"alpha", "beta", "H", "m", "K"}, parse_lfsn},
  };
  return registry;
}

const ModelInfo* find_model(const std::string& name) {
  for (const auto& info : model_registry()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const auto& info : model_registry()) names.emplace_back(info.name);
  return names;
}

const char* model_name(const ModelParams& params) {
  return std::holds_alternative<StableModel>(params) ? "stable" : "lfsn";
}

std::uint64_t fft_friendly_length(std::uint64_t minimum) {
  for (std::uint64_t n = std::max<std::uint64_t>(minimum, 1);; ++n) {
    std::uint64_t rest = n;
    for (std::uint64_t p : {2, 3, 5, 7}) {
      while (rest % p == 0) rest /= p;
    }
    if (rest == 1) return n;
  }
}

LfsnKernel make_lfsn_kernel(const LfsnModel& model, std::uint64_t length) {
  LfsnKernel kernel;
  const auto count = static_cast<std::size_t>(model.m * model.K);
  kernel.d = model.H - 1 / model.alpha;
  kernel.coefficients.resize(count);
  double norm_power = 0;  // Σ|h|^α
  for (std::size_t k = 1; k <= count; ++k) {
    const double h = lfsn_kernel_value(static_cast<double>(k) / static_cast<double>(model.m), kernel.d);
    kernel.coefficients[k - 1] = h;
    norm_power += std::pow(std::fabs(h), model.alpha);
  }
  kernel.raw_alpha_norm = std::pow(norm_power, 1 / model.alpha);
  double signed_power = 0, sum = 0, sum_c_log_c = 0;
  for (double& c : kernel.coefficients) {
    c /= kernel.raw_alpha_norm;
    signed_power += std::copysign(std::pow(std::fabs(c), model.alpha), c);
    sum += c;
    if (c != 0) sum_c_log_c += c * std::log(std::fabs(c));
  }
  kernel.beta_eff = model.beta * signed_power;
  if (model.alpha == 1.0) {
    // Samorodnitsky–Taqqu Prop. 1.2.3: at α = 1 scaling by c shifts the location
    // by −(2/π)β c ln|c|; the (1±β)/2 weights of eq. (4) add δ0 per innovation.
    const double a = (1 + model.beta) / 2, b = (1 - model.beta) / 2;
    const double xlogx_a = a > 0 ? a * std::log(a) : 0, xlogx_b = b > 0 ? b * std::log(b) : 0;
    const double delta0 = -2 / kPi * (xlogx_a - xlogx_b);
    kernel.drift = delta0 * sum - 2 / kPi * model.beta * sum_c_log_c;
  }
  const auto m = static_cast<std::uint64_t>(model.m);
  kernel.fine_points = static_cast<std::uint64_t>(count) + m * (length - 1);
  kernel.inverse_length = fft_friendly_length((kernel.fine_points + 1 + m - 1) / m);
  kernel.fft_length = m * kernel.inverse_length;
  return kernel;
}

std::vector<Attribute> describe_model(const ModelParams& params) {
  std::vector<Attribute> attrs;
  if (const auto* stable = std::get_if<StableModel>(&params)) {
    const StableLawParams& law = stable->law;
    attrs = {{"alpha", law.alpha},
             {"beta", law.beta},
             {"sigma", law.sigma},
             {"mu", law.mu},
             {"parameterization", std::string(parameterization_name(law.parameterization))},
             {"law", fmt::format("i.i.d. alpha-stable S_alpha(sigma, beta, mu) in Nolan's {} "
                                 "parameterization (S1 = eq. (3) of the alpha-stable workload paper)",
                                 parameterization_name(law.parameterization))}};
  } else {
    const auto& lfsn = std::get<LfsnModel>(params);
    attrs = {{"alpha", lfsn.alpha}, {"beta", lfsn.beta}, {"H", lfsn.H},
             {"m", lfsn.m},         {"K", lfsn.K},       {"d", lfsn.H - 1 / lfsn.alpha}};
  }
  return attrs;
}

}  // namespace gs
