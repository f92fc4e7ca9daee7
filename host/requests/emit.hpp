// Request-level outputs (docs/requests.md): the characteristics and the
// generic workload path in HDF5, request tables under /requests/<name>/, and
// the text a replayer or simulator reads: fio iolog v3 (one log per process,
// a job file and a script that creates the files), DiskSim ASCII and
// DXT-like text that `gpusynth characterize` reads back.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "host/requests/characteristics.hpp"
#include "io/attributes.hpp"

namespace gs {

// /characteristics/<class>/<name> (Table III), /files, /generic_path and
// /sanitized (every rank's requests) under `parent`.
void write_characterization(hid_t parent, const TraceCharacterization& characterization);

// One table `requests` (replica, seq, rank, time, duration, op, file, offset,
// size, session, flags) over all replicas, with `ops` and `files` naming the
// indices of replica 0's tables (every replica is written with its own, concatenated).
void write_request_tables(hid_t group, const std::vector<Workload>& replicas, const std::vector<Attribute>& attributes);

struct FioSummary {
  std::uint64_t logged = 0, skipped_metadata = 0, processes = 0;
  std::uint64_t skipped_empty = 0;          // data requests without offset, of size 0, or of 4 GiB or more
  std::uint64_t processes_without_io = 0;  // no job: fio refuses a log without I/O
};

// A directory DIR with rank_<r>.iolog, replay.fio and create_files.sh (files
// under DIR/files, sparse at their sizes). Written to a temporary directory
// and renamed; an existing DIR is replaced only when gpusynth wrote it.
FioSummary write_fio_replay(const std::string& directory, const Workload& workload, const std::string& title);

// DiskSim ASCII: "time_ms device block sectors flags" of the data requests,
// files laid end to end on device 0 (4 KiB aligned), flags 1 = read.
void write_disksim(const std::string& path, const Workload& workload);

// darshan-dxt-parser-like text: one block per (file, rank), X_POSIX or X_MPIIO lines.
void write_dxt_text(const std::string& path, const Workload& workload);

}  // namespace gs
