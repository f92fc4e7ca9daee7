#!/usr/bin/env bash
# The comparison models on the CPU backend and their numpy / Python-loop
# counterparts, in one run: bench/bench_models.sh [build dir] > results.txt
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) cores"
"$build/bench/bench_cpu" --benchmark_filter=BM_GpusynthModel --benchmark_min_time=0.3 --benchmark_counters_tabular=true
/usr/bin/python3 "$here/bench_models_numpy.py"
