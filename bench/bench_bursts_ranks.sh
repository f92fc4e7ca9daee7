#!/usr/bin/env bash
# Strong scaling of the burst Monte Carlo over MPI ranks (docs/scale-out.md):
# the same `gpusynth bursts` run (fgn fitted to the 30-day system series,
# REPLICAS replicas, every one analysed) on 1 and on 2 ranks of one thread
# each, interleaved ROUNDS times; wall and CPU seconds of the whole job, and
# /bursts of every run compared with the first one-rank run (h5diff).
# Usage: bench/bench_bursts_ranks.sh BUILD_DIR [REPLICAS] [ROUNDS] [OUTDIR]
set -eu
build=$(realpath "$1")
replicas=${2:-200}
rounds=${3:-2}
out=${4:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cat > "$out/mc.yaml" <<YAML
seed: 20
output: $out/mc.h5
datasets:
  - {name: system-write, trace: $here/../tests/data/system-write-5min.synthetic.counts, format: counts, bin: 5min}
models: [fgn]
replicas: $replicas
bursts:
  - name: write
    dataset: system-write
    predictors: [logistic]
    monte_carlo: {predictors: [logistic]}
YAML
launch=(mpirun --oversubscribe --bind-to none -x OMP_NUM_THREADS=1)
[ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)
echo "# $(date -u +%FT%TZ), $(nproc) cores, $replicas replicas, OMP_NUM_THREADS=1 per rank"
for round in $(seq "$rounds"); do
  for np in 1 2; do
    /usr/bin/time -f "%e %U %S" -o "$out/time" "${launch[@]}" -np "$np" "$build/gpusynth" bursts "$out/mc.yaml" \
      -o "$out/np$np-$round.h5" -q >/dev/null
    read -r wall user sys <"$out/time"
    same=$(h5diff "$out/np1-1.h5" "$out/np$np-$round.h5" /bursts /bursts >/dev/null 2>&1 && echo same || echo DIFFERENT)
    echo "round $round ranks $np: $wall s wall, $(echo "$user + $sys" | bc) CPU-s; /bursts $same as ranks 1 round 1"
  done
done
