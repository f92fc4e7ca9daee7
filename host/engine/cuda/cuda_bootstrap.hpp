// A study's bootstrap resamples on the device (docs/studies.md):
// kernels/compare.hpp's Philox indices and per-resample statistics, so every
// interval equals the CPU's to the bit.
#pragma once

#include <memory>

#include "estimators/bootstrap.hpp"

namespace gs {

std::unique_ptr<Resampler> make_cuda_resampler();

}  // namespace gs
