// A study's per-replica metrics on the device (docs/studies.md):
// the rows of a batch are sorted by CUB's segmented sort where they were
// generated, the formulas of kernels/compare.hpp run on them, and only the
// metrics, quantile curves and ACFs come back to the host.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "estimators/compare.hpp"
#include "kernels/workload.hpp"

namespace gs {

class DeviceComparer {
 public:
  virtual ~DeviceComparer() = default;
  // `rows`: count × n device values of the storage type, n = the real series'
  // length; runs on the comparer's stream and returns when the results are in.
  virtual BatchComparison compare(const void* rows, std::uint64_t count) = 0;
};

std::unique_ptr<DeviceComparer> make_device_comparer(StorageType storage, const SeriesProfile& real,
                                                     const CompareOptions& options, std::uint64_t max_rows,
                                                     cudaStream_t stream);

}  // namespace gs
