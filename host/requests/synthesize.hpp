// PIONEER's synthesis (Algorithm 1, docs/requests.md): a synthetic generic
// workload path drawn from the characteristics, timed by slack times (the
// other timings are host/requests/timing.hpp's), and the checker of the I/O
// library's hard dependencies.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/requests/characteristics.hpp"
#include "host/requests/random_draws.hpp"
#include "host/requests/timing.hpp"
#include "host/requests/workload.hpp"
#include "kernels/philox.hpp"

namespace gs {

// A user's change of one characteristic: every draw becomes scale·x + shift.
struct CharacteristicOverride {
  double scale = 1, shift = 0;
};

struct SynthesisOptions {
  bool template_mode = false;  // the path itself instead of draws
  // file: each synthetic file follows a real file of its class (its first
  // open, OT, FS, its sessions in order with their operations, sizes and
  // gaps, the gaps shuffled; offsets, slack and execution times drawn).
  // class: every characteristic drawn from the class's distributions alone
  // (Algorithm 1 as printed; a session's D, SEQ, AM and operations together).
  enum class Draw { file, class_pools } draw = Draw::file;
  RngStreamKey key;            // (seed, stream); the replica is the third counter word
  // Of the characteristics the table marks overridable (ISG, IRG, D, OT, FS, OFF, SIZE, SEQ, ST).
  std::map<Characteristic, CharacteristicOverride> overrides;
  std::array<std::optional<std::uint64_t>, kClassesWithFiles> files;  // OS per class, else the path's
  // The memory a synthetic path, and a replica expanded to its processes, may
  // take (replica_bytes): beyond it a UserError that ends with `limit_note`
  // (the requests' memory plan, docs/requests.md).
  std::uint64_t max_replica_bytes = UINT64_MAX;
  std::string limit_note;
};

// What a replica is synthesized from: each rank class's generic path and
// characteristics (class 0 the root's), and the trace's ranks as roles.
struct SynthesisSource {
  struct Class {
    const Workload* path;
    const Characteristics* characteristics;
    std::int32_t rank;  // its smallest rank: the one whose offsets the path holds
  };
  std::vector<Class> classes;
  std::vector<std::int32_t> roles;        // the trace's ranks with requests, ascending (the root first)
  std::vector<std::uint32_t> role_class;  // per role
};
// A trace's classes and ranks.
SynthesisSource synthesis_source(const TraceCharacterization& characterized);
// One class of one role, rank 0 (characteristics given in the config).
SynthesisSource synthesis_source(const Workload& path, const Characteristics& characteristics);

// What the requests of a run take in memory, per request and per file, from
// synthesis to the HDF5 write (the Request, its table row and the row's
// packed copy; a file's names, map entry and FileInfo). Measured; the plan
// of the requests' memory and its guards count with them.
constexpr std::uint64_t kBytesPerRequest = 256;
constexpr std::uint64_t kBytesPerFile = 512;
std::uint64_t replica_bytes(double requests, double files);
// The dependency check's state of one (process, file) pair: a hash-map node and its bucket.
constexpr std::uint64_t kBytesPerDependencyState = 64;

// The bytes an offset + size may reach (docs/requests.md).
constexpr double kMaxRequestBytes = 4611686018427387904.0;  // 2^62

// What one replica will hold, expected from the characteristics and the
// overrides (the plan made before any work; the guards above are exact), a
// rank class's share of the processes its share of the trace's ranks.
struct SynthesisSize {
  double path_requests = 0;     // the synthetic path
  double replica_requests = 0;  // expanded to the processes
  double replica_files = 0;
  double replica_states = 0;  // (process, file) pairs the dependency check follows
};

// What one replica will read and write, expected (what --dry-run says a
// replay will do): the paths' data requests for `processes` processes
// (root-exclusive ones once); in sample mode their sizes through SIZE's
// override (at least 1 byte, as synthesis keeps them) and their number scaled
// to the requests SynthesisSize expects of each class.
struct SynthesisVolume {
  double reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
};

// Both, from one pass over the rank classes.
struct SynthesisExpectation {
  SynthesisSize size;
  SynthesisVolume volume;
};
SynthesisExpectation expected_synthesis(const SynthesisSource& source, const SynthesisOptions& options,
                                        std::int32_t processes);

// One synthetic generic workload path (seq = 0, 1, … after the merge, holes
// filled with RT2 operations), timed by slack time. Template mode copies the
// path, times included. Reproducible from (key, replica, rank class: RandomDraws::of_rank_class).
Workload synthesize_path(const Workload& path, const Characteristics& characteristics, const SynthesisOptions& options,
                         std::uint32_t replica, std::uint32_t rank_class = 0);

// Which role (an index into the source's roles) each of `processes`
// processes takes: process 0 the root's; the others dealt the roles like a
// shuffled deck, so that each goes to ⌊N/M⌋ or ⌈N/M⌉ of the N processes and
// N = M processes take every rank's part once. Draws: Philox at (key,
// replica), draw word kRoleDraws.
std::vector<std::uint32_t> deal_roles(std::size_t roles, std::size_t processes, RngStreamKey key,
                                      std::uint32_t replica);

// A replica for `processes` processes: the roles dealt, a synthetic path for
// each rank class a process takes, their soft dependencies lowered (seeks put
// back), ready to be expanded a block at a time (Expansion). The memory
// guard counts the replica's files and the synthetic paths, and with `whole`
// every request too (a replica held whole: the one the text outputs come
// from, those a replay runs).
Expansion synthesize_replica(const SynthesisSource& source, const SynthesisOptions& options, std::uint32_t replica,
                             std::int32_t processes, bool whole);
// The same replica expanded at once, in issue order.
Workload synthesize_processes(const SynthesisSource& source, const SynthesisOptions& options, std::uint32_t replica,
                              std::int32_t processes);

// The requests a streamed replica makes at a time (Expansion::next), on
// their way to the HDF5 table: what the memory plan counts beyond its files.
constexpr std::size_t kStreamedRequests = 8192;

// The trace's own requests (sanitized: every rank with its recorded times,
// from the first request on) as the original a replay compares replicas
// with: sizes and offsets through the SIZE and OFF overrides as synthesis
// applies them (a request scaled below 1 byte keeps 1; a shared file's rank
// stride is in its offsets already), each file as large as the requests reach.
Workload replay_original(const Workload& sanitized, const SynthesisOptions& options);

// Hard dependencies per process and file (Fig. 1): the kinds of violation and
// how many of each, with the first few requests (table indices) that broke them.
struct DependencyReport {
  std::map<std::string, std::uint64_t> violations;  // outside_session, after_close, double_open,
                                                    // write_in_read_only, read_in_write_only, unclosed
  std::vector<std::pair<std::string, std::size_t>> examples;
  std::uint64_t total() const;
};

// The checker, fed a replica's requests in any order that keeps each
// process's own order (issue order does, as a block of it comes); `index`:
// where the request is in the table, for the examples.
class DependencyChecker {
 public:
  void add(const RequestTable& table, const Request& request, std::size_t index);
  // The report, once every request is in (a session still open is `unclosed`).
  DependencyReport report() const;

 private:
  struct State {
    bool open = false, was_closed = false;
    std::uint32_t mode = 0;
  };
  static void violation(DependencyReport& report, const char* kind, std::size_t index);
  std::unordered_map<std::uint64_t, State> states_;  // by (rank, file)
  DependencyReport report_;
};
// A whole workload checked, in (rank, seq) order.
DependencyReport check_dependencies(const Workload& workload);

}  // namespace gs
