#!/usr/bin/python3
"""Counts the requests of a synthesized replica that start before their own process's previous request
has ended (what no blocking process does): per /requests/<name> of a run's file, for one replica.

    request_overlaps.py RUN.h5 [REPLICA]   (default replica 0)
"""
import sys

import h5py
import numpy as np


def overlaps(table, replica):
    rows = table[table["replica"] == replica]
    rows = rows[np.lexsort((rows["time"], rows["rank"]))]
    same_rank = rows["rank"][1:] == rows["rank"][:-1]
    previous_end = rows["time"][:-1] + np.maximum(rows["duration"][:-1], 0)
    return int(np.count_nonzero(same_rank & (rows["time"][1:] < previous_end - 1e-12))), len(rows)


def main():
    path, replica = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0
    with h5py.File(path, "r") as f:
        for name, group in f["requests"].items():
            count, total = overlaps(group["requests"][()], replica)
            print(f"{name}: replica {replica}: {count} of {total} requests start before their process's previous "
                  f"request ends")


if __name__ == "__main__":
    main()
