// Device memory and streams owned by one object each (the CUDA backend and its
// in-place comparison).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "host/cuda/cuda_check.hpp"

namespace gs {

// A batch is sized from the memory budget; what a study's comparison needs
// beside it (sorted copies, periodograms) is worked through in chunks of rows
// whose workspace stays below this.
constexpr std::uint64_t kComparisonWorkspaceBytes = 512ull << 20;

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count > 0) GS_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (data_) cudaFree(data_);
  }
  T* data() const { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

class Stream {
 public:
  Stream() { GS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace gs
