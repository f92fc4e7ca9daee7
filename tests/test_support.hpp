// Shared helpers of the test suites: reference tables, temporary directories,
// sampling the shared kernels directly, and z-scores for CDF comparisons.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/backend.hpp"
#include "host/models.hpp"
#include "kernels/stable.hpp"

namespace gs::test {

std::string data_path(const std::string& name);  // tests/data/<name>, or $GPUSYNTH_TEST_DATA/<name>

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

// n draws of the law through the shared sampler, in the compute type Real,
// using Philox words (replica 0, position i/2) of stream `stream`.
template <class Real>
std::vector<double> draw_stable(const StableLawParams& law, std::size_t n, std::uint64_t seed, std::uint32_t stream);

// (F_n(x) − p) / sqrt(p(1 − p)/n): the binomial z-score of an empirical CDF.
double cdf_z_score(double empirical, double p, std::size_t n);

void write_file(const std::string& path, const std::string& text);

// Nolan's (x, cdf) points for one (α, β) of the S1 table.
std::vector<std::pair<double, double>> nolan_points(double alpha, double beta);

// replicas × length float64 values of a model through the CPU backend.
std::vector<double> generate_float64(const ModelParams& params, std::uint64_t replicas, std::uint64_t length,
                                     std::uint64_t seed, std::uint32_t stream = 5);

}  // namespace gs::test

// Skips a GPU test, saying why, on a machine without a usable CUDA device.
#define GS_REQUIRE_CUDA_DEVICE()                                                       \
  do {                                                                                 \
    std::string why;                                                                   \
    if (::gs::cuda_device_count(&why) == 0) GTEST_SKIP() << "no CUDA device: " << why; \
  } while (0)
