#!/usr/bin/python3
"""What a user would otherwise write for one replica of the burst Monte Carlo: numpy for the
threshold, labels and the fs3-bytes features (scipy.signal.lfilter for the EMAs), scikit-learn's
LogisticRegression per horizon (fitted on the rows before the validation bins, F1-best threshold
there, refitted on every training row), F1 on the scored bins. The same steps as gpusynth's
BM_BurstAnalysis/real_series:0 (docs/bursts.md), timed per series.

usage: bench_bursts_python.py SERIES.counts [repeats]
"""
import sys
import time

import numpy as np
from scipy.signal import lfilter
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler


def ema(x, bins):
    a = 2 / (max(bins, 1.0) + 1)
    y, _ = lfilter([a], [1, -(1 - a)], x, zi=[(1 - a) * x[0]])
    return y


def features(x, bin_minutes=5):
    b = lambda minutes: max(1.0, minutes / bin_minutes)  # noqa: E731
    e = [ema(x, b(m)) for m in (60, 130, 500, 1000)]
    return np.column_stack([x] + e + [e[0] - e[1], e[2] - e[3]])


def best_threshold(p, y):
    order = np.argsort(-p, kind="stable")
    tp = np.cumsum(y[order])
    f1 = 2 * tp / (np.arange(1, len(p) + 1) + y.sum()) if y.sum() else np.zeros(len(p))
    return p[order][np.argmax(f1)] if y.sum() else 1.1


def analyse(x, horizons=range(1, 25)):
    n = len(x)
    bursts = int(np.floor(0.01 * n))
    threshold = np.sort(x)[::-1][bursts]
    burst = x > threshold
    X = features(x)
    split = int(np.floor(0.8 * n))
    validation = split - int(np.floor(0.25 * split))
    f1s = []
    for h in horizons:
        y = burst[h:]
        t = np.arange(n - h)
        fit, val, train, test = t[t + h < validation], t[(t >= validation) & (t + h < split)], t[t + h < split], t[t >= split]

        def model(rows):
            scaler = StandardScaler().fit(X[rows])
            m = LogisticRegression(C=1e8, max_iter=1000).fit(scaler.transform(X[rows]), y[rows])
            return lambda r: m.predict_proba(scaler.transform(X[r]))[:, 1]

        cut = best_threshold(model(fit)(val), y[val])
        predicted = model(train)(test) >= cut
        tp = np.sum(predicted & y[test])
        f1s.append(2 * tp / (predicted.sum() + y[test].sum()) if predicted.sum() + y[test].sum() else 0.0)
    return f1s


def main():
    x = np.loadtxt(sys.argv[1], comments="#")
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    analyse(x)  # warm-up (imports, caches)
    start = time.perf_counter()
    for _ in range(repeats):
        analyse(x)
    seconds = (time.perf_counter() - start) / repeats
    print(f"numpy + scikit-learn: {seconds * 1000:.0f} ms per series of {len(x)} bins (24 horizons, logistic)")


if __name__ == "__main__":
    main()
