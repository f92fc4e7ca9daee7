#!/usr/bin/env bash
# The Python module (docs/python.md) against the CLI: generate gives the bits
# of `gpusynth CONFIG` for the same config and seed (numpy and xarray), fit the
# estimates `gpusynth fit -o` writes and prints, stats the object of `stats
# --json`, read_trace the series `stats -o` stores, and a bad config raises
# gpusynth.UserError with the CLI's message. Debian's /usr/bin/python3
# (numpy, h5py, yaml, xarray with h5netcdf). Skipped when the module is not
# built (no pybind11-dev or python3-dev).
set -u
source "$(dirname "$0")/lib.sh"
use_python_module "$@"

counts=$data/cloudphysics_per_second.counts
vscsi=$data/cloudphysics_vscsi.csv.gz
cat >"$tmp/x.yaml" <<YAML
seed: 3
output: $tmp/unused.h5
ensembles:
  - {name: a, model: lfsn, params: {alpha: 1.5, H: 0.7}, replicas: 5, length: 300, workload: {v: 2, delta: 10, values: counts}}
  - {name: b, model: normal, params: {mu: 40, sigma: 9}, replicas: 4, length: 120}
  - {name: c, model: fgn, params: {H: 0.8}, replicas: 3, length: 200, dtype: float64}
YAML
expect_rc 0 "run" "$gpusynth" "$tmp/x.yaml" -q -o "$tmp/cli.h5" --seed 11 --replicas 6
expect_rc 0 "fit" "$gpusynth" fit "$counts" --format counts --bin 1s --models normal,lfsn,markov --markov-states 4 \
  --seed 5 -o "$tmp/fitted.yaml"
cp "$tmp/stdout" "$tmp/fit_table"
expect_rc 0 "stats json" "$gpusynth" stats "$counts" --format counts --bin 1s --json --max-lag 30
cp "$tmp/stdout" "$tmp/stats_counts.json"
expect_rc 0 "stats events" "$gpusynth" stats "$vscsi" --format timestamps --header --column time --bin 100ms --json \
  -o "$tmp/vscsi.h5"
cp "$tmp/stdout" "$tmp/stats_vscsi.json"
# A config error: an α out of range, as the CLI reports it.
sed 's/alpha: 1.5/alpha: 2.5/' "$tmp/x.yaml" >"$tmp/bad.yaml"
expect_rc 2 "bad config" "$gpusynth" "$tmp/bad.yaml" -q
sed -n 's/^gpusynth: error: //p' "$tmp/stderr" >"$tmp/bad_message"
expect_rc 2 "bad fit model" "$gpusynth" fit "$counts" --format counts --bin 1s --models nosuch
sed -n 's/^gpusynth: error: //p' "$tmp/stderr" >"$tmp/bad_model_message"

/usr/bin/python3 - "$tmp" "$counts" "$vscsi" >"$tmp/py" 2>&1 <<'PY' || fail "python module: $(tail -c 3000 "$tmp/py")"
import json, math, os, pathlib, sys
import h5py
import numpy as np
import xarray as xr
import yaml
import gpusynth

tmp, counts, vscsi = sys.argv[1:4]
config = pathlib.Path(tmp, "x.yaml")

def same_bits(a, b, what):
    assert a.dtype == b.dtype and a.shape == b.shape, (what, a.dtype, b.dtype, a.shape, b.shape)
    assert a.tobytes() == b.tobytes(), what

# generate: the CLI's bits, from the file, its text and a dict, as numpy and xarray.
with h5py.File(os.path.join(tmp, "cli.h5")) as f:
    cli = {name: f["ensembles"][name]["series"][()] for name in ("a", "b", "c")}
assert cli["a"].dtype == np.uint32 and cli["b"].dtype == np.float32 and cli["c"].dtype == np.float64
text = config.read_text()
for given in (config, str(config), text, yaml.safe_load(text)):
    out = gpusynth.generate(given, seed=11, replicas=6, as_xarray=False, backend="cpu")
    assert sorted(out) == ["a", "b", "c"], out.keys()
    for name in out:
        same_bits(out[name], cli[name], f"generate({type(given).__name__})[{name}]")
assert not os.path.exists(os.path.join(tmp, "unused.h5")), "generate wrote the config's output:"
datasets = gpusynth.generate(text, seed=11, replicas=6)  # xarray is importable here
for name, ds in datasets.items():
    assert isinstance(ds, xr.Dataset) and ds["series"].dims == ("replica", "bin"), ds
    same_bits(ds["series"].values, cli[name], f"xarray {name}")
assert datasets["a"].attrs["model"] == "lfsn" and float(datasets["a"].attrs["alpha"]) == 1.5
kept = os.path.join(tmp, "kept.h5")
gpusynth.generate(text, seed=11, replicas=6, output=kept, as_xarray=False)
with h5py.File(kept) as f:
    same_bits(f["ensembles/c/series"][()], cli["c"], "output= file")
fast_file = os.path.join(tmp, "fast.h5")
gpusynth.generate(text, seed=11, replicas=6, output=fast_file, as_xarray=False, precision="fast", backend="cpu")
with h5py.File(fast_file) as f:
    assert f.attrs["precision"] == "fast" and "fast" in f.attrs["precision_note"], dict(f.attrs)
after_fast = os.path.join(tmp, "after-fast.h5")
gpusynth.generate(text, seed=11, replicas=6, output=after_fast, as_xarray=False, backend="cpu")
with h5py.File(after_fast) as f:
    assert f.attrs["precision"] == "accurate", "precision fast leaked into the next call's default"
    same_bits(f["ensembles/c/series"][()], cli["c"], "the call after a fast one")
# Calls from two threads at once, with different precisions: each gets its own (runs are serialised).
import threading
results = {}
def call(precision):
    results[precision] = gpusynth.generate(text, seed=11, replicas=6, as_xarray=False, backend="cpu",
                                           precision=precision)
threads = [threading.Thread(target=call, args=(p,)) for p in ("fast", "accurate", "fast")]
for t in threads: t.start()
for t in threads: t.join()
for name in cli:
    same_bits(results["accurate"][name], cli[name], f"accurate call beside fast ones [{name}]")
other = gpusynth.generate(text, seed=12, replicas=6, as_xarray=False)
assert other["b"].tobytes() != cli["b"].tobytes(), "another seed gave the same replicas"

# read_trace: the series and channels `stats -o` stores.
trace = gpusynth.read_trace(vscsi, "timestamps", header=True, column="time", bin="100ms")
with h5py.File(os.path.join(tmp, "vscsi.h5")) as f:
    (name,) = list(f["datasets"])
    group = f["datasets"][name]
    same_bits(trace["series"], group["series"][()], "read_trace series")
    assert list(trace["channels"]) == ["count"], trace["channels"].keys()
    for channel in trace["channels"]:
        same_bits(trace["channels"][channel], group["channels"][channel][()], f"read_trace {channel}")
    same_bits(trace["event_times"], group["event_times"][()], "read_trace event times")
assert trace["bin_width"] == 0.1 and trace["series_name"] == "count", trace["bin_width"]
series = gpusynth.read_trace(counts, "counts", bin="1s")["series"]
assert series.shape == (7201,) and series.dtype == np.float64

# stats: the object `stats --json` prints, from a path or from the values.
def same_json(a, b, what):
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), (what, a, b)
cli_counts = json.load(open(os.path.join(tmp, "stats_counts.json")))
same_json(gpusynth.stats(counts, format="counts", bin="1s", max_lag=30), cli_counts, "stats(path)")
provenance = ("source", "sha256", "format", "series", "bin_width", "lines", "bad_lines", "incomplete_modules", "events",
              "duration", "rate")
same_json(gpusynth.stats(series, max_lag=30), {k: v for k, v in cli_counts.items() if k not in provenance},
          "stats(series)")
cli_vscsi = json.load(open(os.path.join(tmp, "stats_vscsi.json")))
same_json(gpusynth.stats(vscsi, format="timestamps", header=True, column="time", bin="100ms"), cli_vscsi,
          "stats(events)")
assert cli_vscsi["interarrival"]["count"] > 0

# fit: the estimates `fit -o` writes (YAML, 17 digits) and the table it prints.
def number(v):
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return v
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return v
    return float(v)
def same_tree(a, b, what):
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), (what, a, b)
        for k in a:
            same_tree(a[k], b[k], f"{what}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), (what, a, b)
        for i, (x, y) in enumerate(zip(a, b)):
            same_tree(x, y, f"{what}[{i}]")
    else:
        x, y = number(a), number(b)
        assert x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y)), (what, a, b)
fitted = yaml.safe_load(open(os.path.join(tmp, "fitted.yaml")))
table = open(os.path.join(tmp, "fit_table")).read()
ours = gpusynth.fit(series, ["normal", "lfsn", "markov"], bin_width=1.0, seed=5, markov_states=4)
assert list(ours) == ["normal", "lfsn", "markov"], list(ours)
for entry in fitted["ensembles"]:
    model = entry["model"]
    r = ours[model]
    assert r["valid"], r
    same_tree(r["params"], entry["params"], f"{model}.params")
    same_tree(r["fit"], entry["fit"], f"{model}.fit")
    expected = {k: v for k, v in entry.items() if k not in ("dataset", "name")}
    same_tree({k: v for k, v in r["ensemble"].items() if k != "name"}, expected, f"{model}.ensemble")
    assert f"{model:<8} {r['validity']:<10} {r['statistic']:<22} {r['estimates']}" in table, (model, table)
    assert (r["validity"] == "boundary") == (r["boundary"] is not None), r
one = gpusynth.fit(series, "normal", bin_width=1.0, seed=5)
assert one["model"] == "normal" and one["params"] == ours["normal"]["params"], one
assert "log_likelihood" in one["fit"] and "mu_se" in one["fit"], one["fit"]
# The fitted entry runs as generate's config.
entry = dict(ours["lfsn"]["ensemble"], replicas=2, length=256)
run = gpusynth.generate({"seed": 1, "ensembles": [entry]}, as_xarray=False)
assert run[entry["name"]].shape == (2, 256) and run[entry["name"]].dtype == np.uint32

# Errors: the CLI's message text, as gpusynth.UserError (a ValueError).
message = open(os.path.join(tmp, "bad_message")).read().strip()
bad = pathlib.Path(tmp, "bad.yaml")
for given, expected in ((bad, message), (bad.read_text(), message.replace(str(bad), "<config>"))):
    try:
        gpusynth.generate(given)
    except gpusynth.UserError as e:
        assert isinstance(e, ValueError) and str(e) == expected, (str(e), expected)
    else:
        raise AssertionError("a bad config did not raise")
model_message = open(os.path.join(tmp, "bad_model_message")).read().strip()
try:
    gpusynth.fit(series, "nosuch")
except gpusynth.UserError as e:
    assert str(e) == model_message.replace("--models", "model"), (str(e), model_message)
else:
    raise AssertionError("an unknown model did not raise")
for call, fragment in ((lambda: gpusynth.read_trace(counts, "counts", bin="1x"), "read_trace.bin"),
                       (lambda: gpusynth.read_trace(counts, "counts", bni="1s"), "unknown key 'bni' in read_trace"),
                       (lambda: gpusynth.stats([1.0, float("nan"), 2.0]), "not a finite number"),
                       (lambda: gpusynth.generate(text, backend="gpu"), "'gpu'"),
                       (lambda: gpusynth.generate(text, precision="half"), "accepted: accurate, fast")):
    try:
        call()
    except gpusynth.UserError as e:
        assert fragment in str(e), (fragment, str(e))
    else:
        raise AssertionError(f"no error for {fragment}")
print("the module gave the CLI's bits, estimates, statistics and messages")
PY
finish "python"
