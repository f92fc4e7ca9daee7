#!/usr/bin/python3
"""Compares two HDF5 files written by gpusynth: every dataset must hold the same
bytes (same shape, type and values, bit for bit); attributes that differ are
listed, except the ones that record when, where and how a file was made.

usage: compare_h5.py A.h5 B.h5     exit 0 when every dataset is identical
"""
import sys

import h5py
import numpy as np

VOLATILE = {"created_utc", "git_revision", "gpusynth_version", "command_line", "config_path", "host", "device",
            "config"}


def items(f):
    found = {}
    f.visititems(lambda name, obj: found.__setitem__(name, obj))
    found["/"] = f
    return found


def main(a_path, b_path):
    problems, notes = [], []
    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        ia, ib = items(a), items(b)
        for name in sorted(set(ia) ^ set(ib)):
            problems.append(f"{name}: only in {a_path if name in ia else b_path}")
        for name in sorted(set(ia) & set(ib)):
            x, y = ia[name], ib[name]
            if isinstance(x, h5py.Dataset) != isinstance(y, h5py.Dataset):
                problems.append(f"{name}: a dataset in one file only")
                continue
            if isinstance(x, h5py.Dataset):
                u, v = x[()], y[()]
                if x.dtype != y.dtype or np.shape(u) != np.shape(v) or np.asarray(u).tobytes() != np.asarray(v).tobytes():
                    problems.append(f"{name}: the data differ ({x.dtype}{np.shape(u)} vs {y.dtype}{np.shape(v)})")
            for key in sorted(set(x.attrs) | set(y.attrs)):
                if key in VOLATILE:
                    continue
                if key not in x.attrs or key not in y.attrs:
                    notes.append(f"{name}@{key}: only in {a_path if key in x.attrs else b_path}")
                elif np.asarray(x.attrs[key]).tobytes() != np.asarray(y.attrs[key]).tobytes():
                    notes.append(f"{name}@{key}: {x.attrs[key]!r} vs {y.attrs[key]!r}")
    for line in problems:
        print(f"DIFFERENT {line}")
    for line in notes:
        print(f"attribute {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
