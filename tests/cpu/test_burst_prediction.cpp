// Burst prediction against planted truth (estimators/bursts.hpp): an fGn
// background (H = 0.8) with 1-bin bursts at known times, half of them
// announced by a ramp over the 3 bins before. At a horizon of 1 bin the
// logistic model learns the ramp and beats persistence (a 1-bin burst never
// persists) with a block-bootstrap interval of the F1 difference above 0. On
// i.i.d. noise with i.i.d. bursts nothing can be learned: the interval of the
// difference holds 0. Training rows all come before the test rows.
#include <gtest/gtest.h>

#include <cmath>

#include "estimators/bursts.hpp"
#include "kernels/philox.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

struct Planted {
  BurstChannels channels;
  std::vector<int> severity;
};

Planted planted(const std::vector<double>& background, bool announce, std::uint64_t seed) {
  Planted p;
  p.channels.bytes = background;
  const std::size_t n = background.size();
  for (std::size_t b = 0; b < 200; ++b) {  // bursts every 100 bins on average, at Philox-drawn places
    const auto bits = philox_bits({seed, 9}, 0, b, 0);
    const std::size_t at = 4 + static_cast<std::size_t>(uniform_open(bits[0]) * static_cast<double>(n - 8));
    p.channels.bytes[at] += 12;
    if (announce && (bits[1] & 1))
      for (std::size_t k = 1; k <= 3; ++k) p.channels.bytes[at - k] += 1.5 * static_cast<double>(4 - k);
  }
  p.channels.operations = p.channels.bytes;
  p.channels.io_time = p.channels.bytes;
  p.severity = burst_severity(p.channels.bytes, burst_threshold_for_share(p.channels.bytes, 0.01));
  return p;
}

TEST(BurstPrediction, AnnouncedBurstsArePredictedBetterThanByPersistence) {
  const std::vector<double> fgn = test::generate_float64("fgn", "{H: 0.8}", 1, 20000, 11);
  const Planted p = planted(fgn, true, 3);
  EvaluationOptions options;
  options.features = FeatureSet::fs1;
  const HorizonEvaluation e = evaluate_horizon(p.channels, p.severity, 1, options);
  std::printf("announced: model F1 %.3f [%.3f, %.3f], persistence F1 %.3f, difference [%.3f, %.3f]; AP %.3f vs "
              "climatology %.3f\n",
              e.model.f1, e.model_f1.low, e.model_f1.high, e.persistence.f1, e.f1_difference.low,
              e.f1_difference.high, e.model_ap, e.climatology_ap);
  EXPECT_GT(e.f1_difference.low, 0.0);
  EXPECT_GT(e.model_ap, e.climatology_ap);
  // 19999 labelled bins at a horizon of 1: the test rows from ⌊0.8·19999⌋ = 15999 on, the
  // training rows before it less the last one, whose label is the first test bin.
  EXPECT_EQ(e.test_rows, 19999u - 15999u);
  EXPECT_EQ(e.train_rows, 15999u - 1u);
}

TEST(BurstPrediction, IidBurstsLeaveNothingToLearn) {
  std::vector<double> noise(20000);
  for (std::size_t i = 0; i < noise.size(); i += 2) {
    const auto bits = philox_bits({5, 10}, 0, i, 0);
    const double r = std::sqrt(-2 * std::log(uniform_open(bits[0]))), angle = 6.283185307179586 * uniform_open(bits[1]);
    noise[i] = r * std::cos(angle);
    noise[i + 1] = r * std::sin(angle);
  }
  const Planted p = planted(noise, false, 4);
  EvaluationOptions options;
  options.features = FeatureSet::fs3;
  const HorizonEvaluation e = evaluate_horizon(p.channels, p.severity, 1, options);
  std::printf("i.i.d.: model F1 %.3f, persistence F1 %.3f, difference [%.3f, %.3f]\n", e.model.f1, e.persistence.f1,
              e.f1_difference.low, e.f1_difference.high);
  EXPECT_LE(e.f1_difference.low, 0.0);
  EXPECT_GE(e.f1_difference.high, 0.0);
}

}  // namespace
}  // namespace gs
