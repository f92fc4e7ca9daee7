"""The Python module on a GPU (../shared/GPU.md's owed check), for bench/gpu_session.sh's "python" part:

  gpu_python_check.py GPUSYNTH CONFIG TMP_DIRECTORY [DEVICE]

with the module built beside GPUSYNTH (the same build) on PYTHONPATH; DEVICE, default cuda, is the backend checked (cpu
tries the script on a machine without a GPU). Checks, each printed as "ok: ..."
or ending the script with an AssertionError:
  1. generate(CONFIG, backend="cuda") gives the bits of `GPUSYNTH CONFIG --backend cuda`, every ensemble;
  2. backend="auto" those of the CLI's auto run (each model where it runs faster, docs/engine.md);
  3. calls from 8 threads at once, half on the GPU and half on the host, with their own seeds, each give
     the bits of the same call made alone;
  4. precision="fast" on the GPU is written as fast and changes the values of the stable laws.
"""
import pathlib
import subprocess
import sys
import threading
import time

import h5py
import numpy as np

import gpusynth

cli, config, tmp = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
device = sys.argv[4] if len(sys.argv) > 4 else "cuda"
tmp.mkdir(parents=True, exist_ok=True)


def cli_run(backend):
    """Every ensemble's series of the CLI's run of config on backend."""
    path = tmp / f"cli-{backend}.h5"
    subprocess.run([cli, config, "--backend", backend, "-q", "-o", str(path)], check=True)
    with h5py.File(path) as f:
        return {name: group["series"][()] for name, group in f["ensembles"].items()}


def same_bits(a, b, what):
    assert a.dtype == b.dtype and a.shape == b.shape, (what, a.dtype, b.dtype, a.shape, b.shape)
    assert a.tobytes() == b.tobytes(), f"{what}: {np.count_nonzero(a != b)} of {a.size} values differ"


def same_ensembles(got, expected, what):
    assert sorted(got) == sorted(expected), (what, sorted(got), sorted(expected))
    for name in expected:
        same_bits(got[name], expected[name], f"{what}[{name}]")


for backend in (device, "auto"):
    start = time.perf_counter()
    got = gpusynth.generate(config, backend=backend, as_xarray=False)
    took = time.perf_counter() - start
    same_ensembles(got, cli_run(backend), f"generate(backend={backend!r})")
    print(f"ok: generate(backend={backend!r}) gives the CLI's bits, {len(got)} ensembles "
          f"({sum(a.size for a in got.values())} values, {took:.2f} s)")

calls = [(seed, device if seed % 2 else "cpu") for seed in range(1, 9)]
alone = {call: gpusynth.generate(config, seed=call[0], backend=call[1], as_xarray=False) for call in calls}
together, errors = {}, []


def worker(call):
    try:
        together[call] = gpusynth.generate(config, seed=call[0], backend=call[1], as_xarray=False)
    except BaseException as e:  # noqa: BLE001 - reported below, with the call that raised it
        errors.append((call, repr(e)))


threads = [threading.Thread(target=worker, args=(call,)) for call in calls]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors
for call in calls:
    same_ensembles(together[call], alone[call], f"thread {call}")
print(f"ok: {len(calls)} calls from as many threads at once (GPU and host) each give the bits of the call alone")

fast_file, accurate_file = tmp / "fast.h5", tmp / "accurate.h5"
fast = gpusynth.generate(config, backend=device, precision="fast", output=str(fast_file), as_xarray=False)
accurate = gpusynth.generate(config, backend=device, output=str(accurate_file), as_xarray=False)
with h5py.File(fast_file) as f, h5py.File(accurate_file) as g:
    assert f.attrs["precision"] == "fast" and g.attrs["precision"] == "accurate", (dict(f.attrs), dict(g.attrs))
changed = [name for name in fast if fast[name].tobytes() != accurate[name].tobytes()]
assert changed, "precision fast changed no ensemble"
print(f"ok: precision fast on {device} written as such, values changed in {', '.join(sorted(changed))}")
