// Shared helpers of the test suites: reference tables, temporary directories,
// models and ensembles from YAML, generation through the CPU backend, sampling
// the shared kernels directly, and the Monte Carlo bookkeeping (estimates
// with standard errors, binomial z-scores, chi-square fits).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/base/errors.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/config.hpp"
#include "host/engine/cpu/lanes.hpp"
#include "host/models/model.hpp"
#include "kernels/launch.hpp"
#include "kernels/stable.hpp"

namespace gs::test {

std::string data_path(const std::string& name);  // tests/data/<name>, or $GPUSYNTH_TEST_DATA/<name>

// The message of the UserError `call` throws ("" when none).
template <class Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

// Rows of a CSV whose lines starting with '#' are comments and whose first
// other line is the header; columns by name.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::size_t column(const std::string& name) const;
};
Table read_csv(const std::string& path);

// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path(const std::string& name) const;
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

// n draws of the law by the stable model's kernel on the CPU (its lanes where
// in use), in the compute type Real: replica 0 of stream `stream`, bins 2j and
// 2j + 1 from the Philox call at position j. Values beyond double saturate.
template <class Real>
std::vector<double> draw_stable(const StableLawParams& law, std::size_t n, std::uint64_t seed, std::uint32_t stream);

// The execution context (host/engine/context.hpp) the helpers here and the
// tests hand to the engine: the widest lanes and precision accurate, unless a
// ScopedCpuLanes or ScopedMathPrecision below changes it for a while. Tests
// only: the engine itself has no such process-wide context.
const ExecutionContext& context();

// The test context's lanes on (the widest, or at most `lanes`) or off while
// in scope; `on()`: whether they are on (false where the CPU has none),
// `lanes()`: which.
class ScopedCpuLanes {
 public:
  explicit ScopedCpuLanes(bool on);
  explicit ScopedCpuLanes(CpuLanes lanes);
  ~ScopedCpuLanes();
  ScopedCpuLanes(const ScopedCpuLanes&) = delete;
  ScopedCpuLanes& operator=(const ScopedCpuLanes&) = delete;
  bool on() const { return lanes_ != CpuLanes::none; }
  CpuLanes lanes() const { return lanes_; }

 private:
  CpuLanes before_, lanes_;
};

// The binomial z-scores of empirical CDFs at reference points: the largest |z|
// (and where) and their mean square.
struct CdfDeviation {
  double max_abs_z = 0;
  double sum_z2 = 0;
  std::size_t points = 0;
  std::string worst;  // the point of the largest |z|

  void add(double z, const std::string& where) {
    if (std::fabs(z) > max_abs_z) max_abs_z = std::fabs(z), worst = where;
    sum_z2 += z * z;
    ++points;
  }
  double mean_z2() const { return points ? sum_z2 / static_cast<double>(points) : 0.0; }
};

// Adds the z-scores of the empirical CDF of `values` at the (x, p) points,
// named `law` in `worst` (by counting: one binary search per value).
void add_cdf_deviations(const std::vector<double>& values, std::vector<std::pair<double, double>> points,
                        const std::string& law, CdfDeviation& deviation);

// Nolan's S0 quantiles (x, p), p from 1e-5 to 1 − 1e-5, grouped by (α, β) for
// β ∈ {0, 0.5, 1} and β = −1 by the table's symmetry: 8 α × 4 β.
std::map<std::pair<double, double>, std::vector<std::pair<double, double>>> nolan_s0_quantiles();

// The quantiles (x, p) of N(0, sd²) at the p of Nolan's S0 table.
std::vector<std::pair<double, double>> normal_quantile_points(double sd);

// The test context's math precision (host/engine/precision.hpp) while in scope.
class ScopedMathPrecision {
 public:
  explicit ScopedMathPrecision(MathPrecision precision);
  ~ScopedMathPrecision();
  ScopedMathPrecision(const ScopedMathPrecision&) = delete;
  ScopedMathPrecision& operator=(const ScopedMathPrecision&) = delete;

 private:
  MathPrecision before_;
};

// Runs `check` on the CPU's scalar path and, where the CPU has them, on its
// lanes, with the path named in failures.
template <class Check>
void on_each_cpu_path(const Check& check) {
  for (bool lanes : {false, true}) {
    ScopedCpuLanes path(lanes);
    if (lanes && !path.on()) {
      std::printf("note: this CPU has no lanes (AVX2 and FMA); only the scalar path was checked\n");
      continue;
    }
    SCOPED_TRACE(lanes ? std::string("CPU path: ") + to_string(path.lanes()) + " lanes" : "CPU path: scalar");
    check();
  }
}

// A law's values on chosen words by the CPU path in use (one word pair at a time).
template <class Real>
struct OnCpuPath {
  StableSampler<Real> law;
  Real operator()(std::uint32_t kv, std::uint32_t kw) const {
    Real z;
    if (stable_by_lanes(context().lanes, context().precision, law, &kv, &kw, 1, &z)) return z;
    return law(kv, kw);
  }
};
template <class Real>
OnCpuPath<Real> on_cpu_path(const StableSampler<Real>& law) {
  return {law};
}

// (F_n(x) − p) / sqrt(p(1 − p)/n): the binomial z-score of an empirical CDF.
double cdf_z_score(double empirical, double p, std::size_t n);

void write_file(const std::string& path, const std::string& text);

// Nolan's (x, cdf) points for one (α, β) of the S1 table.
std::vector<std::pair<double, double>> nolan_points(double alpha, double beta);

// An ensemble of `model` with `params` (YAML flow map, as under `params:`):
// float64 values by default, stream 5.
EnsembleSpec ensemble(const std::string& model, const std::string& params, std::uint64_t replicas, std::uint64_t length,
                      Dtype dtype = Dtype::float64, std::uint32_t stream = 5);
// Its job with the seed.
EnsembleJob job(const EnsembleSpec& spec, std::uint64_t seed);
// replicas × length values through the CPU backend (float64 ensembles).
std::vector<double> generate_float64(const EnsembleSpec& spec, std::uint64_t seed);
std::vector<double> generate_float64(const std::string& model, const std::string& params, std::uint64_t replicas,
                                     std::uint64_t length, std::uint64_t seed, std::uint32_t stream = 5);
// An attribute of a generation or a model's description (a number).
double number_attribute(const std::vector<Attribute>& attributes, const std::string& name);

// The typed direct kernel of a job (its model's), e.g. to point it at a
// hidden-state buffer; fails the test when the type differs.
template <class Kernel>
Kernel direct_kernel(const EnsembleJob& job) {
  const Kernel* kernel = job.generation.direct ? job.generation.direct->as<Kernel>() : nullptr;
  if (!kernel) throw std::runtime_error("the job has no direct kernel of the expected type");
  return *kernel;
}

// Runs a chain kernel (markov, hmm) over `replicas` replicas on the CPU with
// its hidden-state output: the values and the states.
template <class Kernel>
std::pair<std::vector<double>, std::vector<std::uint8_t>> run_chain(Kernel kernel, std::uint64_t replicas) {
  std::vector<double> values(replicas * kernel.length);
  std::vector<std::uint8_t> states(values.size());
  kernel.out = values.data();
  kernel.hidden = states.data();
  kernel.first_replica = 0;
  cpu_for_each(replicas, kernel, context().lane_form());
  return {values, states};
}

// The mean and standard error of per-replica statistics.
struct Estimate {
  double mean = 0, se = 0;
};
Estimate across_replicas(const std::vector<double>& per_replica);

// Unbiased sample autocovariances (known mean `mean`) at lags 0..max_lag,
// one estimate per replica.
std::vector<Estimate> autocovariances(const std::vector<double>& values, std::uint64_t replicas, std::uint64_t length,
                                      std::uint64_t max_lag, double mean = 0);

// Pearson's chi-square of observed counts against expected ones (cells with
// positive expectation) below its 1 − 1e-5 quantile; cells of zero
// expectation must be empty.
void expect_counts_fit(const std::vector<double>& observed, const std::vector<double>& expected, const char* what);

// The fGn autocovariance σ²/2 (|k+1|^{2H} − 2|k|^{2H} + |k−1|^{2H}) from its
// definition in long double; beyond lag 1000, where the difference cancels,
// from its binomial series γ(k) = k^{2H} Σ_{j≥1} C(2H, 2j) k^{−2j}.
double fgn_autocovariance_reference(double H, double sigma, long k);

}  // namespace gs::test

// Skips a GPU test, saying why, on a machine without a usable CUDA device.
#define GS_REQUIRE_CUDA_DEVICE()                                                       \
  do {                                                                                 \
    std::string why;                                                                   \
    if (::gs::cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why; \
  } while (0)
