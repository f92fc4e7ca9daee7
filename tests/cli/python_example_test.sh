#!/usr/bin/env bash
# docs/examples/python_acf.py runs as a user would run it (fit, generate,
# ACF figure), with 20 replicas instead of 1000 and its figure in a temporary
# directory. Skipped when the Python module is not built.
set -u
source "$(dirname "$0")/lib.sh"
use_python_module "$@"
expect_rc 0 "example" env GPUSYNTH_EXAMPLE_REPLICAS=20 GPUSYNTH_EXAMPLE_FIGURE="$tmp/acf.png" \
  /usr/bin/python3 "$source_dir/docs/examples/python_acf.py"
expect_in "$tmp/stdout" "series-lfsn: replicas × bins: (20, 7201), uint32" "the replicas generated"
[ -s "$tmp/acf.png" ] || fail "no figure at $tmp/acf.png"
finish "python_example"
