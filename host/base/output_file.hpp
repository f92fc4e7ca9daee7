// Every file gpusynth writes goes through here: it is written under a
// temporary name beside its target and renamed over the target only when
// complete, so a failure (an error, a signal, a full disk) leaves what was there
// before. What may be replaced is a regular file or nothing; a symbolic link is
// followed (the file it points to is replaced, the link stays); a directory, a
// device, a FIFO or a socket is refused before any work starts, and checked
// again just before the rename.
#pragma once

#include <string>

namespace gs {

// The path that will be replaced for `path` (the target of a symlink chain),
// with the checks above; `option` names where the path came from ("-o",
// "output") in the errors, which are UserErrors.
std::string resolve_output_target(const std::string& path, const std::string& option);

// A write error as the user sees it: "cannot write 'PATH': strerror (errno N)".
[[noreturn]] void throw_write_error(const std::string& path, int error_number);

// The temporary file of one output, ".NAME.tmp-HOST-PID" in the target's
// directory, created exclusively. Temporary files of this output left by a
// process of this host that no longer exists (killed with SIGKILL, power
// loss) are removed first and named on stderr.
class PendingOutput {
 public:
  PendingOutput(const std::string& path, const std::string& option);
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;
  ~PendingOutput();  // removes the temporary file unless committed

  const std::string& path() const { return path_; }            // as the user gave it
  const std::string& temp_path() const { return temp_path_; }  // exists from construction on

  // Makes the temporary file durable (fsync), checks the target once more and
  // renames the temporary file over it. The temporary file must be closed.
  void commit();

 private:
  std::string path_, option_, target_, temp_path_;
  bool committed_ = false;
};

// `text` written to `path` through a PendingOutput.
void write_file_atomically(const std::string& path, const std::string& text, const std::string& option);

// The temporary name pattern's prefix for `path` (".NAME.tmp-"), for tests and docs.
std::string temporary_prefix(const std::string& path);

}  // namespace gs
