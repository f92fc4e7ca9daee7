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

# Implausible replicas (docs/studies.md): i.i.d. stable values at alpha 1.5 against the per-second
# CloudPhysics counts (peak 2513) peak above 10 x the trace's in about half the replicas: the share
# is stored, warned about and a caveat of the report. workload: {cap: ...} truncates them: the same
# draws capped at 10 x the peak are min(values, cap), none counts as implausible (at the cap is not
# above it), and each capped value is counted in saturated_values.
peaks() {  # output workload
  cat <<YAML
seed: 7
output: $1
datasets:
  - {name: cp, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
ensembles:
  - {name: heavy, model: stable, params: {alpha: 1.5, beta: 1, sigma: 120}, workload: $2,
     replicas: 40, length: 7201, dataset: cp}
compare: {metrics: [ks], bootstrap: {resamples: 100}}
YAML
}
peaks "$tmp/peaks.h5" "{values: counts}" >"$tmp/peaks.yaml"
peaks "$tmp/capped.h5" "{values: counts, cap: 25130}" >"$tmp/capped.yaml"
expect_rc 0 "a study of implausible replicas" "$gpusynth" "$tmp/peaks.yaml"
expect_in "$tmp/stderr" "warning: cp / heavy: [0-9.]* % of the replicas peak above 10 x the trace's peak (2513); workload: {cap: ...}" \
  "the warning on stderr"
expect_rc 0 "the same, capped" "$gpusynth" "$tmp/capped.yaml"
! grep -q "warning: cp / heavy" "$tmp/stderr" || fail "the capped ensemble was warned about: $(cat "$tmp/stderr")"
/usr/bin/python3 - "$tmp/peaks.h5" "$tmp/capped.h5" >"$tmp/check" 2>&1 <<'PY' || fail "implausible replicas and the cap: $(cat "$tmp/check")"
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f, h5py.File(sys.argv[2], "r") as g:
    real, compare = f["datasets/cp/series"][()], f["compare"]
    factor = compare.attrs["implausible_peak_factor"]
    assert factor == 10 and compare["cp"].attrs["real_peak"] == real.max() == 2513
    heavy, capped = f["ensembles/heavy/series"][()], g["ensembles/heavy/series"][()]
    share = np.mean(heavy.max(axis=1) > factor * real.max())
    assert 0.05 < share < 1, share  # neither side of the rule trivially
    assert compare["cp/heavy"].attrs["implausible_peak_share"] == share, (compare["cp/heavy"].attrs["implausible_peak_share"], share)
    assert g["compare/cp/heavy"].attrs["implausible_peak_share"] == 0
    a = g["ensembles/heavy"].attrs
    assert a["workload_cap"] == 25130 and "workload_cap" not in f["ensembles/heavy"].attrs
    assert np.array_equal(capped, np.minimum(heavy, 25130)), "capped values are not min(values, cap)"
    assert a["saturated_values"] == np.sum(heavy > 25130) > 0, (a["saturated_values"], np.sum(heavy > 25130))
PY
expect_rc 0 "the report of implausible replicas" "$gpusynth" report "$tmp/peaks.h5" -o "$tmp/peaks-report" -q
expect_in "$tmp/peaks-report/report.md" "caveat\*\*: cp / heavy: [0-9.]* % of the replicas peak above 10 × the trace's peak (2513)" \
  "the report's caveat"
expect_rc 0 "the report of capped replicas" "$gpusynth" report "$tmp/capped.h5" -o "$tmp/capped-report" -q
! grep -q "cp / heavy: .* of the replicas peak" "$tmp/capped-report/report.md" || fail "the report flags capped replicas"
for cap in 0 -5; do
  sed "s/cap: 25130/cap: $cap/" "$tmp/capped.yaml" >"$tmp/bad_cap.yaml"
  expect_rc 2 "cap: $cap" "$gpusynth" "$tmp/bad_cap.yaml" -o "$tmp/bad_cap.h5"
  expect_in "$tmp/stderr" "bad_cap.yaml:[0-9]*:[0-9]*: ensembles\[0\] (heavy).workload.cap = $cap is out of range; accepted: cap > 0" \
    "cap: $cap refused with the key and the range"
  [ ! -e "$tmp/bad_cap.h5" ] || fail "cap: $cap left an output"
done

# A study's fitted ensembles take their cap from cap_over_peak: K times their dataset's peak (2513 here).
cat >"$tmp/study_cap.yaml" <<YAML
seed: 7
output: $tmp/study_cap.h5
datasets:
  - {name: cp, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
models: [stable]
replicas: 20
cap_over_peak: 4
compare: {metrics: [ks], bootstrap: {resamples: 100}}
YAML
expect_rc 0 "a study with cap_over_peak" "$gpusynth" "$tmp/study_cap.yaml"
/usr/bin/python3 - "$tmp/study_cap.h5" >"$tmp/check" 2>&1 <<'PY' || fail "cap_over_peak: $(cat "$tmp/check")"
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    e = f["ensembles/cp-stable"]
    assert e.attrs["workload_cap"] == 4 * 2513, e.attrs["workload_cap"]
    assert e["series"][()].max() <= 4 * 2513
    assert f["compare/cp/stable"].attrs["implausible_peak_share"] == 0
PY
sed "s/cap_over_peak: 4/cap_over_peak: 0.5/" "$tmp/study_cap.yaml" >"$tmp/bad_study_cap.yaml"
expect_rc 2 "cap_over_peak: 0.5" "$gpusynth" "$tmp/bad_study_cap.yaml" -o "$tmp/bad_study_cap.h5"
expect_in "$tmp/stderr" "bad_study_cap.yaml:7:[0-9]*: cap_over_peak = 0.5 is out of range; accepted: a finite cap_over_peak >= 1" \
  "cap_over_peak: 0.5 refused with the key and the range"
[ ! -e "$tmp/bad_study_cap.h5" ] || fail "cap_over_peak: 0.5 left an output"

finish "study"
