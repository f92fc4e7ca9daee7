// The phase timing of request-level synthesis (docs/models.md, "Phases"):
// the trace's ranks do their data requests in phases that start together
// (after a barrier, a collective call, a step of the application), each rank
// a little late (its skew), one request after another (a rank's next request
// starts after its previous one ended), and a phase starts when the last rank
// of the one before has ended plus the computation between them. Fitted from
// the trace's own requests; a replica's requests are timed by it as they are
// made, in issue order, so that every process of a synthetic replica joins the
// phases as the trace's ranks did, for any number of processes.
#pragma once

#include <cstdint>
#include <vector>

#include "host/requests/random_draws.hpp"
#include "host/requests/synthesize.hpp"
#include "host/requests/timing.hpp"
#include "io/requests.hpp"

namespace gs {

// The k-th data request of every rank in a phase (ranks of a parallel job
// take the same steps: a small header write, then the large block): its
// duration and the slack before it (from the end of the rank's previous one),
// pooled over the phase's ranks: what a process draws from beyond its rank's
// own requests.
struct PhaseStep {
  std::vector<double> durations;  // s
  std::vector<double> slacks;     // s; none for the first step
};

// One trace rank's part of a phase, kept whole: a process of a replica copies
// it, so that a rank's skew, slacks and durations stay together (a rank that
// started late and then waited long is one rank, not two draws) and the
// phase's slowest rank is in every replica of the trace's rank count.
struct PhaseMember {
  double skew = 0;                // s, its first start − the phase's start
  std::vector<double> durations;  // s, of its data requests in the phase, in order
  std::vector<double> slacks;     // s, before each of them but the first
};

// One phase of the trace: what its ranks did, kept as the samples a replica's
// processes copy (the phase's own, so that a write phase keeps its long
// requests and a read phase its short ones).
struct Phase {
  double start = 0;                  // s, its first data request's start, from the trace's first request
  double end = 0;                    // s, the last end of its data requests
  double gap_after = 0;              // s, from its end to the next phase's start (negative: they overlap)
  std::vector<PhaseMember> members;  // the ranks with a data request in it, by their first start
  std::vector<PhaseStep> steps;      // step k: every rank's k-th data request in it
};

struct PhaseModel {
  std::vector<Phase> phases;
  // The phase of each of the root's data requests, in its order: the generic path's data requests are
  // the root's, so the j-th of a path of n data requests is in the phase of the root's j·(root's)/n-th.
  std::vector<std::uint32_t> root_phase;
  std::int32_t ranks = 0;      // the trace's ranks
  double split = 0;            // s: a gap between starts at least this long begins a phase (0: one phase)
  std::uint64_t overlaps = 0;  // data requests a rank started before its previous one ended, in the trace
  double skew_median = 0;      // s, over every phase's skews (the summary written beside the model)
};

// The model of `sanitized` (every rank's requests at their recorded times).
// Phases: the starts of every rank's data requests, sorted, are cut where a gap
// is at least `split`, the threshold Otsu's method puts between the short and
// the long gaps in log scale when the two groups lie at least a decade apart
// (else one phase). A trace without a data request is a UserError.
PhaseModel fit_phases(const Workload& sanitized);

// Times a replica of `path_data_requests` data requests per process, request
// by request in issue order ((seq, rank): every rank's requests of one
// sequence ID before the next): the path's j-th data request belongs to the
// phase of the root's data request j·(root's)/(path's). On entering a phase,
// its N processes are dealt the phase's M members as a shuffled deck: each
// member ⌊N/M⌋ times and a random N mod M of them once more, so that N = M
// processes copy every rank once. A process starts a phase at the phase's
// start plus its member's skew, and its k-th request of the phase its
// member's k-th slack (at least 0: never before its previous request ended;
// through the entry's ST override, as slack times are) after its previous
// end, lasting its member's k-th duration; beyond its member's requests both
// are drawn from step k's pooled samples (the last step's beyond the trace's
// steps). The next phase starts at the last end of this one plus the trace's
// gap between them; a phase none of the path's requests falls in keeps its
// trace span. Other requests start at their process's last end and keep
// their execution time. Draws: Philox at (options.key, replica), draw word 1,
// in issue order: the same bits for any block size, thread or MPI rank count.
class PhaseTiming final : public RequestTiming {
 public:
  PhaseTiming(const PhaseModel& model, std::uint64_t path_data_requests, std::int32_t processes,
              const SynthesisOptions& options, std::uint32_t replica);
  void time(Request& request, bool data) override;

 private:
  double draw(const std::vector<double>& samples);
  void deal_members();
  std::size_t phase_of(std::uint64_t path_data_request) const;
  void enter_phase(std::size_t phase);

  struct Process {
    double clock = 0;              // s, the end of its last request
    std::size_t phase = SIZE_MAX;  // the phase of its last data request
    std::size_t step = 0;          // its data requests so far in that phase
  };
  const PhaseModel& model_;
  std::uint64_t path_data_requests_;
  std::vector<Process> processes_;
  std::vector<std::uint32_t> member_of_;  // per process: the member of the phase being timed it copies
  CharacteristicOverride slack_override_;
  RandomDraws draws_;      // draw 1 of the replica's Philox stream
  std::size_t phase_ = 0;  // the phase being timed
  double phase_start_ = 0, phase_end_ = 0;
  bool phase_timed_ = false;  // a data request of the phase being timed has been timed (its members dealt)
  std::int64_t last_seq_ = -1;
  std::uint64_t data_index_ = 0;  // of the path's data request being timed (+1)
};

}  // namespace gs
