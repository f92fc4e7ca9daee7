#!/usr/bin/env bash
# Scaling over MPI ranks × OpenMP threads (docs/scale-out.md): strong scaling
# (the same LFSN ensemble on 1×1, 1×2 and 2×1 ranks × threads) and weak
# scaling (the replicas grow with the ranks), each with deflate level 1 and
# without compression, timed end to end (the file committed).
# Usage: bench/bench_ranks.sh GPUSYNTH_BUILT_WITH_MPI [REPLICAS_PER_RANK] [OUTDIR]
set -eu
gpusynth=$(realpath "$1")
per_rank=${2:-200}
out=${3:-$(mktemp -d)}
mkdir -p "$out"
launch=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)
config() {  # replicas compression
  cat >"$out/ranks.yaml" <<YAML
seed: 5
output: $out/ranks.h5
compression: $2
ensembles:
  - {name: lfsn, model: lfsn, params: {alpha: 1.6, H: 0.8}, replicas: $1, length: 65536, workload: {v: 3, delta: 20, values: counts}}
YAML
}
run() {  # label ranks threads replicas compression
  config "$4" "$5"
  local start end
  start=$(date +%s.%N)
  OMP_NUM_THREADS=$3 "${launch[@]}" -np "$2" "$gpusynth" "$out/ranks.yaml" -q
  end=$(date +%s.%N)
  awk -v label="$1" -v ranks="$2" -v threads="$3" -v replicas="$4" -v level="$5" -v start="$start" -v end="$end" \
    'BEGIN { s = end - start; printf "%-7s ranks %d x threads %d  replicas %5d  compression %d  %6.2f s  %.3g samples/s\n", label, ranks, threads, replicas, level, s, replicas * 65536 / s }' 
}
echo "machine: $(nproc) cores; $("$gpusynth" --version | tail -1)"
for compression in 1 0; do
  total=$((2 * per_rank))
  run strong 1 1 "$total" "$compression"
  run strong 1 2 "$total" "$compression"
  run strong 2 1 "$total" "$compression"
  run weak 1 1 "$per_rank" "$compression"
  run weak 2 1 "$total" "$compression"
done
