// α-stable, LFSN and comparison-model samples/s on the CPU backend, with
// GSL's gsl_ran_levy_skew on the same (α, β) in the same run. GSL is single-threaded; gpusynth is
// shown with 1 thread (like for like) and with every core.
// Run: build/bench/bench_cpu --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <fftw3.h>
#include <fmt/format.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include "bootstrap_sample.hpp"
#include "estimators/bootstrap.hpp"
#include "estimators/burst_analysis.hpp"
#include "estimators/hmm_fit.hpp"
#include "estimators/hurst.hpp"
#include "host/base/allocation.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/config.hpp"
#include "host/engine/cpu/lanes.hpp"
#include "host/requests/synthesize.hpp"
#include "io/request_trace.hpp"
#include "kernels/launch.hpp"
#include "kernels/spectral.hpp"

namespace {

constexpr double kAlpha = 1.5, kBeta = 0.5;

struct Ensemble {
  gs::EnsembleSpec spec;
  gs::EnsembleJob job;
  std::unique_ptr<gs::EnsembleGenerator> generator;
};

// `model` with `params` (YAML, as under `params:`), seed 1, stream 2.
std::unique_ptr<Ensemble> make_ensemble(const std::string& model, const std::string& params, gs::Dtype dtype,
                                        std::uint64_t replicas, std::uint64_t length,
                                        const gs::ExecutionContext& context = {}) {
  auto e = std::make_unique<Ensemble>();
  e->spec.name = "bench";
  e->spec.model = gs::make_model(model, params);
  e->spec.dtype = dtype;
  e->spec.replicas = replicas;
  e->spec.length = length;
  e->spec.stream = 2;
  e->job = gs::make_job(e->spec, 1);
  e->generator = gs::make_cpu_backend(context)->make_generator(e->job, replicas);
  return e;
}

int threads_of(const benchmark::State& state) {
  return state.range(1) == 0 ? omp_get_num_procs() : static_cast<int>(state.range(1));
}

// The CPU path of argument `lanes`: 0 the scalar path (C library functions),
// 1 the widest lanes the CPU has (host/engine/cpu/lanes.hpp), 2 those with
// precision fast (host/engine/precision.hpp), 3 and 4 the same on AVX2's eight
// lanes (where the widest are AVX-512's sixteen), for their speed-ups in one
// run. The counter `lanes` is the lanes' count (1: scalar).
gs::ExecutionContext path_of(std::int64_t lanes) {
  gs::ExecutionContext path;
  path.precision = lanes == 2 || lanes == 4 ? gs::MathPrecision::fast : gs::MathPrecision::accurate;
  path.lanes = lanes == 0 ? gs::CpuLanes::none : lanes >= 3 ? gs::CpuLanes::avx2 : gs::CpuLanes::avx512;
  return path;
}

void BM_GpusynthStable(benchmark::State& state) {
  omp_set_num_threads(threads_of(state));
  const gs::ExecutionContext path = path_of(state.range(2));
  const int lanes = gs::lane_count(path.lanes_in_use());
  const auto dtype = state.range(0) == 32 ? gs::Dtype::float32 : gs::Dtype::float64;
  auto e = make_ensemble("stable", "{alpha: 1.5, beta: 0.5}", dtype, 16, 1 << 16, path);
  std::vector<double> out(16 << 16);
  for (auto _ : state) {
    e->generator->generate(0, 16, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * (16 << 16));
  state.counters["threads"] = threads_of(state);
  state.counters["lanes"] = lanes;
}
BENCHMARK(BM_GpusynthStable)
    ->ArgsProduct({{32, 64}, {1, 0}, {1, 0, 2}})
    ->ArgNames({"float", "threads", "lanes"})
    ->UseRealTime();
BENCHMARK(BM_GpusynthStable)
    ->ArgsProduct({{32, 64}, {1}, {3, 4}})
    ->ArgNames({"float", "threads", "lanes"})
    ->UseRealTime();

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
  const gs::ExecutionContext path = path_of(state.range(2));
  const int lanes = gs::lane_count(path.lanes_in_use());
  auto e = make_ensemble("lfsn", "{alpha: 1.5, beta: 0.5, H: 0.8, m: 16, K: 256}", gs::Dtype::float32, 8, 4096, path);
  std::vector<float> out(8 * 4096);
  for (auto _ : state) {
    e->generator->generate(0, 8, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * 8 * 4096);
  state.counters["threads"] = threads_of(state);
  state.counters["lanes"] = lanes;
}
BENCHMARK(BM_GpusynthLfsn)->ArgsProduct({{32}, {1, 0}, {1}})->ArgNames({"float", "threads", "lanes"})->UseRealTime();
BENCHMARK(BM_GpusynthLfsn)
    ->ArgsProduct({{32}, {1}, {0, 2, 3, 4}})
    ->ArgNames({"float", "threads", "lanes"})
    ->UseRealTime();

// Long LFSN rows (the issue-41 shape, 65536 bins: forward FFT of 1,053,696, fold, inverse of 65,856),
// one thread, the CPU's widest lanes: where the spectrum fold's reads matter.
void BM_GpusynthLfsnLong(benchmark::State& state) {
  omp_set_num_threads(1);
  const gs::ExecutionContext path = path_of(1);
  constexpr std::uint64_t replicas = 4, length = 1 << 16;
  auto e = make_ensemble("lfsn", "{alpha: 1.5, beta: 0.5, H: 0.8, m: 16, K: 256}", gs::Dtype::float32, replicas,
                         length, path);
  std::vector<float> out(replicas * length);
  for (auto _ : state) {
    e->generator->generate(0, replicas, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * replicas * length));
}
BENCHMARK(BM_GpusynthLfsnLong)->UseRealTime()->Unit(benchmark::kMillisecond);

// Issue 41, goal 3: a spectral model's generation per replica against the
// limit, the bare FFTW transforms of the same sizes (one replica at a time, as
// the backend runs them, in double): c2r of length M for fgn (circulant
// embedding), r2c of L plus c2r of M for lfsn (convolution). The bare
// transforms run FFTW_MEASURE's plans (those the wisdom made here holds) and
// FFTW_ESTIMATE's (planned with no wisdom loaded, as gpusynth does without
// wisdom); gpusynth runs with that wisdom (argument wisdom 1) or without
// (0). One thread, the widest lanes; the three timed in turn in every
// iteration, so their ratios come from the same moments of a shared machine.
// Time per iteration: gpusynth's; counters: µs per replica of each, and
// gpusynth over the bare MEASURE and ESTIMATE transforms.
class BareFftw {
 public:
  BareFftw(std::uint64_t fft_length, std::uint64_t inverse_length, bool forward, unsigned flags)
      : real_(fftw_alloc_real(fft_length)), spectrum_(fftw_alloc_complex(fft_length / 2 + 1)) {
    if (forward) forward_ = fftw_plan_dft_r2c_1d(static_cast<int>(fft_length), real_, spectrum_, flags);
    inverse_ = fftw_plan_dft_c2r_1d(static_cast<int>(inverse_length), spectrum_, real_, flags);
    // Zeros after planning (MEASURE writes into the arrays): the c2r destroys
    // its input and the r2c reads the c2r's output, and only zeros stay bounded
    // through repeated round trips; an FFT's time does not depend on the values.
    std::fill(real_, real_ + fft_length, 0.0);
    std::fill(&spectrum_[0][0], &spectrum_[0][0] + 2 * (fft_length / 2 + 1), 0.0);
  }
  ~BareFftw() {
    if (forward_) fftw_destroy_plan(forward_);
    fftw_destroy_plan(inverse_);
    fftw_free(real_);
    fftw_free(spectrum_);
  }
  BareFftw(const BareFftw&) = delete;
  BareFftw& operator=(const BareFftw&) = delete;

  // One replica's transforms.
  void replica() {
    if (forward_) fftw_execute(forward_);
    fftw_execute(inverse_);
  }

 private:
  double* real_;
  fftw_complex* spectrum_;
  fftw_plan forward_ = nullptr, inverse_ = nullptr;
};

void BM_SpectralAgainstBareFftw(benchmark::State& state) {
  omp_set_num_threads(1);
  const bool lfsn = state.range(0) == 1;
  const auto length = static_cast<std::uint64_t>(state.range(1));
  const std::uint64_t replicas = length <= 4096 ? 64 : 4;
  const std::int64_t lanes = state.range(2);  // path_of's 1 (accurate), 2 (precision fast) or 3 (AVX2)
  const bool with_wisdom = state.range(3) == 1;
  const auto ensemble = [&](const gs::ExecutionContext& context) {
    return lfsn ? make_ensemble("lfsn", "{alpha: 1.5, beta: 0.5, H: 0.8, m: 16, K: 256}", gs::Dtype::float32, replicas,
                                length, context)
                : make_ensemble("fgn", "{H: 0.8}", gs::Dtype::float64, replicas, length, context);
  };
  gs::ExecutionContext context = path_of(lanes);
  auto e = ensemble(context);
  const gs::SpectralPlan plan = *e->job.generation.spectral;  // a copy: e may be made again below
  const std::string wisdom = gs::measure_fft_wisdom(gs::fft_problems(plan), "", false);
  if (with_wisdom) {
    context.fft_wisdom = std::make_shared<const gs::FftWisdom>(gs::FftWisdom{"bench", wisdom, ""});
    e = ensemble(context);
  }
  fftw_forget_wisdom();
  BareFftw estimate(plan.fft_length, plan.inverse_length, lfsn, FFTW_ESTIMATE);
  fftw_import_wisdom_from_string(wisdom.c_str());  // the plans gpusynth's wisdom holds
  BareFftw measure(plan.fft_length, plan.inverse_length, lfsn, FFTW_MEASURE);
  fftw_forget_wisdom();
  std::vector<double> out(replicas * length);  // float32 rows fit in it too
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  double generation = 0, bare_measure = 0, bare_estimate = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    e->generator->generate(0, replicas, out.data());
    benchmark::DoNotOptimize(out.data());
    const auto t1 = Clock::now();
    for (std::uint64_t r = 0; r < replicas; ++r) measure.replica();
    const auto t2 = Clock::now();
    for (std::uint64_t r = 0; r < replicas; ++r) estimate.replica();
    const auto t3 = Clock::now();
    generation += seconds(t0, t1);
    bare_measure += seconds(t1, t2);
    bare_estimate += seconds(t2, t3);
    state.SetIterationTime(seconds(t0, t1));
  }
  const double per_replica = 1e6 / static_cast<double>(state.iterations() * replicas);
  state.counters["gpusynth_us"] = generation * per_replica;
  state.counters["fftw_measure_us"] = bare_measure * per_replica;
  state.counters["fftw_estimate_us"] = bare_estimate * per_replica;
  state.counters["x_measure"] = generation / bare_measure;
  state.counters["x_estimate"] = generation / bare_estimate;
  state.SetLabel(fmt::format("{} {} bins{}{}: L {}, M {}", lfsn ? "lfsn float32" : "fgn float64", length,
                             lanes == 2   ? ", precision fast"
                             : lanes == 3 ? ", AVX2 lanes"
                                          : "",
                             with_wisdom ? ", FFTW wisdom" : "", plan.fft_length, plan.inverse_length));
}
BENCHMARK(BM_SpectralAgainstBareFftw)
    ->ArgsProduct({{0, 1}, {4096, 65536}, {1, 2, 3}, {0, 1}})
    ->ArgNames({"lfsn", "length", "lanes", "wisdom"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// The spectral models' last step alone (FilteredStoreKernel: the inverse
// transform's values + location, v·x + δ, saturated and stored) on one row of
// 65536 values, by the scalar path (lanes 0) and by packs (1: AVX-512, 3:
// AVX2), to float32 (32) or float64 (64): CPU time per value.
void BM_SpectralStore(benchmark::State& state) {
  const gs::CpuLaneForm form = gs::cpu_lane_form(path_of(state.range(1)).lanes_in_use(), gs::MathPrecision::accurate);
  constexpr std::uint64_t length = 1 << 16;
  std::vector<double> row(length + 7);
  for (std::size_t t = 0; t < row.size(); ++t) row[t] = std::sin(0.001 * static_cast<double>(t)) * 1e3;
  const auto store = [&](auto* out) {
    gs::FilteredStoreKernel<std::remove_pointer_t<decltype(out)>> kernel;
    kernel.decimated = row.data();
    kernel.row_stride = row.size();
    kernel.offset = 7;
    kernel.length = length;
    kernel.location = 0.5;
    kernel.map.v = 3.0;
    kernel.map.delta = 1.0;
    kernel.out = out;
    for (auto _ : state) {
      gs::serial_for_each(kernel, form);
      benchmark::DoNotOptimize(out);
    }
  };
  std::vector<float> single(length);
  std::vector<double> twice(length);
  if (state.range(0) == 32)
    store(single.data());
  else
    store(twice.data());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(length));
}
BENCHMARK(BM_SpectralStore)->ArgsProduct({{32, 64}, {0, 1, 3}})->ArgNames({"bits", "lanes"});

// The comparison models, replicas × length values per second: 16 replicas of
// 65536 values (float64), the shapes bench/bench_models_numpy.py times with
// numpy and a Python loop in the same run (bench/bench_models.sh).
struct ComparisonModel {
  const char* model;
  const char* params;
  const char* label;
};
const ComparisonModel kComparisonModels[] = {
    {"fgn", "{H: 0.8}", "fgn"},
    {"fbm", "{H: 0.8}", "fbm"},
    {"farima", "{d: 0.3, ar: [0.5], ma: [0.2]}", "farima gaussian"},
    {"farima", "{d: 0.2, innovations: stable, alpha: 1.5, beta: 0.5}", "farima stable"},
    {"normal", "{}", "normal"},
    {"markov",
     "{levels: [20, 100, 400], transition: [[0.90, 0.09, 0.01], [0.05, 0.90, 0.05], [0.02, 0.28, 0.70]], "
     "noise: [5, 15, 60]}",
     "markov"},
    {"hmm",
     "{generator: [[-0.5, 0.4, 0.1], [0.2, -0.3, 0.1], [1.0, 2.0, -3.0]], mu: [0, 1, 3], sigma: [0.1, 0.25, 0.5]}",
     "hmm"},
    {"onoff", "{sources: 50, alpha_on: 1.4, alpha_off: 2.5, mean_on: 10, mean_off: 10}", "onoff (50 sources)"},
};

void BM_GpusynthModel(benchmark::State& state) {
  omp_set_num_threads(threads_of(state));
  const gs::ExecutionContext path = path_of(state.range(2));
  const int lanes = gs::lane_count(path.lanes_in_use());
  const ComparisonModel& model = kComparisonModels[state.range(0)];
  constexpr std::uint64_t replicas = 16, length = 1 << 16;
  auto e = make_ensemble(model.model, model.params, gs::Dtype::float64, replicas, length, path);
  std::vector<double> out(replicas * length);
  for (auto _ : state) {
    e->generator->generate(0, replicas, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(replicas * length));
  state.SetLabel(model.label);
  state.counters["threads"] = threads_of(state);
  state.counters["lanes"] = lanes;
}
BENCHMARK(BM_GpusynthModel)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0}, {1}})
    ->ArgNames({"model", "threads", "lanes"})
    ->UseRealTime();
// The models with lanes, on the scalar path, with precision fast and on AVX2's lanes, one thread.
BENCHMARK(BM_GpusynthModel)
    ->ArgsProduct({{0, 3, 4}, {1}, {0, 2, 3, 4}})
    ->ArgNames({"model", "threads", "lanes"})
    ->UseRealTime();

// The Titan HMM's EM (3 states, log-normal emissions) on n = 10^4 observations:
// seconds per EM iteration (the mixture start included). One distinct Δt
// (regular probes: one Padé and one Van Loan exponential per iteration) and
// every Δt distinct (probe times jittered by U(−0.3, 0.3): the spectral route,
// one eigendecomposition of Q), which bound what real probe traces cost.
void BM_HmmEmIteration(benchmark::State& state) {
  constexpr std::uint64_t n = 10000;
  auto e = make_ensemble("hmm",
                         "{generator: [[-0.05, 0.04, 0.01], [0.05, -0.08, 0.03], [0.05, 0.15, -0.2]], "
                         "mu: [-3.0, -1.5, 0.5], sigma: [0.2, 0.3, 0.5], interval: 1}",
                         gs::Dtype::float64, 1, n);
  std::vector<double> values(n), times(n);
  e->generator->generate(0, 1, values.data());
  gsl_rng* rng = gsl_rng_alloc(gsl_rng_mt19937);
  for (std::uint64_t i = 0; i < n; ++i)
    times[i] = static_cast<double>(i) + (state.range(0) == 1 ? gsl_rng_uniform(rng) * 0.6 - 0.3 : 0.0);
  gsl_rng_free(rng);
  gs::HmmFitOptions options;
  options.starts = 1;
  options.max_iterations = 20;
  options.tolerance = 0;  // never converged: exactly max_iterations iterations
  options.standard_errors = false;
  std::int64_t em_iterations = 0;
  for (auto _ : state) em_iterations += gs::fit_hmm(times, values, options).iterations;
  state.counters["s_per_em_iteration"] =
      benchmark::Counter(static_cast<double>(em_iterations), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["distinct_dt"] = state.range(0) == 1 ? n - 1 : 1;
}
BENCHMARK(BM_HmmEmIteration)->Arg(0)->Arg(1)->ArgName("jittered")->UseRealTime()->Unit(benchmark::kMillisecond);

// One Hurst estimate on the host of a replica as long as a study's real traces
// (7201 bins, cloudphysics per second): what the `hurst` metric costs per
// replica on the CPU backend. Argument: the index in hurst_estimators().
void BM_HurstEstimate(benchmark::State& state) {
  const gs::NamedHurstEstimator& estimator = gs::hurst_estimators()[static_cast<std::size_t>(state.range(0))];
  constexpr std::uint64_t n = 7201;
  auto e = make_ensemble("fgn", "{H: 0.8}", gs::Dtype::float64, 1, n);
  std::vector<double> values(n);
  e->generator->generate(0, 1, values.data());
  for (auto _ : state) benchmark::DoNotOptimize(estimator.estimate(values).H);
  state.SetLabel(estimator.key);
}
BENCHMARK(BM_HurstEstimate)->DenseRange(0, 5)->UseRealTime()->Unit(benchmark::kMicrosecond);

// A study's bootstrap on the host: 2000 resamples of 1000 per-replica values,
// their medians (arg 0) or the paired probabilities against a second set
// (arg 1); bench_cuda times the same on the device.
void BM_Bootstrap(benchmark::State& state) {
  const BootstrapSample sample = bootstrap_sample();
  const std::vector<double>& a = sample.a;
  const std::vector<double>& b = sample.b;
  gs::CpuResampler resampler;
  for (auto _ : state) {
    if (state.range(0) == 0)
      benchmark::DoNotOptimize(resampler.medians(a, 2000, {9, 9}));
    else
      benchmark::DoNotOptimize(resampler.probabilities_below(a, b, 2000, {9, 9}));
  }
  state.SetLabel(state.range(0) == 0 ? "medians" : "P(A < B)");
}
BENCHMARK(BM_Bootstrap)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

// Request-level synthesis (docs/requests.md): one synthetic path drawn from
// a trace's characteristics (file draws), expanded to N processes, timed by a
// counts series and checked for dependency violations; items = requests made.
// Arg 0: the trace (0: mpi-io-test, 18 path requests; 1: dxt.dxt, 8129), arg 1: processes.
void BM_RequestSynthesis(benchmark::State& state) {
  const bool big = state.range(0) == 1;
  const std::string data = GPUSYNTH_TEST_DATA;
  const gs::RequestTrace trace =
      gs::read_request_trace({data + (big ? "/dxt.dxt.txt.gz" : "/mpi-io-test.dxt.txt.gz")}, "dxt", gs::TraceOptions{},
                             data + (big ? "/dxt.parser.txt.gz" : "/mpi-io-test.parser.txt.gz"));
  const gs::TraceCharacterization c = gs::characterize_requests(trace);
  const auto processes = static_cast<std::int32_t>(state.range(1));
  gs::SynthesisOptions options;
  options.key = {1, 2};
  const std::vector<double> counts(4096, 1000.0);
  std::uint32_t replica = 0;
  std::uint64_t made = 0;
  for (auto _ : state) {
    gs::Workload w = gs::synthesize_processes(gs::synthesis_source(c), options, replica++, processes);
    gs::time_by_counts(w, counts, 0.1);
    benchmark::DoNotOptimize(gs::check_dependencies(w).total());
    made += w.table.requests.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(made));
}
BENCHMARK(BM_RequestSynthesis)
    ->Args({0, 10000})
    ->Args({1, 1})
    ->Args({1, 1000})
    ->ArgNames({"dxt_trace", "processes"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The burst analysis of one series of 30 days in 5-minute bins (the shipped
// synthetic system series): as the Monte Carlo runs it on every replica
// (logistic, 24 horizons, fs3-bytes, no intervals, one thread) and as the real
// series gets it (logistic and XGBoost, severity, 1000 bootstrap resamples,
// horizons on the cores). bench/bench_bursts.sh compares the first with
// numpy + scikit-learn.
void BM_BurstAnalysis(benchmark::State& state) {
  const bool real = state.range(0) == 1;
  gs::BurstChannels channels;
  std::ifstream in(std::string(GPUSYNTH_TEST_DATA) + "/system-write-5min.synthetic.counts");
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') channels.bytes.push_back(std::stod(line));
  gs::BurstAnalysisOptions options;
  options.features = gs::FeatureSet::fs3_bytes;
  for (std::size_t h = 1; h <= 24; ++h) options.horizons.push_back(h);
  options.prediction.models = {gs::Predictor::logistic};
  options.prediction.severity = false;
  options.prediction.resamples = 0;
  if (real) {
    if (gs::boosted_trees_available()) options.prediction.models.push_back(gs::Predictor::xgboost);
    options.prediction.severity = true;
    options.prediction.resamples = 1000;
  }
  for (auto _ : state) benchmark::DoNotOptimize(gs::analyse_bursts(channels, options, {}, real).burst_share);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_BurstAnalysis)->Arg(0)->Arg(1)->ArgName("real_series")->UseRealTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  gs::keep_freed_memory_for_reuse();  // as the gpusynth executable does
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("widest_cpu_lanes", gs::to_string(gs::widest_cpu_lanes()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
