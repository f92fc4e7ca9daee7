#!/usr/bin/env bash
# xarray opens what gpusynth writes with named dimensions and coordinates
# (HDF5 dimension scales, the netCDF-4 convention; docs/hdf5.md), without
# phony_dims: /ensembles/<name> as series(replica, bin) and /datasets/<name> as
# series(bin), with the coordinate time(bin) of the bin start times (seconds)
# where the bins have a width (a binned trace, and the ensembles compared with
# it). Debian's python3-xarray with python3-h5netcdf.
set -u
source "$(dirname "$0")/lib.sh"

cat >"$tmp/x.yaml" <<YAML
seed: 3
output: $tmp/x.h5
datasets:
  - {name: cp, trace: $data/cloudphysics_per_second.counts, format: counts, bin: 1s}
ensembles:
  - {name: a, model: lfsn, params: {alpha: 1.5, H: 0.7}, replicas: 5, length: 300, workload: {v: 2, delta: 10, values: counts}}
  - {name: b, model: normal, params: {mu: 40, sigma: 9}, dataset: cp, replicas: 30, length: 120}
compare: {metrics: [ks, acf, hurst], bootstrap: {resamples: 200}}
YAML
expect_rc 0 "run" "$gpusynth" "$tmp/x.yaml" -q
/usr/bin/python3 - "$tmp/x.h5" >"$tmp/xr" 2>&1 <<'PY' || fail "xarray: $(cat "$tmp/xr")"
import sys
import h5py
import numpy as np
import xarray as xr
path = sys.argv[1]
e = xr.open_dataset(path, group="ensembles/a", engine="h5netcdf")
assert e["series"].dims == ("replica", "bin"), e["series"].dims
assert list(e["replica"].values) == list(range(5)) and e.sizes["bin"] == 300, e
assert e.attrs["model"] == "lfsn"
assert "time" not in e.coords, e  # no bin width: no times
d = xr.open_dataset(path, group="datasets/cp", engine="h5netcdf")
assert d["series"].dims == ("bin",) and d.sizes["bin"] == 7201, d
assert d["time"].dims == ("bin",) and "time" in d["series"].coords, d
assert d["time"].attrs["units"] == "s" and float(d["time"][3]) == 3.0, d["time"]
b = xr.open_dataset(path, group="ensembles/b", engine="h5netcdf")
assert b["series"].dims == ("replica", "bin") and "time" in b["series"].coords, b
assert np.array_equal(b["time"].values, np.arange(120, dtype=float)), b["time"].values
c = xr.open_dataset(path, group="compare/cp/b", engine="h5netcdf")
assert c["ks"].dims == ("replica",) and c.sizes["replica"] == 30, c
assert c["replica_quantiles"].dims == ("replica", "level") and float(c["level"][-1]) == 1.0, c
assert c["replica_acf"].dims == ("replica", "lag") and int(c["lag"][0]) == 0, c
with h5py.File(path) as f:
    assert f["compare/cp"]["real_acf"].dims[0].keys() == ["lag"]
    assert f["compare/cp"]["real_quantiles"].dims[0].keys() == ["level"]
with h5py.File(path) as f:
    assert np.array_equal(f["ensembles/a/series"][()], e["series"].values)
print("xarray opened the groups with named dimensions and bin times")
PY
/usr/bin/python3 "$source_dir/tests/cli/xarray_groups_check.py" "$tmp/x.h5" compare=row compare/cp=lag,level,pair \
  compare/cp/b=replica,lag,level >"$tmp/xr" 2>&1 || fail "every group of a run: $(cat "$tmp/xr")"
expect_rc 0 "stats -o" "$gpusynth" stats "$data/cloudphysics_per_second.counts" --format counts --bin 1s -o "$tmp/s.h5"
/usr/bin/python3 "$source_dir/tests/cli/xarray_groups_check.py" "$tmp/s.h5" >"$tmp/xr" 2>&1 ||
  fail "every group of stats' output: $(cat "$tmp/xr")"
finish "xarray"
