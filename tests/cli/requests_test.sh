#!/usr/bin/env bash
# Request-level synthesis from the command line (docs/requests.md):
# `characterize` on the LANL mpi-io-test DXT trace, a config that synthesizes
# 24 processes timed by an LFSN ensemble, its HDF5 tables, DiskSim and
# DXT-like outputs read back, the report's plots, and the fio iologs replayed by fio with the
# timing checked by scripts/replay_check.py, which must also fail when fio
# ignores the timestamps (replay_no_stall=1).
set -u
source "$(dirname "$0")/lib.sh"

expect_rc 0 "characterize mpi-io-test" "$gpusynth" characterize "$data/mpi-io-test.dxt.txt.gz" --format dxt \
  --counters "$data/mpi-io-test.parser.txt.gz" -o "$tmp/char.h5"
expect_in "$tmp/stdout" "576 requests read from 32 rank(s); 256 POSIX calls folded into their MPI-IO calls; 320 requests after sanitization" "sanitization"
expect_in "$tmp/stdout" "18 requests of the root (31 children aligned), 0 root-exclusive" "generic workload path"
/usr/bin/python3 - "$tmp/char.h5" >"$tmp/h5" 2>&1 <<'EOF' || fail "characteristics in HDF5: $(cat "$tmp/h5")"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    shared = f["characteristics/shared"]
    assert shared.attrs["files"] == 1, shared.attrs["files"]
    irg = shared["inter_request_gap"]
    assert irg.attrs["table_iii"] == "IRG" and irg.attrs["units"] == "sequence IDs"
    assert sorted(shared["access_mode"]["name"].astype(str)) == ["read_only", "write_only"]
    assert list(shared["request_size"][:]) == [16777216.0] * 8
    assert f["sanitized/requests"].shape == (576,)  # 320 requests, 128 opens, 128 closes
    files = {n.decode(): (c.decode(), s) for n, c, s in zip(f["files"]["name"], f["files"]["class"], f["files"]["rank_stride"])}
    assert files["/yellow/users/treddy/mpi_io_rough_work/test.out"] == ("shared", 16777216), files
EOF

expect_rc 2 "characterize: an unknown format" "$gpusynth" characterize "$data/mpi-io-test.pioneer" --format csv
expect_rc 2 "characterize: a missing trace" "$gpusynth" characterize "$tmp/none.dxt" --format dxt
expect_in "$tmp/stderr" "none.dxt" "the missing file is named"
expect_rc 2 "characterize: output onto a directory" "$gpusynth" characterize "$data/mpi-io-test.pioneer" \
  --format pioneer -o "$tmp"

cat >"$tmp/replay.yaml" <<EOF
seed: 3
output: replay.h5
ensembles:
  - name: arrivals
    model: lfsn
    params: {alpha: 1.6, beta: 0.5, H: 0.8, m: 16, K: 128}
    workload: {v: 3.0, delta: 12.0, values: counts}
    replicas: 2
    length: 40
requests:
  - name: mpiio
    trace: $data/mpi-io-test.dxt.txt.gz
    format: dxt
    counters: $data/mpi-io-test.parser.txt.gz
    processes: 24
    replicas: 2
    overrides: {SIZE: {scale: 0.000244140625}, OFF: {scale: 0.000244140625}}   # 4 KiB requests
    timing: {ensemble: arrivals, bin: 50ms}
    emit: {fio: replay-fio, disksim: replay.disksim, dxt: replay.dxt.txt}
EOF
mkdir -p "$tmp/out"
# --dry-run says what the replay will read and write; in template mode (the trace itself, exact)
# it is what the run's log then says the fio replay does.
expect_rc 0 "a dry run of the requests" "$gpusynth" "$tmp/replay.yaml" -o "$tmp/out/replay.h5" --dry-run
expect_in "$tmp/stdout" "each replica about [0-9]* reads of [0-9.]* [KMG]*i*B and [0-9]* writes of .*: what its fio replay reads and writes" \
  "the dry run states the replay's volume"
sed 's/^    processes: 24$/    processes: 24\n    mode: template/' "$tmp/replay.yaml" >"$tmp/template.yaml"
expect_rc 0 "a dry run in template mode" "$gpusynth" "$tmp/template.yaml" -o "$tmp/out/template.h5" --dry-run
planned=$(sed -n 's/.*each replica about \([0-9]*\) reads of \([^ ]* [^ ]*\) and \([0-9]*\) writes of \([^ ]* [^ ]*\):.*/\1 reads of \2 and \3 writes of \4/p' "$tmp/stdout")
# The entry's overrides scale the template's 16 MiB writes to 4 KiB, as the replay's original.
case $planned in *" writes of "*[0-9]" KiB"|*" writes of "*[0-9]" B") ;; *) fail "template mode: '$planned' is not scaled to KiB" ;; esac
expect_rc 0 "the template run" "$gpusynth" "$tmp/template.yaml" -o "$tmp/out/template.h5"
[ -n "$planned" ] && grep -q "entries: $planned into" "$tmp/stderr" ||
  fail "template mode: the dry run planned '$planned', the run's log says: $(grep -o 'entries: .*sparse' "$tmp/stderr")"
rm -rf "$tmp/out/template.h5" "$tmp/out/replay-fio"
# Template mode copies the path: an override of a drawn characteristic, or files:, would be ignored.
sed 's/^    overrides: {SIZE/    overrides: {IRG: {scale: 3}, SIZE/' "$tmp/template.yaml" >"$tmp/template-irg.yaml"
expect_rc 2 "template mode with an IRG override" "$gpusynth" "$tmp/template-irg.yaml" -o "$tmp/out/never.h5"
expect_in "$tmp/stderr" "template-irg.yaml:[0-9]*:[0-9]*: requests\[0\].overrides.IRG: mode: template copies the trace's path" \
  "the ignored override is named"
sed 's/^    mode: template$/    mode: template\n    files: {shared: 3}/' "$tmp/template.yaml" >"$tmp/template-files.yaml"
expect_rc 2 "template mode with files" "$gpusynth" "$tmp/template-files.yaml" -o "$tmp/out/never.h5"
expect_in "$tmp/stderr" "requests\[0\].files: mode: template keeps the trace's own files" "files: with template named"
[ ! -e "$tmp/out/never.h5" ] || fail "a refused template config wrote its output"
expect_rc 0 "a config with requests" "$gpusynth" "$tmp/replay.yaml" -o "$tmp/out/replay.h5"
expect_in "$tmp/stderr" "requests .mpiio.: .* in 2 replica(s) of 24 processes, 0 dependency violations" "the synthesis is logged"
for made in replay.h5 replay-fio/replay.fio replay-fio/rank_23.iolog replay-fio/create_files.sh replay.disksim replay.dxt.txt; do
  [ -e "$tmp/out/$made" ] || fail "$made was not written beside the output"
done
# The replay's volume is said (a new user cannot tell 17 GB from "4608 entries"), and fio prints one summary.
expect_in "$tmp/stderr" "fio iologs of 24 processes, [0-9]* entries: [0-9]* reads of [0-9.]* [KMG]*i*B and [0-9]* writes of [0-9.]* [KMG]*i*B into [0-9]* files, at most [0-9.]* [KMG]*i*B in all (made sparse by create_files.sh)" \
  "the fio replay's reads, writes and file space are logged"
expect_in "$tmp/out/replay-fio/replay.fio" "^group_reporting$" "replay.fio reports all processes as one group"
expect_rc 0 "the DiskSim output reads as a trace" "$gpusynth" stats "$tmp/out/replay.disksim" --format disksim --bin 50ms
expect_rc 0 "the DXT-like output characterizes" "$gpusynth" characterize "$tmp/out/replay.dxt.txt" --format dxt
expect_in "$tmp/stdout" "from 24 rank(s)" "all 24 processes read back"
/usr/bin/python3 - "$tmp/out/replay.h5" >"$tmp/h5" 2>&1 <<'EOF' || fail "request tables: $(cat "$tmp/h5")"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    g = f["requests/mpiio"]
    t = g["requests"][:]
    assert set(t["replica"]) == {0, 1}
    assert set(t["rank"]) == set(range(24))
    assert g.attrs["dependency_violations"] == 0 and g.attrs["processes"] == 24
    classes = g["ops"]["class"][:].astype(str)
    data = np.array([classes[o] in ("read", "write") for o in t["op"]])
    assert (t["size"][data] >= 0).all() and (t["offset"][data] >= 0).all()
    counts = f["ensembles/arrivals/series"][0]
    full = int(g.attrs["filled_bins"])
    binned = np.bincount((t["time"][data & (t["replica"] == 0)] / 0.05).astype(int), minlength=full)[:full]
    assert (binned == counts[:full]).all(), (binned, counts[:full])
    assert "characterized/characteristics/shared/inter_request_gap" in g
EOF
# Without timing: the trace's phases (issue 57): fitted, stored, and no process starts a data request
# before its previous one ended.
grep -v '^    timing:' "$tmp/replay.yaml" | grep -v '^    emit:' >"$tmp/phases.yaml"
expect_rc 0 "requests timed by the trace's phases" "$gpusynth" "$tmp/phases.yaml" -o "$tmp/out/phases.h5"
/usr/bin/python3 - "$tmp/out/phases.h5" >"$tmp/h5" 2>&1 <<'EOF' || fail "phases: $(cat "$tmp/h5")"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    g = f["requests/mpiio"]
    assert g.attrs["timing"] == "phases", g.attrs["timing"]
    assert g.attrs["phases"] == 8 and g.attrs["trace_overlaps"] == 0, dict(g.attrs)
    assert 0 < g.attrs["phase_split"] < 1 and 0 <= g.attrs["phase_skew_median"] < 0.1, dict(g.attrs)
    t = g["requests"][:]
    classes = g["ops"]["class"][:].astype(str)
    data = t[np.array([classes[o] in ("read", "write") for o in t["op"]])]
    for replica in (0, 1):
        for rank in range(24):
            mine = data[(data["replica"] == replica) & (data["rank"] == rank)]
            mine = mine[np.argsort(mine["seq"], kind="stable")]
            assert (mine["time"][1:] >= mine["time"][:-1] + mine["duration"][:-1] - 1e-6).all(), (replica, rank)
EOF
/usr/bin/python3 "$source_dir/tests/cli/xarray_groups_check.py" "$tmp/out/replay.h5" requests/mpiio=request,op,file \
  requests/mpiio/characterized/sanitized=request,op,file >"$tmp/h5" 2>&1 || fail "xarray on the request tables: $(cat "$tmp/h5")"

expect_rc 0 "the report draws the requests" "$gpusynth" report "$tmp/out/replay.h5" -o "$tmp/report"
for made in index.html requests_mpiio_rank_time.png requests_mpiio_per_bin.png; do
  [ -s "$tmp/report/$made" ] || fail "the report has no $made"
done
expect_in "$tmp/report/report.md" "dependency_violations | 0" "the report states the dependency check"

if ! command -v fio >/dev/null; then
  echo "SKIP: fio is not installed (the README's install command installs it): the replay checks did not run"
else
  check="/usr/bin/python3 $source_dir/scripts/replay_check.py $tmp/out/replay.h5 mpiio $tmp/out/replay-fio --run"
  expect_rc 0 "fio replays the iologs with their timing" $check
  cat "$tmp/stdout"
  expect_in "$tmp/stdout" "PASS" "the replay check passes"
  expect_rc 1 "the same check fails when fio ignores the timestamps" $check --fio-option=--replay_no_stall=1
  expect_in "$tmp/stdout" "FAIL: only" "the timing failure is named"
fi
finish "requests"
