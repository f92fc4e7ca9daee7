#!/usr/bin/env bash
# xarray opens what gpusynth writes with named dimensions and coordinates
# (HDF5 dimension scales, the netCDF-4 convention; docs/hdf5.md), without
# phony_dims: /ensembles/<name> as series(replica, bin) and /datasets/<name> as
# series(bin). Debian's python3-xarray with python3-h5netcdf.
set -u
source "$(dirname "$0")/lib.sh"

cat >"$tmp/x.yaml" <<YAML
seed: 3
output: $tmp/x.h5
datasets:
  - {name: cp, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
ensembles:
  - {name: a, model: lfsn, params: {alpha: 1.5, H: 0.7}, replicas: 5, length: 300, workload: {v: 2, delta: 10, values: counts}}
YAML
expect_rc 0 "run" "$gpusynth" "$tmp/x.yaml" -q
/usr/bin/python3 - "$tmp/x.h5" >"$tmp/xr" 2>&1 <<'PY' || fail "xarray: $(cat "$tmp/xr")"
import sys
import numpy as np
import xarray as xr
path = sys.argv[1]
e = xr.open_dataset(path, group="ensembles/a", engine="h5netcdf")
assert e["series"].dims == ("replica", "bin"), e["series"].dims
assert list(e["replica"].values) == list(range(5)) and e.sizes["bin"] == 300, e
assert e.attrs["model"] == "lfsn"
d = xr.open_dataset(path, group="datasets/cp", engine="h5netcdf")
assert d["series"].dims == ("bin",) and d.sizes["bin"] == 7201, d
import h5py
with h5py.File(path) as f:
    assert np.array_equal(f["ensembles/a/series"][()], e["series"].values)
print("xarray opened both groups with named dimensions")
PY
finish "xarray"
