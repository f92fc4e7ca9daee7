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

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "estimators/requests.hpp"
#include "host/requests/random_draws.hpp"
#include "host/requests/synthesize.hpp"
#include "host/requests/timing.hpp"

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
  // Its kind: phases of one kind do the same (its members, data requests, writes and bytes).
  std::vector<std::int64_t> kind;
  double span_sd = 0;  // the log SD of its span a replica draws (LogSpread: its kind's, else the nearest's)
  double gap_sd = 0;   // the same of the gap after it
};

// The replicas' spread of their own, fitted from the phases of a kind that
// repeats in the trace: the logs of their spans (or of the gaps between the
// same two kinds) scatter about their kind's mean with SD `sd`, pooled over
// the kinds (df = the values − the kinds), standard error sd/√(2·df). Only
// values of 100 ticks of the trace's clock or more count (a shorter one is
// mostly the clock's rounding). Each phase draws with its kind's own log SD
// where its kind repeats, else that of the repeated kind nearest it in length
// on a log scale (Phase::span_sd, gap_sd), so that a kind that repeats
// steadily (a job's compute steps) keeps its steadiness beside a noisy one,
// and a long step seen once varies as the long steps do, not as the short.
struct LogSpread {
  double sd = 0, se = 0;
  std::uint64_t df = 0;
  // "none" (df 0: nothing repeats, the replicas get no spread), "weak" (df < 10), else "ok".
  const char* validity() const;
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
  LogSpread span_spread;       // of the phases' spans
  LogSpread gap_spread;        // of the positive gaps between phases
  // Both spreads by the names the outputs give them ("span", "gap").
  std::array<std::pair<const char*, const LogSpread*>, 2> named_spreads() const {
    return {{{"span", &span_spread}, {"gap", &gap_spread}}};
  }
};

// The model of `sanitized` (every rank's requests at their recorded times).
// Phases: the starts of every rank's data requests, sorted, are cut where a gap
// is at least `split`, the threshold Otsu's method puts between the short and
// the long gaps in log scale when the two groups lie at least a decade apart
// (else one phase). A trace without a data request is a UserError.
PhaseModel fit_phases(const Workload& sanitized);

// Times a replica made by `expansion` (each process runs its rank class's
// path in sequence ID order; root-exclusive requests on process 0 alone),
// request by request in issue order ((seq, process)). Roles: each process
// takes the part of the trace rank the expansion dealt it (deal_roles:
// process 0 the root's, N = M processes every rank's once). A process's j-th
// data request of n is in its role's phase (RankRole): it joins the phases
// its rank joined and no other (a rank without data requests: the root's
// role). In each phase, the ranks that took part are shuffled among their
// roles (a permutation per phase and replica): a process copies the member
// its role's member is shuffled to, so that which process is late in a
// phase varies from phase to phase and replica to replica while each member
// stays whole. A process starts a phase at the phase's start plus its
// member's skew, and its k-th request of the phase its member's k-th slack
// (at least 0: never before its previous request ended; through the entry's
// ST override, as slack times are) after its previous end, lasting its
// member's k-th duration; beyond its member's requests both are drawn from
// step k's pooled samples (the last step's beyond the trace's steps). The
// phases' starts are set when the timing is made, by running every process
// through its path phase by phase: phase 0 starts at the trace's, phase
// p + 1 at the last end of the data requests in phase p plus the trace's gap
// after it (a phase with none keeps its trace span), never before phase p.
// Other requests start at their process's last end and keep their execution
// time. Spread: phase p's skews, slacks and durations are multiplied by
// exp(span_sd_p·Z_p) and a positive gap after it by exp(gap_sd_p·W_p), (Z_p, W_p)
// a standard normal pair per phase and replica, so that each replica is
// another run of the job as its repeated phases vary (a model with df 0
// spreads nothing). Draws: each phase's shuffle from Philox at (options.key, replica),
// draw word kMemberShuffleDraws, in order; (Z_p, W_p) at position p, draw
// word kPhaseSpreadDraws; the pooled samples of process i's
// j-th data request at position i·2³² + j, draw word kPooledTimingDraws: the
// same bits for any block size, thread or MPI rank count, and in either pass.
class PhaseTiming final : public RequestTiming {
 public:
  // What each process of a replica does, in the expansion's order (Expansion::path_order): a request
  // of its class's path, and whether it is a read or write.
  struct PathStep {
    const Request* request;
    bool data;
  };

  PhaseTiming(const PhaseModel& model, const Expansion& expansion, const SynthesisOptions& options,
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
  void take_roles(const Expansion& expansion, const std::vector<std::vector<PathStep>>& steps);
  void shuffle_members();
  void draw_spread();
  void set_phase_starts(const Expansion& expansion, const std::vector<std::vector<PathStep>>& steps);
  Place place_of(const Process& process) const;
  void time_data(std::size_t index, Request& request);

  const PhaseModel& model_;
  RngStreamKey key_;
  std::uint32_t replica_;
  std::vector<Process> processes_;
  std::vector<double> phase_start_;                   // s, of each phase in this replica
  std::vector<double> span_factor_, gap_factor_;      // per phase: this replica's spread
  std::vector<std::vector<std::uint32_t>> shuffled_;  // per phase: the member each member's role copies
  CharacteristicOverride slack_override_;
};

}  // namespace gs
