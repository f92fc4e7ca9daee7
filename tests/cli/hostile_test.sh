#!/usr/bin/env bash
# Hostile input and failure paths (issue 25), through the real binary: outputs
# that are not regular files, a full disk, damaged traces, values out of
# range, ambiguous configs, signals on fit, stale temporary files. Every case
# must end with exit 2 (or 130 for a signal), one clear line, no crash, and
# nothing written or replaced.
set -u
source "$(dirname "$0")/lib.sh"

cat >"$tmp/small.yaml" <<'EOF'
seed: 1
backend: cpu
output: small.h5
ensembles:
  - {name: a, model: stable, params: {alpha: 1.5, beta: 0.5}, replicas: 200, length: 4096}
EOF
counts=$(cd "$data" && pwd)/cloudphysics_per_second.counts
no_temporaries() {  # directory what
  ! ls -a "$1" | grep -q '\.tmp-' || fail "$2 left a temporary file: $(ls -a "$1" | grep '\.tmp-')"
}
one_clean_line() {  # what: stderr is one gpusynth error line, without HDF5's own diagnostics
  grep -q "HDF5-DIAG" "$tmp/stderr" && fail "$1: HDF5's diagnostics were printed"
  [ "$(grep -c . "$tmp/stderr")" -eq 1 ] || fail "$1: expected one line on stderr: $(head -c 600 "$tmp/stderr")"
}

# 1. Outputs that are not regular files are refused before any work, and stay
#    what they were; a symlink is written through (the link stays a link).
out=$tmp/outputs
mkdir -p "$out"
mkfifo "$out/fifo"
if mknod "$out/null" c 1 3 2>/dev/null; then have_device=1; else
  have_device=0
  echo "note: mknod is not permitted here; the character-device cases are skipped"
fi
ln -s fifo "$out/link-to-fifo"
for target in fifo link-to-fifo null .; do
  [ "$target" = null ] && [ "$have_device" -eq 0 ] && continue
  path=$out/$target
  expect_rc 2 "run -o $target" "$gpusynth" "$tmp/small.yaml" -q -o "$path"
  expect_in "$tmp/stderr" "replaces only regular files" "run -o $target says what it is"
  expect_rc 2 "stats -o $target" "$gpusynth" stats "$counts" --format counts --bin 1s -o "$path"
  expect_rc 2 "fit -o $target" "$gpusynth" fit "$counts" --format counts --bin 1s --models normal -o "$path"
done
[ -p "$out/fifo" ] || fail "the FIFO was replaced"
[ -L "$out/link-to-fifo" ] || fail "the link to the FIFO was replaced"
[ "$have_device" -eq 0 ] || [ -c "$out/null" ] || fail "the character device was replaced"
ln -s real.h5 "$out/link.h5"
expect_rc 0 "run through a symlink" "$gpusynth" "$tmp/small.yaml" -q -o "$out/link.h5"
[ -L "$out/link.h5" ] && [ -f "$out/real.h5" ] || fail "a symlink output must be written through, the link kept"
no_temporaries "$out" "the output checks"

# 2. A full disk: one line with the path and errno, no crash, nothing left.
#    An injected write failure everywhere (RLIMIT_FSIZE with SIGXFSZ ignored
#    makes write(2) fail with EFBIG), and a real ENOSPC on a small tmpfs where
#    mounting is permitted.
limited() { (trap '' XFSZ; ulimit -f 64; "$@"); }
full=$tmp/full
mkdir -p "$full"
for level in 0 1; do
  sed "s/^seed: 1/seed: 1\ncompression: $level/" "$tmp/small.yaml" >"$tmp/level$level.yaml"
  expect_rc 2 "run on a full disk (compression $level)" limited "$gpusynth" "$tmp/level$level.yaml" -q -o "$full/r.h5"
  expect_in "$tmp/stderr" "cannot write '$full/r.h5': File too large (errno 27)" "run write error names path and errno"
  one_clean_line "run on a full disk (compression $level)"
done
expect_rc 2 "stats -o on a full disk" limited "$gpusynth" stats "$data/atlas10k_latency.series.gz" --format series \
  -o "$full/s.h5"
expect_in "$tmp/stderr" "cannot write '$full/s.h5'" "stats write error names the path"
one_clean_line "stats -o on a full disk"
# No file may be written at all here, so the messages go through a pipe.
(trap '' XFSZ; ulimit -f 0; "$gpusynth" fit "$counts" --format counts --bin 1s --models normal -o "$full/f.yaml" \
  2>&1 >/dev/null) | cat >"$tmp/stderr"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 2 ] || fail "fit -o on a full disk: exit $rc"
expect_in "$tmp/stderr" "cannot write '$full/f.yaml'" "fit write error names the path"
[ -z "$(ls -A "$full")" ] || fail "a failed write left files: $(ls -A "$full")"
mkdir -p "$tmp/tmpfs"
if mount -t tmpfs -o size=1m tmpfs "$tmp/tmpfs" 2>/dev/null; then
  expect_rc 2 "run on a full tmpfs" "$gpusynth" "$tmp/level1.yaml" -q -o "$tmp/tmpfs/r.h5"
  expect_in "$tmp/stderr" "No space left on device (errno 28)" "ENOSPC is named"
  one_clean_line "run on a full tmpfs"
  [ -z "$(ls -A "$tmp/tmpfs")" ] || fail "ENOSPC left files: $(ls -A "$tmp/tmpfs")"
  umount "$tmp/tmpfs"
else
  echo "note: mounting a tmpfs is not permitted here; the ENOSPC case is covered by the injected failure only"
fi

# 3. Damaged traces that crashed or were read short.
zcat "$data/mpi-io-test.parser.txt.gz" | sed 's/\(POSIX_F_READ_END_TIMESTAMP\t\)[0-9.]*/\11e308/' >"$tmp/far.darshan"
expect_rc 2 "darshan timestamp 1e308 (stats)" "$gpusynth" stats "$tmp/far.darshan" --format darshan --bin 1s
expect_in "$tmp/stderr" "bins" "darshan span is checked"
expect_rc 2 "darshan timestamp 1e308 (fit)" "$gpusynth" fit "$tmp/far.darshan" --format darshan --bin 1s
seq 1 300 | gzip >"$tmp/whole.gz"
head -c 300 "$tmp/whole.gz" >"$tmp/cut.gz"
expect_rc 2 "truncated gzip" "$gpusynth" stats "$tmp/cut.gz" --format timestamps --bin 1s
expect_in "$tmp/stderr" "truncated" "truncated gzip is named"

# 4. Values out of range are user errors (exit 2), never internal ones.
{ seq 1 100; echo 1e308; seq 1 100; } >"$tmp/huge.counts"
expect_rc 2 "stats on values near 1e308" "$gpusynth" stats "$tmp/huge.counts" --format counts --bin 1s
expect_in "$tmp/stderr" "out of range; accepted: |value| <" "the accepted range is named"
expect_rc 2 "fit on values near 1e308" "$gpusynth" fit "$tmp/huge.counts" --format counts --bin 1s -o "$tmp/huge.yaml"
[ ! -e "$tmp/huge.yaml" ] || fail "fit wrote a config from values out of range"
for name in . .. .hidden; do
  sed "s/name: a,/name: '$name',/" "$tmp/small.yaml" >"$tmp/name.yaml"
  expect_rc 2 "ensemble named '$name'" "$gpusynth" "$tmp/name.yaml" -q -o "$tmp/name.h5"
  expect_in "$tmp/stderr" "name.yaml:5:" "the name's line is given"
done
expect_rc 2 "output under /proc" "$gpusynth" "$tmp/small.yaml" -q -o /proc/gpusynth-test.h5
expect_in "$tmp/stderr" "cannot create a file in '/proc'" "an uncreatable output is a user error"

# 5. Ambiguous configs and options are refused.
{ echo "seed: 1"; cat "$tmp/small.yaml"; } >"$tmp/twice.yaml"
expect_rc 2 "a key given twice" "$gpusynth" "$tmp/twice.yaml" --dry-run
expect_in "$tmp/stderr" "twice.yaml:2:1: the key 'seed' appears twice in the file (first on line 1)" "duplicate key"
sed 's/beta: 0.5}/beta: 0.5, alpha: 1.2}/' "$tmp/small.yaml" >"$tmp/twice.yaml"
expect_rc 2 "a parameter given twice" "$gpusynth" "$tmp/twice.yaml" --dry-run
{ cat "$tmp/small.yaml"; printf -- '---\nseed: 2\n'; } >"$tmp/two.yaml"
expect_rc 2 "two YAML documents" "$gpusynth" "$tmp/two.yaml" --dry-run
expect_in "$tmp/stderr" "a config is one document" "extra documents"
for seed in -5 1e23 18446744073709551616 0x10 " 7"; do
  expect_rc 2 "--seed '$seed'" "$gpusynth" "$tmp/small.yaml" --dry-run --seed "$seed"
  expect_rc 2 "fit --seed '$seed'" "$gpusynth" fit "$counts" --format counts --bin 1s --seed "$seed"
done
expect_rc 0 "--seed 2^64-1" "$gpusynth" "$tmp/small.yaml" --dry-run --seed 18446744073709551615
expect_rc 2 "a directory as the config" "$gpusynth" "$tmp"
expect_in "$tmp/stderr" "is a directory" "a directory is named as such"

# 6. Signals stop fit like run: exit 130, nothing written.
for signal in INT TERM; do
  "$gpusynth" fit "$data/atlas10k_latency.series.gz" --format series --models hmm --hmm-states 3 --hmm-starts 20 \
    -o "$tmp/signal.yaml" >/dev/null 2>"$tmp/stderr" &
  pid=$!
  sleep 1
  kill -"$signal" "$pid"
  wait "$pid"
  rc=$?
  [ "$rc" -eq 130 ] || fail "fit on SIG$signal: exit $rc, expected 130"
  [ ! -e "$tmp/signal.yaml" ] || fail "fit wrote its output after SIG$signal"
done
no_temporaries "$tmp" "an interrupted fit"

# 7. Temporary files of a dead process of this host that carry gpusynth's mark
#    (the extended attribute user.gpusynth) are removed by the next run; those of
#    a live one, and a user's file that only has such a name, are not (issue 56).
sleep 0 &
dead=$!
wait "$dead"
sleep 0 &
dead_too=$!
wait "$dead_too"
host_tag=$(hostname | tr -c 'A-Za-z0-9.\n-' '_')
stale=$out/.fresh.h5.tmp-$host_tag-$dead
live=$out/.fresh.h5.tmp-$host_tag-$$
users=$out/.fresh.h5.tmp-$host_tag-$dead_too
touch "$stale" "$live"
echo mine >"$users"
mark() { /usr/bin/python3 -c 'import os, sys; [os.setxattr(p, "user.gpusynth", b"staged output") for p in sys.argv[1:]]' "$@"; }
if mark "$stale" "$live" 2>/dev/null; then
  expect_rc 0 "run beside stale temporary files" "$gpusynth" "$tmp/small.yaml" -q -o "$out/fresh.h5"
  [ ! -e "$stale" ] || fail "the temporary file of a dead process was kept"
  [ -e "$live" ] || fail "the temporary file of a live process was removed"
  expect_in "$tmp/stderr" "removed '$stale', left by process $dead of this host" "the removal is reported"
  [ "$(cat "$users" 2>/dev/null)" = mine ] || fail "a user's file with a temporary's name was removed"
  expect_in "$tmp/stderr" "left '$users' as it is: .* not gpusynth's mark" "the unmarked file is named"
else
  echo "note: this file system keeps no user extended attributes; the removal of marked temporaries is not tried"
fi
rm -f "$live" "$stale" "$users"

# 8. Dataset errors name the config's line and key; an impossible length is
#    refused at once, also with --dry-run.
cat >"$tmp/study.yaml" <<EOF
seed: 1
output: study.h5
datasets:
  - {name: web, trace: $counts, format: counts, bin: 1parsec}
models: [normal]
EOF
expect_rc 2 "dataset with a bad bin" "$gpusynth" "$tmp/study.yaml" --dry-run
expect_in "$tmp/stderr" "study.yaml:4:.*datasets\[0\].bin '1parsec'" "the bin error names line and key"
sed -i "s|trace: $counts|trace: missing.counts|; s/1parsec/1s/" "$tmp/study.yaml"
expect_rc 2 "dataset with a missing trace" "$gpusynth" "$tmp/study.yaml" --dry-run
expect_in "$tmp/stderr" "study.yaml:4: datasets\[0\] ('web'): .*missing.counts: cannot open" "missing trace"
: >"$tmp/empty.counts"
sed -i "s|trace: missing.counts|trace: $tmp/empty.counts|" "$tmp/study.yaml"
expect_rc 2 "dataset with an empty trace" "$gpusynth" "$tmp/study.yaml" --dry-run
expect_in "$tmp/stderr" "study.yaml:4: datasets\[0\] ('web'): .*no counts" "an empty trace names the dataset's line"
sed 's/length: 4096/length: 1099511627776/' "$tmp/small.yaml" >"$tmp/long.yaml"
expect_rc 2 "length 2^40 (dry run)" timeout 10 "$gpusynth" "$tmp/long.yaml" --dry-run
expect_in "$tmp/stderr" "one replica needs at least" "length 2^40 is refused by its size"

# 8. A stage that fails (an internal error inside it, as a failing library call
#    would raise: GPUSYNTH_FAULT, host/base/fault_injection.hpp) ends the run with
#    exit 1 and one line naming the stage, and leaves no output and no temporary
#    file; `deflate` fails inside the writer's OpenMP loop, on one of its threads.
mkdir -p "$tmp/stages"
every_stage_config "$tmp/stages/stages.h5" >"$tmp/stages/stages.yaml"
for stage in generate deflate study requests bursts; do
  expect_rc 1 "a fault in $stage" env OMP_NUM_THREADS=2 GPUSYNTH_FAULT=$stage timeout 60 "$gpusynth" bursts "$tmp/stages/stages.yaml" -q
  expect_in "$tmp/stderr" "internal error: $stage fault injected by GPUSYNTH_FAULT" "the fault in $stage is named"
  [ ! -e "$tmp/stages/stages.h5" ] || fail "a fault in $stage left stages.h5"
  no_temporaries "$tmp/stages" "a fault in $stage"
done
# A fault in the third batch of 16, while the second batch's write is in flight (GPUSYNTH_FAULT=STAGE#N:
# the N-th call faults; the progress shows two batches done): the write ends before the batch
# buffers are freed, and nothing is left.
cat >"$tmp/stages/batches.yaml" <<YAML
seed: 3
output: $tmp/stages/batches.h5
ensembles:
  - {name: big, model: fgn, params: {H: 0.7}, replicas: 600, length: 65536, dtype: float64}
YAML
expect_rc 1 "a fault in the third batch" env GPUSYNTH_FAULT='generate#3' timeout 60 "$gpusynth" \
  "$tmp/stages/batches.yaml" --memory-limit 256MiB
expect_in "$tmp/stderr" "progress: *12.7% big" "two batches (76 of 600 replicas) before the fault"
expect_in "$tmp/stderr" "internal error: generate fault injected by GPUSYNTH_FAULT" "the fault in the third batch is named"
[ ! -e "$tmp/stages/batches.h5" ] || fail "a fault in the third batch left batches.h5"
no_temporaries "$tmp/stages" "a fault in the third batch"
expect_rc 0 "the same run without a fault" timeout 120 "$gpusynth" bursts "$tmp/stages/stages.yaml" -q
[ -s "$tmp/stages/stages.h5" ] || fail "the run without a fault wrote no stages.h5"

finish "hostile"
