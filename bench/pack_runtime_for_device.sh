#!/usr/bin/env bash
# Packs the checks a bare GPU machine cannot run with bench/pack_for_device.sh alone (no Open MPI there,
# and a Python 3.12 that cannot load a module built for Debian's 3.11): the MPI + CUDA + Python build
# of BUILD_DIR (default build/, configured with GPUSYNTH_MPI and GPUSYNTH_PYTHON on) with Debian's
# Open MPI, Python 3.11 (numpy, h5py, yaml) and h5diff/h5ls, as one overlay of the root file system:
#   .devpack/runtime.tar.xz: opt/gpusynth/bin (gpusynth, gpusynth_cuda_tests and mpirun; the 64 MiB
#   carry leaves no room for the other test binaries and the benchmarks), opt/gpusynth/python (the
#   module), opt/gpusynth/py311 (numpy, h5py, yaml), opt/gpusynth/lib (every shared library the ELF
#   files load, but the C and C++ runtimes and CUDA's), and at their own paths the packages' other
#   files (Open MPI's plugins and help texts, Python's standard library, h5diff).
# On the GPU machine (name .devpack in the run's `carry`):
#   tar xJf .devpack/runtime.tar.xz -C / --skip-old-files
#   for f in /opt/gpusynth/lib/*; do [ -e /usr/lib/x86_64-linux-gnu/${f##*/} ] && rm "$f"; done
#   export PATH=/opt/gpusynth/bin:$PATH LD_LIBRARY_PATH=/opt/gpusynth/lib:/usr/local/cuda/lib64
#   bash bench/gpu_session.sh /opt/gpusynth/bin $OUT/h100 "tests mpi python"
# Only new files are written (--skip-old-files keeps every file the machine has), and a library the
# machine has is its own for every program (the loop above): LD_LIBRARY_PATH adds only the missing ones.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/device_libraries.sh
build=${1:-build}
grep -q "GPUSYNTH_MPI:BOOL=ON" "$build/CMakeCache.txt" && grep -q "GPUSYNTH_PYTHON:BOOL=ON" "$build/CMakeCache.txt" ||
  { echo "$build is not configured with GPUSYNTH_MPI and GPUSYNTH_PYTHON on" >&2; exit 2; }
cmake --build "$build" -j"$(nproc)" >/dev/null
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
put() {  # source target-path (under the overlay's root): the file's content, links followed
  mkdir -p "$root/$(dirname "$2")"
  cp -L "$1" "$root/$2"
}
lib=opt/gpusynth/lib
put_package_file() {  # path: at its own path, but a shared library of the system's folder into $lib
  case $(realpath "$(dirname "$1")") in
    /usr/lib/x86_64-linux-gnu) put "$1" "$lib/$(basename "$1")" ;;
    *) put "$1" "${1#/}" ;;
  esac
}
bin=opt/gpusynth/bin
for f in gpusynth tests/gpusynth_cuda_tests; do  # the host's tests and the benchmarks: pack_for_device.sh
  put "$build/$f" "$bin/$(basename "$f")"
done
module=$(ls "$build"/python/gpusynth*.so)
put "$module" "opt/gpusynth/python/$(basename "$module")"
put "$(readlink -f /usr/bin/mpirun)" "$bin/mpirun"  # ahead of any other MPI's mpirun on PATH
for package in numpy h5py yaml; do  # numpy's tests left out (h5py imports its own)
  (cd /usr/lib/python3/dist-packages && find "$package" -name __pycache__ -prune -o -path 'numpy/*/tests' -prune -o -type f -print) |
    while read -r f; do put "/usr/lib/python3/dist-packages/$f" "opt/gpusynth/py311/$f"; done
done
# The packages' own files (Open MPI's plugins and help texts, Python's standard library), no docs.
for package in openmpi-bin openmpi-common libopenmpi3 libpmix2 python3.11-minimal libpython3.11-minimal \
  libpython3.11-stdlib hdf5-tools; do
  dpkg -L "$package" | grep -vE '^/usr/share/(doc|man|lintian)/|binfmt' | while read -r f; do
    if [ -f "$f" ]; then put_package_file "$f"; fi
  done
done
# Every shared library an ELF file of the overlay loads, into $lib, but the C/C++ runtimes and CUDA's.
is_elf() { [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }  # the ELF magic
find "$root" -type f | while read -r f; do if is_elf "$f"; then echo "$f"; fi; done | xargs -r ldd 2>/dev/null |
  awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  drop_machine_libraries |
  while read -r f; do put "$f" "$lib/$(basename "$f")"; done
strip "$root/$bin"/* 2>/dev/null || true
mkdir -p .devpack
# Files alone, no folders: extracting never touches the metadata of a folder the machine has (/ above all).
(cd "$root" && find . -type f | sed 's#^\./##') | tar cJf .devpack/runtime.tar.xz -C "$root" --no-recursion -T -
du -sh "$root" .devpack/runtime.tar.xz
