#!/usr/bin/env bash
# The whole CPU build and test suite under AddressSanitizer and UBSan (gcc;
# -DGPUSYNTH_SANITIZE=ON, no recovery: the first report fails its test) in
# build-asan/. The benchmarks are left out; every test of scripts/test.sh runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSYNTH_MPI=OFF -DGPUSYNTH_CUDA=OFF -DGPUSYNTH_SANITIZE=ON \
  -DGPUSYNTH_BUILD_BENCH=OFF
cmake --build build-asan -j"$(nproc)"
# halt_on_error: a report is a failure; the leak checker runs at every exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp:print_suppressions=0}
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" "$@"
