// A continuous-time hidden Markov chain with generator Q and log-normal
// emissions (the Titan latency paper), observed at times t_0 < t_1 < …: the
// state path is simulated exactly (holding time in s ~ Exp(−Q_ss), then a jump
// to j with probability Q_sj/−Q_ss), and observation i emits
// exp(mu[s] + sigma[s]·Z_i) for the state s at t_i. The chain starts at t_0 in
// the initial law. One replica per thread (sequential in time).
//
// Philox use: the e-th sojourn of replica r uses one call at (replica r,
// position e, draw 0): words 0,1 give its exponential holding time, word 2 the
// state it jumps to; observation i uses (replica r, position i, draw 1), words
// 0–2, for Z_i; the initial state is word 0 of (replica r, position 0, draw 2).
#pragma once

#include <cstdint>

#include "chains.hpp"
#include "gaussian.hpp"
#include "philox.hpp"
#include "portability.hpp"
#include "workload.hpp"

namespace gs {

// Where one replica's hidden chain is: its state, the time its current
// sojourn ends, that sojourn's index and its Philox words (drawn once: its
// holding time when it begins, its jump when it ends).
struct HmmPath {
  int state = 0;
  double sojourn_end = 0;
  std::uint64_t sojourn = 0;
  PhiloxBits bits;
};

template <class Out>
struct HmmKernel {
  static constexpr bool sequential_in_time = true;
  static constexpr std::uint32_t kSojournDraw = 0, kEmissionDraw = 1, kInitialDraw = 2;
  static constexpr int kHoldingWords = 0, kJumpWord = 2;                  // of a sojourn's call
  static constexpr int kEmissionRadiusWords = 0, kEmissionAngleWord = 2;  // of an observation's call
  static constexpr int kInitialWord = 0;

  RngStreamKey key;
  int states = 1;
  double initial[kMaxStates] = {};           // cumulative
  double jump[kMaxStates][kMaxStates] = {};  // cumulative Q_sj / −Q_ss (unused for absorbing s)
  double rate[kMaxStates] = {};              // −Q_ss; 0: absorbing
  double log_mean[kMaxStates] = {};
  double log_sd[kMaxStates] = {};
  const double* table = nullptr;  // the observation times (the direct kernel's table), or null: start + i·interval
  double start = 0, interval = 1;
  WorkloadMapping map;
  std::uint64_t first_replica = 0;
  std::uint64_t length = 0;
  Out* out = nullptr;
  std::uint8_t* hidden = nullptr;  // optional: the state at every observation

  GS_HD double observation_time(std::uint64_t i) const {
    return table ? table[i] : start + static_cast<double>(i) * interval;
  }

  GS_HD double holding_time(int state, const PhiloxBits& bits) const {
    return rate[state] > 0 ? standard_exponential64<double>(bits[kHoldingWords], bits[kHoldingWords + 1]) / rate[state]
                           : FiniteMax<double>::value;
  }

  // The chain at t_0: its initial state and the end of its first sojourn.
  GS_HD HmmPath begin(std::uint32_t replica) const {
    HmmPath path;
    path.state = pick_state(initial, states, uniform_open(philox_bits(key, replica, 0, kInitialDraw)[kInitialWord]));
    path.bits = philox_bits(key, replica, 0, kSojournDraw);
    path.sojourn_end = observation_time(0) + holding_time(path.state, path.bits);
    return path;
  }

  // Ends the current sojourn: jump to the next state and draw its holding time.
  GS_HD void jump_once(std::uint32_t replica, HmmPath& path) const {
    path.state = pick_state(jump[path.state], states, uniform_open(path.bits[kJumpWord]));
    ++path.sojourn;
    path.bits = philox_bits(key, replica, path.sojourn, kSojournDraw);
    path.sojourn_end += holding_time(path.state, path.bits);
  }

  GS_HD std::uint64_t columns() const { return 1; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t, StoreTally& tally) const {
    const auto replica = static_cast<std::uint32_t>(first_replica + row);
    HmmPath path = begin(replica);
    for (std::uint64_t i = 0; i < length; ++i) {
      const double t = observation_time(i);
      while (path.sojourn_end <= t) jump_once(replica, path);
      const PhiloxBits bits = philox_bits(key, replica, i, kEmissionDraw);
      const double z =
          normal_pair<double>(bits[kEmissionRadiusWords], bits[kEmissionRadiusWords + 1], bits[kEmissionAngleWord])
              .first;
      const double latency = gs::exp(log_mean[path.state] + log_sd[path.state] * z);
      out[row * length + i] = store_workload<Out>(latency, map, tally);
      if (hidden) hidden[row * length + i] = static_cast<std::uint8_t>(path.state);
    }
  }
};

// Computes in double whatever the ensemble's dtype.
template <class Real, class Out>
using HmmDirectKernel = HmmKernel<Out>;
GS_DIRECT_KERNEL(HmmDirectKernel)

}  // namespace gs
