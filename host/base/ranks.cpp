#include "host/base/ranks.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"

#ifdef GPUSYNTH_HAVE_MPI
#include <mpi.h>
#endif

namespace gs {

namespace {

RankInfo& info() {
  static RankInfo r;
  return r;
}

bool job = false, shared = false;
std::vector<std::string>& shared_outputs() {
  static std::vector<std::string> paths;
  return paths;
}

// The shared outputs again, for the signal handler: fixed storage it may read.
constexpr std::size_t kSignalPaths = 4, kSignalPathBytes = 4096;
char signal_paths[kSignalPaths][kSignalPathBytes];
std::atomic<std::size_t> signal_path_count{0};

void publish_for_signals() {
  signal_path_count.store(0);
  std::size_t n = 0;
  for (const std::string& path : shared_outputs())
    if (n < kSignalPaths && path.size() < kSignalPathBytes)
      std::memcpy(signal_paths[n++], path.c_str(), path.size() + 1);
  signal_path_count.store(n);
}

extern "C" void unlink_shared_outputs() {
  const std::size_t n = signal_path_count.load();
  for (std::size_t i = 0; i < n; ++i) unlink(signal_paths[i]);
}

// mpirun (Open MPI, PMIx) and srun (PMI, PMIx) tell their processes so; a
// process started by hand runs as one rank without MPI.
bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(variable)) return true;
  return false;
}

// The tasks of the srun step this process is one of, or 0 when no srun started
// it. A batch script's own shell has SLURM_NTASKS of the whole allocation but no
// SLURM_STEP_ID (checked on Slurm 22.05), and a gpusynth it runs directly is one
// process, not one of several.
long slurm_step_tasks() {
  if (!std::getenv("SLURM_STEP_ID")) return 0;
  long tasks = 0;
  for (const char* variable : {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_NPROCS"})
    if (const char* value = std::getenv(variable)) tasks = std::max(tasks, std::atol(value));
  return tasks;
}

// One task of several that srun started, yet alone in its world: each task would
// run the whole job into the same output file. Say so, with the fix, and stop.
void refuse_lone_slurm_task(const char* fix) {
  const long tasks = slurm_step_tasks();
  if (tasks <= 1 || info().size != 1) return;
  std::fprintf(stderr,
               "gpusynth: error: srun started %ld tasks (SLURM_NTASKS) but this one is alone in its MPI world "
               "(size 1); every task would run the whole job into the same output file. %s\n",
               tasks, fix);
  finalize_ranks();
  std::exit(2);
}

}  // namespace

#ifdef GPUSYNTH_HAVE_MPI

namespace {
void start_mpi(int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  RankInfo& r = info();
  r.mpi = true;
  if (provided < MPI_THREAD_FUNNELED) {
    std::fprintf(stderr,
                 "gpusynth: error: the MPI library gives thread level %d, below MPI_THREAD_FUNNELED (%d), which "
                 "gpusynth needs (OpenMP threads beside the main thread, which alone calls MPI)\n",
                 provided, MPI_THREAD_FUNNELED);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &r.local_rank);
  MPI_Comm_size(node, &r.local_size);
  MPI_Comm_free(&node);
}
}  // namespace

void init_ranks(int* argc, char*** argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) return;
  if (launched_by_mpi()) start_mpi(argc, argv);
  refuse_lone_slurm_task(
      "srun gave no PMI to Open MPI: run it as `srun --mpi=pmix gpusynth ...` (docs/scale-out.md, \"A Slurm job\"), "
      "or set MpiDefault=pmix in slurm.conf");
}

void finalize_ranks() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (info().mpi && !finalized) MPI_Finalize();
}

namespace {
// Messages of at most this many elements: MPI counts are ints.
constexpr std::uint64_t kMessageElements = std::uint64_t{1} << 28;
}  // namespace

namespace {
// `text` of rank `root`, on every rank.
std::string broadcast_from(int root, const std::string& text) {
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
  std::string out = text;
  out.resize(length);
  for (std::uint64_t at = 0; at < length; at += kMessageElements)
    MPI_Bcast(out.data() + at, static_cast<int>(std::min<std::uint64_t>(kMessageElements, length - at)), MPI_CHAR,
              root, MPI_COMM_WORLD);
  return out;
}
}  // namespace

std::string broadcast_from_root(const std::string& text) {
  return info().size == 1 ? text : broadcast_from(0, text);
}

std::vector<std::string> texts_of_every_rank(const std::string& text) {
  std::vector<std::string> texts;
  for (int root = 0; root < info().size; ++root)
    texts.push_back(info().size == 1 ? text : broadcast_from(root, text));
  return texts;
}

std::uint64_t sum_over_lower_ranks(std::uint64_t value) {
  if (info().size == 1) return 0;
  unsigned long long in = value, out = 0;
  MPI_Exscan(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return info().rank == 0 ? 0 : out;  // MPI leaves rank 0's result undefined
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

void abort_job(int code, const std::string& message) {
  std::fprintf(stderr, "gpusynth: rank %d of %d: %s; ending every rank\n", info().rank, info().size, message.c_str());
  std::fflush(stderr);
  for (const std::string& path : shared_outputs()) std::remove(path.c_str());
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return
}

namespace {

// What kind of failure, for settle_failures to rethrow it alike on every rank.
enum FailureKind : int { kUser = 0, kInternal = 1, kInterrupted = 2 };

std::pair<int, std::string> describe(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Interrupted& interrupted) {
    return {kInterrupted, std::to_string(interrupted.signal)};
  } catch (const UserError& e) {
    return {kUser, e.what()};
  } catch (const std::exception& e) {
    return {kInternal, e.what()};
  } catch (...) {
    return {kInternal, "unknown failure"};
  }
}

}  // namespace

void settle_failures(std::exception_ptr failure) {
  const RankInfo& r = info();
  if (r.size == 1) {
    if (failure) std::rethrow_exception(failure);
    return;
  }
  int mine = failure ? r.rank : r.size, first = r.size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == r.size) return;
  auto [kind, text] = failure && r.rank == first ? describe(failure) : std::pair<int, std::string>{0, ""};
  MPI_Bcast(&kind, 1, MPI_INT, first, MPI_COMM_WORLD);
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, first, MPI_COMM_WORLD);
  text.resize(length);
  MPI_Bcast(text.data(), static_cast<int>(std::min<unsigned long long>(length, kMessageElements)), MPI_CHAR, first,
            MPI_COMM_WORLD);
  mark_failure_shared();
  if (r.rank == first) std::rethrow_exception(failure);
  if (kind == kInterrupted) throw Interrupted{std::stoi(text)};
  const std::string from = first == 0 ? text : fmt::format("rank {} of {}: {}", first, r.size, text);
  if (kind == kUser) throw UserError(from);
  throw std::runtime_error(from);
}

namespace {

// Rank 0 and each other rank exchange that rank's replica_range rows, in
// messages of at most kMessageElements: to rank 0 (gather) or from it.
void exchange_rows_with_root(double* rows, std::uint64_t replicas, std::uint64_t stride, bool to_root) {
  const RankInfo& r = info();
  if (r.size == 1 || stride == 0) return;
  for (int k = 1; k < r.size; ++k) {
    if (r.rank != 0 && r.rank != k) continue;
    const ReplicaRange range = replica_range(replicas, k, r.size);
    double* block = rows + range.first * stride;
    const std::uint64_t total = range.count * stride;
    const bool receives = (r.rank == 0) == to_root;
    const int peer = r.rank == 0 ? k : 0;
    for (std::uint64_t at = 0; at < total; at += kMessageElements) {
      const int count = static_cast<int>(std::min(kMessageElements, total - at));
      if (receives)
        MPI_Recv(block + at, count, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else
        MPI_Send(block + at, count, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
    }
  }
}

}  // namespace

void gather_rows_to_root(double* rows, std::uint64_t replicas, std::uint64_t stride) {
  exchange_rows_with_root(rows, replicas, stride, true);
}
void scatter_rows_from_root(double* rows, std::uint64_t replicas, std::uint64_t stride) {
  exchange_rows_with_root(rows, replicas, stride, false);
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
  refuse_lone_slurm_task(
      "This gpusynth was built without MPI: build it with Open MPI and parallel HDF5 (openmpi-bin, "
      "libopenmpi-dev, libhdf5-openmpi-dev; docs/scale-out.md) and run `srun --mpi=pmix gpusynth ...`, or run "
      "it as one task (srun -n 1)");
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
std::vector<std::string> texts_of_every_rank(const std::string& text) { return {text}; }
std::uint64_t sum_over_lower_ranks(std::uint64_t) { return 0; }
std::uint64_t sum_over_ranks(std::uint64_t value) { return value; }
std::uint64_t max_over_ranks(std::uint64_t value) { return value; }
void barrier() {}
void settle_failures(std::exception_ptr failure) {
  if (failure) std::rethrow_exception(failure);
}
void abort_job(int code, const std::string&) { std::_Exit(code); }  // never called on one rank
void gather_rows_to_root(double*, std::uint64_t, std::uint64_t) {}
void scatter_rows_from_root(double*, std::uint64_t, std::uint64_t) {}
std::string mpi_library_version() { return ""; }

#endif

const RankInfo& ranks() { return info(); }

void begin_job() { job = true; }
bool job_begun() { return job; }
void mark_failure_shared() { shared = true; }
bool failure_shared() { return shared; }
bool failure_ends_job() { return info().size > 1 && job && !shared; }

void remove_if_job_aborts(const std::string& path) {
  shared_outputs().push_back(path);
  publish_for_signals();
  if (info().size > 1) set_signal_cleanup(unlink_shared_outputs);
}
void forget_if_job_aborts(const std::string& path) {
  auto& paths = shared_outputs();
  paths.erase(std::remove(paths.begin(), paths.end(), path), paths.end());
  publish_for_signals();
}

ReplicaRange replica_range(std::uint64_t replicas, int rank, int size) {
  const auto r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(size);
  const std::uint64_t base = replicas / n, extra = replicas % n;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

}  // namespace gs
