#!/usr/bin/python3
"""Replays gpusynth's fio iologs and checks what fio did against the requests.

    replay_check.py RESULTS.h5 NAME FIO_DIR [--replica R] [--bin SECONDS]
                    [--pace-ms P] [--tolerance-ms D] [--run] [--fio-option=OPTION ...]
                    [--json PATH]

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

It also prints the replay's totals, as IOR prints its summary: per direction
the I/Os and bytes fio did, their bandwidth and IOPS over the replay's run
time (from the earliest job start to the last completion), all from the
latency logs; --json PATH writes the totals, the timing figures and the
verdict as JSON.

Exit status: 0 when every check passes; 1 when a check fails (each failure
printed as "FAIL: ..."; fio exiting with a status other than 0 is one); 2 when
the command line or an input is wrong, before anything is checked or run: one
line "replay_check: error: ..." naming the option or file and what is accepted
(an option out of range: --bin, --pace-ms and --tolerance-ms must be positive
numbers; a RESULTS.h5 that is missing, not HDF5, without /requests/NAME or with
request tables that lack their fields or are damaged; a replica that
/requests/NAME does not hold, that replay.fio does not hold, or without data
requests; a FIO_DIR without replay.fio; no latency logs without --run; a
latency log line that is not fio's; with --run, no create_files.sh, sh or fio,
or a create_files.sh that fails); 130 when interrupted (SIGINT, SIGTERM).
"""
import argparse
import collections
import glob
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys

import h5py
import numpy as np

from request_table_checks import request_table_problem

# The fields of a request table that the checks read (docs/requests.md, docs/hdf5.md).
REQUEST_FIELDS = ("replica", "rank", "time", "op", "file", "offset", "size")


class InputError(Exception):
    """A wrong option or input: exit 2, before anything is checked."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own mistakes, as one line and exit 2 like ours
        raise InputError(f"{message} (replay_check.py --help lists the options)")


def requests_of(path, name):
    """The request table of /requests/NAME, its operation classes, bin width and replicas, checked."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: {'is not a regular file' if os.path.exists(path) else 'no such file'}; "
                         "give the HDF5 file written by a run of a config with `requests:`")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise InputError(f"{path}: cannot open as an HDF5 file ({e}); give the file written by a run of a "
                         "config with `requests:`") from None
    with f:
        where = f"{path}: /requests/{name}"
        names = sorted(f["requests"]) if isinstance(f.get("requests"), h5py.Group) else []
        if name not in names:
            accepted = ", ".join(f"'{n}'" for n in names) if names else "none (no /requests group of gpusynth's)"
            raise InputError(f"{path} has no /requests/{name}; the request syntheses it holds: {accepted}")
        tables = {}
        try:
            group = f["requests"][name]
            if not isinstance(group, h5py.Group):
                raise InputError(f"{where} is not a group; gpusynth writes the tables 'requests' and 'ops' in it")
            for key in ("requests", "ops"):
                if key not in group:
                    raise InputError(f"{where} has no '{key}' table; gpusynth writes 'requests' and 'ops' there")
                table = group[key]
                if not isinstance(table, h5py.Dataset):
                    raise InputError(f"{where}/{key} is not a table")
                tables[key] = table[()]
            bin_width = group.attrs.get("bin_width")
            replicas = group.attrs.get("replicas")
        except (KeyError, OSError, ValueError, TypeError) as e:
            raise InputError(f"{where}: cannot read it ({e}); the file is damaged") from None
        table, ops = tables["requests"], tables["ops"]
        missing = [k for k in REQUEST_FIELDS if k not in (table.dtype.names or ())]
        if missing:
            raise InputError(f"{where}/requests has no field{'s' if len(missing) > 1 else ''} "
                             f"{', '.join(missing)}; expected a table of {', '.join(REQUEST_FIELDS)}")
        if table.ndim != 1:
            raise InputError(f"{where}/requests has {table.ndim} dimensions; expected a table (1)")
        if "class" not in (ops.dtype.names or ()):
            raise InputError(f"{where}/ops has no field 'class'; expected a table of (name, class)")
    classes = [c.decode() if isinstance(c, bytes) else str(c) for c in ops["class"]]
    problem = request_table_problem(table, REQUEST_FIELDS, classes, where)
    if problem:
        raise InputError(problem)
    if bin_width is not None:  # the timing bins, the default of --bin
        try:
            bin_width = float(bin_width)
        except (TypeError, ValueError):
            bin_width = float("nan")
        if not (math.isfinite(bin_width) and bin_width > 0):
            bin_width = InputError(f"{where}: attribute 'bin_width' = {bin_width:g} is not a positive width in "
                                   "seconds; give --bin")
    try:
        accepted = range(int(replicas))
    except (TypeError, ValueError):  # not written by gpusynth: the replicas the table holds
        accepted = sorted(set(table["replica"].tolist()))
    return table, classes, bin_width, accepted


def data_requests(table, classes, replica):
    """The data requests of a replica fio replays, and their directions (0 read, 1 write)."""
    rows = table[table["replica"] == replica]
    data = np.array([classes[o] in ("read", "write") for o in rows["op"]], dtype=bool)
    keep = data & (rows["file"] >= 0) & (rows["offset"] >= 0) & (rows["size"] > 0)
    rows = rows[keep]
    direction = np.array([0 if classes[o] == "read" else 1 for o in rows["op"]], dtype=int)
    return rows, direction


def describe(accepted):
    values = list(accepted)
    if not values:
        return "none"
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]} to {values[-1]}" if len(values) > 1 else f"{values[0]}"
    return ", ".join(str(v) for v in values)


def read_replay_fio(fio_dir):
    """(replica named on its first line or None, {rank: startdelay in s}), from FIO_DIR/replay.fio."""
    if not os.path.isdir(fio_dir):
        raise InputError(f"FIO_DIR {fio_dir}: {'is not a directory' if os.path.exists(fio_dir) else 'no such directory'}"
                         "; give the directory the config's `emit: {fio: DIR}` wrote")
    path = os.path.join(fio_dir, "replay.fio")
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror}); FIO_DIR must be the directory the config's "
                         "`emit: {fio: DIR}` wrote") from None
    # Its first line: "# requests 'NAME' of CONFIG, replica R, ...".
    match = re.search(r", replica (\d+),", lines[0]) if lines else None
    delays, rank = {}, None
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if line.startswith("[rank_"):
            if not re.fullmatch(r"\[rank_\d+\]", line):
                raise InputError(f"{path}:{number}: '{line}' is not a job of gpusynth's replay ([rank_N])")
            rank = int(line[6:-1])
        elif line.startswith("startdelay=") and rank is not None:
            value = line.split("=", 1)[1]
            if not re.fullmatch(r"\d+us", value):
                raise InputError(f"{path}:{number}: startdelay '{value}' is not gpusynth's (microseconds, e.g. 32143us)")
            delays[rank] = float(value[:-2]) / 1e6
    return (int(match.group(1)) if match else None), delays


def latency_logs(fio_dir):
    """rank -> path of its latency log (lat/rank_N_lat.*.log)."""
    logs = {}
    for path in sorted(glob.glob(os.path.join(fio_dir, "lat", "rank_*_lat.*.log"))):
        match = re.fullmatch(r"rank_(\d+)_lat\.\d+\.log", os.path.basename(path))
        if match:
            logs.setdefault(int(match.group(1)), path)
    return logs


def latency_log(path):
    """The rows (completion ms, latency ns, direction, size, offset) of one of fio's latency logs."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror})") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        fields = [v.strip() for v in line.split(",")]
        try:
            values = [float(v) for v in fields[:5]] if len(fields) >= 5 else None
        except ValueError:
            values = None
        if values is None or not all(math.isfinite(v) for v in values) or values[2] not in (0, 1, 2) \
                or min(values[1], values[3], values[4]) < 0:
            raise InputError(f"{path}:{number}: '{line[:80]}' is not a line of fio's latency log (time in ms, latency "
                             "in ns, direction 0/1/2, size, offset: numbers >= 0, comma-separated); the log is damaged, "
                             "run fio again (--run)")
        rows.append(values)
    return np.array(rows, dtype=float).reshape(-1, 5)


class Totals:
    """What fio did, per direction, from its latency logs (completion ms, latency ns, direction, size, offset)."""
    NAMES = {0: "read", 1: "write", 2: "trim"}

    def __init__(self):
        self.ios = collections.Counter()
        self.bytes = collections.Counter()
        self.end = 0.0  # s, the last completion since the replay started (startdelay included)

    def add(self, log, delay):
        for direction, name in self.NAMES.items():
            mine = log[:, 2] == direction
            self.ios[name] += int(np.count_nonzero(mine))
            self.bytes[name] += int(log[mine, 3].sum())
        if len(log):
            self.end = max(self.end, delay + log[:, 0].max() / 1e3)

    def as_dict(self):
        run = self.end
        return {"run_time_s": run, **{name: {"ios": self.ios[name], "bytes": self.bytes[name],
                                              "bandwidth_bytes_per_s": self.bytes[name] / run if run > 0 else 0.0,
                                              "iops": self.ios[name] / run if run > 0 else 0.0}
                                       for name in ("read", "write")}}

    def summary(self):
        d = self.as_dict()
        parts = [f"{name} {d[name]['ios']} I/Os, {d[name]['bytes'] / 2**20:.3f} MiB, "
                 f"{d[name]['bandwidth_bytes_per_s'] / 2**20:.3f} MiB/s, {d[name]['iops']:.1f} IOPS"
                 for name in ("read", "write")]
        return f"replay totals over {d['run_time_s']:.3f} s: " + "; ".join(parts)


def positive(option, value, what):
    if value is not None and not (math.isfinite(value) and value > 0):
        raise InputError(f"{option} {value:g}: {what}")


def main():
    parser = Parser(prog="replay_check.py", description=__doc__.split("\n\n")[0])
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
    parser.add_argument("--json", metavar="PATH", help="write the totals, timing figures and verdict as JSON")
    args = parser.parse_args()
    if args.json is not None and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        raise InputError(f"--json {args.json}: its directory does not exist")

    # Every input is checked before fio runs.
    positive("--bin", args.bin, "the bin width must be a positive number of seconds (e.g. 0.05); leave it out for "
                                "the run's timing bins")
    positive("--tolerance-ms", args.tolerance_ms, "the tolerance must be a positive number of milliseconds (default 25)")
    positive("--pace-ms", args.pace_ms, "the pace allowance must be a positive number of milliseconds (default 10)")
    table, classes, bin_width, accepted = requests_of(args.results, args.name)
    if args.bin is None and isinstance(bin_width, InputError):
        raise bin_width
    emitted, delays = read_replay_fio(args.fio_dir)
    replica = args.replica if args.replica is not None else (emitted if emitted is not None else 0)
    option = f"--replica {replica}" if args.replica is not None else f"replica {replica} (of replay.fio)"
    if replica not in accepted:
        raise InputError(f"{option}: /requests/{args.name} in {args.results} holds replicas {describe(accepted)}")
    if emitted is not None and replica != emitted:
        raise InputError(f"{option}: {os.path.join(args.fio_dir, 'replay.fio')} holds replica {emitted}; give "
                         f"--replica {emitted} or leave it out")
    rows, direction = data_requests(table, classes, replica)
    if rows.size == 0:
        raise InputError(f"replica {replica} of /requests/{args.name} in {args.results} holds no data requests "
                         "(reads and writes with a file, an offset and a size): nothing to check")
    if args.run:
        script = os.path.join(args.fio_dir, "create_files.sh")
        if not os.path.isfile(script):
            raise InputError(f"--run: {script} is missing; FIO_DIR must be the directory the config's "
                             "`emit: {fio: DIR}` wrote")
        for program, package in (("sh", "dash"), ("fio", "fio")):
            if shutil.which(program) is None:
                raise InputError(f"--run: '{program}' is not on PATH; install it (apt-get install {package}) or run "
                                 "fio in FIO_DIR yourself and leave out --run")
    elif not os.path.isdir(os.path.join(args.fio_dir, "lat")) or not latency_logs(args.fio_dir):
        raise InputError(f"{os.path.join(args.fio_dir, 'lat')}: no latency logs (rank_N_lat.*.log); run fio in "
                         f"{args.fio_dir} first (fio replay.fio), or pass --run")

    failures = []
    if args.run:
        created = subprocess.run(["sh", script])
        if created.returncode != 0:
            raise InputError(f"--run: {script} exited with {created.returncode}; no file was replayed")
        done = subprocess.run(["fio", "--output=fio-output.txt", *args.fio_options, "replay.fio"], cwd=args.fio_dir)
        if done.returncode != 0:
            failures.append(f"fio exited with {done.returncode}")

    bin_width = args.bin or bin_width or 0.1
    tolerance, pace = args.tolerance_ms / 1e3, args.pace_ms / 1e3
    logs = latency_logs(args.fio_dir)
    intended, observed, relative, start_skew = [], [], [], []
    totals = Totals()
    mismatched = 0
    # Every rank of the requests, and every job of replay.fio (a log of requests the synthesis lacks fails too).
    for rank in sorted(set(rows["rank"].tolist()) | set(delays)):
        mine = rows["rank"] == rank
        expected = collections.Counter(zip(direction[mine].tolist(), rows["offset"][mine].tolist(),
                                           rows["size"][mine].tolist()))
        log = latency_log(logs[rank]) if rank in logs else np.zeros((0, 5))
        totals.add(log, delays.get(rank, 0.0))
        seen = collections.Counter(zip(log[:, 2].astype(int).tolist(), log[:, 4].astype(np.int64).tolist(),
                                       log[:, 3].astype(np.int64).tolist()))
        if seen != expected:
            mismatched += 1
            if mismatched <= 3:
                failures.append(f"rank {rank}: fio did {sum(seen.values())} requests"
                                f"{'' if rank in logs else ' (no latency log)'}, the log holds "
                                f"{sum(expected.values())}; (direction, offset, size) differ: "
                                f"{list((expected - seen).items())[:2]} missing, {list((seen - expected).items())[:2]} extra")
            continue
        if not expected:
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
    print(totals.summary())
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print("PASS: fio replayed every request, each process's requests equal the log's, and the timing holds")
    if args.json is not None:
        timing = {}
        if len(intended):
            timing = {"requests": int(intended.size), "pace_within_share": float(within),
                      "pace_p99_ms": float(np.percentile(np.abs(relative), 99) * 1e3),
                      "time_p99_ms": float(np.percentile(np.abs(error), 99) * 1e3),
                      "bin_s": float(bin_width), "bins_outside_allowance": int(len(bad))}
        with open(args.json, "w") as f:
            json.dump({"results": args.results, "name": args.name, "replica": int(replica), "fio_dir": args.fio_dir,
                       "pass": not failures, "failures": failures, "totals": totals.as_dict(), "timing": timing},
                      f, indent=2)
            f.write("\n")
    return 1 if failures else 0


def terminate(number, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, terminate)
    try:
        sys.exit(main())
    except InputError as e:
        print(f"replay_check: error: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("replay_check: interrupted", file=sys.stderr)
        sys.exit(130)
