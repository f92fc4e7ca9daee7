#!/usr/bin/env bash
# gpusynth report's failure paths (docs/studies.md): -o onto /dev/null, a file,
# a FIFO or a directory without a report is refused before any work; request
# tables made by hand or damaged are one error naming the file and the object;
# a bare /bursts is an error and a partly missing or damaged one is drawn with
# a warning on stderr and on the page; the report is drawn beside DIR and
# renamed into place only when complete, so SIGTERM (to gpusynth) or SIGINT (to
# its process group, as ^C) while it is drawn ends with exit 130, the old
# report as it was and nothing left. Exit 2 and one line for every error.
# GPUSYNTH_REPORT_SCRIPT=other/report.py runs these checks with another script.
set -u
source "$(dirname "$0")/lib.sh"
no_temporaries() {  # directory what
  ! ls -a "$1" | grep -q '\.tmp-' || fail "$2 left a temporary directory: $(ls -a "$1" | grep '\.tmp-')"
}
one_error() {  # what pattern: one line on stderr, an error, no traceback, matching pattern
  [ "$(grep -c . "$tmp/stderr")" -eq 1 ] && grep -q "error: " "$tmp/stderr" ||
    fail "$1: expected one error line on stderr: $(head -c 600 "$tmp/stderr")"
  expect_in "$tmp/stderr" "$2" "$1"
}

cat >"$tmp/requests.yaml" <<YAML
seed: 3
output: requests.h5
ensembles:
  - {name: arrivals, model: lfsn, params: {alpha: 1.6, beta: 0.5, H: 0.8, m: 16, K: 128},
     workload: {v: 3.0, delta: 12.0, values: counts}, replicas: 1, length: 20}
requests:
  - name: mpiio
    trace: $data/mpi-io-test.dxt.txt.gz
    format: dxt
    counters: $data/mpi-io-test.parser.txt.gz
    processes: 4
    replicas: 1
    timing: {ensemble: arrivals, bin: 50ms}
YAML
cat >"$tmp/bursts.yaml" <<YAML
seed: 9
output: bursts.h5
datasets:
  - {name: job, trace: $data/dxt.parser.txt.gz, format: darshan, bin: 1s, series: bytes_read}
models: [markov]
replicas: 2
bursts:
  - {name: read, dataset: job, horizons: [1s, 2s], bootstrap: {resamples: 20},
     scheduling: {min_time: 2s, max_time: 6s, window: 2}}
YAML
expect_rc 0 "a request synthesis" "$gpusynth" "$tmp/requests.yaml" -q -o "$tmp/requests.h5"
expect_rc 0 "a burst analysis" "$gpusynth" bursts "$tmp/bursts.yaml" -q -o "$tmp/bursts.h5"
out=$tmp/reports
mkdir -p "$out"

# 1. -o that is no directory for a report: refused before any work, left as it was.
mkfifo "$out/fifo"
echo "a file" >"$out/file"
ln -s fifo "$out/link-to-fifo"
mkdir "$out/other"
echo "not a report" >"$out/other/notes.txt"
for target in /dev/null "$out/file" "$out/fifo" "$out/link-to-fifo" "$out/other"; do
  expect_rc 2 "-o $target" "$gpusynth" report "$tmp/requests.h5" -o "$target"
  one_error "-o $target" "-o '$target'"
done
[ -p "$out/fifo" ] && [ -L "$out/link-to-fifo" ] && [ "$(cat "$out/file")" = "a file" ] &&
  [ "$(ls "$out/other")" = notes.txt ] || fail "a refused -o was changed"
rm -r "$out/fifo" "$out/link-to-fifo" "$out/file" "$out/other"

# Files made with h5py, damaged or cut short (tests/cli/damage_h5.py), in one Python run.
/usr/bin/python3 - "$tmp" "$source_dir/tests/cli" <<'PY' >"$tmp/made" 2>&1 || fail "damaged files: $(cat "$tmp/made")"
import os, shutil, sys
import h5py, numpy as np
tmp = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from damage_h5 import damage
with h5py.File(f"{tmp}/h5py.h5", "w") as f:  # request tables made by hand
    f["requests/mine/requests"] = np.zeros(3, dtype=[("rank", "i8"), ("time", "f8")])
h5py.File(f"{tmp}/no-analysis.h5", "w").create_group("bursts")
h5py.File(f"{tmp}/empty-analysis.h5", "w").create_group("bursts/read")
for name, source, parts in (("data.h5", "requests.h5", {"requests/mpiio/requests": "data"}),  # op -1, time NaN
                            ("header.h5", "requests.h5", {"requests/mpiio/ops": "header"}),
                            ("partial.h5", "bursts.h5", {"bursts/read/prediction": "delete",
                                                         "bursts/read/scheduling": "header"})):
    shutil.copyfile(f"{tmp}/{source}", f"{tmp}/{name}")
    for part, how in parts.items():
        damage(f"{tmp}/{name}", part, how)
PY

# 2. Request tables made with h5py or damaged: an error naming the file and the object; nothing written.
expect_rc 2 "h5py-made request tables" "$gpusynth" report "$tmp/h5py.h5" -o "$out/rep"
one_error "h5py-made request tables" "h5py.h5: /requests/mine/requests has no fields 'replica', 'op'"
expect_rc 2 "a damaged request table" "$gpusynth" report "$tmp/data.h5" -o "$out/rep"
one_error "a damaged request table" "data.h5: /requests/mpiio/requests: 72 of its 72 requests name an operation outside"
expect_rc 2 "a damaged object header" "$gpusynth" report "$tmp/header.h5" -o "$out/rep"
one_error "a damaged object header" "header.h5: /requests/mpiio/ops cannot be opened"

# 3. Bursts without an analysis: an error naming what is missing.
expect_rc 2 "an empty /bursts" "$gpusynth" report "$tmp/no-analysis.h5" -o "$out/rep"
one_error "an empty /bursts" "no-analysis.h5: nothing to report: /bursts holds no analysis"
expect_rc 2 "an empty analysis" "$gpusynth" report "$tmp/empty-analysis.h5" -o "$out/rep"
one_error "an empty analysis" "/bursts/read holds neither the analysis of a real series"
[ ! -e "$out/rep" ] || fail "a failed report left $out/rep"
no_temporaries "$out" "a failed report"

# 4. Only what gpusynth marked as its own is replaced or removed (issue 56): a user's folder
#    holding an index.html is refused with its files kept, and so is a folder holding the
#    results file; a stale staging directory without the marker is named and left.
mkdir "$out/rep"
echo "my notes" >"$out/rep/index.html"
echo "keep me" >"$out/rep/data.txt"
expect_rc 2 "a user's folder with an index.html" "$gpusynth" report "$tmp/partial.h5" -o "$out/rep"
one_error "a user's folder" "no report gpusynth wrote (no .gpusynth-report)"
[ "$(cat "$out/rep/data.txt")" = "keep me" ] && [ "$(cat "$out/rep/index.html")" = "my notes" ] ||
  fail "the user's folder was changed"
mkdir "$out/holds-results" && cp "$tmp/partial.h5" "$out/holds-results/"
touch "$out/holds-results/.gpusynth-report"  # even a report: the input inside it would go with it
expect_rc 2 "-o a folder holding the results" "$gpusynth" report "$out/holds-results/partial.h5" -o "$out/holds-results"
one_error "-o a folder holding the results" "is inside -o '$out/holds-results', which the run replaces as a whole"
[ -s "$out/holds-results/partial.h5" ] || fail "the results file inside -o was removed"
sleep 0 &
dead=$!
wait "$dead"
host_tag=$(hostname | tr -c 'A-Za-z0-9.\n-' '_')
users=$out/.rep.tmp-$host_tag-$dead.old  # a user's folder with a temporary's name but no marker
mkdir -p "$users" && echo mine >"$users/mine.txt"
# A report gpusynth wrote is replaced; a stale staging directory of a dead gpusynth is removed.
rm "$out/rep/data.txt" && touch "$out/rep/.gpusynth-report"
stale=$out/.rep.tmp-$host_tag-$dead
mkdir -p "$stale/left" && touch "$stale/.gpusynth-report"
expect_rc 0 "a burst analysis with parts missing" "$gpusynth" report "$tmp/partial.h5" -o "$out/rep"
expect_in "$tmp/stderr" "warning: .*partial.h5: bursts 'read': the prediction (its F1 table, Fig. 6-7) is left out: /bursts/read/prediction is missing" "the missing prediction on stderr"
expect_in "$tmp/stderr" "the scheduling (Fig. 10-11) is left out: /bursts/read/scheduling cannot be opened" "the damaged scheduling on stderr"
expect_in "$out/rep/index.html" "class='warnings'.*/bursts/read/prediction is missing" "the warning on the page"
expect_in "$out/rep/report.md" "warning.*/bursts/read/scheduling cannot be opened" "the warning in report.md"
[ -s "$out/rep/bursts_read_sigma.png" ] && [ -s "$out/rep/bursts_read_runs.png" ] || fail "the parts that are there were not drawn"
[ ! -e "$out/rep/bursts_read_f1.png" ] || fail "an F1 figure without /bursts/read/prediction"
[ ! -e "$stale" ] || fail "the staging directory of a dead process was kept"
expect_in "$tmp/stderr" "left by process $dead of this host" "the removal is said"
[ "$(cat "$users/mine.txt" 2>/dev/null)" = mine ] || fail "a user's folder with a temporary's name was removed"
expect_in "$tmp/stderr" "left '$users' as it is: .* not gpusynth's mark" "the unmarked folder is named"
rm -r "$users"
no_temporaries "$out" "a report"
cp "$out/rep/index.html" "$tmp/before.html"
# Text from the file is text in report.md too: HTML an attribute holds is escaped, a | does not split a cell.
cp "$tmp/partial.h5" "$tmp/html.h5"
/usr/bin/python3 -c 'import h5py, sys; h5py.File(sys.argv[1], "a").require_group("ensembles/x").require_group("fit").attrs["boundary"] = "<script>alert(1)</script> a | b"' "$tmp/html.h5"
expect_rc 0 "a report of a file whose attribute holds HTML" "$gpusynth" report "$tmp/html.h5" -o "$out/html"
grep -q "<script>" "$out/html/report.md" "$out/html/index.html" && fail "raw HTML from an attribute reached the report"
expect_in "$out/html/report.md" "caveat.*&lt;script&gt;alert(1)&lt;/script&gt; a | b" "the attribute's text in report.md"
# A FIFO as the results file is refused at once, not read until a writer comes.
mkfifo "$tmp/results.fifo"
expect_rc 2 "a FIFO as the results file" timeout 10 "$gpusynth" report "$tmp/results.fifo" -o "$out/fifo-report"
one_error "a FIFO as the results file" "results.fifo is a FIFO (named pipe); give the HDF5 file a run wrote"

# 5. Interrupted while the script draws: exit 130, nothing written, the report there as it was.
for how in "TERM to gpusynth" "INT to its process group"; do
  if [ "$how" = "TERM to gpusynth" ]; then
    "$gpusynth" report "$tmp/bursts.h5" -o "$out/rep" >"$tmp/stdout" 2>"$tmp/stderr" &
  else
    setsid "$gpusynth" report "$tmp/bursts.h5" -o "$out/rep" >"$tmp/stdout" 2>"$tmp/stderr" &
  fi
  pid=$!
  # SIGTERM once the first figure is drawn; SIGINT as soon as the report's directory is there (while Python starts).
  [ "$how" = "TERM to gpusynth" ] && wait_for="$out/.rep.tmp-*/*.png" || wait_for="$out/.rep.tmp-*"
  for _ in $(seq 500); do
    ls -d $wait_for >/dev/null 2>&1 && break
    sleep 0.02
  done
  if [ "$how" = "TERM to gpusynth" ]; then kill -TERM "$pid"; else kill -INT -- "-$pid"; fi
  wait "$pid"
  rc=$?
  [ "$rc" -eq 130 ] || fail "SIG$how: exit $rc, expected 130"
  expect_in "$tmp/stderr" "nothing was written" "SIG$how"
  ! grep -q "Traceback\|^wrote" "$tmp/stderr" "$tmp/stdout" || fail "SIG$how: $(cat "$tmp/stdout" "$tmp/stderr")"
  cmp -s "$tmp/before.html" "$out/rep/index.html" || fail "SIG$how: the report at -o was replaced"
  no_temporaries "$out" "SIG$how"
done
finish "report"
