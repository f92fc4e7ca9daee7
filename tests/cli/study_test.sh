#!/usr/bin/env bash
# A comparison study end to end: fitted models, per-replica metrics
# recomputed with numpy/scipy (tests/cli/study_check.py), the same tables on
# one thread, and gpusynth report (every plot; without matplotlib a clear
# error).
set -u
source "$(dirname "$0")/lib.sh"

study=$source_dir/tests/cli/study.yaml
expect_rc 0 "study" "$gpusynth" "$study" -q -o "$tmp/study.h5"
expect_in "$tmp/stdout" "trimmed_error: median" "study prints its tables"
expect_in "$tmp/stdout" "matching degree by trimmed_error" "study prints the matching degree"
cp "$tmp/stdout" "$tmp/study_tables.txt"
# The datasets are fitted in parallel: one thread gives the very same tables.
expect_rc 0 "study on one thread" env OMP_NUM_THREADS=1 "$gpusynth" "$study" -q -o "$tmp/study1.h5"
cmp -s "$tmp/stdout" "$tmp/study_tables.txt" || fail "the study's tables differ between 1 thread and the default"
/usr/bin/python3 "$source_dir/tests/cli/study_check.py" "$tmp/study.h5" 0.1 20 || fail "study output disagrees with numpy/scipy"
expect_rc 0 "report" "$gpusynth" report "$tmp/study.h5" -o "$tmp/report"
for plot in cdf qq acf paths metrics; do
  for d in cloudphysics mpiio-reads; do
    [ -s "$tmp/report/${plot}_$d.png" ] || fail "report plot ${plot}_$d.png missing or empty"
  done
done
grep -q "data:image/png;base64" "$tmp/report/index.html" || fail "index.html does not embed its plots"
/usr/bin/python3 "$source_dir/tests/cli/report_figures_check.py" "$tmp/report" >"$tmp/check" 2>&1 ||
  fail "the study's figures: $(cat "$tmp/check")"
grep -q "Matching degree" "$tmp/report/report.md" || fail "report.md has no matching degree table"
# Without matplotlib the report is a user error naming the package, not a traceback.
mkdir -p "$tmp/no-matplotlib"
echo 'raise ImportError("No module named matplotlib", name="matplotlib")' >"$tmp/no-matplotlib/matplotlib.py"
expect_rc 2 "report without matplotlib" env PYTHONPATH="$tmp/no-matplotlib" "$gpusynth" report "$tmp/study.h5" \
  -o "$tmp/report3"
expect_in "$tmp/stderr" "install python3-matplotlib" "report names the missing package"
! grep -q Traceback "$tmp/stderr" || fail "report without matplotlib printed a traceback"
[ ! -e "$tmp/report3" ] || fail "a report without matplotlib left its directory"
# A plain run's file is reported (its ensembles, cli.report); an HDF5 file gpusynth did not write is not.
/usr/bin/python3 -c 'import h5py, sys; h5py.File(sys.argv[1], "w").create_group("mine")' "$tmp/other.h5"
expect_rc 2 "report of a file without gpusynth's groups" "$gpusynth" report "$tmp/other.h5" -o "$tmp/report2"
expect_in "$tmp/stderr" "no /compare, /requests, /replay, /bursts or /ensembles group" "report explains what it reads"
[ ! -e "$tmp/report2" ] || fail "a failed report left its directory"
sed -e 's/metrics: \[trimmed_error/metrics: [mse, trimmed_error/' -e "s#\.\./data#$data#" "$study" > "$tmp/bad_study.yaml"
expect_rc 2 "study bad metric" "$gpusynth" "$tmp/bad_study.yaml" -o "$tmp/bad_study.h5"
expect_in "$tmp/stderr" "'mse' is not a metric" "bad metric named"
[ ! -e "$tmp/bad_study.h5" ] || fail "a failed study left its output"

# A metric without a value says why: H of the MPI-IO test's write counts in
# 10 ms bins (mostly zeros) has too few octaves for the wavelet estimator.
cat >"$tmp/nohurst.yaml" <<YAML
seed: 3
output: $tmp/nohurst.h5
datasets:
  - {name: writes, trace: $data/mpi-io-test.dxt.txt.gz, format: dxt, bin: 10ms, series: count_write}
models: [normal]
replicas: 5
compare: {metrics: [trimmed_error, hurst], bootstrap: {resamples: 100}}
YAML
expect_rc 0 "a study whose real H has no value" "$gpusynth" "$tmp/nohurst.yaml"
expect_in "$tmp/stdout" "n/a for writes / normal: H of the real series by 'stable' has no value (fewer than 3 octaves" \
  "why H has no value"
expect_in "$tmp/stdout" "try compare: {hurst_estimator: rs}" "what to try"
h5dump -a /compare/writes/real_hurst_note "$tmp/nohurst.h5" >"$tmp/note" 2>&1
expect_in "$tmp/note" "fewer than 3 octaves" "the note in the file"

finish "study"
