#!/usr/bin/env bash
# Every shipped config runs (with few replicas, into a temporary directory), and
# every dataset of its output has the bits stored in tests/regression/<config>.digest
# (scripts/update_regression_digests.sh makes them; a commit that changes results
# updates them and says why). Digests made on a CPU with other features (FFTW picks
# other codelets there) are not compared: the run is, and the test says SKIPPED (exit 77),
# never passed, since nothing was compared.
set -eu
gpusynth=$1
config=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gpusynth" "$config" --replicas 3 -q -o "$tmp/out.h5"
h5ls -r "$tmp/out.h5" | grep -q "series" || { echo "no series in the output of $config"; exit 1; }
echo "$config ran"
digest=$here/../regression/$(basename "$config" .yaml).digest
[ -f "$digest" ] || { echo "FAIL: no $digest; make it with scripts/update_regression_digests.sh"; exit 1; }
made_on=$(sed -n 's/^# cpu: //p' "$digest")
if [ "$made_on" != "$("$here/cpu_features.sh")" ]; then
  echo "SKIP: the digest was made on a CPU with '$made_on', this one has '$("$here/cpu_features.sh")': the run" \
    "passed, its bits were not compared"
  exit 77
fi
if ! /usr/bin/python3 "$here/../../scripts/results_digest.py" "$tmp/out.h5" --check "$digest" >"$tmp/diff"; then
  echo "FAIL: the results of $config changed (tests/regression/$(basename "$digest")):"
  head -40 "$tmp/diff"
  echo "If the change is intended, run scripts/update_regression_digests.sh and commit the digests with it."
  exit 1
fi
echo "every dataset has its stored bits ($(grep -vc '^#' "$digest") datasets)"
