#!/usr/bin/python3
"""A study's output recomputed independently with numpy/scipy: every per-replica
metric of the stored replicas, the summary's medians, and the layout the report
reads. Usage: study_check.py RESULTS.h5 TRIM ACF_LAGS"""
import sys

import h5py
import numpy as np
from scipy import stats

path, trim, lags = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])


def acf(v, k):
    d = v - v.mean()
    return np.dot(d[: len(v) - k], d[k:]) / np.dot(d, d)


checked = 0
with h5py.File(path, "r") as f:
    compare = f["compare"]
    summary = compare["summary"][()]
    for name in compare:
        if not isinstance(compare[name], h5py.Group):  # summary and its dimension scale
            continue
        real = f["datasets"][name]["series"][()]
        group = compare[name]
        assert np.allclose(group["real_quantiles"][()], np.quantile(real, np.linspace(0, 1, 101)))
        L = min(lags, len(real) - 1)
        models = [m for m in group if isinstance(group[m], h5py.Group)]
        for model in models:
            g = group[model]
            ensemble = f["ensembles"][g.attrs["ensemble"]]["series"]
            for r in range(ensemble.shape[0]):
                y = ensemble[r, :].astype(np.float64)
                expected = {
                    "trimmed_error": stats.trim_mean(np.abs(np.sort(real) - np.sort(y)), trim),
                    "ks": stats.ks_2samp(real, y).statistic,
                    "acf": np.sqrt(np.mean([(acf(y, k) - acf(real, k)) ** 2 for k in range(1, L + 1)])),
                    "peak_to_mean_ratio": (y.max() / y.mean()) / (real.max() / real.mean()),
                    "cv_ratio": (y.std(ddof=1) / y.mean()) / (real.std(ddof=1) / real.mean()),
                }
                for metric, value in expected.items():
                    got = g[metric][r]
                    assert np.isclose(got, value, rtol=1e-9, atol=1e-12) or (np.isnan(got) and np.isnan(value)), (
                        name, model, metric, r, got, value)
                    checked += 1
                assert np.allclose(g["replica_quantiles"][r], np.quantile(y, np.linspace(0, 1, 101)))
            for metric in ("trimmed_error", "ks", "acf", "hurst", "peak_to_mean_ratio", "cv_ratio"):
                v = g[metric][()]
                row = summary[(summary["dataset"] == name.encode()) & (summary["model"] == model.encode())
                              & (summary["metric"] == metric.encode())]
                assert len(row) == 1, (name, model, metric)
                row = row[0]
                finite = v[np.isfinite(v)]
                assert row["replicas_used"] == len(finite)
                if len(finite):
                    assert np.isclose(row["median"], np.median(finite)), (name, model, metric)
                    assert row["ci_low"] <= row["median"] <= row["ci_high"], (name, model, metric, row)
                    assert row["percentile_low"] <= row["percentile_high"]
            assert g.attrs["matching_degree"] in (0, 1, 2, 3)
        paired = group["paired"][()]
        assert len(paired) == len(models) * (len(models) - 1) // 2
        assert np.all((paired["ci_low"] <= paired["p_a_below_b"]) & (paired["p_a_below_b"] <= paired["ci_high"]))
    degrees = summary[summary["metric"] == compare.attrs["rank_by"].encode()]["matching_degree"]
    assert np.all(degrees >= 0) and 3 in degrees
print(f"study output checked: {checked} per-replica metric values recomputed with numpy/scipy")
