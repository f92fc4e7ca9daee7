#!/usr/bin/python3
"""Replays gpusynth's fio iologs and checks what fio did against the requests.

    replay_check.py RESULTS.h5 NAME FIO_DIR [--replica R] [--bin SECONDS]
                    [--pace-ms P] [--tolerance-ms D] [--run] [--fio-option=OPTION ...]

RESULTS.h5 holds /requests/NAME (a run of a config with `requests:`); FIO_DIR
is the directory its `emit: {fio: ...}` wrote from replica R (default: the
replica recorded there). With --run the script creates the files, runs fio in
FIO_DIR (--fio-option=--replay_no_stall=1 passes an option) and requires exit 0.
Then it reads fio's latency logs (log_offset=1: completion time in ms from the
job's start, latency in ns, direction, size, offset) and checks, per process:

1. the multiset of (direction, offset, size) equals the requests' exactly;
2. pace: within each process, the time of each request since the process's
   first, as fio issued it (startdelay + completion - latency) and as
   synthesized (or the previous request's completion, when that came later:
   psync issues one request at a time), differ by at most P ms (default 10:
   1 ms for the log's whole milliseconds, about 1 ms of sleep overshoot that
   fio makes up at the next request, and the wait of a woken thread for a CPU
   when many wake at once on a small machine, several ms with Linux's CFS)
   for 99 % of the requests;
3. time: every request against its synthesized time, which adds when fio got
   each process's thread going: at most D ms (default 25: P plus threads
   started one after the other on a busy machine) for 99 % of the requests; and in
   bins of --bin seconds (default: the run's timing bins) each bin's count
   differs from the synthesized count by no more than the number of requests
   within D of its edges.

Exit 0 when every check passes, 1 otherwise (each failure printed).
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

import h5py
import numpy as np


def requests_of(path, name, replica):
    with h5py.File(path, "r") as f:
        group = f["requests"][name]
        table = group["requests"][:]
        classes = [c.decode() for c in group["ops"]["class"][:]]
        bin_width = float(group.attrs["bin_width"]) if "bin_width" in group.attrs else None
    rows = table[table["replica"] == replica]
    data = np.array([classes[o] in ("read", "write") for o in rows["op"]], dtype=bool)
    keep = data & (rows["file"] >= 0) & (rows["offset"] >= 0) & (rows["size"] > 0)
    rows = rows[keep]
    direction = np.array([0 if classes[o] == "read" else 1 for o in rows["op"]], dtype=int)
    return rows, direction, bin_width


def emitted_replica(fio_dir):
    """The replica replay.fio says it holds (its first line: "# requests 'NAME' of CONFIG, replica R, ...")."""
    with open(os.path.join(fio_dir, "replay.fio")) as f:
        match = re.search(r", replica (\d+),", f.readline())
    return int(match.group(1)) if match else 0


def start_delays(fio_dir):
    """rank -> startdelay in seconds, from replay.fio."""
    delays, rank = {}, None
    with open(os.path.join(fio_dir, "replay.fio")) as f:
        for line in f:
            line = line.strip()
            if line.startswith("[rank_"):
                rank = int(line[6:-1])
            elif line.startswith("startdelay=") and rank is not None:
                delays[rank] = float(line.split("=")[1].rstrip("us")) / 1e6
    return delays


def latency_log(fio_dir, rank):
    paths = glob.glob(os.path.join(fio_dir, "lat", f"rank_{rank}_lat.*.log"))
    if not paths:
        return np.zeros((0, 5))
    rows = np.loadtxt(paths[0], delimiter=",", ndmin=2)
    return rows[:, :5] if rows.size else np.zeros((0, 5))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("name")
    parser.add_argument("fio_dir")
    parser.add_argument("--replica", type=int, default=None)
    parser.add_argument("--bin", type=float, default=None)
    parser.add_argument("--tolerance-ms", type=float, default=25.0)
    parser.add_argument("--pace-ms", type=float, default=10.0)
    parser.add_argument("--run", action="store_true")
    parser.add_argument("--fio-option", action="append", default=[], dest="fio_options",
                        help="passed to fio with --run, e.g. --fio-option=--replay_no_stall=1")
    args = parser.parse_args()

    failures = []
    if args.run:
        subprocess.run(["sh", os.path.join(args.fio_dir, "create_files.sh")], check=True)
        done = subprocess.run(["fio", "--output=fio-output.txt", *args.fio_options, "replay.fio"], cwd=args.fio_dir)
        if done.returncode != 0:
            failures.append(f"fio exited with {done.returncode}")

    replica = emitted_replica(args.fio_dir) if args.replica is None else args.replica
    rows, direction, bin_width = requests_of(args.results, args.name, replica)
    bin_width = args.bin or bin_width or 0.1
    delays = start_delays(args.fio_dir)
    tolerance, pace = args.tolerance_ms / 1e3, args.pace_ms / 1e3
    intended, observed, relative, start_skew = [], [], [], []
    mismatched = 0
    for rank in sorted(set(rows["rank"].tolist())):
        mine = rows["rank"] == rank
        expected = collections.Counter(zip(direction[mine].tolist(), rows["offset"][mine].tolist(),
                                           rows["size"][mine].tolist()))
        log = latency_log(args.fio_dir, rank)
        seen = collections.Counter(zip(log[:, 2].astype(int).tolist(), log[:, 4].astype(np.int64).tolist(),
                                       log[:, 3].astype(np.int64).tolist()))
        if seen != expected:
            mismatched += 1
            if mismatched <= 3:
                failures.append(f"rank {rank}: fio did {sum(seen.values())} requests, the log holds "
                                f"{sum(expected.values())}; (direction, offset, size) differ: "
                                f"{list((expected - seen).items())[:2]} missing, {list((seen - expected).items())[:2]} extra")
            continue
        # psync, one request at a time: fio's log is in the iolog's order.
        times = np.sort(rows["time"][mine])
        order = np.argsort(log[:, 0] - log[:, 1] / 1e6, kind="stable")
        completion = delays.get(rank, 0.0) + log[order, 0] / 1e3
        issue = completion - log[order, 1] / 1e9
        intended.append(times)
        observed.append(issue)
        # One request at a time (psync): none can start before the previous completed.
        due = times - times[0]
        due[1:] = np.maximum(due[1:], completion[:-1] - issue[0])
        relative.append((issue - issue[0]) - due)
        start_skew.append(issue[0] - times[0])
    if mismatched:
        failures.append(f"{mismatched} processes' requests differ from what fio did")
    if intended:
        intended = np.concatenate(intended)
        observed = np.maximum(np.concatenate(observed), 0.0)
        error = observed - intended
        relative = np.concatenate(relative)
        start_skew = np.array(start_skew)
        within = np.mean(np.abs(relative) <= pace)
        print(f"timing: {intended.size} requests; within each process, issue time since its first minus when it "
              f"was due: 99th percentile of |error| {np.percentile(np.abs(relative), 99)*1e3:.2f} ms, "
              f"{100*within:.1f} % within {args.pace_ms:g} ms; first requests {np.median(start_skew)*1e3:.2f} ms late "
              f"(median; at most {start_skew.max()*1e3:.2f} ms); all requests: 99th percentile of |error| "
              f"{np.percentile(np.abs(error), 99)*1e3:.2f} ms")
        if within < 0.99:
            failures.append(f"only {100*within:.1f} % of the requests kept their process's pace within "
                            f"{args.pace_ms:g} ms")
        if np.mean(np.abs(error) <= tolerance) < 0.99:
            failures.append(f"only {100*np.mean(np.abs(error) <= tolerance):.1f} % of the requests were issued within "
                            f"{args.tolerance_ms:g} ms of their time")
        bins = int(np.ceil(max(intended.max(), observed.max()) / bin_width)) + 1
        edges = np.arange(bins + 1) * bin_width
        want, _ = np.histogram(intended, edges)
        got, _ = np.histogram(observed, edges)
        # A request within D of an edge may land on either side: it may change both bins' counts.
        home = np.floor(intended / bin_width).astype(int)
        phase = intended - home * bin_width
        near_lower, near_upper = phase <= tolerance, bin_width - phase <= tolerance
        count = lambda index: np.bincount(index[(index >= 0) & (index < bins)], minlength=bins)
        allowance = (count(home[near_lower | near_upper])  # its own, leaving
                     + count(home[near_upper] + 1)         # from the bin before, arriving
                     + count(home[near_lower] - 1))        # from the bin after, arriving
        bad = np.nonzero(np.abs(got - want) > allowance)[0]
        print(f"bins of {bin_width:g} s: {bins} bins, {len(bad)} outside the allowance")
        for k in bad[:5]:
            failures.append(f"bin {k} [{edges[k]:.3f}, {edges[k+1]:.3f}) s: fio issued {got[k]}, the synthesis has "
                            f"{want[k]} (allowance {allowance[k]})")
        if len(bad) > 5:
            failures.append(f"... and {len(bad) - 5} more bins")
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: fio replayed every request, each process's requests equal the log's, and the timing holds")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
