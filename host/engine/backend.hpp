// The backend interface: declared once, implemented by the CPU backend (always
// built) and the CUDA backend (built when nvcc is found). Asking for CUDA when
// it is not compiled, or when no device is usable, is a UserError.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "estimators/bootstrap.hpp"
#include "estimators/compare.hpp"
#include "host/base/errors.hpp"
#include "host/engine/config.hpp"
#include "host/engine/context.hpp"
#include "host/models/generation.hpp"
#include "kernels/philox.hpp"
#include "kernels/workload.hpp"

namespace gs {

enum class Backend { cpu, cuda };
const char* to_string(Backend backend);

// Everything a backend needs to generate one ensemble: what its model made
// of the request (a spectral plan or a direct kernel, host/models/generation.hpp).
// Backends know no model by name.
struct EnsembleJob {
  const EnsembleSpec* spec = nullptr;
  GenerationRequest request;  // length, Philox key, dtype, storage type, workload mapping
  Generation generation;
};

// The job of an ensemble with the run's seed (its model's generation included).
EnsembleJob make_job(const EnsembleSpec& spec, std::uint64_t seed);

// Memory a backend needs for a batch of b replicas: fixed + b · per_replica
// bytes of its own memory (host RAM for the CPU, device memory for CUDA).
struct MemoryNeed {
  std::uint64_t fixed = 0;
  std::uint64_t per_replica = 0;
};

// Host memory for batch output; the CUDA backend gives page-locked memory so
// device-to-host copies run at full speed and overlap with work.
using HostBuffer = std::unique_ptr<unsigned char, std::function<void(unsigned char*)>>;

class EnsembleGenerator {
 public:
  virtual ~EnsembleGenerator() = default;
  // Replicas [first, first + count) into host memory `out`, row-major
  // (count × length values of the job's storage type). A generator that
  // compares in place also takes out = nullptr: the batch stays where it is.
  virtual Tally generate(std::uint64_t first, std::uint64_t count, void* out) = 0;

  // Whether compare_batch() works (the CUDA backend: on the device, without
  // copying the batch back; the CPU backend: no, the study compares host rows).
  virtual bool compares_in_place() const { return false; }
  // The real series each batch is compared with; its length is the rows'.
  virtual void set_comparison(const SeriesProfile& /*real*/, const CompareOptions& /*options*/) {}
  // The last generated batch (`count` replicas) against that series.
  virtual BatchComparison compare_batch(std::uint64_t /*count*/) {
    throw InternalError("compare_batch", "this backend does not compare in place", __FILE__, __LINE__);
  }
};

class BackendDevice {
 public:
  virtual ~BackendDevice() = default;
  virtual Backend kind() const = 0;
  virtual std::string description() const = 0;  // "CPU: <model>, 16 threads" / "GPU: <name> ..."
  virtual std::uint64_t default_memory_budget() const = 0;
  // Workspace for a batch, in the backend's own memory (host RAM for the CPU,
  // device memory for CUDA); output buffers on the host are counted by the plan.
  virtual MemoryNeed memory_need(const EnsembleJob& job) const = 0;
  virtual HostBuffer host_buffer(std::size_t bytes) const = 0;
  virtual std::unique_ptr<EnsembleGenerator> make_generator(const EnsembleJob& job, std::uint64_t max_batch) = 0;
  // Where a study's bootstrap resamples run (the same numbers on every backend).
  virtual std::unique_ptr<Resampler> make_resampler() const = 0;
};

// Both backends compute with the precision of `context`; the CPU's with its lanes too.
std::unique_ptr<BackendDevice> make_cpu_backend(const ExecutionContext& context);

// CUDA (host/engine/cuda/cuda_backend.cu, or the stub when CUDA is not compiled).
bool cuda_backend_compiled();
// Number of usable CUDA devices; `why_none` says why when it is 0.
int cuda_device_count(std::string* why_none = nullptr);
std::unique_ptr<BackendDevice> make_cuda_backend(const ExecutionContext& context);
// Makes `device` the calling process' current CUDA device (an MPI rank takes the
// GPU of its local rank, modulo the node's GPUs).
void use_cuda_device(int device);
// The Philox words of calls [first, first + calls) of a replica, computed on
// the GPU (words 0..3 of each call): the CPU/GPU uniform-stream check.
std::vector<std::uint32_t> cuda_philox_words(const RngStreamKey& key, std::uint32_t replica, std::uint64_t first,
                                             std::uint64_t calls);

// The GPU's generation rate over the host's (16 threads) for a model, as
// measured on an H100: its ModelTraits::measured_device_speedup, given where
// the model is registered (host/models/<model>.cpp); NaN for a model not
// measured or not known.
double measured_device_speedup(const std::string& model);

// What `--backend auto` takes when `devices` CUDA devices are usable, for a
// run of ensembles of these models: the device for every model it generates
// faster, the host's threads for a model the device runs slower
// (measured_device_speedup < 1; a model not measured goes to the device).
// `reason` says which and why.
struct AutoChoice {
  bool device = false;        // some ensemble is generated on the device
  std::vector<bool> on_host;  // per model given: generated on the host's threads
  std::string reason;
};
AutoChoice choose_auto_backend(const std::vector<std::string>& models, int devices);

// The backends of a run: `main`, which --backend names (under auto the device
// when one is usable, else the host), and, under auto with a device, `host`
// for the ensembles whose models the host's threads generate faster.
struct RunBackends {
  std::unique_ptr<BackendDevice> main;
  std::unique_ptr<BackendDevice> host;  // null when no ensemble runs there
  std::vector<bool> on_host;            // per ensemble of the config: generated by `host`
  BackendDevice& of(std::size_t ensemble) const {
    return ensemble < on_host.size() && on_host[ensemble] ? *host : *main;
  }
};
// One backend for every ensemble.
RunBackends single_backend(std::unique_ptr<BackendDevice> backend);

// The backends for the run's ensembles of `models` (one per ensemble, in the
// config's order): auto → as choose_auto_backend; `log` says which and why.
RunBackends open_backends(BackendChoice choice, const std::vector<std::string>& models,
                          const ExecutionContext& context, std::string& log);

}  // namespace gs
