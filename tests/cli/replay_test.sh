#!/usr/bin/env bash
# Replay fidelity from the command line (docs/requests.md, "Replay fidelity"):
# the shipped recipe configs/replay.yaml (the mpi-io-test trace scaled to 4 KiB
# requests, a Markov arrival model fitted to it, 8 replicas timed by it)
# replayed by fio into a temporary directory: the original's replays do its
# data operations exactly, every figure is finite and stored; the same
# replicas replayed without their timing (fio's replay_no_stall) score a
# clearly lower band coverage and a larger replay error. Then the estimate
# (--dry-run), the refusal when the target lacks space, and bad input, each
# exit 2 with nothing written. Skipped without fio.
set -u
source "$(dirname "$0")/lib.sh"
if ! command -v fio >/dev/null; then
  echo "SKIP: fio is not installed (Debian: apt-get install fio; the README's install command has it)"
  exit 77
fi
config=$source_dir/configs/replay.yaml
mkdir -p "$tmp/target"

expect_rc 0 "replay --dry-run" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/dry.h5" --dry-run
expect_in "$tmp/stdout" "replay 'mpi-io-test': 2 replays of the original (32 processes, about 14 s each, writing up to .*) and 8 of replicas" "the estimate"
expect_in "$tmp/stdout" "free there; about 2.3 min in all" "the total estimate"
expect_in "$tmp/stdout" "^fio: /.*/fio (fio-" "the plan names fio, found once, as an absolute path, and its version"
[ ! -e "$tmp/dry.h5" ] || fail "--dry-run wrote its output"
expect_rc 0 "replay --dry-run --json" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/dry.h5" --dry-run --json
/usr/bin/python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["dry_run"] is True and any("replay" in l for l in j["plan"]), j' \
  "$tmp/stdout" || fail "--dry-run --json is not the plan as JSON: $(head -c 300 "$tmp/stdout")"

# Found in the plan, before any work (issue 56): bins beyond bound or budget, more processes than
# fio runs, a user's gpusynth-replay in the target, an empty --bin.
start=$(date +%s)
expect_rc 2 "replay --bin 1ns" timeout 60 "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/x.h5" --bin 1ns
expect_in "$tmp/stderr" "--bin 1e-09 s gives .* bins over the .* s of the replays of .mpi-io-test. (twice the longest expected); accepted: at most 1e+08 bins" "the bins are bounded"
expect_rc 2 "replay --bin 1us" timeout 60 "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/x.h5" --bin 1us --memory-limit 64MiB
expect_in "$tmp/stderr" "bins for each of the 10 replays of 'mpi-io-test' take about .* of memory, more than the budget of 64.0 MiB" "the bins' memory is planned"
[ $(($(date +%s) - start)) -le 30 ] || fail "the bins were refused only after $(($(date +%s) - start)) s"
expect_rc 2 "replay --bin ''" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/x.h5" --bin ''
expect_in "$tmp/stderr" "--bin" "an empty --bin is refused"
mkdir "$tmp/target/gpusynth-replay" && echo mine >"$tmp/target/gpusynth-replay/mine.txt"
expect_rc 2 "a user's gpusynth-replay in the target" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/x.h5" --dry-run
expect_in "$tmp/stderr" "gpusynth-replay' exists and is not a replay directory gpusynth wrote" "the user's folder is named"
[ "$(cat "$tmp/target/gpusynth-replay/mine.txt")" = mine ] || fail "the user's gpusynth-replay was changed"
rm -r "$tmp/target/gpusynth-replay"
sed -e 's/^    overrides:.*$/    processes: 5000/' -e "s|\.\./tests/data|$(cd "$data" && pwd)|g" "$config" >"$tmp/many.yaml"
expect_rc 2 "5000 processes" "$gpusynth" replay "$tmp/many.yaml" --target "$tmp/target" -o "$tmp/x.h5" --dry-run
expect_in "$tmp/stderr" "a replica has 5000 processes and one fio runs at most 4096 jobs" "fio's job limit"
[ ! -e "$tmp/x.h5" ] || fail "a refused replay wrote its output"

# The replays run before the output is staged (issue 56): fio (here through a script that lists the
# output's folder first) never runs while the run's temporary file of the output is there.
mkdir -p "$tmp/out"
printf '#!/bin/sh\nls -A "%s" >>"%s"\necho "-- fio $*" >>"%s"\nexec "%s" "$@"\n' "$tmp/out" "$tmp/fio-saw" "$tmp/fio-saw" \
  "$(command -v fio)" >"$tmp/watching-fio"
chmod +x "$tmp/watching-fio"
expect_rc 0 "replay the recipe" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/out/timed.h5" \
  --fio "$tmp/watching-fio"
cp "$tmp/stdout" "$tmp/timed.txt"
mv "$tmp/out/timed.h5" "$tmp/timed.h5"
[ "$(grep -c "^-- fio .*replay.fio" "$tmp/fio-saw")" -eq 10 ] || fail "fio did not run the 10 replays: $(head -c 300 "$tmp/fio-saw")"
grep -q "^\.timed\.h5\.tmp-" "$tmp/fio-saw" && fail "fio ran while the output was staged: $(grep tmp- "$tmp/fio-saw" | head -3)"
expect_in "$tmp/stderr" "replay 10/10 of 'mpi-io-test': replica 7" "progress"
# The replicas' spread, fitted from mpi-io-test's 3 repeated block writes and reads (df 4), is said to be weak.
expect_in "$tmp/stderr" "warning: requests 'mpi-io-test': the replicas' spread is fitted from the few repeated phases of one trace (validity weak): the log SD of a phase's span, 0.0202 ± 0.0071, from 4 degrees of freedom$" \
  "the spread's weak fit is warned"
expect_in "$tmp/timed.txt" "band coverage" "the summary"
[ -z "$(ls -A "$tmp/target")" ] || fail "the replays left files in the target: $(ls -A "$tmp/target")"
# The file holds what a run without replays writes: the same ensembles and requests.
expect_rc 0 "the recipe without its replays" "$gpusynth" "$config" -o "$tmp/plain.h5"
for object in /ensembles /requests; do
  same_h5 "$tmp/timed.h5" "$tmp/plain.h5" "$object" >"$tmp/diff" || fail "$object differs from a run without replays: $(cat "$tmp/diff")"
done
# fio named relative to the working directory: found once and run as an absolute path.
mkdir -p "$tmp/bin" && ln -s "$(command -v fio)" "$tmp/bin/fio"
(cd "$tmp" && "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/untimed.h5" --original-replays 1 \
  --synthetic-fio-option=--replay_no_stall=1 --fio bin/fio) >"$tmp/stdout" 2>"$tmp/stderr" ||
  fail "a replay with a relative --fio: $(tail -c 400 "$tmp/stderr")"
grep -q "bytes replay error" "$tmp/timed.txt" && fail "a verdict on the bytes, equal by construction"
expect_in "$tmp/timed.txt" "the replayer (//TRACE's figure: the original's replay against the traced run): run time .* s against .* s" "the replayer's figure"
expect_in "$tmp/timed.txt" "the synthesis (the replicas against the original's replay): run time error" "the synthesis' figure"
expect_in "$tmp/timed.txt" "band coverage of the .* busy bins" "busy-bin coverage first"
# The headline says what it measured (issue 58): the target's file system, each figure against the
# system's own noise, the figures in the units of the plots, and its warnings as the file holds them.
expect_in "$tmp/timed.txt" "^  target $tmp/target: $(findmnt -n -o FSTYPE -T "$tmp/target") on .*, mounted at $(findmnt -n -o TARGET -T "$tmp/target") (" \
  "the target's file system, as findmnt sees it"
expect_in "$tmp/timed.txt" "^  figure .* own  in own " "the in-own column"
expect_in "$tmp/timed.txt" "^  throughput  *MiB/s " "throughput in MiB/s"
expect_in "$tmp/timed.txt" "^  latency_median  *µs " "latencies in µs"
expect_in "$tmp/timed.txt" "the original as one more replica: KS throughput per bin, median over the replicas .* between two replicas (median .*, 28 pairs) and .* between the original's two replays: exchangeable \(yes\|no\)" "the exchangeability figure"

/usr/bin/python3 - "$tmp/timed.h5" "$tmp/untimed.h5" "$data/mpi-io-test.dxt.txt.gz" \
  "$(findmnt -n -o FSTYPE,SOURCE,TARGET -T "$tmp/target")" "$tmp/timed.txt" >"$tmp/check" 2>&1 <<'PY' || fail "replay figures: $(cat "$tmp/check")"
import gzip, sys
import h5py, numpy as np

# The trace's data requests scaled as the config scales them (sizes and offsets / 4096, at least 1 byte).
reads = writes = expected_bytes = 0
with gzip.open(sys.argv[3], "rt") as f:
    for line in f:
        fields = line.split()
        if line.startswith("#") or len(fields) < 8 or fields[0] != "X_POSIX":
            continue  # the MPI-IO records hold the POSIX calls sanitization folds into them
        size = int(fields[5])
        expected_bytes += max(1, round(size / 4096))
        reads += fields[2] == "read"
        writes += fields[2] == "write"
assert (reads, writes) == (128, 192), (reads, writes)

def load(path):
    with h5py.File(path, "r") as f:
        g = f["replay/mpi-io-test"]
        figures = {n.decode(): row for n, row in zip(g["figures"]["figure"], g["figures"][()])}
        for name, d in g.items():
            if isinstance(d, h5py.Dataset) and d.dtype.kind in "fiu" and name not in ("original_data_operation_ratio", "synthetic_data_operation_ratio"):
                assert np.all(np.isfinite(d[()])), f"{name} has non-finite values"
        assert g["synthetic_throughput"].shape[0] == 8 and g["original_throughput"].shape[0] in (1, 2)
        assert g["synthetic_throughput"].attrs["units"] == "B/s"
        assert g["time"].attrs["units"] == "s"
        return dict(g.attrs), figures

timed, tf = load(sys.argv[1])
untimed, uf = load(sys.argv[2])
# The target's file system as findmnt (util-linux, from the same mountinfo) sees it.
fstype, source, target = sys.argv[4].split()
assert (timed["filesystem_type"], timed["filesystem_device"], timed["filesystem_mount_point"]) == (fstype, source, target), \
    (timed["filesystem_type"], timed["filesystem_device"], timed["filesystem_mount_point"], sys.argv[4])
assert "rw" in timed["filesystem_mount_options"].split(","), timed["filesystem_mount_options"]
# The warnings the table printed are the file's.
printed = [line.strip()[len("warning: "):] for line in open(sys.argv[5]) if line.strip().startswith("warning: ")]
assert printed == ([str(timed["warnings"])] if "warnings" in timed else []), (printed, timed.get("warnings"))
print("warnings:", timed.get("warnings", "none"))
# Provenance (issue 56): the fio that replayed, its version.
for attrs in (timed, untimed):
    assert str(attrs["fio"]).startswith("fio-"), attrs["fio"]
# The replayer's own figure against the traced run (issue 61): the trace's last end and throughput,
# and the original's replay within the 4096x shrinking's distortion of them.
assert 10 < timed["trace_run_time"] < 20, timed["trace_run_time"]
for key in ("replayer_run_time_error", "replayer_throughput_error"):
    assert 0 <= timed[key] < 0.5, f"{key} = {timed[key]}"
assert abs(timed["replayer_run_time_error"] - abs(tf["run_time"]["original"] - timed["trace_run_time"]) / timed["trace_run_time"]) < 1e-12
for name in ("reads", "writes", "bytes"):
    want = {"reads": reads, "writes": writes, "bytes": expected_bytes}[name]
    for replay in ("original", "original_again"):
        assert tf[name][replay] == want, f"the original's {replay} did {tf[name][replay]} {name}, the trace {want}"
    assert tf[name]["synthetic_mean"] == want, f"replicas did {tf[name]['synthetic_mean']} {name}, the trace {want}"
for key in ("coverage", "coverage_low", "coverage_high", "busy_coverage", "cumulative_coverage", "ks_throughput", "ks_latency", "ks_throughput_floor",
            "ks_latency_floor", "replica_coverage", "original_again_coverage"):
    assert np.isfinite(timed[key]), f"{key} = {timed[key]}"
for name, row in tf.items():
    for field in ("original", "original_again", "synthetic_mean", "synthetic_low", "synthetic_high", "replay_error",
                  "replay_error_low", "replay_error_high", "noise_error"):
        assert np.isfinite(row[field]), f"{name}.{field} = {row[field]}"
    assert 1 <= row["original_rank"] <= 9 and row["original_rank"] * 2 == round(row["original_rank"] * 2), \
        f"{name}: the original's rank among 8 replicas is {row['original_rank']}"
# The original as one more replica (issue 57): 28 pairs of 8 replicas, the verdict from the three figures
# (as far from the replicas as two of them are from each other, or as its own two replays).
assert timed["ks_throughput_replica_pairs"] == 28, timed["ks_throughput_replica_pairs"]
assert 0 <= timed["ks_throughput_replicas_median"] <= timed["ks_throughput_replicas_p95"] <= 1
spread = max(timed["ks_throughput_replicas_p95"], timed["ks_throughput_floor"])  # replayed twice: a floor
verdict = "yes" if timed["ks_throughput_median"] <= spread else "no"
assert timed["exchangeable"] == verdict, (timed["exchangeable"], verdict)
# The metric tells good from bad: without their timing the same replicas end in a burst.
t_run, u_run = tf["run_time"]["replay_error"], uf["run_time"]["replay_error"]
assert u_run > 0.5 and u_run > 2 * t_run, f"run-time replay error: timed {t_run:.3f}, untimed {u_run:.3f}"
assert uf["run_time"]["replay_error_low"] > tf["run_time"]["replay_error_high"], "intervals overlap"
# The bytes done by each bin's end leave the band of replicas that run ahead of their time, and the
# bursts the original does at its times fall outside their band. (The coverage over all bins cannot
# tell: most bins of this trace are idle, and an idle bin is inside any band that holds 0.)
for key, margin in (("cumulative_coverage", 0.3), ("busy_coverage", 0.1)):
    assert untimed[key] < timed[key] - margin, f"{key}: timed {timed[key]:.3f}, untimed {untimed[key]:.3f}"
print(" ".join(f"{key}: timed {timed[key]:.3f}, untimed {untimed[key]:.3f};" for key in
               ("coverage", "busy_coverage", "cumulative_coverage", "ks_throughput")) +
      f" run-time error: timed {t_run:.3f}, untimed {u_run:.3f}")
PY
cat "$tmp/check"
/usr/bin/python3 "$source_dir/tests/cli/xarray_groups_check.py" "$tmp/timed.h5" \
  replay/mpi-io-test=time,replica,original_replay,probability,figure >"$tmp/check" 2>&1 ||
  fail "xarray on the replay output: $(cat "$tmp/check")"
expect_rc 0 "the report of a replay" "$gpusynth" report "$tmp/timed.h5" -o "$tmp/report"
for image in replay_mpi-io-test_over_time.png replay_mpi-io-test_latency.png; do
  [ -s "$tmp/report/$image" ] || fail "the report has no $image"
done
expect_in "$tmp/report/report.md" "band coverage of all the original's bins, idle ones included" "the report's fidelity table"
expect_in "$tmp/report/report.md" "The target's file system: $(findmnt -n -o FSTYPE -T "$tmp/target") on " "the report names the file system"
expect_in "$tmp/report/report.md" "| latency_median | µs |" "the report's latencies in µs"
/usr/bin/python3 "$source_dir/tests/cli/report_figures_check.py" "$tmp/report" replay_ >"$tmp/check" 2>&1 ||
  fail "the replay's figures: $(cat "$tmp/check")"
expect_in "$tmp/report/report.md" "| run_time | s |" "the report's figures table"

# The space: 4000 processes of 16 MiB requests need hundreds of GiB; refused before any work, with the numbers.
sed -e 's/^    overrides:.*$/    processes: 4000/' -e 's/^    replicas: 8 .*$/    replicas: 1/' \
  -e "s|\.\./tests/data|$(cd "$data" && pwd)|g" -e 's/^replicas: 8/replicas: 1/' "$config" >"$tmp/huge.yaml"
expect_rc 2 "a target without the space" "$gpusynth" replay "$tmp/huge.yaml" --target "$tmp/target" -o "$tmp/huge.h5"
expect_in "$tmp/stderr" "needs up to .* [GT]iB (its writes in whole 4096-byte blocks, and its logs), but the file system has .* free" "the refusal names the numbers"
[ ! -e "$tmp/huge.h5" ] || fail "a refused replay wrote its output"

# Bad input: exit 2, nothing written.
expect_rc 2 "a target that does not exist" "$gpusynth" replay "$config" --target "$tmp/none" -o "$tmp/x.h5"
expect_in "$tmp/stderr" "--target '$tmp/none' is not a directory" "the missing target is named"
expect_rc 2 "an unknown entry" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/x.h5" --entry nope
expect_in "$tmp/stderr" "--entry 'nope'.*accepted: mpi-io-test" "the entries are listed"
expect_rc 2 "no fio" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/x.h5" --fio "$tmp/no-fio"
expect_in "$tmp/stderr" "--fio '$tmp/no-fio' is not an executable file" "the missing fio is named"
expect_rc 2 "a config without requests" "$gpusynth" replay "$source_dir/configs/quickstart.yaml" --target "$tmp/target" -o "$tmp/x.h5"
expect_in "$tmp/stderr" "no 'requests:' section" "the missing section is named"
expect_rc 2 "fio refusing an option" "$gpusynth" replay "$config" --target "$tmp/target" -o "$tmp/x.h5" \
  --fio-option=--no-such-option=1
expect_in "$tmp/stderr" "fio failed in a replay folder of --target '$tmp/target' (exit status 1; .* free there; the folder is removed):" "fio's failure is reported with its message"
[ ! -e "$tmp/x.h5" ] || fail "a failed replay wrote its output"
[ -z "$(ls -A "$tmp/target")" ] || fail "a failed replay left files in the target: $(ls -A "$tmp/target")"
finish "cli.replay"
