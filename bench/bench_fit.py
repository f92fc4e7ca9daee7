#!/usr/bin/python3
"""gpusynth's α-stable ML fit against R fBasics' stableFit(type = "mle") and scipy's levy_stable.fit.

Usage: bench/bench_fit.py GPUSYNTH [--peers fbasics,scipy] [--rounds R] [n ...]   (default n = 500)
Samples: numpy PCG64 seed 2026 draws (scipy's levy_stable.rvs, S1) of two laws: S1(1.5, 0.5, 2, 3)
and S1(0.5, 1, 1, 0), whose estimates lie at the edge of the support (β = 1). Each tool fits the
same values; gpusynth from a `values` file (`gpusynth fit --format values`, read and McCulloch start
included), fBasics in one Rscript per fit (R's start-up excluded: system.time around stableFit with
its default start; it fits in S0, converted to S1 here),
scipy in this process. Times are CPU seconds (user + system) of the fit, gpusynth's of the child
process; gpusynth runs R rounds (default 3) interleaved with the peers and its median is used. Every
tool's estimates are scored by two independent ln L, scipy's levy_stable.logpdf and R stabledist's
dstable summed, so that "faster" is not bought with a worse optimum (the two differ by about 1 in
ln L on some series: a difference below that is no difference).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy
from scipy.stats import levy_stable

LAWS = [dict(alpha=1.5, beta=0.5, sigma=2.0, mu=3.0), dict(alpha=0.5, beta=1.0, sigma=1.0, mu=0.0)]
R_FIT = r"""
suppressMessages(library(fBasics))
x <- scan("{path}", quiet = TRUE)
t <- system.time(f <- stableFit(x, type = "mle", doplot = FALSE))
e <- f@fit$estimate  # S0 (stabledist's pm = 0, stableFit's only): delta to S1's mu
mu <- if (abs(e[1] - 1) > 1e-12) e[4] - e[2] * e[3] * tan(pi * e[1] / 2) else e[4] - 2 / pi * e[2] * e[3] * log(e[3])
cat(sprintf("%.17g %.17g %.17g %.17g %.6f\n", e[1], e[2], e[3], mu, t[["user.self"]] + t[["sys.self"]]))
"""


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def gpusynth_fit(binary, path):
    before = child_cpu()
    out = subprocess.run([binary, "fit", path, "--format", "values", "--models", "stable"],
                         check=True, capture_output=True, text=True).stdout
    row = next(line for line in out.splitlines() if line.startswith("stable"))
    get = lambda name: float(re.search(name + r" = ([-0-9.e+]+)", row).group(1))
    return child_cpu() - before, dict(alpha=get("alpha"), beta=get("beta"), sigma=get("sigma"), mu=get("mu")), \
        float(re.search(r"logL = ([-0-9.e+]+)", row).group(1)), row.split()[1]


def fbasics_fit(path):
    script = R_FIT.replace("{path}", path)  # stableFit's own start (alpha 1.75, beta 0, gamma 1, delta 0)
    out = subprocess.run(["Rscript", "-e", script], check=True, capture_output=True, text=True).stdout.split()
    a, b, g, d, cpu = (float(v) for v in out[-5:])
    return cpu, dict(alpha=a, beta=b, sigma=g, mu=d)


def scipy_fit(x):
    start = time.process_time()
    a, b, mu, s = levy_stable.fit(x)
    return time.process_time() - start, dict(alpha=a, beta=b, sigma=s, mu=mu)


def log_likelihood_at(x, path, est):
    """Two independent ln L for every tool's estimates (S1): scipy's levy_stable.logpdf summed, and R
    stabledist's dstable (what fBasics maximises) where Rscript is installed."""
    scipy_l = float(np.sum(levy_stable.logpdf(x, est["alpha"], est["beta"], loc=est["mu"], scale=est["sigma"])))
    if not shutil.which("Rscript"):
        return scipy_l, float("nan")
    script = (f'x <- scan("{path}", quiet = TRUE); cat(sprintf("%.6f", sum(log(stabledist::dstable(x, '
              f'{est["alpha"]!r}, {est["beta"]!r}, {est["sigma"]!r}, {est["mu"]!r}, pm = 1)))))')
    out = subprocess.run(["Rscript", "-e", script], check=True, capture_output=True, text=True).stdout
    return scipy_l, float(out.split()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gpusynth")
    ap.add_argument("sizes", nargs="*", type=int, default=[500])
    ap.add_argument("--peers", default="fbasics,scipy")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    peers = [p for p in args.peers.split(",") if p]
    if "fbasics" in peers and not shutil.which("Rscript"):
        sys.exit("Rscript not found: apt-get install r-base-core r-cran-fbasics, or --peers scipy")
    levy_stable.parameterization = "S1"
    print(f"scipy {scipy.__version__}, numpy {np.__version__}; peers {', '.join(peers)}; CPU seconds of the fit")
    print(f"{'law (S1)':<22} {'n':>5} {'tool':<9} {'cpu_s':>8} {'alpha':>8} {'beta':>8} {'sigma':>8} {'mu':>9}"
          f" {'scipy lnL':>11} {'R lnL':>11}  ratio")
    tmp = tempfile.mkdtemp()
    for law in LAWS:
        name = "({alpha:g}, {beta:g}, {sigma:g}, {mu:g})".format(**law)
        for n in args.sizes:
            rng = np.random.Generator(np.random.PCG64(2026))
            x = levy_stable.rvs(law["alpha"], law["beta"], loc=law["mu"], scale=law["sigma"], size=n,
                                random_state=rng)
            path = os.path.join(tmp, f"x{n}.values")
            with open(path, "w") as f:
                f.writelines(f"{v!r}\n" for v in x)
            ours, results = [], {}
            for peer in [None] + peers:  # gpusynth's rounds interleaved with the peers
                for _ in range(max(1, args.rounds // max(1, len(peers)))):
                    t, est, log_l, validity = gpusynth_fit(args.gpusynth, path)
                    ours.append(t)
                if peer == "fbasics":
                    results[peer] = fbasics_fit(path)
                elif peer == "scipy":
                    results[peer] = scipy_fit(x)
            ours_t = statistics.median(ours)
            row = lambda tool, t, e, extra: print(
                f"{name:<22} {n:>5} {tool:<9} {t:>8.3f} {e['alpha']:>8.4f} {e['beta']:>8.4f} {e['sigma']:>8.4f}"
                f" {e['mu']:>9.4f} {extra}", flush=True)
            scored = lambda e: "{:>11.3f} {:>11.3f}".format(*log_likelihood_at(x, path, e))
            row("gpusynth", ours_t, est, f"{scored(est)}  1 ({validity}, its own lnL {log_l}; median of {len(ours)})")
            for peer, (t, e) in results.items():
                row(peer, t, e, f"{scored(e)}  {t / ours_t:.0f}x")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
