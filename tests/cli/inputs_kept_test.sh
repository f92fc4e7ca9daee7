#!/usr/bin/env bash
# No output replaces an input of its own run (issue 56, docs/cli.md): for every
# command that writes, an output that is the config, a trace, a trace list or
# counters (also through a symbolic link or a hard link), or another output of
# the same run, is exit 2 before any work, one line naming both paths, and the
# input is left byte for byte.
set -u
source "$(dirname "$0")/lib.sh"

in=$tmp/in
mkdir -p "$in"
cp "$data/cloudphysics_per_second.counts" "$in/trace.counts"
cp "$data/mpi-io-test.dxt.txt.gz" "$in/job.dxt.gz"
cp "$in/trace.counts" "$in/web.h5"  # a counts trace, whatever its name
ln -s trace.counts "$in/link.counts"
ln "$in/trace.counts" "$in/hard.counts"
printf 'trace.counts\n' >"$in/list.txt"
cat >"$in/run.yaml" <<'EOF'
seed: 1
output: run.h5
datasets:
  - {name: web, trace: trace.counts, format: counts, bin: 1s}
ensembles:
  - {name: a, model: normal, params: {mu: 5, sigma: 1}, replicas: 2, length: 64}
EOF
sed 's/^output: run.h5/output: self.yaml/' "$in/run.yaml" >"$in/self.yaml"
sed 's/^output: run.h5/output: trace.counts/' "$in/run.yaml" >"$in/onto-trace.yaml"
sed 's|trace: trace.counts|trace_list: list.txt|; s/^output: run.h5/output: list.txt/' "$in/run.yaml" >"$in/onto-list.yaml"
every_stage_config "$in/stages.h5" >"$in/stages.yaml"
(cd "$in" && sha256sum -- * >"$tmp/before.sha")

refused() {  # what pattern command...: exit 2, one error line matching pattern, no temporary left
  local what=$1 pattern=$2
  shift 2
  expect_rc 2 "$what" timeout 60 "$@"
  expect_in "$tmp/stderr" "$pattern" "$what names both paths"
  [ "$(grep -c . "$tmp/stderr")" -eq 1 ] || fail "$what: expected one line on stderr: $(head -c 600 "$tmp/stderr")"
  ! ls -A "$in" | grep -q '\.tmp-' || fail "$what left a temporary: $(ls -A "$in" | grep '\.tmp-')"
}
replaces_input="an output may not replace an input of its own run"

refused "run -o CONFIG" "output '$in/run.yaml' and the config '$in/run.yaml' are the same file; $replaces_input" \
  "$gpusynth" "$in/run.yaml" -q -o "$in/run.yaml"
refused "output: the config itself" "output '$in/self.yaml' and the config '$in/self.yaml' are the same file" \
  "$gpusynth" "$in/self.yaml" -q
refused "output: the dataset's trace" "output '$in/trace.counts' and dataset 'web' trace '$in/trace.counts' are the same file" \
  "$gpusynth" "$in/onto-trace.yaml" -q
refused "output: the trace list" "output '$in/list.txt' and dataset 'web' trace list '$in/list.txt' are the same file" \
  "$gpusynth" "$in/onto-list.yaml" -q
refused "run -o a hard link of the trace" "dataset 'web' trace .* are the same file" \
  "$gpusynth" "$in/run.yaml" -q -o "$in/hard.counts"
refused "bursts -o its config" "and the config '$in/stages.yaml' are the same file" \
  "$gpusynth" bursts "$in/stages.yaml" -q -o "$in/stages.yaml"
refused "stats -o TRACE" "-o '$in/trace.counts' and trace '$in/trace.counts' are the same file; $replaces_input" \
  "$gpusynth" stats "$in/trace.counts" --format counts --bin 1s -o "$in/trace.counts"
refused "stats -o a link to the trace" "-o '$in/link.counts' and trace '$in/trace.counts' are the same file" \
  "$gpusynth" stats "$in/trace.counts" --format counts --bin 1s -o "$in/link.counts"
refused "stats -o the trace list" "and trace list '$in/list.txt' are the same file" \
  "$gpusynth" stats --trace-list "$in/list.txt" --format counts --bin 1s -o "$in/list.txt"
refused "characterize -o TRACE" "--output '$in/job.dxt.gz' and trace '$in/job.dxt.gz' are the same file" \
  "$gpusynth" characterize "$in/job.dxt.gz" --format dxt -o "$in/job.dxt.gz"
refused "fit -o TRACE" "-o '$in/trace.counts' and trace '$in/trace.counts' are the same file" \
  "$gpusynth" fit "$in/trace.counts" --format counts --bin 1s --models normal -o "$in/trace.counts"
refused "fit --ensemble-output TRACE" "the config's output '$in/trace.counts' and trace .* are the same file" \
  "$gpusynth" fit "$in/trace.counts" --format counts --bin 1s --models normal -o "$in/fitted.yaml" \
  --ensemble-output "$in/trace.counts"
refused "fit -o X --ensemble-output X" "-o '$in/x.yaml' and the config's output '$in/x.yaml' are the same file; every output" \
  "$gpusynth" fit "$in/trace.counts" --format counts --bin 1s --models normal -o "$in/x.yaml" --ensemble-output "$in/x.yaml"
refused "fit -o the trace list" "and trace list '$in/list.txt' are the same file" \
  "$gpusynth" fit --trace-list "$in/list.txt" --format counts --bin 1s --models normal -o "$in/list.txt"
refused "fit -o W.yaml, whose config writes W.h5 beside it, from the trace W.h5" \
  "the config's output '$in/web.h5' (beside -o) and trace '$in/web.h5' are the same file" \
  "$gpusynth" fit "$in/web.h5" --format counts --bin 1s --models normal -o "$in/web.yaml"
refused "fft-wisdom -o CONFIG" "-o '$in/run.yaml' and the config '$in/run.yaml' are the same file" \
  "$gpusynth" fft-wisdom "$in/run.yaml" -q -o "$in/run.yaml"

(cd "$in" && sha256sum -c --quiet "$tmp/before.sha") || fail "an input changed"
[ ! -e "$in/fitted.yaml" ] && [ ! -e "$in/x.yaml" ] || fail "a refused fit wrote its config"

# The same outputs elsewhere are written (the checks refuse clashes, not the commands).
expect_rc 0 "run -o elsewhere" "$gpusynth" "$in/run.yaml" -q -o "$tmp/run.h5"
expect_rc 0 "stats -o elsewhere" "$gpusynth" stats "$in/link.counts" --format counts --bin 1s -o "$tmp/s.h5"
finish "inputs kept"
