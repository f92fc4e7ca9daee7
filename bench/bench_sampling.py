#!/usr/bin/python3
"""The Python side of bench/bench_sampling.sh: times scipy's levy_stable.rvs,
numpy's standard_normal and numpy's vectorised Davies-Harte fGn (one thread
each, as they run), reads bench_cpu's JSON of the same run and prints the
per-core ratios the sampling goals are stated in."""
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
        runs = json.load(f)["benchmarks"]
    return {r["name"]: r["items_per_second"] for r in runs if r.get("run_type", "iteration") == "iteration"}


def main():
    rates = rates_of(sys.argv[1])
    rng = np.random.default_rng(1)
    n = 1 << 20
    scipy_rate = n / best_of(lambda: levy_stable.rvs(1.5, 0.5, size=n, random_state=rng))
    normal_rate = REPLICAS * LENGTH / best_of(lambda: rng.standard_normal((REPLICAS, LENGTH)))
    fgn_rate = REPLICAS * LENGTH / best_of(lambda: fgn_davies_harte(0.8, LENGTH, REPLICAS, rng))
    print(f"\nnumpy {np.__version__}, scipy {scipy.__version__} (one thread each)")
    print(f"scipy_levy_stable_rvs (alpha 1.5, beta 0.5, S1)  {scipy_rate:.3g} samples/s")
    print(f"numpy_standard_normal (float64)                  {normal_rate:.3g} samples/s")
    print(f"numpy_fgn_davies_harte (H 0.8, float64)          {fgn_rate:.3g} samples/s")

    def rate(name):
        return rates[name + "/real_time"]

    gsl = rate("BM_GslLevySkew")
    print("\nper core (1 thread), same run:")
    rows = [
        ("stable float32, lanes", rate("BM_GpusynthStable/float:32/threads:1/lanes:1"), [("GSL", gsl), ("scipy", scipy_rate)]),
        ("stable float64, lanes", rate("BM_GpusynthStable/float:64/threads:1/lanes:1"), [("GSL", gsl), ("scipy", scipy_rate)]),
        ("stable float32, scalar", rate("BM_GpusynthStable/float:32/threads:1/lanes:0"), [("GSL", gsl), ("scipy", scipy_rate)]),
        ("stable float64, scalar", rate("BM_GpusynthStable/float:64/threads:1/lanes:0"), [("GSL", gsl), ("scipy", scipy_rate)]),
        ("normal float64, lanes", rate("BM_GpusynthModel/model:4/threads:1/lanes:1"), [("numpy", normal_rate)]),
        ("normal float64, scalar", rate("BM_GpusynthModel/model:4/threads:1/lanes:0"), [("numpy", normal_rate)]),
        ("fgn float64, lanes", rate("BM_GpusynthModel/model:0/threads:1/lanes:1"), [("numpy DH", fgn_rate)]),
        ("fgn float64, scalar", rate("BM_GpusynthModel/model:0/threads:1/lanes:0"), [("numpy DH", fgn_rate)]),
        ("lfsn float32 (m 16, K 256), lanes", rate("BM_GpusynthLfsn/float:32/threads:1/lanes:1"), [("numpy DH fgn", fgn_rate)]),
        ("lfsn float32 (m 16, K 256), scalar", rate("BM_GpusynthLfsn/float:32/threads:1/lanes:0"), [("numpy DH fgn", fgn_rate)]),
        ("farima stable float64, lanes", rate("BM_GpusynthModel/model:3/threads:1/lanes:1"), []),
        ("farima stable float64, scalar", rate("BM_GpusynthModel/model:3/threads:1/lanes:0"), []),
    ]
    for label, value, against in rows:
        ratios = ", ".join(f"{value / other:.2f}x {name}" for name, other in against)
        print(f"  {label:36s} {value:9.3g} /s  {ratios}")


if __name__ == "__main__":
    main()
