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
# The library's few calls in lower case (issue 56: host/app/cli.cpp called H5dont_atexit() unreported).
plant host/app/main.cpp 'void planted() { H5dont_atexit(); }' "uses HDF5 (H5dont_atexit"
plant io/hdf5.cpp 'void planted() { H5open(); }' "calls HDF5 (H5open) without the library's lock"
# io/'s headers, which the other layers include, keep the library out too (issue 56: io/ensemble_file.hpp
# included <hdf5.h> and handed the engine a raw hid_t); only io/'s sources include its two HDF5 headers.
plant io/ensemble_file.hpp '#include <hdf5.h>' "uses HDF5 in a header (#include <hdf5.h>)"
plant io/requests_file.hpp 'hid_t planted_group();' "uses HDF5 in a header (hid_t)"
plant io/parallel_series.hpp '#include "io/hdf5.hpp"' "uses HDF5 in a header (#include \"io/hdf5.hpp\")"
plant host/engine/run.cpp '#include "io/ensemble_hdf5.hpp"' "uses HDF5 (#include \"io/ensemble_hdf5.hpp\")"
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
# A declaration over two lines and a variable of a type defined where it is (issue 56: they passed unreported).
plant host/engine/precision.cpp $'std::map<std::string, int>\n    planted_table;' "defines process-wide mutable state 'planted_table'"
plant host/engine/precision.cpp $'std::uint64_t planted_total =\n    3;' "defines process-wide mutable state 'planted_total'"
plant estimators/hurst.cpp $'struct {\n  int calls = 0;\n} planted_state;' "defines process-wide mutable state 'planted_state'"
plant host/base/progress.cpp 'static struct { int calls; } planted_counter;' "defines process-wide mutable state 'planted_counter'"
plant host/base/progress.cpp $'struct PlantedCounts {\n  int calls = 0;\n} planted_counts;' \
  "defines process-wide mutable state 'planted_counts'"
# Constants are not state, however they are qualified; nor are types, nor declarations of functions over two lines.
rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
cp -r "$source_dir/host" "$source_dir/kernels" "$source_dir/estimators" "$source_dir/io" "$tmp/tree/"
printf 'inline constexpr int kPlanted = 3;\nstatic inline const char* const kAlsoPlanted = "x";\n' >>"$tmp/tree/host/base/ranks.hpp"
printf 'const struct {\n  int a;\n} kPlantedPair{1};\nstruct PlantedType {\n  int a = 0;\n};\nconstexpr std::array<int, 2>\n    kPlantedArray{1, 2};\nstd::vector<double> planted_function(const std::string& name,\n                                     std::uint64_t replica);\n' >>"$tmp/tree/host/base/ranks.hpp"
expect_rc 0 "constants planted in host/base/ranks.hpp" $check "$tmp/tree"

finish "layers"
