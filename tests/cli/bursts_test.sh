#!/usr/bin/env bash
# Burst analysis from the command line (docs/bursts.md): `gpusynth bursts` on
# the shipped 1,469 s darshan log in 1 s bins (bytes, operations and I/O time:
# FS3), a Markov model fitted to it and 20 replicas for the Monte Carlo and the
# training with replicas. tests/cli/bursts_check.py recomputes the detection,
# persistence's F1 and the scheduling windows from the stored series with
# numpy; the report draws the figures; mistakes are located user errors.
set -u
source "$(dirname "$0")/lib.sh"

cat >"$tmp/bursts.yaml" <<YAML
seed: 9
output: $tmp/bursts.h5
datasets:
  - {name: job, trace: $data/dxt.parser.txt.gz, format: darshan, bin: 1s, series: bytes_read}
models: [markov]
replicas: 20
bursts:
  - name: read
    dataset: job
    horizons: [1s, 2s, 3s, 4s, 5s, 6s, 7s, 8s]
    bootstrap: {resamples: 200}
    scheduling: {min_time: 2s, max_time: 6s, window: 8}
    augment: {replicas: 4}
  - name: replicas-only                 # the same analysis on the replicas of an ensemble, without a real series
    ensembles: [job-markov]
    bin: 1s
    horizons: [1s, 2s]
    scheduling: {min_time: 2s, max_time: 6s, window: 8}
    monte_carlo: {replicas: 5}
YAML
expect_rc 0 "gpusynth bursts" "$gpusynth" bursts "$tmp/bursts.yaml"
expect_in "$tmp/stdout" "bursts 'read'" "the burst tables"
expect_in "$tmp/stdout" "1469 bins of 1 s" "detection line"
expect_in "$tmp/stdout" "features fs3" "operations and I/O time found in the darshan channels"
expect_in "$tmp/stdout" "Monte Carlo 'job-markov': 20 replicas" "Monte Carlo"
expect_in "$tmp/stdout" "trained with 4 replicas of 'job-markov'" "augmentation"
expect_in "$tmp/stdout" "Monte Carlo 'job-markov': 5 replicas" "an entry of replicas only"
/usr/bin/python3 "$source_dir/tests/cli/bursts_check.py" "$tmp/bursts.h5" >"$tmp/check" 2>&1 ||
  fail "bursts output: $(cat "$tmp/check")"
/usr/bin/python3 "$source_dir/tests/cli/xarray_groups_check.py" "$tmp/bursts.h5" bursts/read=bin,run,run_length,sigma \
  bursts/read/prediction=predictor,horizon_minutes bursts/read/scheduling=decision,alpha \
  bursts/read/scheduling/per_window/perfect=alpha,window bursts/read/monte_carlo/job-markov=figure,replica,replica_figure \
  bursts/read/augment/job-markov=predictor,horizon_minutes >"$tmp/check" 2>&1 ||
  fail "xarray on the bursts output: $(cat "$tmp/check")"

# Same seed, same threads: the same file contents under /bursts.
expect_rc 0 "gpusynth bursts again" "$gpusynth" bursts "$tmp/bursts.yaml" -o "$tmp/again.h5" -q
same_h5 "$tmp/bursts.h5" "$tmp/again.h5" /bursts >"$tmp/diff" 2>&1 || fail "bursts not reproducible: $(head -c 400 "$tmp/diff")"

expect_rc 0 "report of bursts" "$gpusynth" report "$tmp/bursts.h5" -o "$tmp/report"
for png in sigma runs f1 average_precision schedule cdf_perfect augment_job-markov; do
  [ -s "$tmp/report/bursts_read_$png.png" ] || fail "report: no bursts_read_$png.png"
done
expect_in "$tmp/report/report.md" "Monte Carlo over the replicas of job-markov" "report tables"

# Mistakes.
sed 's/^bursts:.*//; /^  - name: read/,$d' "$tmp/bursts.yaml" >"$tmp/none.yaml"
expect_rc 2 "bursts without a bursts: section" "$gpusynth" bursts "$tmp/none.yaml"
expect_in "$tmp/stderr" "no 'bursts:' section" "bursts without a section"
sed 's/horizons: \[1s,/horizons: [1500ms,/' "$tmp/bursts.yaml" >"$tmp/half.yaml"
expect_rc 2 "a horizon that is no whole number of bins" "$gpusynth" bursts "$tmp/half.yaml" -o "$tmp/half.h5"
expect_in "$tmp/stderr" "half.yaml:10:16: bursts\[0\].horizons: 1.5 s is not a whole number (>= 1) of dataset 'job''s bins of 1 s" "horizon in bins"
[ ! -e "$tmp/half.h5" ] || fail "a failed bursts run left $tmp/half.h5"
sed 's/    dataset: job/    dataset: job\n    operations: count_readz/' "$tmp/bursts.yaml" >"$tmp/channel.yaml"
expect_rc 2 "an unknown channel" "$gpusynth" bursts "$tmp/channel.yaml" -o "$tmp/channel.h5"
expect_in "$tmp/stderr" "channel.yaml:10:17: bursts\[0\].operations = 'count_readz' is not a channel; accepted: count, count_read," "channel names"
# Non-findings are named, in the table and the file: CloudPhysics' per-second
# counts hold no burst in the scored bins (every F1 is 0, every severity macro
# F1 is the F1 of the one class "no burst").
cat >"$tmp/quiet.yaml" <<YAML
seed: 9
output: $tmp/quiet.h5
datasets:
  - {name: web, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
bursts:
  - {name: web, dataset: web, horizons: [1s, 5s], bootstrap: {resamples: 20}}
YAML
expect_rc 0 "bursts on a series without bursts where it is scored" "$gpusynth" bursts "$tmp/quiet.yaml"
expect_in "$tmp/stdout" "note: 5s: the scored bins hold no burst: every F1 is 0 by definition" "no burst is said"
expect_in "$tmp/stdout" "note: 1s: the scored bins hold one severity class" "one severity class is said"
h5dump -a /bursts/web/prediction/notes "$tmp/quiet.h5" >"$tmp/notes" 2>&1
expect_in "$tmp/notes" "5s: the scored bins hold no burst" "the notes attribute"

# Refused with the config, before any ensemble is generated: a predictor twice,
# Monte Carlo replicas out of range or beyond what the ensemble stores.
sed 's/    bootstrap: {resamples: 200}/    bootstrap: {resamples: 200}\n    predictors: [logistic, logistic]/' "$tmp/bursts.yaml" >"$tmp/twice.yaml"
expect_rc 2 "a predictor twice" "$gpusynth" bursts "$tmp/twice.yaml" -o "$tmp/twice.h5"
expect_in "$tmp/stderr" "twice.yaml:12:28: bursts\[0\].predictors lists 'logistic' twice" "a predictor twice"
# Without models: the real series' entry has no ensembles, so its augment (and a monte_carlo) has nothing
# to run on: named, not skipped in silence.
sed -e '/^models: \[markov\]$/d' -e '/^replicas: 20$/d' -e '/^  - name: replicas-only/,$d' "$tmp/bursts.yaml" >"$tmp/lone.yaml"
expect_rc 2 "augment without ensembles" "$gpusynth" bursts "$tmp/lone.yaml" -o "$tmp/lone.h5"
expect_in "$tmp/stderr" "lone.yaml:[0-9]*:[0-9]*: bursts\[0\].augment: the entry has no ensembles to run it on" \
  "augment without ensembles is named"
sed 's/    augment: {replicas: 4}/    monte_carlo: {replicas: 4}/' "$tmp/lone.yaml" >"$tmp/lone-mc.yaml"
expect_rc 2 "monte_carlo without ensembles" "$gpusynth" bursts "$tmp/lone-mc.yaml" -o "$tmp/lone.h5"
expect_in "$tmp/stderr" "bursts\[0\].monte_carlo: the entry has no ensembles to run it on" "monte_carlo without ensembles"
[ ! -e "$tmp/lone.h5" ] || fail "a refused bursts config wrote its output"
for n in 0 4294967296; do
  sed "s/monte_carlo: {replicas: 5}/monte_carlo: {replicas: $n}/" "$tmp/bursts.yaml" >"$tmp/mc.yaml"
  expect_rc 2 "monte_carlo.replicas $n" "$gpusynth" bursts "$tmp/mc.yaml" -o "$tmp/mc.h5"
  expect_in "$tmp/stderr" "monte_carlo.replicas = $n is out of range; accepted: 1 to 4294967295" "monte_carlo.replicas $n"
done
sed "s/monte_carlo: {replicas: 5}/monte_carlo: {replicas: 1000000000}/" "$tmp/bursts.yaml" >"$tmp/mc.yaml"
expect_rc 2 "monte_carlo.replicas beyond the ensemble" timeout 10 "$gpusynth" bursts "$tmp/mc.yaml" -o "$tmp/mc.h5"
expect_in "$tmp/stderr" "monte_carlo.replicas = 1000000000 is more than ensemble 'job-markov' stores (20)" \
  "monte_carlo.replicas beyond the ensemble"
grep -q "fitting" "$tmp/stdout" && fail "monte_carlo.replicas beyond the ensemble: refused only after the fits"
[ ! -e "$tmp/mc.h5" ] || fail "a refused bursts config left mc.h5"

# XGBoost on busy cores: threads above OMP_NUM_THREADS are lowered to it (more
# spin-waiting threads than cores spun for minutes beside two busy loops), and
# the training stops on SIGINT within a second (it polls between rounds).
cat >"$tmp/xgb.yaml" <<YAML
seed: 9
output: $tmp/xgb.h5
datasets:
  - {name: job, trace: $data/dxt.parser.txt.gz, format: darshan, bin: 1s, series: bytes_read}
bursts:
  - name: read
    dataset: job
    horizons: [1s, 2s, 3s, 4s, 5s, 6s, 7s, 8s]
    predictors: [xgboost]
    xgboost: {threads: 2, rounds: 10000, max_depth: 20}
    bootstrap: {resamples: 20}
YAML
yes >/dev/null &
busy1=$!
yes >/dev/null &
busy2=$!
OMP_NUM_THREADS=1 "$gpusynth" bursts "$tmp/xgb.yaml" -q >"$tmp/xgb.out" 2>&1 &
job=$!
sleep 3
kill -INT "$job" 2>/dev/null
start=$(date +%s%N)
for _ in $(seq 100); do kill -0 "$job" 2>/dev/null || break; sleep 0.05; done
took=$((($(date +%s%N) - start) / 1000000))
kill -0 "$job" 2>/dev/null && { fail "xgboost training still runs 5 s after SIGINT"; kill -9 "$job"; }
wait "$job"
rc=$?
kill "$busy1" "$busy2"
if grep -q "built without XGBoost" "$tmp/xgb.out"; then
  echo "SKIP part: this gpusynth has no XGBoost"
else
  [ "$rc" -eq 130 ] || fail "SIGINT during xgboost training: exit $rc, expected 130; $(head -c 400 "$tmp/xgb.out")"
  [ "$took" -le 1500 ] || fail "SIGINT during xgboost training: it took $took ms to end"
  [ ! -e "$tmp/xgb.h5" ] || fail "an interrupted bursts run left $tmp/xgb.h5"
fi

finish "bursts"
