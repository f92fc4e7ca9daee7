#!/usr/bin/env python3
"""Checks gpusynth's darshan binary reader against darshan-util on a folder of logs.

For every *.darshan under LOGS (recursively), darshan-parser --show-incomplete and
darshan-dxt-parser --show-incomplete print the log; the same facts are taken from their
text and from build/bench/darshan_log_dump (what io/darshan_log.cpp reads), in the digits
the parsers print:

  the job (version, start and end time, nprocs, run time), the modules each parser warns
  are incomplete, every POSIX / MPI-IO / STDIO counter gpusynth's darshan reader uses
  (per record: module, rank, record id, counter, value, file name), every DXT operation
  (module, rank, record id, write/read, offset, length, start, end, file name) and every
  HEATMAP record (rank, id, bin width, bins, bytes written and read, name).

A log agrees when both lists are equal line for line. Usage:

  bench/darshan_logs_check.py LOGS DARSHAN_BIN_DIR DUMP [--out FILE]
"""
import argparse
import collections
import os
import subprocess
import sys

COUNTERS = {
    "POSIX": ["OPENS", "READS", "WRITES", "BYTES_READ", "BYTES_WRITTEN", "F_READ_START_TIMESTAMP",
              "F_WRITE_START_TIMESTAMP", "F_READ_END_TIMESTAMP", "F_WRITE_END_TIMESTAMP", "F_READ_TIME",
              "F_WRITE_TIME"],
    "MPI-IO": ["INDEP_OPENS", "COLL_OPENS", "INDEP_READS", "INDEP_WRITES", "COLL_READS", "COLL_WRITES",
               "SPLIT_READS", "SPLIT_WRITES", "NB_READS", "NB_WRITES", "BYTES_READ", "BYTES_WRITTEN",
               "F_READ_START_TIMESTAMP", "F_WRITE_START_TIMESTAMP", "F_READ_END_TIMESTAMP",
               "F_WRITE_END_TIMESTAMP", "F_READ_TIME", "F_WRITE_TIME"],
    "STDIO": ["OPENS", "READS", "WRITES", "BYTES_WRITTEN", "BYTES_READ", "F_WRITE_TIME", "F_READ_TIME",
              "F_WRITE_START_TIMESTAMP", "F_READ_START_TIMESTAMP", "F_WRITE_END_TIMESTAMP",
              "F_READ_END_TIMESTAMP"],
}
PREFIX = {"POSIX": "POSIX_", "MPI-IO": "MPIIO_", "STDIO": "STDIO_"}
WARNING = "# *WARNING*: The "


def run(command):
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          errors="surrogateescape")
    return done.returncode, done.stdout, done.stderr


def header_facts(text):
    keys = {"# darshan log version:": "version", "# start_time:": "start_time", "# end_time:": "end_time",
            "# nprocs:": "nprocs", "# run time:": "run_time"}
    facts = {}
    for line in text.splitlines():
        for key, name in keys.items():
            if line.startswith(key):
                facts[name] = line[len(key):].strip()
    return [f"{name} {facts.get(name, '?')}" for name in keys.values()]


def incomplete(text):
    return ",".join(line[len(WARNING):].split(" module ")[0] for line in text.splitlines()
                    if line.startswith(WARNING))


def counter_lines(text):
    wanted = {module: {PREFIX[module] + c for c in names} for module, names in COUNTERS.items()}
    order = {module: {PREFIX[module] + c: i for i, c in enumerate(names)} for module, names in COUNTERS.items()}
    records = collections.OrderedDict()
    heatmaps = collections.OrderedDict()
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) < 6 or line.startswith("#"):
            continue
        module, rank, rid, counter, value, name = fields[:6]
        if module in wanted and counter in wanted[module]:
            records.setdefault((module, rank, rid), []).append((order[module][counter], counter, value, name))
        elif module == "HEATMAP":
            h = heatmaps.setdefault((rank, rid), {"width": "?", "bins": 0, "w": 0, "r": 0, "name": name})
            if counter == "HEATMAP_F_BIN_WIDTH_SECONDS":
                h["width"] = value
            elif counter.startswith("HEATMAP_WRITE_BIN_"):
                h["bins"] += 1
                h["w"] += int(value)
            elif counter.startswith("HEATMAP_READ_BIN_"):
                h["r"] += int(value)
    lines = []
    for (module, rank, rid), counters in records.items():
        lines += [f"C {module} {rank} {rid} {c} {v} {n}" for _, c, v, n in sorted(counters)]
    heat = [f"H {rank} {rid} {h['width']} {h['bins']} {h['w']} {h['r']} {h['name']}"
            for (rank, rid), h in heatmaps.items()]
    return lines, heat


def dxt_lines(text):
    lines, rid, name = [], "?", "?"
    for line in text.splitlines():
        if line.startswith("# DXT, file_id: "):
            head, _, name = line[len("# DXT, file_id: "):].partition(", file_name: ")
            rid = head.strip()
        elif line.lstrip().startswith("X_"):
            f = line.split()
            lines.append(f"X {f[0]} {f[1]} {rid} {f[2]} {f[4]} {f[5]} {f[6]} {f[7]} {name}")
    return lines


def reference(log, bindir):
    rc, text, err = run([os.path.join(bindir, "darshan-parser"), "--show-incomplete", log])
    if rc != 0:
        return None, f"darshan-parser failed: {err.strip()[:200]}"
    rc, dxt, err = run([os.path.join(bindir, "darshan-dxt-parser"), "--show-incomplete", log])
    if rc != 0:
        return None, f"darshan-dxt-parser failed: {err.strip()[:200]}"
    counters, heat = counter_lines(text)
    facts = header_facts(text) + [f"incomplete_counters {incomplete(text)}", f"incomplete_dxt {incomplete(dxt)}"]
    return facts + counters + dxt_lines(dxt) + heat, None


def check(log, bindir, dump):
    expected, problem = reference(log, bindir)
    if problem:
        return "darshan-util", problem, {}
    rc, out, err = run([dump, log])
    if rc != 0:
        return "error", err.strip()[:300], {}
    got = out.splitlines()
    kinds = collections.Counter(line.split(" ", 1)[0] for line in expected if line[:2] in ("C ", "X ", "H "))
    if got == expected:
        return "agree", "", kinds
    for i, (a, b) in enumerate(zip(expected, got)):
        if a != b:
            return "differ", f"line {i + 1}: darshan-util '{a}' vs gpusynth '{b}'", kinds
    return "differ", f"{len(expected)} lines from darshan-util, {len(got)} from gpusynth", kinds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs")
    parser.add_argument("darshan_bin")
    parser.add_argument("dump")
    parser.add_argument("--out")
    args = parser.parse_args()
    logs = sorted(os.path.join(d, f) for d, _, files in os.walk(args.logs) for f in files if f.endswith(".darshan"))
    rows, agree = [], 0
    for log in logs:
        with open(log, "rb") as f:
            version = f.read(8).split(b"\0")[0].decode(errors="replace")
        result, detail, kinds = check(log, args.darshan_bin, args.dump)
        agree += result == "agree"
        counts = f"C={kinds.get('C', 0)} X={kinds.get('X', 0)} H={kinds.get('H', 0)}"
        rows.append(f"{result:7} {version:5} {os.path.getsize(log):8} {counts:24} {os.path.relpath(log, args.logs)}"
                    + (f"\n        {detail}" if detail else ""))
    report = "\n".join(rows) + f"\n\n{agree} of {len(logs)} logs agree\n"
    sys.stdout.write(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    return 0 if agree == len(logs) else 1


if __name__ == "__main__":
    sys.exit(main())
