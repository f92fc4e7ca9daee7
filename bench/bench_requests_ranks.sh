#!/usr/bin/env bash
# Request synthesis split across MPI ranks (docs/scale-out.md): REPLICAS
# replicas of an 8196-request path (given characteristics: two shared files,
# 4096 requests per session) for PROCESSES processes, timed by slack, made
# and written by 1 rank and by RANKS ranks (one thread each), in interleaved
# rounds; /requests of every run compared with the first's (SHA-256 of its tables).
# Wall and CPU seconds (GNU time, summed over mpirun's ranks).
# Usage: bench/bench_requests_ranks.sh BUILD_DIR [REPLICAS] [PROCESSES] [RANKS] [ROUNDS] [OUTDIR]
set -eu
build=$(realpath "$1")
replicas=${2:-8}
processes=${3:-200}
ranks=${4:-2}
rounds=${5:-3}
out=${6:-$(mktemp -d)}
mkdir -p "$out"
cat >"$out/requests.yaml" <<YAML
seed: 7
output: $out/requests.h5
requests:
  - name: path8k
    processes: $processes
    replicas: $replicas
    characteristics:
      shared: {files: 2, OT: [1], D: [4096], IRG: [0.001], ISG: [1], SIZE: [4096], OFF: [0, 4096], SEQ: [1.0],
               AM: {write_only: 1, read_only: 1}, RT1: {write: 1, read: 1}, ST: [0.0001],
               data_execution_time: [0.0001]}
YAML
table_digest() {  # file.h5: SHA-256 of /requests/path8k's requests, ops and files (h5diff takes minutes here)
  /usr/bin/python3 -c '
import hashlib, sys, h5py
digest = hashlib.sha256()
with h5py.File(sys.argv[1]) as f:
    group = f["requests/path8k"]
    table = group["requests"]
    for start in range(0, table.shape[0], 1 << 20):
        digest.update(table[start:start + (1 << 20)].tobytes())
    for name in ("ops", "files"):
        digest.update(group[name][:].tobytes())
print(digest.hexdigest())' "$1"
}
launch=(mpirun --oversubscribe -x OMP_NUM_THREADS=1)
[ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root)
echo "# $(date -u +%FT%TZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "$replicas replicas of $processes processes, OMP_NUM_THREADS=1 per rank"
for round in $(seq "$rounds"); do
  for np in 1 "$ranks"; do
    OMP_NUM_THREADS=1 /usr/bin/time -f "%e %U %S" -o "$out/time" "${launch[@]}" -np "$np" "$build/gpusynth" \
      "$out/requests.yaml" -o "$out/ranks$np.h5" 2>"$out/log" >/dev/null
    read -r wall user sys <"$out/time"
    line=$(grep -a -o "requests 'path8k': .*" "$out/log" | tail -1)
    digest=$(table_digest "$out/ranks$np.h5")
    [ -n "${first:-}" ] || first=$digest
    same="/requests the same as round 1 ranks 1's"
    [ "$digest" = "$first" ] || same="/requests DIFFERS from round 1 ranks 1's"
    echo "round $round ranks $np: $wall s wall, $(echo "$user + $sys" | bc) CPU-s; $same; $line"
    rm -f "$out/ranks$np.h5"
  done
done
