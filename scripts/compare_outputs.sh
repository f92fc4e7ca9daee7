#!/usr/bin/env bash
# Runs the same work with two gpusynth binaries and compares what they write:
# every config in configs/ and the runs of the CLI tests (overrides, a fit and
# its config, the hmm fit, a study, stats -o). Datasets must be bit-identical
# (scripts/compare_h5.py); attributes that differ are listed. For refactors:
#   scripts/compare_outputs.sh OLD/build/gpusynth NEW/build/gpusynth [WORKDIR]
set -u
old=$(realpath "$1")
new=$(realpath "$2")
work=${3:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/.." && pwd)
data=$here/tests/data
mkdir -p "$work/old" "$work/new"
differences=0

# run NAME ARGS...: the same command with each binary; {out} is that binary's directory.
run() {
  local name=$1; shift
  for side in old new; do
    local binary=${!side}
    local args=("${@//\{out\}/$work/$side}")
    (cd "$work/$side" && "$binary" "${args[@]}" >"$work/$side/$name.stdout" 2>"$work/$side/$name.stderr") ||
      { echo "FAILED ($side): $name: $(tail -c 300 "$work/$side/$name.stderr")"; differences=$((differences + 1)); }
  done
}
compare() {  # FILE.h5
  if /usr/bin/python3 "$here/scripts/compare_h5.py" "$work/old/$1" "$work/new/$1" >"$work/$1.diff"; then
    echo "same datasets: $1 ($(grep -c . "$work/$1.diff") attribute differences)"
  else
    echo "DIFFERENT: $1"; grep DIFFERENT "$work/$1.diff" | head -5; differences=$((differences + 1))
  fi
}

for config in "$here"/configs/*.yaml; do
  name=$(basename "$config" .yaml)
  run "$name" "$config" -q -o "{out}/$name.h5"
  compare "$name.h5"
done

cat >"$work/small.yaml" <<YAML
seed: 5
output: small.h5
ensembles:
  - {name: a, model: lfsn, params: {alpha: 1.5, beta: 0.5, H: 0.8, m: 4, K: 32},
     workload: {v: 2, delta: 10, values: counts}, replicas: 20, length: 200}
  - {name: b, model: stable, params: {alpha: 1.2, beta: -1}, replicas: 10, length: 99}
YAML
run small "$work/small.yaml" -q -o "{out}/small.h5" --seed 9 --replicas 3 --backend cpu
compare small.h5
run fit-counts fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models stable,lfsn,fgn,norros,farima,normal,markov --replicas 3 -o "{out}/fitted.yaml" --ensemble-output "{out}/fitted.h5"
run fitted "{out}/fitted.yaml" -q
compare fitted.h5
run fit-hmm fit "$data/atlas10k_latency_2000.series.gz" --format series --models hmm,normal --hmm-starts 2 \
  -o "{out}/hmm.yaml" --ensemble-output "{out}/hmm.h5" --replicas 2
run hmm "{out}/hmm.yaml" -q
compare hmm.h5
for name in fitted hmm; do  # the fitted configs, but for their header comment and paths
  if ! diff <(grep -v '^#' "$work/old/$name.yaml" | sed "s#$work/old#DIR#g") \
            <(grep -v '^#' "$work/new/$name.yaml" | sed "s#$work/new#DIR#g") >/dev/null; then
    echo "DIFFERENT: $name.yaml"; differences=$((differences + 1))
  fi
done
run study "$here/tests/cli/study.yaml" -q -o "{out}/study.h5"
compare study.h5
cmp -s "$work/old/study.stdout" "$work/new/study.stdout" || { echo "DIFFERENT: the study's tables"; differences=$((differences + 1)); }
run stats-darshan stats "$data/mpi-io-test.parser.txt.gz" "$data/dxt.parser.txt.gz" --format darshan --bin 60s \
  -o "{out}/stats.h5" --name jobs
compare stats.h5
run stats-json stats "$data/cloudphysics_vscsi.csv.gz" --format timestamps --header --column time --op-column op \
  --size-column size --read-values 28,88 --write-values 2a,8a --bin 1s --json
cmp -s "$work/old/stats-json.stdout" "$work/new/stats-json.stdout" || { echo "DIFFERENT: stats --json"; differences=$((differences + 1)); }

echo "$differences difference(s); outputs in $work"
[ "$differences" -eq 0 ]
