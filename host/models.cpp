#include "host/models.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "host/fft.hpp"
#include "kernels/chains.hpp"
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

double parse_hurst(ConfigMap& params) {
  const double H = params.require(params.number("H"), "H", "the Hurst exponent, 0 < H < 1");
  require_in_range(params, "H", H, H > 0 && H < 1, "0 < H < 1");
  return H;
}

double positive(ConfigMap& params, const std::string& key, double fallback, const std::string& what) {
  const double x = params.number(key).value_or(fallback);
  require_in_range(params, key, x, x > 0, key + " > 0 (" + what + ")");
  return x;
}

ModelParams parse_fgn_with(ConfigMap& params, bool cumulative) {
  FgnModel model;
  model.H = parse_hurst(params);
  model.sigma = positive(params, "sigma", 1.0, "the standard deviation of one increment");
  model.cumulative = cumulative;
  return model;
}

ModelParams parse_fgn(ConfigMap& params) { return parse_fgn_with(params, false); }
ModelParams parse_fbm(ConfigMap& params) { return parse_fgn_with(params, true); }

ModelParams parse_norros(ConfigMap& params) {
  NorrosModel model;
  model.lambda = params.require(params.number("lambda"), "lambda", "the mean arrival rate, > 0");
  require_in_range(params, "lambda", model.lambda, model.lambda > 0, "lambda > 0 (mean arrivals per time unit)");
  model.a = params.require(params.number("a"), "a", "the variance coefficient, > 0");
  require_in_range(params, "a", model.a, model.a > 0, "a > 0 (variance coefficient)");
  model.H = parse_hurst(params);
  model.bin = positive(params, "bin", 1.0, "the bin width, in the time unit of lambda");
  return model;
}

// Largest modulus of the roots of z^p − φ_1 z^{p−1} − … − φ_p (the companion
// matrix's eigenvalues): the AR part is stationary when it is below 1.
double ar_root_modulus(const std::vector<double>& ar) {
  const auto p = static_cast<Eigen::Index>(ar.size());
  if (p == 0) return 0;
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(p, p);
  for (Eigen::Index j = 0; j < p; ++j) companion(0, j) = ar[static_cast<std::size_t>(j)];
  for (Eigen::Index i = 1; i < p; ++i) companion(i, i - 1) = 1;
  return companion.eigenvalues().cwiseAbs().maxCoeff();
}

// An AR or MA coefficient list, at most 32 long (none when absent).
std::vector<double> parse_coefficients(ConfigMap& params, const std::string& key) {
  std::vector<double> list = params.numbers(key).value_or(std::vector<double>{});
  if (list.size() > 32) {
    throw params.error_at(
        key, fmt::format("{} has {} coefficients; accepted: at most 32", params.path_of(key), list.size()));
  }
  return list;
}

ModelParams parse_farima(ConfigMap& params) {
  FarimaModel model;
  const std::string innovations = params.choice("innovations", {"gaussian", "stable"}).value_or("gaussian");
  model.innovations = innovations == "stable" ? Innovations::stable : Innovations::gaussian;
  if (model.innovations == Innovations::stable) {
    model.alpha = parse_alpha(params);
    model.beta = parse_beta(params);
    model.truncation = params.integer("truncation").value_or(model.truncation);
    require_in_range(params, "truncation", static_cast<double>(model.truncation),
                     model.truncation >= 1 && model.truncation <= (1 << 26), "whole number 1 <= truncation <= 2^26");
  } else {
    for (const char* key : {"alpha", "beta", "truncation"}) {
      if (params.number(key)) {
        throw params.error_at(key, fmt::format("{} applies only with innovations: stable (Gaussian FARIMA is "
                                               "generated exactly, without truncation)",
                                               params.path_of(key)));
      }
    }
  }
  model.d = params.require(params.number("d"), "d", "the fractional differencing parameter");
  if (model.innovations == Innovations::gaussian) {
    require_in_range(params, "d", model.d, model.d > -0.5 && model.d < 0.5, "-0.5 < d < 0.5");
  } else {
    const double top = 1 - 1 / model.alpha;  // Σ|a_j|^α converges only below it
    require_in_range(params, "d", model.d, model.d > -1 && model.d < top,
                     fmt::format("-1 < d < 1 - 1/alpha = {:.6g} (stationarity with alpha-stable innovations)", top));
  }
  model.ar = parse_coefficients(params, "ar");
  model.ma = parse_coefficients(params, "ma");
  const double modulus = ar_root_modulus(model.ar);
  if (!(modulus < 0.9999)) {
    throw params.error_at("ar", fmt::format("{} = [{}] is not stationary: its characteristic roots reach modulus "
                                            "{:.6g}; accepted: every root of z^p - ar[0] z^(p-1) - ... - ar[p-1] "
                                            "inside |z| < 0.9999",
                                            params.path_of("ar"), fmt::join(model.ar, ", "), modulus));
  }
  model.sigma = positive(params, "sigma", 1.0, "the scale of the innovations");
  return model;
}

ModelParams parse_normal(ConfigMap& params) {
  NormalModel model;
  model.mu = params.number("mu").value_or(0.0);
  model.sigma = positive(params, "sigma", 1.0, "the standard deviation");
  return model;
}

// A probability vector of `states` entries (≥ 0, summing to 1).
std::vector<double> parse_law(ConfigMap& params, const std::string& key, std::size_t states) {
  std::vector<double> law = *params.numbers(key);
  if (law.size() != states) {
    throw params.error_at(key, fmt::format("{} has {} entries; accepted: one probability per state ({})",
                                           params.path_of(key), law.size(), states));
  }
  const double sum = std::accumulate(law.begin(), law.end(), 0.0);
  if (std::any_of(law.begin(), law.end(), [](double p) { return p < 0; }) || std::fabs(sum - 1) > 1e-9) {
    throw params.error_at(key, fmt::format("{} = [{}] is not a probability law; accepted: entries >= 0 summing to 1 "
                                           "(within 1e-9)",
                                           params.path_of(key), fmt::join(law, ", ")));
  }
  return law;
}

// `initial` when given (returns true), else the chain's stationary law, which
// must be unique.
bool parse_initial_law(ConfigMap& params, const Matrix& matrix, const std::string& matrix_key, bool generator,
                       std::vector<double>& initial) {
  if (params.numbers("initial")) {
    initial = parse_law(params, "initial", matrix.size());
    return true;
  }
  if (auto law = stationary_law(matrix, generator)) {
    initial = *law;
    return false;
  }
  throw params.error_at(matrix_key, fmt::format("{} has more than one stationary law (the chain is reducible); give "
                                                "the initial law as {}",
                                                params.path_of(matrix_key), params.path_of("initial")));
}

std::size_t parse_state_count(ConfigMap& params, const std::string& key, std::size_t count) {
  if (count < 1 || count > kMaxStates) {
    throw params.error_at(
        key, fmt::format("{} defines {} states; accepted: 1 to {}", params.path_of(key), count, kMaxStates));
  }
  return count;
}

ModelParams parse_markov(ConfigMap& params) {
  MarkovModel model;
  model.levels = params.require(params.numbers("levels"), "levels", "the rate of each state");
  const std::size_t k = parse_state_count(params, "levels", model.levels.size());
  model.transition =
      params.require(params.matrix("transition", k, k), "transition", "the k x k transition matrix, rows summing to 1");
  for (std::size_t i = 0; i < k; ++i) {
    const auto& row = model.transition[i];
    const double sum = std::accumulate(row.begin(), row.end(), 0.0);
    if (std::any_of(row.begin(), row.end(), [](double p) { return p < 0; }) || std::fabs(sum - 1) > 1e-9) {
      throw params.error_at("transition",
                            fmt::format("{}[{}] = [{}] sums to {:.12g}; accepted: entries >= 0, each row summing to "
                                        "1 (within 1e-9)",
                                        params.path_of("transition"), i, fmt::join(row, ", "), sum));
    }
  }
  model.noise = params.numbers("noise").value_or(std::vector<double>(k, 0.0));
  if (model.noise.size() != k || std::any_of(model.noise.begin(), model.noise.end(), [](double x) { return x < 0; })) {
    throw params.error_at(
        "noise", fmt::format("{} must list one standard deviation >= 0 per state ({})", params.path_of("noise"), k));
  }
  model.initial_given = parse_initial_law(params, model.transition, "transition", false, model.initial);
  return model;
}

std::vector<double> read_times_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UserError(fmt::format("{}: cannot open the observation-times file", path));
  std::vector<double> times;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string content = line.substr(0, line.find('#'));
    if (content.find_first_not_of(" \t\r") == std::string::npos) continue;
    char* end = nullptr;
    const double t = std::strtod(content.c_str(), &end);
    if (end == content.c_str() ||
        content.find_first_not_of(" \t\r", static_cast<std::size_t>(end - content.c_str())) != std::string::npos) {
      throw located_error(path, number, 1, fmt::format("'{}' is not a time; expected one number per line", content));
    }
    if (!std::isfinite(t)) throw located_error(path, number, 1, "the time must be finite");
    if (!times.empty() && !(t > times.back())) {
      throw located_error(
          path, number, 1,
          fmt::format("time {} does not follow {}; observation times must increase strictly", t, times.back()));
    }
    times.push_back(t);
  }
  if (times.empty()) throw UserError(fmt::format("{}: no observation times", path));
  return times;
}

ModelParams parse_hmm(ConfigMap& params) {
  HmmModel model;
  model.generator = params.require(params.matrix("generator", 0, 0), "generator",
                                   "the k x k generator Q: off-diagonals >= 0, rows summing to 0");
  const std::size_t k = parse_state_count(params, "generator", model.generator.size());
  if (model.generator[0].size() != k) {
    throw params.error_at("generator", fmt::format("{} must be square; it has {} rows of {}",
                                                   params.path_of("generator"), k, model.generator[0].size()));
  }
  for (std::size_t i = 0; i < k; ++i) {
    const auto& row = model.generator[i];
    double sum = 0, scale = 0;
    bool negative = false;
    for (std::size_t j = 0; j < k; ++j) {
      sum += row[j];
      scale = std::max(scale, std::fabs(row[j]));
      negative |= j != i && row[j] < 0;
    }
    if (negative || std::fabs(sum) > 1e-9 * std::max(scale, 1.0)) {
      throw params.error_at("generator",
                            fmt::format("{}[{}] = [{}] is not a generator row; accepted: off-diagonal entries >= 0 "
                                        "and a diagonal making the row sum to 0",
                                        params.path_of("generator"), i, fmt::join(row, ", ")));
    }
  }
  params.choice("emission", {"lognormal"});
  model.mu = params.require(params.numbers("mu"), "mu", "the log-mean of each state's emission");
  model.sigma = params.require(params.numbers("sigma"), "sigma", "the log-sd of each state's emission");
  if (model.mu.size() != k) {
    throw params.error_at(
        "mu", fmt::format("{} has {} entries; accepted: one per state ({})", params.path_of("mu"), model.mu.size(), k));
  }
  if (model.sigma.size() != k || std::any_of(model.sigma.begin(), model.sigma.end(), [](double x) { return x < 0; })) {
    throw params.error_at("sigma",
                          fmt::format("{} must list one log-sd >= 0 per state ({})", params.path_of("sigma"), k));
  }
  model.initial_given = parse_initial_law(params, model.generator, "generator", true, model.initial);
  const int time_keys = (params.number("interval") ? 1 : 0) + (params.holds_scalar("times") ? 1 : 0) +
                        (!params.holds_scalar("times") && params.numbers("times") ? 1 : 0) +
                        (params.text("times_file") ? 1 : 0);
  if (time_keys > 1) {
    throw params.error_here(
        fmt::format("{}: give the observation times one way: interval (regular), times (a list or "
                    "'dataset') or times_file",
                    params.where()));
  }
  model.start = params.number("start").value_or(0.0);
  model.interval = positive(params, "interval", 1.0, "the time between observations");
  if (params.holds_scalar("times")) {
    if (*params.text("times") != "dataset")
      throw params.error_at("times", fmt::format("{} = '{}' is not accepted; accepted: a list of times or 'dataset' "
                                                 "(the observation times of the ensemble's dataset)",
                                                 params.path_of("times"), *params.text("times")));
    model.times_from_dataset = true;
    model.times_source = "dataset";
  } else if (auto list = params.numbers("times")) {
    for (std::size_t i = 1; i < list->size(); ++i) {
      if (!((*list)[i] > (*list)[i - 1])) {
        throw params.error_at("times", fmt::format("{}[{}] = {} does not follow {}; observation times must increase "
                                                   "strictly",
                                                   params.path_of("times"), i, (*list)[i], (*list)[i - 1]));
      }
    }
    if (list->empty()) throw params.error_at("times", fmt::format("{} is empty", params.path_of("times")));
    model.times = *list;
    model.times_source = "list";
  } else if (auto file = params.text("times_file")) {
    std::filesystem::path path(*file);
    if (path.is_relative()) path = std::filesystem::path(params.file()).parent_path() / path;
    model.times = read_times_file(path.string());
    model.times_source = path.string();
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
      {"fgn", "fractional Gaussian noise, exact (Davies-Harte circulant embedding)", {"H", "sigma"}, parse_fgn},
      {"fbm", "fractional Brownian motion, the cumulative sum of fgn", {"H", "sigma"}, parse_fbm},
      {"norros",
       "Norros' FBM arrivals lambda*t + sqrt(a*lambda)*Z(t), binned",
       {"lambda", "a", "H", "bin"},
       parse_norros},
      {"farima",
       "FARIMA(p, d, q), Gaussian (exact) or alpha-stable innovations",
       {"d", "ar", "ma", "sigma", "innovations", "alpha", "beta", "truncation"},
       parse_farima},
      {"normal", "i.i.d. Gaussian values", {"mu", "sigma"}, parse_normal},
      {"markov",
       "discrete-time Markov chain over rate levels (Oly-Reed)",
       {"levels", "transition", "initial", "noise"},
       parse_markov},
      {"hmm",
       "continuous-time hidden Markov chain with log-normal emissions (Titan)",
       {"generator", "emission", "mu", "sigma", "initial", "interval", "start", "times", "times_file"},
       parse_hmm},
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
  static const char* const names[] = {"stable", "lfsn", "fgn", "norros", "farima", "normal", "markov", "hmm"};
  static_assert(std::variant_size_v<ModelParams> == sizeof(names) / sizeof(names[0]));
  if (const auto* fgn = std::get_if<FgnModel>(&params); fgn && fgn->cumulative) return "fbm";
  return names[params.index()];
}

std::optional<std::uint64_t> fixed_length(const ModelParams& params) {
  const auto* hmm = std::get_if<HmmModel>(&params);
  if (hmm && !hmm->times.empty()) return hmm->times.size();
  return std::nullopt;
}

std::optional<std::vector<double>> stationary_law(const Matrix& matrix, bool generator) {
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
  double signed_power = 0, sum_c_log_c = 0;
  for (double& c : kernel.coefficients) {
    c /= kernel.raw_alpha_norm;
    signed_power += std::copysign(std::pow(std::fabs(c), model.alpha), c);
    if (c != 0) sum_c_log_c += c * std::log(std::fabs(c));
  }
  kernel.beta_eff = model.beta * signed_power;
  if (model.alpha == 1.0) {
    // Samorodnitsky–Taqqu Prop. 1.2.3: at α = 1 scaling by c shifts the location
    // by −(2/π)β c ln|c| (the innovations themselves are S1(1, β, 1, 0)).
    kernel.drift = -2 / kPi * model.beta * sum_c_log_c;
  }
  const auto m = static_cast<std::uint64_t>(model.m);
  kernel.fine_points = static_cast<std::uint64_t>(count) + m * (length - 1);
  kernel.inverse_length = fft_friendly_length((kernel.fine_points + 1 + m - 1) / m);
  kernel.fft_length = m * kernel.inverse_length;
  return kernel;
}

namespace {

std::vector<double> row_major(const Matrix& matrix) {
  std::vector<double> flat;
  for (const auto& row : matrix) flat.insert(flat.end(), row.begin(), row.end());
  return flat;
}

std::string law_source(bool given, const char* of) {
  return given ? "given" : fmt::format("the stationary law of {}", of);
}

}  // namespace

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
  } else if (const auto* lfsn = std::get_if<LfsnModel>(&params)) {
    attrs = {{"alpha", lfsn->alpha}, {"beta", lfsn->beta}, {"H", lfsn->H},
             {"m", lfsn->m},         {"K", lfsn->K},       {"d", lfsn->H - 1 / lfsn->alpha}};
  } else if (const auto* fgn = std::get_if<FgnModel>(&params)) {
    attrs = {{"H", fgn->H},
             {"sigma", fgn->sigma},
             {"law", std::string(fgn->cumulative
                                     ? "fractional Brownian motion B(k) = G(1) + ... + G(k), k = 1..length, G fgn: "
                                       "Var B(k) = sigma^2 k^(2H)"
                                     : "fractional Gaussian noise, gamma(k) = sigma^2/2 (|k+1|^(2H) - 2|k|^(2H) + "
                                       "|k-1|^(2H))")}};
  } else if (const auto* norros = std::get_if<NorrosModel>(&params)) {
    attrs = {{"lambda", norros->lambda},
             {"a", norros->a},
             {"H", norros->H},
             {"bin", norros->bin},
             {"law", std::string("arrivals per bin of A(t) = lambda t + sqrt(a lambda) Z(t), Z normalised FBM: "
                                 "lambda*bin + sqrt(a*lambda)*bin^H * G(i), G unit-variance fgn (Norros)")}};
  } else if (const auto* farima = std::get_if<FarimaModel>(&params)) {
    attrs = {{"d", farima->d},
             {"ar", farima->ar},
             {"ma", farima->ma},
             {"p", static_cast<std::int64_t>(farima->ar.size())},
             {"q", static_cast<std::int64_t>(farima->ma.size())},
             {"sigma", farima->sigma},
             {"innovations", std::string(farima->innovations == Innovations::stable ? "stable" : "gaussian")},
             {"law", std::string("phi(B) (1 - B)^d X_t = theta(B) eps_t, phi(B) = 1 - ar[0] B - ... - ar[p-1] B^p, "
                                 "theta(B) = 1 + ma[0] B + ... + ma[q-1] B^q")}};
    if (farima->innovations == Innovations::stable) {
      attrs.push_back({"alpha", farima->alpha});
      attrs.push_back({"beta", farima->beta});
      attrs.push_back({"truncation", farima->truncation});
      attrs.push_back({"innovation_law", std::string("eps_t i.i.d. S1(alpha, beta, sigma, 0) (Nolan's S1)")});
    } else {
      attrs.push_back({"innovation_law", std::string("eps_t i.i.d. N(0, sigma^2)")});
    }
  } else if (const auto* normal = std::get_if<NormalModel>(&params)) {
    attrs = {{"mu", normal->mu}, {"sigma", normal->sigma}, {"law", std::string("i.i.d. N(mu, sigma^2)")}};
  } else if (const auto* markov = std::get_if<MarkovModel>(&params)) {
    attrs = {{"states", static_cast<std::int64_t>(markov->levels.size())},
             {"levels", markov->levels},
             {"transition", row_major(markov->transition)},
             {"transition_layout", std::string("states x states, row-major: entry [i*states + j] = P(i -> j)")},
             {"initial", markov->initial},
             {"initial_source", law_source(markov->initial_given, "the transition matrix")},
             {"noise", markov->noise},
             {"law", std::string("X(t) = levels[s_t] + noise[s_t] * Z_t, s a discrete-time Markov chain, Z i.i.d. "
                                 "N(0, 1)")}};
  } else {
    const auto& hmm = std::get<HmmModel>(params);
    attrs = {{"states", static_cast<std::int64_t>(hmm.generator.size())},
             {"generator", row_major(hmm.generator)},
             {"generator_layout", std::string("states x states, row-major: entry [i*states + j] = Q_ij")},
             {"emission", std::string("lognormal")},
             {"mu", hmm.mu},
             {"sigma", hmm.sigma},
             {"initial", hmm.initial},
             {"initial_source", law_source(hmm.initial_given, "the generator")},
             {"law", std::string("continuous-time Markov chain s(t) with generator Q, simulated exactly (holding "
                                 "times Exp(-Q_ss), jumps with probability Q_sj/-Q_ss), started at the first "
                                 "observation time; observation i is exp(mu[s] + sigma[s] Z_i), s = s(t_i)")}};
    if (hmm.times.empty()) {
      attrs.push_back({"observation_times", std::string("regular: start + i*interval")});
      attrs.push_back({"start", hmm.start});
      attrs.push_back({"interval", hmm.interval});
    } else {
      attrs.push_back({"observation_times", std::string("irregular, from ") + hmm.times_source});
    }
  }
  return attrs;
}

}  // namespace gs
