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

// Learns the pattern from (rank, name) pairs, the root's first.
NamePattern learn_name_pattern(const std::vector<std::pair<std::int64_t, std::string>>& names);

// The requests of every rank in time order with sessions, opens and closes.
// A (rank, file) without open/close records gets k sessions, k the opens
// darshan counted for it (MPI-IO opens for MPI-IO requests; 1 without
// counters, at most one per request), split at its k−1 longest idle gaps.
Workload sanitize(const RequestTrace& trace, SanitizeSummary& summary);

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
// engine), made a block at a time in issue order: (seq, rank), requests of
// one seq and rank in path order, the order sort_for_issue gives. So a replica
// of many processes is written as it is made and only its files are held.
// Root-exclusive requests stay on rank 0, private files are renamed per rank,
// shared offsets move by rank·stride; times and sequence IDs as in the path,
// which has its soft dependencies lowered already (synthesize_replica).
class Expansion {
 public:
  // Names every rank's files in the order a rank-by-rank walk of the path
  // meets them (the file ids of the whole replica, fixed before any request
  // is made) and sizes each file over every rank. A shared offset moved
  // outside 0 to 2^62 is a UserError here.
  Expansion(Workload path, std::int32_t processes);

  // The replica without its requests: ops, files (FS over every rank), processes.
  const Workload& files() const { return files_; }
  // The path every process runs (its root-exclusive requests on process 0 alone).
  const Workload& path() const { return path_; }
  std::uint64_t requests() const { return requests_; }
  // Appends the next requests, at most `count`, to `out`; returns how many (0 once all are made).
  std::size_t next(std::vector<Request>& out, std::size_t count);

 private:
  Request on_rank(std::size_t source, std::int32_t rank) const;
  std::int32_t name_file(std::int32_t path_file, std::int32_t rank);

  Workload path_, files_;
  std::int32_t processes_;
  std::vector<std::vector<std::int32_t>> ids_;  // per path file: its id on each rank (one for all unless private)
  std::int64_t sessions_ = 0;                   // the path's sessions: rank r's are numbered from r·sessions_
  std::uint64_t requests_ = 0;
  // The path's requests by seq (stable), cut into groups of one seq, each
  // issued on rank 0, 1, …; a group of root-exclusive requests on rank 0 only.
  struct Group {
    std::size_t begin, end;
    bool root_only;
  };
  std::vector<std::size_t> order_;
  std::vector<Group> groups_;
  std::size_t group_ = 0, member_ = 0;  // the cursor: the next request is member_ of group_ on rank_
  std::int32_t rank_ = 0;
};

// What is left of an expansion, made at once: its files with every request to come, in issue order.
Workload drained(Expansion& expansion);
// The whole replica at once (an Expansion drained), in issue order.
Workload expand(const Workload& path, std::int32_t processes);

}  // namespace gs
