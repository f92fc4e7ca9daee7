#!/usr/bin/env bash
# Request synthesis streamed to the HDF5 table (docs/requests.md, "Memory"):
# one replica of an 8196-request path (given characteristics: two shared
# files, 4096 requests per session) for PROCESSES processes, written as it is
# made; and, in the same rounds, the same replica at 10^3 processes written
# as it is made and held whole (emit: disksim, the one replica the text
# outputs come from). Wall and CPU seconds, peak resident memory (GNU time's
# %M), requests and the table's bytes on disk.
# Usage: bench/bench_requests_memory.sh BUILD_DIR [PROCESSES] [ROUNDS] [OUTDIR]
set -eu
build=$(realpath "$1")
processes=${2:-10000}
rounds=${3:-2}
out=${4:-$(mktemp -d)}
mkdir -p "$out"
config() {  # name processes emit
  cat > "$out/$1.yaml" <<YAML
seed: 7
output: $out/$1.h5
requests:
  - name: path8k
    processes: $2
    characteristics:
      shared: {files: 2, OT: [1], D: [4096], IRG: [0.001], ISG: [1], SIZE: [4096], OFF: [0, 4096], SEQ: [1.0],
               AM: {write_only: 1, read_only: 1}, RT1: {write: 1, read: 1}, ST: [0.0001],
               data_execution_time: [0.0001]}
    emit: {$3}
YAML
}
config streamed "$processes" ""
config streamed-1000 1000 ""
config held-1000 1000 "disksim: $out/held-1000.disksim"
echo "# $(date -u +%FT%TZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for round in $(seq "$rounds"); do
  for run in streamed streamed-1000 held-1000; do
    /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$build/gpusynth" "$out/$run.yaml" 2>"$out/log" >/dev/null
    read -r wall user sys peak <"$out/time"
    requests=$(grep -o "requests 'path8k': [0-9]* requests" "$out/log" | grep -o "[0-9]* requests")
    bytes=$(h5ls -v "$out/$run.h5/requests/path8k/requests" | grep -o "[0-9]* logical bytes" | head -1)
    echo "round $round $run: $requests, table $bytes; $wall s wall, $(echo "$user + $sys" | bc) CPU-s," \
      "peak $((peak / 1024)) MiB resident"
    rm -f "$out/$run.h5" "$out/held-1000.disksim"
  done
done
