// What the Markov-chain models (kernels/markov.hpp, kernels/hmm.hpp) share:
// laws stored as cumulative probabilities, and picking a state from one.
// Entries from the last state with positive probability on are 2, so a uniform
// in (0, 1) can never pick a state of probability zero, whatever the rounding
// of the sums.
#pragma once

#include "portability.hpp"

namespace gs {

constexpr int kMaxStates = 16;  // keeps a kernel's parameters within CUDA's 4 KiB

// The first state j with u < cumulative[j].
GS_HD GS_INLINE int pick_state(const double* cumulative, int states, double u) {
  for (int j = 0; j < states - 1; ++j) {
    if (u < cumulative[j]) return j;
  }
  return states - 1;
}

// The cumulative form of law[0..states) (host side, when a kernel is filled in).
inline void set_cumulative(const double* law, int states, double* cumulative) {
  int last = 0;
  for (int j = 0; j < states; ++j) {
    if (law[j] > 0) last = j;
  }
  double sum = 0;
  for (int j = 0; j < states; ++j) {
    sum += law[j];
    cumulative[j] = j >= last ? 2.0 : sum;
  }
}

}  // namespace gs
