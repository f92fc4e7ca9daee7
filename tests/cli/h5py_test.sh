#!/usr/bin/env bash
# The quickstart's output explained by the file alone, read with h5py.
set -eu
gpusynth=$1
source_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gpusynth" "$source_dir/configs/quickstart.yaml" --replicas 4 -o "$tmp/q.h5" --quiet
/usr/bin/python3 "$source_dir/tests/cli/h5py_check.py" "$tmp/q.h5" "$source_dir/configs/quickstart.yaml"
