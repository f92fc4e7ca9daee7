#!/usr/bin/env bash
# gpusynth stats: real traces in, a summary out (text, JSON, HDF5), located
# errors, no partial output.
set -u
source "$(dirname "$0")/lib.sh"

# stats: real traces in, a summary out (text, JSON, HDF5), located errors, no partial output.
expect_rc 0 "stats dxt" "$gpusynth" stats "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin 100ms
for word in "events       320" "Hurst" "IDC" "ACF" "burstiness"; do expect_in "$tmp/stdout" "$word" "stats summary"; done
expect_rc 0 "stats --json" "$gpusynth" stats "$data/cloudphysics_vscsi.csv.gz" --format timestamps --header \
  --column time --op-column op --size-column size --read-values 28,88 --write-values 2a,8a --bin 1s --json
/usr/bin/python3 - "$tmp/stdout" <<'PY' || fail "stats --json keys"
import json, sys
j = json.load(open(sys.argv[1]))
for key in ("length", "mean", "cv", "peak_to_mean", "acf", "hurst"):
    assert key in j, key
assert j["length"] == 7201 and j["events"] == 113872, j["length"]
assert set(j["hurst"]) >= {"rs", "aggvar", "dfa", "whittle", "stable"}, j["hurst"]
assert abs(j["acf"][0] - 1) < 1e-12
PY
expect_rc 0 "stats -o" "$gpusynth" stats "$data/mpi-io-test.parser.txt.gz" "$data/dxt.parser.txt.gz" --format darshan \
  --bin 60s -o "$tmp/stats.h5" --name jobs
/usr/bin/python3 - "$tmp/stats.h5" "$data/mpi-io-test.parser.txt.gz" <<'PY' || fail "stats HDF5 layout"
import h5py, hashlib, sys
f = h5py.File(sys.argv[1], "r")
g = f["/datasets/jobs"]
assert g.attrs["source"].split(";")[0] == "mpi-io-test.parser.txt.gz", g.attrs["source"]
assert g.attrs["source_sha256"].split(";")[0] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert g.attrs["series_name"] == "bytes" and g.attrs["bin_width"] == 60
for name in ("series", "acf", "quantiles", "channels/bytes_read", "burstiness/idc", "hurst/rs"):
    assert name in g, name
PY
# A binned trace has every documented key, null where undefined; a --max-lag beyond the series is cut, said.
expect_rc 0 "stats --json of counts" "$gpusynth" stats "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --json --max-lag 100000
expect_in "$tmp/stderr" "note: --max-lag 100000 is cut to 7200, the series' length - 1" "the cut lag is said"
/usr/bin/python3 - "$tmp/stdout" <<'PY' || fail "stats --json keys of a binned trace"
import json, sys
j = json.load(open(sys.argv[1]))
for key in ("events", "duration", "rate", "interarrival"):
    assert key in j and j[key] is None, (key, j.get(key))
assert len(j["acf"]) == 7201 and j["incomplete_modules"] == []
PY
# A log whose darshan runtime ran out of record memory says so in a comment: read as it is, and said.
zcat "$data/mpi-io-test.dxt.txt.gz" | sed '1a # *WARNING*: The DXT_POSIX module contains incomplete data!' \
  >"$tmp/partial.dxt.txt"
expect_rc 0 "stats of an incomplete log" "$gpusynth" stats "$tmp/partial.dxt.txt" --format dxt --bin 1s --json \
  -o "$tmp/partial.h5"
expect_in "$tmp/stderr" "warning: darshan marked incomplete: .*partial.dxt.txt: DXT_POSIX (its runtime ran out" \
  "stats warns of an incomplete module"
/usr/bin/python3 - "$tmp/stdout" "$tmp/partial.h5" <<'PY' || fail "the incomplete module in stats' JSON and HDF5"
import h5py, json, sys
assert [m.split(": ")[-1] for m in json.load(open(sys.argv[1]))["incomplete_modules"]] == ["DXT_POSIX"]
attrs = h5py.File(sys.argv[2], "r")["/datasets/partial"].attrs
assert attrs["incomplete_modules"].endswith("partial.dxt.txt: DXT_POSIX"), dict(attrs)
PY
expect_rc 0 "characterize an incomplete log" "$gpusynth" characterize "$tmp/partial.dxt.txt" --format dxt
expect_in "$tmp/stderr" "warning: darshan marked incomplete: .*DXT_POSIX" "characterize warns of an incomplete module"
expect_rc 0 "stats of a complete log" "$gpusynth" stats "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin 1s
! grep -q "incomplete" "$tmp/stderr" || fail "a complete log was called incomplete"
# Units on every figure (issue 58), and a bin too coarse for the trace's span said, with a better one.
expect_in "$tmp/stdout" "^burstiness   of the count per 1 s bin: mean .* cv (sd/mean) " "burstiness with its unit"
expect_in "$tmp/stdout" "^IDC          index of dispersion, Var/mean of the sums over m consecutive bins" "IDC said"
expect_in "$tmp/stdout" "m=1 (1 s): " "IDC's windows in seconds"
expect_in "$tmp/stderr" "warning: --bin 1s gives [0-9]* bins over the trace's .* s, fewer than 100: .*; --bin [125]0*ms gives about 1000" \
  "a coarse --bin is said, with one giving about 1000 bins"
suggested=$(sed -n 's/.*; --bin \([0-9]*ms\) gives about 1000$/\1/p' "$tmp/stderr")
expect_rc 0 "stats with the suggested --bin" "$gpusynth" stats "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin "$suggested"
bins=$(sed -n 's/^series .* bin: \([0-9]*\) bins$/\1/p' "$tmp/stdout")
[ "${bins:-0}" -ge 630 ] && [ "${bins:-0}" -le 1600 ] || fail "--bin $suggested gives $bins bins, not about 1000"
grep -q "gives about 1000" "$tmp/stderr" && fail "a fine enough --bin was called coarse: $(cat "$tmp/stderr")"
# A --bin that leaves one value is an error with the span and the bin that gives about 1000 (exit 2).
expect_rc 2 "stats with one bin" "$gpusynth" stats "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin 1000s
expect_in "$tmp/stderr" "the series has 1 value(s); use a narrower --bin (the trace spans .* s: --bin $suggested gives about 1000 bins)" \
  "one value is said with the span and a --bin"
# A plot's slope beyond (0, 1) is said, not passed off as an H (CloudPhysics per second: DFA's 1.01).
expect_rc 0 "stats of counts" "$gpusynth" stats "$data/cloudphysics_per_second.counts" --format counts --bin 1s
expect_in "$tmp/stdout" "^             dfa: H = 1.01 is outside (0, 1)" "an H outside (0, 1) is noted"
expect_rc 2 "stats of events without --bin" "$gpusynth" stats "$data/mpi-io-test.dxt.txt.gz" --format dxt
expect_in "$tmp/stderr" "--bin is required for this format (the trace spans .* s: --bin $suggested gives about 1000 bins)" \
  "the missing --bin is suggested from the span"
printf '1\n2\nx\n3\n' >"$tmp/bad.txt"
expect_rc 2 "stats malformed line" "$gpusynth" stats "$tmp/bad.txt" --format timestamps --bin 1s -o "$tmp/bad.h5"
expect_in "$tmp/stderr" "bad.txt:3:1: timestamp 'x' is not a finite number" "stats error names file:line:column"
[ ! -e "$tmp/bad.h5" ] || fail "a failed stats run left its output"
! ls -a "$tmp" | grep -q '\.tmp-' || fail "a failed stats run left a temporary file"
expect_rc 0 "stats --skip-bad-lines" "$gpusynth" stats "$tmp/bad.txt" --format timestamps --bin 1s --skip-bad-lines
expect_in "$tmp/stdout" "1 bad lines skipped" "skipped lines are reported"
expect_rc 2 "stats unknown format" "$gpusynth" stats "$tmp/bad.txt" --format csv --bin 1s
expect_in "$tmp/stderr" "'csv' is not one of blkparse, counts, darshan" "unknown format"
expect_rc 2 "stats missing --bin" "$gpusynth" stats "$tmp/bad.txt" --format timestamps
expect_rc 2 "stats bad --bin" "$gpusynth" stats "$tmp/bad.txt" --format timestamps --bin 1parsec

finish "stats"
