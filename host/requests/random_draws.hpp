// The uniforms a replica's request synthesis and timing draw: Philox at
// (key, replica, position, draw), four per counter, in the order they are
// asked for, so that a replica has the same bits however it is made.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "host/base/errors.hpp"
#include "kernels/philox.hpp"

namespace gs {

// The draw words that keep the streams of one replica apart: the root class's
// synthetic path, the phase timing's pooled samples, the processes' roles, the
// phases' member shuffles, the synthetic paths of the other rank classes
// (class c ≥ 1 from position (c − 1)·kClassDrawSpan) and the phases' spread.
enum DrawWord : std::uint32_t {
  kSynthesisDraws = 0,
  kPooledTimingDraws = 1,
  kRoleDraws = 2,
  kMemberShuffleDraws = 3,
  kClassSynthesisDraws = 4,
  kPhaseSpreadDraws = 5,
};
// The positions one rank class's synthetic path may take (4 uniforms each),
// and so at most 2^20 classes in the counter's 2^56 positions.
constexpr std::uint64_t kClassDrawSpan = std::uint64_t{1} << 36;
constexpr std::uint64_t kMaxRankClasses = std::uint64_t{1} << 20;

class RandomDraws {
 public:
  RandomDraws(RngStreamKey key, std::uint32_t replica, std::uint32_t draw = kSynthesisDraws,
              std::uint64_t first_position = 0, std::uint64_t positions = kMaxRngPosition + 1)
      : key_(key), replica_(replica), draw_(draw), position_(first_position), end_(first_position + positions) {}
  // The draws of rank class c's synthetic path: class 0's on kSynthesisDraws
  // (as before rank classes), class c ≥ 1's on kClassSynthesisDraws from (c − 1)·kClassDrawSpan.
  static RandomDraws of_rank_class(RngStreamKey key, std::uint32_t replica, std::uint32_t rank_class) {
    if (rank_class == 0) return RandomDraws(key, replica);
    return RandomDraws(key, replica, kClassSynthesisDraws, (rank_class - 1) * kClassDrawSpan, kClassDrawSpan);
  }
  double uniform() {
    if (left_ == 0) {
      if (position_ == end_) throw_out_of_positions();
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
  [[noreturn]] void throw_out_of_positions() const {
    throw UserError(
        "a synthetic path took more than 2^38 random draws, the most one rank class's path may take: "
        "synthesize fewer requests per replica");
  }

  RngStreamKey key_;
  std::uint32_t replica_;
  std::uint32_t draw_;
  std::uint64_t position_, end_;
  PhiloxBits bits_{};
  int left_ = 0;
};

}  // namespace gs
