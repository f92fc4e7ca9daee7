// Request-level text outputs (docs/requests.md): what a replayer or a
// simulator reads: fio iolog v3 (one log per process, a job file and a script
// that creates the files), DiskSim ASCII and DXT-like text that `gpusynth
// characterize` reads back. The HDF5 tables are io/requests_file.hpp's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "estimators/requests.hpp"
#include "io/fio_servers.hpp"

namespace gs {

struct FioSummary {
  std::uint64_t logged = 0, skipped_metadata = 0, processes = 0;
  std::uint64_t skipped_empty = 0;          // data requests without offset, of size 0, or of 4 GiB or more
  std::uint64_t processes_without_io = 0;  // no job: fio refuses a log without I/O
  std::uint64_t reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;  // what the replay will do
  std::uint64_t file_bytes = 0;  // the files' sizes: create_files.sh makes them sparse; at most this on the target
  std::vector<std::string> job_files;  // the job files written that hold a job (replay.fio, or one per server)

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

// A replay split over fio servers (io/fio_servers.hpp): one job file per
// server, each with its block of processes. fio's client sends a server its
// job files only (no job option of its command line: fio issue #1629), and
// the server opens the iologs and the files they name from its own working
// directory: so they are named by their absolute paths (the staging folder
// must be at that path on every server), and the options are written into
// the job files. The latency logs go back to the client, which writes them
// into its working directory (the staging folder) as
// lat/rank_<r>_lat.<job>.log.<host> (fio's client.c, fio_client_handle_iolog).
struct FioJobFile {
  std::string name;    // in the staging folder, e.g. "replay.0.fio"
  std::string client;  // the server's HOST,PORT (its comment says how it is run)
  ProcessBlock block;
};
struct FioServerStaging {
  std::vector<FioJobFile> job_files;  // empty: one replay.fio of every process, paths relative to the folder
  // fio's command-line job options, `--KEY=VALUE` or `--KEY`, written first in
  // every [global] as KEY=VALUE: where fio reads them on its command line, the
  // job file's own settings after them win too.
  std::vector<std::string> job_options;
};
constexpr std::size_t kFioIologNameMax = 256;  // fio reads an iolog's file name as "%256s" (iolog.c, read_iolog)

// DIR/rank_<r>.iolog, replay.fio (or the servers' job files) and
// create_files.sh (files under DIR/files, sparse at their sizes) written
// into `directory`; `job_files` of the summary: the job files that hold a job.
// A workload none of whose processes has an I/O fio can issue is a UserError
// (a replay.fio without jobs replays nothing), as is, with servers, an
// absolute file name longer than fio reads.
FioSummary stage_fio_replay(const PendingReplayDirectory& directory, const Workload& workload, const std::string& title,
                            const FioServerStaging& servers = {});
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
