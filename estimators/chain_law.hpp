// The stationary law of a Markov chain: of a transition matrix (π P = π) or of
// a generator (π Q = 0). Used by the chain models for their default initial
// law and by the CT-HMM fit.
#pragma once

#include <optional>
#include <vector>

namespace gs {

// nullopt when it is not unique (the chain is reducible).
std::optional<std::vector<double>> stationary_law(const std::vector<std::vector<double>>& matrix, bool generator);

}  // namespace gs
