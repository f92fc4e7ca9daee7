#!/usr/bin/python3
"""Copies an HDF5 file with some of its objects damaged, for the tests of what reads such files.

    damage_h5.py SOURCE DEST OBJECT=HOW [OBJECT=HOW ...]

HOW is flip:SEED: COUNT (8) bytes replaced by random ones at random offsets, seeded, most in the first
64 KiB where HDF5 keeps most metadata (the OBJECT is ignored: "/=flip:3"); data: the object's stored bytes (a contiguous dataset, or every chunk of an unfiltered
chunked one) all 0xff (integers -1, floats NaN);
header: 64 bytes of 0xff over its object header, so that HDF5 can no longer open it; delete: the
object unlinked, as in a file made by hand or cut short. SOURCE may be "new": an empty file.
"""
import os
import random
import shutil
import sys

import h5py


def stored_extents(dataset):
    """(file offset, bytes) of a dataset's data: one extent, or one per chunk."""
    if dataset.chunks is None:
        return [(dataset.id.get_offset(), dataset.id.get_storage_size())]
    chunks = (dataset.id.get_chunk_info(i) for i in range(dataset.id.get_num_chunks()))
    return [(chunk.byte_offset, chunk.size) for chunk in chunks]


def flip(path, seed, count=8):
    """COUNT bytes of the file replaced by random ones (seeded): the damage of a bad disk or a partial overwrite,
    which HDF5 may read through without noticing until it follows a wild pointer."""
    rng = random.Random(seed)
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        for _ in range(count):
            offset = rng.randrange(min(size, 65536)) if rng.random() < 0.7 else rng.randrange(size)
            f.seek(offset)
            f.write(bytes([rng.randrange(256)]))


def damage(path, name, how):
    if how.startswith("flip:"):
        flip(path, int(how.split(":")[1]))
        return
    if how == "delete":
        with h5py.File(path, "a") as f:
            del f[name]
        return
    with h5py.File(path, "r") as f:
        obj = f[name]
        if how == "data":
            extents = stored_extents(obj)
        elif how == "header":
            extents = [(h5py.h5o.get_info(obj.id).addr, 64)]
        else:
            sys.exit(f"damage_h5.py: {how}: expected data, header or delete")
    with open(path, "r+b") as f:
        for offset, size in extents:
            f.seek(offset)
            f.write(b"\xff" * size)


if __name__ == "__main__":
    source, dest = sys.argv[1:3]
    if source == "new":
        h5py.File(dest, "w").close()
    else:
        shutil.copyfile(source, dest)
    for item in sys.argv[3:]:
        damage(dest, *item.rsplit("=", 1))
