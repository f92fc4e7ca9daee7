// model: fgn — fractional Gaussian noise, exact by circulant embedding
// (Davies–Harte, host/models/spectral.hpp); model: fbm — its partial sums,
// fractional Brownian motion B(k) = G(1) + … + G(k).
#include <fmt/format.h>

#include "estimators/model_fit.hpp"
#include "host/models/fit.hpp"
#include "host/models/model.hpp"
#include "host/models/spectral.hpp"

namespace gs {

namespace {
namespace models_fgn {

class FgnModel final : public Model {
 public:
  FgnModel(double H, double sigma, bool cumulative) : H_(H), sigma_(sigma), cumulative_(cumulative) {}

  std::vector<Attribute> describe() const override {
    return {
        {"H", H_},
        {"sigma", sigma_},
        {"law", std::string(cumulative_ ? "fractional Brownian motion B(k) = G(1) + ... + G(k), k = 1..length, G fgn: "
                                          "Var B(k) = sigma^2 k^(2H)"
                                        : "fractional Gaussian noise, gamma(k) = sigma^2/2 (|k+1|^(2H) - 2|k|^(2H) + "
                                          "|k-1|^(2H))")}};
  }

  std::string rng_use() const override { return describe_philox_uses({circulant_noise_use()}); }

  Generation generation(const GenerationRequest& request) const override {
    const double H = H_;
    Generation generation =
        circulant_generation([H](std::uint64_t P) { return fgn_autocovariances(H, P); }, request.length, sigma_);
    generation.spectral->cumulative = cumulative_;
    generation.summary = (cumulative_ ? "fbm (partial sums of fgn): " : "fgn: ") + generation.summary;
    return generation;
  }

 private:
  double H_, sigma_;
  bool cumulative_;
};

const std::vector<ParamSpec> kParams = {
    real_param("H", "the Hurst exponent").above(0).below(1),
    real_param("sigma", "the standard deviation of one increment").above(0).defaults(1)};

std::shared_ptr<Model> make_fgn(const ParamValues& p) {
  return std::make_shared<FgnModel>(p.real("H"), p.real("sigma"), false);
}
std::shared_ptr<Model> make_fbm(const ParamValues& p) {
  return std::make_shared<FgnModel>(p.real("H"), p.real("sigma"), true);
}

// H by `fgn_hurst` (Whittle by default), σ = sd, δ = mean.
FittedModel fit(FitData& data) {
  const std::string estimator = data.settings().choice("fgn_hurst");
  const HurstEstimate& h = data.hurst(estimator);
  const NormalFit n = fit_normal(data.series());
  FittedModel r;
  if (!(h.H > 0 && h.H < 1)) r.invalid = fmt::format("H = {:.4g} is not in (0, 1): {}", h.H, h.note);
  r.add_boundary(hurst_boundary(h, estimator, "--fgn-hurst"));
  r.params = flow_map();
  r.params["H"] = h.H;
  r.params["sigma"] = n.sigma;
  r.workload = flow_map();
  r.workload["delta"] = n.mu;
  record(r.fit, "H", h.H, h.se);
  r.fit["H_estimator"] = estimator;
  record(r.fit, "sigma", n.sigma, n.se_sigma);
  record(r.fit, "mean", n.mu, n.se_mu);
  r.estimates =
      fmt::format("{} ({}), {}, mean = {:.4g}", pm("H", h.H, h.se), estimator, pm("sigma", n.sigma, n.se_sigma), n.mu);
  r.statistic = "-";
  return r;
}

[[maybe_unused]] const bool registered_fgn = register_model({
    "fgn",
    "fractional Gaussian noise, exact (Davies-Harte circulant embedding)",
    "{H: 0.7, sigma: 1}",
    kParams,
    make_fgn,
    fit,
    true,
    {{"fgn_hurst", "H of fgn and norros (any estimator of `gpusynth stats`)", hurst_estimator_keys(), "whittle", 0, 0}},
    // GPU/host, 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    12,
});

[[maybe_unused]] const bool registered_fbm = register_model({
    "fbm",
    "fractional Brownian motion, the cumulative sum of fgn",
    "{H: 0.3, sigma: 2}",
    kParams,
    make_fbm,
    nullptr,
    false,
    {},
    // GPU/host, 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    12,
});

}  // namespace models_fgn
}  // namespace

}  // namespace gs
