// Fidelity of request-level synthesis (docs/requests.md): on the single-process
// DXT traces with hundreds of files, every Table III characteristic of the
// synthetic paths is as close to the original as bootstraps of the original
// are to it (two-sample KS distance: the median over synthetic replicas is at
// most the 95th percentile over bootstraps), and a synthesizer that ignores
// IRG fails the same check.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "host/requests/synthesize.hpp"
#include "io/request_trace.hpp"
#include "kernels/compare.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

constexpr std::uint32_t kReplicas = 21;     // synthetic paths per trace (odd: one median)
constexpr std::uint32_t kBootstraps = 200;  // resamples of the original for the 95th percentile

double ks(std::vector<double> x, std::vector<double> y) {
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return ks_distance_of_sorted(x.data(), x.size(), y.data(), y.size());
}

// Categories as numbers in the original's order (names the original lacks after them).
std::vector<double> as_samples(const Frequencies& f, const Frequencies& order) {
  std::vector<double> out;
  for (std::size_t i = 0; i < f.names.size(); ++i) {
    const auto at = std::find(order.names.begin(), order.names.end(), f.names[i]);
    const double code = static_cast<double>(at - order.names.begin());
    out.insert(out.end(), static_cast<std::size_t>(f.counts[i]), code);
  }
  return out;
}

struct Check {
  std::string name;
  double median_synthetic, bootstrap_95;
};

std::map<std::string, std::vector<double>> samples_of(const ClassCharacteristics& c, const ClassCharacteristics& order) {
  std::map<std::string, std::vector<double>> out;
  for (const char* name : {"inter_session_gap", "inter_request_gap", "session_requests", "file_open_times", "file_size",
                           "offset", "request_size", "sequentiality", "slack_time"})
    out[name] = *numeric_characteristic(c, name);
  out["request_types_in_sessions"] = as_samples(c.types_in_sessions, order.types_in_sessions);
  out["access_mode"] = as_samples(c.access_mode, order.access_mode);
  return out;
}

std::vector<Check> fidelity(const std::string& trace_name, const std::string& counters, const SynthesisOptions& options) {
  const RequestTrace trace =
      read_request_trace({test::data_path(trace_name)}, "dxt", TraceOptions{}, test::data_path(counters));
  const TraceCharacterization c = characterize_requests(trace);
  const ClassCharacteristics& original = c.characteristics.of(FileClass::private_file);
  const auto reference = samples_of(original, original);
  std::map<std::string, std::vector<double>> distances;
  for (std::uint32_t replica = 0; replica < kReplicas; ++replica) {
    const Workload synthetic = synthesize_path(c.path, c.characteristics, options, replica);
    const Characteristics again = characterize_path(synthetic);
    for (const auto& [name, y] : samples_of(again.of(FileClass::private_file), original))
      distances[name].push_back(ks(reference.at(name), y));
  }
  std::vector<Check> checks;
  std::uint64_t state = 12345;
  for (const auto& [name, x] : reference) {
    if (x.size() < 2) continue;
    std::vector<double> boot(kBootstraps);
    for (auto& d : boot) {
      std::vector<double> resample(x.size());
      for (auto& v : resample) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        v = x[(state >> 33) % x.size()];
      }
      d = ks(x, resample);
    }
    std::sort(boot.begin(), boot.end());
    auto& synthetic = distances[name];
    std::sort(synthetic.begin(), synthetic.end());
    checks.push_back({name, synthetic[synthetic.size() / 2], boot[kBootstraps * 95 / 100]});
  }
  return checks;
}

class RequestFidelity : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(RequestFidelity, EveryCharacteristicWithinTheBootstrapSpread) {
  SynthesisOptions options;
  options.key = {2024, 19};
  for (const Check& check : fidelity(GetParam().first, GetParam().second, options)) {
    std::printf("%-28s median KS %.4f, bootstrap 95%% %.4f\n", check.name.c_str(), check.median_synthetic,
                check.bootstrap_95);
    EXPECT_LE(check.median_synthetic, check.bootstrap_95) << check.name;
  }
}

TEST_P(RequestFidelity, IgnoringInterRequestGapsIsCaught) {
  SynthesisOptions options;
  options.key = {2024, 19};
  options.overrides[Characteristic::IRG] = {0.0, 1.0};  // every gap 1: requests of a session back to back
  bool caught = false;
  for (const Check& check : fidelity(GetParam().first, GetParam().second, options))
    if (check.name == "inter_request_gap") {
      std::printf("IRG ignored: median KS %.4f, bootstrap 95%% %.4f\n", check.median_synthetic, check.bootstrap_95);
      caught = check.median_synthetic > check.bootstrap_95;
    }
  EXPECT_TRUE(caught);
}

// No synthetic replica breaks a hard dependency (docs/requests.md): 1000
// replicas of the mpi-io-test path expanded to 32 processes, with both kinds
// of draws, and 50 of each single-process trace.
TEST(RequestDependencies, NoViolationInSyntheticReplicas) {
  const auto replicas_clean = [](const std::string& trace_name, const std::string& counters, std::int32_t processes,
                                 std::uint32_t replicas, SynthesisOptions::Draw draw) {
    const TraceCharacterization c = characterize_requests(
        read_request_trace({test::data_path(trace_name)}, "dxt", TraceOptions{}, test::data_path(counters)));
    SynthesisOptions options;
    options.key = {77, 3};
    options.draw = draw;
    std::uint64_t violations = 0, requests = 0;
    for (std::uint32_t replica = 0; replica < replicas; ++replica) {
      Workload w = synthesize_processes(synthesis_source(c), options, replica, processes);
      sort_for_issue(w);
      violations += check_dependencies(w).total();
      requests += w.table.requests.size();
    }
    EXPECT_GT(requests, 0u);
    return violations;
  };
  for (const auto draw : {SynthesisOptions::Draw::file, SynthesisOptions::Draw::class_pools}) {
    EXPECT_EQ(replicas_clean("mpi-io-test.dxt.txt.gz", "mpi-io-test.parser.txt.gz", 32, 1000, draw), 0u);
    EXPECT_EQ(replicas_clean("dxt.dxt.txt.gz", "dxt.parser.txt.gz", 1, 50, draw), 0u);
    EXPECT_EQ(replicas_clean("nonmpi_dxt_anonymized.dxt.txt.gz", "nonmpi_dxt_anonymized.parser.txt.gz", 1, 50, draw),
              0u);
  }
}

INSTANTIATE_TEST_SUITE_P(SingleProcessDxt, RequestFidelity,
                         ::testing::Values(std::make_pair("dxt.dxt.txt.gz", "dxt.parser.txt.gz"),
                                           std::make_pair("nonmpi_dxt_anonymized.dxt.txt.gz",
                                                          "nonmpi_dxt_anonymized.parser.txt.gz")));

}  // namespace
}  // namespace gs
