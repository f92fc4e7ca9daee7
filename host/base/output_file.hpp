// Every file gpusynth writes goes through here: it is written under a
// temporary name beside its target and renamed over the target only when
// complete, so a failure (an error, a signal, a full disk) leaves what was there
// before. What may be replaced is a regular file or nothing; a symbolic link is
// followed (the file it points to is replaced, the link stays); a directory, a
// device, a FIFO or a socket is refused before any work starts, and checked
// again just before the rename.
#pragma once

#include <sys/types.h>

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
  // The same as sync() then publish(), after a check for interrupts.
  void commit();
  // The two halves of commit(), for outputs committed together (a run's HDF5
  // file and its text outputs, docs/requests.md): sync() makes the temporary
  // file durable and checks the target again (this is where a full disk or a
  // quota shows); publish() is the rename alone, and polls no interrupt.
  void sync();
  void publish();

 private:
  std::string path_, option_, target_, temp_path_;
  bool committed_ = false;
};

// `text` written to `path` through a PendingOutput.
void write_file_atomically(const std::string& path, const std::string& text, const std::string& option);

// Writes `text` to `fd` (open for writing; -1 when opening failed, errno set)
// and closes it; a failure is the UserError of throw_write_error naming `shown`.
void write_and_close(int fd, const std::string& text, const std::string& shown);

// Makes the staged output durable (fsync of a file; syncfs of the file system
// holding a directory's files) and checks that `target` is still nothing or
// what may be replaced (a regular file, or a directory); else a UserError
// naming `option` and `shown`, the path the user gave.
void sync_and_recheck(const std::string& staged, bool directory, const std::string& target, const std::string& option,
                      const std::string& shown);

// `text` written to the temporary file of `output` (not yet synced or published).
void write_pending_text(const PendingOutput& output, const std::string& text);

// What gpusynth made, and so may replace or remove again, carries its mark: a
// folder (a report, a fio replay folder, the staging folder of either) holds
// a marker file, a staged file the extended attribute user.gpusynth (where the
// file system keeps extended attributes; elsewhere a stale one is only named).
// A name alone proves nothing: a user's ".x.tmp-HOST-99999" stays theirs.
constexpr const char* kReportMarker = ".gpusynth-report";
constexpr const char* kReplayMarker = ".gpusynth-replay";
// Whether `directory` holds the marker file `marker` (a regular file).
bool holds_marker(const std::string& directory, const char* marker);
// `text` written to `directory`/`marker` (replacing what it held).
void write_marker(const std::string& directory, const char* marker, const std::string& text);

// Removes the temporary files and directories of `path` (".NAME.tmp-HOST-PID…",
// and the "NAME.tmp-PID" folders versions before 2026-11 staged replays in)
// that a process of this host that no longer runs left and that carry
// gpusynth's mark, as PendingOutput does for its own; for outputs staged as
// directories (a report, the fio replay folder). Unmarked ones are named on
// stderr and left.
void remove_stale_temporaries_of(const std::string& path);

// What a file of this st_mode is, for messages: "a FIFO (named pipe)", "a directory", ….
const char* file_kind(mode_t mode);

// Puts the finished directory `staged` where `target` is (a report, a fio
// replay folder): a plain rename where there is no target; else the two names
// exchanged at once (renameat2 RENAME_EXCHANGE) and the old directory removed,
// or, on a file system that cannot exchange, the old one moved aside to
// `staged`.old, the new one renamed in and the old removed (put back when the
// second rename fails). False, with errno set, when a rename fails.
bool replace_directory(const std::string& staged, const std::string& target);

// The temporary name pattern's prefix for `path` (".NAME.tmp-"), for tests and docs.
std::string temporary_prefix(const std::string& path);

}  // namespace gs
