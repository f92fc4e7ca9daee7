#!/usr/bin/env bash
# The config's schema (host/engine/config_keys.cpp) and what is generated from it: docs/config-keys.md,
# docs/config.schema.json and fuzz/config.dict are what `gpusynth config-schema` prints today (a
# stale copy fails); the JSON Schema is a valid draft 2020-12 schema that every shipped config passes
# and broken copies fail (scripts/config_schema_check.py).
set -u
source "$(dirname "$0")/lib.sh"
for pair in "markdown docs/config-keys.md" "json docs/config.schema.json" "dict fuzz/config.dict"; do
  set -- $pair
  expect_rc 0 "config-schema --format $1" "$gpusynth" config-schema --format "$1"
  diff -q "$tmp/stdout" "$source_dir/$2" >/dev/null ||
    fail "$2 is not current: run \`gpusynth config-schema --format $1 > $2\` ($(diff "$source_dir/$2" "$tmp/stdout" | head -c 300))"
done
expect_rc 2 "an unknown format" "$gpusynth" config-schema --format yaml
expect_in "$tmp/stderr" "json" "the formats are named"

"$gpusynth" config-schema >"$tmp/schema.json"
configs=("$source_dir"/configs/quickstart.yaml "$source_dir"/configs/*.yaml "$source_dir"/tests/cli/study.yaml
  "$source_dir"/tests/fuzz/corpus/config/*.yaml)
/usr/bin/python3 "$source_dir/scripts/config_schema_check.py" "$tmp/schema.json" "${configs[@]}" >"$tmp/check" 2>&1 ||
  fail "the JSON Schema: $(head -c 600 "$tmp/check")"
expect_in "$tmp/check" "configs valid, 6 broken copies refused, 3 dataset variants" "the shipped configs pass and the broken ones fail"
finish "config-schema"
