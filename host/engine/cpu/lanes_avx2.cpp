// The eight-lane forms of the kernels whose time is in their math (see
// host/engine/cpu/lanes.hpp). Compiled with -mavx2 -mfma -ffp-contract=off
// (CMakeLists.txt); entered only through the slots that host/engine/cpu/lanes.cpp
// fills on a CPU that has both. lanes_avx2_fast.cpp compiles this file once
// more with SLEEF's 3.5-ulp functions (precision: fast): everything here is in
// simd.hpp's inline namespace of that form.
#include <algorithm>

#include "host/engine/cpu/simd.hpp"
#include "kernels/launch.hpp"
#include "kernels/normal.hpp"
#include "kernels/spectral.hpp"
#include "kernels/stable.hpp"

namespace gs {
inline namespace GS_LANE_MATH {

namespace {

// The Philox calls of columns first..first + 7 of a row: lane i is column first + i.
template <class Draws, class Out>
GS_INLINE PhiloxPack words_of(const PairsKernel<Draws, Out>& k, std::uint64_t row, std::uint64_t first) {
  return philox_pack(k.key, static_cast<std::uint32_t>(k.first_replica + row), first, Draws::kDraw);
}
template <class Real>
GS_INLINE PhiloxPack words_of(const InnovationsKernel<Real>& k, std::uint64_t row, std::uint64_t first) {
  return philox_pack(k.innovation.key, static_cast<std::uint32_t>(k.first_replica + row), first,
                     StableInnovation<Real>::kDraw);
}
GS_INLINE PhiloxPack words_of(const CirculantNoiseKernel& k, std::uint64_t row, std::uint64_t first) {
  return philox_pack(k.key, static_cast<std::uint32_t>(k.first_replica + row), first, CirculantNoiseKernel::kDraw);
}

// Columns [first, first + valid) of a row, valid ≤ 8, from their calls' words.
template <class Draws, class Out>
GS_INLINE void lane_group(const PairsKernel<Draws, Out>& k, std::uint64_t row, std::uint64_t first, int valid,
                          const PhiloxPack& words, StoreTally& tally) {
  const auto values = k.draws(words);
  using Real = std::decay_t<decltype(values.first[0])>;
  if constexpr (std::is_same<Out, Real>::value) {  // real storage, a whole pack: map it and interleave the pairs
    if (const std::uint64_t bin = 2 * first; bin + 2 * kPackLanes <= k.length) {
      const Pack<Real> top(FiniteMax<Out>::value);
      Mask first_saturated, second_saturated;
      store_interleaved(k.out + row * k.length + bin, real_workload(values.first, k.map, top, first_saturated),
                        real_workload(values.second, k.map, top, second_saturated));
      tally.saturated += true_lanes(first_saturated) + true_lanes(second_saturated);
      return;
    }
  }
  for (int i = 0; i < valid; ++i)
    k.put(row, first + static_cast<std::uint64_t>(i), values.first[i], values.second[i], tally);
}

template <class Real>
GS_INLINE void lane_group(const InnovationsKernel<Real>& k, std::uint64_t row, std::uint64_t first, int valid,
                          const PhiloxPack& words, StoreTally& tally) {
  double* signal = k.signal + row * k.fft_length + first;
  const int drawn = first < k.fine_points ? static_cast<int>(std::min<std::uint64_t>(valid, k.fine_points - first)) : 0;
  if (drawn > 0) {
    Mask capped;
    const Pack<Real> z = k.innovation.from_words(words, capped);
    tally.saturated += true_lanes(capped, drawn);
    for (int i = 0; i < drawn; ++i) signal[i] = static_cast<double>(z[i]);
  }
  for (int i = drawn; i < valid; ++i) signal[i] = 0.0;
}

GS_INLINE void lane_group(const CirculantNoiseKernel& k, std::uint64_t row, std::uint64_t first, int valid,
                          const PhiloxPack& r, StoreTally&) {
  const auto w = normal_pair<double>(r[CirculantNoiseKernel::kRadiusWords], r[CirculantNoiseKernel::kRadiusWords + 1],
                                     r[CirculantNoiseKernel::kAngleWord]);
  for (int i = 0; i < valid; ++i) k.put(row, first + static_cast<std::uint64_t>(i), w.first[i], w.second[i]);
}

template <class Kernel>
Tally lanes_launch(std::uint64_t rows, const Kernel& kernel, bool parallel) {
  const auto body = [&](std::uint64_t row, std::uint64_t begin, std::uint64_t end, StoreTally& tally) {
    for (std::uint64_t c = begin; c < end; c += kPackLanes)
      lane_group(kernel, row, c, static_cast<int>(std::min<std::uint64_t>(kPackLanes, end - c)),
                 words_of(kernel, row, c), tally);
  };
  if (parallel) return cpu_for_each_block(rows, kernel.columns(), body);
  StoreTally tally;
  const std::uint64_t columns = kernel.columns();
  for (std::uint64_t begin = 0; begin < columns; begin += kCpuColumnBlock)
    body(0, begin, std::min<std::uint64_t>(begin + kCpuColumnBlock, columns), tally);
  return Tally{tally.clipped, tally.saturated};
}

template <class Kernel>
void set_slot(bool on) {
  CpuLanesSlot<Kernel>::launch = on ? &lanes_launch<Kernel> : nullptr;
}

template <class Real>
void set_slots_of(bool on) {
  set_slot<InnovationsKernel<Real>>(on);
  set_slot<PairsKernel<StableDraws<Real>, float>>(on);
  set_slot<PairsKernel<StableDraws<Real>, double>>(on);
  set_slot<PairsKernel<StableDraws<Real>, std::uint32_t>>(on);
  set_slot<PairsKernel<StableDraws<Real, true>, float>>(on);
  set_slot<PairsKernel<StableDraws<Real, true>, double>>(on);
  set_slot<PairsKernel<StableDraws<Real, true>, std::uint32_t>>(on);
  set_slot<PairsKernel<NormalDraws<Real>, float>>(on);
  set_slot<PairsKernel<NormalDraws<Real>, double>>(on);
  set_slot<PairsKernel<NormalDraws<Real>, std::uint32_t>>(on);
}

}  // namespace

void philox_avx2(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first, std::uint32_t draw,
                 PhiloxBits out[8]) {
  const PhiloxPack r = philox_pack(key, replica, first, draw);
  for (int lane = 0; lane < kPackLanes; ++lane)
    for (int w = 0; w < 4; ++w) out[lane][w] = r[w][lane];
}

template <class Real>
void stable_avx2(const StableSampler<Real>& law, const std::uint32_t* kv, const std::uint32_t* kw, std::size_t n,
                 Real* out) {
  for (std::size_t first = 0; first < n; first += kPackLanes) {
    WordPack v(0u), w(0u);
    const std::size_t valid = std::min<std::size_t>(kPackLanes, n - first);
    for (std::size_t i = 0; i < valid; ++i) v.h[0][i] = kv[first + i], w.h[0][i] = kw[first + i];
    const Pack<Real> z = law(v, w);
    for (std::size_t i = 0; i < valid; ++i) out[first + i] = z[static_cast<int>(i)];
  }
}
template void stable_avx2(const StableSampler<float>&, const std::uint32_t*, const std::uint32_t*, std::size_t, float*);
template void stable_avx2(const StableSampler<double>&, const std::uint32_t*, const std::uint32_t*, std::size_t,
                          double*);

void set_avx2_lane_slots(bool on) {
  set_slots_of<float>(on);
  set_slots_of<double>(on);
  set_slot<CirculantNoiseKernel>(on);
}

}  // namespace GS_LANE_MATH
}  // namespace gs
