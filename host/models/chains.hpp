// What the Markov-chain models (markov, hmm) share when they read their
// parameters: the number of states, probability laws, the matrix's shape, and
// the initial law (given, or the chain's stationary law).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "host/models/params.hpp"

namespace gs {

// The states `key` defines (its size), 1 to kMaxStates.
std::size_t state_count(const ParamValues& p, const std::string& key, std::size_t count);
// `key` must be a states × states matrix.
void require_square(const ParamValues& p, const std::string& key, std::size_t states);
// `key`, one probability per state (entries ≥ 0 summing to 1 within 1e-9).
std::vector<double> probability_law(const ParamValues& p, const std::string& key, std::size_t states);

// The initial law: `initial` when given, else the stationary law of the
// transition matrix (generator = false) or generator, which must be unique.
struct InitialLaw {
  std::vector<double> law;
  bool given = false;
  std::string source() const;  // "given" or "the stationary law of ..."
  std::string of;              // "the transition matrix" or "the generator"
};
InitialLaw initial_law(const ParamValues& p, const Matrix& matrix, const std::string& matrix_key, bool generator);

}  // namespace gs
