#!/usr/bin/env bash
# The source rules of scripts/check_layers.py: the folders include only
# downwards; HDF5 only in io/; every HDF5 call under the library's lock; no
# process-wide mutable state outside a run's execution context. The check must
# also fail when it should: each kind of breach planted in a copy of the tree
# is named with its file and line.
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

# plant FILE TEXT EXPECTED: TEXT appended to FILE in a fresh copy fails the check, naming EXPECTED.
plant() {
  rm -rf "$tmp/tree"
  mkdir -p "$tmp/tree"
  cp -r "$source_dir/host" "$source_dir/kernels" "$source_dir/estimators" "$source_dir/io" "$tmp/tree/"
  printf '%s\n' "$2" >>"$tmp/tree/$1"
  expect_rc 1 "'$2' planted in $1" $check "$tmp/tree"
  expect_in "$tmp/stdout" "$1:[0-9]* $3" "the planted breach is named"
}
plant host/engine/run.cpp '#include <hdf5.h>' "uses HDF5 (#include <hdf5.h>)"
plant host/requests/synthesize.cpp 'void planted(hid_t file);' "uses HDF5 (hid_t)"
plant host/app/report.cpp 'void planted() { H5Fflush(0, H5F_SCOPE_LOCAL); }' "uses HDF5 (H5Fflush"
plant io/ensemble_file.cpp 'void planted(hid_t f) { H5Fflush(f, H5F_SCOPE_LOCAL); }' "calls HDF5 (H5Fflush) without the library's lock"
plant io/hdf5.cpp 'hid_t planted_type() { return H5T_NATIVE_INT; }' "calls HDF5 (H5T_NATIVE_INT) without"
# The process-wide precision and lanes this context replaced, and a function's counter.
plant host/engine/precision.cpp 'MathPrecision precision_in_use = MathPrecision::accurate;' \
  "defines process-wide mutable state 'precision_in_use'"
plant host/engine/cpu/lanes.cpp 'CpuLanes lanes_now = CpuLanes::none;' "defines process-wide mutable state 'lanes_now'"
plant estimators/hurst.cpp $'int planted() {\n  static int calls = 0;\n  return ++calls;\n}' \
  "defines process-wide mutable state 'calls'"
plant kernels/launch.hpp 'inline std::uint64_t planted_total{0};' "defines process-wide mutable state 'planted_total'"
plant host/base/progress.cpp 'static void (*planted_hook)(int) = nullptr;' "defines process-wide mutable state 'planted_hook'"
# An out-of-line static member (issue 56: it passed unreported).
plant host/base/progress.cpp 'int Progress::planted_count = 0;' "defines process-wide mutable state 'Progress::planted_count'"
# Constants are not state, however they are qualified.
rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
cp -r "$source_dir/host" "$source_dir/kernels" "$source_dir/estimators" "$source_dir/io" "$tmp/tree/"
printf 'inline constexpr int kPlanted = 3;\nstatic inline const char* const kAlsoPlanted = "x";\n' >>"$tmp/tree/host/base/ranks.hpp"
expect_rc 0 "constants planted in host/base/ranks.hpp" $check "$tmp/tree"

finish "layers"
