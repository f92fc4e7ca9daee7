// The superposition of M independent ON/OFF sources (Willinger, Taqqu, Sherman
// and Wilson, "Self-similarity through high-variability", 1997): each source
// alternates ON and OFF periods whose lengths (in bins) are i.i.d. Pareto with
// tail indices α_on and α_off and means μ_on and μ_off; while ON it sends
// `rate` requests per bin. Bin i holds the requests of all sources in
// [i, i + 1): X(i) = rate · Σ_m ∫_i^{i+1} W_m(t) dt, W_m = 1 while source m is
// ON. With 1 < min(α_on, α_off) < 2 the aggregate is long-range dependent with
// H = (3 − min α)/2; its mean is M·rate·μ_on/(μ_on + μ_off) per bin.
//
// Pareto(α, μ): P(T > x) = (k/x)^α for x ≥ k = μ(α − 1)/α, drawn as k·e^{E/α}
// with E a standard exponential. Every source starts in its stationary state
// (an alternating renewal process observed from t = 0): ON with probability
// μ_on/(μ_on + μ_off), the current period's remaining length drawn from the
// equilibrium law F_e(x) = (1/μ)∫_0^x P(T > v) dv, whose inverse at
// u = 1 − e^{−E} is μ(1 − e^{−E}) for E < ln α and k·e^{(E − ln α)/(α − 1)} above.
// Without it the heavy-tailed periods would make the start of every replica
// a transient lasting longer than most series.
//
// Philox use, for source m of replica r (positions m·2^32 + c): the start is
// the call at (replica r, position m·2^32, draw 1): word 0 picks ON or OFF,
// words 1,2 (64 bits) the remaining length of the first period; period q ≥ 1
// after it takes words 2(q−1 mod 2), +1 of the call at (replica r, position
// m·2^32 + ⌊(q−1)/2⌋, draw 0): two periods per call.
//
// The ON time is summed exactly, as integers: times are rounded down to a grid
// of 2^-32 bin (OnTimeGrid), each ON period adds four integers to a difference
// row D of its replica, and bin i holds rate·2^-32·(D[0] + … + D[i]). Integer
// sums do not depend on the order of their terms, so the GPU gives each
// (replica, source) a thread of its own, adding atomically, and the CPU adds
// source after source: the same bins from the same period ends, on any thread
// count (kernels/launch.hpp, sums_sources).
#pragma once

#include <cstdint>

#include "philox.hpp"
#include "portability.hpp"
#include "workload.hpp"

namespace gs {

// One period law: Pareto with tail index alpha and mean `mean` (bins).
struct ParetoPeriod {
  double alpha = 1.5;
  double mean = 1;
  double scale = 1;      // k = mean (α − 1)/α, the shortest period
  double log_alpha = 0;  // ln α, where the equilibrium law's inverse changes form

  // A full period from a standard exponential E.
  GS_HD double length(double exponential) const { return scale * gs::exp(exponential / alpha); }
  // The remaining length of the period in progress at a random time.
  GS_HD double remaining(double exponential) const {
    return exponential < log_alpha ? -mean * gs::expm1(-exponential)
                                   : scale * gs::exp((exponential - log_alpha) / (alpha - 1));
  }
};

// Times in bins on a grid of 2^-32 bin: point(t) = ⌊t·2^32⌋ for 0 <= t < 2^32,
// bin ⌊t⌋ in the high 32 bits (t − ⌊t⌋ is exact, and so is its scaling).
struct OnTimeGrid {
  static constexpr int kFractionBits = 32;
  static constexpr std::uint64_t kBin = std::uint64_t{1} << kFractionBits;
  GS_HD static std::uint64_t point(double t) {
    const double whole = gs::floor(t);
    return (static_cast<std::uint64_t>(whole) << kFractionBits) + static_cast<std::uint64_t>((t - whole) * 0x1p32);
  }
};

template <class Out>
struct OnoffKernel {
  static constexpr bool sums_sources = true;
  static constexpr std::uint32_t kPeriodDraw = 0, kStartDraw = 1;
  static constexpr int kStateWord = 0, kRemainingWords = 1;  // of the start's call
  static constexpr int kPeriodsPerCall = 2;                  // words (0, 1) and (2, 3)
  static constexpr int kSourceShift = 32;                    // position = m·2^32 + call

  RngStreamKey key;
  std::uint32_t sources = 1;
  ParetoPeriod on, off;
  double on_probability = 0.5;  // μ_on/(μ_on + μ_off)
  double rate = 1;              // requests per bin of one ON source
  WorkloadMapping map;
  std::uint64_t first_replica = 0;
  std::uint64_t length = 0;  // below 2^32 (the grid's bins)
  Out* out = nullptr;
  double* scratch = nullptr;  // `length` words per row: the difference row, as unsigned integers

  GS_HD std::uint64_t columns() const { return 1; }

  // The scratch holds integers only (it is never read as doubles).
  GS_HD std::uint64_t* difference_row(std::uint64_t row) const {
    return reinterpret_cast<std::uint64_t*>(scratch) + row * length;
  }

  // Calls on_period(from, to) for every ON period of source m of the row's
  // replica that starts before the end of the series (`to` may pass it).
  template <class OnPeriod>
  GS_HD void for_each_on_period(std::uint64_t row, std::uint32_t m, const OnPeriod& on_period) const {
    const auto replica = static_cast<std::uint32_t>(first_replica + row);
    const double horizon = static_cast<double>(length);
    const std::uint64_t base = static_cast<std::uint64_t>(m) << kSourceShift;
    const PhiloxBits start = philox_bits(key, replica, base, kStartDraw);
    bool is_on = uniform_open(start[kStateWord]) < on_probability;
    const double first = standard_exponential64<double>(start[kRemainingWords], start[kRemainingWords + 1]);
    double t = 0, period = (is_on ? on : off).remaining(first);
    PhiloxBits pair;
    for (std::uint64_t q = 1;; ++q) {
      if (is_on) on_period(t, t + period);
      t += period;
      if (!(t < horizon)) break;
      is_on = !is_on;
      const std::uint64_t slot = (q - 1) % kPeriodsPerCall;
      if (slot == 0) pair = philox_bits(key, replica, base + (q - 1) / kPeriodsPerCall, kPeriodDraw);
      const int word = static_cast<int>(2 * slot);
      period = (is_on ? on : off).length(standard_exponential64<double>(pair[word], pair[word + 1]));
    }
  }

  // Source m's ON periods into the row's difference row through add(i, term)
  // (a plain or an atomic addition, modulo 2^64). A period [a, b) on the grid
  // is a's bin holding 2^32 − frac(a), full bins to b's, which holds frac(b):
  // four steps of the prefix sum; those past the series are left out.
  template <class Add>
  GS_HD void add_source(std::uint64_t row, std::uint32_t m, const Add& add) const {
    const double horizon = static_cast<double>(length);
    for_each_on_period(row, m, [&](double from, double to) {
      const std::uint64_t a = OnTimeGrid::point(from), b = OnTimeGrid::point(to < horizon ? to : horizon);
      const std::uint64_t fraction_a = a & (OnTimeGrid::kBin - 1), fraction_b = b & (OnTimeGrid::kBin - 1);
      const std::uint64_t bin_a = a >> OnTimeGrid::kFractionBits, bin_b = b >> OnTimeGrid::kFractionBits;
      const auto step = [&](std::uint64_t i, std::uint64_t term) {
        if (i < length) add(i, term);
      };
      step(bin_a, OnTimeGrid::kBin - fraction_a);
      step(bin_a + 1, fraction_a);
      step(bin_b, fraction_b - OnTimeGrid::kBin);
      step(bin_b + 1, 0 - fraction_b);
    });
  }

  // Bin i of the row from its ON time (the prefix sum, in 2^-32 bin).
  GS_HD void store(std::uint64_t row, std::uint64_t i, std::uint64_t on_time, StoreTally& tally) const {
    out[row * length + i] = store_workload<Out>(rate * (static_cast<double>(on_time) * 0x1p-32), map, tally);
  }

  // The CPU's way: one replica, source after source, then the prefix sum.
  GS_HD void operator()(std::uint64_t row, std::uint64_t, StoreTally& tally) const {
    std::uint64_t* difference = difference_row(row);
    for (std::uint64_t i = 0; i < length; ++i) difference[i] = 0;
    for (std::uint32_t m = 0; m < sources; ++m)
      add_source(row, m, [difference](std::uint64_t i, std::uint64_t term) { difference[i] += term; });
    std::uint64_t on_time = 0;
    for (std::uint64_t i = 0; i < length; ++i) {
      on_time += difference[i];
      store(row, i, on_time, tally);
    }
  }
};

// Computes in double whatever the ensemble's dtype.
template <class Real, class Out>
using OnoffDirectKernel = OnoffKernel<Out>;
GS_DIRECT_KERNEL(OnoffDirectKernel)

}  // namespace gs
