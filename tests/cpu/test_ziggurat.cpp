// The ziggurat of kernels/ziggurat.hpp: its table against the layer equations in long double
// (scripts/make_ziggurat_table.py, which made it, first reproduces Marsaglia and Tsang's
// published 256-layer r and v), and 10^7 of its normals against the normal law
// (moments, the probabilities of 200 equiprobable cells and of the tails beyond r, 4.5 and 5,
// where only the tail method reaches, and the independence of a pair's two values).
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/ziggurat.hpp"

namespace gs {
namespace {

long double shape(long double x) { return std::exp(-x * x / 2); }

// The common area of the layers, from r: r·f(r) + ∫_r^∞ f.
long double layer_area(long double r) {
  return r * shape(r) + std::sqrt(std::acos(-1.0L) / 2) * std::erfc(r / std::sqrt(2.0L));
}

TEST(Ziggurat, TableHasEqualLayersUnderTheNormalShape) {
  const ZigguratTable& t = kZigguratTable;
  constexpr unsigned n = kZigguratLayers;
  // v from the table's r, off by the rounding of r (dv/dr = −r²f(r), so r³f(r)/v ulp of v).
  const long double v = layer_area(t.r);
  const double ulp = std::ldexp(1.0, -53);
  EXPECT_NEAR(static_cast<double>(v / t.v), 1.0, 2 * ulp + static_cast<double>(t.r * t.r * t.r * shape(t.r) / v) * ulp);
  EXPECT_EQ(t.edge[1], t.r);
  // The base layer: x_0·f(r) = v; the top one closes at f(0) = 1.
  EXPECT_NEAR(static_cast<double>(t.edge[0] * shape(t.r) / v), 1.0, 4e-16);
  EXPECT_NEAR(static_cast<double>((shape(t.edge[n - 1]) + t.v / t.edge[n - 1]) - 1), 0.0, 4e-16);
  EXPECT_EQ(t.density[0], 0.0);
  EXPECT_EQ(t.edge[n], 0.0);
  EXPECT_EQ(t.density[n], 1.0);
  for (unsigned i = 1; i < n; ++i) {
    ASSERT_LT(t.edge[i + 1], t.edge[i]) << "layer " << i;
    // Each density is f of its edge, rounded once (2 ulp: the long double exp's own error).
    EXPECT_NEAR(t.density[i], static_cast<double>(shape(t.edge[i])), 2 * ulp) << "layer " << i;
    // Each layer's area is v: the rounding of the edge and of v, and of the two densities
    // relative to their difference.
    const long double area = t.edge[i] * (static_cast<long double>(t.density[i + 1]) - t.density[i]);
    const double bound = 2 * ulp + 4e-16 * (t.density[i + 1] + t.density[i]) / (t.density[i + 1] - t.density[i]);
    EXPECT_NEAR(static_cast<double>(area / t.v), 1.0, bound) << "layer " << i;
  }
}

// The 32-bit core test is never wrong and rarely undecided: the largest candidate whose top
// word is below core_word[i] is in the core by the exact test (u·x_i < x_{i+1} in doubles), and
// a top word two above it no longer is.
TEST(Ziggurat, CoreWordsAreSafeAndTight) {
  const ZigguratTable& t = kZigguratTable;
  for (unsigned i = 0; i + 1 < kZigguratLayers; ++i) {
    const std::uint32_t word = t.core_word[i];
    ASSERT_GT(word, 0u) << "layer " << i;
    const auto x_of = [&](std::uint32_t hi) {
      return ziggurat_candidate(hi, 0xfffff800u | i).value;  // the largest u of that top word
    };
    EXPECT_LT(x_of(word - 1), t.edge[i + 1]) << "layer " << i;
    EXPECT_GE(x_of(word + 1), t.edge[i + 1]) << "layer " << i;
    EXPECT_TRUE(ziggurat_candidate(word - 1, 0xfffff800u | i).under);
    EXPECT_FALSE(ziggurat_candidate(word, i).under);
  }
  EXPECT_EQ(t.core_word[kZigguratLayers - 1], 0u);  // the top layer has no core
}

// 10^7 standard normals: positions 0 … 5·10^6 − 1 of one replica, a pair each.
struct NormalSample {
  std::vector<double> first, second;
};

const NormalSample& sample() {
  static const NormalSample s = [] {
    constexpr std::uint64_t kPairs = 5'000'000;
    const RngStreamKey key{20261129, 7};
    NormalSample drawn;
    drawn.first.resize(kPairs);
    drawn.second.resize(kPairs);
    for (std::uint64_t j = 0; j < kPairs; ++j) {
      const ValuePair<double> z = ziggurat_normal_pair(key, 3, j, 0);
      drawn.first[j] = z.first;
      drawn.second[j] = z.second;
    }
    return drawn;
  }();
  return s;
}

template <class Visit>
void for_each_value(Visit visit) {
  for (double z : sample().first) visit(z);
  for (double z : sample().second) visit(z);
}

// Mean, variance, skewness and excess kurtosis within 4.5 of their standard errors
// (1, √2, √6, √24 over √n for the normal law).
TEST(Ziggurat, MomentsAreTheNormalLaws) {
  double m[5] = {};
  for_each_value([&](double z) {
    double p = 1;
    for (int k = 0; k < 5; ++k, p *= z) m[k] += p;
  });
  const double n = m[0];
  ASSERT_EQ(n, 1e7);
  const double mean = m[1] / n, second = m[2] / n, third = m[3] / n, fourth = m[4] / n;
  const double se = 1 / std::sqrt(n);
  EXPECT_NEAR(mean, 0, 4.5 * se);
  EXPECT_NEAR(second, 1, 4.5 * std::sqrt(2.0) * se);
  EXPECT_NEAR(third, 0, 4.5 * std::sqrt(6.0) * se);
  EXPECT_NEAR(fourth - 3, 0, 4.5 * std::sqrt(24.0) * se);
}

// 200 cells of equal normal probability: Pearson's χ² below its 0.999 quantile (199 degrees).
TEST(Ziggurat, CellsOfEqualProbabilityAreEquallyFilled) {
  constexpr int kCells = 200;
  const boost::math::normal_distribution<double> normal;
  std::vector<double> bounds(kCells - 1);
  for (int c = 1; c < kCells; ++c) bounds[c - 1] = quantile(normal, static_cast<double>(c) / kCells);
  std::vector<double> counts(kCells, 0.0);
  for_each_value([&](double z) {
    counts[static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), z) - bounds.begin())] += 1;
  });
  const double expected = 1e7 / kCells;
  double chi2 = 0;
  for (double c : counts) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, quantile(boost::math::chi_squared_distribution<double>(kCells - 1), 0.999));
}

// |Z| beyond r (the tail method), 4.5 and 5: counts within the Poisson law's central 0.999
// interval of their expected numbers.
TEST(Ziggurat, TailsBeyondTheBaseLayerHaveTheNormalProbability) {
  const boost::math::normal_distribution<double> normal;
  for (double edge : {kZigguratTable.r, 4.5, 5.0}) {
    double beyond = 0;
    for_each_value([&](double z) { beyond += std::fabs(z) > edge ? 1 : 0; });
    const double expected = 1e7 * 2 * cdf(complement(normal, edge));
    const boost::math::poisson_distribution<double> law(expected);
    EXPECT_GE(beyond, quantile(law, 0.0005)) << "|Z| > " << edge << ", expected " << expected;
    EXPECT_LE(beyond, quantile(complement(law, 0.0005))) << "|Z| > " << edge << ", expected " << expected;
  }
}

// A pair's values are uncorrelated, and so are their signs and their squares
// (correlations within 4.5/√pairs).
TEST(Ziggurat, APairsValuesAreIndependent) {
  const std::vector<double>& a = sample().first;
  const std::vector<double>& b = sample().second;
  const double n = static_cast<double>(a.size());
  double product = 0, signs = 0, squares = 0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    product += a[j] * b[j];
    signs += (a[j] < 0) == (b[j] < 0) ? 1 : -1;
    squares += (a[j] * a[j] - 1) * (b[j] * b[j] - 1) / 2;  // Var(Z² − 1) = 2
  }
  const double bound = 4.5 / std::sqrt(n);
  EXPECT_NEAR(product / n, 0, bound);
  EXPECT_NEAR(signs / n, 0, bound);
  EXPECT_NEAR(squares / n, 0, bound);
}

// The draws of neighbouring positions are independent too (the lag-1 correlation of the
// first values).
TEST(Ziggurat, NeighbouringPositionsAreIndependent) {
  const std::vector<double>& a = sample().first;
  double product = 0;
  for (std::size_t j = 1; j < a.size(); ++j) product += a[j - 1] * a[j];
  EXPECT_NEAR(product / static_cast<double>(a.size() - 1), 0, 4.5 / std::sqrt(static_cast<double>(a.size() - 1)));
}

// The wedge rule at chosen points: a candidate of layer i outside its core, x = u·x_i with
// x_{i+1} < x < x_i, stands when f(x_i) + w·(f(x_{i+1}) − f(x_i)) < f(x) for the retry's
// uniform w (words 0–1); else the retry's words 2–3 are the next candidate (here one whose
// value is 0). Checked against the rule in long double, over layers from the base's
// neighbour to the top and a grid of u and w (points within rounding of the boundary left out).
TEST(Ziggurat, WedgeKeepsACandidateExactlyWhenItIsUnderTheCurve) {
  const ZigguratTable& t = kZigguratTable;
  int kept = 0, checked = 0;
  for (unsigned layer : {1u, 2u, 37u, 512u, 1000u, kZigguratLayers - 2, kZigguratLayers - 1}) {
    const double core = t.edge[layer + 1] / t.edge[layer];
    for (int a = 1; a < 40; ++a) {
      const double u = core + (1 - core) * a / 40.0;
      const std::uint64_t u_bits = static_cast<std::uint64_t>(std::ldexp(u, 53));
      const std::uint64_t w = (u_bits << kZigguratUniformShift) | layer;
      const double x = static_cast<double>(u_bits) * 0x1p-53 * t.edge[layer];
      for (int b = 0; b < 40; ++b) {
        const std::uint64_t v_bits = (std::uint64_t{1} << 53) * static_cast<std::uint64_t>(2 * b + 1) / 80;
        const double v = static_cast<double>(v_bits) * 0x1p-53;
        const long double floor = t.density[layer], top = t.density[layer + 1];
        const long double margin = floor + v * (top - floor) - shape(x);
        if (std::fabs(static_cast<double>(margin)) < 1e-14) continue;
        const double value =
            ziggurat_rest(static_cast<std::uint32_t>(w >> 32), static_cast<std::uint32_t>(w), [&](std::uint32_t k) {
              EXPECT_EQ(k, 0u);
              const std::uint64_t wedge = v_bits << 11;
              return PhiloxBits{{static_cast<std::uint32_t>(wedge >> 32), static_cast<std::uint32_t>(wedge), 0u, 5u}};
            });
        ++checked;
        if (margin < 0) {
          ++kept;
          EXPECT_EQ(value, x) << "layer " << layer << ", u " << u << ", w " << v;
        } else {
          EXPECT_EQ(value, 0.0) << "layer " << layer << ", u " << u << ", w " << v;
        }
      }
    }
  }
  EXPECT_GT(kept, checked / 4);
  EXPECT_LT(kept, checked);
}

// Marsaglia's tail method alone, 10^6 draws from real Philox calls: Z given Z > r, against
// the normal law's conditional tail P(Z > z | Z > r) = Q(z)/Q(r) (Kolmogorov–Smirnov, its
// 0.999 quantile 1.95/√n).
TEST(Ziggurat, TailHasTheNormalLawBeyondR) {
  constexpr int kDraws = 1'000'000;
  const RngStreamKey key{41, 9};
  const double r = kZigguratTable.r;
  std::vector<double> tail(kDraws);
  for (int d = 0; d < kDraws; ++d) {
    std::uint32_t k = 0;
    tail[static_cast<std::size_t>(d)] =
        ziggurat_tail(k, [&](std::uint32_t j) { return philox_bits(key, 1, static_cast<std::uint64_t>(d), j); });
  }
  std::sort(tail.begin(), tail.end());
  const boost::math::normal_distribution<double> normal;
  const double q_r = cdf(complement(normal, r));
  double distance = 0;
  for (int d = 0; d < kDraws; ++d) {
    const double law = 1 - cdf(complement(normal, tail[static_cast<std::size_t>(d)])) / q_r;
    distance = std::max({distance, std::fabs(law - d / static_cast<double>(kDraws)),
                         std::fabs(law - (d + 1) / static_cast<double>(kDraws))});
  }
  EXPECT_LT(distance, 1.95 / std::sqrt(static_cast<double>(kDraws)));
  EXPECT_GT(tail.front(), r);
}

// The rest of a draw takes its retries at the draws the layout states; a candidate under
// the curve needs no call, and a tail whose every call fails its test ends at the cap.
TEST(Ziggurat, RetriesAreAtTheStatedDrawsAndEnd) {
  EXPECT_EQ(ziggurat_retry_draw(0, 0, 0), 1u);
  EXPECT_EQ(ziggurat_retry_draw(0, 1, 0), 2u);
  EXPECT_EQ(ziggurat_retry_draw(0, 1, kZigguratRetries - 1), 2 * kZigguratRetries);
  EXPECT_LE(2 * kZigguratRetries, 255u);
  int calls = 0;
  const auto count_call = [&](std::uint32_t) {
    ++calls;
    return PhiloxBits{{0x80000000u, 0u, 0xffffffffu, 0xffffffffu}};
  };
  // Layer 5, u = 0: under the curve, no call.
  EXPECT_EQ(ziggurat_rest(0u, 5u, count_call), 0.0);
  EXPECT_EQ(calls, 0);
  // Layer 0 (w's low 11 bits 0) with u = 1 − 2^-53: x = x_0·u > r, the tail. Tail calls whose second exponential is
  // tiny (words all ones: E₂ ≈ 2^-65) always fail 2E₂ > e², so the cap ends the draw.
  const double tail = ziggurat_rest(0xffffffffu, 0xfffff800u, count_call);
  EXPECT_EQ(calls, static_cast<int>(kZigguratRetries));
  EXPECT_GT(tail, kZigguratTable.r);
  // Sign bit set, layer 0: the same magnitude, negative.
  calls = 0;
  EXPECT_EQ(ziggurat_rest(0xffffffffu, 0xfffffc00u, count_call), -tail);
  EXPECT_EQ(calls, static_cast<int>(kZigguratRetries));
}

}  // namespace
}  // namespace gs
