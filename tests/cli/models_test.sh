#!/usr/bin/env bash
# gpusynth models: every model's parameter table from the registry, and the
# reference docs/models.md holding the same table under a heading per model.
set -u
source "$(dirname "$0")/lib.sh"

doc=$source_dir/docs/models.md
expect_rc 0 "models" "$gpusynth" models
names=$(grep -v '^ ' "$tmp/stdout" | grep -v '^$' | cut -d: -f1)
[ -n "$names" ] || fail "gpusynth models lists no model"
for documented in $(grep -o '^## .*' "$doc" | grep -o '`model: [a-z]*`' | sed 's/`model: \(.*\)`/\1/'); do
  echo "$names" | grep -qx "$documented" || fail "docs/models.md describes model: $documented, which is not registered"
done
for name in $names; do
  grep -q "^## .*\`model: $name\`" "$doc" || fail "docs/models.md has no heading for model: $name"
  "$gpusynth" models "$name" --markdown | sed -n '/^| key |/,/^$/p' | sed '/^$/d' >"$tmp/table.md"
  [ -s "$tmp/table.md" ] || fail "no Markdown table for $name"
  /usr/bin/python3 - "$doc" "$tmp/table.md" "$name" <<'PY' || fail "docs/models.md's table of $name is not the registry's (gpusynth models $name --markdown)"
import sys
doc, table, name = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
sys.exit(0 if table in doc else 1)
PY
done
expect_rc 2 "an unknown model" "$gpusynth" models gamma
expect_in "$tmp/stderr" "'gamma' is not a known model" "models names the unknown model"
expect_rc 0 "lfsn's parameters" "$gpusynth" models lfsn
expect_in "$tmp/stdout" "0 < alpha <= 2" "the accepted range of a parameter"
# Help that cites an equation names its source (authors, year), not "eq. (4)" alone.
expect_rc 0 "every model's help" "$gpusynth" models
bare=$(grep -E "\beqs?\. " "$tmp/stdout" | grep -vE "\b(19|20)[0-9]{2}\b")
[ -z "$bare" ] || fail "help that cites an equation without its authors and year: $bare"

finish "models"
