#!/usr/bin/env bash
# docs/examples/python_acf.py runs as a user would run it (fit, generate,
# ACF figure), with 20 replicas instead of 1000, from a copy of the source tree
# (the script, the traces) whose docs/images holds the tracked figure: a plain
# run writes out/examples/ and leaves docs/images alone, --refresh-docs
# replaces its figure. Skipped when the Python module is not built.
set -u
source "$(dirname "$0")/lib.sh"
use_python_module "$@"
tree=$tmp/tree
mkdir -p "$tree/docs/examples" "$tree/docs/images" "$tree/tests"
cp "$source_dir/docs/examples/python_acf.py" "$tree/docs/examples/"
ln -s "$data" "$tree/tests/data"
echo "the tracked figure" >"$tree/docs/images/python-acf.png"
expect_rc 0 "example" env GPUSYNTH_EXAMPLE_REPLICAS=20 /usr/bin/python3 "$tree/docs/examples/python_acf.py"
expect_in "$tmp/stdout" "series-lfsn: replicas × bins: (20, 7201), uint32" "the replicas generated"
[ -s "$tree/out/examples/python-acf.png" ] || fail "no figure at out/examples/python-acf.png"
[ "$(cat "$tree/docs/images/python-acf.png")" = "the tracked figure" ] || fail "a plain run replaced docs/images"
expect_rc 0 "example --refresh-docs" env GPUSYNTH_EXAMPLE_REPLICAS=20 /usr/bin/python3 \
  "$tree/docs/examples/python_acf.py" --refresh-docs
expect_in "$tmp/stdout" "wrote .*/tree/docs/images/python-acf.png" "--refresh-docs names the tracked figure"
[ "$(head -c 4 "$tree/docs/images/python-acf.png" | tail -c 3)" = PNG ] || fail "--refresh-docs left docs/images alone"
finish "python_example"
