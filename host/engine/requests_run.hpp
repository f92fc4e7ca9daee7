// The `requests:` of a run (docs/requests.md). Before any work
// (prepare_requests, called by run_config): each trace read and
// characterized, the memory every entry's replicas will take planned against
// the budget, and every output path of the run checked. Then, once the
// ensembles are in the run's file: `replicas` synthetic paths drawn and
// expanded to the processes, timed by slack or by the counts of an ensemble,
// checked for dependency violations and written under /requests/<name>/; the
// fio, DiskSim and DXT-like text of one replica are staged beside their
// targets and published with the HDF5 file, as one unit.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/base/output_file.hpp"
#include "host/engine/config.hpp"
#include "host/engine/context.hpp"
#include "host/requests/characteristics.hpp"
#include "host/requests/phase_timing.hpp"
#include "host/requests/synthesize.hpp"
#include "io/ensemble_file.hpp"
#include "io/request_texts.hpp"
#include "io/requests_file.hpp"

namespace gs {

// What the requests are expected to take in memory, against the budget:
// --memory-limit, or 3/4 of the available memory (and of what `ulimit -v` or
// `ulimit -d` leaves). A replica is written to the file as it is made, a
// block of requests at a time, holding its files; held whole are the replica
// an entry's text outputs come from and, for a replay, every replica.
// What an entry's replicas are made from, made once by the plan: its trace's
// characterization (null when the config gives the characteristics), the rank
// classes' generic paths and characteristics (pointing into the
// characterization, or into the entry's spec when given: the spec outlives
// the plan), the processes and, for `timing: phases`, the trace's phases.
struct EntrySource {
  std::shared_ptr<const TraceCharacterization> characterized;
  std::optional<PhaseModel> phases;
  SynthesisSource synthesis;
  std::int32_t processes = 1;
};

struct RequestsPlan {
  std::uint64_t budget = UINT64_MAX;
  std::string budget_source;
  struct Entry {
    std::string name;
    std::shared_ptr<const EntrySource> source;
    SynthesisSize size;      // one replica, expected
    SynthesisVolume volume;  // what it reads and writes, expected
    bool replays = false;    // emits a fio replay
    std::uint32_t replicas = 1;
    std::string holding;      // how its replicas are held (the plan's words)
    std::uint64_t bytes = 0;  // the entry's replicas, with the texts' replica of the entries before
    std::string warning;      // what to know of the trace (incomplete modules, unmatched counters), else empty
  };
  std::vector<Entry> entries;
  // What the outputs take on disk, about: the request tables and
  // characterizations in the run's HDF5 file, and each text output (its
  // path as the user sees it, and the path it lands on once links are
  // followed). The run checks them with the ensembles against each file
  // system's free space before any work (host/engine/run.cpp).
  struct Output {
    std::string what, at, path, target;
    double bytes = 0;
  };
  double file_bytes = 0;
  std::vector<Output> texts;
  std::string text() const;  // the lines --dry-run prints
};

// The requests' default memory budget and where it comes from.
std::uint64_t default_requests_budget(std::string& source);

// Before any work: every entry's trace read and characterized and its phases
// fitted (the entry's source; errors name the config's line and the entry), the memory planned
// (an entry beyond the budget is a UserError with the numbers) and, with
// `check_outputs`, every output path checked: each emit path as `output:` is
// (a new path or a regular file in an existing, writable folder; a fio folder
// gpusynth wrote), no two outputs of the run the same file, no output an input
// (the config, a trace, counters) or inside a fio folder. What the tables
// and texts take on disk is estimated (file_bytes, texts) for the run's
// free-space check.
// `keep_replicas`: every replica is held whole (for a replay).
RequestsPlan prepare_requests(const RunConfig& config, std::optional<std::uint64_t> memory_limit, bool check_outputs,
                              bool keep_replicas);

// Where an entry's error messages point: "c.yaml:12: requests[0] ('name')".
std::string located(const RunConfig& config, const RequestsSpec& spec);

// Where an emit path lands: relative ones beside the HDF5 output.
std::string emit_path(const RunConfig& config, const std::string& path);

struct RequestsOutcome {
  std::string name;
  std::uint64_t requests = 0;      // over all replicas
  std::uint64_t violations = 0;    // dependency violations over all replicas (0 expected)
  std::uint64_t filled_bins = 0;   // counts timing: bins whose counts the requests met, replica 0
  std::uint64_t counted_bins = 0;  // the ensemble's length
  double seconds = 0;
  Workload emitted;  // the replica the text outputs come from (empty when the entry emits none)
  std::vector<Workload> replicas;  // every replica, when kept for a replay
};

// An entry whose rows the MPI ranks wrote (write_requests_on_ranks): its
// outcome but the emitted replica, and the names its table indexes.
struct RequestsOnRanks {
  RequestsOutcome outcome;
  RequestNames names;
};

// Synthesizes every entry into `file` (open, the ensembles written already),
// each replica written as it is made; `keep_replicas`: every replica also
// stays in its outcome (for a replay). With `on_ranks` (rank 0, after
// write_requests_on_ranks) the rows are there: it writes what they index, the
// attributes and the characterization, and makes the emitted replicas again.
std::vector<RequestsOutcome> synthesize_requests(const RunConfig& config, const RequestsPlan& plan, EnsembleFile& file,
                                                 const ExecutionContext& context, bool keep_replicas,
                                                 std::vector<RequestsOnRanks>* on_ranks = nullptr);

// The rows of the ensembles that time requests, held in memory: what a
// replay synthesizes from before the run's file is staged (run.cpp). Row
// `replica` modulo the `stored` replicas the file will keep, as
// EnsembleFile::read_row reads it (and refused as it refuses).
struct HeldRows {
  struct Ensemble {
    std::uint64_t stored = 0;               // the replicas the file stores
    std::vector<std::vector<double>> rows;  // its first rows, as stored, in double
  };
  std::map<std::string, Ensemble> ensembles;
  std::vector<double> read_row(const std::string& name, std::uint64_t replica) const;
};

// synthesize_requests without a file: every replica kept whole in its
// outcome, nothing written; the rows of the same draws (counter-based) as the
// run's file will hold, so the same requests.
std::vector<RequestsOutcome> synthesize_held_requests(const RunConfig& config, const RequestsPlan& plan,
                                                      const HeldRows& rows, const ExecutionContext& context);

// Whether the requests are made by every MPI rank: several ranks and a
// file (a replay, which needs every replica whole, is refused under ranks).
bool requests_on_ranks(const RunConfig& config);

// Collective, when requests_on_ranks (docs/scale-out.md): every rank makes its
// contiguous share of each entry's replicas, twice (first their sizes and
// names, merged in replica order over the ranks; then their rows), and writes
// the rows where one rank would have written them in the file rank 0 laid out
// (`file`: rank 0's, suspended meanwhile; null on the other ranks).
std::vector<RequestsOnRanks> write_requests_on_ranks(const RunConfig& config, const RequestsPlan& plan,
                                                     EnsembleFile* file, const ExecutionContext& context);

// The fio directory, DiskSim and DXT-like files of every entry that asks for
// them, written to temporaries beside their targets and synced (a full disk
// shows here); the emitted replicas are released. publish() renames them into
// place (call it after the HDF5 file's commit: it polls no interrupt); the
// destructor removes what was not published.
class RequestTexts {
 public:
  RequestTexts(const RunConfig& config, std::vector<RequestsOutcome>& outcomes, const ExecutionContext& context);
  RequestTexts(const RequestTexts&) = delete;
  RequestTexts& operator=(const RequestTexts&) = delete;
  ~RequestTexts();

  // `committed`: what is in place already (the HDF5 file), for the message
  // when a rename fails and the outputs are not all in place.
  void publish(const std::string& committed);

 private:
  struct Staged {
    std::string path;  // as the user sees it
    std::string log;   // the line logged once it is in place
    std::unique_ptr<PendingOutput> file;
    std::unique_ptr<PendingReplayDirectory> directory;
  };
  std::vector<Staged> staged_;
  ExecutionContext context_;
};

}  // namespace gs
