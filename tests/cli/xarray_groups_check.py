#!/usr/bin/python3
"""Opens every group of a gpusynth HDF5 file with xarray (h5netcdf engine, no
phony_dims) and checks that no dimension is a phony one; then that each
GROUP=DIM,DIM... argument names dimensions that group has.
Usage: xarray_groups_check.py FILE [GROUP=DIM,DIM ...]"""
import sys

import h5py
import xarray as xr

path = sys.argv[1]
groups = ["/"]
with h5py.File(path) as f:
    f.visititems(lambda name, item: groups.append(name) if isinstance(item, h5py.Group) else None)
dims = {}
for group in groups:
    with xr.open_dataset(path, group=group, engine="h5netcdf") as ds:
        phony = [d for d in ds.sizes if str(d).startswith("phony_dim")]
        assert not phony, f"{group}: phony dimensions {phony}"
        dims[group] = dict(ds.sizes)
for expectation in sys.argv[2:]:
    group, names = expectation.split("=")
    for name in names.split(","):
        assert name in dims[group], f"{group}: no dimension '{name}' in {dims[group]}"
print(f"{len(groups)} groups open with named dimensions")
