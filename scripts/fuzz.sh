#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang under AddressSanitizer and
# UBSan in build-fuzz/ and runs each for a fixed number of executions from its
# seed corpus (tests/fuzz/corpus/<target>/, tests/fuzz/regressions/<target>/,
# configs/ for the config target) with the dictionary fuzz/<target>.dict where
# there is one (the config's keys, requests: included). Prints runs, seconds
# and corpus size per target.
#   scripts/fuzz.sh [--runs N] [--seed S] [--jobs J] [TARGET...]
# (default: 1000000 runs, a random libFuzzer seed, every target; CI gives --seed so that its runs
# are the same every time).
# A crash, leak or sanitizer report stops that target with its input in
# build-fuzz/artifacts/<target>/: fix it, then add the input to
# tests/fuzz/regressions/<target>/, which ctest replays (fuzz.replay).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=1000000
seed=0  # libFuzzer's: 0 draws one
jobs=$(nproc)
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSYNTH_MPI=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DGPUSYNTH_CUDA=OFF -DGPUSYNTH_FUZZ=ON -DGPUSYNTH_BUILD_TESTS=OFF -DGPUSYNTH_BUILD_BENCH=OFF >/dev/null
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cd tests/fuzz/corpus && ls -d */ | tr -d /)
fi
cmake --build build-fuzz -j"$jobs" --target $(printf 'fuzz_%s ' "${targets[@]}")
failed=0
printf '%-18s %10s %9s %8s  %s\n' target runs seconds corpus result
for target in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$target
  artifacts=build-fuzz/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  cp -r tests/fuzz/corpus/"$target"/. "$corpus"/
  [ -d tests/fuzz/regressions/"$target" ] && cp -r tests/fuzz/regressions/"$target"/. "$corpus"/
  [ "$target" = config ] && cp configs/*.yaml "$corpus"/
  log=build-fuzz/$target.log
  dict=()
  [ -f fuzz/"$target".dict ] && dict=(-dict=fuzz/"$target".dict)
  start=$(date +%s%N)
  if build-fuzz/fuzz_"$target" -runs="$runs" -seed="$seed" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "${dict[@]}" -artifact_prefix="$artifacts"/ "$corpus" >"$log" 2>&1; then
    result=ok
  else
    result="FAILED (see $log, input in $artifacts)"
    failed=1
  fi
  tenths=$((($(date +%s%N) - start) / 100000000))
  done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  printf '%-18s %10s %7d.%d %8s  %s\n' "$target" "$done_runs" $((tenths / 10)) $((tenths % 10)) \
    "$(ls "$corpus" | wc -l)" "$result"
done
exit $failed
