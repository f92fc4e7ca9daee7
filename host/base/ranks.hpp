// MPI ranks (docs/scale-out.md). A binary built with MPI (GPUSYNTH_HAVE_MPI)
// runs as many ranks under mpirun or srun and as one rank without; a serial
// build is always one rank. The helpers are no-ops on one rank, so callers
// write one code path.
#pragma once

#include <cstdint>
#include <string>

namespace gs {

struct RankInfo {
  int rank = 0, size = 1;
  int local_rank = 0, local_size = 1;  // among the ranks of this node (the GPU a rank takes)
  bool mpi = false;                    // MPI was initialised
};

// MPI_Init_thread (MPI_THREAD_SERIALIZED: one thread at a time calls MPI) when
// built with MPI and started by mpirun or srun; a process started by hand is
// one rank without MPI. Safe to call once per process.
void init_ranks(int* argc, char*** argv);
void finalize_ranks();
const RankInfo& ranks();
inline bool is_root_rank() { return ranks().rank == 0; }
inline bool several_ranks() { return ranks().size > 1; }

// Collectives over every rank (identity on one rank).
std::string broadcast_from_root(const std::string& text);
std::uint64_t sum_over_ranks(std::uint64_t value);   // every rank gets the sum
std::uint64_t max_over_ranks(std::uint64_t value);
void barrier();
// Ends every rank at once (MPI_Abort) with `code`; returns only on one rank.
void abort_ranks(int code);

// While the ranks depend on each other (collective writes), a failure on one
// rank must end them all: main_cli then names the rank and aborts every rank
// instead of returning (a returning rank would leave the others waiting).
class CollectivePhase {
 public:
  CollectivePhase();
  ~CollectivePhase();
  CollectivePhase(const CollectivePhase&) = delete;
  CollectivePhase& operator=(const CollectivePhase&) = delete;
};
bool in_collective_phase();

// The contiguous share of replicas [first, first + count) of rank `rank` of
// `size`: the first (replicas mod size) ranks take one more.
struct ReplicaRange {
  std::uint64_t first = 0, count = 0;
};
ReplicaRange replica_range(std::uint64_t replicas, int rank, int size);

// Rows of `stride` doubles, replica by replica, where each rank filled its
// replica_range's rows: rank 0 receives every rank's rows (MPI_Gatherv); the
// other ranks' arrays are left as they were.
void gather_rows_to_root(double* rows, std::uint64_t replicas, std::uint64_t stride);

// "Open MPI 4.1.4 (MPI 3.1)", or "" without MPI.
std::string mpi_library_version();

}  // namespace gs
