#!/usr/bin/env bash
# One GPU session: device facts, the whole test suite (CUDA tests included),
# the GPU benchmark and end-to-end runs of a 10^9-sample ensemble with and
# without the HDF5 write. Usage: bench/gpu_session.sh BIN_DIR OUT_DIR [PARTS]
# (BIN_DIR holds gpusynth, the gpusynth_{unit,cpu,cuda}_tests, bench_cuda; results go to OUT_DIR;
# PARTS: any of "tests host bench e2e bursts study mixed mpi python", default all but the last two, so
# that a session can split the work over calls shorter than the device tool's limit; "mpi" and "python"
# need the Open MPI and Python 3.11 of bench/pack_runtime_for_device.sh).
set -u
bin=$1
out=$2
parts=${3:-tests host bench e2e bursts study mixed}
part() { [[ " $parts " == *" $1 "* ]]; }
mkdir -p "$out"
export GPUSYNTH_TEST_DATA=$PWD/tests/data
work=$(mktemp -d)
# A bare GPU machine has no HDF5 tools: bench/pack_for_device.sh carries h5diff in BIN_DIR.
h5diff() { if type -P h5diff >/dev/null; then command h5diff "$@"; else "$bin/h5diff" "$@"; fi; }
run() {  # label, arguments...
  local label=$1; shift
  local start end
  start=$(date +%s%N)
  "$bin/gpusynth" "$@" >"$work/log" 2>&1
  local rc=$?
  end=$(date +%s%N)
  printf '%-58s rc=%d %6d ms | %s\n' "$label" "$rc" "$(((end - start) / 1000000))" "$(tail -1 "$work/log")" | tee -a "$out/end_to_end.txt"
}
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nproc | sed 's/^/cpu threads: /'
  grep -m1 "model name" /proc/cpuinfo
  grep -qw avx512f /proc/cpuinfo && echo "cpu: avx512f" || echo "cpu: no avx512f"
} | tee "$out/device.txt"

if part tests; then
  echo "== tests"
  "$bin/gpusynth_cuda_tests" >"$out/cuda_tests.log" 2>&1
  echo "gpusynth_cuda_tests exit $?"
  grep -E "^\[ *(OK|FAILED|SKIPPED) |^GPU precision" "$out/cuda_tests.log" | tee "$out/cuda_tests.txt"
fi

if part host; then
  echo "== the host's tests on the GPU machine's CPU"
  for tier in unit cpu; do
    "$bin/gpusynth_${tier}_tests" --gtest_brief=1 >"$out/${tier}_tests.log" 2>&1
    echo "gpusynth_${tier}_tests exit $?"
    grep -E "PASSED|FAILED|SKIPPED|tests ran" "$out/${tier}_tests.log" | tail -4
  done
fi

if part bench; then
  echo "== bench_cuda"
  "$bin/bench_cuda" 30 2>&1 | tee "$out/bench_cuda.txt"
fi

# The end-to-end part (heredocs keep it unindented).
if part e2e; then

echo "== end to end: 10^9 samples"
cat >"$work/e2e.yaml" <<YAML
seed: 1
output: $work/e2e.h5
compression: 0
ensembles:
  - {name: stable-1e9, model: stable, params: {alpha: 1.5, beta: 0.5}, replicas: 1000, length: 1000000}
YAML
cat >"$work/lfsn.yaml" <<YAML
seed: 1
output: $work/lfsn.h5
compression: 0
ensembles:
  - {name: lfsn-1e8, model: lfsn, params: {alpha: 1.5, beta: 0.5, H: 0.8, m: 16, K: 256}, replicas: 24414, length: 4096}
YAML
run "stable 1e9 cuda, no output" "$work/e2e.yaml" --backend cuda --no-output
run "stable 1e9 cuda, HDF5 uncompressed" "$work/e2e.yaml" --backend cuda
ls -la "$work/e2e.h5" | tee -a "$out/end_to_end.txt"
rm -f "$work/e2e.h5"
sed -i 's/compression: 0/compression: 1/' "$work/e2e.yaml"
run "stable 1e9 cuda, HDF5 deflate 1 (default)" "$work/e2e.yaml" --backend cuda -o "$work/e2e-deflate.h5"
ls -la "$work/e2e-deflate.h5" | tee -a "$out/end_to_end.txt"
rm -f "$work"/*.h5
run "stable 1e9 cpu ($(nproc) threads), no output" "$work/e2e.yaml" --backend cpu --no-output
run "lfsn 1e8 (quickstart params) cuda, no output" "$work/lfsn.yaml" --backend cuda --no-output
run "lfsn 1e8 (quickstart params) cuda, HDF5 uncompressed" "$work/lfsn.yaml" --backend cuda
rm -f "$work"/*.h5
run "lfsn 1e8 (quickstart params) cpu ($(nproc) threads), no output" "$work/lfsn.yaml" --backend cpu --no-output
# The comparison models, 4096 replicas x 65536 values each (2.7e8 samples), samples/s in the log line.
sed -e "s#^output: .*#output: $work/models.h5#" configs/comparison-models.yaml >"$work/models.yaml"
sed -i -e 's/replicas: 100/replicas: 4096/' -e 's/length: 3600/length: 65536/' -e 's/length: 1440/length: 65536/' "$work/models.yaml"
run "comparison models 4096 x 65536 each, cuda, no output" "$work/models.yaml" --backend cuda --no-output
run "comparison models 4096 x 65536 each, cpu ($(nproc) threads), no output" "$work/models.yaml" --backend cpu --no-output
fi

# The burst Monte Carlo of configs/bursts.yaml (4 fitted models x 1000 replicas, or BURSTS_REPLICAS, every replica
# analysed on the host's threads) with generation on the GPU and on the host alone (auto takes
# the GPU for these models); the /bursts figures of the two runs compared (docs/bursts.md).
if part bursts; then
replicas=${BURSTS_REPLICAS:-1000}
echo "== bursts: configs/bursts.yaml, $replicas replicas of each fitted model"
for backend in cuda cpu; do
  run "bursts.yaml 4 models x $replicas, $backend" bursts configs/bursts.yaml --backend "$backend" \
    --replicas "$replicas" -o "$work/bursts-$backend.h5"
  grep -E "^(study stages|bursts:|wrote)" "$work/log" | tee -a "$out/end_to_end.txt"
done
if h5diff -q "$work/bursts-cuda.h5" "$work/bursts-cpu.h5" /bursts >/dev/null 2>&1; then
  echo "bursts: /bursts of the cuda run identical to the cpu run's"
else
  # -r reports every object it compares; those that differ report a non-zero count.
  echo "bursts: /bursts of the cuda run differs from the cpu run's in $(h5diff -r "$work/bursts-cuda.h5" \
    "$work/bursts-cpu.h5" /bursts 2>/dev/null | grep -cE '^[1-9][0-9]* differences? found') datasets or attributes"
fi | tee -a "$out/end_to_end.txt"
rm -f "$work"/bursts-*.h5
fi

if part study; then
echo "== study: 10 datasets x 5 models x 1000 replicas: GPU, CPU, and GPU without the hurst metric"
bash bench/bench_study.sh "$bin/gpusynth" 1000 "$work/study" 2>&1 | tee "$out/study-gpu.txt"
STUDY_ARGS="--backend cpu" bash bench/bench_study.sh "$bin/gpusynth" 1000 "$work/study" 2>&1 | tee "$out/study-cpu.txt"
STUDY_METRICS="trimmed_error, ks, acf, burstiness" bash bench/bench_study.sh "$bin/gpusynth" 1000 "$work/study" 2>&1 |
  tee "$out/study-gpu-no-hurst.txt"
rm -rf "$work/study"
fi

if part mixed; then
run "quickstart, auto backend" configs/quickstart.yaml -o "$work/q.h5"
grep -E "backend auto" "$work/log" | tee -a "$out/end_to_end.txt"
# A mixed run under auto (docs/engine.md): lfsn on the GPU, hmm on the host's threads, each ensemble
# bit-identical to the run of its own backend.
sed -e "s#^output: .*#output: $work/mixed.h5#" configs/comparison-models.yaml >"$work/mixed.yaml"
run "comparison models, auto (hmm and the others apart)" "$work/mixed.yaml"
grep -E "backend auto" "$work/log" | tee -a "$out/end_to_end.txt"
"$bin/gpusynth" "$work/mixed.yaml" --backend cuda -q -o "$work/mixed-cuda.h5"
"$bin/gpusynth" "$work/mixed.yaml" --backend cpu -q -o "$work/mixed-cpu.h5"
for e in $(sed -n 's/^  - name: \([a-z-]*\).*/\1/p' "$work/mixed.yaml"); do
  for other in cuda cpu; do
    h5diff -q "$work/mixed.h5" "$work/mixed-$other.h5" "/ensembles/$e/series" >/dev/null 2>&1 && echo "$e: the $other run's bits"
  done
done | tee -a "$out/end_to_end.txt"
fi

# MPI ranks sharing the one GPU (docs/scale-out.md): the comparison models on the GPU under 1, 2 and 4
# ranks against the run without mpirun, then the whole of tests/cli/mpi_test.sh, whose every run takes
# the GPU where auto sends its models there.
if part mpi; then
echo "== MPI ranks sharing the GPU"
# A bare machine: shared memory between the ranks, no network transports probed, and the ranks started
# on this node without ssh (Open MPI's "isolated" launcher; its default wants ssh or rsh even here).
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_plm=isolated
launch=(mpirun --oversubscribe --allow-run-as-root)
sed -e "s#^output: .*#output: $work/ranks.h5#" configs/comparison-models.yaml >"$work/ranks.yaml"
run "comparison models, cuda, no mpirun" "$work/ranks.yaml" --backend cuda -o "$work/serial.h5"
for np in 1 2 4; do
  start=$(date +%s%N)
  "${launch[@]}" -np "$np" "$bin/gpusynth" "$work/ranks.yaml" --backend cuda -o "$work/np$np.h5" >"$work/log" 2>&1
  rc=$?
  printf 'comparison models, cuda, mpirun -np %d: rc=%d %d ms\n' "$np" "$rc" "$((($(date +%s%N) - start) / 1000000))"
  grep -iE "rank|backend|device|gpu" "$work/log" | head -4
  h5diff -q "$work/serial.h5" "$work/np$np.h5" /ensembles >/dev/null 2>&1 &&
    echo "np $np: /ensembles the bits of the run without mpirun" || echo "np $np: /ensembles DIFFERS from the run without mpirun"
done 2>&1 | tee -a "$out/mpi.txt"
bash tests/cli/mpi_test.sh "$bin/gpusynth" "$PWD" "$bin" >"$out/mpi_test.log" 2>&1
echo "tests/cli/mpi_test.sh on the GPU machine (auto backend): exit $?" | tee -a "$out/mpi.txt"
tail -3 "$out/mpi_test.log"
fi

# The Python module with backend="cuda" (the module of the same build, Debian's Python 3.11 carried).
if part python; then
echo "== Python module on the GPU"
PYTHONPATH=$bin/../python:$bin/../py311 timeout 300 /usr/bin/python3.11 bench/gpu_python_check.py "$bin/gpusynth" \
  configs/comparison-models.yaml "$work/python" 2>&1 | tee "$out/python_cuda.txt"
echo "gpu_python_check.py exit ${PIPESTATUS[0]}" | tee -a "$out/python_cuda.txt"
fi
rm -rf "$work"
