# What the CLI tests share (sourced): the arguments, a temporary directory
# removed at exit, and checks that count failures instead of stopping.
#   $1 the gpusynth binary, $2 the source tree, $3 the build tree
gpusynth=$1
source_dir=$2
data=$source_dir/tests/data
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
use_python_module() {  # the built Python module on PYTHONPATH (docs/python.md), or skipped (exit 77)
  if ! ls "$3"/python/gpusynth*.so >/dev/null 2>&1; then
    echo "SKIP: the Python module is not built (pybind11-dev, python3-dev; docs/python.md)"
    exit 77
  fi
  export PYTHONPATH=$3/python
}
finish() {  # the verdict, as the exit code
  if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
  fi
  echo "$1: all checks passed"
}
same_h5() {  # a.h5 b.h5 object: h5diff finds no difference and left nothing out. It passes over a
  # dataset whose shape differs ("not comparable", exit 0); only datasets empty in both (same
  # shapes, h5ls) may be so here.
  local out
  out=$(h5diff -c "$1" "$2" "$3" "$3" 2>&1) || { echo "$out" | head -c 400; return 1; }
  if [ "$(h5ls -r "$1/$3" 2>&1)" != "$(h5ls -r "$2/$3" 2>&1)" ]; then
    echo "the objects or their shapes differ: $(diff <(h5ls -r "$1/$3" 2>&1) <(h5ls -r "$2/$3" 2>&1) | head -c 400)"
    return 1
  fi
  if echo "$out" | grep "Not comparable" | grep -qv "is an empty dataset"; then
    echo "$out" | grep "Not comparable" | grep -v "is an empty dataset" | head -c 400
    return 1
  fi
}
every_stage_config() {  # output.h5: a config that runs every stage (generate, study, requests, bursts), for the fault tests
  local traces
  traces=$(cd "$data" && pwd)
  cat <<YAML
seed: 5
output: $1
datasets:
  - {name: job, trace: $traces/dxt.parser.txt.gz, format: darshan, bin: 1s, series: bytes_read}
models: [normal]
replicas: 6
compare: {}
ensembles:
  - {name: long, model: fgn, params: {H: 0.7}, replicas: 60, length: 4000}
requests:
  - {name: r, trace: $traces/mpi-io-test.dxt.txt.gz, format: dxt, replicas: 1}
bursts:
  - {name: read, dataset: job, horizons: [1s, 2s], bootstrap: {resamples: 20}, scheduling: {min_time: 2s, max_time: 6s, window: 8}}
YAML
}
