// Darshan's binary logs (.darshan), read directly (docs/traces.md): the
// header, the job record, the name records (record id → path), the POSIX,
// MPI-IO and STDIO counters gpusynth uses, DXT_POSIX and DXT_MPIIO operations,
// HEATMAP records and the partial flags, for the log format versions
// darshan-util reads (3.00, 3.10, 3.20, 3.21, 3.41), in either byte order,
// with ZLIB, BZIP2 or no compression. The layouts are learned from
// darshan-util's headers (darshan-log-format.h and the per-module
// *-log-format.h and logutils); older module versions are read in their own
// layout, as darshan-util up-converts them. A log that is cut, damaged, of
// another version or whose regions' lengths lie is a UserError naming the file
// and what is wrong, never a shorter log.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

// One counter of a record by darshan-parser's name ("POSIX_BYTES_READ"); the
// name points into a static table.
struct DarshanCounter {
  const char* name;
  double value;
};

// A POSIX, MPI-IO or STDIO record: the counters the darshan readers use.
struct DarshanFileRecord {
  const char* module = "";  // darshan-parser's module name: "POSIX", "MPI-IO", "STDIO"
  std::int64_t rank = 0;    // -1: a record shared by every rank
  std::uint64_t id = 0;
  std::string name;  // the file's path; darshan-parser's "(null)" when the log has no name for it
  std::vector<DarshanCounter> counters;
};

// One DXT operation: offset and length in bytes, times in seconds from the job's start.
struct DxtSegment {
  std::int64_t offset = 0, length = 0;
  double start = 0, end = 0;
};

// One file of one rank in DXT_POSIX or DXT_MPIIO: its writes, then its reads.
struct DxtFileRecord {
  bool mpiio = false;
  std::int64_t rank = 0;
  std::uint64_t id = 0;
  std::string name;
  std::uint64_t writes = 0;  // segments[0, writes) are writes, the rest reads
  std::vector<DxtSegment> segments;
};

// A HEATMAP record: bytes read and written per bin of bin_width seconds.
struct DarshanHeatmap {
  std::int64_t rank = 0;
  std::uint64_t id = 0;
  std::string name;
  double bin_width = 0;
  std::vector<std::int64_t> write_bins, read_bins;
};

struct DarshanBinaryLog {
  std::string version;      // the log format version, "3.41"
  std::string compression;  // ZLIB, BZIP2 or NONE
  std::int64_t uid = 0, jobid = 0, nprocs = 0;
  std::int64_t start_time = 0, end_time = 0;  // Unix seconds, as darshan-parser prints them
  double run_time = 0;                        // seconds, darshan-parser's "# run time:"
  // The modules darshan marked incomplete as each parser warns of them:
  // darshan-parser (every module but DXT) and darshan-dxt-parser (DXT and LUSTRE).
  std::vector<std::string> incomplete_counters, incomplete_dxt;
  bool has_counter_data = false;  // a module darshan-parser prints holds data
  bool has_dxt_data = false;
  std::vector<DarshanFileRecord> records;
  std::vector<DxtFileRecord> dxt;
  std::vector<DarshanHeatmap> heatmaps;
};

// Which parts to decode (the others are only located and checked for bounds).
enum DarshanParts : unsigned { kDarshanCounters = 1, kDarshanDxt = 2, kDarshanHeatmap = 4, kDarshanAll = 7 };

// Whether `head` (a file's first bytes) starts like a darshan binary log: a
// "3.xx" version string and darshan's magic number in either byte order.
bool looks_like_darshan_log(std::string_view head);

// The same for the file at `path` (false when it cannot be read).
bool is_darshan_log(const std::string& path);

// Whether the log at `path` holds DXT data (DXT_POSIX or DXT_MPIIO records), from its header alone:
// what detect_trace_format needs, without reading or inflating the rest of the log.
bool darshan_log_has_dxt(const std::string& path);

// The log at `path`, or the log in `bytes` (named `path` in messages).
DarshanBinaryLog read_darshan_log_file(const std::string& path, unsigned parts = kDarshanAll);
DarshanBinaryLog parse_darshan_log(std::string_view bytes, const std::string& path, unsigned parts = kDarshanAll);

}  // namespace gs
