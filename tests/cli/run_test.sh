#!/usr/bin/env bash
# gpusynth run (and gpusynth CONFIG): exit codes (0 ok, 2 user error, 130
# interrupted), `gpusynth CONFIG` = `gpusynth run CONFIG`, overrides, dry run,
# quiet mode, progress lines, plans of 10^10 samples, and no partial output.
set -u
source "$(dirname "$0")/lib.sh"

cat >"$tmp/small.yaml" <<YAML
seed: 5
output: $tmp/default.h5
ensembles:
  - {name: a, model: lfsn, params: {alpha: 1.5, beta: 0.5, H: 0.8, m: 4, K: 32},
     workload: {v: 2, delta: 10, values: counts}, replicas: 20, length: 200}
  - {name: b, model: stable, params: {alpha: 1.2, beta: -1}, replicas: 10, length: 99}
YAML

# One rule for the paths in a config: relative to the config (docs/config.md), whatever the working
# directory; -o stays relative to the working directory.
mkdir -p "$tmp/cfg/out" "$tmp/elsewhere"
sed "s|^output: .*|output: out/beside.h5|" "$tmp/small.yaml" >"$tmp/cfg/relative.yaml"
expect_rc 0 "a relative output: run from another folder" sh -c "cd '$tmp/elsewhere' && '$gpusynth' ../cfg/relative.yaml -q"
[ -f "$tmp/cfg/out/beside.h5" ] || fail "the relative output: did not land beside the config ($(ls -R "$tmp" | head -20))"
[ ! -e "$tmp/elsewhere/out" ] || fail "the relative output: followed the working directory"
expect_rc 0 "-o relative to the working directory" sh -c "cd '$tmp/elsewhere' && '$gpusynth' ../cfg/relative.yaml -q -o here.h5"
[ -f "$tmp/elsewhere/here.h5" ] || fail "-o did not follow the working directory"

expect_rc 0 "--version" "$gpusynth" --version
expect_in "$tmp/stdout" "gpusynth 0.6.0" "--version"
expect_rc 0 "--help" "$gpusynth" --help
expect_in "$tmp/stdout" "run" "--help lists the run command"
expect_rc 0 "run --help" "$gpusynth" run --help
for option in --backend --precision --output --seed --replicas --memory-limit --dry-run --quiet; do
  expect_in "$tmp/stdout" "$option" "run --help"
done
expect_rc 2 "no arguments" "$gpusynth"
expect_rc 2 "unknown option" "$gpusynth" "$tmp/small.yaml" --bogus
expect_rc 2 "bad --backend" "$gpusynth" "$tmp/small.yaml" --backend gpu
expect_rc 2 "bad --precision" "$gpusynth" "$tmp/small.yaml" --precision single
expect_rc 2 "bad --memory-limit" "$gpusynth" "$tmp/small.yaml" --memory-limit lots
expect_in "$tmp/stderr" "memory size 'lots' is not accepted" "bad --memory-limit message"
expect_rc 2 "bad --replicas" "$gpusynth" "$tmp/small.yaml" --replicas 0
expect_rc 2 "missing config" "$gpusynth" "$tmp/none.yaml"
expect_in "$tmp/stderr" "cannot open the config file" "missing config message"

# A config without output: runs with -o, --no-output or --dry-run; otherwise says what to add.
grep -v "^output:" "$tmp/small.yaml" >"$tmp/nooutput.yaml"
expect_rc 0 "no output: with --no-output" "$gpusynth" "$tmp/nooutput.yaml" --no-output -q
expect_rc 0 "no output: with --dry-run" "$gpusynth" "$tmp/nooutput.yaml" --dry-run
expect_in "$tmp/stdout" "output (none given)" "the plan says no output was given"
expect_rc 0 "no output: with -o" "$gpusynth" "$tmp/nooutput.yaml" -o "$tmp/given.h5" -q
[ -s "$tmp/given.h5" ] || fail "-o without output: wrote nothing"
expect_rc 2 "no output at all" "$gpusynth" "$tmp/nooutput.yaml"
expect_in "$tmp/stderr" "no output file: the config has no 'output:' and no -o was given" "missing output message"

# A bad parameter: exit 2, file:line:column and the accepted range, no output.
sed 's/alpha: 1.2/alpha: 3/' "$tmp/small.yaml" >"$tmp/bad.yaml"
expect_rc 2 "alpha out of range" "$gpusynth" "$tmp/bad.yaml" -o "$tmp/bad.h5"
expect_in "$tmp/stderr" "bad.yaml:6:" "bad alpha names the line"
expect_in "$tmp/stderr" "params.alpha = 3 is out of range; accepted: 0 < alpha <= 2" "bad alpha names the range"
[ ! -e "$tmp/bad.h5" ] || fail "a rejected config left $tmp/bad.h5"

# gpusynth CONFIG is gpusynth run CONFIG; overrides apply.
expect_rc 0 "implicit run" "$gpusynth" "$tmp/small.yaml" -o "$tmp/implicit.h5" --seed 9 --replicas 3 --backend cpu
expect_rc 0 "explicit run" "$gpusynth" run "$tmp/small.yaml" --output "$tmp/explicit.h5" --seed 9 --replicas 3 --backend cpu
same_h5 "$tmp/implicit.h5" "$tmp/explicit.h5" /ensembles/a/series >/dev/null ||
  fail "implicit and explicit run differ"
same_h5 "$tmp/implicit.h5" "$tmp/explicit.h5" /ensembles/b/series >/dev/null ||
  fail "implicit and explicit run differ (b)"
h5dump -d /ensembles/a/series -H "$tmp/implicit.h5" | grep -q "( 3, 200 )" || fail "--replicas 3 not applied"
h5dump -a /seed "$tmp/implicit.h5" | grep -q "(0): 9" || fail "--seed 9 not recorded"
h5dump -a /precision "$tmp/implicit.h5" | grep -q '"accurate"' || fail "precision accurate not recorded"
# precision fast is recorded with what it meant (tests/cpu/test_precision.cpp checks its values).
expect_rc 0 "fast run" "$gpusynth" "$tmp/small.yaml" -o "$tmp/fast.h5" --seed 9 --replicas 3 --backend cpu --precision fast
h5dump -a /precision "$tmp/fast.h5" | grep -q '"fast"' || fail "--precision fast not recorded"
h5dump -a /precision_note "$tmp/fast.h5" | grep -q "fast" || fail "precision_note missing"
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

finish "run"
