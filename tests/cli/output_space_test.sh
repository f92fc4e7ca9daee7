#!/usr/bin/env bash
# The outputs' own disk space, planned before any work (issue 56, docs/cli.md): a run estimates what
# its HDF5 file and its text outputs take, --dry-run says it, and a run whose outputs cannot fit on
# their file system together is refused (exit 2, the path, the bytes needed and free) before any
# work. The estimates are honest: within a factor 2 of what configs/quickstart.yaml (uncompressed)
# and configs/requests.yaml write, and never below an uncompressed ensembles' file. The small file
# system is a 3 MiB tmpfs: skipped (exit 77) where mounting one is not permitted.
set -u
source "$(dirname "$0")/lib.sh"
traces=$(cd "$data" && pwd)

# What --dry-run says each output takes: "WHAT 'PATH': about N UNIT" → PATH N-in-bytes, one a line.
estimates() {
  /usr/bin/python3 - "$1" <<'PY'
import re, sys
units = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
for line in open(sys.argv[1]):
    m = None if "on one file system" in line else re.match(r"^.*'([^']+)': about ([0-9.]+) (B|KiB|MiB|GiB|TiB)\b", line)
    if m:
        print(m.group(1), float(m.group(2)) * units[m.group(3)])
PY
}
# within ESTIMATE REAL LOW HIGH WHAT: LOW <= ESTIMATE / REAL <= HIGH.
within() {
  echo "$5: estimated $1 bytes, written $2 (ratio $(/usr/bin/python3 -c "print(round($1 / max($2, 1), 3))"))"
  /usr/bin/python3 -c 'import sys; e, r, lo, hi = map(float, sys.argv[1:5]); sys.exit(0 if r > 0 and lo <= e / r <= hi else 1)' \
    "$1" "$2" "$3" "$4" || fail "$5: estimated $1 bytes, written $2 (accepted: $3 to $4 times)"
}
size_of() { du -sb --apparent-size "$1" | cut -f1; }

# Honest estimates. configs/requests.yaml: the file, the fio folder, the DiskSim and DXT texts.
mkdir -p "$tmp/req"
expect_rc 0 "requests --dry-run" "$gpusynth" "$source_dir/configs/requests.yaml" -o "$tmp/req/r.h5" --dry-run
expect_in "$tmp/stdout" "^output '$tmp/req/r.h5': about " "the dry run states the file's size"
expect_in "$tmp/stdout" "emit.dxt '$tmp/req/requests.dxt.txt': about " "the dry run states each text's size"
expect_in "$tmp/stdout" "about .* on one file system, .* free there" "the dry run states the free space"
estimates "$tmp/stdout" >"$tmp/req.estimates"
expect_rc 0 "requests" "$gpusynth" "$source_dir/configs/requests.yaml" -o "$tmp/req/r.h5"
while read -r path estimate; do
  [ -e "$path" ] || { fail "the estimated output $path was not written"; continue; }
  within "$estimate" "$(size_of "$path")" 0.5 2 "configs/requests.yaml's $(basename "$path")"
done <"$tmp/req.estimates"
[ "$(wc -l <"$tmp/req.estimates")" -eq 4 ] || fail "4 outputs estimated: $(cat "$tmp/req.estimates")"
# configs/quickstart.yaml, uncompressed (the ensembles' bytes are then known) and as shipped (deflated:
# the estimate is what the ensembles take uncompressed, an upper bound).
sed 's/^seed: 42/seed: 42\ncompression: 0/' "$source_dir/configs/quickstart.yaml" >"$tmp/quick-raw.yaml"
for name in quick-raw quickstart; do
  config=$tmp/quick-raw.yaml
  [ "$name" = quickstart ] && config=$source_dir/configs/quickstart.yaml
  expect_rc 0 "$name" "$gpusynth" "$config" -o "$tmp/$name.h5" --replicas 200
  [ -s "$tmp/$name.h5" ] || { fail "$name wrote nothing"; continue; }
  expect_rc 0 "$name --dry-run --replicas 200" "$gpusynth" "$config" -o "$tmp/$name.h5" --dry-run --replicas 200
  estimate=$(estimates "$tmp/stdout" | awk '{print $2}')
  if [ "$name" = quick-raw ]; then
    within "$estimate" "$(size_of "$tmp/$name.h5")" 1 1.25 "configs/quickstart.yaml uncompressed"
  else
    within "$estimate" "$(size_of "$tmp/$name.h5")" 1 20 "configs/quickstart.yaml deflated (an upper bound)"
  fi
done

# A small file system: 3 MiB.
mkdir -p "$tmp/small"
if ! mount -t tmpfs -o size=3m gpusynth-test "$tmp/small" 2>/dev/null; then
  echo "SKIP: cannot mount a small tmpfs here (needs root); the estimates were checked"
  [ "$failures" -eq 0 ] && exit 77
  finish "cli.output_space"
fi
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT

# Ensembles of 2.0 MiB uncompressed and requests of about 1.5 MiB beside them: each fits alone, not both.
cat >"$tmp/both.yaml" <<YAML
seed: 3
output: $tmp/small/both.h5
compression: 0
ensembles:
  - {name: noise, model: fgn, params: {H: 0.7}, replicas: 128, length: 4096}
requests:
  - name: r
    trace: $traces/mpi-io-test.dxt.txt.gz
    format: dxt
    processes: 256
    replicas: 3
YAML
start=$(date +%s)
expect_rc 2 "outputs that fit one by one but not together" "$gpusynth" "$tmp/both.yaml"
expect_in "$tmp/stderr" "output '$tmp/small/both.h5': the run's outputs there need about .* but only .* is free on that file system" \
  "the refusal names the path, the bytes needed and free"
grep -q "requests 'r':" "$tmp/stderr" && fail "the refusal came after the requests were synthesized"
[ $(($(date +%s) - start)) -le 20 ] || fail "refused only after $(($(date +%s) - start)) s"
[ -z "$(ls -A "$tmp/small")" ] || fail "a refused run left files: $(ls -A "$tmp/small")"
expect_rc 0 "the same, --dry-run" "$gpusynth" "$tmp/both.yaml" --dry-run
expect_in "$tmp/stdout" "^output '$tmp/small/both.h5': about " "the dry run states what does not fit"

# The file and a text beside it on one file system: each fits alone, not both (the sum per file system).
cat >"$tmp/beside.yaml" <<YAML
seed: 3
output: $tmp/small/beside.h5
compression: 0
ensembles:
  - {name: noise, model: fgn, params: {H: 0.7}, replicas: 64, length: 4096}
requests:
  - name: r
    trace: $traces/mpi-io-test.dxt.txt.gz
    format: dxt
    processes: 1024
    replicas: 1
    emit: {dxt: $tmp/small/beside.dxt.txt}
YAML
expect_rc 2 "a file and a text that fit one by one but not together" "$gpusynth" "$tmp/beside.yaml"
expect_in "$tmp/stderr" "output '$tmp/small/beside.h5', .*emit.dxt '$tmp/small/beside.dxt.txt': the run's outputs there need about .* but only .* is free" \
  "the refusal names both outputs"
grep -q "requests 'r':" "$tmp/stderr" && fail "the refusal came after the requests were synthesized"
[ -z "$(ls -A "$tmp/small")" ] || fail "a refused run left files: $(ls -A "$tmp/small")"

# A text output on the small file system, the file elsewhere: its own estimate refuses it.
cat >"$tmp/text.yaml" <<YAML
seed: 3
output: $tmp/elsewhere.h5
requests:
  - name: r
    trace: $traces/mpi-io-test.dxt.txt.gz
    format: dxt
    processes: 4096
    replicas: 1
    emit: {dxt: $tmp/small/r.dxt.txt}
YAML
expect_rc 2 "a text that does not fit" "$gpusynth" "$tmp/text.yaml"
expect_in "$tmp/stderr" "emit.dxt '$tmp/small/r.dxt.txt': the run's outputs there need about .* but only .* is free" \
  "the refusal names the text"
[ ! -e "$tmp/elsewhere.h5" ] || fail "a refused run wrote its file"
[ -z "$(ls -A "$tmp/small")" ] || fail "a refused run left files: $(ls -A "$tmp/small")"

umount "$tmp/small"
echo "on a 3 MiB tmpfs: a file's parts and a file and a text that fit one by one but not together, and a text too large, refused before any work"
finish "cli.output_space"
