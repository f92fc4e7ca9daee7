#!/usr/bin/env bash
# Builds the CUDA binaries on this machine (sm_90) and packs them for the
# device tool: .devbin/ (gpusynth, the three test binaries, bench_cuda, bench_cpu, h5diff, stripped) and
# .devlibs/ (the shared libraries they load that a bare GPU machine lacks: all
# but the C/C++ runtime, the CUDA driver and the toolkit's own), both also as one
# .devpack/dev.tar.xz, since the two folders together pass the tool's 64 MiB carry.
# All three are git-ignored; name .devpack in the run's `carry` and start its command with
#   tar xJf .devpack/dev.tar.xz && export LD_LIBRARY_PATH=$PWD/.devlibs:/usr/local/cuda/lib64
# then e.g. `bash bench/gpu_session.sh .devbin $OUT/h100 "tests bench"`.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/device_libraries.sh
# Without MPI: the device machine has no Open MPI runtime (mpirun, its plugins), and the serial
# HDF5 keeps .devlibs small (the carry is 64 MiB in all).
cmake -S . -B build-cuda -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGPUSYNTH_CUDA=ON -DGPUSYNTH_BUILD_TESTS=ON -DGPUSYNTH_BUILD_BENCH=ON \
  -DGPUSYNTH_MPI=OFF -DGPUSYNTH_PYTHON=OFF >/dev/null
cmake --build build-cuda -j"$(nproc)"
rm -rf .devbin .devlibs
mkdir -p .devbin .devlibs
cp build-cuda/gpusynth build-cuda/tests/gpusynth_{unit,cpu,cuda}_tests build-cuda/bench/bench_cuda /usr/bin/h5diff \
  build-cuda/bench/bench_cpu .devbin/
ldd .devbin/* | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  drop_machine_libraries |
  xargs -r cp -L -t .devlibs/
strip .devbin/*
mkdir -p .devpack
tar cJf .devpack/dev.tar.xz .devbin .devlibs
du -sh .devbin .devlibs .devpack/dev.tar.xz
