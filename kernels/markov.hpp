// The Oly–Reed Markov model of arrival rates: a discrete-time chain over k
// rate levels; bin t holds level[s_t] + noise[s_t]·Z_t. On the CPU one thread
// walks a replica's chain; on the GPU the time axis is split into segments
// whose maps of the k states are composed in parallel (kernels/cuda/launch.cuh,
// finite-state chains), which gives the same states from the same words.
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
  static constexpr bool finite_state_chain = true;  // next_state is a map of the k states
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

  GS_HD std::uint32_t replica_of(std::uint64_t row) const { return static_cast<std::uint32_t>(first_replica + row); }
  GS_HD PhiloxBits draw(std::uint32_t replica, std::uint64_t t) const { return philox_bits(key, replica, t, kDraw); }

  // The state of bin t from that of bin t − 1 (not read at t = 0: the initial law).
  GS_HD int next_state(const PhiloxBits& bits, std::uint64_t t, int previous) const {
    return pick_state(t == 0 ? initial : transition[previous], states, uniform_open(bits[kStateWord]));
  }

  // Bin t of `row` in `state`, stored (with the state where kept).
  GS_HD void store(std::uint64_t row, std::uint64_t t, int state, const PhiloxBits& bits, StoreTally& tally) const {
    double x = level[state];
    if (noise[state] > 0)
      x += noise[state] *
           normal_pair<double>(bits[kNoiseRadiusWords], bits[kNoiseRadiusWords + 1], bits[kNoiseAngleWord]).first;
    out[row * length + t] = store_workload<Out>(x, map, tally);
    if (hidden) hidden[row * length + t] = static_cast<std::uint8_t>(state);
  }

  GS_HD void operator()(std::uint64_t row, std::uint64_t, StoreTally& tally) const {
    const std::uint32_t replica = replica_of(row);
    int state = 0;
    for (std::uint64_t t = 0; t < length; ++t) {
      const PhiloxBits bits = draw(replica, t);
      state = next_state(bits, t, state);
      store(row, t, state, bits, tally);
    }
  }
};

// Computes in double whatever the ensemble's dtype.
template <class Real, class Out>
using MarkovDirectKernel = MarkovChainKernel<Out>;
GS_DIRECT_KERNEL(MarkovDirectKernel)

}  // namespace gs
