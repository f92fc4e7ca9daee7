// The Oly–Reed Markov model of arrival rates: a discrete-time chain over k
// rate levels; bin t holds level[s_t] + noise[s_t]·Z_t. One replica per thread
// (a chain is sequential in time; replicas are independent).
//
// Philox use: bin t of replica r uses one call at (replica r, position t,
// draw 0): word 0 picks s_t (from the initial law at t = 0, from row s_{t−1}
// of the transition matrix after), words 1–3 give Z_t (Box–Muller).
#pragma once

#include <cstdint>

#include "chains.hpp"
#include "gaussian.hpp"
#include "philox.hpp"
#include "portability.hpp"
#include "workload.hpp"

namespace gs {

template <class Out>
struct MarkovChainKernel {
  static constexpr bool sequential_in_time = true;
  static constexpr std::uint32_t kDraw = 0;
  static constexpr int kStateWord = 0, kNoiseRadiusWords = 1, kNoiseAngleWord = 3;

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
      const PhiloxBits bits = philox_bits(key, replica, t, kDraw);
      const double u = uniform_open(bits[kStateWord]);
      state = pick_state(t == 0 ? initial : transition[state], states, u);
      double x = level[state];
      if (noise[state] > 0)
        x += noise[state] *
             normal_pair<double>(bits[kNoiseRadiusWords], bits[kNoiseRadiusWords + 1], bits[kNoiseAngleWord]).first;
      out[row * length + t] = store_workload<Out>(x, map, tally);
      if (hidden) hidden[row * length + t] = static_cast<std::uint8_t>(state);
    }
  }
};

// Computes in double whatever the ensemble's dtype.
template <class Real, class Out>
using MarkovDirectKernel = MarkovChainKernel<Out>;
GS_DIRECT_KERNEL(MarkovDirectKernel)

}  // namespace gs
