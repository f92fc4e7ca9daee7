// The phase timing of request-level synthesis (docs/models.md, "Phases"):
// the trace's ranks do their data requests in phases that start together
// (after a barrier, a collective call, a step of the application), each rank
// a little late (its skew), one request after another (a rank's next request
// starts after its previous one ended), and a phase starts when the last rank
// of the one before has ended plus the computation between them. Fitted from
// the trace's own requests; a replica's requests are timed by it as they are
// made, in issue order, so that every process of a synthetic replica takes the
// part of one of the trace's ranks: it joins the phases that rank joined, as
// that rank did, for any number of processes.
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

// One trace rank's data requests in its order: the phase each is in and the
// rank's member there. A process of a replica that takes this rank's part puts
// the j-th of its n data requests where the rank had its ⌊j·m/n⌋-th (m its own):
// in the phases the rank joined and no other, so that ranks that take turns,
// or sit a phase out, stay so.
struct RankRole {
  std::int32_t rank = 0;
  std::vector<std::uint32_t> phase;   // per data request
  std::vector<std::uint32_t> member;  // per data request: the rank's index in that phase's members
};

struct PhaseModel {
  std::vector<Phase> phases;
  std::vector<RankRole> roles;  // every rank with a data request, by rank: the root's first
  std::int32_t ranks = 0;       // the trace's ranks
  double split = 0;            // s: a gap between starts at least this long begins a phase (0: one phase)
  std::uint64_t overlaps = 0;  // data requests a rank started before its previous one ended, in the trace
  double skew_median = 0;      // s, over every phase's skews (the summary written beside the model)
  double participation = 0;    // the mean over the phases of the share of the roles that take part
};

// The model of `sanitized` (every rank's requests at their recorded times).
// Phases: the starts of every rank's data requests, sorted, are cut where a gap
// is at least `split`, the threshold Otsu's method puts between the short and
// the long gaps in log scale when the two groups lie at least a decade apart
// (else one phase). A trace without a data request is a UserError.
PhaseModel fit_phases(const Workload& sanitized);

// Times a replica of `path` (the generic path every process runs, in sequence
// ID order; its root-exclusive requests on process 0 alone), expanded to
// `processes` processes, request by request in issue order ((seq, rank)).
// Roles: process 0 takes the root's part, and the others are dealt the
// roles like a shuffled deck, so that each role goes to ⌊N/M⌋ or ⌈N/M⌉ of the
// N processes and N = M processes take every rank's part once. A process's
// j-th data request of n is in its role's phase (RankRole): it joins the
// phases its rank joined and no other. In each phase, the ranks that took
// part are shuffled among their roles (a permutation per phase and replica):
// a process copies the member its role's member is shuffled to, so that
// which process is late in a phase varies from phase to phase and replica to
// replica while each member stays whole. A process starts a phase at the
// phase's start plus its member's skew, and its k-th request of the phase
// its member's k-th slack (at least 0: never before its previous request
// ended; through the entry's ST override, as slack times are) after its
// previous end, lasting its member's k-th duration; beyond its member's
// requests both are drawn from step k's pooled samples (the last step's
// beyond the trace's steps). The phases' starts are set when the timing is
// made, by running every process through the path phase by phase: phase 0
// starts at the trace's, phase p + 1 at the last end of the data requests
// in phase p plus the trace's gap after it (a phase with none keeps its
// trace span), never before phase p. Other requests start at their
// process's last end and keep their execution time. Draws: the roles' deck,
// then each phase's shuffle, from Philox at (options.key, replica) with draw
// word 2 in order; the pooled samples of process i's j-th data request at
// position i·2³² + j, draw word 1: the same bits for any block size, thread
// or MPI rank count, and in either pass.
class PhaseTiming final : public RequestTiming {
 public:
  // What each process of a replica does, in its order (the path by sequence
  // ID, as the expansion issues it): whether a request is a read or write,
  // whether process 0 alone does it (root-exclusive), its execution time.
  struct PathStep {
    bool data, root_only;
    double duration;
  };

  PhaseTiming(const PhaseModel& model, const Workload& path, std::int32_t processes, const SynthesisOptions& options,
              std::uint32_t replica);
  void time(Request& request, bool data) override;

 private:
  struct Process {
    double clock = 0;              // s, the end of its last request
    std::size_t phase = SIZE_MAX;  // the phase of its last data request
    std::size_t step = 0;          // its data requests so far in that phase
    std::uint64_t data = 0;        // its data requests so far
    std::uint64_t data_total = 0;  // its data requests in all
    std::uint32_t role = 0;        // the RankRole whose part it takes
  };
  // Where a process's next data request belongs: its phase and the member it copies there.
  struct Place {
    std::size_t phase;
    std::uint32_t member;
  };
  void deal_roles(std::uint64_t root_data, std::uint64_t other_data, RandomDraws& draws);
  void shuffle_members(RandomDraws& draws);
  void set_phase_starts(const std::vector<PathStep>& steps);
  Place place_of(const Process& process) const;
  void time_data(std::size_t index, Request& request);

  const PhaseModel& model_;
  RngStreamKey key_;
  std::uint32_t replica_;
  std::vector<Process> processes_;
  std::vector<double> phase_start_;                   // s, of each phase in this replica
  std::vector<std::vector<std::uint32_t>> shuffled_;  // per phase: the member each member's role copies
  CharacteristicOverride slack_override_;
};

}  // namespace gs
