#!/usr/bin/env bash
# Nsight Compute on the fused stable kernel (α = 1.5 and the α = 2 Box–Muller
# branch) and on cuRAND's curandGenerateNormal, as bench_cuda launches them.
# Usage: bench/ncu_stable.sh BIN_DIR OUT_DIR [LOG2_SAMPLES, default 28]
# Clocks as found (--clock-control none): the card's settings are left alone.
set -u
bin=$1
out=$2
log2n=${3:-28}
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
sections="--section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis
  --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SchedulerStats"
# bench_cuda times each case as 2 warm-ups + 15 runs: launch 2 of a kernel type is its first timed
# one. α = 2 has a kernel type of its own (StableDraws<float, true>).
profile() {  # label, kernel regex, launches to skip
  "$ncu" --clock-control none --kernel-name-base demangled --kernel-name "regex:$2" --launch-skip "$3" --launch-count 1 $sections \
    "$bin/bench_cuda" "$log2n" >"$out/ncu_$1.txt" 2>&1
  echo "ncu $1: exit $?"
}
profile stable_a2 'StableDraws<float, (1|true|\(bool\)1)>' 2
profile stable_a15 'StableDraws<float>' 2
profile curand_normal 'gen_sequenced|normal' 2
