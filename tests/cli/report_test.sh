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

# 6. Damaged files (issue 56 item 11): a file HDF5 crashes on (bytes overwritten: HDF5 reads
#    through a wild pointer, which no Python except sees), a study of the wrong dtype, shape or
#    values, an object HDF5 cannot open, and a script killed by SIGSEGV are each one line naming
#    the file and what is wrong, exit 2, nothing left behind.
traces=$(cd "$data" && pwd)
cat >"$tmp/study.yaml" <<YAML
seed: 4
output: study.h5
datasets:
  - {name: cloudphysics, trace: $traces/cloudphysics_per_second.counts, format: counts, bin: 1s}
models: [normal, markov]
replicas: 4
compare: {bootstrap: {resamples: 100}}
YAML
expect_rc 0 "a small study" "$gpusynth" "$tmp/study.yaml" -q -o "$tmp/study.h5"
/usr/bin/python3 - "$tmp" "$source_dir/tests/cli" <<'PY' >"$tmp/made" 2>&1 || fail "damaged studies: $(cat "$tmp/made")"
import os, shutil, sys
import h5py, numpy as np
tmp = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from damage_h5 import damage, flip
def variant(name, change):
    shutil.copyfile(f"{tmp}/study.h5", f"{tmp}/{name}.h5")
    with h5py.File(f"{tmp}/{name}.h5", "a") as f:
        change(f)
def replace(f, name, data):
    del f[name]
    f[name] = data
variant("summary-dtype", lambda f: replace(f, "compare/summary", np.zeros(f["compare/summary"].shape)))
variant("quantile-columns", lambda f: replace(f, "compare/cloudphysics/markov/replica_quantiles",
                                              f["compare/cloudphysics/markov/replica_quantiles"][:, :50]))
shutil.copyfile(f"{tmp}/study.h5", f"{tmp}/series-nan.h5")
damage(f"{tmp}/series-nan.h5", "datasets/cloudphysics/series", "data")
shutil.copyfile(f"{tmp}/study.h5", f"{tmp}/paths-header.h5")
damage(f"{tmp}/paths-header.h5", "ensembles/cloudphysics-normal/series", "header")

def walk(path):  # every object, attribute and dataset, as a reader of the whole file would
    with h5py.File(path, "r") as f:
        def touch(name, obj):
            for key in list(obj.attrs):
                try:
                    obj.attrs[key]
                except Exception:
                    pass
            if isinstance(obj, h5py.Dataset):
                try:
                    obj[()]
                except Exception:
                    pass
        touch("", f)
        f.visititems(touch)
crashes = []
for seed in range(300):  # the bursts file with a few bytes overwritten, kept where HDF5 itself crashes on it
    path = f"{tmp}/flip-{seed}.h5"
    shutil.copyfile(f"{tmp}/bursts.h5", path)
    flip(path, seed)
    child = os.fork()
    if child == 0:
        try:
            walk(path)
        except BaseException:
            pass
        os._exit(0)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        crashes.append(path)
        if len(crashes) == 3:
            break
    else:
        os.remove(path)
print("\n".join(crashes))
PY
for name in summary-dtype quantile-columns series-nan paths-header; do
  expect_rc 2 "a damaged study ($name)" "$gpusynth" report "$tmp/$name.h5" -o "$out/damaged"
  one_error "a damaged study ($name)" "$name.h5: the study under /compare cannot be drawn: /"
done
expect_in "$tmp/stderr" "/ensembles/cloudphysics-normal/series cannot be opened" "the unopenable sample paths are named"
"$gpusynth" report "$tmp/summary-dtype.h5" -o "$out/damaged" 2>&1 | grep -q "/compare/summary has no fields" ||
  fail "the summary of the wrong dtype is not named"
"$gpusynth" report "$tmp/quantile-columns.h5" -o "$out/damaged" 2>&1 |
  grep -q "/compare/cloudphysics/markov/replica_quantiles has 50 columns, expected 101" || fail "the wrong shape is not named"
"$gpusynth" report "$tmp/series-nan.h5" -o "$out/damaged" 2>&1 |
  grep -q "/datasets/cloudphysics/series: [0-9]* of its [0-9]* values are not finite" || fail "the NaN series is not named"
crashes=$(grep "flip-" "$tmp/made")
[ -n "$crashes" ] || echo "note: no seed made this HDF5 crash on the bursts file: the crash cases are not exercised"
for file in $crashes; do  # a wild pointer need not crash every time: a run that reads the file whole is a report
  what="a file HDF5 crashes on ($(basename "$file"))"
  "$gpusynth" report "$file" -o "$out/damaged" >"$tmp/stdout" 2>"$tmp/stderr"
  rc=$?
  case $rc in
    2) one_error "$what" "$(basename "$file"): \(HDF5 crashed (SIG[A-Z]*) reading .*\|the report script crashed reading it (.*\): the file is damaged" ;;
    0) ! grep -q "Traceback\|error" "$tmp/stderr" || fail "$what: exit 0 with $(head -c 400 "$tmp/stderr")"
       rm -r "$out/damaged" ;;
    *) fail "$what: exit $rc, expected 2 (or 0, the file read whole); stderr: $(head -c 400 "$tmp/stderr")" ;;
  esac
  # The script alone (as by hand, without gpusynth to turn a crash into a line): its walk names the object.
  rm -rf "$tmp/by-hand" && mkdir "$tmp/by-hand"
  (ulimit -c 0; exec /usr/bin/python3 "${GPUSYNTH_REPORT_SCRIPT:-$source_dir/scripts/report.py}" --staged -q "$file" "$tmp/by-hand") \
    >"$tmp/stdout" 2>"$tmp/stderr"
  rc=$?
  case $rc in
    2) one_error "$what, by hand" "$(basename "$file"): HDF5 crashed (SIG[A-Z]*) reading .*: the file is damaged" ;;
    0) ;;
    *) fail "$what, by hand: exit $rc, expected 2 (or 0, the file read whole); stderr: $(head -c 400 "$tmp/stderr")" ;;
  esac
done
# The drawing's own child (report_checks.draw_in_child): a crash there after the walk read the file
# (seen with one flipped bursts file, by hand, only where the clone lay under /tmp) is the same one
# line naming the section, the drawing's value comes back, and its error code is the report's.
cat >"$tmp/draw_child.py" <<'PY'
import os, signal, subprocess, sys
sys.path.insert(0, sys.argv[1])
from report_checks import draw_in_child
said = []
def fail(message):
    said.append(message)
    raise SystemExit(2)
def check(holds, what):
    if not holds:
        sys.exit(f"draw_in_child: {what}")
def crash(say):
    say("bursts read")
    os.kill(os.getpid(), signal.SIGSEGV)
try:
    draw_in_child("x.h5", fail, crash)
except SystemExit:
    pass
check(said and said[0].startswith("x.h5: HDF5 crashed (SIGSEGV) reading it for the report's section 'bursts read': "
                                  "the file is damaged"), f"a crash said {said}")
def named_like_the_result(say):  # a section named from the file cannot pass for the returned value
    say("\x1e{not json")
    return ["a warning"]
check(draw_in_child("x.h5", fail, named_like_the_result) == ["a warning"], "the returned value")
for code, exit_with in ((2, "2"), (0, "None"), (1, "'why'")):
    got = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                          "from report_checks import draw_in_child; "
                          f"draw_in_child('x.h5', None, lambda say: sys.exit({exit_with}))", sys.argv[1]]).returncode
    check(got == code, f"sys.exit({exit_with}) in the drawing ended the report with {got}, not {code}")
PY
(ulimit -c 0; exec /usr/bin/python3 "$tmp/draw_child.py" "$source_dir/scripts") >"$tmp/stdout" 2>"$tmp/stderr" ||
  fail "draw_in_child: $(cat "$tmp/stdout" "$tmp/stderr")"
# By hand, without --staged: the drawing's child hands its warnings back and the script says what it wrote.
/usr/bin/python3 "${GPUSYNTH_REPORT_SCRIPT:-$source_dir/scripts/report.py}" -q "$tmp/study.h5" "$tmp/by-hand-report" \
  >"$tmp/stdout" 2>"$tmp/stderr" || fail "the report by hand: $(cat "$tmp/stderr")"
grep -q "^wrote $tmp/by-hand-report/index.html ([0-9]* files" "$tmp/stdout" || fail "the report by hand said: $(cat "$tmp/stdout")"
[ -s "$tmp/by-hand-report/index.html" ] || fail "the report by hand wrote no index.html"
printf 'import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n' >"$tmp/segv.py"
(
  ulimit -c 0
  export GPUSYNTH_REPORT_SCRIPT=$tmp/segv.py
  expect_rc 2 "a script killed by SIGSEGV" "$gpusynth" report "$tmp/study.h5" -o "$out/damaged"
  one_error "a script killed by SIGSEGV" "study.h5: the report script crashed reading it (.*signal 11): the file is damaged"
  exit "$failures"
) || failures=$((failures + 1))
[ ! -e "$out/damaged" ] || fail "a damaged file left $out/damaged"
no_temporaries "$out" "a damaged file"

# 7. The fitted models (issue 58 part 3, item 1): ± only where the fit records an SE, a profile
#    interval where the SE came from one, an empty list as "none", ln L, AIC, BIC and n in their
#    own columns, rows in the study's model order (normal before markov here, against the file's
#    alphabetical order); and one progress line per section on stderr (issue 58 part 3, item 8).
cp "$tmp/study.h5" "$tmp/fits.h5"
/usr/bin/python3 - "$tmp/fits.h5" <<'PY' || fail "could not add the profile and empty-list attributes"
import sys
import h5py, numpy as np
with h5py.File(sys.argv[1], "a") as f:
    fit = f["ensembles/cloudphysics-normal/fit"].attrs
    fit["sigma_se_from"] = "profile: the 95 % profile-likelihood interval's width / 3.92"
    fit["sigma_profile_95"] = [0.9 * fit["sigma"], 1.2 * fit["sigma"]]
    fit["sigma_se_information"] = fit["sigma_se"]
    fit["ar"] = np.array([], dtype=float)  # a FARIMA's AR part of order 0
    fit["ar_se"] = np.array([], dtype=float)
PY
expect_rc 0 "the report of a study" "$gpusynth" report "$tmp/fits.h5" -o "$out/fits"
/usr/bin/python3 "$source_dir/tests/cli/report_fits_check.py" "$tmp/fits.h5" "$out/fits/report.md" >"$tmp/check" 2>&1 ||
  fail "the fitted models' table: $(cat "$tmp/check")"
for section in "overview" "study tables" "dataset cloudphysics" "index.html and report.md"; do
  expect_in "$tmp/stderr" "^progress: *[0-9.]*% $section ([0-9.]* s)$" "the progress line of $section"
done
[ "$(grep -vc "^progress: " "$tmp/stderr")" -eq 0 ] || fail "stderr holds more than progress lines: $(head -c 400 "$tmp/stderr")"

# 8. A plain run's file (issue 58 part 3, item 8): the replicas' sample paths and what the
#    ensembles record, with units on the axes; -q prints no progress; --help says what it reads.
cat >"$tmp/plain.yaml" <<YAML
seed: 42
output: plain.h5
ensembles:
  - {name: bursty, model: lfsn, params: {alpha: 1.5, beta: 0.5, H: 0.8, m: 8, K: 64},
     workload: {v: 2.0, delta: 10.0, values: counts}, replicas: 3, length: 3000}
  - {name: gauss, model: normal, params: {mu: 5, sigma: 2}, replicas: 2, length: 500}
YAML
expect_rc 0 "a plain run" "$gpusynth" "$tmp/plain.yaml" -q -o "$tmp/plain.h5"
expect_rc 0 "the report of a plain run" "$gpusynth" report "$tmp/plain.h5" -o "$out/plain" -q
[ ! -s "$tmp/stderr" ] || fail "report -q printed: $(head -c 400 "$tmp/stderr")"
for name in bursty gauss; do
  for kind in png svg pdf; do
    [ -s "$out/plain/ensemble_${name}_paths.$kind" ] || fail "no sample paths of $name ($kind)"
  done
  expect_in "$out/plain/report.md" "Ensemble $name" "the table of $name"
  unit=$(/usr/bin/python3 -c 'import h5py, sys; print(h5py.File(sys.argv[1])["ensembles"][sys.argv[2]]["series"].attrs["units"])' "$tmp/plain.h5" "$name")
  expect_in "$out/plain/ensemble_${name}_paths.svg" "$unit" "the unit of $name's paths"
  expect_in "$out/plain/ensemble_${name}_paths.svg" "bin (index)" "the x axis of $name's paths"
done
expect_in "$out/plain/index.html" "data:image/png;base64" "the figures in the page"
expect_rc 0 "report --help" "$gpusynth" report --help
expect_in "$tmp/stdout" "/ensembles" "--help names what it reads"
expect_in "$tmp/stdout" "-q,--quiet" "--help names -q"

# 9. Figures a reviewer accepts (issue 58 part 3, items 3 and 6): legends outside the data,
#    Algorithm 1's panels with one x label and a title, sample paths each on its own y scale
#    (tests/cli/report_figures_check.py reads the SVGs).
expect_rc 0 "the report of a burst analysis" "$gpusynth" report "$tmp/bursts.h5" -o "$out/bursts-full" -q
for report in "$out/bursts-full" "$out/fits" "$out/plain"; do
  /usr/bin/python3 "$source_dir/tests/cli/report_figures_check.py" "$report" >"$tmp/check" 2>&1 ||
    fail "the figures of $(basename "$report"): $(cat "$tmp/check")"
done
# A walk HDF5 never finishes (overwritten metadata once sent it round a loop for 12 CPU-minutes): the
# child is killed at the deadline and the report says so, exit 2. The walk is made to hang here.
/usr/bin/python3 - "$source_dir/scripts" "$tmp/plain.h5" >"$tmp/hang" 2>&1 <<'PY'
import sys, time
sys.path.insert(0, sys.argv[1])
import report_checks
report_checks.walk_deadline = lambda path: 1.0
report_checks._walk = lambda path, note: (note("attribute 'x' of /"), time.sleep(30))
def fail(message):
    print(message)
    sys.exit(2)
start = time.monotonic()
try:
    report_checks.walk_in_child(sys.argv[2], fail)
except SystemExit as e:
    assert e.code == 2 and time.monotonic() - start < 10, (e.code, time.monotonic() - start)
    sys.exit(0)
sys.exit("the walk's deadline passed unnoticed")
PY
[ $? -eq 0 ] || fail "a hanging walk: $(cat "$tmp/hang")"
expect_in "$tmp/hang" "HDF5 did not finish reading attribute 'x' of / within 1 s: the file is damaged" "the deadline is named"
# The replay's data operation ratio is drawn as a mean per coarse bin (cli.replay draws it from fio's
# replays): a group's bins without an operation are left out of its mean, a group without any is a gap.
/usr/bin/python3 - "$source_dir/scripts" >"$tmp/binned" 2>&1 <<'PY'
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from report_replay import binned_mean
got = binned_mean(np.array([[1.0, np.nan, 0.0, 0.5, np.nan], [np.nan, np.nan, 1.0, 1.0, 0.25]]), 2)
assert np.allclose(got, [[1.0, 0.25, np.nan], [np.nan, 1.0, 0.25]], equal_nan=True), got
PY
[ $? -eq 0 ] || fail "the binned data operation ratio: $(cat "$tmp/binned")"
finish "report"
