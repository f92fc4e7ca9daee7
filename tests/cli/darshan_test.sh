#!/usr/bin/env bash
# Binary .darshan logs through the real binary (issue 58, docs/traces.md): told by their magic
# number, they give every command what darshan-util's text of the same log gives (stats, fit,
# characterize, a config's datasets and requests), a module darshan marked incomplete is said, and
# a damaged log (cut, flipped magic, garbage) is one error line naming the file, exit 2, nothing
# written.
set -u
source "$(dirname "$0")/lib.sh"
logs=$data/darshan
dxt_log=$logs/mpi-io-test-dxt-3.21.darshan

same_stats() {  # binary.json text.json what: the binned series' figures agree
  # The texts print times rounded (DXT to 0.1 ms, darshan-parser's timestamps to 1 us) where the log
  # holds doubles: the counts per 1 s bin are the same, the byte amounts spread over bins by time
  # differ by at most the rounding's share (relative 1e-6 here; the ACF, in [-1, 1], by 1e-6), the span
  # by at most 0.1 ms. The
  # interarrival figures are left out: ties within 0.1 ms make their ACF differ arbitrarily.
  /usr/bin/python3 - "$1" "$2" >"$tmp/check" 2>&1 <<'PY' || fail "$3: binary and text differ: $(head -c 600 "$tmp/check")"
import json, math, sys
binary, text = (json.load(open(p)) for p in sys.argv[1:3])
def close(a, b, key):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], key) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, key) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol={"duration": 1e-4, "acf": 1e-6}.get(key, 1e-9))
    return a == b
keys = ("events", "length", "mean", "sd", "peak", "peak_to_mean", "cv", "idc", "acf", "series", "duration", "hurst")
bad = [k for k in keys if not close(binary.get(k), text.get(k), k)]
assert not bad, {k: (binary.get(k), text.get(k)) for k in bad}
PY
}
# stats: a log with DXT records is told as dxt by its magic and its records, and gives what
# darshan-dxt-parser's text gives; read as darshan, its counters give what darshan-parser's text gives.
expect_rc 0 "stats of a binary log" "$gpusynth" stats "$dxt_log" --bin 1s --json
cp "$tmp/stdout" "$tmp/binary.json"
expect_in "$tmp/stderr" "format: dxt (told from" "the format is told from the log"
expect_rc 0 "stats of its DXT text" "$gpusynth" stats "$logs/mpi-io-test-dxt-3.21.dxt.txt.gz" --format dxt --bin 1s --json
same_stats "$tmp/binary.json" "$tmp/stdout" "stats --format dxt"
expect_rc 0 "stats of a binary log's counters" "$gpusynth" stats "$dxt_log" --format darshan --bin 1s --json
cp "$tmp/stdout" "$tmp/binary.json"
# The binary log holds the counters too: no hint that --format dxt was meant (a DXT text gets one).
! grep -q "hint:" "$tmp/stderr" || fail "a binary log read as darshan got a hint: $(head -c 300 "$tmp/stderr")"
expect_rc 0 "stats of its darshan-parser text" "$gpusynth" stats "$logs/mpi-io-test-dxt-3.21.parser.txt.gz" --format darshan --bin 1s --json
same_stats "$tmp/binary.json" "$tmp/stdout" "stats --format darshan"
# The DXT records: characterize and fit read the same requests as from darshan-dxt-parser's text.
expect_rc 0 "characterize a binary log" "$gpusynth" characterize "$dxt_log" --format dxt
cp "$tmp/stdout" "$tmp/binary.txt"
expect_rc 0 "characterize its DXT text" "$gpusynth" characterize "$logs/mpi-io-test-dxt-3.21.dxt.txt.gz" --format dxt
cmp -s "$tmp/binary.txt" "$tmp/stdout" || fail "characterize: binary and text differ: $(diff "$tmp/binary.txt" "$tmp/stdout" | head -c 400)"
expect_rc 0 "characterize a binary log, its format told" "$gpusynth" characterize "$dxt_log"
cmp -s "$tmp/binary.txt" "$tmp/stdout" || fail "characterize without --format: $(diff "$tmp/binary.txt" "$tmp/stdout" | head -c 400)"
expect_in "$tmp/stderr" "format: dxt (told from" "characterize tells the format"
expect_rc 2 "characterize a counters-only log without --format" "$gpusynth" characterize "$logs/mpi-io-test-x86_64-3.2.0.darshan"
expect_in "$tmp/stderr" "--format is required" "characterize asks for --format where the log tells none"
# A job whose ranks differ (tests/data/darshan/README.md): two rank classes, said and written.
expect_rc 0 "characterize a job whose ranks differ" "$gpusynth" characterize "$logs/hdf5_diagonal_write_half_ranks_dxt.darshan" -o "$tmp/classes.h5"
expect_in "$tmp/stdout" "rank classes: 2 (ranks doing the same operations on the same files, of the same sizes): 5 like rank 0, 5 like rank 1" "the rank classes"
/usr/bin/python3 - "$tmp/classes.h5" >"$tmp/check" 2>&1 <<'PY' || fail "characterize -o: the rank classes: $(head -c 600 "$tmp/check")"
import h5py, sys
with h5py.File(sys.argv[1]) as f:
    t = f["rank_classes"][:]
    assert list(t["rank"]) == [0, 2, 4, 6, 8, 1, 3, 5, 7, 9] and list(t["class"]) == [0] * 5 + [1] * 5, t
    assert f.attrs["rank_classes"] == 2
    writes = [int(r["size"]) for r in f["class_paths/1/requests"][:] if f["class_paths/1/ops"][r["op"]][1] == b"write"]
    assert writes == [96, 800, 96], writes
PY
expect_rc 0 "fit a binary log's DXT counts" "$gpusynth" fit "$dxt_log" --format dxt --bin 1s --models normal --json
expect_in "$tmp/stdout" '"validity"' "the fit's table"
# A config: a dataset and a requests entry given the binary log.
cat >"$tmp/run.yaml" <<YAML
seed: 2
output: $tmp/run.h5
datasets:
  - {name: job, trace: $dxt_log, format: darshan, bin: 1s}
models: [normal]
replicas: 3
compare: {}
requests:
  - {name: r, trace: $dxt_log, format: dxt, replicas: 1}
YAML
expect_rc 0 "a config reading a binary log" "$gpusynth" "$tmp/run.yaml" -q
[ -s "$tmp/run.h5" ] || fail "the config's run wrote nothing"
# A module darshan marked incomplete is said.
expect_rc 0 "stats of a log with an incomplete module" "$gpusynth" stats "$logs/mpi-io-test-dxt-partial-bzip2.darshan" \
  --format dxt --bin 1s
expect_in "$tmp/stderr" "incomplete" "the incomplete module is said"

# Damaged logs: one line naming the file, exit 2, nothing written.
head -c 2000 "$dxt_log" >"$tmp/cut.darshan"
printf 'XXXXXXXX' | cat - <(tail -c +9 "$dxt_log") >"$tmp/magic.darshan"
cp "$dxt_log" "$tmp/flipped.darshan"
printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$tmp/flipped.darshan" bs=1 seek=3000 conv=notrunc status=none
for damaged in cut magic flipped; do
  expect_rc 2 "a damaged log ($damaged)" "$gpusynth" stats "$tmp/$damaged.darshan" --format darshan --bin 1s -o "$tmp/$damaged.h5"
  expect_in "$tmp/stderr" "$damaged.darshan" "the damaged log ($damaged) is named"
  [ "$(grep -c . "$tmp/stderr")" -eq 1 ] || fail "a damaged log ($damaged): expected one line: $(head -c 400 "$tmp/stderr")"
  [ ! -e "$tmp/$damaged.h5" ] || fail "a damaged log ($damaged) wrote its output"
done
finish "darshan"
