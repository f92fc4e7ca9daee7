#!/usr/bin/env bash
# Every shipped config runs (with few replicas, into a temporary directory).
set -eu
gpusynth=$1
config=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gpusynth" "$config" --replicas 3 -o "$tmp/out.h5"
h5ls -r "$tmp/out.h5" | grep -q "series" || { echo "no series in the output of $config"; exit 1; }
echo "$config ran"
