// PIONEER's first two phases (docs/requests.md): sanitization (POSIX calls
// made inside an MPI-IO call collapse into it; file open sessions where the
// trace recorded none) and the generic workload path (the root process's
// requests, each child aligned with it to find the root-exclusive ones, the
// files classed as root-exclusive, private or shared, and how private names
// and shared offsets follow the rank).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/requests.hpp"

namespace gs {

enum class FileClass : std::uint8_t { root_exclusive, private_file, shared, none };
constexpr int kFileClasses = 3;  // the classes with files; `none` holds the operations that name no file
const char* file_class_name(FileClass c);  // root_exclusive, private, shared, none

// The name a private file has on rank r: the root's name with each number in
// it that follows the rank (base + step·r, at least `width` digits) replaced.
// Learned from the traced ranks; without them every rank gets "<name>.<rank>".
struct NamePattern {
  std::vector<std::string> texts;  // the parts between numbers (one more than numbers)
  struct Number {
    std::int64_t base = 0, step = 0;
    std::size_t width = 0;  // leading zeros kept
  };
  std::vector<Number> numbers;
  bool learned = false;
  std::string root_name;

  std::string name_for(std::int64_t rank) const;
};

// Learns the pattern from (rank, name) pairs, the root's first.
NamePattern learn_name_pattern(const std::vector<std::pair<std::int64_t, std::string>>& names);

struct FileInfo {
  FileClass file_class = FileClass::private_file;
  std::int64_t size = 0;         // FS: the largest offset + size
  std::int64_t rank_stride = 0;  // shared: rank r accesses offset + r·stride
  NamePattern name;              // private: the name on each rank
};

// A request stream with its files: a sanitized trace, a generic workload path,
// a synthetic path or its expansion to N processes.
struct Workload {
  RequestTable table;
  std::vector<FileInfo> files;  // parallel to table.files
  std::int32_t processes = 1;
  // Soft dependencies (Section IV-B): a data operation right after a seek in
  // its session becomes "<op>1" (the seek folded in), any other "<op>0"; the
  // seek each "<op>1" stands for.
  std::map<std::string, std::string> seek_before;
};

struct SanitizeSummary {
  std::uint64_t read = 0;              // requests in the trace
  std::uint64_t absorbed = 0;          // POSIX calls folded into the MPI-IO call that made them
  std::uint64_t inferred_sessions = 0; // sessions placed where the trace has no open/close
  std::uint64_t sessions = 0;
};

// The requests of every rank in time order with sessions, opens and closes.
// A (rank, file) without open/close records gets k sessions, k the opens
// darshan counted for it (MPI-IO opens for MPI-IO requests; 1 without
// counters, at most one per request), split at its k−1 longest idle gaps.
Workload sanitize(const RequestTrace& trace, SanitizeSummary& summary);

struct PathSummary {
  std::int32_t ranks = 0, children_aligned = 0;
  std::uint64_t root_requests = 0, root_exclusive = 0;
  std::uint64_t child_only_files = 0;   // files no root request touches (not in the path)
  std::uint64_t irregular_offsets = 0;  // shared requests whose children's offsets follow no stride
  std::vector<std::int64_t> root_exclusive_indices;  // in the path
};

// Alignment cells beyond which a child is not aligned (root × child requests).
constexpr std::uint64_t kMaxAlignmentCells = std::uint64_t{1} << 28;

// The generic workload path: the root's requests with seq = 0, 1, …, flagged
// root-exclusive when fewer than half of the children match them in a
// longest-common-subsequence alignment of (operation, file) shadows (private
// files compared by their order of first use).
Workload extract_path(const Workload& sanitized, PathSummary& summary);

// The soft-dependency forms of a path's data operations (seq renumbered), and
// back: each "<op>1" becomes its seek and "<op>" again, the seek taking the
// sequence ID before it (later IDs move up by one). A path is in seq order.
void derive_soft_dependencies(Workload& path);
void lower_soft_dependencies(Workload& path);

// Every rank's requests of `path` for `processes` ranks (PIONEER's generation
// engine): root-exclusive ones on rank 0 only, private files renamed per rank,
// shared offsets moved by rank·stride. Times and sequence IDs as in the path,
// which has its soft dependencies lowered already (synthesize_processes).
Workload expand(const Workload& path, std::int32_t processes);

}  // namespace gs
