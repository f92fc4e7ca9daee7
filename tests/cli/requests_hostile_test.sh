#!/usr/bin/env bash
# The failure paths of request synthesis (docs/requests.md, "Memory, signals
# and the outputs as one unit"), through the real binary: memory planned and
# refused before any work (--memory-limit, ulimit -v), SIGINT/SIGTERM within a
# second, the HDF5 file and the fio/DiskSim/DXT texts of a run as one unit
# (every path checked first, nothing or everything written), values out of
# range in `characteristics` and timing, damaged DXT traces, exact offsets,
# and a trace typo that fails before the ensembles. Every heavy case runs
# under a memory cap and a kill timeout, so that an old binary fails it
# without taking the machine.
set -u
source "$(dirname "$0")/lib.sh"

capped() { (ulimit -v 3000000; timeout -s KILL "$@"); }  # seconds, command...
no_temporaries() {  # directory what
  ! ls -A "$1" | grep -q '\.tmp-' || fail "$2 left a temporary: $(ls -A "$1" | grep '\.tmp-')"
}
absent() {  # what paths...: none of them may exist
  local what=$1; shift
  for p in "$@"; do [ -e "$p" ] && fail "$what: '$(basename "$p")' was written"; done
}

# A config of given characteristics (docs/requests.md): its output out.h5 and the
# emitted texts beside it, in the config's folder; the emit key is on line 9.
given() {  # file emit [processes]
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<EOF
seed: 7
output: $(dirname "$1")/out.h5
requests:
  - name: given
    processes: ${3:-4}
    characteristics:
      shared: {files: 2, OT: [1, 2], D: [4, 8], IRG: [1], ISG: [1, 3], SIZE: [4096], OFF: [0, 4096], SEQ: [1.0],
               AM: {write_only: 3, read_only: 1}, RT1: {write: 3, read: 1}, ST: [0.001], data_execution_time: [0.0001]}
    emit: {$2}
EOF
}

# --- A. Memory planned before any work, with --memory-limit honoured; signals within a second.
# A replica the DXT text comes from is held whole: 1.8e7 requests cannot be.
given "$tmp/a/m.yaml" "dxt: m.txt" 1000000
SECONDS=0
expect_rc 2 "10^6 processes held for a text under ulimit -v 3 GB are refused" capped 30 "$gpusynth" "$tmp/a/m.yaml"
expect_in "$tmp/stderr" "m.yaml:4: requests\[0\] ('given'): about .* replica 0 held whole for the text outputs.* of memory .* more than the budget of .*ulimit -v" \
  "the refusal gives the numbers and the budget"
[ "$SECONDS" -le 5 ] || fail "10^6 processes: refused after $SECONDS s, not before the work"
absent "10^6 processes" "$tmp/a/out.h5" "$tmp/a/m.txt"
# Without a text every replica is written as it is made: 10^5 processes (1.8e6 requests, about
# 440 MiB if held) run under `ulimit -v` 400 MB, and take little more memory than 10^4 processes.
given "$tmp/a/s4.yaml" "" 10000
given "$tmp/a/s5.yaml" "" 100000
sed -i "s|$tmp/a/out.h5|$tmp/a/s5.h5|" "$tmp/a/s5.yaml"
expect_rc 0 "10^5 processes streamed under ulimit -v 400 MB" \
  bash -c "ulimit -v 400000; exec timeout -s KILL 60 \"$gpusynth\" \"$tmp/a/s5.yaml\""
expect_in "$tmp/stderr" "requests 'given': 1800000 requests in 1 replica(s) of 100000 processes, 0 dependency" \
  "10^5 processes: every request made"
peak_mib() {  # config: the run's peak resident memory, MiB
  /usr/bin/python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$gpusynth" "$1" -q
}
small=$(peak_mib "$tmp/a/s4.yaml") && large=$(peak_mib "$tmp/a/s5.yaml") || fail "the streamed runs failed"
# 9e4 more ranks: their (rank, file) dependency states and file ids, well under 64 MiB; held whole
# the replica would take 1.6e6 · 256 B = 390 MiB more.
[ $((large - small)) -lt 64 ] || fail "10^5 processes took $large MiB, 10^4 took $small MiB: not streamed"
rm -f "$tmp/a/s5.h5" "$tmp/a/out.h5"
given "$tmp/a/l.yaml" "" 10000
expect_rc 2 "--memory-limit is honoured" capped 30 "$gpusynth" "$tmp/a/l.yaml" --memory-limit 1MiB
expect_in "$tmp/stderr" "more than the budget of 1.0 MiB (--memory-limit)" "--memory-limit named"
absent "--memory-limit" "$tmp/a/out.h5"
expect_rc 0 "--dry-run plans the requests" capped 30 "$gpusynth" "$tmp/a/l.yaml" --dry-run --memory-limit 1GiB
expect_in "$tmp/stdout" "requests 'given': about .* requests .* (10000 processes)" "the plan shows the requests"
sed 's/files: 2,/files: 10000000,/' "$tmp/a/l.yaml" >"$tmp/a/files.yaml"
SECONDS=0
expect_rc 2 "10^7 files are refused before any work" capped 10 "$gpusynth" "$tmp/a/files.yaml"
expect_in "$tmp/stderr" "1e+07 files" "the files are counted"
[ "$SECONDS" -le 5 ] || fail "10^7 files: refused after $SECONDS s"
sed 's/D: \[4, 8\]/D: [100000000]/' "$tmp/a/l.yaml" >"$tmp/a/d.yaml"
expect_rc 2 "a huge D is refused before any work" capped 10 "$gpusynth" "$tmp/a/d.yaml"
expect_in "$tmp/stderr" "more than the budget" "a huge D: the budget named"
# The sessions of 200000 files placed one by one: long work, little memory.
cat >"$tmp/a/slow.yaml" <<EOF
seed: 7
output: $tmp/a/slow.h5
requests:
  - name: slow
    processes: 1
    characteristics:
      shared: {files: 200000, OT: [1], D: [2], IRG: [1], ISG: [1], SIZE: [4096], OFF: [0], RT1: {write: 1}}
EOF
for signal in TERM INT; do
  (ulimit -v 3000000; exec "$gpusynth" "$tmp/a/slow.yaml") >"$tmp/stdout" 2>"$tmp/stderr" &
  pid=$!
  sleep 0.5
  kill -"$signal" "$pid"
  for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    fail "SIG$signal during the synthesis: still running 2 s later"
  fi
  wait "$pid"
  rc=$?
  [ "$rc" -eq 130 ] || fail "SIG$signal during the synthesis: exit $rc, expected 130"
  expect_in "$tmp/stderr" "nothing was written" "SIG$signal: nothing written"
  absent "SIG$signal during the synthesis" "$tmp/a/slow.h5"
done
no_temporaries "$tmp/a" "the signals"

# --- B. The outputs of a run as one unit: every path checked before any work.
b=$tmp/b
given "$b/same.yaml" "disksim: out.h5"
expect_rc 2 "an emit path that is the HDF5 output" "$gpusynth" "$b/same.yaml"
expect_in "$tmp/stderr" "same.yaml:9:.*output '.*out.h5' and requests\[0\] ('given').emit.disksim .* the same file" \
  "the collision names both paths"
absent "emit onto the output" "$b/out.h5"
given "$b/twice.yaml" "disksim: t.txt, dxt: t.txt"
expect_rc 2 "disksim and dxt on one path" "$gpusynth" "$b/twice.yaml"
expect_in "$tmp/stderr" "emit.disksim .* and .*emit.dxt .* are the same file" "disksim and dxt collide"
absent "disksim and dxt on one path" "$b/out.h5" "$b/t.txt"
given "$b/config.yaml" "dxt: config.yaml"
expect_rc 2 "an emit path that is the config" "$gpusynth" "$b/config.yaml"
expect_in "$tmp/stderr" "an output may not replace an input" "the config is an input"
given "$b/inside.yaml" "fio: f, disksim: f/d.txt"
mkdir -p "$b/f" && touch "$b/f/.gpusynth-replay"  # a replay folder of an earlier run
expect_rc 2 "a text inside the fio folder" "$gpusynth" "$b/inside.yaml"
expect_in "$tmp/stderr" "is inside .*emit.fio" "inside the fio folder"
mkfifo "$b/fifo"
ln -s fifo "$b/link-to-fifo"
mkdir -p "$b/folder" "$b/foreign"
echo keep >"$b/foreign/keep"
for emit in "disksim: fifo" "dxt: link-to-fifo" "disksim: folder" "fio: foreign" "fio: fifo" "dxt: missing/x.txt" \
  "fio: missing/deeper/f"; do
  given "$b/kind.yaml" "$emit"
  expect_rc 2 "emit {$emit} is refused" "$gpusynth" "$b/kind.yaml"
  expect_in "$tmp/stderr" "kind.yaml:9:.*requests\[0\] ('given').emit.${emit%%:*} '[^']*${emit#*: }'" \
    "emit {$emit}: path named"
  absent "emit {$emit}: refused before any work" "$b/out.h5" "$b/missing"
done
[ -p "$b/fifo" ] && [ -L "$b/link-to-fifo" ] && [ "$(cat "$b/foreign/keep")" = keep ] || fail "a refused target changed"
given "$b/empty.yaml" "fio: ''"
expect_rc 2 "emit {fio: ''} is an error" "$gpusynth" "$b/empty.yaml"
expect_in "$tmp/stderr" "empty.yaml:9:.*emit.fio is empty" "the empty fio path located"
# A fio folder left by a SIGKILLed run (old name NAME.tmp-PID, new .NAME.tmp-HOST-PID) is removed
# when it carries gpusynth's marker; a user's folder of such a name without it is kept (issue 56).
dead=400000
while kill -0 "$dead" 2>/dev/null; do dead=$((dead + 1)); done
host=$(hostname | sed 's/[^A-Za-z0-9.-]/_/g')
mkdir -p "$b/stale/f.tmp-$dead" "$b/stale/.f.tmp-$host-$dead" "$b/stale/d.txt.tmp-$dead" "$b/stale/f.tmp-$dead.old"
echo log >"$b/stale/f.tmp-$dead/rank_0.iolog"
touch "$b/stale/f.tmp-$dead/.gpusynth-replay" "$b/stale/.f.tmp-$host-$dead/.gpusynth-replay"
echo mine >"$b/stale/f.tmp-$dead.old/mine.txt"
echo mine >"$b/stale/d.txt.tmp-$dead/mine.txt"
given "$b/stale/s.yaml" "fio: f, disksim: d.txt, dxt: x.txt"
expect_rc 0 "a run beside stale fio folders" "$gpusynth" "$b/stale/s.yaml"
absent "stale fio folders of dead processes" "$b/stale/f.tmp-$dead" "$b/stale/.f.tmp-$host-$dead"
expect_in "$tmp/stderr" "removed '.*f.tmp-$dead'" "the removal is said"
for users in "f.tmp-$dead.old" "d.txt.tmp-$dead"; do
  [ "$(cat "$b/stale/$users/mine.txt" 2>/dev/null)" = mine ] || fail "a user's folder '$users' was removed"
done
expect_in "$tmp/stderr" "left '.*f.tmp-$dead.old' as it is" "the unmarked folder is named"
rm -r "$b/stale/f.tmp-$dead.old" "$b/stale/d.txt.tmp-$dead"
for made in out.h5 f/replay.fio d.txt x.txt; do [ -e "$b/stale/$made" ] || fail "$made was not written"; done
no_temporaries "$b/stale" "a run with texts"

# SIGINT while the texts are written: none of the outputs, no temporaries.
sig=$tmp/sig
given "$sig/s.yaml" "fio: f, disksim: d.txt, dxt: x.txt" 20000
sed -i 's/OT: \[1, 2\], D: \[4, 8\]/OT: [1], D: [1]/' "$sig/s.yaml"
rm -f "$tmp/stderr"
"$gpusynth" "$sig/s.yaml" >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!
# Stopped as soon as the fio folder is being written (the texts take a second more), then signalled.
for _ in $(seq 1000); do ls -A "$sig" | grep -q 'f\.tmp-' && break; sleep 0.005; done
kill -STOP "$pid"
kill -INT "$pid"
kill -CONT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "SIGINT while the texts are written: exit $rc, expected 130"
expect_in "$tmp/stderr" "nothing was written" "SIGINT during the texts: nothing written"
absent "SIGINT while the texts are written" "$sig/out.h5" "$sig/f" "$sig/d.txt" "$sig/x.txt"
no_temporaries "$sig" "SIGINT while the texts are written"

# Read-only and full file systems: tmpfs mounts, as root or in a user and mount namespace.
cat >"$tmp/mounts.sh" <<'EOS'
# $1 gpusynth, $2 the test's folder; prints FAIL lines; runs where it may mount tmpfs.
gpusynth=$1; t=$2
check() { "$@" >"$t/stdout" 2>"$t/stderr"; echo $?; }
m=$t/m
mkdir -p "$m/ro" "$m/full" "$m/small" "$m/two"
mount -t tmpfs -o ro,size=64k tmpfs "$m/ro" && mount -t tmpfs -o size=64k tmpfs "$m/full" &&
  mount -t tmpfs -o size=512k tmpfs "$m/small" && mount -t tmpfs -o size=1088k tmpfs "$m/two" || { echo "SKIP"; exit 0; }
dd if=/dev/zero of="$m/full/filler" bs=4k 2>/dev/null
for emit in "disksim: ro/d.txt" "fio: ro/f" "dxt: full/x.txt"; do
  sed "s|^    emit: .*|    emit: {$emit}|" "$t/base.yaml" >"$m/k.yaml"
  rc=$(check "$gpusynth" "$m/k.yaml" -o "$m/out.h5")
  [ "$rc" -eq 2 ] || echo "FAIL: emit {$emit}: exit $rc, expected 2"
  grep -q "emit.${emit%%:*} '[^']*${emit#*: }'" "$t/stderr" || echo "FAIL: emit {$emit}: the path is not named: $(head -c 300 "$t/stderr")"
  [ -e "$m/out.h5" ] && { echo "FAIL: emit {$emit}: out.h5 was written"; rm -f "$m/out.h5"; }
done
# A disk that fills while the texts are written (the DXT text is 585 KiB, estimated at 451 KiB:
# 512 KiB pass the plan's free-space check, docs/cli.md): nothing at all.
sed "s|dxt: big.dxt|dxt: small/x.dxt|" "$t/big.yaml" >"$m/big.yaml"
rc=$(check "$gpusynth" "$m/big.yaml" -o "$m/out.h5")
[ "$rc" -eq 2 ] || echo "FAIL: a disk that fills during the texts: exit $rc, expected 2"
grep -q "cannot write '.*small/x.dxt': No space left on device (errno 28)" "$t/stderr" ||
  echo "FAIL: a disk that fills: the message: $(head -c 300 "$t/stderr")"
for p in out.h5 bigf big.disksim small/x.dxt; do [ -e "$m/$p" ] && echo "FAIL: a disk that fills: $p was written"; done
ls -A "$m" "$m/small" | grep -q '\.tmp-' && echo "FAIL: a disk that fills: temporaries left"
# A rerun onto a disk that fills keeps the first run's set whole (1088 KiB: the first text leaves
# about 500 KiB, more than the rerun's estimate, less than its text).
sed "s|dxt: big.dxt|dxt: two/x.dxt|" "$t/big.yaml" >"$m/big.yaml"
rc=$(check "$gpusynth" "$m/big.yaml" -o "$m/out.h5")
[ "$rc" -eq 0 ] || echo "FAIL: the first run onto the 1 MiB disk: exit $rc: $(head -c 300 "$t/stderr")"
before=$(cd "$m" && sha256sum two/x.dxt big.disksim bigf/replay.fio)
rc=$(check "$gpusynth" "$m/big.yaml" -o "$m/out.h5" --seed 8)
[ "$rc" -eq 2 ] || echo "FAIL: the rerun onto the full disk: exit $rc, expected 2"
grep -q "No space left on device" "$t/stderr" || echo "FAIL: the rerun: the message: $(head -c 300 "$t/stderr")"
[ "$before" = "$(cd "$m" && sha256sum two/x.dxt big.disksim bigf/replay.fio)" ] || echo "FAIL: the rerun changed the texts"
seed=$(/usr/bin/python3 -c "import h5py,sys; print(h5py.File(sys.argv[1])['/'].attrs['seed'])" "$m/out.h5" 2>&1)
[ "$seed" = 7 ] || echo "FAIL: the rerun onto the full disk left the HDF5 file of seed $seed beside the texts of seed 7"
ls -A "$m" "$m/two" | grep -q '\.tmp-' && echo "FAIL: the rerun left temporaries"
umount "$m/ro" "$m/full" "$m/small" "$m/two" 2>/dev/null
exit 0
EOS
given "$tmp/base.yaml" "disksim: d.txt"
cat >"$tmp/big.yaml" <<'EOF'
seed: 7
output: out.h5
requests:
  - name: given
    processes: 1000
    characteristics:
      shared: {files: 2, OT: [1], D: [1], IRG: [1], ISG: [1], SIZE: [4096], OFF: [0, 4096], RT1: {write: 1}, rank_stride: 4096}
    emit: {fio: bigf, disksim: big.disksim, dxt: big.dxt}
EOF
if [ "$(id -u)" -eq 0 ]; then
  mounts=$(bash "$tmp/mounts.sh" "$gpusynth" "$tmp" 2>&1)
elif unshare -rm true 2>/dev/null; then
  mounts=$(unshare -rm bash "$tmp/mounts.sh" "$gpusynth" "$tmp" 2>&1)
else
  mounts=SKIP
fi
if [ "$mounts" = SKIP ]; then
  echo "SKIP: tmpfs cannot be mounted here: the read-only and full file system checks did not run"
else
  while IFS= read -r line; do
    case $line in FAIL:*) fail "${line#FAIL: }" ;; esac
  done <<<"$mounts"
fi

# --- C. Values the outputs cannot hold: refused where the config says them, or by the synthesis.
c=$tmp/c
given "$c/base.yaml" "disksim: d.txt"
check_config() {  # description sed-expression expected-message
  sed "$2" "$c/base.yaml" >"$c/k.yaml"
  expect_rc 2 "$1" "$gpusynth" "$c/k.yaml"
  expect_in "$tmp/stderr" "k.yaml:[0-9]*:[0-9]*: .*$3" "$1: located, with the accepted range"
  absent "$1" "$c/out.h5" "$c/d.txt"
}
check_config "ST: [1e300]" 's/ST: \[0.001\]/ST: [1e300]/' "ST\[0\] = 1e+300 is out of range; accepted: seconds from 0"
check_config "data_execution_time: [1e300]" 's/data_execution_time: \[0.0001\]/data_execution_time: [1e300]/' \
  "data_execution_time\[0\] = 1e+300 is out of range"
check_config "SIZE: [1e300]" 's/SIZE: \[4096\]/SIZE: [1e300]/' "SIZE\[0\] = 1e+300 is out of range; accepted: bytes from 0 to 2^62"
check_config "OFF: [2^63-1]" 's/OFF: \[0, 4096\]/OFF: [0, 9223372036854775807]/' "OFF\[1\] = .* is out of range"
check_config "OFF: [1e300]" 's/OFF: \[0, 4096\]/OFF: [1e300]/' "OFF\[0\] = 1e+300 is out of range"
check_config "SIZE: {scale: 0}" 's/^    emit:/    overrides: {SIZE: {scale: 0}}\n    emit:/' "SIZE.scale = 0 makes every request 0 bytes"
check_config "a mapping as an RT1 key" 's/RT1: {write: 3, read: 1}/RT1: {{write: 5}: 1}/' "RT1 has a key that is a mapping"
cat >"$c/timed.yaml" <<EOF
seed: 7
output: $c/out.h5
ensembles:
  - {name: counts, model: normal, params: {}, workload: {v: 1, delta: DELTA, values: counts}, replicas: 1, length: 20}
requests:
  - name: timed
    processes: 2
    timing: {ensemble: counts, bin: BIN}
    characteristics:
      shared: {files: 2, OT: [1], D: [3], IRG: [1], ISG: [1], SIZE: [4096], OFF: [0], RT1: {write: 1}}
    emit: {fio: f, disksim: d.txt}
EOF
sed 's/DELTA/10/; s/BIN/10000000000000h/' "$c/timed.yaml" >"$c/k.yaml"
expect_rc 2 "a bin of 10^13 h" "$gpusynth" "$c/k.yaml"
expect_in "$tmp/stderr" "k.yaml:8:.*timing.bin = '10000000000000h' is out of range" "the bin located"
sed 's/DELTA/-1000/; s/BIN/2s/' "$c/timed.yaml" >"$c/k.yaml"
expect_rc 2 "counts that are all 0" "$gpusynth" "$c/k.yaml"
expect_in "$tmp/stderr" "timing: ensemble 'counts', the row of replica 0: the 20 counts are all 0" "zero counts named"
absent "counts that are all 0" "$c/out.h5" "$c/f" "$c/d.txt"
sed 's/shared:/private:/; s/OFF: \[0, 4096\]/OFF: [4000000000000000000]/; s/SIZE: \[4096\]/SIZE: [1000000000000000000]/' \
  "$c/base.yaml" >"$c/k.yaml"
expect_rc 2 "offset + size beyond 2^62" "$gpusynth" "$c/k.yaml"
expect_in "$tmp/stderr" "would reach byte .* beyond 2^62" "offsets are never clipped in silence"
sed 's/ST: \[0.001\]/ST: [1000000]/; s/D: \[4, 8\]/D: [2000]/' "$c/base.yaml" >"$c/k.yaml"
expect_rc 2 "times beyond 10^9 s" "$gpusynth" "$c/k.yaml"
expect_in "$tmp/stderr" "beyond 10^9 s" "the times' limit named"
absent "times beyond 10^9 s" "$c/out.h5" "$c/d.txt"

# --- D. DXT: blocks checked against their counts, offsets read exactly.
d=$tmp/d
mkdir -p "$d"
gunzip -c "$data/mpi-io-test.dxt.txt.gz" >"$d/whole.dxt"
second=$(grep -n '^# DXT, file_id:' "$d/whole.dxt" | sed -n 2p | cut -d: -f1)
third=$(grep -n '^# DXT, file_id:' "$d/whole.dxt" | sed -n 3p | cut -d: -f1)
head -n $((second + 7)) "$d/whole.dxt" >"$d/block.dxt"  # 2 of the block's 8 operations
head -n $((third - 1)) "$d/whole.dxt" >"$d/id.dxt"
sed -n "${third}p" "$d/whole.dxt" | head -c 40 >>"$d/id.dxt"  # "# DXT, file_id: 154408353158767257" cut
head -n "$third" "$d/whole.dxt" >"$d/header.dxt"  # the file_id line, and nothing after it
for cut in block id header; do
  expect_rc 2 "characterize a DXT cut ($cut)" "$gpusynth" characterize "$d/$cut.dxt" --format dxt
  expect_in "$tmp/stderr" "$cut.dxt:[0-9]*:" "a DXT cut ($cut): file and line named"
  expect_rc 2 "stats of a DXT cut ($cut)" "$gpusynth" stats "$d/$cut.dxt" --format dxt --bin 1s
done
expect_rc 2 "characterize a DXT cut inside a block" "$gpusynth" characterize "$d/block.dxt" --format dxt
expect_in "$tmp/stderr" "block.dxt:$((second + 7)):1: the file ends in the block .* says 4 writes and 4 reads, but 2 and 0 were read: the trace is truncated" \
  "the counts of the cut block"
cat >"$d/offsets.dxt" <<'EOF'
# start_time: 0
# DXT, file_id: 1, file_name: /big
# DXT, rank: 0, hostname: h
# DXT, write_count: 2, read_count: 0
 X_POSIX       0  write        0  4611686018427387903               1      0.1000      0.2000
 X_POSIX       0  write        1     9007199254740993               1      0.3000      0.4000
EOF
expect_rc 0 "offsets up to 2^62 - 1 are read" "$gpusynth" characterize "$d/offsets.dxt" --format dxt -o "$d/offsets.h5"
/usr/bin/python3 - "$d/offsets.h5" >"$tmp/h5" 2>&1 <<'EOF' || fail "offsets read exactly: $(cat "$tmp/h5")"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    offsets = sorted(int(o) for o in f["sanitized/requests"]["offset"] if o >= 0)
    assert offsets == [9007199254740993, 4611686018427387903], offsets
EOF
sed 's/4611686018427387903/4611686018427387904/' "$d/offsets.dxt" >"$d/beyond.dxt"
expect_rc 2 "an offset of 2^62" "$gpusynth" characterize "$d/beyond.dxt" --format dxt
expect_in "$tmp/stderr" "beyond.dxt:5:.*from 0 to 2^62 - 1" "2^62 refused with the range"

# --- E. The trace is read before the ensembles; a typo fails at once.
cat >"$tmp/e.yaml" <<EOF
seed: 7
output: out.h5
ensembles:
  - {name: a, model: stable, params: {alpha: 1.5, beta: 0.5}, replicas: 200, length: 4096}
requests:
  - {name: r, trace: $tmp/typo.dxt.txt.gz, format: dxt, processes: 4}
EOF
expect_rc 2 "a missing trace" "$gpusynth" "$tmp/e.yaml" -o "$tmp/e.h5"
expect_in "$tmp/stderr" "e.yaml:6: requests\[0\] ('r'): .*typo.dxt.txt.gz" "the missing trace located"
grep -q "progress" "$tmp/stderr" && fail "a missing trace: the ensembles were generated before it was read"
absent "a missing trace" "$tmp/e.h5"
finish "requests_hostile"
