#!/usr/bin/env bash
# Makes tests/regression/<config>.digest for every configs/*.yaml: the config run as its
# test runs it (3 replicas, tests/cli/run_config.sh) and a digest of every dataset of the
# output (scripts/results_digest.py). Run it when a change of results is intended and
# commit the digests with that change, saying why the bits moved (docs/development.md).
#   scripts/update_regression_digests.sh [GPUSYNTH]   (default build/gpusynth)
set -euo pipefail
cd "$(dirname "$0")/.."
gpusynth=$(realpath "${1:-build/gpusynth}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for config in configs/*.yaml; do
  name=$(basename "$config" .yaml)
  (cd "$tmp" && "$gpusynth" "$OLDPWD/$config" --replicas 3 -q -o "$tmp/$name.h5" >/dev/null)
  {
    echo "# Every dataset of configs/$name.yaml run with --replicas 3: path shape dtype sha256."
    echo "# Made by scripts/update_regression_digests.sh at $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes');"
    echo "# cpu: $(tests/cli/cpu_features.sh)"
    /usr/bin/python3 scripts/results_digest.py "$tmp/$name.h5"
  } >"tests/regression/$name.digest"
  echo "tests/regression/$name.digest: $(grep -vc '^#' "tests/regression/$name.digest") datasets"
done
