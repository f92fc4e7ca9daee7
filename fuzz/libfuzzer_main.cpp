// One libFuzzer binary per target, named by GPUSYNTH_FUZZ_TARGET at compile time.
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_targets.hpp"
#include "io/hdf5.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // A config may name /dev/stdin as a file: it must not wait for a terminal.
  if (!std::freopen("/dev/null", "r", stdin)) return 1;
  gs::h5::quiet_library_errors();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!gs::fuzz::run_target(GPUSYNTH_FUZZ_TARGET, data, size)) std::abort();
  return 0;
}
