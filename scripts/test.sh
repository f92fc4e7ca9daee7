#!/usr/bin/env bash
# The whole test suite from a fresh clone: install what is missing, configure,
# build (the CUDA backend too when nvcc is found; no GPU is needed to build),
# and run every test with ctest. GPU tests skip with a message without a device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
