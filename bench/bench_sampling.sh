#!/usr/bin/env bash
# Sampling speed on the CPU against what a user would otherwise pick, in one
# run on the same cores: gpusynth's stable, normal, fgn and lfsn (the widest
# lanes the CPU has, AVX2's eight lanes, each also with precision fast, and the
# scalar path) next to GSL's gsl_ran_levy_skew (in bench_cpu),
# scipy's levy_stable.rvs, numpy's standard_normal, numpy's vectorised
# Davies–Harte fGn and a numpy/scipy LFSN; prints the ratios per core.
# Usage: bench/bench_sampling.sh [build dir] > results.txt
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
json=$(mktemp)
trap 'rm -f "$json"' EXIT
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# $build/gpusynth --version: $("$build/gpusynth" --version | tr '\n' ' ')"
# numpy's and scipy's ufuncs, and gpusynth's lanes, use AVX-512 where the CPU has it: say which host this is.
echo "# CPU family $(lscpu | awk -F: '/^CPU family/{gsub(/ /,"",$2); print $2}') model $(lscpu | awk -F: '/^Model:/{gsub(/ /,"",$2); print $2}'), AVX-512: $(grep -q -m1 avx512f /proc/cpuinfo && echo yes || echo no)"
"$build/bench/bench_cpu" --benchmark_filter='BM_GpusynthStable|BM_GslLevySkew|BM_GpusynthLfsn|BM_GpusynthModel/model:[034]/' \
  --benchmark_min_time=0.3 --benchmark_counters_tabular=true --benchmark_out="$json" --benchmark_out_format=json
/usr/bin/python3 "$here/bench_sampling.py" "$json"
