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
#   SECTIONS=4 runs section 4 alone; TIMINGS (a space-separated subset of
#   "phases counts slack no_stall") the timings section 4 replays.
set -eu
build=$(realpath "$1")
target=$2
out=${3:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); target $target on $(df -PT "$target" | awk 'NR==2 {print $2}'); $(fio --version)"
if [ "${SECTIONS:-all}" != 4 ]; then
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
fi
# 4. Every DXT trace short enough to replay × every timing (issue 57): the
#    trace's phases (the default), the counts of a 3-state Markov model fitted
#    to its data requests per bin, slack times, and the phases replayed without
#    their timing (fio's replay_no_stall), 8 replicas each, requests scaled to
#    4 KiB. TRACES (a space-separated list of NAME=PATH) and BIN override the
#    defaults: the shipped ones in tests/data and ../shared/data if present.
echo "== 4. every DXT trace x {phases, counts, slack, replay_no_stall}"
shared=$here/../../shared/data/traces/darshan
traces=${TRACES:-"mpi-io-test=$here/../tests/data/mpi-io-test.dxt.txt.gz"}
[ -n "${TRACES:-}" ] || for name in runtime_and_dxt_heatmaps_diagonal_write_only nonmpi_dxt_anonymized; do
  [ -f "$shared/$name.dxt.txt.gz" ] && traces="$traces $name=$shared/$name.dxt.txt.gz"
done
for item in $traces; do
  name=${item%%=*} trace=${item#*=}
  for timing in ${TIMINGS:-phases counts slack no_stall}; do
    case $timing in
      counts) key="timing: {ensemble: trace-markov, bin: ${BIN:-50ms}}" ;;
      slack) key="timing: slack" ;;
      *) key="timing: phases" ;;
    esac
    cat >"$out/$name-$timing.yaml" <<YAML
seed: 11
output: $name-$timing.h5
datasets:
  - {name: trace, trace: $trace, format: dxt, bin: ${BIN:-50ms}, series: count}
models: [markov]
replicas: 8
fitting: {markov_states: 3}
compare: {}
requests:
  - {name: $name, trace: $trace, format: dxt, replicas: 8, $key,
     overrides: {SIZE: {scale: 0.000244140625}, OFF: {scale: 0.000244140625}}}
YAML
    extra=()
    [ "$timing" = no_stall ] && extra=(--synthetic-fio-option=--replay_no_stall=1)
    echo "-- $name, $timing"
    "$build/gpusynth" replay "$out/$name-$timing.yaml" --target "$target" -o "$out/$name-$timing.h5" "${extra[@]}" \
      2>"$out/$name-$timing.log" | sed -n '/^replay /,$p' || tail -3 "$out/$name-$timing.log"
  done
done
