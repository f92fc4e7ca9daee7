#!/usr/bin/env bash
# The command-line contract of gpusynth, through the real binary: exit codes
# (0 ok, 2 user error, 130 interrupted), `gpusynth CONFIG` = `gpusynth run CONFIG`,
# overrides, dry run, quiet mode, progress lines, and no partial output.
set -u
gpusynth=$1
source_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_rc() {  # expected-rc description command...
  local expected=$1 what=$2; shift 2
  "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [ "$rc" -eq "$expected" ] || fail "$what: exit $rc, expected $expected; stderr: $(head -c 400 "$tmp/stderr")"
}
expect_in() {  # file pattern description
  grep -q -- "$2" "$1" || fail "$3: '$2' not in $(basename "$1"): $(head -c 400 "$1")"
}

cat >"$tmp/small.yaml" <<YAML
seed: 5
output: $tmp/default.h5
ensembles:
  - {name: a, model: lfsn, params: {alpha: 1.5, beta: 0.5, H: 0.8, m: 4, K: 32},
     workload: {v: 2, delta: 10, values: counts}, replicas: 20, length: 200}
  - {name: b, model: stable, params: {alpha: 1.2, beta: -1}, replicas: 10, length: 99}
YAML

expect_rc 0 "--version" "$gpusynth" --version
expect_in "$tmp/stdout" "gpusynth 0.1.0" "--version"
expect_rc 0 "--help" "$gpusynth" --help
expect_in "$tmp/stdout" "run" "--help lists the run command"
expect_rc 0 "run --help" "$gpusynth" run --help
for option in --backend --output --seed --replicas --memory-limit --dry-run --quiet; do
  expect_in "$tmp/stdout" "$option" "run --help"
done
expect_rc 2 "no arguments" "$gpusynth"
expect_rc 2 "unknown option" "$gpusynth" "$tmp/small.yaml" --bogus
expect_rc 2 "bad --backend" "$gpusynth" "$tmp/small.yaml" --backend gpu
expect_rc 2 "bad --memory-limit" "$gpusynth" "$tmp/small.yaml" --memory-limit lots
expect_in "$tmp/stderr" "memory size 'lots' is not accepted" "bad --memory-limit message"
expect_rc 2 "bad --replicas" "$gpusynth" "$tmp/small.yaml" --replicas 0
expect_rc 2 "missing config" "$gpusynth" "$tmp/none.yaml"
expect_in "$tmp/stderr" "cannot open the config file" "missing config message"

# A bad parameter: exit 2, file:line:column and the accepted range, no output.
sed 's/alpha: 1.2/alpha: 3/' "$tmp/small.yaml" >"$tmp/bad.yaml"
expect_rc 2 "alpha out of range" "$gpusynth" "$tmp/bad.yaml" -o "$tmp/bad.h5"
expect_in "$tmp/stderr" "bad.yaml:6:" "bad alpha names the line"
expect_in "$tmp/stderr" "params.alpha = 3 is out of range; accepted: 0 < alpha <= 2" "bad alpha names the range"
[ ! -e "$tmp/bad.h5" ] || fail "a rejected config left $tmp/bad.h5"

# gpusynth CONFIG is gpusynth run CONFIG; overrides apply.
expect_rc 0 "implicit run" "$gpusynth" "$tmp/small.yaml" -o "$tmp/implicit.h5" --seed 9 --replicas 3 --backend cpu
expect_rc 0 "explicit run" "$gpusynth" run "$tmp/small.yaml" --output "$tmp/explicit.h5" --seed 9 --replicas 3 --backend cpu
h5diff "$tmp/implicit.h5" "$tmp/explicit.h5" /ensembles/a/series /ensembles/a/series >/dev/null ||
  fail "implicit and explicit run differ"
h5diff "$tmp/implicit.h5" "$tmp/explicit.h5" /ensembles/b/series /ensembles/b/series >/dev/null ||
  fail "implicit and explicit run differ (b)"
h5dump -d /ensembles/a/series -H "$tmp/implicit.h5" | grep -q "( 3, 200 )" || fail "--replicas 3 not applied"
h5dump -a /seed "$tmp/implicit.h5" | grep -q "(0): 9" || fail "--seed 9 not recorded"
expect_in "$tmp/stderr" "progress:" "plain progress lines when stderr is not a terminal"
expect_in "$tmp/stderr" "backend cpu (requested)" "the log names the backend"

# Without a usable GPU, --backend cuda is a user error with a clear message.
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi >/dev/null 2>&1; then
  expect_rc 2 "--backend cuda without a GPU" "$gpusynth" "$tmp/small.yaml" -o "$tmp/cuda.h5" --backend cuda
  expect_in "$tmp/stderr" "no CUDA device is usable" "--backend cuda message"
  [ ! -e "$tmp/cuda.h5" ] || fail "--backend cuda left a file"
fi

# --dry-run prints the plan and writes nothing; --quiet prints nothing.
expect_rc 0 "dry run" "$gpusynth" "$tmp/small.yaml" --dry-run
expect_in "$tmp/stdout" "batches" "dry run prints the plan"
expect_in "$tmp/stdout" "FFT length" "dry run shows the LFSN sizes"
[ ! -e "$tmp/default.h5" ] || fail "--dry-run wrote the output"
expect_rc 0 "quiet" "$gpusynth" "$tmp/small.yaml" --quiet
[ ! -s "$tmp/stderr" ] || fail "--quiet printed: $(head -c 200 "$tmp/stderr")"
[ -e "$tmp/default.h5" ] || fail "the config's output path was not written"

# A study of 10^10 samples streams in bounded memory: the plan shows its batches.
cat >"$tmp/huge.yaml" <<YAML
output: $tmp/huge.h5
ensembles:
  - {name: huge, model: stable, params: {alpha: 1.5}, replicas: 1000000, length: 10000}
YAML
expect_rc 0 "dry run of 10^10 samples" "$gpusynth" "$tmp/huge.yaml" --dry-run --backend cpu --memory-limit 1GiB
expect_in "$tmp/stdout" "10000000000 samples, 37.3 GiB uncompressed" "the 10^10 plan totals"
batches=$(awk '$1 == "huge" {print $9}' "$tmp/stdout")
[ "${batches:-0}" -ge 38 ] || fail "10^10 samples in 1 GiB need at least 38 batches, the plan has '$batches'"

# Interrupted: exit 130, nothing at the output path, no temporary left.
cat >"$tmp/long.yaml" <<YAML
output: $tmp/long.h5
ensembles:
  - {name: long, model: lfsn, params: {alpha: 1.5, H: 0.8, m: 16, K: 256}, replicas: 1000000, length: 4096}
YAML
for signal in INT TERM; do
  "$gpusynth" "$tmp/long.yaml" --backend cpu 2>"$tmp/long.err" &
  pid=$!
  for _ in $(seq 1 100); do
    ls -a "$tmp" | grep -q '^\.long\.h5\.tmp' && break
    sleep 0.1
  done
  kill -"$signal" "$pid"
  wait "$pid"
  rc=$?
  [ "$rc" -eq 130 ] || fail "SIG$signal: exit $rc, expected 130"
  [ ! -e "$tmp/long.h5" ] || fail "SIG$signal left $tmp/long.h5"
  ! ls -a "$tmp" | grep -q '\.tmp-' || fail "SIG$signal left a temporary file"
  expect_in "$tmp/long.err" "nothing was written" "interrupt message"
done

# stats: real traces in, a summary out (text, JSON, HDF5), located errors, no partial output.
data=$source_dir/tests/data
expect_rc 0 "stats dxt" "$gpusynth" stats "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin 100ms
for word in "events       320" "Hurst" "IDC" "ACF" "burstiness"; do expect_in "$tmp/stdout" "$word" "stats summary"; done
expect_rc 0 "stats --json" "$gpusynth" stats "$data/cloudphysics_vscsi.csv.gz" --format timestamps --header \
  --column time --op-column op --size-column size --read-values 28,88 --write-values 2a,8a --bin 1s --json
/usr/bin/python3 - "$tmp/stdout" <<'PY' || fail "stats --json keys"
import json, sys
j = json.load(open(sys.argv[1]))
for key in ("length", "mean", "cv", "peak_to_mean", "acf", "hurst"):
    assert key in j, key
assert j["length"] == 7201 and j["events"] == 113872, j["length"]
assert set(j["hurst"]) >= {"rs", "aggvar", "dfa", "whittle", "stable"}, j["hurst"]
assert abs(j["acf"][0] - 1) < 1e-12
PY
expect_rc 0 "stats -o" "$gpusynth" stats "$data/mpi-io-test.parser.txt.gz" "$data/dxt.parser.txt.gz" --format darshan \
  --bin 60s -o "$tmp/stats.h5" --name jobs
/usr/bin/python3 - "$tmp/stats.h5" "$data/mpi-io-test.parser.txt.gz" <<'PY' || fail "stats HDF5 layout"
import h5py, hashlib, sys
f = h5py.File(sys.argv[1], "r")
g = f["/datasets/jobs"]
assert g.attrs["source"].split(";")[0] == "mpi-io-test.parser.txt.gz", g.attrs["source"]
assert g.attrs["source_sha256"].split(";")[0] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert g.attrs["series_name"] == "bytes" and g.attrs["bin_width"] == 60
for name in ("series", "acf", "quantiles", "channels/bytes_read", "burstiness/idc", "hurst/rs"):
    assert name in g, name
PY
printf '1\n2\nx\n3\n' >"$tmp/bad.txt"
expect_rc 2 "stats malformed line" "$gpusynth" stats "$tmp/bad.txt" --format timestamps --bin 1s -o "$tmp/bad.h5"
expect_in "$tmp/stderr" "bad.txt:3:1: timestamp 'x' is not a finite number" "stats error names file:line:column"
[ ! -e "$tmp/bad.h5" ] || fail "a failed stats run left its output"
! ls -a "$tmp" | grep -q '\.tmp-' || fail "a failed stats run left a temporary file"
expect_rc 0 "stats --skip-bad-lines" "$gpusynth" stats "$tmp/bad.txt" --format timestamps --bin 1s --skip-bad-lines
expect_in "$tmp/stdout" "1 bad lines skipped" "skipped lines are reported"
expect_rc 2 "stats unknown format" "$gpusynth" stats "$tmp/bad.txt" --format csv --bin 1s
expect_in "$tmp/stderr" "not one of timestamps" "unknown format"
expect_rc 2 "stats missing --bin" "$gpusynth" stats "$tmp/bad.txt" --format timestamps
expect_rc 2 "stats bad --bin" "$gpusynth" stats "$tmp/bad.txt" --format timestamps --bin 1parsec

# fit: every model from a real trace, a runnable config, fit -> run round trip.
expect_rc 0 "fit counts" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models stable,lfsn,fgn,norros,farima,normal,markov --replicas 3 -o "$tmp/fitted.yaml" \
  --ensemble-output "$tmp/fitted.h5"
for model in stable lfsn fgn norros farima normal markov; do expect_in "$tmp/stdout" "$model " "fit table row"; done
expect_rc 0 "fitted config runs" "$gpusynth" "$tmp/fitted.yaml" -q
/usr/bin/python3 - "$tmp/fitted.h5" "$data/cloudphysics_per_second.counts" <<'PY' || fail "fitted HDF5 layout"
import h5py, hashlib, sys
f = h5py.File(sys.argv[1], "r")
d = f["/datasets/cloudphysics_per_second"]
assert d["series"].shape == (7201,), d["series"].shape
assert d.attrs["source_sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
for model in ("stable", "lfsn", "fgn", "norros", "farima", "normal", "markov"):
    e = f["/ensembles/cloudphysics_per_second-" + model]
    assert e["series"].shape == (3, 7201), (model, e["series"].shape)
    assert len(e["fit"].attrs) > 0, model
st = f["/ensembles/cloudphysics_per_second-stable"]
assert abs(st.attrs["alpha"] - st["fit"].attrs["alpha"]) < 1e-12
assert 0 < st["fit"].attrs["alpha_se"] < 0.1
PY
# The HMM from a (time, latency) series; a non-series trace is refused for hmm only.
expect_rc 0 "fit hmm" "$gpusynth" fit "$data/atlas10k_latency.series.gz" --format series --models hmm,normal \
  --hmm-starts 2 -o "$tmp/hmm.yaml" --ensemble-output "$tmp/hmm.h5" --replicas 2
expect_in "$tmp/stdout" "hmm      ok" "hmm fitted"
expect_rc 0 "fitted hmm runs" "$gpusynth" "$tmp/hmm.yaml" -q
expect_in "$tmp/hmm.yaml" "times: dataset" "the fitted hmm replays the trace's observation times"
# The replicas are observed at the trace's own (irregular) times.
/usr/bin/python3 - "$tmp/hmm.h5" "$data/atlas10k_latency.series.gz" <<'PY' || fail "hmm observation times are not the trace's"
import gzip, sys
import h5py, numpy as np
times = np.loadtxt(gzip.open(sys.argv[2], "rt"), comments="#")[:, 0]
with h5py.File(sys.argv[1]) as f:
    (name,) = [n for n in f["ensembles"] if n.endswith("-hmm")]
    stored = f["ensembles"][name]["observation_times"][:]
    assert "dataset" in f["ensembles"][name].attrs["observation_times"]
assert stored.shape == times.shape and np.array_equal(stored, times), (stored[:3], times[:3])
PY
sed 's/length: 10000/length: 9999/' "$tmp/hmm.yaml" > "$tmp/hmm_bad.yaml"
expect_rc 2 "hmm times: dataset of another length" "$gpusynth" "$tmp/hmm_bad.yaml" -q -o "$tmp/hmm_bad.h5"
expect_in "$tmp/stderr" "length = 9999 but dataset 'atlas10k_latency' has 10000 observation times" "times: dataset length named"
expect_rc 0 "fit hmm on counts" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models hmm,normal
expect_in "$tmp/stdout" "hmm needs a series trace" "hmm on counts is stopped with a reason"
# Darshan spreads an operation evenly over its bins: 62 % of this series is one value, an
# atom with no stable maximum likelihood; the stable models stop with why, the others fit.
expect_rc 0 "fit darshan atom" "$gpusynth" fit "$data/dxt.parser.txt.gz" --format darshan --bin 1s --series bytes \
  --models stable,normal -o "$tmp/atom.yaml"
expect_in "$tmp/stdout" "stable   stopped .*905 of the 1469 values (61.6 %) equal" "stable stopped on an atom"
expect_in "$tmp/stdout" "normal   ok" "normal still fitted beside a stopped stable"
expect_rc 2 "fit unknown model" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models stable,gamma -o "$tmp/never.yaml"
expect_in "$tmp/stderr" "'gamma' is not a fittable model" "unknown model named"
[ ! -e "$tmp/never.yaml" ] || fail "a failed fit left its output"
expect_rc 0 "norros" "$gpusynth" norros -a 2.5 -H 0.8 --epsilon 1e-3 -b 8 --lambda 100
expect_in "$tmp/stdout" "arrival rate lambda" "norros eq. (5)"
expect_rc 2 "norros H = 0.5" "$gpusynth" norros -a 2.5 -H 0.5
expect_in "$tmp/stderr" "no unique arrival rate" "norros explains H = 0.5"

# A comparison study: fitted models, per-replica metrics recomputed with numpy/scipy, the report.
cat > "$tmp/study.yaml" <<EOF
seed: 5
output: $tmp/study.h5
datasets:
  - {name: cloudphysics, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
  - {name: mpiio-reads, trace: $data/mpi-io-test.dxt.txt.gz, format: dxt, bin: 20ms, series: count_read}
models: [lfsn, markov, normal]
replicas: 24
compare:
  metrics: [trimmed_error, ks, acf, hurst, burstiness]
  trim: 0.1
  acf_lags: 20
  bootstrap: {resamples: 500, confidence: 0.9, method: bca}
  store_replicas: 6
EOF
expect_rc 0 "study" "$gpusynth" "$tmp/study.yaml" -q
expect_in "$tmp/stdout" "trimmed_error: median" "study prints its tables"
expect_in "$tmp/stdout" "matching degree by trimmed_error" "study prints the matching degree"
cp "$tmp/stdout" "$tmp/study_tables.txt"
# The datasets are fitted in parallel: one thread gives the very same tables.
expect_rc 0 "study on one thread" env OMP_NUM_THREADS=1 "$gpusynth" "$tmp/study.yaml" -q -o "$tmp/study1.h5"
cmp -s "$tmp/stdout" "$tmp/study_tables.txt" || fail "the study's tables differ between 1 thread and the default"
/usr/bin/python3 "$source_dir/tests/study_check.py" "$tmp/study.h5" 0.1 20 || fail "study output disagrees with numpy/scipy"
expect_rc 0 "report" "$gpusynth" report "$tmp/study.h5" -o "$tmp/report"
for plot in cdf qq acf paths metrics; do
  for d in cloudphysics mpiio-reads; do
    [ -s "$tmp/report/${plot}_$d.png" ] || fail "report plot ${plot}_$d.png missing or empty"
  done
done
grep -q "data:image/png;base64" "$tmp/report/index.html" || fail "index.html does not embed its plots"
grep -q "Matching degree" "$tmp/report/report.md" || fail "report.md has no matching degree table"
# Without matplotlib the report is a user error naming the package, not a traceback.
mkdir -p "$tmp/no-matplotlib"
echo 'raise ImportError("No module named matplotlib", name="matplotlib")' >"$tmp/no-matplotlib/matplotlib.py"
expect_rc 2 "report without matplotlib" env PYTHONPATH="$tmp/no-matplotlib" "$gpusynth" report "$tmp/study.h5" \
  -o "$tmp/report3"
expect_in "$tmp/stderr" "install python3-matplotlib" "report names the missing package"
! grep -q Traceback "$tmp/stderr" || fail "report without matplotlib printed a traceback"
[ ! -e "$tmp/report3" ] || fail "a report without matplotlib left its directory"
expect_rc 2 "report without /compare" "$gpusynth" report "$tmp/hmm.h5" -o "$tmp/report2"
expect_in "$tmp/stderr" "no /compare group" "report explains a file without a study"
[ ! -e "$tmp/report2" ] || fail "a failed report left its directory"
sed 's/metrics: \[trimmed_error/metrics: [mse, trimmed_error/' "$tmp/study.yaml" > "$tmp/bad_study.yaml"
expect_rc 2 "study bad metric" "$gpusynth" "$tmp/bad_study.yaml" -o "$tmp/bad_study.h5"
expect_in "$tmp/stderr" "'mse' is not a metric" "bad metric named"
[ ! -e "$tmp/bad_study.h5" ] || fail "a failed study left its output"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "cli contract: all checks passed"
