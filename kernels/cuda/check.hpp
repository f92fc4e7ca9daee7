// Checked CUDA and cuFFT calls: a failure becomes an InternalError naming the
// call, the library's message, the file and the line. Device code never throws.
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

#include <string>

#include "host/base/errors.hpp"

namespace gs {

inline const char* cufft_error_name(cufftResult result) {
  switch (result) {
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED (out of device memory; lower --memory-limit)";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    default:
      return "cuFFT error";
  }
}

}  // namespace gs

#define GS_CUDA_CHECK(call)                                                                                     \
  do {                                                                                                          \
    const cudaError_t gs_cuda_status_ = (call);                                                                 \
    if (gs_cuda_status_ != cudaSuccess)                                                                         \
      throw ::gs::InternalError(#call, std::string("failed: ") + cudaGetErrorString(gs_cuda_status_), __FILE__, \
                                __LINE__);                                                                      \
  } while (0)

#define GS_CUFFT_CHECK(call)                                                                                         \
  do {                                                                                                               \
    const cufftResult gs_cufft_status_ = (call);                                                                     \
    if (gs_cufft_status_ != CUFFT_SUCCESS)                                                                           \
      throw ::gs::InternalError(#call, std::string("failed: ") + ::gs::cufft_error_name(gs_cufft_status_), __FILE__, \
                                __LINE__);                                                                           \
  } while (0)
