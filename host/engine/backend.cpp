#include "host/engine/backend.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <set>

#include "host/base/errors.hpp"
#include "host/base/ranks.hpp"
#include "host/models/model.hpp"

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

double measured_device_speedup(const std::string& model) {
  const ModelTraits* traits = find_model(model);  // each model's own measurement, beside its formula
  return traits ? traits->measured_device_speedup : std::numeric_limits<double>::quiet_NaN();
}

AutoChoice choose_auto_backend(const std::vector<std::string>& models, int devices) {
  AutoChoice choice;
  choice.on_host.assign(models.size(), devices <= 0);
  if (devices <= 0) {
    choice.reason = "no CUDA device";
    return choice;
  }
  std::set<std::string> slower;
  for (std::size_t k = 0; k < models.size(); ++k) {
    choice.on_host[k] = measured_device_speedup(models[k]) < 1;
    if (choice.on_host[k]) slower.insert(models[k]);
  }
  choice.device = std::count(choice.on_host.begin(), choice.on_host.end(), false) > 0 || models.empty();
  std::string measured;
  for (const std::string& m : slower)
    measured += fmt::format("{}{} {:.2g}x", measured.empty() ? "" : ", ", m, measured_device_speedup(m));
  if (!choice.device)
    choice.reason = fmt::format(
        "a CUDA device is present, but every model of this run generates faster on the host's threads (GPU/host "
        "measured on an H100: {}): using cpu",
        measured);
  else if (!slower.empty())
    choice.reason = fmt::format(
        "a CUDA device is present, using cuda; the ensembles of {} run on the host's threads, which generate them "
        "faster (GPU/host measured on an H100: {})",
        fmt::join(slower, ", "), measured);
  else
    choice.reason = "a CUDA device is present, using cuda";
  return choice;
}

RunBackends single_backend(std::unique_ptr<BackendDevice> backend) {
  RunBackends backends;
  backends.main = std::move(backend);
  return backends;
}

RunBackends open_backends(BackendChoice choice, const std::vector<std::string>& models,
                          const ExecutionContext& context, std::string& log) {
  if (choice == BackendChoice::cpu) {
    log = "backend cpu (requested)";
    return single_backend(make_cpu_backend(context));
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
    return single_backend(make_cuda_backend(context));
  }
  const AutoChoice chosen = choose_auto_backend(models, devices);
  if (!chosen.device) {
    // the runtime's reason for no device only when cuda is asked for
    log += devices > 0 ? "backend auto: " + chosen.reason : "backend auto: using cpu (no CUDA device)";
    return single_backend(make_cpu_backend(context));
  }
  log += "backend auto: " + chosen.reason;
  RunBackends backends = single_backend(make_cuda_backend(context));
  if (std::count(chosen.on_host.begin(), chosen.on_host.end(), true) > 0) {
    backends.host = make_cpu_backend(context);
    backends.on_host = chosen.on_host;
  }
  return backends;
}

}  // namespace gs
