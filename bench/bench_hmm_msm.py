#!/usr/bin/python3
"""gpusynth fit --models hmm against R msm on issue 22's trace, when R's msm is installed.

Usage: bench/bench_hmm_msm.py GPUSYNTH [OUTDIR]
The trace: gpusynth's own 3-state hmm (occupancy 71/20/9 %, holding times
3600/800/600 s, log-means -5.52/-5.04/-4.42, log-sds 0.12/0.10/0.25) observed
10^4 times at exponential gaps of mean 60 s (numpy PCG64 seed 7), seed 42.
gpusynth runs with 1 and 5 starts (standard errors on); msm (r-cran-msm, not a
dependency of gpusynth) from rough level guesses, its default optim (BFGS) and Hessian.
"""
import os, re, shutil, subprocess, sys, tempfile, time
import numpy as np

GENERATOR = "[[-2.778e-4, 2.042e-4, 0.736e-4], [7.61e-4, -1.25e-3, 4.89e-4], [5.0e-4, 1.1667e-3, -1.6667e-3]]"


def make_trace(binary, folder):
    times = np.cumsum(np.random.default_rng(7).exponential(60.0, 10000))
    times -= times[0]
    np.savetxt(os.path.join(folder, "times.txt"), times, fmt="%.6f")
    with open(os.path.join(folder, "sim.yaml"), "w") as f:
        f.write(f"""output: sim.h5
seed: 42
ensembles:
  - name: truth
    model: hmm
    params: {{generator: {GENERATOR}, mu: [-5.52, -5.04, -4.42], sigma: [0.12, 0.10, 0.25], times_file: times.txt}}
    replicas: 1
    length: 10000
""")
    subprocess.run([binary, "sim.yaml", "-q"], cwd=folder, check=True)
    import h5py
    with h5py.File(os.path.join(folder, "sim.h5")) as f:
        series, times = f["ensembles/truth/series"][0], f["ensembles/truth/observation_times"][:]
    path = os.path.join(folder, "trace.csv")
    np.savetxt(path, np.column_stack([times, series]), fmt=["%.6f", "%.9g"], delimiter=",",
               header="time,latency", comments="")
    return path


def main():
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        trace = make_trace(binary, folder)
        for starts in (1, 5):
            began = time.perf_counter()
            out = subprocess.run([binary, "fit", trace, "--format", "series", "--header", "--models", "hmm",
                                  "--hmm-starts", str(starts), "-o", os.path.join(folder, "fit.yaml")],
                                 check=True, capture_output=True, text=True).stdout
            seconds = time.perf_counter() - began
            row = next(line for line in out.splitlines() if line.startswith("hmm"))
            print(f"gpusynth, {starts} start(s): {seconds:.2f} s, {' '.join(row.split()[2:])}")
        if shutil.which("Rscript") is None:
            print("R msm: Rscript is not installed (apt-get install r-cran-msm); skipped")
            return
        msm = subprocess.run(["Rscript", os.path.join(os.path.dirname(__file__), "hmm_msm.R"), trace],
                             capture_output=True, text=True)
        print(msm.stdout.strip() if msm.returncode == 0 else f"R msm failed: {msm.stderr.strip()}")


if __name__ == "__main__":
    main()
