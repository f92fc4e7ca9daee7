#!/usr/bin/python3
"""A digest of every dataset of a gpusynth HDF5 file, for the regression results of the shipped configs
(tests/regression/, OpenMC's results_true): one line per dataset, `path shape dtype sha256`, sorted by
path. Attributes are left out: they hold run times, versions and host names, which change from run to
run; the datasets are the results, which must not change unless a commit says so.

  scripts/results_digest.py FILE.h5                 print the digest
  scripts/results_digest.py FILE.h5 --check D.txt   exit 1 and print the lines that differ from D.txt
"""
import argparse
import hashlib
import sys

import h5py
import numpy as np


def dataset_line(name, dataset):
    data = dataset[()]
    if dataset.dtype.kind == "O" or h5py.check_string_dtype(dataset.dtype) is not None:
        payload = repr(np.asarray(data).tolist()).encode()  # variable-length strings: their text
    else:
        payload = np.ascontiguousarray(data).tobytes()
    shape = "x".join(str(n) for n in dataset.shape) or "scalar"
    return f"/{name} {shape} {dataset.dtype.str} {hashlib.sha256(payload).hexdigest()}"


def digest(path):
    lines = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, obj: lines.append(dataset_line(name, obj)) if isinstance(obj, h5py.Dataset) else None)
    return sorted(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--check", metavar="DIGEST", help="the stored digest to compare with")
    args = ap.parse_args()
    lines = digest(args.file)
    if not args.check:
        print("\n".join(lines))
        return 0
    stored = [line for line in open(args.check).read().splitlines() if line and not line.startswith("#")]
    if lines == stored:
        return 0
    have, want = set(lines), set(stored)
    for line in sorted(want - have):
        print("stored:  " + line)
    for line in sorted(have - want):
        print("now:     " + line)
    return 1


if __name__ == "__main__":
    sys.exit(main())
