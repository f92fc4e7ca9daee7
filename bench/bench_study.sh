#!/usr/bin/env bash
# A comparison study of 10 real datasets x 5 models x 1000 replicas: the time of
# each stage (fit, generate, compare, bootstrap and summary, report), and the
# compare stage beside numpy/scipy doing the same per-replica metrics on 1000
# stored replicas of one ensemble.
# Usage: bench/bench_study.sh GPUSYNTH [REPLICAS] [OUTDIR]
# Environment: STUDY_METRICS (default "trimmed_error, ks, acf, hurst, burstiness"), STUDY_ARGS
# (extra gpusynth arguments, e.g. --backend cpu).
set -eu
gpusynth=$(realpath "$1")
replicas=${2:-1000}
out=${3:-$(mktemp -d)}
data=$(cd "$(dirname "$0")/../tests/data" && pwd)
mkdir -p "$out"
cat > "$out/study10.yaml" <<EOF
seed: 99
output: $out/study10.h5
datasets:
  - {name: cloudphysics, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
  - {name: cloudphysics-10s, trace: $data/cloudphysics_vscsi.csv.gz, format: timestamps, header: true, column: time, bin: 10s}
  - {name: cloudphysics-reads, trace: $data/cloudphysics_vscsi.csv.gz, format: timestamps, header: true, column: time, op_column: op, read_values: ["28", "88"], write_values: [2a, 8a], bin: 1s, series: count_read}
  - {name: cloudphysics-writes, trace: $data/cloudphysics_vscsi.csv.gz, format: timestamps, header: true, column: time, op_column: op, read_values: ["28", "88"], write_values: [2a, 8a], bin: 1s, series: count_write}
  - {name: mpi-io-test-writes, trace: $data/mpi-io-test.dxt.txt.gz, format: dxt, bin: 10ms, series: count_write}
  - {name: mpi-io-test-reads, trace: $data/mpi-io-test.dxt.txt.gz, format: dxt, bin: 10ms, series: count_read}
  - {name: mpi-io-test-pioneer, trace: $data/mpi-io-test.pioneer, format: pioneer, bin: 5ms}
  - {name: mqsim-tpcc, trace: $data/mqsim_tpcc_small.disksim.gz, format: disksim, time_unit: ns, bin: 1ms}
  - {name: loop0-blk, trace: $data/loop0_blk.txt.gz, format: blkparse, bin: 10ms}
  - {name: atlas10k-latency, trace: $data/atlas10k_latency.series.gz, format: series}
models: [lfsn, markov, normal, farima, fgn]
replicas: $replicas
fitting: {lfsn_hurst: rs}
compare:
  metrics: [${STUDY_METRICS:-trimmed_error, ks, acf, hurst, burstiness}]
  bootstrap: {resamples: 2000, confidence: 0.95, method: bca}
  store_replicas: 1
EOF
echo "== $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores; $gpusynth --version: $("$gpusynth" --version)"
echo "== study: 10 datasets x 5 models x $replicas replicas"
/usr/bin/time -f "wall %e s, max RSS %M KiB" "$gpusynth" "$out/study10.yaml" ${STUDY_ARGS:-} 2>&1 | grep -v "^progress" | tail -n 40
start=$(date +%s.%N)
"$gpusynth" report "$out/study10.h5" -o "$out/report10" > /dev/null
echo "report: $(echo "$(date +%s.%N) - $start" | bc) s"

echo "== compare stage vs numpy/scipy: one ensemble (cloudphysics normal), $replicas replicas stored"
sed -e "s|store_replicas: 1|store_replicas: $replicas|" -e "s|study10.h5|one.h5|" -e "s|models: \[lfsn, markov, normal, farima, fgn\]|models: [normal]|" \
  "$out/study10.yaml" | awk '/^datasets:/{print; getline; print; skip=1; next} skip && /^  - /{next} {skip=0; print}' > "$out/one.yaml"
"$gpusynth" "$out/one.yaml" 2>&1 | grep "study stages"
/usr/bin/python3 - "$out/one.h5" <<'PY'
import sys, time
import h5py, numpy as np
from scipy import stats
with h5py.File(sys.argv[1]) as f:
    x = f["datasets/cloudphysics/series"][()]
    Y = f["ensembles/cloudphysics-normal/series"][()].astype(np.float64)
def acf(v, L):
    d = v - v.mean(); n = len(v); m = 1 << int(np.ceil(np.log2(n + L)))
    s = np.fft.irfft(np.abs(np.fft.rfft(d, m)) ** 2, m)[: L + 1]
    return s / s[0]
t = time.perf_counter()
ax, sx = acf(x, 50), np.sort(x)
out = []
for y in Y:
    out.append((stats.trim_mean(np.abs(sx - np.sort(y)), 0.1), stats.ks_2samp(x, y).statistic,
                np.sqrt(np.mean((acf(y, 50)[1:] - ax[1:]) ** 2)),
                (y.max() / y.mean()) / (x.max() / x.mean()), (y.std(ddof=1) / y.mean()) / (x.std(ddof=1) / x.mean())))
dt = time.perf_counter() - t
print(f"numpy/scipy, one thread: {len(Y)} replicas x 5 metrics (no Hurst) of {len(x)} values: {dt:.2f} s")
t = time.perf_counter()
boot = [np.median(np.random.default_rng(b).choice(np.array(out)[:, 0], len(out))) for b in range(2000)]
print(f"numpy bootstrap of one median, 2000 resamples: {time.perf_counter() - t:.2f} s")
PY
