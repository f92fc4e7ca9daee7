// Linked when the CUDA backend is not compiled (-DGPUSYNTH_CUDA=OFF or no nvcc):
// the program still links and says clearly at run time what is missing.
#include "host/base/errors.hpp"
#include "host/engine/backend.hpp"

namespace gs {

bool cuda_backend_compiled() { return false; }

int cuda_device_count(std::string* why_none) {
  if (why_none) *why_none = "this gpusynth was built without the CUDA backend (GPUSYNTH_CUDA=OFF or nvcc not found)";
  return 0;
}

namespace {
[[noreturn]] void refuse() {
  throw UserError(
      "the CUDA backend is not compiled into this gpusynth; rebuild with nvcc available "
      "(-DGPUSYNTH_CUDA=ON) or use --backend cpu");
}
}  // namespace

std::unique_ptr<BackendDevice> make_cuda_backend(const ExecutionContext&) { refuse(); }

void use_cuda_device(int) { refuse(); }

std::vector<std::uint32_t> cuda_philox_words(const RngStreamKey&, std::uint32_t, std::uint64_t, std::uint64_t) {
  refuse();
}

}  // namespace gs
