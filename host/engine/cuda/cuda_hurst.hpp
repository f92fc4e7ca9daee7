// Hurst estimates of a batch's rows on the device, by kernels/hurst.hpp's
// formulas (the host's estimators/hurst.cpp runs the same ones): the study's
// `hurst` metric without copying a batch back.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "kernels/hurst.hpp"
#include "kernels/workload.hpp"

namespace gs {

class DeviceHurst {
 public:
  virtual ~DeviceHurst() = default;
  // out[r · stride] = H(row r) − reference for r < count (NaN where the
  // estimator has none); `rows`: count × n device values of the storage type,
  // `out` device memory. Queued on the stream given at construction.
  virtual void estimate(const void* rows, std::uint64_t count, double* out, std::uint64_t stride, double reference) = 0;
};

// For rows of n values, at most max_rows per call.
std::unique_ptr<DeviceHurst> make_device_hurst(HurstMethod method, StorageType storage, std::uint64_t n,
                                               std::uint64_t max_rows, cudaStream_t stream);

}  // namespace gs
