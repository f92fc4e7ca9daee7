#!/usr/bin/python3
"""The Python side of bench/bench_sampling.sh: times scipy's levy_stable.rvs,
numpy's standard_normal, numpy's vectorised Davies-Harte fGn and an LFSN as a
numpy/scipy user would write it (one thread each, as they run), reads
bench_cpu's JSON of the same run and prints the per-core ratios the sampling
goals are stated in."""
import json
import os
import sys
import time

import numpy as np
import scipy
from scipy.stats import levy_stable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_models_numpy import REPLICAS, LENGTH, best_of, fgn_davies_harte  # noqa: E402


def rates_of(path):
    with open(path) as f:
        report = json.load(f)
    runs = report["benchmarks"]
    rates = {r["name"]: r["items_per_second"] for r in runs if r.get("run_type", "iteration") == "iteration"}
    return rates, report["context"].get("widest_cpu_lanes", "?")


def lfsn_numpy(alpha, beta, H, m, K, length, replicas, rng):
    """LFSN by the same discretisation as gpusynth's (docs/models.md): S1
    innovations on a grid m times finer (scipy's levy_stable.rvs), convolved
    with the m*K coefficients h_d(k/m), d = H - 1/alpha, normalised to alpha-norm 1,
    by one real FFT per replica, every m-th point kept. The same draws, FFT
    lengths and outputs as bench_cpu's BM_GpusynthLfsn."""
    d = H - 1 / alpha
    x = np.arange(1, m * K + 1) / m
    h = x**d
    far = x > 1
    h[far] = -(x[far] ** d) * np.expm1(d * np.log1p(-1 / x[far]))
    h /= np.sum(np.abs(h) ** alpha) ** (1 / alpha)
    fine = m * K + m * (length - 1)
    n = 1 << int(np.ceil(np.log2(fine + m * K)))
    spectrum = np.fft.rfft(h, n)
    out = np.empty((replicas, length))
    for r in range(replicas):
        z = levy_stable.rvs(alpha, beta, size=fine, random_state=rng)
        y = np.fft.irfft(np.fft.rfft(z, n) * spectrum, n)
        out[r] = y[m * K - 1 : m * K - 1 + m * length : m]
    return out


def main():
    rates, widest = rates_of(sys.argv[1])
    rng = np.random.default_rng(1)
    n = 1 << 20
    scipy_rate = n / best_of(lambda: levy_stable.rvs(1.5, 0.5, size=n, random_state=rng))
    normal_rate = REPLICAS * LENGTH / best_of(lambda: rng.standard_normal((REPLICAS, LENGTH)))
    fgn_rate = REPLICAS * LENGTH / best_of(lambda: fgn_davies_harte(0.8, LENGTH, REPLICAS, rng))
    lfsn_rate = 8 * 4096 / best_of(lambda: lfsn_numpy(1.5, 0.5, 0.8, 16, 256, 4096, 8, rng), repeats=1)
    print(f"\nnumpy {np.__version__}, scipy {scipy.__version__} (one thread each)")
    print(f"scipy_levy_stable_rvs (alpha 1.5, beta 0.5, S1)  {scipy_rate:.3g} samples/s")
    print(f"numpy_standard_normal (float64)                  {normal_rate:.3g} samples/s")
    print(f"numpy_fgn_davies_harte (H 0.8, float64)          {fgn_rate:.3g} samples/s")
    print(f"numpy_scipy_lfsn (alpha 1.5, H 0.8, m 16, K 256)  {lfsn_rate:.3g} samples/s")

    def rate(name):
        return rates[name + "/real_time"]

    gsl = rate("BM_GslLevySkew")
    print(f"\nper core (1 thread), same run; lanes: the widest this CPU has ({widest}), AVX2 lanes: eight")
    stable_against = [("GSL", gsl), ("scipy", scipy_rate)]
    lfsn_against = [("numpy/scipy lfsn", lfsn_rate), ("numpy DH fgn", fgn_rate)]
    models = [
        ("stable float32", "BM_GpusynthStable/float:32", stable_against),
        ("stable float64", "BM_GpusynthStable/float:64", stable_against),
        ("normal float64", "BM_GpusynthModel/model:4", [("numpy", normal_rate)]),
        ("fgn float64", "BM_GpusynthModel/model:0", [("numpy DH", fgn_rate)]),
        ("lfsn float32 (m 16, K 256)", "BM_GpusynthLfsn/float:32", lfsn_against),
        ("farima stable float64", "BM_GpusynthModel/model:3", []),
    ]
    # bench_cpu's `lanes` argument: the path each row ran on.
    paths = [("lanes", 1), ("fast lanes", 2), ("AVX2 lanes", 3), ("AVX2 fast lanes", 4), ("scalar", 0)]
    rows = [
        (f"{model}, {path}", rate(f"{benchmark}/threads:1/lanes:{lanes}"), against)
        for model, benchmark, against in models
        for path, lanes in paths
    ]
    for label, value, against in rows:
        ratios = ", ".join(f"{value / other:.2f}x {name}" for name, other in against)
        print(f"  {label:40s} {value:9.3g} /s  {ratios}")


if __name__ == "__main__":
    main()
