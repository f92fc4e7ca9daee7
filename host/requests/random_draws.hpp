// The uniforms a replica's request synthesis and timing draw: Philox at
// (key, replica, position, draw), four per counter, in the order they are
// asked for, so that a replica has the same bits however it is made.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/philox.hpp"

namespace gs {

class RandomDraws {
 public:
  // `draw` keeps apart the streams of one replica: 0 its synthesis, 1 its phase timing.
  RandomDraws(RngStreamKey key, std::uint32_t replica, std::uint32_t draw = 0)
      : key_(key), replica_(replica), draw_(draw) {}
  double uniform() {
    if (left_ == 0) {
      bits_ = philox_bits(key_, replica_, position_++, draw_);
      left_ = 4;
    }
    return uniform_open(bits_[4 - left_--]);
  }
  // One of 0 … n − 1, uniformly (n ≥ 1).
  std::size_t index(std::size_t n) { return index_of(uniform(), n); }
  // The same index from a uniform `u` in (0, 1) drawn elsewhere (a counter-addressed draw).
  static std::size_t index_of(double u, std::size_t n) {
    return std::min(n - 1, static_cast<std::size_t>(u * static_cast<double>(n)));
  }
  // Fisher–Yates over items[first …]: each of their orders equally likely,
  // one index drawn per position from the back.
  template <class T>
  void shuffle(std::vector<T>& items, std::size_t first = 0) {
    for (std::size_t n = items.size(); n > first + 1; --n) std::swap(items[n - 1], items[first + index(n - first)]);
  }
  // One of the weights' indices, each with probability weight / total.
  std::size_t weighted(const std::vector<double>& weights, double total) {
    double target = uniform() * total;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (target < weights[i]) return i;
      target -= weights[i];
    }
    return weights.size() - 1;
  }

 private:
  RngStreamKey key_;
  std::uint32_t replica_;
  std::uint32_t draw_;
  std::uint64_t position_ = 0;
  PhiloxBits bits_{};
  int left_ = 0;
};

}  // namespace gs
