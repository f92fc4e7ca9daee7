#!/usr/bin/python3
"""Copies an HDF5 file with some of its objects damaged, for the tests of what reads such files.

    damage_h5.py SOURCE DEST OBJECT=HOW [OBJECT=HOW ...]

HOW is data: the object's stored bytes (a contiguous dataset, or every chunk of an unfiltered
chunked one) all 0xff (integers -1, floats NaN);
header: 64 bytes of 0xff over its object header, so that HDF5 can no longer open it; delete: the
object unlinked, as in a file made by hand or cut short. SOURCE may be "new": an empty file.
"""
import shutil
import sys

import h5py


def stored_extents(dataset):
    """(file offset, bytes) of a dataset's data: one extent, or one per chunk."""
    if dataset.chunks is None:
        return [(dataset.id.get_offset(), dataset.id.get_storage_size())]
    chunks = (dataset.id.get_chunk_info(i) for i in range(dataset.id.get_num_chunks()))
    return [(chunk.byte_offset, chunk.size) for chunk in chunks]


def damage(path, name, how):
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
