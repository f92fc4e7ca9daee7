// What fio did in a replay gpusynth staged (io/request_texts.hpp), read back
// from fio's own files: replay.fio (each process's job and its startdelay),
// the iologs it replayed (which opens, closes and syncs came after which
// I/O) and the latency logs (log_offset=1: completion in ms from the job's
// start, latency in ns, direction, size, offset; a fio server's are
// log_offset=0, the priority in the offset's place: neither is read).
#pragma once

#include <string>
#include <vector>

#include "estimators/replay_fidelity.hpp"

namespace gs {

// The replay in `directory`, times in s from fio's start of the jobs: a data
// request's completion is its job's startdelay plus the logged time, its
// issue that minus its latency; each metadata operation takes the completion
// of the I/O before it in its process (fio runs it right then; its job's
// start before any). psync replays one request at a time, so the k-th line
// of a latency log is the k-th data request of its iolog: a log that
// disagrees in number, direction or size is a UserError naming the file and
// line, as is a line that is not fio's. `job_files`: the replay's job files in
// `directory` (a replay split over fio servers has one per server, its
// iologs named by absolute paths and its latency logs named with the
// server's host after them); the processes of all of them in the order
// of their job names, as one replay.fio gives them.
ReplayRecord read_fio_replay(const std::string& directory, const std::vector<std::string>& job_files = {"replay.fio"});

}  // namespace gs
