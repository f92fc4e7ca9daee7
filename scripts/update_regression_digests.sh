#!/usr/bin/env bash
# Makes tests/regression/<config>.digest for every configs/*.yaml: the config run as its
# test runs it (3 replicas, tests/cli/run_config.sh) and a digest of every dataset of the
# output (scripts/results_digest.py). Run it when a change of results is intended and
# commit the digests with that change, saying why the bits moved (docs/development.md).
#   scripts/update_regression_digests.sh [--emulate-avx2] [GPUSYNTH [CONFIG.yaml...]]
#                                                   (default build/gpusynth, every configs/*.yaml)
# The digests hold for this CPU's features (tests/cli/cpu_features.sh, in their `# cpu:` line).
# --emulate-avx2 makes those of the CI's features, AVX2 and FMA without AVX-512, on any x86-64
# machine: every config runs under qemu (scripts/emulate_avx2.sh, 10 to 30 times slower) and its
# digest goes to tests/regression/<config>.avx2-fma.digest with `# cpu: avx2 fma`; the run must
# say that it took AVX2's eight lanes (the output's `device` attribute), or nothing is written.
# A change of results remakes both: once natively on an AVX-512 machine, once with --emulate-avx2.
set -euo pipefail
cd "$(dirname "$0")/.."
emulate=false
if [ "${1:-}" = "--emulate-avx2" ]; then
  emulate=true
  shift
fi
gpusynth=$(realpath "${1:-build/gpusynth}")
[ $# -gt 0 ] && shift
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(configs/*.yaml)
version=$("$gpusynth" --version | head -1)
if $emulate; then
  run=("$PWD/scripts/emulate_avx2.sh" "$gpusynth")
  suffix=.avx2-fma
  cpu="avx2 fma"
  qemu_cpu=${GPUSYNTH_QEMU_CPU:-EPYC-Rome}
  made_on="$(qemu-x86_64 --version | head -1) -cpu $qemu_cpu (scripts/emulate_avx2.sh) on a host with '$(tests/cli/cpu_features.sh)'"
else
  run=("$gpusynth")
  suffix=
  cpu=$(tests/cli/cpu_features.sh)
  made_on="this CPU"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for config in "${configs[@]}"; do
  name=$(basename "$config" .yaml)
  config=$(realpath "$config")
  start=$(date +%s)
  (cd "$tmp" && "${run[@]}" "$config" --replicas 3 -q -o "$tmp/$name.h5" >/dev/null)
  seconds=$(($(date +%s) - start))
  device=$(/usr/bin/python3 -c 'import h5py, sys; print(h5py.File(sys.argv[1], "r").attrs["device"])' "$tmp/$name.h5")
  if $emulate && [[ "$device" != *"AVX2 lanes (8 wide"* ]]; then
    echo "the emulated run of $name did not take AVX2's lanes: device '$device'; no digest written" >&2
    exit 1
  fi
  digest=tests/regression/$name$suffix.digest
  {
    echo "# Every dataset of configs/$name.yaml run with --replicas 3: path shape dtype sha256."
    echo "# Made by scripts/update_regression_digests.sh$($emulate && echo ' --emulate-avx2') at $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes');"
    echo "# with $version on $made_on; math: ${device##*math: }"
    echo "# cpu: $cpu"
    /usr/bin/python3 scripts/results_digest.py "$tmp/$name.h5"
  } >"$digest"
  echo "$digest: $(grep -vc '^#' "$digest") datasets (${seconds} s)"
done
