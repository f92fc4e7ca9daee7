#!/usr/bin/env bash
# The report in a real browser (docs/studies.md, "The report"): headless Chromium opens the
# report of a study with a boundary fit, and of a run with a study, requests and bursts;
# tests/cli/report_check.py checks that no console error was logged, that every figure is in
# the page and not blank, that every SVG axis label carries a unit, and that the boundary fit's
# caveat is shown. The screenshots are kept in BUILD/test-artifacts. Skipped without chromium.
set -u
source "$(dirname "$0")/lib.sh"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (Debian: chromium; the README's install command has it)"
  exit 77
fi
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars)
if ! timeout 60 "$browser" "${flags[@]}" --dump-dom about:blank >"$tmp/blank" 2>"$tmp/blank.log"; then
  echo "SKIP: $browser does not start headless here: $(tail -2 "$tmp/blank.log")"
  exit 77
fi
artifacts=$3/test-artifacts
mkdir -p "$artifacts"
traces=$(cd "$data" && pwd)
cat >"$tmp/study.yaml" <<YAML
seed: 4
output: $tmp/study.h5
datasets:
  - {name: cloudphysics, trace: $traces/cloudphysics_per_second.counts, format: counts, bin: 1s}
models: [lfsn, normal]
replicas: 20
compare: {bootstrap: {resamples: 200}}
YAML
every_stage_config "$tmp/all.h5" >"$tmp/all.yaml"
expect_rc 0 "a study with a boundary fit" "$gpusynth" "$tmp/study.yaml" -q
expect_rc 0 "a run with a study, requests and bursts" "$gpusynth" bursts "$tmp/all.yaml" -q
view() {  # name results.h5 text...
  local name=$1 results=$2; shift 2
  expect_rc 0 "report $name" "$gpusynth" report "$results" -o "$tmp/$name"
  local page="file://$tmp/$name/index.html"
  timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom \
    "$page" >"$tmp/$name.dom" 2>"$tmp/$name.log" || fail "chromium could not load the report of $name"
  timeout 120 "$browser" "${flags[@]}" --window-size=1280,6000 --screenshot="$artifacts/report-$name.png" \
    "$page" >/dev/null 2>>"$tmp/$name.log" || fail "chromium could not screenshot the report of $name"
  /usr/bin/python3 "$source_dir/tests/cli/report_check.py" "$tmp/$name" "$tmp/$name.dom" "$tmp/$name.log" \
    "$artifacts/report-$name.png" "$@" >"$tmp/check" 2>&1 || fail "the report of $name: $(cat "$tmp/check")"
  cat "$tmp/check"
}
view study "$tmp/study.h5" "caveat: ensemble cloudphysics-lfsn is a boundary fit" "Fitted models: estimates"
view all "$tmp/all.h5" "Where these results come from" "Requests r" "job-normal"
finish "cli.report_browser"
