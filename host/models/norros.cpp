// model: norros — the FBM arrival model of the self-similarity paper,
// A(t) = λt + sqrt(aλ)·Z(t) with Z normalised FBM, binned: bin i holds
// λΔ + sqrt(aλ)·Δ^H·G(i), G unit-variance fGn (circulant embedding).
#include <fmt/format.h>

#include <cmath>

#include "estimators/model_fit.hpp"
#include "host/models/fit.hpp"
#include "host/models/model.hpp"
#include "host/models/spectral.hpp"

namespace gs {

namespace {
namespace models_norros {

class NorrosModel final : public Model {
 public:
  NorrosModel(double lambda, double a, double H, double bin) : lambda_(lambda), a_(a), H_(H), bin_(bin) {}

  std::vector<Attribute> describe() const override {
    return {{"lambda", lambda_},
            {"a", a_},
            {"H", H_},
            {"bin", bin_},
            {"law", std::string("arrivals per bin of A(t) = lambda t + sqrt(a lambda) Z(t), Z normalised FBM: "
                                "lambda*bin + sqrt(a*lambda)*bin^H * G(i), G unit-variance fgn (Norros)")}};
  }

  std::string rng_use() const override { return describe_philox_uses({circulant_noise_use()}); }

  Generation generation(const GenerationRequest& request) const override {
    const double H = H_, bin_sd = std::sqrt(a_ * lambda_) * std::pow(bin_, H_);
    Generation generation =
        circulant_generation([H](std::uint64_t P) { return fgn_autocovariances(H, P); }, request.length, bin_sd);
    generation.spectral->location = lambda_ * bin_;
    generation.attributes.push_back({"bin_mean", generation.spectral->location});
    generation.attributes.push_back({"bin_sd", bin_sd});
    generation.summary = "norros: " + generation.summary;
    return generation;
  }

 private:
  double lambda_, a_, H_, bin_;
};

std::shared_ptr<Model> make(const ParamValues& p) {
  return std::make_shared<NorrosModel>(p.real("lambda"), p.real("a"), p.real("H"), p.real("bin"));
}

// λ = mean count / bin width, a = var/(λΔ^{2H}), H by `fgn_hurst`.
FittedModel fit(FitData& data) {
  if (!data.binned()) throw UserError("norros needs arrival counts per bin, not a (time, value) series");
  const std::string estimator = data.settings().choice("fgn_hurst");
  const HurstEstimate& h = data.hurst(estimator);
  const NorrosFit f = fit_norros(data.series(), data.bin_width(), h.H, h.se);
  FittedModel r;
  if (!(h.H > 0 && h.H < 1)) r.invalid = fmt::format("H = {:.4g} is not in (0, 1)", h.H);
  r.add_boundary(hurst_boundary(h, estimator, "--fgn-hurst"));
  r.params = flow_map();
  r.params["lambda"] = f.lambda;
  r.params["a"] = f.a;
  r.params["H"] = f.H;
  r.params["bin"] = f.bin;
  record(r.fit, "lambda", f.lambda, f.se_lambda);
  r.fit["a"] = f.a;
  record(r.fit, "H", f.H, f.se_H);
  r.fit["H_estimator"] = estimator;
  r.estimates = fmt::format("{} /s, a = {:.4g}, {}, bin = {:.4g} s", pm("lambda", f.lambda, f.se_lambda), f.a,
                            pm("H", f.H, f.se_H), f.bin);
  r.statistic = "-";
  return r;
}

[[maybe_unused]] const bool registered = register_model({
    "norros",
    "Norros' FBM arrivals lambda*t + sqrt(a*lambda)*Z(t), binned",
    "{lambda: 100, a: 4, H: 0.69, bin: 1}",
    {real_param("lambda", "the mean arrivals per time unit").above(0),
     real_param("a", "the variance coefficient").above(0), real_param("H", "the Hurst exponent").above(0).below(1),
     real_param("bin", "the bin width, in the time unit of lambda").above(0).defaults(1)},
    make,
    fit,
    false,
    {},
    // GPU/host, 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    11,
});

}  // namespace models_norros
}  // namespace

}  // namespace gs
