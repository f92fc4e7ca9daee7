#!/usr/bin/python3
"""gpusynth fit (stable: McCulloch + ML) vs scipy's levy_stable.fit on the same samples.

Usage: bench/bench_fit.py GPUSYNTH [n ...]   (default n = 500 10000)
Samples: S1(alpha=1.5, beta=0.5, sigma=2, mu=3), numpy's PCG64 seed 2026, written as a
(index, value) `series` trace. Reports time and absolute errors.
"""
import os, re, subprocess, sys, tempfile, time
import numpy as np
from scipy.stats import levy_stable
import scipy

TRUE = dict(alpha=1.5, beta=0.5, sigma=2.0, mu=3.0)


def gpusynth_fit(binary, path):
    start = time.perf_counter()
    out = subprocess.run([binary, "fit", path, "--format", "series", "--models", "stable"],
                         check=True, capture_output=True, text=True).stdout
    elapsed = time.perf_counter() - start
    row = next(line for line in out.splitlines() if line.startswith("stable"))
    get = lambda name: float(re.search(name + r" = ([-0-9.e+]+)", row).group(1))
    return elapsed, dict(alpha=get("alpha"), beta=get("beta"), sigma=get("sigma"), mu=get("mu"))


def main():
    binary = sys.argv[1]
    sizes = [int(a) for a in sys.argv[2:]] or [500, 10000]
    levy_stable.parameterization = "S1"
    print(f"scipy {scipy.__version__}, numpy {np.__version__}; truth {TRUE} (S1)")
    print(f"{'n':>6} {'tool':<9} {'time_s':>8} {'|da|':>7} {'|db|':>7} {'|ds|':>7} {'|dmu|':>7}")
    for n in sizes:
        rng = np.random.Generator(np.random.PCG64(2026))
        x = levy_stable.rvs(TRUE["alpha"], TRUE["beta"], loc=TRUE["mu"], scale=TRUE["sigma"], size=n, random_state=rng)
        with tempfile.NamedTemporaryFile("w", suffix=".series", delete=False) as f:
            f.write("\n".join(f"{i} {v:.17g}" for i, v in enumerate(x)) + "\n")
        ours_t, ours = gpusynth_fit(binary, f.name)
        os.unlink(f.name)
        start = time.perf_counter()
        a, b, mu, s = levy_stable.fit(x)
        scipy_t = time.perf_counter() - start
        theirs = dict(alpha=a, beta=b, sigma=s, mu=mu)
        for tool, t, est in (("gpusynth", ours_t, ours), ("scipy", scipy_t, theirs)):
            err = [abs(est[k] - TRUE[k]) for k in ("alpha", "beta", "sigma", "mu")]
            print(f"{n:>6} {tool:<9} {t:>8.2f} " + " ".join(f"{e:>7.3f}" for e in err), flush=True)
        print(f"{n:>6} speed-up {scipy_t / ours_t:.0f}x", flush=True)


if __name__ == "__main__":
    main()
