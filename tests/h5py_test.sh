#!/usr/bin/env bash
# The quickstart's output explained by the file alone, read with h5py.
set -eu
gpusynth=$1
tests_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gpusynth" "$tests_dir/../configs/quickstart.yaml" --replicas 4 -o "$tmp/q.h5" --quiet
/usr/bin/python3 "$tests_dir/h5py_check.py" "$tmp/q.h5" "$tests_dir/../configs/quickstart.yaml"
