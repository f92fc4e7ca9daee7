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
constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as a shell reports it

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
