#!/usr/bin/env bash
# Every fuzz target (fuzz/fuzz_targets.hpp) over its seed corpus
# (tests/fuzz/corpus/<target>/) and the inputs that once crashed it
# (tests/fuzz/regressions/<target>/); the config target also over configs/.
#   $1 gpusynth_fuzz_replay, $2 the source tree
set -eu
replay=$1
source_dir=$2
for corpus in "$source_dir"/tests/fuzz/corpus/*/; do
  target=$(basename "$corpus")
  inputs=("$corpus")
  [ -d "$source_dir/tests/fuzz/regressions/$target" ] && inputs+=("$source_dir/tests/fuzz/regressions/$target")
  [ "$target" = config ] && inputs+=("$source_dir/configs")
  "$replay" "$target" "${inputs[@]}"
done
