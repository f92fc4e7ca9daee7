#include "host/fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "estimators/hmm_fit.hpp"
#include "estimators/model_fit.hpp"
#include "estimators/stable_fit.hpp"
#include "estimators/stable_law.hpp"
#include "host/errors.hpp"
#include "host/models.hpp"
#include "kernels/philox.hpp"
#include "version.hpp"

namespace gs {

const std::vector<std::string> kFitModels = {"stable", "lfsn", "fgn", "norros", "farima", "normal", "markov", "hmm"};

namespace {

using Fitted = FittedModel;

std::string pm(const char* name, double value, double se) {
  return std::isfinite(se) ? fmt::format("{} = {:.4g} ± {:.2g}", name, value, se)
                           : fmt::format("{} = {:.4g}", name, value);
}

void record(YAML::Node& fit, const std::string& name, double value, double se) {
  fit[name] = value;
  fit[name + "_se"] = se;
}

YAML::Node flow_map() {
  YAML::Node n(YAML::NodeType::Map);
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

YAML::Node flow_list(const std::vector<double>& values) {
  YAML::Node n(YAML::NodeType::Sequence);
  n.SetStyle(YAML::EmitterStyle::Flow);
  for (double v : values) n.push_back(v);
  return n;
}

// Estimates and their SEs as two lists, name and name_se (as record does for one).
void record_list(YAML::Node& fit, const std::string& name, const std::vector<double>& values,
                 const std::vector<double>& se) {
  fit[name] = flow_list(values);
  fit[name + "_se"] = flow_list(se);
}

using Rows = std::vector<std::vector<double>>;

// A matrix as params want it: one flow list per row.
YAML::Node matrix_rows(const Rows& m) {
  YAML::Node rows(YAML::NodeType::Sequence);
  for (const auto& row : m) rows.push_back(flow_list(row));
  return rows;
}

// A matrix as one row-major list (HDF5 attributes are flat).
YAML::Node row_major(const Rows& m) {
  std::vector<double> flat;
  for (const auto& row : m) flat.insert(flat.end(), row.begin(), row.end());
  return flow_list(flat);
}

const HurstEstimate& hurst_of(const TraceStatistics& s, const std::string& key) {
  for (const auto& h : s.hurst)
    if (key == h.key) return h.estimate;
  throw UserError(fmt::format("no Hurst estimator '{}'; accepted: {}", key, fmt::join(hurst_estimator_keys(), ", ")));
}

// ALPHA-STABLE-SYNTHETIC-TRACE-GENERATION's checks: empty when they pass.
std::string alpha_stable_invalid(const StableLawParams& law, std::optional<double> H) {
  if (!(law.alpha > 0 && law.alpha <= 2)) return fmt::format("alpha = {:.4g} is not in (0, 2]", law.alpha);
  if (!(law.beta >= -1 && law.beta <= 1)) return fmt::format("beta = {:.4g} is not in [-1, 1]", law.beta);
  if (!(law.sigma > 0)) return fmt::format("sigma = {:.4g} is not > 0", law.sigma);
  if (H) {
    if (!(*H > 0 && *H < 1)) return fmt::format("H = {:.4g} is not in (0, 1)", *H);
    if (std::fabs(*H - 1 / law.alpha) < 1e-3)
      return fmt::format("H = {:.4g} equals 1/alpha: d = H - 1/alpha = 0 and the LFSN kernel degenerates", *H);
  }
  return "";
}

void record_stable(YAML::Node& fit, const StableFit& f) {
  fit["method"] = f.method == "ml" ? "maximum likelihood (Nolan's density), SEs from the observed information"
                                   : "McCulloch quantiles, bootstrap SEs";
  record(fit, "alpha", f.s1.alpha, f.se_alpha);
  record(fit, "beta", f.s1.beta, f.se_beta);
  record(fit, "sigma", f.s1.sigma, f.se_sigma);
  record(fit, "mu_S1", f.s1.mu, f.se_mu1);
  record(fit, "mu_S0", f.s0.mu, f.se_mu0);
  fit["log_likelihood"] = f.log_likelihood;
  fit["n"] = f.n;
  if (!f.note.empty()) fit["note"] = f.note;
}

// Counts are rounded values: many equal values make the continuous likelihood
// unbounded (σ → 0). They are spread uniformly over their rounding interval
// (x + U(−1/2, 1/2), Philox, key = seed), whose density is bounded.
bool is_integer_valued(const std::vector<double>& x) {
  return std::all_of(x.begin(), x.end(), [](double v) { return v == std::round(v); });
}

constexpr std::uint32_t kDitherStream = 0xD17Eu;

std::vector<double> dithered(const std::vector<double>& x, std::uint64_t seed) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    y[i] = x[i] + uniform_open(philox_bits({seed, kDitherStream}, 0, i, 0)[0]) - 0.5;
  return y;
}

StableFit stable_ml(const std::vector<double>& x, std::uint64_t seed) {
  const bool counts = is_integer_valued(x);
  const std::vector<double> y = counts ? dithered(x, seed) : x;
  StableFit f = fit_stable_ml(y, fit_stable_quantiles(y, seed));
  if (counts)
    f.note = "integer counts spread uniformly over their rounding interval before the fit" +
             (f.note.empty() ? std::string() : "; " + f.note);
  return f;
}

Fitted fit_stable_model(const StableFit& f) {
  Fitted r;
  r.invalid = alpha_stable_invalid(f.s1, std::nullopt);
  r.params = flow_map();
  r.params["alpha"] = f.s1.alpha;
  r.params["beta"] = f.s1.beta;
  r.params["sigma"] = f.s1.sigma;
  r.params["mu"] = f.s1.mu;
  r.params["parameterization"] = "S1";
  record_stable(r.fit, f);
  r.estimates = fmt::format("{}, {}, {}, {} (S1; S0 mu = {:.4g})", pm("alpha", f.s1.alpha, f.se_alpha),
                            pm("beta", f.s1.beta, f.se_beta), pm("sigma", f.s1.sigma, f.se_sigma),
                            pm("mu", f.s1.mu, f.se_mu1), f.s0.mu);
  r.statistic = fmt::format("logL = {:.6g}", f.log_likelihood);
  return r;
}

Fitted fit_lfsn_model(const std::vector<double>& x, const TraceStatistics& s, const FitOptions& o,
                      const StableFit& marginal) {
  Fitted r;
  const HurstEstimate& h = hurst_of(s, o.lfsn_hurst);
  r.invalid = alpha_stable_invalid(marginal.s1, h.H);
  record_stable(r.fit, marginal);
  record(r.fit, "H", h.H, h.se);
  r.fit["H_estimator"] = o.lfsn_hurst;
  if (o.lfsn_hurst != "stable" && marginal.s1.alpha < 2) {
    r.fit["H_warning"] = "a second-order estimator: under alpha < 2 it measures about H - 1/alpha + 1/2";
    r.warning = fmt::format("lfsn H by '{}' measures about H - 1/alpha + 1/2 when alpha < 2 (here {:.3g})",
                            o.lfsn_hurst, h.H - 1 / marginal.s1.alpha + 0.5);
  }
  if (!r.invalid.empty()) return r;
  // N(i) of the model is S1(α, β_eff, 1, 0) with β_eff = β·Σ sign(c_k)|c_k|^α: invert for β.
  LfsnModel model{marginal.s1.alpha, 1.0, h.H, 16, 256};
  const double ratio = make_lfsn_kernel(model, x.size()).beta_eff;
  double beta = ratio != 0 ? marginal.s1.beta / ratio : 0.0;
  if (std::fabs(beta) > 1) {
    r.fit["beta_note"] = fmt::format("beta_marginal / beta_eff ratio = {:.4g} is outside [-1, 1]; clipped", beta);
    beta = std::clamp(beta, -1.0, 1.0);
  }
  r.params = flow_map();
  r.params["alpha"] = marginal.s1.alpha;
  r.params["beta"] = beta;
  r.params["H"] = h.H;
  r.params["m"] = model.m;
  r.params["K"] = model.K;
  r.workload = flow_map();
  r.workload["v"] = marginal.s1.sigma;
  r.workload["delta"] = marginal.s1.mu;
  r.estimates = fmt::format(
      "{}, {}, {} (marginal S1: {}, {}, {})", pm("H", h.H, h.se), pm("alpha", marginal.s1.alpha, marginal.se_alpha),
      pm("beta", beta, StableFit::kNaN), pm("sigma", marginal.s1.sigma, marginal.se_sigma),
      pm("mu", marginal.s1.mu, marginal.se_mu1), fmt::format("beta_marginal = {:.4g}", marginal.s1.beta));
  r.statistic = fmt::format("logL(marginal) = {:.6g}", marginal.log_likelihood);
  return r;
}

Fitted fit_fgn_model(const std::vector<double>& x, const TraceStatistics& s, const FitOptions& o) {
  const HurstEstimate& h = hurst_of(s, o.fgn_hurst);
  const NormalFit n = fit_normal(x);
  Fitted r;
  if (!(h.H > 0 && h.H < 1)) r.invalid = fmt::format("H = {:.4g} is not in (0, 1): {}", h.H, h.note);
  r.params = flow_map();
  r.params["H"] = h.H;
  r.params["sigma"] = n.sigma;
  r.workload = flow_map();
  r.workload["delta"] = n.mu;
  record(r.fit, "H", h.H, h.se);
  r.fit["H_estimator"] = o.fgn_hurst;
  record(r.fit, "sigma", n.sigma, n.se_sigma);
  record(r.fit, "mean", n.mu, n.se_mu);
  r.estimates = fmt::format("{} ({}), {}, mean = {:.4g}", pm("H", h.H, h.se), o.fgn_hurst,
                            pm("sigma", n.sigma, n.se_sigma), n.mu);
  r.statistic = "-";
  return r;
}

Fitted fit_norros_model(const std::vector<double>& x, const TraceStatistics& s, const FitOptions& o) {
  if (s.trace.kind == Trace::Kind::series)
    throw UserError("norros needs arrival counts per bin, not a (time, value) series");
  const HurstEstimate& h = hurst_of(s, o.fgn_hurst);
  const NorrosFit f = fit_norros(x, s.binned.bin_width, h.H, h.se);
  Fitted r;
  if (!(h.H > 0 && h.H < 1)) r.invalid = fmt::format("H = {:.4g} is not in (0, 1)", h.H);
  r.params = flow_map();
  r.params["lambda"] = f.lambda;
  r.params["a"] = f.a;
  r.params["H"] = f.H;
  r.params["bin"] = f.bin;
  record(r.fit, "lambda", f.lambda, f.se_lambda);
  r.fit["a"] = f.a;
  record(r.fit, "H", f.H, f.se_H);
  r.fit["H_estimator"] = o.fgn_hurst;
  r.estimates = fmt::format("{} /s, a = {:.4g}, {}, bin = {:.4g} s", pm("lambda", f.lambda, f.se_lambda), f.a,
                            pm("H", f.H, f.se_H), f.bin);
  r.statistic = "-";
  return r;
}

Fitted fit_farima_model(const std::vector<double>& x, const FitOptions& o) {
  std::vector<FarimaFit> fits;
  if (o.farima_p || o.farima_q)
    fits.push_back(fit_farima(x, o.farima_p.value_or(0), o.farima_q.value_or(0)));
  else
    fits = select_farima(x, 2, 2);
  const FarimaFit& f = fits.front();
  Fitted r;
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
  return r;
}

Fitted fit_normal_model(const std::vector<double>& x) {
  const NormalFit f = fit_normal(x);
  Fitted r;
  r.params = flow_map();
  r.params["mu"] = f.mu;
  r.params["sigma"] = f.sigma;
  record(r.fit, "mu", f.mu, f.se_mu);
  record(r.fit, "sigma", f.sigma, f.se_sigma);
  r.fit["log_likelihood"] = f.log_likelihood;
  r.estimates = fmt::format("{}, {}", pm("mu", f.mu, f.se_mu), pm("sigma", f.sigma, f.se_sigma));
  r.statistic = fmt::format("logL = {:.6g}", f.log_likelihood);
  return r;
}

Fitted fit_markov_model(const std::vector<double>& x, const FitOptions& o) {
  const MarkovFit f = fit_markov(x, o.markov_states);
  Fitted r;
  r.params = YAML::Node(YAML::NodeType::Map);
  r.params["levels"] = flow_list(f.levels);
  r.params["transition"] = matrix_rows(f.transition);
  r.params["noise"] = flow_list(f.noise);
  r.fit["method"] = "levels by quantiles, transitions by counting";
  r.fit["levels"] = flow_list(f.levels);
  r.fit["noise"] = flow_list(f.noise);
  r.fit["transition_row_major"] = row_major(f.transition);
  r.fit["transition_se_row_major"] = row_major(f.transition_se);
  r.fit["log_likelihood"] = f.log_likelihood;
  if (!f.note.empty()) r.fit["note"] = f.note;
  r.estimates = fmt::format("k = {}, levels = [{:.4g}], P_ii = [{}]", f.levels.size(), fmt::join(f.levels, ", "), [&] {
    std::vector<std::string> d;
    for (std::size_t i = 0; i < f.transition.size(); ++i) d.push_back(fmt::format("{:.3g}", f.transition[i][i]));
    return fmt::format("{}", fmt::join(d, ", "));
  }());
  r.statistic = fmt::format("logL = {:.6g}", f.log_likelihood);
  return r;
}

Fitted fit_hmm_model(const TraceStatistics& s, const FitOptions& o) {
  if (s.trace.kind != Trace::Kind::series)
    throw UserError("hmm needs a series trace of (time, latency) pairs (--format series)");
  HmmFitOptions options;
  options.states = o.hmm_states;
  options.starts = o.hmm_starts;
  options.seed = o.seed;
  const HmmFit f = fit_hmm(s.trace.series_times, s.trace.series_values, options);
  Fitted r;
  r.params = YAML::Node(YAML::NodeType::Map);
  r.params["generator"] = matrix_rows(f.generator);
  r.params["emission"] = "lognormal";
  r.params["mu"] = flow_list(f.mu);
  r.params["sigma"] = flow_list(f.sigma);
  r.params["times"] = "dataset";  // the trace's own observation times, read with it at run time
  r.fit["method"] = "EM (scaled forward-backward, Van Loan expected holding times and jumps)";
  r.fit["generator_row_major"] = row_major(f.generator);
  r.fit["generator_se_row_major"] = row_major(f.generator_se);
  record_list(r.fit, "mu", f.mu, f.mu_se);
  record_list(r.fit, "sigma", f.sigma, f.sigma_se);
  r.fit["log_likelihood"] = f.log_likelihood;
  r.fit["iterations"] = f.iterations;
  r.fit["converged"] = f.converged ? "yes" : "no";
  r.fit["starts"] = o.hmm_starts;
  r.fit["start_log_likelihoods"] = flow_list(f.start_log_likelihoods);
  if (!f.note.empty()) r.fit["note"] = f.note;
  std::vector<std::string> rates;
  for (std::size_t i = 0; i < f.generator.size(); ++i) rates.push_back(fmt::format("{:.3g}", -f.generator[i][i]));
  r.estimates = fmt::format("mu = [{:.4g}], sigma = [{:.3g}], exit rates = [{}]", fmt::join(f.mu, ", "),
                            fmt::join(f.sigma, ", "), fmt::join(rates, ", "));
  r.statistic =
      fmt::format("logL = {:.6g} ({} it{})", f.log_likelihood, f.iterations, f.converged ? "" : ", not converged");
  return r;
}

std::string default_yaml_output(const std::string& yaml_path) {
  std::filesystem::path p(yaml_path);
  p.replace_extension(".h5");
  return p.filename().string();
}

YAML::Node dataset_node(const StatsOptions& read, const std::string& name) {
  YAML::Node d(YAML::NodeType::Map);
  d["name"] = name;
  if (read.traces.size() == 1) {
    d["trace"] = std::filesystem::absolute(read.traces[0]).string();
  } else {
    for (const auto& t : read.traces) d["trace"].push_back(std::filesystem::absolute(t).string());
  }
  d["format"] = trace_format_name(read.trace.format);
  if (!read.bin.empty()) d["bin"] = read.bin;
  if (!read.series.empty()) d["series"] = read.series;
  const TraceOptions defaults;
  const auto text_if = [&](const char* key, const std::string& value, const std::string& def) {
    if (value != def) d[key] = value;
  };
  text_if("column", read.trace.time_column, defaults.time_column);
  text_if("value_column", read.trace.value_column, defaults.value_column);
  text_if("op_column", read.trace.op_column, defaults.op_column);
  text_if("size_column", read.trace.size_column, defaults.size_column);
  if (read.trace.header) d["header"] = true;
  if (read.trace.delimiter)
    d["delimiter"] = read.trace.delimiter == ',' ? "comma" : read.trace.delimiter == '\t' ? "tab" : "space";
  if (read.trace.time_unit) d["time_unit"] = time_unit_name(*read.trace.time_unit);
  const auto list_if = [&](const char* key, const std::vector<std::string>& values,
                           const std::vector<std::string>& def) {
    if (values != def)
      for (const auto& v : values) d[key].push_back(v);
  };
  list_if("modules", read.trace.modules, defaults.modules);
  list_if("read_values", read.trace.read_values, defaults.read_values);
  list_if("write_values", read.trace.write_values, defaults.write_values);
  if (read.trace.blk_action != defaults.blk_action) d["blk_event"] = std::string(1, read.trace.blk_action);
  if (read.trace.sort) d["sort"] = true;
  if (read.trace.skip_bad_lines) d["skip_bad_lines"] = true;
  return d;
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  const auto dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir))
    throw UserError(fmt::format("-o {}: the directory '{}' does not exist", path, dir.string()));
  const auto temp = dir / fmt::format(".{}.tmp-{}", target.filename().string(), static_cast<long>(::getpid()));
  {
    std::ofstream out(temp, std::ios::binary);
    if (!(out << text)) throw UserError(fmt::format("-o {}: cannot write '{}'", path, temp.string()));
  }
  std::error_code ec;
  std::filesystem::rename(temp, target, ec);
  if (ec) {
    std::filesystem::remove(temp);
    throw UserError(fmt::format("-o {}: cannot rename the finished file: {}", path, ec.message()));
  }
}

}  // namespace

std::vector<FittedModel> fit_models(const TraceStatistics& s, const FitOptions& o) {
  const std::vector<double>& x = s.series;
  std::optional<StableFit> marginal;
  const auto stable_marginal = [&]() -> const StableFit& {
    if (!marginal) marginal = stable_ml(x, o.seed);
    return *marginal;
  };
  std::vector<Fitted> fitted;
  for (const auto& model : o.models) {
    Fitted r;
    try {
      if (model == "stable") r = fit_stable_model(stable_marginal());
      if (model == "lfsn") r = fit_lfsn_model(x, s, o, stable_marginal());
      if (model == "fgn") r = fit_fgn_model(x, s, o);
      if (model == "norros") r = fit_norros_model(x, s, o);
      if (model == "farima") r = fit_farima_model(x, o);
      if (model == "normal") r = fit_normal_model(x);
      if (model == "markov") r = fit_markov_model(x, o);
      if (model == "hmm") r = fit_hmm_model(s, o);
    } catch (const UserError& e) {
      r.invalid = e.what();
    }
    r.model = model;
    r.length = x.size();
    fitted.push_back(std::move(r));
  }

  return fitted;
}

YAML::Node fitted_ensemble_node(const FittedModel& r, const std::string& dataset, std::uint64_t replicas, bool counts) {
  YAML::Node e(YAML::NodeType::Map);
  e["name"] = fmt::format("{}-{}", dataset, r.model);
  e["model"] = r.model;
  e["params"] = r.params;
  YAML::Node workload = r.workload ? YAML::Clone(r.workload) : flow_map();
  if (counts && r.model != "hmm") {
    workload.SetStyle(YAML::EmitterStyle::Flow);
    workload["values"] = "counts";
  }
  if (workload.size() > 0) e["workload"] = workload;
  e["replicas"] = replicas;
  e["length"] = r.length;
  e["dataset"] = dataset;
  e["fit"] = r.fit;
  return e;
}

int fit_command(const FitOptions& given) {
  FitOptions o = given;
  for (const auto& m : o.models)
    if (std::find(kFitModels.begin(), kFitModels.end(), m) == kFitModels.end())
      throw UserError(
          fmt::format("--models: '{}' is not a fittable model; accepted: {}", m, fmt::join(kFitModels, ", ")));
  if (o.read.name.empty()) o.read.name = default_dataset_name(o.read.traces.at(0));
  for (char& c : o.read.name)  // ensemble names allow [A-Za-z0-9_.-]
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') c = '_';
  const TraceStatistics s = compute_statistics(o.read);
  const std::vector<double>& x = s.series;
  std::fprintf(stderr, "fitting %zu models to %zu values of '%s' (%s)\n", o.models.size(), x.size(),
               o.read.name.c_str(), s.series_name.c_str());

  const std::vector<Fitted> fitted = fit_models(s, o);
  for (const auto& r : fitted)
    if (!r.warning.empty()) std::fprintf(stderr, "warning: %s\n", r.warning.c_str());

  std::printf("%-8s %-10s %-22s %s\n", "model", "validity", "fit statistic", "estimates ± SE");
  for (const auto& r : fitted)
    std::printf("%-8s %-10s %-22s %s\n", r.model.c_str(), r.invalid.empty() ? "ok" : "stopped",
                r.invalid.empty() ? r.statistic.c_str() : "-",
                r.invalid.empty() ? r.estimates.c_str() : r.invalid.c_str());
  if (o.output.empty()) return kExitOk;

  const bool counts = s.trace.kind != Trace::Kind::series;
  YAML::Node root(YAML::NodeType::Map);
  root["seed"] = o.seed;
  root["output"] = o.ensemble_output.empty() ? default_yaml_output(o.output) : o.ensemble_output;
  root["datasets"].push_back(dataset_node(o.read, o.read.name));
  for (const auto& r : fitted)
    if (r.invalid.empty()) root["ensembles"].push_back(fitted_ensemble_node(r, o.read.name, o.replicas, counts));
  if (!root["ensembles"]) throw UserError("no model could be fitted to this trace; nothing written");
  YAML::Emitter out;
  out.SetDoublePrecision(17);
  out << root;
  const std::vector<std::string> digests = trace_digests(o.read.traces);
  const std::string text =
      fmt::format("# Written by gpusynth {} fit (seed {}) from {} (sha256 {}).\n# Run it with: gpusynth {}\n{}\n",
                  kVersion, o.seed, fmt::join(o.read.traces, ", "), fmt::join(digests, ", "), o.output, out.c_str());
  write_text_atomically(o.output, text);
  std::fprintf(stderr, "wrote %s\n", o.output.c_str());
  return kExitOk;
}

int norros_command(const NorrosOptions& o) {
  const double lambda = norros_arrival_rate(o.a, o.H, o.epsilon, o.b);
  std::printf("eq. (5): arrival rate lambda = %.6g at a = %g, H = %g, epsilon = %g, b = %g\n", lambda, o.a, o.H,
              o.epsilon, o.b);
  std::printf("         (its effective bandwidth by eq. (3): C = %.6g; eq. (4) gives lambda = C eps/(b(1-eps)))\n",
              norros_bandwidth(lambda, o.a, o.H, o.epsilon, o.b));
  if (o.lambda) {
    std::printf("eq. (3): effective bandwidth C = %.6g at lambda = %g\n",
                norros_bandwidth(*o.lambda, o.a, o.H, o.epsilon, o.b), *o.lambda);
  }
  return kExitOk;
}

}  // namespace gs
