#!/usr/bin/python3
"""Recomputes what `gpusynth bursts` stored under /bursts/read from the stored real series with numpy:
the threshold (the (floor(0.01 n) + 1)-th largest value), severity classes, runs, the sigma histogram,
persistence's F1 per horizon on the scored rows, and the windows Algorithm 1 scheduled."""
import math
import sys

import h5py
import numpy as np


def check(condition, message):
    if not condition:
        sys.exit(f"bursts_check: {message}")


with h5py.File(sys.argv[1], "r") as f:
    x = f["datasets/job/series"][()]
    g = f["bursts/read"]
    n = len(x)
    mean, sigma = x.mean(), x.std()  # population sigma (denominator n)
    check(math.isclose(g.attrs["mean"], mean, rel_tol=1e-12), "mean")
    check(math.isclose(g.attrs["sigma"], sigma, rel_tol=1e-9), "sigma")
    bursts = int(math.floor(0.01 * n))
    threshold = np.sort(x)[::-1][bursts]
    check(g.attrs["threshold"] == threshold, f"threshold {g.attrs['threshold']} != {threshold}")
    above = x > threshold
    check(int(g.attrs["bursts"]) == above.sum(), "burst count")
    top = mean + 10 * sigma
    width = (top - threshold) / 5
    expected = np.where(~above, 0, np.where(x > top, 6, 1 + np.minimum(4, np.floor((x - threshold) / width))))
    check(np.array_equal(g["severity"][()], expected), "severity classes")
    runs, run = [], 0
    for b in above:
        if b:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    check(list(g["run_lengths"][()].astype(int)) == runs, f"runs {runs}")
    check(g["sigma_histogram"][()].sum() == n, "histogram total")
    p = g["prediction"]
    predictors = p.attrs["predictors"].split(",")
    check(predictors[:2] == ["persistence", "climatology"] and "logistic" in predictors and "xgboost" in predictors,
          f"predictors {predictors}")
    split = int(math.floor(0.8 * n))
    for h, minutes in enumerate(p["horizon_minutes"][()]):
        horizon = int(round(minutes * 60))  # 1 s bins
        labels = above[horizon:]
        rows = np.arange(split, n - horizon)
        truth, predicted = labels[rows], above[rows]
        tp = np.sum(truth & predicted)
        f1 = 2 * tp / (truth.sum() + predicted.sum()) if truth.sum() + predicted.sum() else 0.0
        check(math.isclose(p["f1"][0][h], f1, abs_tol=1e-12), f"persistence F1 at {horizon} bins: {p['f1'][0][h]} != {f1}")
        check(p["test_rows"][h] == len(rows), "scored rows")
        for k in range(len(predictors)):
            check(0 <= p["f1_low"][k][h] <= p["f1_high"][k][h] <= 1, "F1 interval")
    s = g["scheduling"]
    check(s.attrs["decided_by"].split(",")[:2] == ["perfect", "perfect-test"], s.attrs["decided_by"])
    window, tail = 8, 6  # window bins; ceil(max_time / bin)
    windows = [w for w in range(0, n - window - tail + 1) if above[w:w + window].any()]
    check(s["windows"][0] == len(windows), f"windows {s['windows'][0]} != {len(windows)}")
    # A way of deciding without windows (perfect-test when the scored part holds no burst) has no mean: NaN.
    delay, without = s["delay"][()], np.asarray(s["windows"][()]) == 0
    check(np.array_equal(np.isnan(delay).all(axis=1), without) and not np.isnan(delay[~without]).any(),
          f"NaN delays exactly where no window: {s['windows'][()]}")
    check(np.all(delay[~without] <= (window - 1) * 1.0 + 1e-9), "delays within the options")
    # alpha = 1 never waits; alpha = 0 never runs longer than starting at once.
    per = s["per_window/perfect"]
    check(np.all(per["delay"][0] == 0), "alpha 1 waits")
    check(np.all(per["runtime"][-1] <= per["runtime"][0]), "alpha 0 runtime")
    mc = g["monte_carlo/job-markov"]
    check(mc["figures"].shape[0] == 20, "20 replicas analysed")
    summary = mc["summary"][()]
    check(summary["figure"][0] == b"burst_share", "summary rows")
    # A figure the real series or every replica leaves undefined (a mean over no window) has no p-value.
    p, undefined = summary["p_value"], np.isnan(summary["real"]) | np.isnan(summary["mean"])
    check(np.array_equal(np.isnan(p), undefined) and np.all((p[~undefined] > 0) & (p[~undefined] <= 1)), "p-values")
    a = g["augment/job-markov"]
    check(a.attrs["replicas"] == 4 and a["f1_augmented"].shape == (1, 8), "augmentation shape")
    only = f["bursts/replicas-only"]
    check("severity" not in only and only["monte_carlo/job-markov/figures"].shape[0] == 5, "replicas-only entry")
    lonely = only["monte_carlo/job-markov/summary"][()]
    check(np.all(np.isnan(lonely["real"])) and np.all(lonely["low"] <= lonely["high"]), "summary without a real series")
print("bursts output checked against numpy")
