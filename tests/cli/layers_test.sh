#!/usr/bin/env bash
# The folders include only downwards (scripts/check_layers.py): no include from
# io/, estimators/ or kernels/ into the layers above them. The check must also
# fail when it should: an upward include planted in a copy of the tree is named.
set -u
source "$(dirname "$0")/lib.sh"

check="/usr/bin/python3 $source_dir/scripts/check_layers.py"
expect_rc 0 "the source tree's includes" $check "$source_dir"
cat "$tmp/stdout"

# Mutations, one at a time in a copy: io, estimators and kernels reaching up.
for planted in "io/hdf5.hpp:host/engine/config.hpp" "estimators/study.hpp:io/ensemble_file.hpp" \
               "kernels/philox.hpp:estimators/hurst.hpp" "kernels/cuda/launch.cuh:host/models/model.hpp"; do
  file=${planted%%:*}
  include=${planted#*:}
  rm -rf "$tmp/tree"
  mkdir -p "$tmp/tree"
  cp -r "$source_dir/host" "$source_dir/kernels" "$source_dir/estimators" "$source_dir/io" "$tmp/tree/"
  printf '#include "%s"\n' "$include" >>"$tmp/tree/$file"
  expect_rc 1 "an include of $include planted in $file" $check "$tmp/tree"
  expect_in "$tmp/stdout" "$file:[0-9]* includes $include" "the planted include is named"
done

finish "layers"
