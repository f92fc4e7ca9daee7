// The CPU's lanes (host/engine/cpu/lanes.hpp) against the scalar path and
// against themselves: Philox word for word, the stable and normal values
// within a stated bound of the scalar formula, and the same bits whatever the
// thread count, the batches, where a row's last, partial pack falls, or the
// width (AVX2's eight lanes and AVX-512's sixteen). The tests run on the
// widest lanes the CPU has; the last one compares the widths.
// (tests/cpu/test_stable.cpp runs the accuracy tests on both paths.)
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "host/engine/cpu/lanes.hpp"
#include "kernels/gaussian.hpp"
#include "kernels/spectral.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

#define GS_REQUIRE_CPU_LANES() \
  if (!cpu_lanes_supported()) GTEST_SKIP() << "this CPU has no AVX2 and FMA: the scalar path is the only one"

// Every width of lanes this CPU has.
std::vector<CpuLanes> cpu_lane_widths() {
  std::vector<CpuLanes> widths;
  for (CpuLanes lanes : {CpuLanes::avx2, CpuLanes::avx512})
    if (lanes <= widest_cpu_lanes()) widths.push_back(lanes);
  return widths;
}

TEST(CpuLanes, PhiloxMatchesRandom123WordForWord) {
  GS_REQUIRE_CPU_LANES();
  const std::uint64_t firsts[] = {0, 1, 7, 12345, (std::uint64_t{1} << 32) - 3, (std::uint64_t{5} << 40) + 99};
  for (CpuLanes width : cpu_lane_widths()) {
    test::ScopedCpuLanes path(width);
    ASSERT_EQ(path.lanes(), width);
    for (std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{42}, std::uint64_t{0xfedcba9876543210u}}) {
      for (std::uint32_t stream : {0u, 7u, 0xffffffffu}) {
        for (std::uint64_t first : firsts) {
          for (std::uint32_t draw : {0u, 1u, 255u}) {
            const RngStreamKey key{seed, stream};
            PhiloxBits lanes[kMaxCpuLanes];
            const int count = philox_by_lanes(test::context().lanes, key, 3 + draw, first, draw, lanes);
            ASSERT_EQ(count, lane_count(width));
            for (int i = 0; i < count; ++i) {
              const PhiloxBits scalar = philox_bits(key, 3 + draw, first + static_cast<std::uint64_t>(i), draw);
              for (int w = 0; w < 4; ++w)
                ASSERT_EQ(lanes[i][w], scalar[w]) << to_string(width) << " first=" << first << " lane " << i;
            }
          }
        }
      }
    }
  }
}

// Bound. Each elementary function of the lanes (SLEEF, ≤ 1 ulp) and of the C
// library (≤ 1 ulp) differ by at most 2 ulp, and the CMS sums up to six
// logarithms, with weights up to 1/α, into ln|Z1| before one exp, so Z1 (the
// S1 value) differs by about 2ε·max(1, 1/α)·(|ln|Z1|| + the terms' size)
// relative; the S0 value Z1 − τ carries the same absolute difference. So we
// measure the difference in ulps of |Z1| = |Z0| + |τ| and allow
// (16 + 4·|ln|Z1||)·max(1, 1/α) ulp. At α = 1 the value is a sum of terms,
// (2/π)(−p·cos w/sin w − |β|(ln(π/2) + ln W + ln sin w − ln p)), and at α = 2
// it is −2√W·cos w; the scalar path's cos(π·x) has an absolute error of
// ulp(1) (π·x is rounded), so there the difference is measured in ulps of the
// sum of the terms' sizes with cos w taken as 1. That bounds
// 11 × 5 × 2 laws below (the worst measured: 0.87 of it in float, 0.63 in
// double), and fails at once on a real change
// of the formula (a wrong constant, a lost correction term: 10^3 ulp and more).
// With precision fast, log, sin and sin/cos(π·x) are within 3.5 ulp, so a pair
// of functions differs by 4.5 ulp instead of 2 and the bound is 2.25 times
// as wide; and a 3.5-ulp logarithm is no longer correctly rounded where the
// accurate ones mostly are, so the logarithms' own size enters: ln sin w and
// ln W (up to 23 near the edges of the words, where sin w^(−1/α) is huge and
// sin(α(V + ξ)) tiny) carry 4.5 ulp of themselves, weighted by up to
// max(1, 1/α), into ln|Z1|: 9·max(1, 1/α)·(|ln sin w| + |ln W|) ulp more.
template <class Real>
double difference_in_ulps(Real lanes, Real scalar, double terms) {
  const Real magnitude = static_cast<Real>(std::fabs(static_cast<double>(scalar)) + std::fabs(terms));
  const Real ulp = std::nextafter(magnitude, std::numeric_limits<Real>::infinity()) - magnitude;
  return static_cast<double>(std::fabs(lanes - scalar)) / static_cast<double>(ulp);
}
double cms_bound(double magnitude, double alpha) {
  return (16 + 4 * std::fabs(std::log(magnitude + 1e-300))) * std::max(1.0, 1 / alpha);
}

template <class Real>
void check_stable_within_bound(MathPrecision precision) {
  test::ScopedMathPrecision math(precision);
  const double widening = precision == MathPrecision::fast ? 2.25 : 1.0;
  const RngStreamKey key{2024, 9};
  const std::size_t n = 20000;
  std::vector<std::uint32_t> kv(n), kw(n);
  for (std::size_t j = 0; j < n / 2; ++j) {
    const PhiloxBits w = philox_bits(key, 0, j, 0);
    kv[2 * j] = w[0], kw[2 * j] = w[1], kv[2 * j + 1] = w[2], kw[2 * j + 1] = w[3];
  }
  // Both edges of both words.
  const std::uint32_t edges[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  for (std::uint32_t a : edges)
    for (std::uint32_t b : edges) kv.push_back(a), kw.push_back(b);
  double worst = 0;
  for (double alpha : {0.3, 0.5, 0.8, 0.999, 1.0, 1.00001, 1.2, 1.5, 1.8, 1.99, 2.0}) {
    for (double beta : {-1.0, -0.4, 0.0, 0.7, 1.0}) {
      for (auto p : {StableParameterization::S0, StableParameterization::S1}) {
        StableLawParams law;
        law.alpha = alpha, law.beta = beta, law.parameterization = p;
        const StableSampler<Real> sampler = make_stable_sampler<Real>(law);
        std::vector<Real> lanes(kv.size());
        ASSERT_TRUE(stable_by_lanes(test::context().lanes, test::context().precision, sampler, kv.data(), kw.data(),
                                    kv.size(), lanes.data()));
        for (std::size_t i = 0; i < kv.size(); ++i) {
          const Real scalar = sampler(kv[i], kw[i]);
          ASSERT_FALSE(std::isnan(lanes[i])) << "alpha=" << alpha << " beta=" << beta << " kv=" << kv[i];
          if (std::isinf(scalar) || std::isinf(lanes[i])) {
            // Only at the float overflow edge (α < 1), with the same sign.
            ASSERT_EQ(std::signbit(scalar), std::signbit(lanes[i]));
            ASSERT_GT(std::fabs(static_cast<double>(std::isinf(scalar) ? lanes[i] : scalar)),
                      0.5 * static_cast<double>(std::numeric_limits<Real>::max()));
            continue;
          }
          double terms = p == StableParameterization::S0 && alpha != 1 ? beta * std::tan(kPi * alpha / 2) : 0.0;
          const double u = uniform_open(beta < 0 ? ~kv[i] : kv[i]), W = standard_exponential<double>(kw[i]);
          if (alpha == 1) {
            const double w = kPi * u, b = std::fabs(beta), q = kPi / 2 * (1 - b) + b * w;
            terms = 2 / kPi *
                    (q / std::sin(w) +
                     b * (0.46 + std::fabs(std::log(W)) + std::fabs(std::log(std::sin(w))) + std::fabs(std::log(q))));
          } else if (alpha == 2) {
            terms = 2 * std::sqrt(W);
          }
          const double d = difference_in_ulps(lanes[i], scalar, terms);
          const double log_sizes = std::fabs(std::log(std::sin(kPi * std::min(u, 1 - u)))) + std::fabs(std::log(W));
          const double bound = widening * cms_bound(std::fabs(static_cast<double>(scalar)) + std::fabs(terms), alpha) +
                               (precision == MathPrecision::fast ? 9 * std::max(1.0, 1 / alpha) * log_sizes : 0.0);
          worst = std::max(worst, d / bound);
          ASSERT_LE(d, bound) << "alpha=" << alpha << " beta=" << beta << " S"
                              << (p == StableParameterization::S0 ? 0 : 1) << " kv=" << kv[i] << " kw=" << kw[i]
                              << " lanes=" << lanes[i] << " scalar=" << scalar;
        }
      }
    }
  }
  testing::Test::RecordProperty("worst_fraction_of_bound", std::to_string(worst));
  std::printf("stable lanes (precision %s) vs scalar (%s): worst difference %.3f of the bound\n", to_string(precision),
              sizeof(Real) == 4 ? "float" : "double", worst);
}

TEST(CpuLanes, StableWithinBoundOfScalarFloat) {
  GS_REQUIRE_CPU_LANES();
  check_stable_within_bound<float>(MathPrecision::accurate);
}
TEST(CpuLanes, StableWithinBoundOfScalarDouble) {
  GS_REQUIRE_CPU_LANES();
  check_stable_within_bound<double>(MathPrecision::accurate);
}
TEST(CpuLanes, FastStableWithinWiderBoundOfScalarFloat) {
  GS_REQUIRE_CPU_LANES();
  check_stable_within_bound<float>(MathPrecision::fast);
}
TEST(CpuLanes, FastStableWithinWiderBoundOfScalarDouble) {
  GS_REQUIRE_CPU_LANES();
  check_stable_within_bound<double>(MathPrecision::fast);
}

// Raw bytes of replicas [first, first + count) of an ensemble through the CPU
// backend, with `threads` OpenMP threads, in batches of `batch` replicas; the
// clipped and saturated values' counts to `tally` if given.
std::vector<unsigned char> generate_bytes(const EnsembleSpec& spec, int threads, std::uint64_t batch,
                                          Tally* tally = nullptr) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  const EnsembleJob job = test::job(spec, 31);
  const std::size_t bytes_per_value = storage_bytes(job.request.storage);
  std::vector<unsigned char> out(spec.replicas * spec.length * bytes_per_value);
  auto generator = make_cpu_backend(test::context())->make_generator(job, batch);
  for (std::uint64_t first = 0; first < spec.replicas; first += batch) {
    const std::uint64_t count = std::min(batch, spec.replicas - first);
    const Tally counted = generator->generate(first, count, out.data() + first * spec.length * bytes_per_value);
    if (tally) *tally += counted;
  }
  omp_set_num_threads(before);
  return out;
}

// Worst |lanes − scalar| of a standard normal ensemble in units of the last
// place of each pair's radius r = hypot(z0, z1).
template <class Real>
double worst_radius_ulps(const std::vector<unsigned char>& lanes_bytes,
                         const std::vector<unsigned char>& scalar_bytes) {
  std::vector<Real> lanes(lanes_bytes.size() / sizeof(Real)), scalar(lanes.size());
  std::memcpy(lanes.data(), lanes_bytes.data(), lanes_bytes.size());
  std::memcpy(scalar.data(), scalar_bytes.data(), scalar_bytes.size());
  double worst = 0;
  for (std::size_t i = 0; i + 1 < lanes.size(); i += 2) {
    const Real r = std::hypot(scalar[i], scalar[i + 1]);
    const Real ulp = std::nextafter(r, std::numeric_limits<Real>::infinity()) - r;
    for (std::size_t k = i; k < i + 2; ++k)
      worst = std::max(worst, static_cast<double>(std::fabs(lanes[k] - scalar[k]) / ulp));
  }
  return worst;
}

// The normal model's Box–Muller, z = r·(cos, sin)(πt): sqrt, one log and
// sin/cos of π·t, each within 1 ulp on both paths (the scalar path rounds π·t
// once more, an absolute error of ulp(1)·r at any angle), so a pair differs by
// a few ulp of its radius; 8 bounds it (with precision fast's 3.5-ulp log and
// sin/cos of π·t, 2.25 times that, as for the stable values: 18).
TEST(CpuLanes, NormalWithinBoundOfScalar) {
  GS_REQUIRE_CPU_LANES();
  for (auto [dtype, precision] :
       {std::pair{Dtype::float32, MathPrecision::accurate}, std::pair{Dtype::float64, MathPrecision::accurate},
        std::pair{Dtype::float32, MathPrecision::fast}, std::pair{Dtype::float64, MathPrecision::fast}}) {
    const EnsembleSpec spec = test::ensemble("normal", "{mu: 0, sigma: 1}", 3, 4100, dtype);
    std::vector<unsigned char> scalar;
    {
      test::ScopedCpuLanes path(false);
      scalar = generate_bytes(spec, 2, 3);
    }
    test::ScopedMathPrecision math(precision);
    const std::vector<unsigned char> lanes = generate_bytes(spec, 2, 3);
    EXPECT_NE(scalar, lanes) << "the scalar switch did not switch";
    const double worst =
        dtype == Dtype::float32 ? worst_radius_ulps<float>(lanes, scalar) : worst_radius_ulps<double>(lanes, scalar);
    std::printf("normal lanes (precision %s) vs scalar (%s): worst %.2f ulp of the radius\n", to_string(precision),
                to_string(dtype), worst);
    EXPECT_LE(worst, precision == MathPrecision::fast ? 18.0 : 8.0) << to_string(dtype) << " " << to_string(precision);
  }
}

// precision fast changes values, and only in their last bits: on 10^6 draws
// of each law no NaN, every value within 1e-4·max(|value|, σ = 1) of the
// accurate lanes' (at α = 1 a value is a sum of terms of size 1 and more, which
// may cancel to near 0; the bounds above are far tighter: this is the check
// that a rare value, which the quantile tests at 10^7 cannot see, is not
// broken), the
// support of totally skewed laws kept (S1, α < 1, β = ±1: one half-line), and
// some values different (fast is not the accurate code under another name).
template <class Real>
void check_fast_against_accurate() {
  struct Law {
    double alpha, beta;
  };
  const Law laws[] = {{0.5, 1.0}, {0.8, -1.0}, {1.0, 0.5}, {1.5, 0.5}, {1.999, -1.0}, {2.0, 0.0}};
  constexpr std::size_t n = 1000000;
  for (const Law& law : laws) {
    StableLawParams params;
    params.alpha = law.alpha, params.beta = law.beta;
    std::vector<double> accurate, fast;
    {
      test::ScopedMathPrecision math(MathPrecision::accurate);
      accurate = test::draw_stable<Real>(params, n, 5, 61);
    }
    {
      test::ScopedMathPrecision math(MathPrecision::fast);
      fast = test::draw_stable<Real>(params, n, 5, 61);
    }
    std::size_t different = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_FALSE(std::isnan(fast[i])) << "alpha=" << law.alpha << " beta=" << law.beta << " draw " << i;
      ASSERT_LE(std::fabs(fast[i] - accurate[i]), 1e-4 * std::max(std::fabs(accurate[i]), 1.0))
          << "alpha=" << law.alpha << " beta=" << law.beta << " draw " << i << ": " << fast[i] << " vs " << accurate[i];
      if (law.alpha < 1 && law.beta == 1.0) {
        ASSERT_GE(fast[i], 0.0) << "alpha=" << law.alpha << " draw " << i;
      }
      if (law.alpha < 1 && law.beta == -1.0) {
        ASSERT_LE(fast[i], 0.0) << "alpha=" << law.alpha << " draw " << i;
      }
      different += fast[i] != accurate[i];
    }
    EXPECT_GT(different, n / 100) << "alpha=" << law.alpha << ": precision fast changed (almost) nothing";
  }
}

TEST(CpuLanes, FastDiffersFromAccurateOnlyInTheLastBits) {
  GS_REQUIRE_CPU_LANES();
  check_fast_against_accurate<float>();
  check_fast_against_accurate<double>();
}

// Circulant noise (fgn, fbm, norros, Gaussian farima): a pack draws every lane's ziggurat
// candidates at once and the rare rest of a draw lane by lane, and puts its complex
// frequencies in vectors, one holding j = 0 or M/2 or ending the row lane by lane
// (host/engine/cpu/lane_kernels.inc). Every frequency must be the scalar kernel's, on each
// lane width and in both precisions (the ziggurat has no function that precision fast
// replaces), at sizes whose packs do and do not reach M/2, over rows whose 2·2049 normals
// include draws that need retries (0.43 % of them: about 18 a row).
TEST(CpuLanes, CirculantNoisePacksPutWhatTheScalarPutWould) {
  GS_REQUIRE_CPU_LANES();
  for (CpuLanes width : cpu_lane_widths()) {
    for (MathPrecision precision : {MathPrecision::accurate, MathPrecision::fast}) {
      test::ScopedCpuLanes path(width);
      test::ScopedMathPrecision math(precision);
      for (const std::uint64_t inverse_length : {62, 64, 100, 4098}) {
        const std::uint64_t columns = inverse_length / 2 + 1;
        std::vector<double> amplitude(columns);
        for (std::uint64_t j = 0; j < columns; ++j) amplitude[j] = 0.5 + std::sqrt(static_cast<double>(j) + 0.3);
        for (const std::uint64_t replica : {0, 1, 2, 3}) {
          std::vector<Complex<double>> lanes(columns), scalar(columns);
          CirculantNoiseKernel kernel;
          kernel.amplitude = amplitude.data();
          kernel.key = RngStreamKey{3, stream_of_name("circulant")};
          kernel.first_replica = replica;
          kernel.inverse_length = inverse_length;
          kernel.folded = lanes.data();
          cpu_for_each(1, kernel, test::context().lane_form());
          kernel.folded = scalar.data();
          StoreTally tally;
          for (std::uint64_t j = 0; j < columns; ++j) kernel(0, j, tally);
          for (std::uint64_t j = 0; j < columns; ++j) {
            ASSERT_EQ(std::memcmp(&lanes[j], &scalar[j], sizeof(Complex<double>)), 0)
                << to_string(precision) << ", M " << inverse_length << ", replica " << replica << ", frequency " << j
                << ": " << lanes[j].re << " " << lanes[j].im << " against " << scalar[j].re << " " << scalar[j].im;
          }
        }
      }
    }
  }
}

// The spectral models' store to real storage by packs gives the scalar
// path's bits and tallies on every lane form: values of every magnitude (float
// saturation, double overflow to ±inf, NaN, subnormals, ±0) at an offset into
// the row, mapped by v·x + δ, rows ending in a partial pack.
template <class Out>
void check_spectral_store_by_lanes() {
  const std::uint64_t offset = 5, length = 1001;
  std::vector<double> row(offset + length + 3);
  std::uint64_t state = 11;
  const double specials[] = {3.5e38,
                             -3.5e38,
                             1e308,
                             -1e308,
                             std::numeric_limits<double>::infinity(),
                             std::nan(""),
                             4.9e-324,
                             -0.0,
                             3.4028234663852886e38};
  for (std::size_t t = 0; t < row.size(); ++t) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(state >> 11) * 0x1.0p-53;
    row[t] = t % 37 == 3 ? specials[(t / 37) % 9] : std::ldexp(u - 0.5, static_cast<int>(state % 200) - 100);
  }
  FilteredStoreKernel<Out> kernel;
  kernel.decimated = row.data();
  kernel.row_stride = row.size();
  kernel.offset = offset;
  kernel.length = length;
  kernel.location = 0.25;
  kernel.map.v = 3.0;
  kernel.map.delta = -2.0;
  const auto store = [&](CpuLanes lanes, MathPrecision precision) {
    test::ScopedCpuLanes path(lanes);
    test::ScopedMathPrecision math(precision);
    std::vector<Out> out(length);
    kernel.out = out.data();
    const Tally tally = serial_for_each(kernel, test::context().lane_form());
    return std::make_pair(out, tally.saturated);
  };
  const auto scalar = store(CpuLanes::none, MathPrecision::accurate);
  EXPECT_GT(scalar.second, 10u);  // the saturation checks are not vacuous
  for (CpuLanes lanes : {CpuLanes::avx2, CpuLanes::avx512}) {
    if (supported_cpu_lanes(lanes) != lanes) continue;
    for (MathPrecision precision : {MathPrecision::accurate, MathPrecision::fast}) {
      const auto packed = store(lanes, precision);
      ASSERT_EQ(std::memcmp(packed.first.data(), scalar.first.data(), length * sizeof(Out)), 0)
          << to_string(lanes) << " " << to_string(precision);
      EXPECT_EQ(packed.second, scalar.second) << to_string(lanes) << " " << to_string(precision);
    }
  }
}

TEST(CpuLanes, SpectralStoreGivesTheScalarBits) {
  GS_REQUIRE_CPU_LANES();
  check_spectral_store_by_lanes<float>();
  check_spectral_store_by_lanes<double>();
}

TEST(CpuLanes, SameBitsOnOneAndThreeThreadsAndAnyBatches) {
  GS_REQUIRE_CPU_LANES();
  struct Case {
    const char* model;
    const char* params;
    Dtype dtype;
  };
  const Case cases[] = {
      {"stable", "{alpha: 1.5, beta: 0.5}", Dtype::float32},
      {"stable", "{alpha: 0.7, beta: -1}", Dtype::float64},
      {"normal", "{mu: 1, sigma: 2}", Dtype::float32},
      {"lfsn", "{alpha: 1.4, beta: 0.3, H: 0.8, m: 3, K: 5}", Dtype::float32},
      {"farima", "{d: 0.2, innovations: stable, alpha: 1.6}", Dtype::float64},
      {"fgn", "{H: 0.75}", Dtype::float64},
  };
  for (const Case& c : cases) {
    for (MathPrecision precision : {MathPrecision::accurate, MathPrecision::fast}) {
      test::ScopedMathPrecision math(precision);
      // Odd lengths: every row ends in a partial pack.
      for (std::uint64_t length : {std::uint64_t{1}, std::uint64_t{13}, std::uint64_t{1001}}) {
        const EnsembleSpec spec = test::ensemble(c.model, c.params, 7, length, c.dtype);
        const auto reference = generate_bytes(spec, 1, 7);
        EXPECT_EQ(generate_bytes(spec, 3, 7), reference) << c.model << " length " << length << ", 3 threads";
        EXPECT_EQ(generate_bytes(spec, 3, 3), reference) << c.model << " length " << length << ", batches of 3";
        EXPECT_EQ(generate_bytes(spec, 2, 1), reference) << c.model << " length " << length << ", batches of 1";
      }
    }
  }
}

// A value never depends on where a row's last pack falls: the first bins of a
// stable or normal replica are the same whatever its length, and so are the
// first innovations of a spectral replica whatever their number.
void check_values_do_not_depend_on_where_the_last_pack_falls() {
  for (const char* model : {"stable", "normal"}) {
    const std::string params = std::string(model) == "stable" ? "{alpha: 1.2, beta: 0.9}" : "{}";
    const auto longest = test::generate_float64(model, params, 2, 64, 5);
    for (std::uint64_t length :
         {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{15}, std::uint64_t{17}, std::uint64_t{33}}) {
      const auto shorter = test::generate_float64(model, params, 2, length, 5);
      for (std::uint64_t r = 0; r < 2; ++r)
        for (std::uint64_t k = 0; k < length; ++k)
          ASSERT_EQ(shorter[r * length + k], longest[r * 64 + k]) << model << " length " << length << " bin " << k;
    }
  }
  StableLawParams law;
  law.alpha = 1.3, law.beta = -0.2;
  InnovationsKernel<float> kernel;
  kernel.innovation.law = make_stable_sampler<float>(law);
  kernel.innovation.key = {8, 8};
  kernel.fft_length = 64;
  kernel.first_replica = 4;
  std::vector<double> longest(64), shorter(64);
  kernel.fine_points = 64;
  kernel.signal = longest.data();
  serial_for_each(kernel, test::context().lane_form());
  for (std::uint64_t points : {std::uint64_t{1}, std::uint64_t{9}, std::uint64_t{31}}) {
    kernel.fine_points = points;
    kernel.signal = shorter.data();
    serial_for_each(kernel, test::context().lane_form());
    for (std::uint64_t t = 0; t < 64; ++t)
      ASSERT_EQ(shorter[t], t < points ? longest[t] : 0.0) << points << " points, t = " << t;
  }
}

TEST(CpuLanes, ValuesDoNotDependOnWhereTheLastPackFalls) {
  GS_REQUIRE_CPU_LANES();
  for (MathPrecision precision : {MathPrecision::accurate, MathPrecision::fast}) {
    SCOPED_TRACE(to_string(precision));
    test::ScopedMathPrecision math(precision);
    check_values_do_not_depend_on_where_the_last_pack_falls();
  }
}

// AVX-512's sixteen lanes give AVX2's eight lanes' bits: SLEEF's finz
// functions are the same at both widths and the arithmetic is IEEE's, so only
// the register layers (simd_avx2.hpp, simd_avx512.hpp: masks, selects,
// conversions, Philox's products, the interleaved stores) could differ, and
// these cases pass through all of them. The law's values on 20 000 word pairs
// and the edges, for 7 (α, β) in S0 and S1, float and double, and whole
// ensembles of every model with lanes (real storage, whose store interleaves
// pairs, and counts; values that saturate and counts that clip, whose tallies
// go into the file too), in both precisions.
TEST(CpuLanes, Avx512GivesAvx2Bits) {
  if (widest_cpu_lanes() != CpuLanes::avx512)
    GTEST_SKIP() << "this CPU has no AVX-512 (F and DQ): the AVX2 lanes are the only ones";
  const RngStreamKey key{77, 3};
  std::vector<std::uint32_t> kv, kw;
  for (std::uint64_t j = 0; j < 10000; ++j) {
    const PhiloxBits w = philox_bits(key, 0, j, 0);
    kv.insert(kv.end(), {w[0], w[2]}), kw.insert(kw.end(), {w[1], w[3]});
  }
  const std::uint32_t edges[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  for (std::uint32_t a : edges)
    for (std::uint32_t b : edges) kv.push_back(a), kw.push_back(b);
  const auto by_width = [&](auto real, CpuLanes width, const StableSampler<decltype(real)>& law) {
    test::ScopedCpuLanes path(width);
    EXPECT_EQ(path.lanes(), width);
    std::vector<decltype(real)> out(kv.size());
    EXPECT_TRUE(stable_by_lanes(test::context().lanes, test::context().precision, law, kv.data(), kw.data(), kv.size(),
                                out.data()));
    return out;
  };
  struct Case {
    const char* model;
    const char* params;
    Dtype dtype;
    ValueKind values;
  };
  const Case cases[] = {
      {"stable", "{alpha: 1.5, beta: 0.5}", Dtype::float32, ValueKind::real},
      {"stable", "{alpha: 0.7, beta: -1}", Dtype::float64, ValueKind::real},
      {"stable", "{alpha: 1.2, beta: 0.3, mu: 40, sigma: 9}", Dtype::float32, ValueKind::counts},
      {"stable", "{alpha: 0.5, beta: 1, sigma: 1e36}", Dtype::float32, ValueKind::real},
      {"stable", "{alpha: 2}", Dtype::float64, ValueKind::real},
      {"normal", "{mu: 1, sigma: 2}", Dtype::float32, ValueKind::real},
      {"normal", "{mu: 1, sigma: 2}", Dtype::float64, ValueKind::real},
      {"normal", "{mu: 30, sigma: 5}", Dtype::float64, ValueKind::counts},
      {"lfsn", "{alpha: 1.4, beta: 0.3, H: 0.8, m: 3, K: 5}", Dtype::float32, ValueKind::real},
      {"farima", "{d: 0.2, innovations: stable, alpha: 1.6}", Dtype::float64, ValueKind::real},
      {"fgn", "{H: 0.75}", Dtype::float64, ValueKind::real},
  };
  Tally all;  // over every ensemble: the tallies' checks are not vacuous
  for (MathPrecision precision : {MathPrecision::accurate, MathPrecision::fast}) {
    test::ScopedMathPrecision math(precision);
    for (double alpha : {0.5, 1.0, 1.5, 2.0}) {
      for (double beta : {-1.0, 0.6}) {
        for (auto p : {StableParameterization::S0, StableParameterization::S1}) {
          if (alpha == 2 && beta == 0.6) continue;
          StableLawParams law;
          law.alpha = alpha, law.beta = beta, law.parameterization = p;
          const auto f = make_stable_sampler<float>(law);
          const auto d = make_stable_sampler<double>(law);
          const auto f8 = by_width(0.0f, CpuLanes::avx2, f), f16 = by_width(0.0f, CpuLanes::avx512, f);
          const auto d8 = by_width(0.0, CpuLanes::avx2, d), d16 = by_width(0.0, CpuLanes::avx512, d);
          ASSERT_EQ(std::memcmp(f8.data(), f16.data(), f8.size() * sizeof(float)), 0)
              << "float alpha=" << alpha << " beta=" << beta << " " << to_string(precision);
          ASSERT_EQ(std::memcmp(d8.data(), d16.data(), d8.size() * sizeof(double)), 0)
              << "double alpha=" << alpha << " beta=" << beta << " " << to_string(precision);
        }
      }
    }
    for (const Case& c : cases) {
      // 1001 values: rows end in a partial pack of both widths.
      EnsembleSpec spec = test::ensemble(c.model, c.params, 5, 1001, c.dtype);
      spec.values = c.values;
      std::vector<unsigned char> avx2, avx512;
      Tally avx2_tally, avx512_tally;
      {
        test::ScopedCpuLanes path(CpuLanes::avx2);
        avx2 = generate_bytes(spec, 2, 5, &avx2_tally);
      }
      {
        test::ScopedCpuLanes path(CpuLanes::avx512);
        EXPECT_NE(cpu_math_description(test::context().lanes, test::context().precision).find("AVX-512"),
                  std::string::npos)
            << cpu_math_description(test::context().lanes, test::context().precision);
        avx512 = generate_bytes(spec, 2, 5, &avx512_tally);
      }
      const std::string which = std::string(c.model) + " " + c.params + " " + to_string(c.dtype) + " " +
                                to_string(c.values) + " " + to_string(precision);
      EXPECT_EQ(avx2, avx512) << which;
      EXPECT_EQ(avx2_tally.clipped, avx512_tally.clipped) << which;
      EXPECT_EQ(avx2_tally.saturated, avx512_tally.saturated) << which;
      all += avx512_tally;
    }
  }
  EXPECT_GT(all.clipped, 0u);
  EXPECT_GT(all.saturated, 0u);
}

}  // namespace
}  // namespace gs
