#include "test_support.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "host/backend.hpp"
#include "host/spectral.hpp"
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
  const StableSampler<Real> sampler = make_stable_sampler<Real>(law);
  const RngStreamKey key{seed, stream};
  std::vector<double> out(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t j = 0; j < static_cast<std::int64_t>((n + 1) / 2); ++j) {
    const PhiloxBits bits = philox_bits(key, 0, static_cast<std::uint64_t>(j), 0);
    const std::size_t i = 2 * static_cast<std::size_t>(j);
    out[i] = static_cast<double>(sampler(bits[0], bits[1]));
    if (i + 1 < n) out[i + 1] = static_cast<double>(sampler(bits[2], bits[3]));
  }
  return out;
}

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

std::vector<double> generate_float64(const ModelParams& params, std::uint64_t replicas, std::uint64_t length,
                                     std::uint64_t seed, std::uint32_t stream) {
  EnsembleSpec spec;
  spec.name = "test-ensemble";
  spec.params = params;
  spec.replicas = replicas;
  spec.length = length;
  spec.dtype = Dtype::float64;
  spec.stream = stream;
  EnsembleJob job;
  job.spec = &spec;
  job.key = RngStreamKey{seed, stream};
  job.storage = StorageType::float64;
  job.spectral = make_spectral_plan(params, length);
  std::vector<double> values(replicas * length);
  make_cpu_backend()->make_generator(job, replicas)->generate(0, replicas, values.data());
  return values;
}

}  // namespace gs::test
