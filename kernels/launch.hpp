// The two launchers of the per-element functors, and a model's direct kernel
// as the engine sees it.
//
// A functor has `columns()` and a GS_HD operator()(row, column, tally) over a
// batch's rows (replicas). On the CPU, cpu_for_each runs it in an OpenMP loop
// over (row, column); on the GPU, kernels/cuda/launch.cuh runs it in one
// bounds-checked kernel. Results never depend on the thread count: each
// element is a pure function of its indices. After an interrupt the remaining
// elements are skipped (the caller discards the batch).
//
// A direct kernel (a functor that writes a model's output itself, as those of
// stable, normal, markov and hmm do) has the members `first_replica` and `out`, and
// optionally `table` (read-only doubles the model gives, e.g. observation
// times) and `scratch` (per-replica doubles the backend allocates). Its header
// ends with GS_DIRECT_KERNEL(Template), Template<Real, Out> being the functor
// for compute type Real and storage type Out: in CUDA builds CMake compiles
// that header once more under nvcc, which instantiates the device launcher of
// every (Real, Out) and registers it in CudaDirectLaunchSlot (see
// kernels/cuda/launch.cuh); elsewhere the macro is empty. So the engine runs
// any model on either backend without naming its kernel type.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "host/base/interrupt.hpp"
#include "kernels/workload.hpp"

namespace gs {

// The CPU's lane forms: an instruction set (AVX2 with FMA, AVX-512) and a
// precision (accurate, fast), each with its own compiled kernels
// (host/engine/cpu/lane_kernels.inc). A run picks one through its execution
// context (host/engine/context.hpp) and hands it to the launchers below; the
// scalar path is the form with index -1.
constexpr int kCpuLaneForms = 4;
struct CpuLaneForm {
  int index = -1;  // into CpuLanesSlot::launch; -1: the scalar path
};

// A kernel's lanes launchers, one per form, registered during static
// initialisation by the lanes' translation units (host/engine/cpu/lanes.cpp)
// and never changed afterwards; null where a form was not built.
// `parallel`: OpenMP over the rows, else row 0 by the caller.
template <class Kernel>
struct CpuLanesSlot {
  static inline Tally (*launch[kCpuLaneForms])(std::uint64_t rows, const Kernel& kernel, bool parallel) = {};
};

template <class Kernel>
auto lanes_launcher(CpuLaneForm form) {
  return form.index >= 0 ? CpuLanesSlot<Kernel>::launch[form.index] : nullptr;
}

// body(row, begin, end, tally) over blocks of columns [begin, end) of every
// row, in an OpenMP loop; begin is a multiple of kCpuColumnBlock.
constexpr std::int64_t kCpuColumnBlock = 1 << 14;  // columns between interrupt polls
template <class Body>
Tally cpu_for_each_block(std::uint64_t rows, std::uint64_t columns, const Body& body) {
  const auto column_count = static_cast<std::int64_t>(columns);
  const std::int64_t blocks = (column_count + kCpuColumnBlock - 1) / kCpuColumnBlock;
  std::uint64_t clipped = 0, saturated = 0;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : clipped, saturated)
  for (std::int64_t row = 0; row < static_cast<std::int64_t>(rows); ++row) {
    for (std::int64_t b = 0; b < blocks; ++b) {
      if (pending_interrupt()) continue;
      StoreTally tally;
      const std::int64_t end = (b + 1) * kCpuColumnBlock < column_count ? (b + 1) * kCpuColumnBlock : column_count;
      body(static_cast<std::uint64_t>(row), static_cast<std::uint64_t>(b * kCpuColumnBlock),
           static_cast<std::uint64_t>(end), tally);
      clipped += tally.clipped;
      saturated += tally.saturated;
    }
  }
  return Tally{clipped, saturated};
}

template <class Kernel>
Tally cpu_for_each(std::uint64_t rows, const Kernel& kernel, CpuLaneForm form) {
  if (const auto lanes = lanes_launcher<Kernel>(form)) return lanes(rows, kernel, true);
  return cpu_for_each_block(rows, kernel.columns(),
                            [&](std::uint64_t row, std::uint64_t begin, std::uint64_t end, StoreTally& tally) {
                              for (std::uint64_t c = begin; c < end; ++c) kernel(row, c, tally);
                            });
}

// Row 0 of the kernel, run serially by the calling thread (inside a parallel
// region, with the kernel's buffers pointing at that thread's row).
template <class Kernel>
Tally serial_for_each(const Kernel& kernel, CpuLaneForm form) {
  if (const auto lanes = lanes_launcher<Kernel>(form)) return lanes(1, kernel, false);
  StoreTally tally;
  const std::uint64_t columns = kernel.columns();
  for (std::uint64_t c = 0; c < columns; ++c) kernel(0, c, tally);
  return Tally{tally.clipped, tally.saturated};
}

template <class Kernel, class = void>
struct HasTable : std::false_type {};
template <class Kernel>
struct HasTable<Kernel, std::void_t<decltype(std::declval<Kernel&>().table)>> : std::true_type {};
template <class Kernel, class = void>
struct HasScratch : std::false_type {};
template <class Kernel>
struct HasScratch<Kernel, std::void_t<decltype(std::declval<Kernel&>().scratch)>> : std::true_type {};
// A kernel that walks a replica in time (one replica per call, columns() == 1)
// declares how the GPU runs it. `static constexpr bool sequential_in_time =
// true` (hmm): a thread per replica, the replicas laid along the launch's
// columns. Two kinds have a parallel form instead, this one and the
// finite-state chains below:
//
// `static constexpr bool sums_sources = true` (onoff): a sum over `sources`
// independent sources of integer terms, with difference_row(row) (`length`
// unsigned integers in its scratch), add_source(row, m, add) (source m's
// terms through add(i, term), in any order) and store(row, i, prefix, tally)
// (bin i from the prefix sum of the difference row). The GPU runs a thread per
// (replica, source), adding atomically, and a block per replica for the prefix
// sums (kernels/cuda/launch.cuh).
template <class Kernel, class = void>
struct IsSequentialInTime : std::false_type {};
template <class Kernel>
struct IsSequentialInTime<Kernel, std::enable_if_t<Kernel::sequential_in_time>> : std::true_type {};
template <class Kernel, class = void>
struct SumsSources : std::false_type {};
template <class Kernel>
struct SumsSources<Kernel, std::enable_if_t<Kernel::sums_sources>> : std::true_type {};

// A finite-state chain (markov) declares `static constexpr bool
// finite_state_chain = true` and has `states` (at most kMaxStates), `length`,
// replica_of(row), draw(replica, t) (bin t's Philox words), next_state(words,
// t, previous) (a map of the states; previous is not read at t = 0) and
// store(row, t, state, words, tally); its operator() walks t in order. The GPU
// then composes segments of its time axis in parallel (kernels/cuda/launch.cuh)
// instead of giving each replica one thread.
template <class Kernel, class = void>
struct IsFiniteStateChain : std::false_type {};
template <class Kernel>
struct IsFiniteStateChain<Kernel, std::enable_if_t<Kernel::finite_state_chain>> : std::true_type {};

// Points a copy of a direct kernel at one batch: replicas [first, first + count)
// into `out` (row-major), with the model's table and the batch's scratch in
// the memory of the backend that runs it.
template <class Kernel>
void bind_batch(Kernel& kernel, std::uint64_t first, void* out, const double* table, double* scratch) {
  kernel.first_replica = first;
  kernel.out = static_cast<decltype(kernel.out)>(out);
  if constexpr (HasTable<Kernel>::value) kernel.table = table;
  if constexpr (HasScratch<Kernel>::value) kernel.scratch = scratch;
}

// The device launcher of a direct kernel (arguments as bind_batch's, then the
// tallies, the multiprocessor count and the cudaStream_t).
using CudaDirectLaunch = void (*)(const void* kernel, std::uint64_t first, std::uint64_t count, void* out,
                                  const double* table, double* scratch, unsigned long long* tallies,
                                  int multiprocessors, void* stream);

// Set at start-up by the CUDA build of the kernel's header; null without CUDA.
// `fast_launch`: the same with precision fast (kernels/fast_math.hpp), for the
// float32 kernels that have it; null for the others.
template <class Kernel>
struct CudaDirectLaunchSlot {
  static inline CudaDirectLaunch launch = nullptr;
  static inline CudaDirectLaunch fast_launch = nullptr;
};

template <class Kernel>
Tally host_direct_launch(const void* data, std::uint64_t first, std::uint64_t count, void* out, const double* table,
                         double* scratch, CpuLaneForm form) {
  Kernel kernel = *static_cast<const Kernel*>(data);
  bind_batch(kernel, first, out, table, scratch);
  return cpu_for_each(count, kernel, form);
}

// A model's direct kernel with its parameters filled in, whatever its type.
class DirectKernel {
 public:
  // `table`: read-only doubles the kernel reads (its `table` member);
  // `scratch_per_replica`: doubles of scratch each replica needs (its
  // `scratch` member points at row r's at scratch + r·scratch_per_replica).
  template <class Kernel>
  static DirectKernel of(const Kernel& kernel, std::vector<double> table = {}, std::uint64_t scratch_per_replica = 0) {
    static_assert(std::is_trivially_copyable<Kernel>::value, "a kernel is copied to the device as bytes");
    DirectKernel direct;
    direct.kernel_ = std::make_shared<Kernel>(kernel);
    direct.type_ = &typeid(Kernel);
    direct.host_ = &host_direct_launch<Kernel>;
    direct.cuda_slot_ = &CudaDirectLaunchSlot<Kernel>::launch;
    direct.cuda_fast_slot_ = &CudaDirectLaunchSlot<Kernel>::fast_launch;
    direct.table_ = std::make_shared<const std::vector<double>>(std::move(table));
    direct.scratch_per_replica_ = scratch_per_replica;
    return direct;
  }

  // Replicas [first, first + count) into host memory; `scratch` holds
  // count · scratch_per_replica() doubles; `form`: the CPU's lanes that run it.
  Tally run_on_host(std::uint64_t first, std::uint64_t count, void* out, double* scratch, CpuLaneForm form) const {
    return host_(kernel_.get(), first, count, out, table_->empty() ? nullptr : table_->data(), scratch, form);
  }
  // Null when the kernel's header was not built for CUDA. `fast`: the
  // precision fast launcher where the kernel has one, else the accurate one.
  CudaDirectLaunch cuda_launch(bool fast = false) const {
    return fast && *cuda_fast_slot_ ? *cuda_fast_slot_ : *cuda_slot_;
  }
  const void* data() const { return kernel_.get(); }
  const std::vector<double>& table() const { return *table_; }
  std::uint64_t scratch_per_replica() const { return scratch_per_replica_; }

  // The kernel itself when it is a Kernel (tests read and adapt it), else null.
  template <class Kernel>
  const Kernel* as() const {
    return *type_ == typeid(Kernel) ? static_cast<const Kernel*>(kernel_.get()) : nullptr;
  }

 private:
  std::shared_ptr<const void> kernel_;
  const std::type_info* type_ = nullptr;
  Tally (*host_)(const void*, std::uint64_t, std::uint64_t, void*, const double*, double*, CpuLaneForm) = nullptr;
  const CudaDirectLaunch* cuda_slot_ = nullptr;
  const CudaDirectLaunch* cuda_fast_slot_ = nullptr;
  std::shared_ptr<const std::vector<double>> table_;
  std::uint64_t scratch_per_replica_ = 0;
};

}  // namespace gs
