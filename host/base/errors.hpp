// Typed errors. A UserError is a mistake the user can fix (bad config, bad
// option, invalid parameter, missing directory): exit code 2. An InternalError
// is a failure of a library call (HDF5, FFTW, CUDA) caught at the boundary with
// the call, file and line: exit code 1.
#pragma once

#include <stdexcept>
#include <string>

namespace gs {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitUser = 2;

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InternalError : public std::runtime_error {
 public:
  InternalError(const std::string& call, const std::string& what, const char* file, int line);
};

// A user error located in a file: "path:line:column: message".
UserError located_error(const std::string& path, int line, int column, const std::string& message);

}  // namespace gs

// Wrap a library call whose failure is signalled by a negative return value
// (HDF5 style); throws InternalError naming the call.
#define GS_CHECK_NONNEG(call)                                                                      \
  ([&]() {                                                                                         \
    const auto gs_status_ = (call);                                                                \
    if (gs_status_ < 0) throw ::gs::InternalError(#call, "returned an error", __FILE__, __LINE__); \
    return gs_status_;                                                                             \
  }())
