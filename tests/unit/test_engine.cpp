// The whole engine through run_command: the HDF5 file round-trips (data and
// attributes), output is identical for the same seed whatever the thread
// count or batch size, and failures leave nothing at the output path.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>

#include "host/app/run.hpp"
#include "host/base/errors.hpp"
#include "host/base/fft.hpp"
#include "host/base/sysinfo.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/plan.hpp"
#include "host/models/model.hpp"
#include "io/hdf5.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

namespace fs = std::filesystem;

const char* kConfig = R"(seed: 1234
backend: cpu
output: ens.h5
ensembles:
  - name: bursty
    model: lfsn
    params: {alpha: 1.4, beta: 0.3, H: 0.75, m: 4, K: 64}
    workload: {v: 2.0, delta: 10.0, values: counts}
    replicas: 37
    length: 500
  - name: marginal
    model: stable
    params: {alpha: 1.7, beta: -0.5, sigma: 2, mu: 1, parameterization: S0}
    replicas: 29
    length: 301
    dtype: float64
)";

struct PreparedRun {
  std::string path;
  RunOptions options;
};

PreparedRun prepare(const test::TempDir& dir, const std::string& text = kConfig) {
  PreparedRun run;
  run.path = dir.path("config.yaml");
  test::write_file(run.path, text);
  run.options.config_path = run.path;
  run.options.output = dir.path("ens.h5");
  run.options.quiet = true;
  return run;
}

std::vector<double> series(const std::string& file, const std::string& name, std::vector<hsize_t>* dims = nullptr) {
  h5::quiet_library_errors();
  const h5::Handle f = h5::open_file_read(file);
  const h5::Handle d = h5::open_dataset(f.id(), "ensembles/" + name + "/series");
  return h5::read_as_double(d.id(), dims);
}

// The one conversion of a floating-point estimate to bytes (memory guards and
// plans, the Python module's budget): the ends clamped, the middle truncated.
TEST(Engine, EstimatedBytesClampAtBothEndsAndTruncateBetween) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(estimated_bytes(nan), UINT64_MAX);
  EXPECT_EQ(estimated_bytes(-5.0), 0u);
  EXPECT_EQ(estimated_bytes(0.5), 0u);
  EXPECT_EQ(estimated_bytes(1.0), 1u);
  EXPECT_EQ(estimated_bytes(4096.7), 4096u);
  EXPECT_EQ(estimated_bytes(1.7e19), std::uint64_t{17000000000000000000u});
  EXPECT_EQ(estimated_bytes(1.8e19), UINT64_MAX);
  EXPECT_EQ(estimated_bytes(inf), UINT64_MAX);
  EXPECT_EQ(format_estimated_bytes(1e30), "16.0 EiB");
  EXPECT_EQ(format_estimated_bytes(0.25), "0 B");
  EXPECT_EQ(format_estimated_bytes(3.0 * 1024 * 1024), "3.0 MiB");
}

TEST(Engine, FileRoundTripsDataAndAttributes) {
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  ASSERT_EQ(run_command(run.options), kExitOk);
  const std::string out = *run.options.output;
  ASSERT_TRUE(fs::exists(out));
  const h5::Handle f = h5::open_file_read(out);
  EXPECT_EQ(h5::read_string_attribute(f.id(), "file_type"), "gpusynth ensembles");
  EXPECT_EQ(h5::read_string_attribute(f.id(), "format_version"), "1.0");
  EXPECT_EQ(h5::read_uint_attribute(f.id(), "seed"), 1234u);
  EXPECT_EQ(h5::read_string_attribute(f.id(), "backend"), "cpu");
  EXPECT_EQ(h5::read_string_attribute(f.id(), "config"), kConfig);
  for (const char* name : {"gpusynth_version", "git_revision", "created_utc", "device", "host", "rng", "description"}) {
    EXPECT_FALSE(h5::read_string_attribute(f.id(), name).empty()) << name;
  }
  const h5::Handle bursty = h5::open_group(f.id(), "ensembles/bursty");
  EXPECT_EQ(h5::read_string_attribute(bursty.id(), "model"), "lfsn");
  EXPECT_EQ(h5::read_string_attribute(bursty.id(), "backend"), "cpu");
  EXPECT_EQ(h5::read_double_attribute(bursty.id(), "alpha"), 1.4);
  EXPECT_EQ(h5::read_double_attribute(bursty.id(), "H"), 0.75);
  EXPECT_EQ(h5::read_int_attribute(bursty.id(), "m"), 4);
  EXPECT_EQ(h5::read_int_attribute(bursty.id(), "K"), 64);
  EXPECT_EQ(h5::read_double_attribute(bursty.id(), "workload_v"), 2.0);
  EXPECT_EQ(h5::read_string_attribute(bursty.id(), "values"), "counts");
  EXPECT_EQ(h5::read_string_attribute(bursty.id(), "storage_type"), "uint32");
  EXPECT_EQ(h5::read_uint_attribute(bursty.id(), "stream"), stream_of_name("bursty"));
  EXPECT_EQ(h5::read_uint_attribute(bursty.id(), "replicas"), 37u);
  EXPECT_TRUE(h5::has_attribute(bursty.id(), "clipped_bins"));
  EXPECT_TRUE(h5::has_attribute(bursty.id(), "marginal_beta"));
  const h5::Handle marginal = h5::open_group(f.id(), "ensembles/marginal");
  EXPECT_EQ(h5::read_string_attribute(marginal.id(), "parameterization"), "S0");
  EXPECT_EQ(h5::read_double_attribute(marginal.id(), "sigma"), 2.0);
  EXPECT_EQ(h5::read_string_attribute(marginal.id(), "storage_type"), "float64");

  // The stored values are exactly what the backend generates for these replicas.
  std::vector<hsize_t> dims;
  const auto stored = series(out, "marginal", &dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{29, 301}));
  RunConfig config = load_config(run.path);
  const RunBackends backends = single_backend(make_cpu_backend(test::context()));
  const RunPlan plan = make_plan(config, backends, std::nullopt);
  std::vector<double> direct(29 * 301);
  backends.main->make_generator(plan.ensembles[1].job, 29)->generate(0, 29, direct.data());
  EXPECT_EQ(stored, direct);
  const auto counts = series(out, "bursty", &dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{37, 500}));
  for (double c : counts) ASSERT_TRUE(c >= 0 && c == std::floor(c));
}

TEST(Engine, SameSeedSameBytesAcrossThreadsAndBatchSizes) {
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  run.options.output = dir.path("one-thread.h5");
  ASSERT_EQ(run_command(run.options), kExitOk);
  omp_set_num_threads(2);
  run.options.output = dir.path("two-threads.h5");
  ASSERT_EQ(run_command(run.options), kExitOk);
  // A budget that forces other batch boundaries: the LFSN workspace of two
  // threads plus room for three replicas (three output copies each).
  RunConfig config = load_config(run.path);
  const RunPlan roomy = make_plan(config, single_backend(make_cpu_backend(test::context())), std::nullopt);
  const std::uint64_t budget = roomy.ensembles[0].need.fixed + 3 * 3 * roomy.ensembles[0].row_bytes;
  const RunPlan small = make_plan(config, single_backend(make_cpu_backend(test::context())), budget);
  EXPECT_GT(small.ensembles[0].batches, 10u);
  EXPECT_GT(small.ensembles[1].batches, 1u);
  run.options.memory_limit = budget;
  run.options.output = dir.path("small-batches.h5");
  ASSERT_EQ(run_command(run.options), kExitOk);
  omp_set_num_threads(threads);
  for (const char* name : {"bursty", "marginal"}) {
    const auto reference = series(dir.path("one-thread.h5"), name);
    EXPECT_EQ(series(dir.path("two-threads.h5"), name), reference) << name;
    EXPECT_EQ(series(dir.path("small-batches.h5"), name), reference) << name;
  }
  run.options.memory_limit.reset();
  run.options.seed = 1235;
  run.options.output = dir.path("other-seed.h5");
  ASSERT_EQ(run_command(run.options), kExitOk);
  EXPECT_NE(series(dir.path("other-seed.h5"), "marginal"), series(dir.path("one-thread.h5"), "marginal"));
}

TEST(Engine, ParallelDeflateReadsBackAsThePipelineWould) {
  // Compressed chunks are made by gpusynth (shuffle + zlib on every core) and
  // stored with H5Dwrite_chunk; HDF5's own filters must decode them.
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  for (const char* level : {"0", "1", "9"}) {
    const std::string text = std::string("compression: ") + level + "\n" + kConfig;
    test::write_file(run.path, text);
    run.options.output = dir.path(std::string("level") + level + ".h5");
    ASSERT_EQ(run_command(run.options), kExitOk);
  }
  for (const char* name : {"bursty", "marginal"}) {
    const auto plain = series(dir.path("level0.h5"), name);
    EXPECT_EQ(series(dir.path("level1.h5"), name), plain) << name;
    EXPECT_EQ(series(dir.path("level9.h5"), name), plain) << name;
  }
  EXPECT_LT(std::filesystem::file_size(dir.path("level9.h5")), std::filesystem::file_size(dir.path("level0.h5")));
}

TEST(Engine, ReplicaOverrideKeepsTheFirstReplicas) {
  // Replica r's values depend only on (seed, stream, r): fewer replicas are a prefix.
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  ASSERT_EQ(run_command(run.options), kExitOk);
  const auto all = series(*run.options.output, "bursty");
  run.options.replicas = 5;
  run.options.output = dir.path("five.h5");
  ASSERT_EQ(run_command(run.options), kExitOk);
  const auto five = series(*run.options.output, "bursty");
  EXPECT_EQ(five, std::vector<double>(all.begin(), all.begin() + 5 * 500));
}

TEST(Engine, DryRunWritesNothing) {
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  run.options.dry_run = true;
  ASSERT_EQ(run_command(run.options), kExitOk);
  EXPECT_FALSE(fs::exists(*run.options.output));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.root()), fs::directory_iterator()), 1);  // the config only
}

TEST(Engine, FailuresLeaveNoFileAtTheOutputPath) {
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  run.options.memory_limit = 1000;  // smaller than one replica
  EXPECT_THROW(run_command(run.options), UserError);
  run.options.memory_limit.reset();
  run.options.output = dir.path("missing-dir/ens.h5");
  try {
    run_command(run.options);
    ADD_FAILURE() << "no error for a missing output directory";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.root()), fs::directory_iterator()), 1);  // no temporaries
}

TEST(Engine, ExistingOutputIsReplacedWhole) {
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  test::write_file(*run.options.output, "not an HDF5 file");
  ASSERT_EQ(run_command(run.options), kExitOk);
  EXPECT_EQ(series(*run.options.output, "marginal").size(), 29u * 301u);
}

// Outputs that are not regular files are refused before any work and left as
// they are; a symlink is followed and stays a link (host/base/output_file.hpp).
TEST(Engine, OnlyRegularFilesAreReplaced) {
  const test::TempDir dir;
  PreparedRun run = prepare(dir);
  const std::string fifo = dir.path("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  fs::create_symlink("fifo", dir.path("link-to-fifo"));
  fs::create_directory(dir.path("folder"));
  for (const auto& [name, kind] :
       {std::pair{"fifo", "a FIFO"}, std::pair{"link-to-fifo", "a FIFO"}, std::pair{"folder", "a directory"}}) {
    run.options.output = dir.path(name);
    try {
      run_command(run.options);
      ADD_FAILURE() << "no error for " << name;
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find(kind), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_TRUE(fs::is_symlink(dir.path("link-to-fifo")));
  fs::create_symlink("results/ens.h5", dir.path("latest.h5"));
  fs::create_directory(dir.path("results"));
  run.options.output = dir.path("latest.h5");
  ASSERT_EQ(run_command(run.options), kExitOk);
  EXPECT_TRUE(fs::is_symlink(dir.path("latest.h5")));
  EXPECT_EQ(series(dir.path("results/ens.h5"), "marginal").size(), 29u * 301u);
}

// The smallest 7-smooth number >= n, against the definition.
TEST(Engine, FftFriendlyLengthIsTheNextSevenSmoothNumber) {
  const auto smooth = [](std::uint64_t n) {
    for (std::uint64_t p : {2, 3, 5, 7})
      while (n % p == 0) n /= p;
    return n == 1;
  };
  std::uint64_t expected = 1;
  for (std::uint64_t n = 1; n <= 100000; ++n) {
    if (expected < n)
      for (expected = n; !smooth(expected);) ++expected;
    ASSERT_EQ(fft_friendly_length(n), expected) << n;
  }
  for (const std::uint64_t n : {(std::uint64_t{1} << 40) + 1, std::uint64_t{999999999989}, std::uint64_t{1} << 61}) {
    const std::uint64_t got = fft_friendly_length(n);
    EXPECT_TRUE(smooth(got)) << n;
    EXPECT_GE(got, n);
    EXPECT_LE(got, n + n / 8) << n;  // 2^a·3^b·5^c·7^d lie closer than 1/8 apart this high
  }
}

TEST(Engine, CountsClipAndTinyAlphaSaturates) {
  const test::TempDir dir;
  PreparedRun run = prepare(dir, R"(output: x.h5
ensembles:
  - name: clipped
    model: stable
    params: {alpha: 1.2}
    workload: {v: 5, delta: 1, values: counts}
    replicas: 10
    length: 1000
  - name: huge
    model: stable
    params: {alpha: 0.05, beta: 0.9}
    replicas: 10
    length: 1000
)");
  ASSERT_EQ(run_command(run.options), kExitOk);
  const h5::Handle f = h5::open_file_read(*run.options.output);
  const h5::Handle clipped = h5::open_group(f.id(), "ensembles/clipped");
  const std::uint64_t n_clipped = h5::read_uint_attribute(clipped.id(), "clipped_bins");
  const auto counts = series(*run.options.output, "clipped");
  EXPECT_GT(n_clipped, 1000u);  // P(5X + 1 < −0.5) ≈ 0.4 for a symmetric law
  EXPECT_EQ(static_cast<std::uint64_t>(std::count(counts.begin(), counts.end(), 0.0)) >= n_clipped, true);
  const h5::Handle huge = h5::open_group(f.id(), "ensembles/huge");
  EXPECT_GT(h5::read_uint_attribute(huge.id(), "saturated_values"), 0u);
  for (double x : series(*run.options.output, "huge")) ASSERT_TRUE(std::isfinite(x) && std::fabs(x) <= 3.40282347e+38);
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// `--backend auto` on a fake device count (no GPU needed): each model on the device unless the host
// generates it faster (hmm: measured on an H100), the host alone when that is every model; the log
// names the host-faster models.
TEST(Engine, AutoChoosesTheBackendPerTheModelsMeasuredSpeed) {
  EXPECT_FALSE(choose_auto_backend({"lfsn"}, 0).device);
  EXPECT_EQ(choose_auto_backend({"lfsn"}, 0).reason, "no CUDA device");
  EXPECT_EQ(choose_auto_backend({"lfsn", "fgn", "onoff"}, 1).on_host, (std::vector<bool>{false, false, false}));
  EXPECT_TRUE(choose_auto_backend({"lfsn", "fgn"}, 1).device);
  const AutoChoice host = choose_auto_backend({"hmm", "hmm"}, 2);
  EXPECT_FALSE(host.device);
  EXPECT_EQ(host.on_host, (std::vector<bool>{true, true}));
  EXPECT_NE(host.reason.find("every model of this run generates faster on the host"), std::string::npos) << host.reason;
  EXPECT_NE(host.reason.find("hmm 0.2x"), std::string::npos) << host.reason;
  // A mixed run: each ensemble where its model is generated faster.
  const AutoChoice mixed = choose_auto_backend({"lfsn", "onoff", "stable", "hmm"}, 1);
  EXPECT_TRUE(mixed.device);
  EXPECT_EQ(mixed.on_host, (std::vector<bool>{false, false, false, true}));
  EXPECT_NE(mixed.reason.find("using cuda; the ensembles of hmm run on the host's threads"), std::string::npos)
      << mixed.reason;
  EXPECT_TRUE(choose_auto_backend({}, 1).device);
  // Every model has a measured speed: a new model is measured before auto decides for it.
  for (const ModelTraits* traits : registered_models())
    EXPECT_TRUE(std::isfinite(measured_device_speedup(traits->name))) << traits->name;
}


// A device that is not there, for plans: kind cuda, 1 MiB of device memory per
// replica and a budget of 64 MiB; it generates nothing.
class PlanOnlyDevice : public BackendDevice {
 public:
  Backend kind() const override { return Backend::cuda; }
  std::string description() const override { return "GPU: none (a plan test's)"; }
  std::uint64_t default_memory_budget() const override { return 64 << 20; }
  MemoryNeed memory_need(const EnsembleJob& /*job*/) const override { return {0, 1 << 20}; }
  HostBuffer host_buffer(std::size_t /*bytes*/) const override { throw std::logic_error("plan only"); }
  std::unique_ptr<EnsembleGenerator> make_generator(const EnsembleJob& /*job*/, std::uint64_t /*batch*/) override {
    throw std::logic_error("plan only");
  }
  std::unique_ptr<Resampler> make_resampler() const override { throw std::logic_error("plan only"); }
};

// Under auto with a device, the ensembles of models the host generates faster
// are planned (and run) on the host's backend: their workspace counted in host
// memory, the others' on the device; the plan and the file say which.
TEST(Engine, AMixedRunPlansEachEnsembleOnItsBackend) {
  const test::TempDir dir;
  const std::string path = dir.path("mixed.yaml");
  test::write_file(path, R"(seed: 5
output: mixed.h5
ensembles:
  - {name: bursty, model: lfsn, params: {alpha: 1.4, beta: 0.3, H: 0.75, m: 4, K: 64}, replicas: 40, length: 500}
  - name: latency
    model: hmm
    params: {generator: [[-0.02, 0.02], [0.05, -0.05]], emission: lognormal, mu: [-3, 0], sigma: [0.2, 0.8],
             interval: 60}
    replicas: 40
    length: 300
)");
  const RunConfig config = load_config(path);
  const AutoChoice chosen = choose_auto_backend({"lfsn", "hmm"}, 1);
  RunBackends backends = single_backend(std::make_unique<PlanOnlyDevice>());
  backends.host = make_cpu_backend(test::context());
  backends.on_host = chosen.on_host;
  EXPECT_EQ(&backends.of(0), backends.main.get());
  EXPECT_EQ(&backends.of(1), backends.host.get());
  const RunPlan plan = make_plan(config, backends, std::nullopt);
  EXPECT_EQ(plan.backend, Backend::cuda);
  ASSERT_EQ(plan.ensembles.size(), 2u);
  EXPECT_EQ(plan.ensembles[0].backend, Backend::cuda);
  EXPECT_EQ(plan.ensembles[1].backend, Backend::cpu);
  // Three output copies a replica (compressed output). The device ensemble's workspace is the fake device's
  // 1 MiB a replica, outside host memory; the host ensemble's is the CPU backend's, inside it.
  EXPECT_EQ(plan.ensembles[0].need.per_replica, 1u << 20);
  EXPECT_EQ(plan.ensembles[0].host_bytes, 3 * plan.ensembles[0].batch_replicas * plan.ensembles[0].row_bytes);
  EXPECT_EQ(plan.ensembles[1].need.per_replica, backends.host->memory_need(plan.ensembles[1].job).per_replica);
  EXPECT_EQ(plan.ensembles[1].host_bytes,
            3 * plan.ensembles[1].batch_replicas * plan.ensembles[1].row_bytes + plan.ensembles[1].backend_bytes);
  EXPECT_NE(plan.device.find("the host's ensembles: CPU"), std::string::npos) << plan.device;
  // The host ensemble's batches and chunks are those of a run on the host alone.
  const RunPlan host_alone = make_plan(config, single_backend(make_cpu_backend(test::context())), std::nullopt);
  EXPECT_EQ(plan.ensembles[1].batch_replicas, host_alone.ensembles[1].batch_replicas);
  EXPECT_EQ(plan.ensembles[1].chunk.rows, host_alone.ensembles[1].chunk.rows);
  EXPECT_EQ(plan.ensembles[1].backend_bytes, host_alone.ensembles[1].backend_bytes);
  const std::string text = format_plan(plan, config);
  EXPECT_NE(text.find("generated by backend cpu (its threads generate hmm faster)"), std::string::npos) << text;
  EXPECT_EQ(text.find("its threads generate lfsn"), std::string::npos) << text;
}

}  // namespace
}  // namespace gs
