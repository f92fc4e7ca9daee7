#!/usr/bin/env bash
# MPI ranks (docs/scale-out.md): the same config under mpirun -np 1, 2 and 3
# (3 splits 101 replicas unevenly, across chunks and batches) writes datasets
# and ensembles bit-identical to the serial run's, a comparison study its
# /compare and tables, and a burst analysis its /bursts; a config error is reported
# once and every rank exits 2; kill -9 of one rank ends the job with nothing at
# the output path. Skipped (exit 77) when gpusynth was built without MPI.
set -u
source "$(dirname "$0")/lib.sh"

if ! "$gpusynth" --version | grep -q "MPI ("; then
  echo "SKIPPED: this gpusynth was built without MPI (openmpi-bin, libopenmpi-dev, libhdf5-openmpi-dev)"
  exit 77
fi
# Open MPI refuses root without --allow-run-as-root, and more ranks than cores without --oversubscribe.
launch=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)

cat >"$tmp/ranks.yaml" <<YAML
seed: 4
output: $tmp/serial.h5
datasets:
  - {name: cp, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
ensembles:
  - {name: big, model: lfsn, params: {alpha: 1.6, H: 0.8}, replicas: 101, length: 20000, workload: {v: 3, delta: 20, values: counts}}
  - {name: fgn, model: fgn, params: {H: 0.75}, replicas: 10, length: 3000, dtype: float64}
  - {name: small, model: stable, params: {alpha: 1.2}, replicas: 2, length: 100}
YAML
expect_rc 0 "serial run" "$gpusynth" "$tmp/ranks.yaml" --memory-limit 16MiB -q
for np in 1 2 3; do
  expect_rc 0 "mpirun -np $np" "${launch[@]}" -np "$np" "$gpusynth" "$tmp/ranks.yaml" -o "$tmp/np$np.h5" --memory-limit 16MiB
  expect_in "$tmp/stderr" "wrote $tmp/np$np.h5" "rank 0 reports the write"
  [ "$(grep -c "^wrote " "$tmp/stderr")" -eq 1 ] || fail "np $np: one report, not one per rank"
  for group in /ensembles /datasets; do
    same_h5 "$tmp/serial.h5" "$tmp/np$np.h5" "$group" >"$tmp/diff" 2>&1 ||
      fail "np $np: $group differs from the serial run: $(head -c 300 "$tmp/diff")"
  done
done

# A config error: reported once, every rank exits 2, nothing written.
sed 's/alpha: 1.2/alpha: 2.5/' "$tmp/ranks.yaml" >"$tmp/bad.yaml"
expect_rc 2 "a bad parameter under mpirun" "${launch[@]}" -np 2 "$gpusynth" "$tmp/bad.yaml" -o "$tmp/bad.h5"
[ "$(grep -c "gpusynth: error:" "$tmp/stderr")" -eq 1 ] || fail "the config error is not reported exactly once: $(cat "$tmp/stderr")"
[ ! -e "$tmp/bad.h5" ] || fail "a failed run left $tmp/bad.h5"

# A comparison study: every rank compares its replicas, rank 0 gathers and
# summarises; /compare and the printed tables are the serial run's.
expect_rc 0 "serial study" "$gpusynth" "$source_dir/tests/cli/study.yaml" -o "$tmp/study1.h5" -q
cp "$tmp/stdout" "$tmp/tables1"
for np in 2 3; do
  expect_rc 0 "study under mpirun -np $np" "${launch[@]}" -np "$np" "$gpusynth" "$source_dir/tests/cli/study.yaml" \
    -o "$tmp/study$np.h5" -q
  cmp -s "$tmp/tables1" "$tmp/stdout" || fail "np $np: the study tables differ from the serial run's"
  for group in /ensembles /datasets /compare; do
    same_h5 "$tmp/study1.h5" "$tmp/study$np.h5" "$group" >"$tmp/diff" 2>&1 ||
      fail "study np $np: $group differs from the serial run: $(head -c 300 "$tmp/diff")"
  done
done

# Bursts: the Monte Carlo's 7 replicas split across 2 and 3 ranks (unevenly), the
# real series on rank 0: the same /bursts, every replica's figures.
cat >"$tmp/bursts.yaml" <<YAML
seed: 9
output: $tmp/bursts.h5
datasets:
  - {name: job, trace: $data/dxt.parser.txt.gz, format: darshan, bin: 1s, series: bytes_read}
models: [markov]
replicas: 7
bursts:
  - {name: read, dataset: job, horizons: [1s, 2s], bootstrap: {resamples: 50}, augment: {replicas: 2},
     scheduling: {min_time: 2s, max_time: 6s, window: 8}}
YAML
expect_rc 0 "serial bursts" "$gpusynth" bursts "$tmp/bursts.yaml" -q
for np in 2 3; do
  expect_rc 0 "bursts under mpirun -np $np" "${launch[@]}" -np "$np" "$gpusynth" bursts "$tmp/bursts.yaml" \
    -o "$tmp/bursts$np.h5" -q
  for group in /ensembles /bursts; do
    same_h5 "$tmp/bursts.h5" "$tmp/bursts$np.h5" "$group" >"$tmp/diff" 2>&1 ||
      fail "bursts np $np: $group differs from the serial run: $(head -c 300 "$tmp/diff")"
  done
done
# Requests (every rank makes its share of the replicas and writes their rows
# into the shared file; rank 0 the names, attributes and texts): 7 replicas of
# the mpi-io-test path at 2000 processes (several blocks of 8192 requests
# each), timed by an ensemble's counts, with the DXT text of replica 4; 5 by
# the trace's phases (the default), 5 by slack; and 5 with more shared files
# than the characteristics have, whose
# drawn names differ between replicas (the table's `files` grows from replica
# to replica, so the ranks' names must merge in replica order): under 2 and 3
# ranks the serial /requests and text, to the bit.
cat >"$tmp/requests.yaml" <<YAML
seed: 12
output: $tmp/req.h5
ensembles:
  - {name: arrivals, model: lfsn, params: {alpha: 1.6, beta: 0.5, H: 0.8, m: 16, K: 128}, replicas: 7, length: 64,
     workload: {v: 40.0, delta: 250.0, values: counts}}
requests:
  - {name: timed, trace: $data/mpi-io-test.dxt.txt.gz, format: dxt, counters: $data/mpi-io-test.parser.txt.gz,
     processes: 2000, replicas: 7, timing: {ensemble: arrivals, bin: 50ms}, emit: {dxt: req.dxt, replica: 4}}
  - {name: phased, trace: $data/mpi-io-test.dxt.txt.gz, format: dxt, processes: 3, replicas: 5}
  - {name: slack, trace: $data/mpi-io-test.dxt.txt.gz, format: dxt, processes: 3, replicas: 5, timing: slack}
  - name: drawn
    processes: 3
    replicas: 5
    files: {shared: 6}
    characteristics:
      shared: {files: 2, OT: [1], D: [16], IRG: [0.001], ISG: [1], SIZE: [4096], OFF: [0, 4096], SEQ: [1.0],
               AM: {write_only: 1, read_only: 1}, RT1: {write: 1, read: 1}, ST: [0.0001], data_execution_time: [0.0001]}
YAML
expect_rc 0 "serial requests" "$gpusynth" "$tmp/requests.yaml" -q
mv "$tmp/req.dxt" "$tmp/req1.dxt"
for np in 2 3; do
  expect_rc 0 "requests under mpirun -np $np" "${launch[@]}" -np "$np" "$gpusynth" "$tmp/requests.yaml" \
    -o "$tmp/req$np.h5"
  expect_in "$tmp/stderr" \
    "requests 'timed': [0-9]* requests in 7 replica(s) of 2000 processes, 0 dependency violations, [0-9.]* s on $np MPI ranks" \
    "np $np: the requests counted, made on every rank"
  for group in /ensembles /requests; do
    same_h5 "$tmp/req.h5" "$tmp/req$np.h5" "$group" >"$tmp/diff" 2>&1 ||
      fail "requests np $np: $group differs from the serial run: $(head -c 300 "$tmp/diff")"
  done
  cmp -s "$tmp/req1.dxt" "$tmp/req.dxt" || fail "requests np $np: the DXT text differs from the serial run's"
  rm -f "$tmp/req.dxt"
done
expect_rc 0 "--no-output under mpirun -np 2" "${launch[@]}" -np 2 "$gpusynth" "$tmp/ranks.yaml" -o "$tmp/none.h5" \
  --no-output --memory-limit 16MiB
[ ! -e "$tmp/none.h5" ] || fail "--no-output wrote $tmp/none.h5"

# kill -9 of one rank mid-run: the job ends, nothing at the output path.
sed 's/replicas: 101, length: 20000/replicas: 400, length: 400000/' "$tmp/bad.yaml" | sed 's/alpha: 2.5/alpha: 1.2/' >"$tmp/long.yaml"
"${launch[@]}" -np 2 "$gpusynth" "$tmp/long.yaml" -o "$tmp/killed.h5" >"$tmp/kill.out" 2>&1 &
job=$!
for _ in $(seq 100); do  # wait for both ranks
  [ "$(pgrep -f -- "$tmp/long.yaml -o $tmp/killed.h5" | wc -l)" -ge 3 ] && break
  sleep 0.1
done
sleep 1
victim=$(pgrep -f -- "^$gpusynth $tmp/long.yaml" | tail -1)
[ -n "$victim" ] && kill -9 "$victim"
for _ in $(seq 300); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$job" 2>/dev/null; then
  fail "the job still runs 30 s after one rank was killed"
  kill -9 "$job"
fi
wait "$job" && fail "the job with a killed rank exited 0"
[ ! -e "$tmp/killed.h5" ] || fail "a killed job left $tmp/killed.h5"
# A rank that fails in any stage ends the job within seconds (MPI_Abort; no rank
# left waiting in a collective call), names the rank, and leaves nothing: no
# output, no temporary file. GPUSYNTH_FAULT=STAGE@RANK makes that rank's stage
# throw (host/base/fault_injection.hpp).
every_stage_config "$tmp/stages.h5" >"$tmp/stages.yaml"
listing() { ls -A "$tmp" | grep -E '^(stages\.h5|\.stages\.h5\.tmp)' ; }
faulted_job() {  # FAULT: the job with that fault ends within 30 s, exit 1, leaving nothing
  local fault=$1 start rc took
  rm -f "$tmp/stages.h5"
  start=$(date +%s)
  GPUSYNTH_FAULT=$fault timeout 120 "${launch[@]}" -x GPUSYNTH_FAULT -np 3 "$gpusynth" bursts "$tmp/stages.yaml" -q \
    --memory-limit 16MiB >"$tmp/stdout" 2>"$tmp/stderr"
  rc=$?
  took=$(($(date +%s) - start))
  [ "$rc" -eq 1 ] || fail "fault $fault: exit $rc, expected 1 (an internal error); $(head -c 400 "$tmp/stderr")"
  [ "$took" -le 30 ] || fail "fault $fault: the job took $took s to end"
  [ -z "$(listing)" ] || fail "fault $fault left $(listing)"
}
for fault in generate@1 generate@0 study@2 requests@0 requests@2 request-rows@0 bursts@0 bursts@2; do
  faulted_job "$fault"
  expect_in "$tmp/stderr" "rank ${fault#*@} of 3: internal error: ${fault%@*}" "fault $fault names the rank"
done
# A failure on one rank while the ranks plan (before they agree to go: its node's memory, a
# trace unreadable there, no fio there) is shared: every rank ends at once, rank 0 names it once.
for fault in plan@1 plan@2 plan@0; do
  faulted_job "$fault"
  rank=${fault#*@}
  [ "$rank" = 0 ] && named="internal error: plan fault" || named="internal error: rank $rank of 3: .*plan fault"
  expect_in "$tmp/stderr" "$named" "fault $fault is named"
  [ "$(grep -c "gpusynth: internal error" "$tmp/stderr")" -eq 1 ] || fail "fault $fault: not said exactly once: $(head -c 600 "$tmp/stderr")"
done
# A replay runs fio from one process: under mpirun it is refused before any work, said once.
expect_rc 2 "replay under mpirun" timeout 60 "${launch[@]}" -np 2 "$gpusynth" replay "$tmp/stages.yaml" --target "$tmp"
[ "$(grep -c "gpusynth: error: .*runs fio from one process" "$tmp/stderr")" -eq 1 ] ||
  fail "replay under mpirun: not refused once: $(head -c 600 "$tmp/stderr")"
[ -z "$(listing)" ] || fail "a refused replay under mpirun left $(listing)"
# A config error every rank meets alike after the config is read (the memory
# budget): reported once by rank 0, every rank exits 2, no MPI_Abort.
expect_rc 2 "a budget too small under mpirun" "${launch[@]}" -np 3 "$gpusynth" bursts "$tmp/stages.yaml" --memory-limit 1KiB
[ "$(grep -c "gpusynth: error: .*budget" "$tmp/stderr")" -eq 1 ] ||
  fail "the budget error is not reported exactly once: $(head -c 600 "$tmp/stderr")"
grep -q MPI_ABORT "$tmp/stderr" && fail "a shared config error aborted the job"

# SIGINT to one rank: that rank ends the job (exit 130) within seconds, nothing left.
sed 's/replicas: 60, length: 4000/replicas: 4000, length: 20000/' "$tmp/stages.yaml" >"$tmp/interrupt.yaml"
rm -f "$tmp/stages.h5"
"${launch[@]}" -np 3 "$gpusynth" "$tmp/interrupt.yaml" -q --memory-limit 64MiB >"$tmp/int.out" 2>&1 &
job=$!
for _ in $(seq 300); do  # wait for the ranks to be generating
  [ "$(pgrep -f -- "^$gpusynth $tmp/interrupt.yaml" | wc -l)" -ge 3 ] && break
  sleep 0.1
done
sleep 3
victim=$(pgrep -f -- "^$gpusynth $tmp/interrupt.yaml" | sed -n 2p)
[ -n "$victim" ] && kill -INT "$victim"
start=$(date +%s)
for _ in $(seq 300); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$job" 2>/dev/null; then
  fail "the job still runs 30 s after SIGINT to one rank"
  kill -9 "$job"
fi
wait "$job"
rc=$?
[ "$rc" -eq 130 ] || fail "SIGINT to one rank: exit $rc, expected 130; $(head -c 400 "$tmp/int.out")"
expect_in "$tmp/int.out" "interrupted by signal 2" "SIGINT to one rank is named"
[ -z "$(listing)" ] || fail "SIGINT to one rank left $(listing)"

# SIGINT to mpirun: mpirun sends SIGTERM to every rank and ends the job; the
# ranks remove the shared temporary file in their signal handler (mpirun's
# SIGKILL may come before a batch polls). Open MPI 4.1's mpirun exits 1 when
# it is signalled, whatever its ranks return (docs/scale-out.md).
"${launch[@]}" -np 3 "$gpusynth" "$tmp/interrupt.yaml" -q --memory-limit 64MiB >"$tmp/int.out" 2>&1 &
job=$!
for _ in $(seq 300); do
  [ "$(pgrep -f -- "^$gpusynth $tmp/interrupt.yaml" | wc -l)" -ge 3 ] && break
  sleep 0.1
done
sleep 3
kill -INT "$job"
for _ in $(seq 300); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
kill -0 "$job" 2>/dev/null && { fail "the job still runs 30 s after SIGINT to mpirun"; kill -9 "$job"; }
wait "$job"
[ -z "$(listing)" ] || fail "SIGINT to mpirun left $(listing)"
finish "mpi"
