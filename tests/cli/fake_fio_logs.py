#!/usr/bin/python3
"""Writes the latency logs fio would write replaying FIO_DIR's iologs on time, without fio.

    fake_fio_logs.py RESULTS.h5 NAME FIO_DIR

For tests/cli/replay_check_test.sh: every data request of the replica that replay.fio holds, in
FIO_DIR/lat/rank_N_lat.K.log (K: the job's number in replay.fio), as fio's log_offset=1 lines
"completion ms, latency ns, direction, size, offset, priority": each request completes at the
first whole millisecond 0.2 ms or more after its synthesized time, with the latency that puts its
issue at that time, so scripts/replay_check.py passes on them.
"""
import os
import re
import sys

import h5py
import numpy as np

results, name, fio_dir = sys.argv[1:4]
with open(os.path.join(fio_dir, "replay.fio")) as f:
    text = f.read()
replica = int(re.search(r", replica (\d+),", text.splitlines()[0]).group(1))
jobs = [(int(rank), int(delay) / 1e6) for rank, delay in re.findall(r"\[rank_(\d+)\]\n(?:.*\n)*?startdelay=(\d+)us", text)]
with h5py.File(results, "r") as f:
    group = f["requests"][name]
    table = group["requests"][()]
    classes = [c.decode() for c in group["ops"]["class"][()]]
rows = table[table["replica"] == replica]
data = np.array([classes[o] in ("read", "write") for o in rows["op"]], dtype=bool)
rows = rows[data & (rows["file"] >= 0) & (rows["offset"] >= 0) & (rows["size"] > 0)]
os.makedirs(os.path.join(fio_dir, "lat"), exist_ok=True)
for number, (rank, delay) in enumerate(jobs, 1):
    mine = np.sort(rows[rows["rank"] == rank], order="time")
    with open(os.path.join(fio_dir, "lat", f"rank_{rank}_lat.{number}.log"), "w") as log:
        for r in mine:
            completion_ms = int(np.ceil((r["time"] - delay) * 1e3 + 0.2))
            latency_ns = int(round((completion_ms / 1e3 + delay - r["time"]) * 1e9))
            direction = 0 if classes[r["op"]] == "read" else 1
            log.write(f"{completion_ms}, {latency_ns}, {direction}, {r['size']}, {r['offset']}, 0\n")
