// Request-level text outputs (docs/requests.md): what a replayer or a
// simulator reads: fio iolog v3 (one log per process, a job file and a script
// that creates the files), DiskSim ASCII and DXT-like text that `gpusynth
// characterize` reads back. The HDF5 tables are io/requests_file.hpp's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/requests.hpp"

namespace gs {

struct FioSummary {
  std::uint64_t logged = 0, skipped_metadata = 0, processes = 0;
  std::uint64_t skipped_empty = 0;          // data requests without offset, of size 0, or of 4 GiB or more
  std::uint64_t processes_without_io = 0;  // no job: fio refuses a log without I/O
  std::uint64_t reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;  // what the replay will do
  std::uint64_t file_bytes = 0;  // the files' sizes: create_files.sh makes them sparse; at most this on the target

  // "4608 reads of 17.2 GiB and 4608 writes of 17.2 GiB into 257 files of up to 1.1 GiB".
  std::string volume(std::uint64_t files) const;
};

// The directory a fio output `path` replaces, checked before any work: a new
// path in an existing, writable folder, or a directory gpusynth wrote (its
// `.gpusynth-replay` marker); a symbolic link is followed. A file, a FIFO, a
// device, any other directory or a missing folder is a UserError naming
// `option` and the path.
std::string resolve_replay_directory(const std::string& path, const std::string& option);

// A fio replay directory while it is written: ".NAME.tmp-HOST-PID" beside its
// target, marked as gpusynth's (kReplayMarker; stale marked ones of dead
// processes of this host removed first), removed with its contents
// unless published. sync() makes its files durable; publish() puts it in the
// target's place in one rename (exchanged with the old replay directory,
// which is then removed) and polls no interrupt.
class PendingReplayDirectory {
 public:
  PendingReplayDirectory(const std::string& path, const std::string& option);
  PendingReplayDirectory(const PendingReplayDirectory&) = delete;
  PendingReplayDirectory& operator=(const PendingReplayDirectory&) = delete;
  ~PendingReplayDirectory();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }
  void write(const std::string& name, const std::string& text) const;  // a file in it
  void sync() const;
  void publish();

 private:
  std::string path_, option_, target_, temp_;
  bool published_ = false;
};

// DIR/rank_<r>.iolog, replay.fio and create_files.sh (files under DIR/files,
// sparse at their sizes) written into `directory`. A workload none of whose
// processes has an I/O fio can issue is a UserError (a replay.fio without
// jobs replays nothing).
FioSummary stage_fio_replay(const PendingReplayDirectory& directory, const Workload& workload,
                            const std::string& title);
// The same, staged and published at once; an existing DIR is replaced only
// when gpusynth wrote it.
FioSummary write_fio_replay(const std::string& directory, const Workload& workload, const std::string& title);

// DiskSim ASCII: "time_ms device block sectors flags" of the data requests,
// files laid end to end on device 0 (4 KiB aligned), flags 1 = read.
std::string disksim_text(const Workload& workload);
void write_disksim(const std::string& path, const Workload& workload);

// darshan-dxt-parser-like text: one block per (file, rank) with its write and
// read counts, X_POSIX or X_MPIIO lines.
std::string dxt_text(const Workload& workload);
void write_dxt_text(const std::string& path, const Workload& workload);

}  // namespace gs
