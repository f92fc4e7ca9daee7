#!/usr/bin/python3
"""Checks that a gpusynth file describes itself to someone with only h5py."""
import sys

import h5py
import numpy as np
import yaml

path, config_path = sys.argv[1], sys.argv[2]
with open(config_path) as f:
    config_text = f.read()
config = yaml.safe_load(config_text)

with h5py.File(path, "r") as f:
    root = f.attrs
    assert root["file_type"] == "gpusynth ensembles", root["file_type"]
    assert root["format_version"] == "1.0"
    assert root["config"] == config_text, "the config text is stored verbatim"
    assert int(root["seed"]) == config["seed"]
    for key in ("gpusynth_version", "git_revision", "created_utc", "backend", "device", "host", "rng", "description"):
        assert isinstance(root[key], str) and root[key], key
    assert set(f["ensembles"]) == {e["name"] for e in config["ensembles"]}
    for spec in config["ensembles"]:
        group = f["ensembles"][spec["name"]]
        attrs = group.attrs
        assert attrs["model"] == spec["model"]
        for key, value in spec["params"].items():
            assert np.isclose(attrs[key], value), (spec["name"], key, attrs[key], value)
        assert np.isclose(attrs["workload_v"], spec["workload"]["v"])
        assert np.isclose(attrs["workload_delta"], spec["workload"]["delta"])
        assert attrs["values"] == spec["workload"]["values"]
        for key in ("seed", "stream", "rng_use", "clipped_bins", "saturated_values", "mapping"):
            assert key in attrs, (spec["name"], key)
        series = group["series"]
        assert series.shape == (4, spec["length"]), series.shape
        assert series.dtype == np.uint32 if spec["workload"]["values"] == "counts" else np.float32
        assert series.attrs["dimensions"] == "replica, bin"
        assert series.compression == "gzip" and series.shuffle
        data = series[:]
        assert np.all(data >= 0)
        assert int(attrs["clipped_bins"]) <= int(np.count_nonzero(data == 0))
        if spec["model"] == "lfsn":
            assert "marginal_law" in attrs and "fft_length" in attrs
print("h5py: the file describes itself")
