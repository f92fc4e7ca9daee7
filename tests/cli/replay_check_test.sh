#!/usr/bin/env bash
# scripts/replay_check.py on wrong input (docs/requests.md): a replica that
# /requests/NAME does not hold, a missing fio with --run, a missing FIO_DIR or
# latency logs, a wrong NAME, a results file that is not HDF5 or is damaged,
# damaged latency logs, a --json path in a missing folder and options out of range are each one line
# "replay_check: error: ..." naming the option or file and what is accepted,
# exit 2, and nothing run; exit 1 stays for checks that fail and 0 for a pass.
# fio is not needed: tests/cli/fake_fio_logs.py writes the latency logs of an
# on-time replay (requests_test.sh replays with fio itself).
# REPLAY_CHECK=other/replay_check.py runs these checks on another copy.
set -u
source "$(dirname "$0")/lib.sh"
check=${REPLAY_CHECK:-$source_dir/scripts/replay_check.py}
one_error() {  # description pattern: exit 2, one line "replay_check: error: ...", matching pattern
  [ "$(grep -c . "$tmp/stderr")" -eq 1 ] && grep -q "^replay_check: error: " "$tmp/stderr" ||
    fail "$1: expected one line 'replay_check: error: ...' on stderr: $(head -c 600 "$tmp/stderr")"
  expect_in "$tmp/stderr" "$2" "$1"
}

cat >"$tmp/replay.yaml" <<YAML
seed: 3
output: replay.h5
ensembles:
  - name: arrivals
    model: lfsn
    params: {alpha: 1.6, beta: 0.5, H: 0.8, m: 16, K: 128}
    workload: {v: 3.0, delta: 12.0, values: counts}
    replicas: 2
    length: 20
requests:
  - name: mpiio
    trace: $data/mpi-io-test.dxt.txt.gz
    format: dxt
    counters: $data/mpi-io-test.parser.txt.gz
    processes: 4
    replicas: 2
    overrides: {SIZE: {scale: 0.000244140625}, OFF: {scale: 0.000244140625}}   # 4 KiB requests
    timing: {ensemble: arrivals, bin: 50ms}
    emit: {fio: fio}
YAML
expect_rc 0 "a config with requests" "$gpusynth" "$tmp/replay.yaml" -q -o "$tmp/replay.h5"
h5=$tmp/replay.h5
fio_dir=$tmp/fio
cp -r "$fio_dir" "$tmp/no-logs"
/usr/bin/python3 "$source_dir/tests/cli/fake_fio_logs.py" "$h5" mpiio "$fio_dir" >"$tmp/fake" 2>&1 ||
  fail "fake fio logs: $(cat "$tmp/fake")"
py() { /usr/bin/python3 "$check" "$@"; }

expect_rc 0 "an on-time replay passes" py "$h5" mpiio "$fio_dir" --json "$tmp/check.json"
expect_in "$tmp/stdout" "PASS" "the pass is said"
expect_in "$tmp/stdout" "replay totals over [0-9.]* s: read [0-9]* I/Os, [0-9.]* MiB, [0-9.]* MiB/s, [0-9.]* IOPS; write" \
  "the totals are printed, as IOR prints its summary"
# The JSON's totals against the request table itself (replica 0's reads and writes with an offset and a size).
/usr/bin/python3 - "$h5" "$tmp/check.json" >"$tmp/json-check" 2>&1 <<'PY' || fail "--json: $(cat "$tmp/json-check")"
import json, sys
import h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    g = f["requests/mpiio"]
    t = g["requests"][()]
    classes = [c.decode() if isinstance(c, bytes) else c for c in g["ops"]["class"]]
report = json.load(open(sys.argv[2]))
assert report["pass"] is True and report["failures"] == [], report
mine = (t["replica"] == report["replica"]) & (t["offset"] >= 0) & (t["size"] > 0)
for name in ("read", "write"):
    rows = mine & np.isin(t["op"], [i for i, c in enumerate(classes) if c == name])
    got = report["totals"][name]
    assert got["ios"] == int(rows.sum()) and got["bytes"] == int(t["size"][rows].sum()), (name, got, rows.sum())
    assert got["ios"] > 0 and got["bandwidth_bytes_per_s"] > 0 and got["iops"] > 0, got
assert report["totals"]["run_time_s"] > 0 and report["timing"]["requests"] > 0, report
print("ok")
PY
expect_rc 2 "--json into a missing folder" py "$h5" mpiio "$fio_dir" --json "$tmp/none/check.json"
one_error "--json into a missing folder" "--json .*none/check.json: its directory does not exist"

# A replica that does not exist, or that replay.fio does not hold, is checked against nothing: an error.
for replica in 99 -1; do
  expect_rc 2 "--replica $replica" py "$h5" mpiio "$fio_dir" --replica "$replica"
  one_error "--replica $replica" "--replica $replica: /requests/mpiio in .*replay.h5 holds replicas 0 to 1"
done
expect_rc 2 "--replica 1, replay.fio holding replica 0" py "$h5" mpiio "$fio_dir" --replica 1
one_error "--replica 1" "replay.fio holds replica 0"

# --run without fio: said before anything runs (create_files.sh would make files/).
mkdir -p "$tmp/bin"
for tool in sh mkdir truncate dirname; do ln -s "$(command -v "$tool")" "$tmp/bin/$tool"; done
cp -r "$tmp/no-logs" "$tmp/run"
expect_rc 2 "--run without fio on PATH" env PATH="$tmp/bin" /usr/bin/python3 "$check" "$h5" mpiio "$tmp/run" --run
one_error "--run without fio" "'fio' is not on PATH; install it (apt-get install fio)"
[ ! -e "$tmp/run/files" ] || fail "--run without fio ran create_files.sh"

# Missing folders, a wrong NAME, results that are not HDF5 or are damaged.
expect_rc 2 "a missing FIO_DIR" py "$h5" mpiio "$tmp/none"
one_error "a missing FIO_DIR" "FIO_DIR .*none: no such directory"
expect_rc 2 "no latency logs" py "$h5" mpiio "$tmp/no-logs"
one_error "no latency logs" "no-logs/lat: no latency logs (rank_N_lat.\*.log); run fio in .*no-logs first"
expect_rc 2 "a wrong NAME" py "$h5" mpi "$fio_dir"
one_error "a wrong NAME" "has no /requests/mpi; the request syntheses it holds: 'mpiio'"
echo "not HDF5" >"$tmp/text.h5"
expect_rc 2 "results that are not HDF5" py "$tmp/text.h5" mpiio "$fio_dir"
one_error "results that are not HDF5" "text.h5: cannot open as an HDF5 file"
/usr/bin/python3 "$source_dir/tests/cli/damage_h5.py" "$h5" "$tmp/damaged.h5" requests/mpiio/requests=data ||
  fail "damaging the request table"  # op -1, time NaN
expect_rc 2 "a damaged request table" py "$tmp/damaged.h5" mpiio "$fio_dir"
one_error "a damaged request table" "damaged.h5: /requests/mpiio/requests: 144 of its [0-9]* requests name an operation outside 0 ... 9"
/usr/bin/python3 - "$tmp/h5py.h5" <<'PY' || fail "an h5py-made request group"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    f["requests/mine/requests"] = np.zeros(3, dtype=[("rank", "i8"), ("time", "f8")])
PY
expect_rc 2 "an h5py-made request group" py "$tmp/h5py.h5" mine "$fio_dir"
one_error "an h5py-made request group" "/requests/mine has no 'ops' table"

# Damaged latency logs: the file and line.
cp -r "$fio_dir" "$tmp/damaged-logs"
lines=$(wc -l <"$tmp/damaged-logs/lat/rank_1_lat.2.log")
echo "1,2,garbage" >>"$tmp/damaged-logs/lat/rank_1_lat.2.log"
expect_rc 2 "a damaged latency log" py "$h5" mpiio "$tmp/damaged-logs"
one_error "a damaged latency log" "rank_1_lat.2.log:$((lines + 1)): '1,2,garbage' is not a line of fio's latency log"

# Options out of range.
for option in "--bin -1" "--bin 0" "--pace-ms inf" "--replica x"; do
  expect_rc 2 "$option" py "$h5" mpiio "$fio_dir" $option
  one_error "$option" "${option%% *}"
done
expect_in "$tmp/stderr" "invalid int value: 'x'" "--replica x"

# A check that fails is exit 1: a request missing from fio's log.
cp -r "$fio_dir" "$tmp/short"
done_by_fio=$(wc -l <"$tmp/short/lat/rank_0_lat.1.log")  # one line per request (fake_fio_logs.py)
sed -i '$d' "$tmp/short/lat/rank_0_lat.1.log"
expect_rc 1 "a request fio did not do" py "$h5" mpiio "$tmp/short"
expect_in "$tmp/stdout" "FAIL: rank 0: fio did $((done_by_fio - 1)) requests, the log holds $done_by_fio" \
  "the failing check is named"
finish "replay_check"
