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
h5diff "$tmp/bursts.h5" "$tmp/again.h5" /bursts /bursts >"$tmp/diff" 2>&1 || fail "bursts not reproducible: $(head -c 400 "$tmp/diff")"

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
expect_in "$tmp/stderr" "horizon 1.5 s is not a whole number" "horizon in bins"
[ ! -e "$tmp/half.h5" ] || fail "a failed bursts run left $tmp/half.h5"
sed 's/    dataset: job/    dataset: job\n    operations: count_readz/' "$tmp/bursts.yaml" >"$tmp/channel.yaml"
expect_rc 2 "an unknown channel" "$gpusynth" bursts "$tmp/channel.yaml" -o "$tmp/channel.h5"
expect_in "$tmp/stderr" "has no channel 'count_readz'; it has: bytes, bytes_read" "channel names"
finish "bursts"
