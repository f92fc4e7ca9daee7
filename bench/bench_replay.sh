#!/usr/bin/env bash
# Replay fidelity on this machine's file system (docs/requests.md, "Replay
# fidelity"): `gpusynth replay` of
#   1. configs/replay.yaml: the mpi-io-test trace's 32 processes, a 3-state
#      Markov arrival model fitted to its data requests per 50 ms, 8 replicas,
#      4 KiB requests;
#   2. the same replicas replayed without their timing (fio's replay_no_stall),
#      the baseline the metric must tell apart;
#   3. configs/requests.yaml scaled to fit (4 KiB requests: SIZE and OFF / 4096)
#      as shipped: 256 processes timed by an LFSN ensemble (the original has
#      32: a load 8 times the trace's by design).
# Each prints its table: band coverage, replay error of run time and bytes with
# intervals, KS with the noise floor, against //TRACE's 6 % and 90 % coverage.
# Usage: bench/bench_replay.sh BUILD_DIR TARGET_DIR [OUTDIR]
set -eu
build=$(realpath "$1")
target=$2
out=${3:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); target $target on $(df -PT "$target" | awk 'NR==2 {print $2}'); $(fio --version)"
echo "== 1. configs/replay.yaml"
"$build/gpusynth" replay "$here/../configs/replay.yaml" --target "$target" -o "$out/replay.h5" 2>"$out/replay.log" |
  sed -n '/^replay /,$p'
echo "== 2. the same replicas without their timing (--synthetic-fio-option=--replay_no_stall=1)"
"$build/gpusynth" replay "$here/../configs/replay.yaml" --target "$target" -o "$out/untimed.h5" \
  --synthetic-fio-option=--replay_no_stall=1 2>"$out/untimed.log" | sed -n '/^replay /,$p'
echo "== 3. configs/requests.yaml, 4 KiB requests"
sed -e 's|^output: .*|output: requests.h5|' -e "s|\.\./tests/data|$here/../tests/data|g" \
  -e 's|^    emit: .*|    overrides: {SIZE: {scale: 0.000244140625}, OFF: {scale: 0.000244140625}}|' \
  "$here/../configs/requests.yaml" >"$out/requests.yaml"
"$build/gpusynth" replay "$out/requests.yaml" --target "$target" -o "$out/requests.h5" 2>"$out/requests.log" |
  sed -n '/^replay /,$p'
grep -h "warning" "$out/requests.log" || true
