// α-stable and LFSN samples/s on the CPU backend, with GSL's gsl_ran_levy_skew
// on the same (α, β) in the same run. GSL is single-threaded; gpusynth is
// shown with 1 thread (like for like) and with every core.
// Run: build/bench/bench_cpu --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <omp.h>

#include <vector>

#include "host/backend.hpp"
#include "host/models.hpp"

namespace {

constexpr double kAlpha = 1.5, kBeta = 0.5;

struct Ensemble {
  gs::EnsembleSpec spec;
  gs::EnsembleJob job;
  std::unique_ptr<gs::EnsembleGenerator> generator;
};

std::unique_ptr<Ensemble> make_ensemble(gs::ModelParams params, gs::Dtype dtype, std::uint64_t replicas,
                                        std::uint64_t length) {
  auto e = std::make_unique<Ensemble>();
  e->spec.name = "bench";
  e->spec.params = params;
  e->spec.dtype = dtype;
  e->spec.replicas = replicas;
  e->spec.length = length;
  e->job.spec = &e->spec;
  e->job.key = gs::RngStreamKey{1, 2};
  e->job.storage = dtype == gs::Dtype::float64 ? gs::StorageType::float64 : gs::StorageType::float32;
  e->job.spectral = gs::make_spectral_plan(params, length);
  e->generator = gs::make_cpu_backend()->make_generator(e->job, replicas);
  return e;
}

int threads_of(const benchmark::State& state) {
  return state.range(1) == 0 ? omp_get_num_procs() : static_cast<int>(state.range(1));
}

void BM_GpusynthStable(benchmark::State& state) {
  omp_set_num_threads(threads_of(state));
  gs::StableModel model;
  model.law.alpha = kAlpha;
  model.law.beta = kBeta;
  const auto dtype = state.range(0) == 32 ? gs::Dtype::float32 : gs::Dtype::float64;
  auto e = make_ensemble(model, dtype, 16, 1 << 16);
  std::vector<double> out(16 << 16);
  for (auto _ : state) {
    e->generator->generate(0, 16, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * (16 << 16));
  state.counters["threads"] = threads_of(state);
}
BENCHMARK(BM_GpusynthStable)->ArgsProduct({{32, 64}, {1, 0}})->ArgNames({"float", "threads"})->UseRealTime();

void BM_GslLevySkew(benchmark::State& state) {
  gsl_rng* rng = gsl_rng_alloc(gsl_rng_mt19937);
  std::vector<double> out(1 << 20);
  for (auto _ : state) {
    for (double& x : out) x = gsl_ran_levy_skew(rng, 1.0, kAlpha, kBeta);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(out.size()));
  state.counters["threads"] = 1;
  gsl_rng_free(rng);
}
BENCHMARK(BM_GslLevySkew)->UseRealTime();

// The quickstart's LFSN: α 1.5, β 0.5, H 0.8, m 16, K 256, 4096 bins.
void BM_GpusynthLfsn(benchmark::State& state) {
  omp_set_num_threads(threads_of(state));
  gs::LfsnModel model;
  model.alpha = kAlpha;
  model.beta = kBeta;
  model.H = 0.8;
  model.m = 16;
  model.K = 256;
  auto e = make_ensemble(model, gs::Dtype::float32, 8, 4096);
  std::vector<float> out(8 * 4096);
  for (auto _ : state) {
    e->generator->generate(0, 8, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * 8 * 4096);
  state.counters["threads"] = threads_of(state);
}
BENCHMARK(BM_GpusynthLfsn)->ArgsProduct({{32}, {1, 0}})->ArgNames({"float", "threads"})->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
