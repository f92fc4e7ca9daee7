#!/usr/bin/env bash
# The stream version of the values (issue 60, CHANGELOG.md, docs/hdf5.md): `--version` names it, it
# is the one CHANGELOG.md's newest version gives, every dataset of a file that runs every stage
# (ensembles, dimension scales, datasets, the study, request tables, bursts) carries it as its
# attribute stream_version and the root does too; and a file from another stream version, or one
# made before it was recorded, says so when `gpusynth report` reads it: on stderr and among the
# page's caveats. A file of this version's stream, or one gpusynth did not write, says nothing.
set -u
source "$(dirname "$0")/lib.sh"

expect_rc 0 "--version" "$gpusynth" --version
stream=$(sed -n 's/^gpusynth .*, stream version \([0-9][0-9]*\)$/\1/p' "$tmp/stdout")
[ -n "$stream" ] || fail "--version names no stream version: $(head -1 "$tmp/stdout")"
version=$(sed -n 's/^gpusynth \([0-9.]*\) .*/\1/p' "$tmp/stdout")
newest=$(grep -m1 '^## [0-9]' "$source_dir/CHANGELOG.md")
[ "$newest" = "## $version (${newest#*(}" ] || fail "CHANGELOG.md's newest entry '$newest' is not gpusynth $version"
[[ "$newest" == *", stream version $stream" ]] ||
  fail "CHANGELOG.md's newest entry '$newest' does not end in ', stream version $stream'"

every_stage_config "$tmp/all.h5" >"$tmp/all.yaml"
expect_rc 0 "a run of every stage" "$gpusynth" "$tmp/all.yaml" -q
/usr/bin/python3 - "$tmp/all.h5" "$stream" <<'PY' || fail "the datasets' stream_version"
import sys

import h5py

path, stream = sys.argv[1], int(sys.argv[2])
bad, seen = [], []


def visit(name, obj):
    if isinstance(obj, h5py.Dataset):
        seen.append(name)
        if obj.attrs.get("stream_version") != stream:
            bad.append(f"{name}: {obj.attrs.get('stream_version')}")


with h5py.File(path, "r") as f:
    f.visititems(visit)
    if f.attrs.get("stream_version") != stream:
        bad.append(f"/: {f.attrs.get('stream_version')}")
groups = {name.split("/")[0] for name in seen}
missing = {"ensembles", "datasets", "compare", "requests", "bursts"} - groups
if bad or missing or len(seen) < 20:
    sys.exit(f"{len(seen)} datasets; without stream_version {stream}: {bad[:8]}; groups without datasets: {missing}")
PY

set_root_stream() {  # file value|none: the root's stream_version as another version would have written it
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys

import h5py
import numpy as np

with h5py.File(sys.argv[1], "r+") as f:
    del f.attrs["stream_version"]
    if sys.argv[2] != "none":
        f.attrs["stream_version"] = np.int64(sys.argv[2])
PY
}
report_says() {  # file description pattern...: the report's note on stderr and in the page's caveats
  local file=$1 what=$2
  shift 2
  rm -rf "$tmp/report"
  expect_rc 0 "report of $what" "$gpusynth" report "$file" -o "$tmp/report" -q
  for pattern in "$@"; do
    expect_in "$tmp/stderr" "note: .*$pattern" "report of $what: stderr"
    expect_in "$tmp/report/report.md" "caveat.*$pattern" "report of $what: the page's caveats"
  done
}

"$gpusynth" "$source_dir/configs/quickstart.yaml" --replicas 2 -q -o "$tmp/this.h5" >/dev/null 2>&1 ||
  fail "the quickstart"
expect_rc 0 "report of this stream's file" "$gpusynth" report "$tmp/this.h5" -o "$tmp/report-this" -q
! grep -q "stream version" "$tmp/stderr" || fail "a file of this stream version was noted: $(cat "$tmp/stderr")"
expect_in "$tmp/report-this/report.md" "stream version of the values.*$stream" "the provenance table's stream version"

cp "$tmp/this.h5" "$tmp/older.h5"
set_root_stream "$tmp/older.h5" $((stream - 1))
report_says "$tmp/older.h5" "an older stream" "values of stream version $((stream - 1))" \
  "makes stream version $stream, a newer one"
cp "$tmp/this.h5" "$tmp/newer.h5"
set_root_stream "$tmp/newer.h5" $((stream + 1))
report_says "$tmp/newer.h5" "a newer stream" "makes stream version $stream, an older one"
cp "$tmp/this.h5" "$tmp/unrecorded.h5"
set_root_stream "$tmp/unrecorded.h5" none
report_says "$tmp/unrecorded.h5" "a file without the attribute" "did not record the stream version"
# A file gpusynth did not write (no gpusynth_version: h5py's, another tool's) has no stream to compare.
cp "$tmp/unrecorded.h5" "$tmp/foreign.h5"
/usr/bin/python3 -c 'import h5py, sys; del h5py.File(sys.argv[1], "r+").attrs["gpusynth_version"]' "$tmp/foreign.h5"
expect_rc 0 "report of a file gpusynth did not write" "$gpusynth" report "$tmp/foreign.h5" -o "$tmp/report-foreign" -q
! grep -q "stream version" "$tmp/stderr" || fail "a file gpusynth did not write was noted: $(cat "$tmp/stderr")"
finish stream_version
