// The GPU's fast lanes (kernels/fast_math.hpp) on the host, where their log,
// sin and exp are the scalar path's: the same bits as the scalar path for
// every kernel that has them. This checks every operation of the lane types
// against the formulas' scalar form; what the device changes is only the three
// functions, whose accuracy tests/cuda/test_cuda_backend.cpp measures.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernels/fast_math.hpp"
#include "kernels/normal.hpp"
#include "kernels/spectral.hpp"
#include "kernels/stable.hpp"

namespace gs {
namespace {

template <class Real, class Draws>
void check_pairs(const Draws& draws, const char* what) {
  PairsKernel<Draws, Real> kernel;
  kernel.draws = draws;
  kernel.key = RngStreamKey{77, 5};
  kernel.length = 4001;
  kernel.pairs_per_row = 2001;
  std::vector<Real> scalar(3 * kernel.length), fast(3 * kernel.length);
  StoreTally scalar_tally, fast_tally;
  kernel.out = scalar.data();
  for (std::uint64_t row = 0; row < 3; ++row)
    for (std::uint64_t c = 0; c < kernel.columns(); ++c) kernel(row, c, scalar_tally);
  kernel.out = fast.data();
  const WithFastMath<PairsKernel<Draws, Real>> with_fast{kernel};
  for (std::uint64_t row = 0; row < 3; ++row)
    for (std::uint64_t c = 0; c < with_fast.columns(); ++c) with_fast(row, c, fast_tally);
  EXPECT_EQ(std::memcmp(scalar.data(), fast.data(), scalar.size() * sizeof(Real)), 0) << what;
  EXPECT_EQ(scalar_tally.saturated, fast_tally.saturated) << what;
}

template <class Real>
void check_stable_laws() {
  for (double alpha : {0.4, 0.999, 1.0, 1.3, 1.9, 2.0}) {
    for (double beta : {-1.0, 0.0, 0.6, 1.0}) {
      for (auto p : {StableParameterization::S0, StableParameterization::S1}) {
        StableLawParams law;
        law.alpha = alpha, law.beta = beta, law.parameterization = p;
        const StableSampler<Real> sampler = make_stable_sampler<Real>(law);
        SCOPED_TRACE(testing::Message() << "alpha=" << alpha << " beta=" << beta);
        check_pairs<Real>(StableDraws<Real>{sampler}, "stable");
        if (alpha == 2.0) check_pairs<Real>(StableDraws<Real, true>{sampler}, "stable, Gaussian kernel");
      }
    }
  }
}

TEST(FastMathLanes, StablePairsGiveTheScalarBitsOnTheHostFloat) { check_stable_laws<float>(); }
TEST(FastMathLanes, StablePairsGiveTheScalarBitsOnTheHostDouble) { check_stable_laws<double>(); }

TEST(FastMathLanes, NormalPairsGiveTheScalarBitsOnTheHost) {
  check_pairs<float>(NormalDraws<float>{1.0f, 2.0f}, "normal float");
  check_pairs<double>(NormalDraws<double>{1.0, 2.0}, "normal double");
}

TEST(FastMathLanes, InnovationsGiveTheScalarBitsOnTheHost) {
  StableLawParams law;
  law.alpha = 0.7, law.beta = 0.4;  // heavy enough that some innovations are capped
  InnovationsKernel<float> kernel;
  kernel.innovation.law = make_stable_sampler<float>(law);
  kernel.innovation.key = {8, 9};
  kernel.innovation.cap = 1e3f;
  kernel.fine_points = 3000;
  kernel.fft_length = 4096;
  std::vector<double> scalar(2 * 4096), fast(2 * 4096);
  StoreTally scalar_tally, fast_tally;
  kernel.signal = scalar.data();
  for (std::uint64_t row = 0; row < 2; ++row)
    for (std::uint64_t t = 0; t < kernel.columns(); ++t) kernel(row, t, scalar_tally);
  kernel.signal = fast.data();
  const WithFastMath<InnovationsKernel<float>> with_fast{kernel};
  for (std::uint64_t row = 0; row < 2; ++row)
    for (std::uint64_t t = 0; t < with_fast.columns(); ++t) with_fast(row, t, fast_tally);
  EXPECT_EQ(scalar, fast);
  EXPECT_GT(scalar_tally.saturated, 0u) << "no innovation reached the cap: the capped path went untested";
  EXPECT_EQ(scalar_tally.saturated, fast_tally.saturated);
}

}  // namespace
}  // namespace gs
