#include "host/models/fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/models/model.hpp"
#include "kernels/lfsn.hpp"

namespace gs {

namespace {

const FitOptionSpec* find_fit_option(const std::string& name) {
  for (const FitOptionSpec* option : fit_option_specs())
    if (option->name == name) return option;
  return nullptr;
}

const FitOptionSpec& fit_option(const std::string& name) {
  const FitOptionSpec* option = find_fit_option(name);
  if (!option) throw InternalError("FitSettings", fmt::format("no fit option '{}'", name), __FILE__, __LINE__);
  return *option;
}

bool is_integer_valued(const std::vector<double>& x) {
  return std::all_of(x.begin(), x.end(), [](double v) { return v == std::round(v); });
}

}  // namespace

void FitSettings::set(const std::string& name, const std::string& value, const std::string& where) {
  const FitOptionSpec* option = find_fit_option(name);
  if (!option) {
    std::vector<std::string> names;
    for (const FitOptionSpec* o : fit_option_specs()) names.push_back(o->name);
    throw UserError(fmt::format("{}: '{}' is not a fit option; accepted: {}", where, name, fmt::join(names, ", ")));
  }
  if (!option->choices.empty()) {
    if (std::find(option->choices.begin(), option->choices.end(), value) == option->choices.end())
      throw UserError(
          fmt::format("{} = '{}' is not accepted; accepted: {}", where, value, fmt::join(option->choices, ", ")));
  } else {
    std::size_t used = 0;
    long long number = 0;
    try {
      number = std::stoll(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || value.empty() || number < option->min || number > option->max)
      throw UserError(fmt::format("{} = {} is out of range; accepted: whole number {} <= {} <= {}", where, value,
                                  option->min, name, option->max));
  }
  values_[name] = value;
}

std::string FitSettings::choice(const std::string& name) const {
  const auto found = values_.find(name);
  return found != values_.end() ? found->second : fit_option(name).default_value;
}

std::optional<std::int64_t> FitSettings::whole(const std::string& name) const {
  const std::string value = choice(name);
  if (value.empty()) return std::nullopt;
  return std::stoll(value);
}

FitData::FitData(std::vector<double> series, bool binned, double bin_width, std::vector<double> times,
                 FitSettings settings, std::uint64_t seed)
    : series_(std::move(series)),
      binned_(binned),
      bin_width_(bin_width),
      times_(std::move(times)),
      settings_(std::move(settings)),
      seed_(seed) {}

const HurstEstimate& FitData::hurst(const std::string& estimator) {
  const std::lock_guard<std::mutex> lock(hurst_mutex_);
  const auto found = hurst_.find(estimator);
  if (found != hurst_.end()) return found->second;
  const NamedHurstEstimator* named = find_hurst_estimator(estimator);
  if (!named)
    throw UserError(
        fmt::format("no Hurst estimator '{}'; accepted: {}", estimator, fmt::join(hurst_estimator_keys(), ", ")));
  return hurst_.emplace(estimator, named->estimate(series_)).first->second;
}

const StableFit& FitData::stable_marginal() {
  const std::lock_guard<std::mutex> lock(stable_mutex_);
  if (!stable_) {
    stable_ = fit_stable_marginal(series_, seed_);
  }
  return *stable_;
}

StableFit fit_stable_marginal(const std::vector<double>& series, std::uint64_t seed) {
  // Whole numbers (counts per bin) are fitted as rounded values: no dither, so
  // the estimate does not depend on the seed (which only feeds the start's bootstrap SEs).
  if (!is_integer_valued(series)) return fit_stable_ml(series, fit_stable_quantiles(series, seed));
  StableFit start;
  try {
    start = fit_stable_quantiles(series, seed, 0);
  } catch (const UserError&) {  // more than half the counts equal: no interquartile range
    std::vector<double> sorted = series;
    std::sort(sorted.begin(), sorted.end());
    start.s0 = {1.0, 0.5, std::max(0.5, (sorted.back() - sorted.front()) / 100), sorted[sorted.size() / 2],
                StableParameterization::S0};
  }
  return fit_stable_ml(series, start, StableLikelihood::rounded);
}

std::string hurst_boundary(const HurstEstimate& h, const std::string& estimator, const char* option) {
  if (!h.at_edge) return "";
  return fmt::format(
      "H = {:.4g} from the '{}' estimator is {}; the model's long memory is then the edge of its range, not a "
      "measurement: look at the series for a trend or a level shift (stats' hurst plots), fit its differences, or try "
      "another {}",
      h.H, estimator, h.note, option);
}

const char* validity_of(const FittedModel& fitted) {
  return !fitted.invalid.empty() ? "stopped" : !fitted.boundary.empty() ? "boundary" : "ok";
}

namespace {
// The validity word, the boundary and the warning go into `fit:` beside the
// estimates, so that the written config, the HDF5 attributes made from it and
// the report's caveats say what the fit table said (a stopped model is not written).
void record_verdict(FittedModel& r) {
  if (!r.invalid.empty()) return;
  r.fit["validity"] = validity_of(r);
  if (!r.boundary.empty()) r.fit["boundary"] = r.boundary;
  if (!r.warning.empty()) r.fit["warnings"] = r.warning;
}
}  // namespace

std::vector<FittedModel> fit_models(FitData& data, const std::vector<std::string>& models) {
  std::vector<FittedModel> fitted;
  for (const auto& name : models) {
    throw_if_interrupted();
    FittedModel r;
    try {
      const ModelTraits* traits = find_model(name);
      if (!traits || !traits->fit) throw UserError(fmt::format("'{}' is not a fittable model", name));
      r = traits->fit(data);
      // What is written must run: the estimates pass the model's own checks
      // (finite, in range), as `run` will apply them to the written config.
      if (r.invalid.empty()) {
        try {
          make_model(*traits, r.params, "<fitted " + name + ">", "params");
        } catch (const UserError& e) {
          r.invalid = fmt::format("the estimates are not a valid {} model: {}", name, e.what());
        }
      }
    } catch (const UserError& e) {
      r.invalid = e.what();
    }
    r.model = name;
    r.length = data.series().size();
    record_verdict(r);
    fitted.push_back(std::move(r));
  }
  return fitted;
}

void check_fittable(const std::vector<std::string>& models, const std::string& where) {
  const std::vector<std::string> fittable = fittable_model_names();
  for (const auto& m : models)
    if (std::find(fittable.begin(), fittable.end(), m) == fittable.end())
      throw UserError(
          fmt::format("{}: '{}' is not a fittable model; accepted: {}", where, m, fmt::join(fittable, ", ")));
}

bool replicas_as_counts(bool binned, const std::vector<double>& series) {
  return binned && is_integer_valued(series) &&
         std::all_of(series.begin(), series.end(), [](double v) { return v >= 0 && v <= 4294967295.0; });
}

YAML::Node fitted_ensemble_node(const FittedModel& r, const std::string& dataset, std::uint64_t replicas, bool counts) {
  YAML::Node e(YAML::NodeType::Map);
  e["name"] = fmt::format("{}-{}", dataset, r.model);
  e["model"] = r.model;
  e["params"] = r.params;
  YAML::Node workload = r.workload ? YAML::Clone(r.workload) : flow_map();
  if (counts) {
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

namespace {
std::string with_se(double value, double se) {
  return std::isfinite(se) ? fmt::format("{:.4g} ± {:.2g}", value, se) : fmt::format("{:.4g}", value);
}
}  // namespace

std::string pm(const char* name, double value, double se) { return fmt::format("{} = {}", name, with_se(value, se)); }

std::string pm(const char* name, double value, double se, const std::string& se_from) {
  return pm(name, value, se) + (se_from == "profile" && std::isfinite(se) ? " (profile)" : "");
}

std::string pm_list(const char* name, const std::vector<double>& values, const std::vector<double>& se) {
  std::vector<std::string> each;
  for (std::size_t i = 0; i < values.size(); ++i)
    each.push_back(with_se(values[i], i < se.size() ? se[i] : std::numeric_limits<double>::quiet_NaN()));
  return fmt::format("{} = [{}]", name, fmt::join(each, ", "));
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

void record_list(YAML::Node& fit, const std::string& name, const std::vector<double>& values,
                 const std::vector<double>& se) {
  fit[name] = flow_list(values);
  fit[name + "_se"] = flow_list(se);
}

YAML::Node matrix_rows(const Matrix& m) {
  YAML::Node rows(YAML::NodeType::Sequence);
  for (const auto& row : m) rows.push_back(flow_list(row));
  return rows;
}

YAML::Node row_major(const Matrix& m) { return flow_list(flattened(m)); }

std::string alpha_stable_invalid(const StableLawParams& law, std::optional<double> H) {
  if (!(law.alpha > 0 && law.alpha <= 2)) return fmt::format("alpha = {:.4g} is not in (0, 2]", law.alpha);
  if (!(law.beta >= -1 && law.beta <= 1)) return fmt::format("beta = {:.4g} is not in [-1, 1]", law.beta);
  if (!(law.sigma > 0)) return fmt::format("sigma = {:.4g} is not > 0", law.sigma);
  if (H) {
    if (!(*H > 0 && *H < 1)) return fmt::format("H = {:.4g} is not in (0, 1)", *H);
    if (lfsn_d_vanishes(*H, law.alpha))
      return fmt::format("H = {:.4g} equals 1/alpha: d = H - 1/alpha = 0 and the LFSN kernel degenerates", *H);
  }
  return "";
}

void record_stable(YAML::Node& fit, const StableFit& f) {
  fit["method"] = f.method == "ml"
                      ? "maximum likelihood (Nolan's density), SEs from the observed information, or for alpha, sigma "
                        "and mu_S1 from the 95 % profile-likelihood interval where it is wider (*_se_from)"
                      : "McCulloch quantiles, bootstrap SEs";
  if (f.method == "ml") fit["likelihood"] = to_string(f.likelihood);
  record(fit, "alpha", f.s1.alpha, f.se_alpha);
  record(fit, "beta", f.s1.beta, f.se_beta);
  record(fit, "sigma", f.s1.sigma, f.se_sigma);
  record(fit, "mu_S1", f.s1.mu, f.se_mu1);
  record(fit, "mu_S0", f.s0.mu, f.se_mu0);
  // The profile intervals and which SE each parameter reports (docs/fitting.md).
  const auto profile = [&](const std::string& name, const StableFit::Profile& p) {
    if (p.se_from.empty()) return;
    fit[name + "_profile_95"] = flow_list({p.lower, p.upper});
    fit[name + "_se_information"] = p.information_se;
    fit[name + "_se_from"] = p.se_from == "profile"
                                 ? "profile: the 95 % profile-likelihood interval's width / 3.92, wider "
                                   "than the observed information's"
                                 : "information: the observed information's, at least the 95 % "
                                   "profile-likelihood interval's width / 3.92";
  };
  profile("alpha", f.profile_alpha);
  profile("sigma", f.profile_sigma);
  profile("mu_S1", f.profile_mu1);
  fit["log_likelihood"] = f.log_likelihood;
  fit["n"] = f.n;
  if (!f.note.empty()) fit["note"] = f.note;
  if (!f.boundary.empty()) fit["boundary"] = f.boundary;
}

}  // namespace gs
