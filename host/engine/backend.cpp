#include "host/engine/backend.hpp"

#include <fmt/format.h>

#include "host/base/errors.hpp"
#include "host/base/ranks.hpp"

namespace gs {

const char* to_string(Backend backend) { return backend == Backend::cuda ? "cuda" : "cpu"; }

EnsembleJob make_job(const EnsembleSpec& spec, std::uint64_t seed) {
  EnsembleJob job;
  job.spec = &spec;
  job.request.length = spec.length;
  job.request.key = RngStreamKey{seed, spec.stream};
  job.request.dtype = spec.dtype;
  job.request.storage = spec.storage();
  job.request.workload = spec.workload;
  job.generation = spec.model->generation(job.request);
  if (job.generation.rng_positions > kMaxRngPosition + 1)
    throw UserError(
        fmt::format("ensemble '{}': {} random-number positions per replica exceed the RNG layout's 2^56; "
                    "shorten the series",
                    spec.name, job.generation.rng_positions));
  return job;
}

std::unique_ptr<BackendDevice> open_backend(BackendChoice choice, const ExecutionContext& context, std::string& log) {
  if (choice == BackendChoice::cpu) {
    log = "backend cpu (requested)";
    return make_cpu_backend(context);
  }
  std::string why_none;
  const int devices = cuda_device_count(&why_none);
  if (devices > 0 && several_ranks()) {
    // Each rank the GPU of its local rank: ranks on one node spread over its GPUs (and share them
    // when there are more ranks than GPUs).
    use_cuda_device(ranks().local_rank % devices);
    log = fmt::format("{} ranks, {} on this node: local rank k uses GPU k mod {}; ", ranks().size,
                      ranks().local_size, devices);
  }
  if (choice == BackendChoice::cuda) {
    if (devices == 0) {
      throw UserError(
          fmt::format("--backend cuda was requested but no CUDA device is usable: {}; "
                      "use --backend cpu or auto",
                      why_none));
    }
    log += "backend cuda (requested)";
    return make_cuda_backend(context);
  }
  if (devices > 0) {
    log += "backend auto: a CUDA device is present, using cuda";
    return make_cuda_backend(context);
  }
  log = "backend auto: using cpu (no CUDA device)";  // the runtime's reason only when cuda is asked for
  return make_cpu_backend(context);
}

}  // namespace gs
