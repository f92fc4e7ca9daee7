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

#include "estimators/requests.hpp"

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
// files compared by their order of first use) and no other rank is of the
// root's class. The ranks are grouped into classes by what they do
// (summary.rank_classes); `other_classes` receives the generic path of each
// class but the root's (its smallest rank's requests).
Workload extract_path(const Workload& sanitized, PathSummary& summary, std::vector<Workload>* other_classes = nullptr);

// The soft-dependency forms of a path's data operations (seq renumbered), and
// back: each "<op>1" becomes its seek and "<op>" again, the seek taking the
// sequence ID before it (later IDs move up by one). A path is in seq order.
void derive_soft_dependencies(Workload& path);
void lower_soft_dependencies(Workload& path);

// A replica's generic paths, one per rank class, and the class each process
// runs (docs/requests.md, "Rank classes").
struct ClassPaths {
  std::vector<Workload> paths;               // class 0: the root's (its root-exclusive requests on process 0 alone)
  std::vector<std::int32_t> ranks;           // per class: the trace rank whose offsets its path holds
  std::vector<std::uint32_t> process_class;  // per process
  std::vector<std::int32_t> process_rank;    // per process: the trace rank whose part it takes
};

// Every process's requests of its class's path (PIONEER's generation engine,
// one generic path per rank class), made a block at a time in issue order:
// (seq, process), requests of one seq and process in path order, the order
// sort_for_issue gives. So a replica of many processes is written as it is
// made and only its files are held. Root-exclusive requests stay on process
// 0, private files are named per process, shared offsets move by
// (process − the class's rank)·stride; times and sequence IDs as in the
// paths, which have their soft dependencies lowered already (synthesize_replica).
class Expansion {
 public:
  // Names every process's files in the order a process-by-process walk of
  // the paths meets them (the file ids of the whole replica, fixed before any
  // request is made) and sizes each file over every process. A shared offset
  // moved outside 0 to 2^62 is a UserError here.
  explicit Expansion(ClassPaths paths);
  // One class: every process runs `path` (offsets of rank 0), process i taking rank i's part.
  Expansion(Workload path, std::int32_t processes);

  // The replica without its requests: ops, files (FS over every process), processes.
  const Workload& files() const { return files_; }
  // The path the processes of `rank_class` run.
  const Workload& path(std::uint32_t rank_class = 0) const { return classes_[rank_class].path; }
  std::uint32_t class_of(std::size_t process) const { return process_class_[process]; }
  std::int32_t rank_of(std::size_t process) const { return process_rank_[process]; }
  std::int32_t processes() const { return processes_; }
  std::uint64_t requests() const { return requests_; }
  // The requests of `rank_class`'s path (indices into its table) in the order each of its processes
  // makes them: by seq, in path order within one seq. A process makes those that makes() admits.
  const std::vector<std::size_t>& path_order(std::uint32_t rank_class) const { return classes_[rank_class].order; }
  // Whether `process` makes request `r` of its path: a root-exclusive request is process 0's alone.
  static bool makes(std::size_t process, const Request& r) { return process == 0 || !(r.flags & kRootExclusive); }
  // Appends the next requests, at most `count`, to `out`; returns how many (0 once all are made).
  std::size_t next(std::vector<Request>& out, std::size_t count);

 private:
  // A path's requests by seq (stable), cut into groups of one seq.
  struct Group {
    std::size_t begin, end;
    std::int64_t seq;
    bool root_only;  // every request of the group is root-exclusive
  };
  struct Class {
    Workload path;
    std::int32_t rank = 0;
    std::vector<std::uint32_t> ops;              // path op -> the replica's
    std::vector<std::vector<std::int32_t>> ids;  // per path file: its id on each process (one for all unless private)
    std::vector<std::size_t> order;
    std::vector<Group> groups;
    std::size_t group = 0;  // the cursor's group, or the next one
  };
  Request on_rank(const Class& k, std::size_t source, std::int32_t rank) const;
  std::int32_t name_file(Class& k, std::int32_t path_file, std::int32_t rank);
  const Group* group_at(const Class& k, std::int64_t seq) const;

  std::vector<Class> classes_;
  std::vector<std::uint32_t> process_class_;
  std::vector<std::int32_t> process_rank_;
  Workload files_;
  std::int32_t processes_;
  std::int64_t sessions_ = 0;  // sessions per process: process r's are numbered from r·sessions_
  std::uint64_t requests_ = 0;
  std::vector<std::int64_t> seqs_;    // every class's sequence IDs, ascending, once
  std::vector<bool> seq_root_only_;   // per seqs_: its groups are root-exclusive (process 0 alone)
  std::size_t seq_ = 0, member_ = 0;  // the cursor: the next request is member_ of its group at seqs_[seq_] on rank_
  std::int32_t rank_ = 0;
};

// What is left of an expansion, made at once: its files with every request to come, in issue order.
Workload drained(Expansion& expansion);
// The whole replica at once (an Expansion drained), in issue order.
Workload expand(const Workload& path, std::int32_t processes);

}  // namespace gs
