#include "host/backend.hpp"

#include <fmt/format.h>

#include "host/errors.hpp"

namespace gs {

const char* to_string(Backend backend) { return backend == Backend::cuda ? "cuda" : "cpu"; }

std::unique_ptr<BackendDevice> open_backend(BackendChoice choice, std::string& log) {
  if (choice == BackendChoice::cpu) {
    log = "backend cpu (requested)";
    return make_cpu_backend();
  }
  std::string why_none;
  const int devices = cuda_device_count(&why_none);
  if (choice == BackendChoice::cuda) {
    if (devices == 0) {
      throw UserError(
          fmt::format("--backend cuda was requested but no CUDA device is usable: {}; "
                      "use --backend cpu or auto",
                      why_none));
    }
    log = "backend cuda (requested)";
    return make_cuda_backend();
  }
  if (devices > 0) {
    log = "backend auto: a CUDA device is present, using cuda";
    return make_cuda_backend();
  }
  log = fmt::format("backend auto: using cpu ({})", why_none);
  return make_cpu_backend();
}

}  // namespace gs
