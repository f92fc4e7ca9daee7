// model: normal — i.i.d. N(μ, σ²) values by Box–Muller (kernels/normal.hpp),
// the paper's Normal comparison model.
#include "kernels/normal.hpp"

#include <fmt/format.h>

#include "estimators/model_fit.hpp"
#include "host/models/fit.hpp"
#include "host/models/model.hpp"

namespace gs {

namespace {
namespace models_normal {

class NormalModel final : public Model {
 public:
  NormalModel(double mu, double sigma) : mu_(mu), sigma_(sigma) {}

  std::vector<Attribute> describe() const override {
    return {{"mu", mu_}, {"sigma", sigma_}, {"law", std::string("i.i.d. N(mu, sigma^2)")}};
  }

  std::string rng_use() const override {
    using Draws = NormalDraws<double>;
    return describe_philox_uses({{"bins 2j and 2j+1 of replica r", "j", Draws::kDraw,
                                  fmt::format("words {}-{} ({})", Draws::kRadiusWords, Draws::kAngleWord,
                                              box_muller_words(Draws::kRadiusWords, Draws::kAngleWord))}});
  }

  Generation generation(const GenerationRequest& request) const override {
    Generation generation;
    generation.direct = with_value_types(request, [&](auto real, auto out) {
      using Real = decltype(real);
      NormalDraws<Real> draws;
      draws.mu = static_cast<Real>(mu_);
      draws.sigma = static_cast<Real>(sigma_);
      return DirectKernel::of(pairs_kernel<NormalDraws<Real>, decltype(out)>(draws, request));
    });
    generation.rng_positions = (request.length + 1) / 2;
    return generation;
  }

 private:
  double mu_, sigma_;
};

std::shared_ptr<Model> make(const ParamValues& p) {
  return std::make_shared<NormalModel>(p.real("mu"), p.real("sigma"));
}

FittedModel fit(FitData& data) {
  const NormalFit f = fit_normal(data.series());
  FittedModel r;
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

[[maybe_unused]] const bool registered = register_model({
    "normal",
    "i.i.d. Gaussian values",
    "{mu: 100, sigma: 20}",
    {real_param("mu", "the mean").defaults(0), real_param("sigma", "the standard deviation").above(0).defaults(1)},
    make,
    fit,
    true,
    {},
    // GPU/host, 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    5.3,
});

}  // namespace models_normal
}  // namespace

}  // namespace gs
