// model: onoff — the superposition of M independent ON/OFF sources with Pareto
// ON and OFF periods (Willinger, Taqqu, Sherman and Wilson's explanation of
// self-similar traffic), requests per bin (kernels/onoff.hpp).
#include "kernels/onoff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "host/models/model.hpp"

namespace gs {

namespace {
namespace models_onoff {

ParetoPeriod pareto_period(double alpha, double mean) {
  ParetoPeriod period;
  period.alpha = alpha;
  period.mean = mean;
  period.scale = mean * (alpha - 1) / alpha;
  period.log_alpha = std::log(alpha);
  return period;
}

class OnoffModel final : public Model {
 public:
  OnoffModel(std::uint32_t sources, ParetoPeriod on, ParetoPeriod off, double rate)
      : sources_(sources), on_(on), off_(off), rate_(rate) {}

  double on_probability() const { return on_.mean / (on_.mean + off_.mean); }

  std::vector<Attribute> describe() const override {
    const double alpha = std::min(on_.alpha, off_.alpha);
    return {{"sources", static_cast<std::uint64_t>(sources_)},
            {"alpha_on", on_.alpha},
            {"alpha_off", off_.alpha},
            {"mean_on", on_.mean},
            {"mean_off", off_.mean},
            {"rate", rate_},
            {"shortest_on", on_.scale},
            {"shortest_off", off_.scale},
            {"mean_per_bin", sources_ * rate_ * on_probability()},
            {"hurst", alpha < 2 ? (3 - alpha) / 2 : 0.5},
            {"law", std::string("X(i) = rate * sum over M sources of the time source m is ON in bin [i, i+1) (period "
                                "ends rounded down to a grid of 2^-32 bin, summed exactly); ON and "
                                "OFF periods i.i.d. Pareto: P(T > x) = (k/x)^alpha for x >= k = mean (alpha-1)/alpha, "
                                "in bins; every source starts in its stationary state (ON with probability "
                                "mean_on/(mean_on + mean_off), the current period's remaining length from the "
                                "equilibrium law). H = (3 - min(alpha_on, alpha_off))/2 when that is below 2 "
                                "(Willinger, Taqqu, Sherman and Wilson 1997)")}};
  }

  std::string rng_use() const override {
    using Kernel = OnoffKernel<double>;
    return describe_philox_uses(
        {{"the start of source m of replica r", "m*2^32", Kernel::kStartDraw,
          fmt::format("word {} -> ON or OFF ({}), words {},{} -> the remaining length of the first period (64-bit "
                      "uniform)",
                      Kernel::kStateWord, kUniformRule, Kernel::kRemainingWords, Kernel::kRemainingWords + 1)},
         {"periods q = 1, 2, ... after the first of source m of replica r", "m*2^32 + floor((q-1)/2)",
          Kernel::kPeriodDraw,
          "words 0,1 -> period q for odd q, words 2,3 for even q: its length from a 64-bit uniform"}});
  }

  Generation generation(const GenerationRequest& request) const override {
    // Each source's periods take positions m·2^32 + c: 2^32 calls of two
    // periods each. Refuse series whose expected periods come near that.
    const double periods = 2 * static_cast<double>(request.length) / (on_.mean + off_.mean);
    if (periods > 0x1p31)
      throw UserError(
          fmt::format("onoff: a source has about {:.3g} ON/OFF periods in {} bins, beyond the 2^31 the "
                      "random-number layout allows; raise mean_on and mean_off or shorten the series",
                      periods, request.length));
    // The ON time is summed on a grid of 2^-32 bin whose points are 64-bit integers (kernels/onoff.hpp).
    if (request.length >= OnTimeGrid::kBin)
      throw UserError(fmt::format("onoff: length = {}; accepted: length < 2^32 bins", request.length));
    Generation generation;
    generation.direct = with_value_types(request, [&](auto, auto out) {
      OnoffKernel<decltype(out)> kernel;
      kernel.key = request.key;
      kernel.sources = sources_;
      kernel.on = on_;
      kernel.off = off_;
      kernel.on_probability = on_probability();
      kernel.rate = rate_;
      kernel.map = request.workload;
      kernel.length = request.length;
      return DirectKernel::of(kernel, {}, request.length);
    });
    generation.rng_positions = static_cast<std::uint64_t>(sources_) << OnoffKernel<double>::kSourceShift;
    generation.summary = fmt::format(
        "onoff: {} sources, Pareto ON (alpha {}, mean {} bins) and OFF (alpha {}, mean {} bins), mean {:.6g} per bin",
        sources_, on_.alpha, on_.mean, off_.alpha, off_.mean, sources_ * rate_ * on_probability());
    return generation;
  }

 private:
  std::uint32_t sources_;
  ParetoPeriod on_, off_;
  double rate_;
};

std::shared_ptr<Model> make(const ParamValues& p) {
  return std::make_shared<OnoffModel>(static_cast<std::uint32_t>(p.whole("sources")),
                                      pareto_period(p.real("alpha_on"), p.real("mean_on")),
                                      pareto_period(p.real("alpha_off"), p.real("mean_off")), p.real("rate"));
}

[[maybe_unused]] const bool registered = register_model({
    "onoff",
    "superposition of ON/OFF sources with Pareto periods (Willinger et al.)",
    "{sources: 50, alpha_on: 1.4, alpha_off: 1.8, mean_on: 10, mean_off: 30}",
    {whole_param("sources", "M, the independent ON/OFF sources").at_least(1).at_most(1 << 20),
     real_param("alpha_on", "the tail index of the ON periods").above(1).at_most(10),
     real_param("alpha_off", "the tail index of the OFF periods").above(1).at_most(10),
     real_param("mean_on", "the mean ON period, in bins").above(0).defaults(10),
     real_param("mean_off", "the mean OFF period, in bins").above(0).defaults(10),
     real_param("rate", "requests per bin of one ON source").above(0).defaults(1)},
    make,
    nullptr,
    false,
    {},
    // GPU/host (a thread per (replica, source)), 1 H100 over its machine's 16 threads (bench/results/2026-11-26-h100)
    3.2,
});

}  // namespace models_onoff
}  // namespace

}  // namespace gs
