// model: stable — i.i.d. α-stable values (the marginal law of eq. (3) of the
// α-stable workload paper), by Chambers–Mallows–Stuck (kernels/stable.hpp).
#include "kernels/stable.hpp"

#include <fmt/format.h>

#include "host/models/fit.hpp"
#include "host/models/model.hpp"

namespace gs {

namespace {
namespace models_stable {

const char* parameterization_name(StableParameterization p) { return p == StableParameterization::S0 ? "S0" : "S1"; }

class StableModel final : public Model {
 public:
  explicit StableModel(const StableLawParams& law) : law_(law) {}

  std::vector<Attribute> describe() const override {
    return {{"alpha", law_.alpha},
            {"beta", law_.beta},
            {"sigma", law_.sigma},
            {"mu", law_.mu},
            {"parameterization", std::string(parameterization_name(law_.parameterization))},
            {"law", fmt::format("i.i.d. alpha-stable S_alpha(sigma, beta, mu) in Nolan's {} "
                                "parameterization (S1: Samorodnitsky and Taqqu 1994, eq. (3) of the alpha-stable "
                                "workload paper)",
                                parameterization_name(law_.parameterization))}};
  }

  std::string rng_use() const override {
    using Draws = StableDraws<double>;
    return describe_philox_uses(
        {{"bins 2j and 2j+1 of replica r", "j", Draws::kDraw,
          fmt::format("words {},{} -> bin 2j, words {},{} -> bin 2j+1 (Chambers-Mallows-Stuck, {})",
                      Draws::kFirstValueWords, Draws::kFirstValueWords + 1, Draws::kSecondValueWords,
                      Draws::kSecondValueWords + 1, kUniformRule)}});
  }

  Generation generation(const GenerationRequest& request) const override {
    Generation generation;
    generation.direct = with_value_types(request, [&](auto real, auto out) {
      using Real = decltype(real);
      const StableSampler<Real> law = make_stable_sampler<Real>(law_);
      if (law.kind == StableSampler<Real>::kGaussian) {
        return DirectKernel::of(pairs_kernel<StableDraws<Real, true>, decltype(out)>({law}, request));
      }
      return DirectKernel::of(pairs_kernel<StableDraws<Real>, decltype(out)>({law}, request));
    });
    generation.rng_positions = (request.length + 1) / 2;
    return generation;
  }

 private:
  StableLawParams law_;
};

std::shared_ptr<Model> make(const ParamValues& p) {
  StableLawParams law;
  law.alpha = p.real("alpha");
  law.beta = p.real("beta");
  law.sigma = p.real("sigma");
  law.mu = p.real("mu");
  law.parameterization = p.choice("parameterization") == "S0" ? StableParameterization::S0 : StableParameterization::S1;
  return std::make_shared<StableModel>(law);
}

// The marginal law of the values, by maximum likelihood (the paper's Table II).
FittedModel fit(FitData& data) {
  const StableFit& f = data.stable_marginal();
  FittedModel r;
  r.invalid = alpha_stable_invalid(f.s1, std::nullopt);
  r.boundary = f.boundary;
  r.params = flow_map();
  r.params["alpha"] = f.s1.alpha;
  r.params["beta"] = f.s1.beta;
  r.params["sigma"] = f.s1.sigma;
  r.params["mu"] = f.s1.mu;
  r.params["parameterization"] = "S1";
  record_stable(r.fit, f);
  r.estimates =
      fmt::format("{}, {}, {}, {} (S1; S0 mu = {:.4g})", pm("alpha", f.s1.alpha, f.se_alpha, f.profile_alpha.se_from),
                  pm("beta", f.s1.beta, f.se_beta), pm("sigma", f.s1.sigma, f.se_sigma, f.profile_sigma.se_from),
                  pm("mu", f.s1.mu, f.se_mu1, f.profile_mu1.se_from), f.s0.mu);
  r.statistic = fmt::format("logL = {:.6g}", f.log_likelihood);
  return r;
}

[[maybe_unused]] const bool registered = register_model({
    "stable",
    "i.i.d. alpha-stable values (Chambers-Mallows-Stuck)",
    "{alpha: 1.5, beta: 0.5, sigma: 2, mu: 10}",
    {real_param("alpha", "the characteristic exponent").above(0).at_most(2),
     real_param("beta", "the skewness").at_least(-1).at_most(1).defaults(0),
     real_param("sigma", "the scale").above(0).defaults(1), real_param("mu", "the location").defaults(0),
     choice_param("parameterization", "S1 (Samorodnitsky and Taqqu 1994; the paper's eq. (3)) or S0 (Nolan 1998)",
                  {"S1", "S0"})},
    make,
    fit,
    true,
    {},
    // GPU/host, 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    13,
});

}  // namespace models_stable
}  // namespace

}  // namespace gs
