# %% [markdown]
# # Do fitted models keep the trace's memory?
#
# A notebook in `# %%` cells (Jupyter, VS Code or plain `python3`): fit the α-stable LFSN
# model (and fGn, for contrast) to the shipped CloudPhysics trace (requests per second),
# generate 1000 replicas of each with the engine the CLI runs, and draw the median ACF of
# the replicas, with a 5–95 % band, beside the trace's ACF. After the README's build, from the source tree:
#
#     PYTHONPATH=build/python /usr/bin/python3 docs/examples/python_acf.py
#
# The figure goes to out/examples/python-acf.png of the source tree; `--refresh-docs` writes
# the tracked docs/images/python-acf.png that docs/python.md shows instead (a run never replaces
# it unasked). GPUSYNTH_EXAMPLE_REPLICAS changes the replicas (tests/cli/python_example_test.sh
# runs it with fewer).

# %%
import os
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # a file, also without a display
import matplotlib.pyplot as plt
import numpy as np

import gpusynth

root = pathlib.Path(__file__).resolve().parents[2]
replicas = int(os.environ.get("GPUSYNTH_EXAMPLE_REPLICAS", "1000"))
figure = root / ("docs/images" if "--refresh-docs" in sys.argv[1:] else "out/examples") / "python-acf.png"
max_lag = 100

# %% The trace, binned per second (as `gpusynth stats … --format counts --bin 1s` reads it)
trace = gpusynth.read_trace(root / "tests/data/cloudphysics_per_second.counts", "counts", bin="1s")
series = trace["series"]
trace_stats = gpusynth.stats(series, max_lag=max_lag)
print(f"{series.size} bins, mean {trace_stats['mean']:.3g}, cv {trace_stats['cv']:.3g}, "
      f"Hurst (stable) {trace_stats['hurst']['stable']['H']:.3f}")

# %% Fit the models (what `gpusynth fit --models lfsn,fgn` prints and writes)
models = ["lfsn", "fgn"]
fitted = gpusynth.fit(series, models, bin_width=trace["bin_width"])
for model in models:
    print(f"{model}: {fitted[model]['estimates']} | {fitted[model]['statistic']}")

# %% Generate the replicas: each fitted entry is a runnable `ensembles:` entry
ensembles = [dict(fitted[model]["ensemble"], replicas=replicas) for model in models]
generated = gpusynth.generate({"seed": 2024, "ensembles": ensembles}, as_xarray=False)
for name, counts in generated.items():
    print(f"{name}: replicas × bins: {counts.shape}, {counts.dtype}")


# %% ACFs: c(k)/c(0), c(k) = 1/n Σ (x_t − x̄)(x_{t+k} − x̄), the definition of `gpusynth stats`
def acf(rows, lags):
    rows = np.atleast_2d(np.asarray(rows, dtype=float))
    centred = rows - rows.mean(axis=1, keepdims=True)
    n = rows.shape[1]
    spectrum = np.fft.rfft(centred, 2 * n, axis=1)
    c = np.fft.irfft(np.abs(spectrum) ** 2, axis=1)[:, : lags + 1]
    return c / c[:, :1]


trace_acf = np.array(trace_stats["acf"])
assert np.allclose(acf(series, max_lag)[0], trace_acf, atol=1e-9)  # the same definition as the engine's
bands = {model: np.percentile(acf(generated[entry["name"]], max_lag), [5, 50, 95], axis=0)
         for model, entry in zip(models, ensembles)}

# %% The figure
lags = np.arange(max_lag + 1)
fig, ax = plt.subplots(figsize=(7, 4))
for (model, (low, median, high)), colour in zip(bands.items(), ("tab:blue", "tab:orange")):
    ax.fill_between(lags[1:], low[1:], high[1:], color=colour, alpha=0.25, label=f"{model} replicas, 5–95 %")
    ax.plot(lags[1:], median[1:], color=colour, label=f"{model} replicas, median ({replicas})")
ax.plot(lags[1:], trace_acf[1:], color="black", lw=1.5, label="trace (CloudPhysics, 1 s bins)")
ax.set_xscale("log")
ax.set_xlabel("lag (s)")
ax.set_ylabel("autocorrelation")
ax.set_title("fitted to the trace: " + "; ".join(f"{m} {fitted[m]['estimates'].split(' (')[0]}" for m in models),
             fontsize=8)
ax.legend(frameon=False)
fig.tight_layout()
figure.parent.mkdir(parents=True, exist_ok=True)
fig.savefig(figure, dpi=110)
print(f"wrote {figure}")
