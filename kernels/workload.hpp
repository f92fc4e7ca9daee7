// The workload mapping of eq. (5), IOs(i) = v·X(i) + δ, and its storage.
//
// An optional cap truncates v·X + δ from above (values above it are stored as
// the cap and counted as saturated): heavy-tailed models draw peaks no device
// serves. Its default, +inf, changes no value (NaN included). `real` values
// are stored as float32 or float64; `counts` are rounded to the nearest
// integer (halves up), clipped at 0 and stored as uint32. Nothing non-finite
// is ever stored: values beyond the storage type saturate at its largest
// value (with sign) and are counted, as are clipped counts. The
// mapping is evaluated in double, so counts stay exact up to 2^32, except for
// float values stored as float32, where float is exact enough and spares a GPU
// two slow conversions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "lanes.hpp"
#include "portability.hpp"

namespace gs {

// How an ensemble's values are stored: float32 or float64 (`real`), or uint32 (`counts`).
enum class StorageType { float32, float64, uint32 };
// The precision real values are computed in (the `dtype` of an ensemble).
enum class Dtype { float32, float64 };

inline constexpr std::size_t storage_bytes(StorageType type) { return type == StorageType::float64 ? 8 : 4; }
inline const char* to_string(StorageType type) {
  return type == StorageType::float64 ? "float64" : type == StorageType::uint32 ? "uint32" : "float32";
}
inline const char* to_string(Dtype dtype) { return dtype == Dtype::float64 ? "float64" : "float32"; }

struct WorkloadMapping {
  double v = 1.0;
  double delta = 0.0;
  double cap = INFINITY;  // the largest value stored; +inf: no cap
};

struct StoreTally {
  std::uint32_t clipped = 0;    // counts that were negative, stored as 0
  std::uint32_t saturated = 0;  // values beyond the storage type or the cap (or capped innovations)
};

// StoreTally summed over a batch (host side).
struct Tally {
  std::uint64_t clipped = 0;
  std::uint64_t saturated = 0;
  Tally& operator+=(const Tally& other) {
    clipped += other.clipped;
    saturated += other.saturated;
    return *this;
  }
};

constexpr double kMaxCount = 4294967295.0;

// v·x + δ, at most the cap; `capped` says where the cap applied.
template <class Real, class Mask>
GS_HD GS_INLINE Real capped_workload(Real x, const WorkloadMapping& map, Mask& capped) {
  const Real y = Real(map.v) * x + Real(map.delta);
  capped = y > Real(map.cap);
  return select(capped, Real(map.cap), y);
}

// A real value stored as its own type (Out = Real, the `real` storage of an
// ensemble's dtype): v·x + δ capped, beyond the type's largest value saturated
// with its sign (NaN: at +max); either is flagged. Generic in the lanes
// (kernels/lanes.hpp).
template <class Real, class Mask>
GS_HD GS_INLINE Real real_workload(Real x, const WorkloadMapping& map, Real top, Mask& saturated) {
  Mask capped;
  const Real y = clamp_magnitude(capped_workload(x, map, capped), top, saturated);
  saturated = saturated | capped;
  return y;
}

template <class Out, class Real>
GS_HD GS_INLINE Out store_workload(Real x, const WorkloadMapping& map, StoreTally& tally) {
  using Compute = typename std::conditional<std::is_same<Out, float>::value && std::is_same<Real, float>::value, float,
                                            double>::type;
  if constexpr (std::is_integral<Out>::value) {  // uint32 counts
    bool capped;
    const Compute y = capped_workload(static_cast<Compute>(x), map, capped);
    const double rounded = gs::floor(y + 0.5);  // Compute is double here
    if (rounded < 0.0) {
      ++tally.clipped;
      return 0;
    }
    const bool beyond = !(rounded <= kMaxCount);  // +inf or NaN
    tally.saturated += capped || beyond;
    return static_cast<Out>(beyond ? kMaxCount : rounded);
  } else {
    bool saturated;
    const Compute y =
        real_workload(static_cast<Compute>(x), map, static_cast<Compute>(FiniteMax<Out>::value), saturated);
    tally.saturated += saturated;
    return static_cast<Out>(y);
  }
}

}  // namespace gs
