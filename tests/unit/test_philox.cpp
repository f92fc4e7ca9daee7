// The RNG layout of kernels/philox.hpp: Random123's known-answer vectors
// through our counter/key mapping, and the exact uniforms it defines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/philox.hpp"

namespace gs {
namespace {

struct KnownAnswer {
  std::uint32_t counter[4];
  std::uint32_t key[2];
  std::uint32_t expected[4];
};

// Random123 kat_vectors, "philox4x32 10" lines: counter, key, output.
const KnownAnswer kKnownAnswers[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(Philox, KnownAnswersThroughTheCounterLayout) {
  for (const auto& kat : kKnownAnswers) {
    // Map the raw counter onto (position, draw, replica, stream) and back.
    const std::uint64_t position = kat.counter[0] | (std::uint64_t{kat.counter[1] & 0xffffffu} << 32);
    const std::uint32_t draw = kat.counter[1] >> 24;
    const RngStreamKey key{kat.key[0] | (std::uint64_t{kat.key[1]} << 32), kat.counter[3]};
    const PhiloxBits bits = philox_bits(key, kat.counter[2], position, draw);
    for (int w = 0; w < 4; ++w) EXPECT_EQ(bits[w], kat.expected[w]) << "word " << w;
  }
}

TEST(Philox, DistinctCountersGiveDistinctWords) {
  const RngStreamKey key{42, 7};
  const PhiloxBits base = philox_bits(key, 0, 0, 0);
  EXPECT_NE(base, philox_bits(key, 1, 0, 0));
  EXPECT_NE(base, philox_bits(key, 0, 1, 0));
  EXPECT_NE(base, philox_bits(key, 0, 0, 1));
  EXPECT_NE(base, philox_bits(key, 0, std::uint64_t{1} << 32, 0));
  EXPECT_NE(base, philox_bits(RngStreamKey{42, 8}, 0, 0, 0));
  EXPECT_NE(base, philox_bits(RngStreamKey{43, 7}, 0, 0, 0));
}

TEST(Philox, UniformsAreStrictlyInsideAndSymmetric) {
  EXPECT_EQ(uniform_open(0), std::ldexp(1.0, -33));
  EXPECT_EQ(uniform_open(0xffffffffu), 1 - std::ldexp(1.0, -33));
  for (std::uint32_t k : {0u, 1u, 12345u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu}) {
    EXPECT_EQ(uniform_open(k) + uniform_open(~k), 1.0);
    EXPECT_EQ(edge_distance<double>(k), std::min(uniform_open(k), 1 - uniform_open(k)));
    EXPECT_EQ(edge_distance<double>(k), edge_distance<double>(~k));
    EXPECT_GT(edge_distance<float>(k), 0.0f);
    EXPECT_LE(edge_distance<float>(k), 0.5f);
  }
}

TEST(Philox, ExponentialNeverZeroAndAccurateAtBothEnds) {
  for (std::uint32_t k : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu}) {
    const double exact = -std::log(uniform_open(k));
    EXPECT_GT(standard_exponential<float>(k), 0.0f) << k;
    EXPECT_NEAR(standard_exponential<double>(k), exact, 1e-15 * exact) << k;
    EXPECT_NEAR(standard_exponential<float>(k), exact, 2e-7 * exact) << k;
  }
  // The smallest value, -log1p(-2^-33), keeps full relative precision in float.
  EXPECT_NEAR(standard_exponential<float>(0xffffffffu), std::ldexp(1.0, -33), 1e-7 * std::ldexp(1.0, -33));
}

// The upper half goes through log(1 − d) with Goldberg's correction instead of
// log1p: at every distance d from 2^-33 to 1/2 (both sides of d = 2^-25, where
// 1 − d rounds to 1 in float) it must stay within 4 ulp of −log1p(−d) for the
// d it was given.
template <class Real>
void check_exponential_of_edge_distance() {
  const long double ulp = std::numeric_limits<Real>::epsilon();
  double worst = 0;
  for (int e = 1; e <= 33; ++e) {
    for (int step = 0; step < 64; ++step) {
      const Real d = static_cast<Real>(std::ldexp(1.0 + step / 64.0, -e));
      if (d > Real(0.5)) continue;
      const long double exact_upper = -std::log1p(-static_cast<long double>(d));
      const long double exact_lower = -std::log(static_cast<long double>(d));
      const long double upper = exponential_of_edge_distance(d, true), lower = exponential_of_edge_distance(d, false);
      ASSERT_NEAR(upper, exact_upper, 4 * ulp * exact_upper) << "d=" << d;
      ASSERT_NEAR(lower, exact_lower, 4 * ulp * exact_lower) << "d=" << d;
      worst = std::max(worst, static_cast<double>(std::fabs(upper - exact_upper) / (ulp * exact_upper)));
    }
  }
  ::testing::Test::RecordProperty(std::string("worst_upper_half_error_ulp_") + (sizeof(Real) == 4 ? "float" : "double"),
                                  std::to_string(worst));
}

TEST(Philox, ExponentialOfEdgeDistanceWithinFourUlpInFloatAndDouble) {
  check_exponential_of_edge_distance<float>();
  check_exponential_of_edge_distance<double>();
}

TEST(Philox, WordsAreUniformInMean) {
  // 4·10^6 words: the mean of u has standard deviation sqrt(1/12/4e6) = 1.44e-4.
  const RngStreamKey key{2024, 1};
  double sum = 0;
  const int calls = 1000000;
  for (int i = 0; i < calls; ++i) {
    const PhiloxBits bits = philox_bits(key, 3, static_cast<std::uint64_t>(i), 0);
    for (int w = 0; w < 4; ++w) sum += uniform_open(bits[w]);
  }
  EXPECT_NEAR(sum / (4.0 * calls), 0.5, 5 * 1.44e-4);
}

}  // namespace
}  // namespace gs
