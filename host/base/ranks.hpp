// MPI ranks (docs/scale-out.md). A binary built with MPI (GPUSYNTH_HAVE_MPI)
// runs as many ranks under mpirun or srun and as one rank without; a serial
// build is always one rank. The helpers are no-ops on one rank, so callers
// write one code path.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace gs {

struct RankInfo {
  int rank = 0, size = 1;
  int local_rank = 0, local_size = 1;  // among the ranks of this node (the GPU a rank takes)
  bool mpi = false;                    // MPI was initialised
};

// MPI_Init_thread (MPI_THREAD_FUNNELED: only the main thread calls MPI; a
// library that cannot give that is refused) when built with MPI and started
// by mpirun or srun; a process started by hand is one rank without MPI. Safe
// to call once per process.
void init_ranks(int* argc, char*** argv);
void finalize_ranks();
const RankInfo& ranks();
inline bool is_root_rank() { return ranks().rank == 0; }
inline bool several_ranks() { return ranks().size > 1; }

// Collectives over every rank (identity on one rank).
std::string broadcast_from_root(const std::string& text);
std::uint64_t sum_over_ranks(std::uint64_t value);  // every rank gets the sum
std::uint64_t max_over_ranks(std::uint64_t value);
std::uint64_t sum_over_lower_ranks(std::uint64_t value);  // rank r gets the sum over ranks 0 … r − 1
// Element r: rank r's `text`, on every rank.
std::vector<std::string> texts_of_every_rank(const std::string& text);
void barrier();

// Failures under several ranks (docs/scale-out.md). Until begin_job() every
// rank reads the same config and meets the same errors: rank 0 reports them
// and every rank exits with their code. From begin_job() on, a rank's failure
// is its own while the others may wait for it in a collective call, so it ends
// the whole job (as OpenMC does): abort_job names the rank, removes the files
// the ranks write together, and calls MPI_Abort, which ends every rank at once
// with `code` (mpirun exits with it). A failure that rank 0 broadcast to every
// rank (the fits) is shared: every rank exits normally with it.
void begin_job();
bool job_begun();
// Collective, before begin_job(): every rank passes its failure (or none); if
// any rank failed, every rank throws the failure of the first failing rank
// (marked shared), else returns.
void settle_failures(std::exception_ptr failure);
void mark_failure_shared();
bool failure_shared();
bool failure_ends_job();  // several ranks, the job begun, the failure not shared
[[noreturn]] void abort_job(int code, const std::string& message);

// The ranks' shared temporary output, removed by a rank that aborts the job
// (rank 0 owns it and commits it; another rank that fails must not leave it).
void remove_if_job_aborts(const std::string& path);
void forget_if_job_aborts(const std::string& path);

// The contiguous share of replicas [first, first + count) of rank `rank` of
// `size`: the first (replicas mod size) ranks take one more.
struct ReplicaRange {
  std::uint64_t first = 0, count = 0;
};
ReplicaRange replica_range(std::uint64_t replicas, int rank, int size);

// Rows of `stride` doubles, replica by replica, where each rank filled its
// replica_range's rows: rank 0 receives every rank's rows (point to point, in
// messages of at most 2^28 doubles, so no count overflows MPI's int); the
// other ranks' arrays are left as they were.
void gather_rows_to_root(double* rows, std::uint64_t replicas, std::uint64_t stride);
// The reverse: rank 0 holds every row and sends each other rank the rows of
// its replica_range (the rest of that rank's array is left as it was).
void scatter_rows_from_root(double* rows, std::uint64_t replicas, std::uint64_t stride);

// "Open MPI 4.1.4 (MPI 3.1)", or "" without MPI.
std::string mpi_library_version();

}  // namespace gs
