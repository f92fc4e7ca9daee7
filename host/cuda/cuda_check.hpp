// Checked CUDA and cuFFT calls: a failure becomes an InternalError naming the
// call, the library's message, the file and the line. Device code never throws.
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

#include <string>

#include "host/errors.hpp"

namespace gs {

const char* cufft_error_name(cufftResult result);

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
