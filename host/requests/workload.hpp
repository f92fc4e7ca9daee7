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
// engine): root-exclusive ones on rank 0 only, private files renamed per rank,
// shared offsets moved by rank·stride. Times and sequence IDs as in the path,
// which has its soft dependencies lowered already (synthesize_processes).
Workload expand(const Workload& path, std::int32_t processes);

}  // namespace gs
