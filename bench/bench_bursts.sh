#!/usr/bin/env bash
# The burst Monte Carlo (docs/bursts.md): one replica's analysis (bench_cpu
# BM_BurstAnalysis) beside numpy + scikit-learn doing the same per series
# (bench/bench_bursts_python.py, one thread each), and the whole program: a fGn
# model fitted to the 30-day synthetic system series, 1000 replicas generated
# and every one analysed (detection, 24 horizons of logistic prediction,
# Algorithm 1), after the real series' analysis with XGBoost and intervals.
# Usage: bench/bench_bursts.sh BUILD_DIR [REPLICAS] [OUTDIR]
set -eu
build=$(realpath "$1")
replicas=${2:-1000}
out=${3:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../tests/data/system-write-5min.synthetic.counts
mkdir -p "$out"
echo "== one series, bench_cpu (the Monte Carlo's analysis: real_series:0; the real series': 1)"
OMP_NUM_THREADS=1 "$build/bench/bench_cpu" --benchmark_filter=BurstAnalysis/real_series:0
"$build/bench/bench_cpu" --benchmark_filter=BurstAnalysis/real_series:1
echo "== one series, numpy + scikit-learn, one thread"
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$here/bench_bursts_python.py" "$data" 3
cat > "$out/bursts-mc.yaml" <<YAML
seed: 20
output: $out/bursts-mc.h5
datasets:
  - {name: system-write, trace: $data, format: counts, bin: 5min}
models: [fgn]
replicas: $replicas
bursts:
  - name: write
    dataset: system-write
YAML
echo "== gpusynth bursts: fgn x $replicas replicas, every replica analysed ($(nproc) cores)"
/usr/bin/time -f "%e s wall, %M KiB peak" "$build/gpusynth" bursts "$out/bursts-mc.yaml" 2>"$out/log.txt" >"$out/tables.txt" ||
  { cat "$out/log.txt"; exit 1; }
grep -E "bursts:|wrote|s wall" "$out/log.txt"
grep -A8 "Monte Carlo" "$out/tables.txt"
