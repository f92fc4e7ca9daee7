// The CUDA backend against the CPU backend (the reference): identical Philox
// words, the same values up to the last bits of the transcendental functions,
// Nolan's table on GPU output, and ensembles larger than the memory budget.
// Built in every configuration; skipped, with the reason, without a device.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "estimators/compare.hpp"
#include "estimators/empirical.hpp"
#include "host/app/run.hpp"
#include "host/base/errors.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/plan.hpp"
#include "host/models/model.hpp"
#include "io/hdf5.hpp"
#include "kernels/philox.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

struct Generated {
  std::vector<double> cpu, gpu;
  Tally cpu_tally, gpu_tally;
};

// The same ensemble from both backends, as doubles.
Generated generate_both(const EnsembleSpec& spec, std::uint64_t seed = 31) {
  const EnsembleJob job = make_job(spec, seed);
  const StorageType storage = job.request.storage;
  const std::uint64_t n = spec.replicas * spec.length;
  Generated out;
  auto run = [&](BackendDevice& backend, std::vector<double>& values, Tally& tally) {
    std::vector<unsigned char> raw(n * storage_bytes(storage));
    tally = backend.make_generator(job, spec.replicas)->generate(0, spec.replicas, raw.data());
    values.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      switch (storage) {
        case StorageType::float32:
          values[i] = reinterpret_cast<const float*>(raw.data())[i];
          break;
        case StorageType::float64:
          values[i] = reinterpret_cast<const double*>(raw.data())[i];
          break;
        case StorageType::uint32:
          values[i] = reinterpret_cast<const std::uint32_t*>(raw.data())[i];
          break;
      }
    }
  };
  run(*make_cpu_backend(test::context()), out.cpu, out.cpu_tally);
  run(*make_cuda_backend(test::context()), out.gpu, out.gpu_tally);
  return out;
}

EnsembleSpec stable_spec(double alpha, double beta, Dtype dtype, std::uint64_t replicas, std::uint64_t length,
                         const char* parameterization = "S1") {
  return test::ensemble("stable",
                        fmt::format("{{alpha: {}, beta: {}, parameterization: {}}}", alpha, beta, parameterization),
                        replicas, length, dtype, 77);
}

EnsembleSpec lfsn_spec(double alpha, double beta, double H, Dtype dtype) {
  return test::ensemble("lfsn", fmt::format("{{alpha: {}, beta: {}, H: {}, m: 8, K: 128}}", alpha, beta, H), 50, 2000,
                        dtype, 78);
}

// Needs no device: in a CUDA build, the CUDA build of every direct kernel's
// header (CMakeLists.txt, kernels/cuda/launch.cuh) registered the launchers of
// each (compute, storage) pair at start-up, so every model runs on the GPU.
TEST(Cuda, EveryDirectKernelHasADeviceLauncher) {
  if (!cuda_backend_compiled()) GTEST_SKIP() << "this gpusynth was built without the CUDA backend";
  int direct = 0;
  // Every model's example, and the stable law at α = 2, which has a kernel of its own.
  std::vector<std::pair<std::string, std::string>> models{{"stable", "{alpha: 2}"}};
  for (const ModelTraits* traits : registered_models()) models.emplace_back(traits->name, traits->example);
  for (const auto& [name, params] : models) {
    for (const Dtype dtype : {Dtype::float32, Dtype::float64}) {
      for (const ValueKind values : {ValueKind::real, ValueKind::counts}) {
        EnsembleSpec spec = test::ensemble(name, params, 1, 100, dtype);
        spec.values = values;
        const EnsembleJob job = make_job(spec, 1);
        if (!job.generation.direct) continue;
        ++direct;
        EXPECT_NE(job.generation.direct->cuda_launch(), nullptr)
            << name << " " << params << " " << to_string(dtype) << " " << to_string(values);
        // precision fast has launchers of its own for the float32 stable and normal kernels.
        const bool has_fast = dtype == Dtype::float32 && (name == "stable" || name == "normal");
        EXPECT_EQ(job.generation.direct->cuda_launch(true) != job.generation.direct->cuda_launch(), has_fast)
            << name << " " << params << " " << to_string(dtype) << " " << to_string(values) << ": fast launcher";
      }
    }
  }
  EXPECT_GT(direct, 0);
}

TEST(Cuda, UniformStreamIsIdenticalToCpu) {
  GS_REQUIRE_CUDA_DEVICE();
  for (const RngStreamKey key :
       {RngStreamKey{0, 0}, RngStreamKey{42, 7}, RngStreamKey{0xffffffffffffffffull, 0xffffffffu}}) {
    for (std::uint32_t replica : {0u, 5u, 0xfffffffeu}) {
      const std::uint64_t first = (std::uint64_t{1} << 40) - 1000, calls = 1 << 18;
      const auto gpu = cuda_philox_words(key, replica, first, calls);
      for (std::uint64_t i = 0; i < calls; ++i) {
        const PhiloxBits cpu = philox_bits(key, replica, first + i, 0);
        for (int w = 0; w < 4; ++w) ASSERT_EQ(gpu[4 * i + w], cpu[w]) << "call " << i << " word " << w;
      }
    }
  }
}

// Worst |gpu − cpu| / (1 + |cpu|).
double worst_relative(const Generated& g) {
  double worst = 0;
  for (std::size_t i = 0; i < g.cpu.size(); ++i) {
    if (std::isfinite(g.cpu[i]) && std::fabs(g.cpu[i]) < 1e30) {
      worst = std::max(worst, std::fabs(g.gpu[i] - g.cpu[i]) / (1 + std::fabs(g.cpu[i])));
    }
  }
  return worst;
}

TEST(Cuda, StableMatchesCpu) {
  GS_REQUIRE_CUDA_DEVICE();
  for (double alpha : {0.5, 0.9, 1.0, 1.0001, 1.5, 2.0}) {
    for (double beta : {-1.0, 0.3, 1.0}) {
      for (const char* p : {"S1", "S0"}) {
        // Double: CUDA's and glibc's double functions differ in their last bits;
        // S1 draws near α = 1 are of size |τ| = |β tan(πα/2)|, which scales that.
        const double tau = alpha == 1.0 || alpha == 2.0 ? 0.0 : std::fabs(beta * std::tan(kPi * alpha / 2));
        const Generated d = generate_both(stable_spec(alpha, beta, Dtype::float64, 4, 50001, p));
        EXPECT_LT(worst_relative(d), 1e-13 * (1 + tau)) << "float64 alpha=" << alpha << " beta=" << beta;
        // Float: a few ulps per function, amplified by at most the CMS exponents.
        const Generated f = generate_both(stable_spec(alpha, beta, Dtype::float32, 4, 50001, p));
        EXPECT_LT(worst_relative(f), 2e-5) << "float32 alpha=" << alpha << " beta=" << beta;
        EXPECT_EQ(d.gpu_tally.saturated, d.cpu_tally.saturated);
      }
    }
  }
}

TEST(Cuda, CountsMatchCpuUpToRareHalfIntegerTies) {
  GS_REQUIRE_CUDA_DEVICE();
  EnsembleSpec spec = stable_spec(1.3, 0.5, Dtype::float32, 20, 100000);
  spec.values = ValueKind::counts;
  spec.workload = WorkloadMapping{3.0, 5.0};
  const Generated g = generate_both(spec);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < g.cpu.size(); ++i) {
    if (g.cpu[i] != g.gpu[i]) {
      ++differ;
      EXPECT_LE(std::fabs(g.cpu[i] - g.gpu[i]), 1.0);
    }
  }
  // A count can only flip where v·x + δ lies within float rounding of a half.
  EXPECT_LT(static_cast<double>(differ) / static_cast<double>(g.cpu.size()), 1e-4);
  EXPECT_EQ(g.cpu_tally.clipped, g.gpu_tally.clipped);
}

TEST(Cuda, NolanS1TableOnGpuOutput) {
  GS_REQUIRE_CUDA_DEVICE();
  const auto table = test::read_csv(test::data_path("stable_cdf_S1.csv"));
  std::map<std::pair<double, double>, std::vector<std::pair<double, double>>> groups;
  for (const auto& row : table.rows)
    groups[{std::stod(row[0]), std::stod(row[1])}].push_back({std::stod(row[3]), std::stod(row[4])});
  auto backend = make_cuda_backend(test::context());
  const std::uint64_t n = 100000;
  std::uint32_t stream = 9000;
  for (const auto& [ab, rows] : groups) {
    const EnsembleSpec spec = stable_spec(ab.first, ab.second, Dtype::float32, 1, n);
    EnsembleJob job = make_job(spec, 7);
    job.request.key.stream = stream++;
    job.generation = spec.model->generation(job.request);
    std::vector<float> values(n);
    backend->make_generator(job, 1)->generate(0, 1, values.data());
    const SortedSample sample(std::vector<double>(values.begin(), values.end()));
    for (const auto& [x, cdf] : rows) {
      EXPECT_LT(std::fabs(test::cdf_z_score(sample.cdf(x), cdf, n)), 5.0)
          << "alpha=" << ab.first << " beta=" << ab.second << " x=" << x;
    }
  }
}

// precision fast (__expf, and __logf outside [0.5, 2], in float32) against Nolan's S0
// quantiles and Φ with 10^7 draws per law, as tests/cpu/test_precision.cpp
// does for the CPU; the largest |z| is printed for the README and the
// precision_note of host/engine/precision.cpp.
TEST(Cuda, FastFloatMatchesNolanAndNormalQuantilesAt1e7) {
  GS_REQUIRE_CUDA_DEVICE();
  constexpr std::uint64_t n = 10000000;
  // A backend per draw: it reads the test context's precision when it is made.
  const auto draw = [&](const EnsembleSpec& spec, std::uint32_t stream) {
    EnsembleJob job = make_job(spec, 41);
    job.request.key.stream = stream;
    job.generation = spec.model->generation(job.request);
    std::vector<float> values(n);
    make_cuda_backend(test::context())->make_generator(job, 1)->generate(0, 1, values.data());
    return std::vector<double>(values.begin(), values.end());
  };
  for (MathPrecision precision : {MathPrecision::accurate, MathPrecision::fast}) {
    test::ScopedMathPrecision math(precision);
    test::CdfDeviation nolan, normal;
    std::uint32_t stream = 9500;
    for (const auto& [ab, points] : test::nolan_s0_quantiles()) {
      test::add_cdf_deviations(draw(stable_spec(ab.first, ab.second, Dtype::float32, 1, n, "S0"), stream++), points,
                               fmt::format("alpha={} beta={}", ab.first, ab.second), nolan);
    }
    test::add_cdf_deviations(draw(test::ensemble("normal", "{mu: 0, sigma: 1}", 1, n, Dtype::float32, 77), 9600),
                             test::normal_quantile_points(1.0), "normal model", normal);
    // Value by value, what the quantiles cannot see: no NaN, the support of the
    // totally skewed laws (S1, α < 1, β = ±1), and fast values differing from
    // accurate ones within 1e-4·max(|value|, 1).
    for (double alpha : {0.5, 0.8}) {
      for (double beta : {-1.0, 1.0}) {
        const auto values = draw(stable_spec(alpha, beta, Dtype::float32, 1, n), 9700);
        for (std::uint64_t i = 0; i < n; ++i) {
          ASSERT_FALSE(std::isnan(values[i])) << to_string(precision) << " alpha=" << alpha << " draw " << i;
          ASSERT_GE(beta * values[i], 0.0) << to_string(precision) << " alpha=" << alpha << " beta=" << beta;
        }
      }
    }
    for (const auto& [what, deviation] :
         {std::pair{"Nolan S0 quantiles", nolan}, std::pair{"normal quantiles", normal}}) {
      std::printf("GPU precision %s, float32, %s, 1e7 draws per law: largest |z| %.2f SE (%s), mean z^2 %.3f\n",
                  to_string(precision), what, deviation.max_abs_z, deviation.worst.c_str(), deviation.mean_z2());
      EXPECT_LT(deviation.max_abs_z, 5.0) << to_string(precision) << " " << what << ": " << deviation.worst;
      EXPECT_LT(deviation.mean_z2(), 1.5) << to_string(precision) << " " << what;
    }
  }
  for (const auto& [label, spec] : {std::pair{"stable", stable_spec(1.5, 0.5, Dtype::float32, 1, n)},
                                    std::pair{"stable alpha=0.7", stable_spec(0.7, 1.0, Dtype::float32, 1, n)},
                                    std::pair{"normal", test::ensemble("normal", "{}", 1, n, Dtype::float32, 77)}}) {
    std::vector<double> accurate, fast;
    {
      test::ScopedMathPrecision math(MathPrecision::accurate);
      accurate = draw(spec, 9800);
    }
    {
      test::ScopedMathPrecision math(MathPrecision::fast);
      fast = draw(spec, 9800);
    }
    std::uint64_t different = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      ASSERT_FALSE(std::isnan(fast[i])) << label << " draw " << i;
      ASSERT_LE(std::fabs(fast[i] - accurate[i]), 1e-4 * std::max(std::fabs(accurate[i]), 1.0))
          << label << " draw " << i << ": fast " << fast[i] << ", accurate " << accurate[i];
      different += fast[i] != accurate[i];
    }
    EXPECT_GT(different, n / 100) << label << ": precision fast changed (almost) nothing on the GPU";
  }
}

TEST(Cuda, LfsnMatchesCpu) {
  GS_REQUIRE_CUDA_DEVICE();
  for (const auto& [alpha, beta, H] :
       {std::tuple{1.5, 0.5, 0.8}, std::tuple{1.0, 0.7, 0.6}, std::tuple{0.8, -0.2, 0.4}}) {
    // float64: cuFFT and FFTW differ by rounding only.
    const Generated d = generate_both(lfsn_spec(alpha, beta, H, Dtype::float64));
    EXPECT_LT(worst_relative(d), 1e-9) << "float64 alpha=" << alpha;
    // float32 innovations differ in their last bits; the sum inherits it.
    const Generated f = generate_both(lfsn_spec(alpha, beta, H, Dtype::float32));
    EXPECT_LT(worst_relative(f), 1e-4) << "float32 alpha=" << alpha;
  }
}

// Every registered model (its traits' example) from both backends, in
// float64: the spectral models differ by FFT rounding, the
// direct kernels only where a uniform lands within rounding of a cumulative
// probability (none in this sample) and in the last bits of exp/log.
TEST(Cuda, EveryModelMatchesCpu) {
  GS_REQUIRE_CUDA_DEVICE();
  for (const ModelTraits* traits : registered_models()) {
    EnsembleSpec spec = test::ensemble(traits->name, traits->example, 64, 3001);
    const Generated g = generate_both(spec);
    EXPECT_LT(worst_relative(g), 1e-9) << traits->name;
    EXPECT_EQ(g.cpu_tally.saturated, g.gpu_tally.saturated) << traits->name;
  }
}

// The GPU adds every (replica, source) of onoff in parallel, atomically, into
// integer difference rows, and takes their prefix sums a block per replica
// (kernels/onoff.hpp, kernels/cuda/launch.cuh): integer sums in any order, so
// two GPU runs give the same bits; and the host's values up to the period
// lengths' exp, whose last bit may differ between the backends (as for every
// direct kernel, Cuda.EveryModelMatchesCpu). For periods far shorter and far longer than a
// bin, one source and many, at lengths around the scan's 256-bin tile, in
// float64 and as counts (from float32).
TEST(Cuda, OnoffSourcesAddedInParallelAreDeterministicAndMatchTheHost) {
  GS_REQUIRE_CUDA_DEVICE();
  for (const char* params : {"{sources: 1, alpha_on: 1.4, alpha_off: 1.8, mean_on: 10, mean_off: 30}",
                             "{sources: 300, alpha_on: 1.2, alpha_off: 1.5, mean_on: 0.05, mean_off: 0.2, rate: 3}",
                             "{sources: 40, alpha_on: 1.9, alpha_off: 1.1, mean_on: 500, mean_off: 40}"}) {
    for (const std::uint64_t length : {1, 255, 256, 257, 5000}) {
      for (const bool counts : {false, true}) {
        EnsembleSpec spec = test::ensemble("onoff", params, 7, length, counts ? Dtype::float32 : Dtype::float64);
        if (counts) spec.values = ValueKind::counts;
        const std::string where = fmt::format("{}, length {}{}", params, length, counts ? ", counts" : "");
        const Generated g = generate_both(spec), again = generate_both(spec);
        ASSERT_EQ(g.gpu, again.gpu) << where;
        if (!counts) {
          EXPECT_LT(worst_relative(g), 1e-9) << where;
          continue;
        }
        std::size_t moved = 0;  // a count moves by one where its value lies within rounding of a half
        for (std::size_t i = 0; i < g.cpu.size(); ++i) {
          ASSERT_LE(std::fabs(g.gpu[i] - g.cpu[i]), 1.0) << where << ", value " << i;
          moved += g.gpu[i] != g.cpu[i];
        }
        EXPECT_LE(moved, g.cpu.size() / 100) << where;
      }
    }
  }
}

// hmm's hidden path on the GPU (kernels/hmm.hpp): with sigma 0 an observation
// is exp(mu) of its state, so the states must be the host's exactly, with
// sojourns shorter and longer than the observation interval
// (Cuda.EveryModelMatchesCpu compares the example's values).
TEST(Cuda, HmmHiddenStatesAreTheHosts) {
  GS_REQUIRE_CUDA_DEVICE();
  const std::string states_only =
      "{generator: [[-0.5, 0.3, 0.2], [0.05, -0.06, 0.01], [2, 1, -3]], mu: [0, 1, 2], sigma: [0, 0, 0], interval: "
      "0.7}";
  for (const std::uint64_t length : {1, 2, 255, 4001}) {
    const Generated g = generate_both(test::ensemble("hmm", states_only, 9, length, Dtype::float64));
    for (std::size_t i = 0; i < g.cpu.size(); ++i) {
      ASSERT_NEAR(g.gpu[i], g.cpu[i], 1e-12 * g.cpu[i]) << "length " << length << ", value " << i;
    }
  }
}

// The GPU runs a Markov chain in segments of its time axis whose state maps it
// composes (kernels/cuda/launch.cuh): without noise a bin is its state's level,
// so the states must be the sequential walk's exactly, at every length around
// the 64-bin segment and for one and several replicas.
TEST(Cuda, MarkovChainInSegmentsGivesTheSequentialStates) {
  GS_REQUIRE_CUDA_DEVICE();
  const std::string params =
      "{levels: [1, 2, 3, 4], transition: [[0.5, 0.3, 0.2, 0], [0.1, 0.6, 0.2, 0.1], [0, 0.3, 0.4, 0.3], "
      "[0.25, 0.25, 0.25, 0.25]], noise: [0, 0, 0, 0]}";
  for (const std::uint64_t length : {1, 2, 63, 64, 65, 129, 20011}) {
    for (const std::uint64_t replicas : {1, 7}) {
      const Generated g = generate_both(test::ensemble("markov", params, replicas, length, Dtype::float64));
      ASSERT_EQ(g.cpu, g.gpu) << "length " << length << ", replicas " << replicas;
    }
  }
}

// A study's comparison on the device (CUB segmented sorts, kernels/compare.hpp
// on the sorted rows, direct autocovariances) against compare_replica on the
// same rows copied back, for each storage type: the same numbers up to
// summation order (the device's ACF sums directly, the host's through an FFT),
// hurst included (cuda_hurst.cu; every estimator: CudaHurst.*).
TEST(Cuda, StudyMetricsOnTheDeviceMatchTheCpuLoop) {
  GS_REQUIRE_CUDA_DEVICE();
  CompareOptions o;
  o.metrics = {Metric::trimmed_error, Metric::trimmed_error_aligned, Metric::ks,      Metric::acf,
               Metric::hurst,         Metric::peak_to_mean_ratio,    Metric::cv_ratio};
  o.acf_lags = 30;
  constexpr std::uint64_t kReplicas = 200, kLength = 2501;
  std::vector<double> real(kLength);
  for (std::uint64_t t = 0; t < kLength; ++t)
    real[t] = 40 + 10 * std::sin(0.05 * static_cast<double>(t)) + static_cast<double>(t % 7);
  const SeriesProfile profile = profile_series(real, o);
  for (const StorageType storage : {StorageType::float32, StorageType::float64, StorageType::uint32}) {
    EnsembleSpec spec =
        stable_spec(1.6, 0.3, storage == StorageType::float64 ? Dtype::float64 : Dtype::float32, kReplicas, kLength);
    spec.workload = WorkloadMapping{8.0, 40.0};
    if (storage == StorageType::uint32) spec.values = ValueKind::counts;
    const EnsembleJob job = make_job(spec, 7);
    auto generator = make_cuda_backend(test::context())->make_generator(job, kReplicas);
    ASSERT_TRUE(generator->compares_in_place());
    generator->set_comparison(profile, o);
    std::vector<unsigned char> raw(kReplicas * kLength * storage_bytes(storage));
    generator->generate(0, kReplicas, raw.data());
    const BatchComparison device = generator->compare_batch(kReplicas);
    ASSERT_EQ(device.metrics.size(), kReplicas * o.metrics.size());
    double worst = 0;
    for (std::uint64_t r = 0; r < kReplicas; ++r) {
      std::vector<double> y(kLength);
      for (std::uint64_t t = 0; t < kLength; ++t) {
        const std::uint64_t i = r * kLength + t;
        y[t] = storage == StorageType::float32   ? reinterpret_cast<const float*>(raw.data())[i]
               : storage == StorageType::float64 ? reinterpret_cast<const double*>(raw.data())[i]
                                                 : reinterpret_cast<const std::uint32_t*>(raw.data())[i];
      }
      const ReplicaComparison host = compare_replica(profile, y, o);
      for (std::size_t m = 0; m < o.metrics.size(); ++m) {
        const double d = device.metrics[r * o.metrics.size() + m], h = host.metrics[m];
        if (std::isnan(h)) {
          EXPECT_TRUE(std::isnan(d)) << "metric " << m << ", replica " << r;
          continue;
        }
        worst = std::max(worst, std::fabs(d - h) / (1 + std::fabs(h)));
      }
      for (std::size_t i = 0; i < kCurveLevels; ++i)
        worst = std::max(worst, std::fabs(device.quantiles[r * kCurveLevels + i] - host.quantiles[i]) /
                                    (1 + std::fabs(host.quantiles[i])));
      for (std::size_t k = 0; k < host.acf.size(); ++k)
        worst = std::max(worst, std::fabs(device.acf[r * host.acf.size() + k] - host.acf[k]));
    }
    EXPECT_LT(worst, 1e-9) << "storage " << static_cast<int>(storage);
  }
}

TEST(Cuda, EnsembleLargerThanTheBudgetStreams) {
  GS_REQUIRE_CUDA_DEVICE();
  const test::TempDir dir;
  test::write_file(dir.path("c.yaml"), R"(output: x.h5
ensembles:
  - {name: l, model: lfsn, params: {alpha: 1.5, beta: 0.5, H: 0.8, m: 8, K: 128}, replicas: 300, length: 3000, dtype: float64}
  - {name: s, model: stable, params: {alpha: 1.2, beta: 1}, replicas: 300, length: 30001, dtype: float64}
)");
  RunOptions options;
  options.config_path = dir.path("c.yaml");
  options.quiet = true;
  options.memory_limit = 4 << 20;  // 4 MiB: many batches on the device and the host
  const RunConfig config = load_config(options.config_path);
  const RunPlan plan = make_plan(config, single_backend(make_cuda_backend(test::context())), options.memory_limit);
  EXPECT_GT(plan.ensembles[0].batches, 10u);
  EXPECT_GT(plan.ensembles[1].batches, 10u);
  options.backend = BackendChoice::cuda;
  options.output = dir.path("gpu.h5");
  ASSERT_EQ(run_command(options), kExitOk);
  options.backend = BackendChoice::cpu;
  options.memory_limit.reset();
  options.output = dir.path("cpu.h5");
  ASSERT_EQ(run_command(options), kExitOk);
  for (const char* name : {"l", "s"}) {
    const h5::Handle gpu_file = h5::open_file_read(dir.path("gpu.h5"));
    const h5::Handle cpu_file = h5::open_file_read(dir.path("cpu.h5"));
    const auto gpu =
        h5::read_as_double(h5::open_dataset(gpu_file.id(), std::string("ensembles/") + name + "/series").id());
    const auto cpu =
        h5::read_as_double(h5::open_dataset(cpu_file.id(), std::string("ensembles/") + name + "/series").id());
    ASSERT_EQ(gpu.size(), cpu.size());
    Generated g{cpu, gpu, {}, {}};
    EXPECT_LT(worst_relative(g), 1e-9) << name;
    EXPECT_EQ(h5::read_string_attribute(gpu_file.id(), "backend"), "cuda");
  }
}

// A study end to end on the device (batches compared in place, hurst on the
// device, bootstrap on the device) against the same study on the CPU: every
// per-replica metric equal to float64 generation's last bits.
TEST(Cuda, StudyOnTheDeviceMatchesTheCpuStudy) {
  GS_REQUIRE_CUDA_DEVICE();
  const test::TempDir dir;
  test::write_file(dir.path("s.yaml"), "output: x.h5\ndatasets:\n  - {name: cp, trace: " +
                                           test::data_path("cloudphysics_per_second.counts") +
                                           ", format: counts, bin: 1s}\n" + R"(ensembles:
  - {name: cp-normal, dataset: cp, model: normal, params: {mu: 60, sigma: 20}, replicas: 300, length: 7201, dtype: float64}
  - {name: cp-fgn, dataset: cp, model: fgn, params: {H: 0.8, sigma: 20}, workload: {v: 1, delta: 60}, replicas: 300, length: 7201, dtype: float64}
compare:
  metrics: [trimmed_error, trimmed_error_aligned, ks, acf, hurst, burstiness]
  bootstrap: {resamples: 500, method: bca}
  store_replicas: 0
)");
  RunOptions options;
  options.config_path = dir.path("s.yaml");
  options.quiet = true;
  options.memory_limit = 8 << 20;  // several batches
  for (const auto& [backend, output] :
       {std::pair{BackendChoice::cuda, "gpu.h5"}, std::pair{BackendChoice::cpu, "cpu.h5"}}) {
    options.backend = backend;
    options.output = dir.path(output);
    ASSERT_EQ(run_command(options), kExitOk);
  }
  const h5::Handle gpu_file = h5::open_file_read(dir.path("gpu.h5"));
  const h5::Handle cpu_file = h5::open_file_read(dir.path("cpu.h5"));
  for (const char* model : {"normal", "fgn"}) {
    for (const char* metric :
         {"trimmed_error", "trimmed_error_aligned", "ks", "acf", "hurst", "peak_to_mean_ratio", "cv_ratio"}) {
      const std::string path = std::string("compare/cp/") + model + "/" + metric;
      const auto gpu = h5::read_as_double(h5::open_dataset(gpu_file.id(), path).id());
      const auto cpu = h5::read_as_double(h5::open_dataset(cpu_file.id(), path).id());
      ASSERT_EQ(gpu.size(), 300u) << path;
      ASSERT_EQ(cpu.size(), 300u) << path;
      for (std::size_t r = 0; r < gpu.size(); ++r) {
        if (std::isnan(cpu[r])) {
          EXPECT_TRUE(std::isnan(gpu[r])) << path << " replica " << r;
          continue;
        }
        EXPECT_NEAR(gpu[r], cpu[r], 1e-9 * (1 + std::fabs(cpu[r]))) << path << " replica " << r;
      }
    }
  }
}

TEST(Cuda, TinyAlphaSaturatesWithoutInfinity) {
  GS_REQUIRE_CUDA_DEVICE();
  const Generated g = generate_both(stable_spec(0.05, 0.9, Dtype::float32, 10, 1000));
  EXPECT_GT(g.gpu_tally.saturated, 0u);
  for (double x : g.gpu) ASSERT_TRUE(std::isfinite(x));
}

}  // namespace
}  // namespace gs
