// model: markov — the Oly–Reed Markov model of arrival rates: a discrete-time
// chain over k rate levels (kernels/markov.hpp), the paper's Markov model.
#include "kernels/markov.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "estimators/model_fit.hpp"
#include "host/models/chains.hpp"
#include "host/models/fit.hpp"
#include "host/models/model.hpp"

namespace gs {

namespace {
namespace models_markov {

class MarkovModel final : public Model {
 public:
  MarkovModel(std::vector<double> levels, Matrix transition, InitialLaw initial, std::vector<double> noise)
      : levels_(std::move(levels)),
        transition_(std::move(transition)),
        initial_(std::move(initial)),
        noise_(std::move(noise)) {}

  std::vector<Attribute> describe() const override {
    return {{"states", static_cast<std::int64_t>(levels_.size())},
            {"levels", levels_},
            {"transition", flattened(transition_)},
            {"transition_layout", std::string("states x states, row-major: entry [i*states + j] = P(i -> j)")},
            {"initial", initial_.law},
            {"initial_source", initial_.source()},
            {"noise", noise_},
            {"law", std::string("X(t) = levels[s_t] + noise[s_t] * Z_t, s a discrete-time Markov chain, Z i.i.d. "
                                "N(0, 1)")}};
  }

  std::string rng_use() const override {
    using Kernel = MarkovChainKernel<double>;
    return describe_philox_uses(
        {{"bin t of replica r", "t", Kernel::kDraw,
          fmt::format("word {} picks the state ({}), words {}-{} the within-state noise ({})", Kernel::kStateWord,
                      kUniformRule, Kernel::kNoiseRadiusWords, Kernel::kNoiseAngleWord,
                      box_muller_words(Kernel::kNoiseRadiusWords, Kernel::kNoiseAngleWord))}});
  }

  Generation generation(const GenerationRequest& request) const override {
    Generation generation;
    generation.direct = with_value_types(request, [&](auto, auto out) {
      MarkovChainKernel<decltype(out)> kernel;
      kernel.key = request.key;
      kernel.states = static_cast<int>(levels_.size());
      set_cumulative(initial_.law.data(), kernel.states, kernel.initial);
      for (std::size_t i = 0; i < levels_.size(); ++i) {
        set_cumulative(transition_[i].data(), kernel.states, kernel.transition[i]);
        kernel.level[i] = levels_[i];
        kernel.noise[i] = noise_[i];
      }
      kernel.map = request.workload;
      kernel.length = request.length;
      return DirectKernel::of(kernel);
    });
    generation.rng_positions = request.length;
    return generation;
  }

 private:
  std::vector<double> levels_;
  Matrix transition_;
  InitialLaw initial_;
  std::vector<double> noise_;
};

std::shared_ptr<Model> make(const ParamValues& p) {
  const std::vector<double>& levels = p.reals("levels");
  const std::size_t k = state_count(p, "levels", levels.size());
  require_square(p, "transition", k);
  const Matrix& transition = p.matrix("transition");
  for (std::size_t i = 0; i < k; ++i) {
    const auto& row = transition[i];
    const double sum = std::accumulate(row.begin(), row.end(), 0.0);
    if (std::any_of(row.begin(), row.end(), [](double x) { return x < 0; }) || std::fabs(sum - 1) > 1e-9)
      throw p.error_at("transition",
                       fmt::format("{}[{}] = [{}] sums to {:.12g}; accepted: entries >= 0, each row summing to "
                                   "1 (within 1e-9)",
                                   p.path_of("transition"), i, fmt::join(row, ", "), sum));
  }
  std::vector<double> noise = p.given("noise") ? p.reals("noise") : std::vector<double>(k, 0.0);
  if (noise.size() != k)
    throw p.error_at("noise",
                     fmt::format("{} must list one standard deviation >= 0 per state ({})", p.path_of("noise"), k));
  return std::make_shared<MarkovModel>(levels, transition, initial_law(p, transition, "transition", false),
                                       std::move(noise));
}

// k = markov_states levels at the j/k quantiles, P by counting transitions.
FittedModel fit(FitData& data) {
  const MarkovFit f = fit_markov(data.series(), static_cast<std::size_t>(*data.settings().whole("markov_states")));
  FittedModel r;
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
  std::vector<std::string> diagonal;
  for (std::size_t i = 0; i < f.transition.size(); ++i) diagonal.push_back(fmt::format("{:.3g}", f.transition[i][i]));
  r.estimates = fmt::format("k = {}, levels = [{:.4g}], P_ii = [{}]", f.levels.size(), fmt::join(f.levels, ", "),
                            fmt::join(diagonal, ", "));
  r.statistic = fmt::format("logL = {:.6g}", f.log_likelihood);
  return r;
}

[[maybe_unused]] const bool registered = register_model({
    "markov",
    "discrete-time Markov chain over rate levels (Oly-Reed)",
    "{levels: [20, 100, 400], transition: [[0.9, 0.09, 0.01], [0.05, 0.9, 0.05], [0.02, 0.28, 0.7]], noise: [5, 15, "
    "60]}",
    {reals_param("levels", "the rate of each state, 1 to 16 states"),
     matrix_param("transition", "k x k, entries >= 0, each row summing to 1 (within 1e-9)"),
     reals_param("initial", "k probabilities summing to 1; required when the chain is reducible")
         .optional("the stationary law"),
     reals_param("noise", "the per-state standard deviation").at_least(0).optional("zeros")},
    make,
    fit,
    true,
    {{"markov_states", "rate levels of markov (default 3)", {}, "3", 1, 10}},
    // GPU/host (in segments), 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    24,
});

}  // namespace models_markov
}  // namespace

}  // namespace gs
