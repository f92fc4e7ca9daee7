// Markov-chain models, one replica per thread (a chain is sequential in time;
// replicas are independent):
//
// * markov — the Oly–Reed model of arrival rates: a discrete-time chain over k
//   rate levels; bin t holds level[s_t] + noise[s_t]·Z_t.
//   Philox use: bin t of replica r uses one call at (replica r, position t,
//   draw 0): word 0 picks s_t (from the initial law at t = 0, from row s_{t−1}
//   of the transition matrix after), words 1–3 give Z_t (Box–Muller).
//
// * hmm — a continuous-time hidden Markov chain with generator Q and
//   log-normal emissions, observed at times t_0 < t_1 < …: the state path is
//   simulated exactly (holding time in s ~ Exp(−Q_ss), then a jump to j with
//   probability Q_sj/−Q_ss), and observation i emits exp(mu[s] + sigma[s]·Z_i)
//   for the state s at t_i. The chain starts at t_0 in the initial law.
//   Philox use: the e-th sojourn of replica r uses one call at (replica r,
//   position e, draw 0): words 0,1 give its exponential holding time, word 2
//   the state it jumps to; observation i uses (replica r, position i, draw 1),
//   words 0–2, for Z_i; the initial state is word 0 of (replica r, position 0,
//   draw 2).
//
// Laws are stored as cumulative probabilities; entries from the last state
// with positive probability on are 2, so a uniform in (0, 1) can never pick a
// state of probability zero, whatever the rounding of the sums.
#pragma once

#include <cstdint>

#include "gaussian.hpp"
#include "philox.hpp"
#include "portability.hpp"
#include "workload.hpp"

namespace gs {

constexpr int kMaxStates = 16;  // keeps a kernel's parameters within CUDA's 4 KiB

// The first state j with u < cumulative[j].
GS_HD GS_INLINE int pick_state(const double* cumulative, int states, double u) {
  for (int j = 0; j < states - 1; ++j) {
    if (u < cumulative[j]) return j;
  }
  return states - 1;
}

template <class Out>
struct MarkovChainKernel {
  RngStreamKey key;
  int states = 1;
  double initial[kMaxStates] = {};                 // cumulative
  double transition[kMaxStates][kMaxStates] = {};  // cumulative rows
  double level[kMaxStates] = {};
  double noise[kMaxStates] = {};  // standard deviation within a state
  WorkloadMapping map;
  std::uint64_t first_replica = 0;
  std::uint64_t length = 0;
  Out* out = nullptr;
  std::uint8_t* hidden = nullptr;  // optional: the state of every bin

  GS_HD std::uint64_t columns() const { return 1; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t, StoreTally& tally) const {
    const auto replica = static_cast<std::uint32_t>(first_replica + row);
    int state = 0;
    for (std::uint64_t t = 0; t < length; ++t) {
      const PhiloxBits bits = philox_bits(key, replica, t, 0);
      const double u = uniform_open(bits[0]);
      state = pick_state(t == 0 ? initial : transition[state], states, u);
      double x = level[state];
      if (noise[state] > 0) x += noise[state] * normal_pair<double>(bits[1], bits[2], bits[3]).first;
      out[row * length + t] = store_workload<Out>(x, map, tally);
      if (hidden) hidden[row * length + t] = static_cast<std::uint8_t>(state);
    }
  }
};

// Where one replica's hidden chain is: its state, the time its current
// sojourn ends and that sojourn's index.
struct HmmPath {
  int state = 0;
  double sojourn_end = 0;
  std::uint64_t sojourn = 0;
};

template <class Out>
struct HmmKernel {
  RngStreamKey key;
  int states = 1;
  double initial[kMaxStates] = {};           // cumulative
  double jump[kMaxStates][kMaxStates] = {};  // cumulative Q_sj / −Q_ss (unused for absorbing s)
  double rate[kMaxStates] = {};              // −Q_ss; 0: absorbing
  double log_mean[kMaxStates] = {};
  double log_sd[kMaxStates] = {};
  const double* times = nullptr;  // observation times, or nullptr for start + i·interval
  double start = 0, interval = 1;
  WorkloadMapping map;
  std::uint64_t first_replica = 0;
  std::uint64_t length = 0;
  Out* out = nullptr;
  std::uint8_t* hidden = nullptr;  // optional: the state at every observation

  GS_HD double observation_time(std::uint64_t i) const {
    return times ? times[i] : start + static_cast<double>(i) * interval;
  }

  GS_HD double holding_time(int state, const PhiloxBits& bits) const {
    return rate[state] > 0 ? standard_exponential64<double>(bits[0], bits[1]) / rate[state] : FiniteMax<double>::value;
  }

  // The chain at t_0: its initial state and the end of its first sojourn.
  GS_HD HmmPath begin(std::uint32_t replica) const {
    HmmPath path;
    path.state = pick_state(initial, states, uniform_open(philox_bits(key, replica, 0, 2)[0]));
    path.sojourn_end = observation_time(0) + holding_time(path.state, philox_bits(key, replica, 0, 0));
    return path;
  }

  // Ends the current sojourn: jump to the next state and draw its holding time.
  GS_HD void jump_once(std::uint32_t replica, HmmPath& path) const {
    const PhiloxBits ending = philox_bits(key, replica, path.sojourn, 0);
    path.state = pick_state(jump[path.state], states, uniform_open(ending[2]));
    ++path.sojourn;
    path.sojourn_end += holding_time(path.state, philox_bits(key, replica, path.sojourn, 0));
  }

  GS_HD std::uint64_t columns() const { return 1; }

  GS_HD void operator()(std::uint64_t row, std::uint64_t, StoreTally& tally) const {
    const auto replica = static_cast<std::uint32_t>(first_replica + row);
    HmmPath path = begin(replica);
    for (std::uint64_t i = 0; i < length; ++i) {
      const double t = observation_time(i);
      while (path.sojourn_end <= t) jump_once(replica, path);
      const PhiloxBits bits = philox_bits(key, replica, i, 1);
      const double z = normal_pair<double>(bits[0], bits[1], bits[2]).first;
      const double latency = gs::exp(log_mean[path.state] + log_sd[path.state] * z);
      out[row * length + i] = store_workload<Out>(latency, map, tally);
      if (hidden) hidden[row * length + i] = static_cast<std::uint8_t>(path.state);
    }
  }
};

}  // namespace gs
