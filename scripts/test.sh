#!/usr/bin/env bash
# The whole test suite from a fresh clone: install what is missing, configure,
# build (the CUDA backend too when nvcc is found; no GPU is needed to build),
# and run every test with ctest. GPU tests skip with a message without a device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
# The CUDA backend whenever nvcc is there, a GPU or not: its code must compile everywhere.
cuda=OFF
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then cuda=ON; fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGPUSYNTH_BUILD_TESTS=ON -DGPUSYNTH_BUILD_BENCH=ON -DGPUSYNTH_CUDA=$cuda
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
