#include "host/base/ranks.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef GPUSYNTH_HAVE_MPI
#include <mpi.h>
#endif

namespace gs {

namespace {

RankInfo& info() {
  static RankInfo r;
  return r;
}

int collective_depth = 0;

// mpirun (Open MPI, PMIx) and srun (PMI, PMIx) tell their processes so; a
// process started by hand runs as one rank without MPI.
bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(variable)) return true;
  return false;
}

}  // namespace

#ifdef GPUSYNTH_HAVE_MPI

void init_ranks(int* argc, char*** argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised || !launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  RankInfo& r = info();
  r.mpi = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &r.local_rank);
  MPI_Comm_size(node, &r.local_size);
  MPI_Comm_free(&node);
}

void finalize_ranks() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (info().mpi && !finalized) MPI_Finalize();
}

std::string broadcast_from_root(const std::string& text) {
  if (info().size == 1) return text;
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  std::string out = text;
  out.resize(length);
  MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

std::uint64_t sum_over_ranks(std::uint64_t value) {
  if (info().size == 1) return value;
  unsigned long long in = value, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

std::uint64_t max_over_ranks(std::uint64_t value) {
  if (info().size == 1) return value;
  unsigned long long in = value, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

void barrier() {
  if (info().size > 1) MPI_Barrier(MPI_COMM_WORLD);
}

void abort_ranks(int code) {
  if (info().size > 1) MPI_Abort(MPI_COMM_WORLD, code);
}

void gather_rows_to_root(double* rows, std::uint64_t replicas, std::uint64_t stride) {
  const RankInfo& r = info();
  if (r.size == 1 || stride == 0) return;
  std::vector<int> counts(static_cast<std::size_t>(r.size)), offsets(counts.size());
  for (int k = 0; k < r.size; ++k) {
    const ReplicaRange range = replica_range(replicas, k, r.size);
    counts[static_cast<std::size_t>(k)] = static_cast<int>(range.count * stride);
    offsets[static_cast<std::size_t>(k)] = static_cast<int>(range.first * stride);
  }
  const ReplicaRange mine = replica_range(replicas, r.rank, r.size);
  double* own = rows + mine.first * stride;
  MPI_Gatherv(r.rank == 0 ? MPI_IN_PLACE : own, static_cast<int>(mine.count * stride), MPI_DOUBLE, rows,
              counts.data(), offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  if (const auto comma = version.find(','); comma != std::string::npos) version.resize(comma);
  return version;
}

#else

// Started as one of several ranks by a build without MPI, every copy would run
// the whole job: say so and stop instead.
void init_ranks(int*, char***) {
  if (!launched_by_mpi()) return;
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}) {
    const char* size = std::getenv(variable);
    if (size && std::atoi(size) > 1) {
      std::fprintf(stderr,
                   "gpusynth: error: this gpusynth was built without MPI but started as one of %s ranks; every "
                   "rank would run the whole job. Build with Open MPI and parallel HDF5 (openmpi-bin, "
                   "libopenmpi-dev, libhdf5-openmpi-dev; docs/scale-out.md) or run it without mpirun/srun\n",
                   size);
      std::exit(2);
    }
  }
}
void finalize_ranks() {}
std::string broadcast_from_root(const std::string& text) { return text; }
std::uint64_t sum_over_ranks(std::uint64_t value) { return value; }
std::uint64_t max_over_ranks(std::uint64_t value) { return value; }
void barrier() {}
void abort_ranks(int) {}
void gather_rows_to_root(double*, std::uint64_t, std::uint64_t) {}
std::string mpi_library_version() { return ""; }

#endif

const RankInfo& ranks() { return info(); }

CollectivePhase::CollectivePhase() { ++collective_depth; }
CollectivePhase::~CollectivePhase() { --collective_depth; }
bool in_collective_phase() { return collective_depth > 0 && info().size > 1; }

ReplicaRange replica_range(std::uint64_t replicas, int rank, int size) {
  const auto r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(size);
  const std::uint64_t base = replicas / n, extra = replicas % n;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

}  // namespace gs
