#include "test_support.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "host/engine/backend.hpp"
#include "host/engine/cpu/lanes.hpp"
#include "kernels/philox.hpp"

namespace gs::test {

std::string data_path(const std::string& name) {
  const char* moved = std::getenv("GPUSYNTH_TEST_DATA");  // when the test binary runs away from its source tree
  return std::string(moved ? moved : GPUSYNTH_TEST_DATA) + "/" + name;
}

std::size_t Table::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  throw std::runtime_error("no column " + name);
}

Table read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  Table table;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, ',')) fields.push_back(field);
    if (table.header.empty()) {
      table.header = fields;
    } else {
      table.rows.push_back(fields);
    }
  }
  return table;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gpusynth-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  root_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

std::string TempDir::path(const std::string& name) const { return root_ + "/" + name; }

template <class Real>
std::vector<double> draw_stable(const StableLawParams& law, std::size_t n, std::uint64_t seed, std::uint32_t stream) {
  StablePairsKernel<Real, double> kernel;
  kernel.draws.law = make_stable_sampler<Real>(law);
  kernel.key = RngStreamKey{seed, stream};
  kernel.length = n;
  kernel.pairs_per_row = (n + 1) / 2;
  std::vector<double> out(n);
  kernel.out = out.data();
  cpu_for_each(1, kernel, context().lane_form());  // the test context's lanes (ScopedCpuLanes)
  return out;
}

namespace {
ExecutionContext test_context;
}  // namespace

const ExecutionContext& context() { return test_context; }

ScopedCpuLanes::ScopedCpuLanes(CpuLanes lanes) : before_(test_context.lanes) {
  lanes_ = supported_cpu_lanes(lanes);
  test_context.lanes = lanes_;
}
ScopedCpuLanes::ScopedCpuLanes(bool on) : ScopedCpuLanes(on ? CpuLanes::avx512 : CpuLanes::none) {}
ScopedCpuLanes::~ScopedCpuLanes() { test_context.lanes = before_; }

void add_cdf_deviations(const std::vector<double>& values, std::vector<std::pair<double, double>> points,
                        const std::string& law, CdfDeviation& deviation) {
  std::sort(points.begin(), points.end());
  std::vector<double> xs(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) xs[i] = points[i].first;
  std::vector<std::size_t> below(points.size() + 1, 0);  // below[k]: values in [x_{k−1}, x_k)
#pragma omp parallel
  {
    std::vector<std::size_t> mine(below.size(), 0);
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(values.size()); ++i)
      ++mine[static_cast<std::size_t>(std::upper_bound(xs.begin(), xs.end(), values[static_cast<std::size_t>(i)]) -
                                      xs.begin())];
#pragma omp critical
    for (std::size_t k = 0; k < below.size(); ++k) below[k] += mine[k];
  }
  std::size_t cumulative = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    cumulative += below[k];
    const double empirical = static_cast<double>(cumulative) / static_cast<double>(values.size());
    deviation.add(cdf_z_score(empirical, points[k].second, values.size()),
                  fmt::format("{} x={} p={}", law, points[k].first, points[k].second));
  }
}

std::map<std::pair<double, double>, std::vector<std::pair<double, double>>> nolan_s0_quantiles() {
  const auto table = read_csv(data_path("stable_quantiles_S0_tails.csv"));
  const auto ia = table.column("alpha"), ib = table.column("beta"), ip = table.column("p"), ix = table.column("x");
  std::map<std::pair<double, double>, std::vector<std::pair<double, double>>> groups;
  for (const auto& row : table.rows) {
    const double alpha = std::stod(row[ia]), beta = std::stod(row[ib]), p = std::stod(row[ip]), x = std::stod(row[ix]);
    if (beta == 0.0 || beta == 0.5 || beta == 1.0) groups[{alpha, beta}].push_back({x, p});
    if (beta == 1.0) groups[{alpha, -1.0}].push_back({-x, 1 - p});
  }
  return groups;
}

std::vector<std::pair<double, double>> normal_quantile_points(double sd) {
  std::vector<std::pair<double, double>> points;
  const boost::math::normal_distribution<double> normal(0.0, sd);
  // The groups held here: a range-for over nolan_s0_quantiles().begin()->second would read the map after
  // its temporary is gone (only a temporary bound directly to the range lives through the loop).
  const auto groups = nolan_s0_quantiles();
  for (const auto& point : groups.begin()->second) points.push_back({quantile(normal, point.second), point.second});
  return points;
}

ScopedMathPrecision::ScopedMathPrecision(MathPrecision precision) : before_(test_context.precision) {
  test_context.precision = precision;
}
ScopedMathPrecision::~ScopedMathPrecision() { test_context.precision = before_; }

template std::vector<double> draw_stable<float>(const StableLawParams&, std::size_t, std::uint64_t, std::uint32_t);
template std::vector<double> draw_stable<double>(const StableLawParams&, std::size_t, std::uint64_t, std::uint32_t);

double cdf_z_score(double empirical, double p, std::size_t n) {
  const double variance = p * (1 - p) / static_cast<double>(n);
  return variance > 0 ? (empirical - p) / std::sqrt(variance) : (empirical == p ? 0.0 : INFINITY);
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

std::vector<std::pair<double, double>> nolan_points(double alpha, double beta) {
  const auto table = read_csv(data_path("stable_cdf_S1.csv"));
  std::vector<std::pair<double, double>> points;
  for (const auto& row : table.rows) {
    if (std::fabs(std::stod(row[0]) - alpha) < 1e-9 && std::fabs(std::stod(row[1]) - beta) < 1e-9) {
      points.push_back({std::stod(row[3]), std::stod(row[4])});
    }
  }
  return points;
}

EnsembleSpec ensemble(const std::string& model, const std::string& params, std::uint64_t replicas, std::uint64_t length,
                      Dtype dtype, std::uint32_t stream) {
  EnsembleSpec spec;
  spec.name = "test-ensemble";
  spec.model = make_model(model, params);
  spec.replicas = replicas;
  spec.length = length;
  spec.dtype = dtype;
  spec.stream = stream;
  spec.stream_given = true;
  return spec;
}

EnsembleJob job(const EnsembleSpec& spec, std::uint64_t seed) { return make_job(spec, seed); }

std::vector<double> generate_float64(const EnsembleSpec& spec, std::uint64_t seed) {
  const EnsembleJob job = make_job(spec, seed);
  std::vector<double> values(spec.replicas * spec.length);
  make_cpu_backend(context())->make_generator(job, spec.replicas)->generate(0, spec.replicas, values.data());
  return values;
}

std::vector<double> generate_float64(const std::string& model, const std::string& params, std::uint64_t replicas,
                                     std::uint64_t length, std::uint64_t seed, std::uint32_t stream) {
  return generate_float64(ensemble(model, params, replicas, length, Dtype::float64, stream), seed);
}

double number_attribute(const std::vector<Attribute>& attributes, const std::string& name) {
  for (const auto& a : attributes) {
    if (a.name == name) return std::get<double>(a.value);
  }
  ADD_FAILURE() << "no attribute " << name;
  return NAN;
}

Estimate across_replicas(const std::vector<double>& per_replica) {
  const double n = static_cast<double>(per_replica.size());
  const double mean = std::accumulate(per_replica.begin(), per_replica.end(), 0.0) / n;
  double ss = 0;
  for (double x : per_replica) ss += (x - mean) * (x - mean);
  return {mean, std::sqrt(ss / (n - 1) / n)};
}

std::vector<Estimate> autocovariances(const std::vector<double>& values, std::uint64_t replicas, std::uint64_t length,
                                      std::uint64_t max_lag, double mean) {
  std::vector<Estimate> out;
  for (std::uint64_t k = 0; k <= max_lag; ++k) {
    std::vector<double> per_replica(replicas);
    for (std::uint64_t r = 0; r < replicas; ++r) {
      const double* x = values.data() + r * length;
      double sum = 0;
      for (std::uint64_t t = 0; t + k < length; ++t) sum += (x[t] - mean) * (x[t + k] - mean);
      per_replica[r] = sum / static_cast<double>(length - k);
    }
    out.push_back(across_replicas(per_replica));
  }
  return out;
}

void expect_counts_fit(const std::vector<double>& observed, const std::vector<double>& expected, const char* what) {
  double chi2 = 0;
  int cells = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    if (expected[i] == 0) {
      EXPECT_EQ(observed[i], 0.0) << what << " cell " << i;
      continue;
    }
    chi2 += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
    ++cells;
  }
  const boost::math::chi_squared law(cells - 1);
  EXPECT_LT(chi2, boost::math::quantile(law, 1 - 1e-5))
      << what << ": chi-square " << chi2 << " on " << cells - 1 << " degrees of freedom";
}

double fgn_autocovariance_reference(double H, double sigma, long k) {
  const long double kk = k, h2 = 2.0L * H;
  if (k < 1000) {
    auto p = [h2](long double x) { return std::pow(std::fabs(x), h2); };
    return static_cast<double>(sigma * sigma * 0.5L * (p(kk + 1) - 2 * p(kk) + p(kk - 1)));
  }
  long double sum = 0, binomial = 1;  // C(2H, i), built term by term
  for (int i = 1; i <= 12; ++i) {
    binomial *= (h2 - (i - 1)) / i;
    if (i % 2 == 0) sum += binomial * std::pow(kk, -static_cast<long double>(i));
  }
  return static_cast<double>(sigma * sigma * std::pow(kk, h2) * sum);
}

}  // namespace gs::test
