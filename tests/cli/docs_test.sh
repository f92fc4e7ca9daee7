#!/usr/bin/env bash
# The command line explains itself (docs/cli.md): the option tables of docs/cli.md
# are those of every command's --help (scripts/cli_tables.py --check), docs/code-map.md's
# file tables those of the sources' comments (scripts/code_map.py --check); the top-level
# help prints one Usage naming `gpusynth CONFIG.yaml`; plain `gpusynth` says what it
# takes; `run --version`; the headers of `models`; the units of `norros`; --format told
# from the file and the hint for DXT text given as darshan; --json of fit and of a study.
set -u
source "$(dirname "$0")/lib.sh"
/usr/bin/python3 "$source_dir/scripts/cli_tables.py" "$gpusynth" "$source_dir/docs/cli.md" --check >"$tmp/check" 2>&1 ||
  fail "docs/cli.md: $(cat "$tmp/check")"
# docs/code-map.md's file tables are those of the tracked sources' own leading comments
# (scripts/code_map.py --check); a table with a row taken out is found stale.
if git -C "$source_dir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  /usr/bin/python3 "$source_dir/scripts/code_map.py" "$source_dir" "$source_dir/docs/code-map.md" --check >"$tmp/check" 2>&1 ||
    fail "docs/code-map.md: $(cat "$tmp/check")"
  grep -v '^| `philox.hpp`' "$source_dir/docs/code-map.md" >"$tmp/code-map.md"
  expect_rc 1 "a code map without kernels/philox.hpp's row" /usr/bin/python3 "$source_dir/scripts/code_map.py" "$source_dir" "$tmp/code-map.md" --check
  expect_in "$tmp/stderr" "is not current: run scripts/code_map.py" "the stale map is named"
else
  echo "SKIPPED: docs/code-map.md's check: $source_dir is not a git work tree"
fi

expect_rc 0 "--help" "$gpusynth" --help
[ "$(grep -c "Usage:" "$tmp/stdout")" -eq 1 ] || fail "the top-level help prints $(grep -c "Usage:" "$tmp/stdout") Usage lines"
expect_in "$tmp/stdout" "Usage: gpusynth CONFIG.yaml \[options\]" "the usage names the config form"
expect_in "$tmp/stdout" "replay" "the help lists replay"
expect_rc 2 "plain gpusynth" "$gpusynth"
expect_in "$tmp/stderr" "gpusynth CONFIG.yaml \[options\]   generate what the config describes" "plain gpusynth says the config form"
expect_rc 0 "run --version" "$gpusynth" run --version
expect_in "$tmp/stdout" "^gpusynth " "run --version prints the version"
expect_rc 0 "models" "$gpusynth" models fgn
expect_in "$tmp/stdout" "key (params:) *default *accepted *meaning" "models prints column headers"
expect_rc 0 "norros" "$gpusynth" norros -a 2 -H 0.8
expect_in "$tmp/stdout" "requests per time unit" "norros prints units"

expect_rc 0 "stats without --format (DXT)" "$gpusynth" stats "$data/mpi-io-test.dxt.txt.gz" --bin 50ms
expect_in "$tmp/stderr" "format: dxt (told from the first lines" "the format is told and said"
expect_rc 0 "stats without --format (darshan-parser)" "$gpusynth" stats "$data/dxt.parser.txt.gz" --bin 1s
expect_in "$tmp/stderr" "format: darshan" "darshan-parser text is told"
expect_rc 2 "stats without --format (a counts file)" "$gpusynth" stats "$data/cloudphysics_per_second.counts"
expect_in "$tmp/stderr" "--format is required: the first lines of .* do not tell its format; accepted: blkparse" "the formats are listed"
"$gpusynth" stats "$data/dxt.dxt.txt.gz" --format darshan --bin 1s >"$tmp/stdout" 2>"$tmp/stderr"
expect_in "$tmp/stderr" "hint: .* holds DXT records (darshan-dxt-parser text): --format dxt" "the hint for DXT as darshan"

expect_rc 0 "fit --json" "$gpusynth" fit "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin 50ms --models markov,normal --json
/usr/bin/python3 - "$tmp/stdout" >"$tmp/check" 2>&1 <<'PY' || fail "fit --json: $(cat "$tmp/check")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["dataset"] == "mpi-io-test.dxt.txt.gz" or j["dataset"].startswith("mpi-io-test"), j["dataset"]
assert j["values"] == 258 and abs(j["bin_seconds"] - 0.05) < 1e-12, (j["values"], j["bin_seconds"])
models = {m["model"]: m for m in j["models"]}
assert set(models) == {"markov", "normal"}
normal = models["normal"]
assert normal["validity"] == "ok" and "mu_se" in normal["fit"] or "mean_se" in normal["fit"] or any(k.endswith("_se") for k in normal["fit"]), normal
assert isinstance(models["markov"]["params"], dict)
PY
cat >"$tmp/study.yaml" <<YAML
seed: 3
output: $tmp/study.h5
datasets:
  - {name: d, trace: $(cd "$data" && pwd)/cloudphysics_per_second.counts, format: counts, bin: 1s}
models: [normal]
replicas: 20
compare: {bootstrap: {resamples: 200}}
YAML
expect_rc 0 "a study with --json" "$gpusynth" "$tmp/study.yaml" --json -q
/usr/bin/python3 - "$tmp/stdout" >"$tmp/check" 2>&1 <<'PY' || fail "study --json: $(cat "$tmp/check")"
import json, sys
j = json.load(open(sys.argv[1]))
model = j["study"]["datasets"][0]["models"][0]
assert model["label"] == "normal" and model["replicas"] == 20, model
ks = model["metrics"]["ks"]
assert ks["low"] <= ks["median"] <= ks["high"], ks
assert j["ensembles"][0]["name"] == "d-normal"
PY
finish "cli.docs"
