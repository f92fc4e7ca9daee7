#!/usr/bin/env bash
# Every shipped config runs (with few replicas, into a temporary directory), and
# every dataset of its output has the bits stored in tests/regression/<config>.digest
# or tests/regression/<config>.<features>.digest: the one whose `# cpu:` line is this
# CPU's features (tests/cli/cpu_features.sh; scripts/update_regression_digests.sh makes
# them, natively or with --emulate-avx2; a commit that changes results updates them and
# says why). Where no digest was made on a CPU with these features (FFTW picks other
# codelets there) nothing is compared: the run is, and the test says SKIPPED (exit 77),
# never passed, since nothing was compared.
#   run_config.sh GPUSYNTH CONFIG.yaml
# GPUSYNTH may be a wrapper that runs gpusynth under an emulator; then GPUSYNTH_CPU_FEATURES
# says the emulated CPU's features (tests/cli/cpu_features.sh).
set -eu
gpusynth=$1
config=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gpusynth" "$config" --replicas 3 -q -o "$tmp/out.h5"
h5ls -r "$tmp/out.h5" | grep -q "series" || { echo "no series in the output of $config"; exit 1; }
echo "$config ran"
name=$(basename "$config" .yaml)
features=$("$here/cpu_features.sh")
digest=
made_on=()
for candidate in "$here/../regression/$name.digest" "$here/../regression/$name".*.digest; do
  [ -f "$candidate" ] || continue
  made_on+=("'$(sed -n 's/^# cpu: //p' "$candidate")'")
  if [ "$(sed -n 's/^# cpu: //p' "$candidate")" = "$features" ]; then
    digest=$candidate
    break
  fi
done
[ ${#made_on[@]} -gt 0 ] || { echo "FAIL: no tests/regression/$name.digest; make it with scripts/update_regression_digests.sh"; exit 1; }
if [ -z "$digest" ]; then
  echo "SKIP: the digests of $name were made on CPUs with ${made_on[*]}, this one has '$features': the run" \
    "passed, its bits were not compared"
  exit 77
fi
if ! /usr/bin/python3 "$here/../../scripts/results_digest.py" "$tmp/out.h5" --check "$digest" >"$tmp/diff"; then
  echo "FAIL: the results of $config changed (tests/regression/$(basename "$digest")):"
  head -40 "$tmp/diff"
  echo "If the change is intended, run scripts/update_regression_digests.sh and commit the digests with it."
  exit 1
fi
echo "every dataset has its stored bits ($(grep -vc '^#' "$digest") datasets of tests/regression/$(basename "$digest"))"
