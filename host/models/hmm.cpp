// model: hmm — the continuous-time hidden Markov model with log-normal
// emissions of the Titan latency paper (kernels/hmm.hpp), observed at regular
// times, listed times, a file of times, or its dataset's own times.
#include "kernels/hmm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "estimators/hmm_fit.hpp"
#include "host/base/paths.hpp"
#include "host/models/chains.hpp"
#include "host/models/fit.hpp"
#include "host/models/model.hpp"
#include "io/line_reader.hpp"
#include "io/traces/fields.hpp"

namespace gs {

namespace {
namespace models_hmm {

std::vector<double> read_times_file(const std::string& path) {
  LineReader reader(path);
  std::vector<double> times;
  std::string line;
  while (reader.next(line)) {
    const int number = static_cast<int>(reader.line_number());
    try {
      check_text_line(line, reader.too_long());  // the trace readers' test for text
    } catch (const BadLine& bad) {
      throw located_error(path, number, 1, bad.message);
    }
    const std::string_view content = trim(std::string_view(line).substr(0, line.find('#')));
    if (content.empty()) continue;
    double t = 0;
    if (!parse_number(content, t))
      throw located_error(path, number, 1, fmt::format("'{}' is not a time; expected one number per line", content));
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

struct HmmParams {
  Matrix generator;               // Q
  std::vector<double> mu, sigma;  // log-mean and log-sd of each state's emission
  InitialLaw initial;
  double start = 0, interval = 1;  // regular observation times start + i·interval
  std::vector<double> times;       // or these (strictly increasing)
  std::string times_source;        // "list", the file they came from, or "dataset <name>"
  bool times_from_dataset = false;
};

class HmmModel final : public Model {
 public:
  explicit HmmModel(HmmParams params) : p_(std::move(params)) {}

  std::vector<Attribute> describe() const override {
    std::vector<Attribute> attrs = {
        {"states", static_cast<std::int64_t>(p_.generator.size())},
        {"generator", flattened(p_.generator)},
        {"generator_layout", std::string("states x states, row-major: entry [i*states + j] = Q_ij")},
        {"emission", std::string("lognormal")},
        {"mu", p_.mu},
        {"sigma", p_.sigma},
        {"initial", p_.initial.law},
        {"initial_source", p_.initial.source()},
        {"law", std::string("continuous-time Markov chain s(t) with generator Q, simulated exactly (holding "
                            "times Exp(-Q_ss), jumps with probability Q_sj/-Q_ss), started at the first "
                            "observation time; observation i is exp(mu[s] + sigma[s] Z_i), s = s(t_i)")}};
    if (p_.times.empty()) {
      attrs.push_back({"observation_times", std::string("regular: start + i*interval")});
      attrs.push_back({"start", p_.start});
      attrs.push_back({"interval", p_.interval});
    } else {
      attrs.push_back({"observation_times", std::string("irregular, from ") + p_.times_source});
    }
    return attrs;
  }

  std::string rng_use() const override {
    using Kernel = HmmKernel<double>;
    return describe_philox_uses(
        {{"sojourn e of replica r", "e", Kernel::kSojournDraw,
          fmt::format("words {},{} -> its Exp holding time (64-bit uniform), word {} -> the state it jumps to",
                      Kernel::kHoldingWords, Kernel::kHoldingWords + 1, Kernel::kJumpWord)},
         {"observation i of replica r", "i", Kernel::kEmissionDraw,
          fmt::format("words {}-{} -> the emission's normal ({})", Kernel::kEmissionRadiusWords,
                      Kernel::kEmissionAngleWord,
                      box_muller_words(Kernel::kEmissionRadiusWords, Kernel::kEmissionAngleWord))},
         {"the initial state of replica r", "0", Kernel::kInitialDraw,
          fmt::format("word {} ({})", Kernel::kInitialWord, kUniformRule)}});
  }

  Generation generation(const GenerationRequest& request) const override {
    if (p_.times_from_dataset && p_.times.empty())
      throw InternalError("HmmModel", "times: dataset was not filled in from the dataset", __FILE__, __LINE__);
    Generation generation;
    generation.direct = with_value_types(request, [&](auto, auto out) {
      HmmKernel<decltype(out)> kernel = kernel_for<decltype(out)>(request);
      return DirectKernel::of(kernel, p_.times);
    });
    generation.rng_positions = request.length;
    return generation;
  }

  std::optional<std::uint64_t> fixed_length() const override {
    if (!p_.times.empty()) return p_.times.size();
    return std::nullopt;
  }

  std::shared_ptr<Model> with_dataset(const DatasetFacts* dataset, std::uint64_t length,
                                      const std::string& where) const override {
    if (!p_.times_from_dataset) return nullptr;
    if (!dataset)
      throw UserError(
          fmt::format("{}: params.times = dataset needs the ensemble's `dataset:` (one of the config's "
                      "datasets)",
                      where));
    if (dataset->binned)
      throw UserError(
          fmt::format("{}: dataset '{}' is binned and has no observation times; params.times = dataset "
                      "needs a `series` trace",
                      where, dataset->name));
    if (dataset->times.size() != length)
      throw UserError(fmt::format("{}: length = {} but dataset '{}' has {} observation times; accepted: length = {}",
                                  where, length, dataset->name, dataset->times.size(), dataset->times.size()));
    auto model = std::make_shared<HmmModel>(*this);
    model->p_.times = dataset->times;
    model->p_.times_source = "dataset " + dataset->name;
    return model;
  }

  std::vector<SideVector> side_vectors(std::uint64_t length) const override {
    GenerationRequest request;
    request.length = length;
    HmmKernel<double> kernel = kernel_for<double>(request);
    kernel.table = p_.times.empty() ? nullptr : p_.times.data();  // the times as the kernel sees them
    std::vector<double> times(length);
    for (std::uint64_t i = 0; i < length; ++i) times[i] = kernel.observation_time(i);
    return {{"observation_times",
             times,
             {{"description", std::string("the time of each column of series (the hmm's observation "
                                          "times), in the unit of the generator's rates")}}}};
  }

 private:
  template <class Out>
  HmmKernel<Out> kernel_for(const GenerationRequest& request) const {
    HmmKernel<Out> kernel;
    kernel.key = request.key;
    kernel.states = static_cast<int>(p_.generator.size());
    set_cumulative(p_.initial.law.data(), kernel.states, kernel.initial);
    for (std::size_t i = 0; i < p_.generator.size(); ++i) {
      const double rate = -p_.generator[i][i];
      kernel.rate[i] = rate > 0 ? rate : 0;
      std::vector<double> jump(p_.generator.size(), 0.0);
      for (std::size_t j = 0; j < jump.size(); ++j)
        if (j != i && rate > 0) jump[j] = p_.generator[i][j] / rate;
      if (rate > 0) set_cumulative(jump.data(), kernel.states, kernel.jump[i]);
      kernel.log_mean[i] = p_.mu[i];
      kernel.log_sd[i] = p_.sigma[i];
    }
    kernel.start = p_.start;
    kernel.interval = p_.interval;
    kernel.map = request.workload;
    kernel.length = request.length;
    return kernel;
  }

  HmmParams p_;
};

std::shared_ptr<Model> make(const ParamValues& p) {
  HmmParams model;
  model.generator = p.matrix("generator");
  const std::size_t k = state_count(p, "generator", model.generator.size());
  require_square(p, "generator", k);
  for (std::size_t i = 0; i < k; ++i) {
    const auto& row = model.generator[i];
    double sum = 0, scale = 0;
    bool negative = false;
    for (std::size_t j = 0; j < k; ++j) {
      sum += row[j];
      scale = std::max(scale, std::fabs(row[j]));
      negative |= j != i && row[j] < 0;
    }
    if (negative || std::fabs(sum) > 1e-9 * std::max(scale, 1.0))
      throw p.error_at("generator",
                       fmt::format("{}[{}] = [{}] is not a generator row; accepted: off-diagonal entries >= 0 "
                                   "and a diagonal making the row sum to 0",
                                   p.path_of("generator"), i, fmt::join(row, ", ")));
  }
  model.mu = p.reals("mu");
  model.sigma = p.reals("sigma");
  if (model.mu.size() != k)
    throw p.error_at(
        "mu", fmt::format("{} has {} entries; accepted: one per state ({})", p.path_of("mu"), model.mu.size(), k));
  if (model.sigma.size() != k)
    throw p.error_at("sigma", fmt::format("{} must list one log-sd >= 0 per state ({})", p.path_of("sigma"), k));
  model.initial = initial_law(p, model.generator, "generator", true);
  const int time_keys = p.given("interval") + p.given("times") + p.given("times_file");
  if (time_keys > 1)
    throw p.error_here(
        fmt::format("{}: give the observation times one way: interval (regular), times (a list or "
                    "'dataset') or times_file",
                    p.where()));
  model.start = p.real("start");
  model.interval = p.real("interval");
  if (p.word("times") == "dataset") {
    model.times_from_dataset = true;
    model.times_source = "dataset";
  } else if (p.given("times")) {
    const std::vector<double>& list = p.reals("times");
    if (list.empty()) throw p.error_at("times", fmt::format("{} is empty", p.path_of("times")));
    for (std::size_t i = 1; i < list.size(); ++i)
      if (!(list[i] > list[i - 1]))
        throw p.error_at("times", fmt::format("{}[{}] = {} does not follow {}; observation times must increase "
                                              "strictly",
                                              p.path_of("times"), i, list[i], list[i - 1]));
    model.times = list;
    model.times_source = "list";
  } else if (p.given("times_file")) {
    const std::string path = path_beside(p.file(), p.text("times_file"));
    try {
      model.times = read_times_file(path);
    } catch (const UserError& e) {
      throw p.error_at("times_file", fmt::format("{}: {}", p.path_of("times_file"), e.what()));
    }
    model.times_source = path;
  }
  return std::make_shared<HmmModel>(std::move(model));
}

// EM from hmm_starts starts on a (time, latency) series; the config observes
// the replicas at the trace's own times (`times: dataset`).
FittedModel fit(FitData& data) {
  if (data.binned()) throw UserError("hmm needs a series trace of (time, latency) pairs (--format series)");
  HmmFitOptions options;
  options.states = static_cast<std::size_t>(*data.settings().whole("hmm_states"));
  options.starts = static_cast<int>(*data.settings().whole("hmm_starts"));
  options.seed = data.seed();
  const HmmFit f = fit_hmm(data.times(), data.series(), options);
  FittedModel r;
  r.params = YAML::Node(YAML::NodeType::Map);
  r.params["generator"] = matrix_rows(f.generator);
  r.params["emission"] = "lognormal";
  r.params["mu"] = flow_list(f.mu);
  r.params["sigma"] = flow_list(f.sigma);
  r.params["times"] = "dataset";  // the trace's own observation times, read with it at run time
  r.fit["method"] =
      "EM from normal-mixture starts (scaled forward-backward, Van Loan expected holding times and jumps)";
  r.fit["generator_row_major"] = row_major(f.generator);
  r.fit["generator_se_row_major"] = row_major(f.generator_se);
  record_list(r.fit, "mu", f.mu, f.mu_se);
  record_list(r.fit, "sigma", f.sigma, f.sigma_se);
  r.fit["log_likelihood"] = f.log_likelihood;
  r.fit["iterations"] = f.iterations;
  r.fit["converged"] = f.converged ? "yes" : "no";
  r.fit["starts"] = options.starts;
  r.fit["start_log_likelihoods"] = flow_list(f.start_log_likelihoods);
  r.fit["starts_at_best"] = f.starts_at_best;
  if (!f.note.empty()) r.fit["note"] = f.note;
  std::vector<std::string> rates;
  for (std::size_t i = 0; i < f.generator.size(); ++i) rates.push_back(fmt::format("{:.3g}", -f.generator[i][i]));
  r.estimates = fmt::format("{}, {}, exit rates = [{}]", pm_list("mu", f.mu, f.mu_se),
                            pm_list("sigma", f.sigma, f.sigma_se), fmt::join(rates, ", "));
  r.statistic = fmt::format("logL = {:.6g} ({} it{}, {} of {} starts at it)", f.log_likelihood, f.iterations,
                            f.converged ? "" : ", not converged", f.starts_at_best, options.starts);
  if (!f.converged)
    r.add_boundary(fmt::format(
        "EM stopped at its limit of {} iterations before logL changed by less than {:g} of itself per iteration: the "
        "estimates may still move ({} of {} starts ended within {} of the best logL); a state the data barely need "
        "slows EM down: try fewer --hmm-states",
        options.max_iterations, options.tolerance, f.starts_at_best, options.starts, kSameOptimum));
  return r;
}

[[maybe_unused]] const bool registered = register_model({
    "hmm",
    "continuous-time hidden Markov chain with log-normal emissions (Titan)",
    "{generator: [[-0.02, 0.015, 0.005], [0.05, -0.06, 0.01], [0.1, 0.1, -0.2]], mu: [-3, -2, 0], sigma: [0.2, 0.4, "
    "0.8], interval: 60}",
    {matrix_param("generator", "Q, k x k (1 to 16 states), off-diagonals >= 0, rows summing to 0"),
     choice_param("emission", "the emission law", {"lognormal"}), reals_param("mu", "the per-state log-mean"),
     reals_param("sigma", "the per-state log-sd").at_least(0),
     reals_param("initial", "k probabilities summing to 1").optional("the stationary law"),
     real_param("interval", "regular observation times start + i*interval").above(0).defaults(1),
     real_param("start", "the first regular observation time").defaults(0),
     reals_param("times",
                 "a strictly increasing list of observation times (length must equal its size), or "
                 "'dataset': those of the ensemble's `series` dataset")
         .or_word("dataset", "times")
         .optional("regular times"),
     text_param("times_file", "a file of times, one per line, # comments; relative to the config's directory")
         .optional("regular times")},
    make,
    fit,
    false,
    {{"hmm_states", "states of hmm (default 3)", {}, "3", 1, 10},
     {"hmm_starts", "EM starts of hmm (default 5)", {}, "5", 1, 100}},
    // GPU/host, 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    0.20,
});

}  // namespace models_hmm
}  // namespace

}  // namespace gs
