#include "host/models/chains.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "estimators/chain_law.hpp"
#include "kernels/chains.hpp"

namespace gs {

std::size_t state_count(const ParamValues& p, const std::string& key, std::size_t count) {
  if (count < 1 || count > static_cast<std::size_t>(kMaxStates))
    throw p.error_at(key, fmt::format("{} defines {} states; accepted: 1 to {}", p.path_of(key), count, kMaxStates));
  return count;
}

void require_square(const ParamValues& p, const std::string& key, std::size_t states) {
  const Matrix& m = p.matrix(key);
  if (m.size() != states || m[0].size() != states)
    throw p.error_at(key, fmt::format("{} must be a list of {} rows, each a list of {} numbers, found {} rows of {}",
                                      p.path_of(key), states, states, m.size(), m.empty() ? 0 : m[0].size()));
}

std::vector<double> probability_law(const ParamValues& p, const std::string& key, std::size_t states) {
  const std::vector<double>& law = p.reals(key);
  if (law.size() != states)
    throw p.error_at(key, fmt::format("{} has {} entries; accepted: one probability per state ({})", p.path_of(key),
                                      law.size(), states));
  const double sum = std::accumulate(law.begin(), law.end(), 0.0);
  if (std::any_of(law.begin(), law.end(), [](double x) { return x < 0; }) || std::fabs(sum - 1) > 1e-9)
    throw p.error_at(key, fmt::format("{} = [{}] is not a probability law; accepted: entries >= 0 summing to 1 "
                                      "(within 1e-9)",
                                      p.path_of(key), fmt::join(law, ", ")));
  return law;
}

std::string InitialLaw::source() const { return given ? "given" : fmt::format("the stationary law of {}", of); }

InitialLaw initial_law(const ParamValues& p, const Matrix& matrix, const std::string& matrix_key, bool generator) {
  InitialLaw initial;
  initial.of = generator ? "the generator" : "the transition matrix";
  if (p.given("initial")) {
    initial.law = probability_law(p, "initial", matrix.size());
    initial.given = true;
    return initial;
  }
  if (auto law = stationary_law(matrix, generator)) {
    initial.law = *law;
    return initial;
  }
  throw p.error_at(matrix_key, fmt::format("{} has more than one stationary law (the chain is reducible); give "
                                           "the initial law as {}",
                                           p.path_of(matrix_key), p.path_of("initial")));
}

}  // namespace gs
