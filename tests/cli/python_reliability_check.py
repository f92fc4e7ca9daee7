"""The Python module's reliability cases (docs/python.md, Errors, Threads and
Ctrl-C, Memory), one per process so that a crash fails its case only:

  python_reliability_check.py CASE TMP_DIRECTORY

prints "ok: CASE ..." and exits 0, or fails (an assertion, or the crash of the
interpreter). Run by python_reliability_test.sh with PYTHONPATH naming the
module's folder.
"""
import os
import pathlib
import signal
import sys
import threading
import time

import numpy as np

import gpusynth

case, tmp = sys.argv[1], pathlib.Path(sys.argv[2])

# Three small ensembles (counts, float32, float64): a call takes milliseconds,
# so calls from several threads overlap in every phase (run, file, read-back).
SMALL = {
    "seed": 3,
    "ensembles": [
        {"name": "a", "model": "lfsn", "params": {"alpha": 1.5, "H": 0.7}, "replicas": 5, "length": 300,
         "workload": {"v": 2, "delta": 10, "values": "counts"}},
        {"name": "b", "model": "normal", "params": {"mu": 40, "sigma": 9}, "replicas": 4, "length": 120},
        {"name": "c", "model": "fgn", "params": {"H": 0.8}, "replicas": 3, "length": 200, "dtype": "float64"},
    ],
}
# A run of several seconds (LFSN, long FFTs) whose arrays are small (16 MiB).
SLOW = {
    "seed": 5,
    "ensembles": [
        {"name": "slow", "model": "lfsn", "params": {"alpha": 1.5, "beta": 0.5, "H": 0.8, "m": 16, "K": 256},
         "workload": {"v": 2.0, "delta": 10.0, "values": "counts"}, "replicas": 20000, "length": 4096},
    ],
}


def user_error(call, *fragments):
    """The gpusynth.UserError (a ValueError) that call() raises; its message holds every fragment."""
    try:
        call()
    except gpusynth.UserError as e:
        assert isinstance(e, ValueError)
        for fragment in fragments:
            assert fragment in str(e), (fragment, str(e))
        return str(e)
    raise AssertionError(f"no gpusynth.UserError (expected {fragments})")


def same_bits(a, b, what):
    assert a.dtype == b.dtype and a.shape == b.shape, (what, a.dtype, b.dtype, a.shape, b.shape)
    assert a.tobytes() == b.tobytes(), what


def sigint_after(seconds, stamp):
    """SIGINT to this process after `seconds` (as Ctrl-C sends it); stamp["sent"] is when."""
    def send():
        time.sleep(seconds)
        stamp["sent"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=send, daemon=True).start()


def python_sees_ctrl_c():
    """After the module's calls Python's own SIGINT handling is whole: a sleep and a blocking read stop."""
    for blocking in ("sleep", "read"):
        r, w = os.pipe()
        unblock = threading.Timer(3.0, lambda: os.write(w, b"x"))  # ends a read that missed the signal
        unblock.start()
        stamp = {}
        sigint_after(0.3, stamp)
        try:
            time.sleep(3) if blocking == "sleep" else os.read(r, 1)
        except KeyboardInterrupt:
            late = time.monotonic() - stamp["sent"]
            assert late < 1.0, f"{blocking}: KeyboardInterrupt {late:.2f} s after SIGINT"
        else:
            raise AssertionError(f"SIGINT did not stop a blocking {blocking} after the module's calls")
        finally:
            unblock.cancel()
            unblock.join()
            os.close(r), os.close(w)


if case.startswith("recursion-"):
    # A recursive or absurdly deep config is an error naming the problem, not a segfault.
    kind = case[len("recursion-"):]
    if kind == "dict":
        d = {}
        d["x"] = d
        user_error(lambda: gpusynth.generate(d), "config['x']", "contains itself", "recursive")
    elif kind == "list":
        inner = []
        inner.append(inner)
        user_error(lambda: gpusynth.generate({"ensembles": inner}), "config['ensembles'][0]", "contains itself")
    elif kind == "deep-dict":
        d = top = {}
        for _ in range(100000):
            d["a"] = {}
            d = d["a"]
        user_error(lambda: gpusynth.generate(top), "nested more than 100 deep", "at most 100 levels",
                   "depth limit")
    elif kind == "deep-list":
        top = []
        for _ in range(100000):
            top = [top]
        user_error(lambda: gpusynth.generate({"ensembles": top}), "config['ensembles'][0][0]",
                   "nested more than 100 deep")
    elif kind == "keyword":
        d = {}
        d["x"] = d
        counts = os.path.join(os.environ["GS_DATA"], "cloudphysics_per_second.counts")
        user_error(lambda: gpusynth.read_trace(counts, "counts", bin=d), "read_trace['bin']['x']", "contains itself")
    else:
        raise SystemExit(f"unknown case {case}")
    # Not nested too deep: 100 levels under an unknown key are the config's own error.
    d = top = {}
    for _ in range(98):
        d["a"] = {}
        d = d["a"]
    user_error(lambda: gpusynth.generate(top), "unknown key 'a'")
    print(f"ok: {case}")

elif case == "threads":
    # Several threads at once, each with its own seed and precision: every result has the bits of a
    # serial call (the calls run at once); nothing crashes; Python's Ctrl-C works afterwards.
    calls = [(seed, "fast" if seed % 2 else "accurate", seed % 4 == 0) for seed in range(1, 17)]
    def one(seed, precision, as_xarray):
        out = gpusynth.generate(SMALL, seed=seed, precision=precision, as_xarray=as_xarray, backend="cpu")
        return {k: (v["series"].values if as_xarray else v) for k, v in out.items()}
    serial = {c: one(*c) for c in calls}
    results, errors = {}, []
    def worker(mine):
        try:
            for c in mine:
                results[c] = one(*c)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))
    threads = [threading.Thread(target=worker, args=(calls[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for c in calls:
        for name in serial[c]:
            same_bits(results[c][name], serial[c][name], f"seed {c[0]} {c[1]} [{name}]")
    assert serial[calls[0]]["b"].tobytes() != serial[calls[1]]["b"].tobytes()
    python_sees_ctrl_c()
    print(f"ok: {case}: {len(calls)} calls from 4 threads gave the serial bits")

elif case == "concurrent":
    # Two calls at once with different precisions (each run has its own execution context): the
    # short call (fast) starts while the long one (accurate) runs and ends before it, and each
    # gives the bits it gives alone. Calls that were serialised, or that shared a process-wide
    # precision, fail this.
    long_config = dict(SLOW, ensembles=[dict(SLOW["ensembles"][0], replicas=4000)])
    def long_call():
        return gpusynth.generate(long_config, precision="accurate", as_xarray=False, backend="cpu")["slow"]
    def short_call(precision):
        return gpusynth.generate(SMALL, precision=precision, as_xarray=False, backend="cpu")
    started = time.monotonic()
    alone_long = long_call()
    long_seconds = time.monotonic() - started
    alone_short = short_call("fast")
    flags = pathlib.Path("/proc/cpuinfo").read_text()
    if " avx2 " in flags and " fma " in flags:  # the lanes have a fast form; the scalar path has none
        assert any(alone_short[k].tobytes() != v.tobytes() for k, v in short_call("accurate").items()), \
            "precision fast gave the accurate bits"
    else:
        print("note: this CPU has no lanes: fast and accurate give the same bits here")
    results, ended = {}, {}
    def long_thread():
        results["long"] = long_call()
        ended["long"] = time.monotonic()
    thread = threading.Thread(target=long_thread)
    thread.start()
    time.sleep(0.25 * long_seconds)  # the long call is well inside its run
    results["short"] = short_call("fast")
    ended["short"] = time.monotonic()
    thread.join()
    assert ended["short"] < ended["long"], \
        f"the short call ended {ended['short'] - ended['long']:.2f} s after the long one: the calls were serialised"
    same_bits(results["long"], alone_long, "the long call (accurate) beside the short one")
    for name, values in alone_short.items():
        same_bits(results["short"][name], values, f"the short call (fast) [{name}]")
    print(f"ok: {case}: the fast call ended {ended['long'] - ended['short']:.2f} s before the accurate one "
          f"({long_seconds:.2f} s alone), each with its own bits")

elif case == "readback":
    # The read-back in slabs (16 MiB): the file's bits as numpy, and as xarray exactly what
    # xr.open_dataset gives (values, coordinates, attributes).
    import h5py
    import xarray as xr
    kept = tmp / "slabs.h5"
    config = {"seed": 2, "compression": 0, "ensembles": [
        {"name": "f", "model": "normal", "params": {"mu": 1, "sigma": 2}, "replicas": 1100, "length": 4096},
        {"name": "u", "model": "stable", "params": {"alpha": 1.5, "beta": 0.5}, "replicas": 7, "length": 64,
         "workload": {"v": 2, "delta": 10, "values": "counts"}}]}
    arrays = gpusynth.generate(config, output=str(kept), as_xarray=False, backend="cpu")
    with h5py.File(kept) as f:
        for name in ("f", "u"):
            same_bits(arrays[name], f[f"ensembles/{name}/series"][()], f"numpy {name}")
    datasets = gpusynth.generate(config, as_xarray=True, backend="cpu")
    for name in ("f", "u"):
        with xr.open_dataset(kept, group=f"ensembles/{name}", engine="h5netcdf") as direct:
            assert datasets[name].identical(direct.load()), name
        same_bits(datasets[name]["series"].values, arrays[name], f"xarray {name}")
    print(f"ok: {case}")

elif case == "paths":
    # A str that names no file is that error, never YAML text of one string; YAML text stays text.
    missing = tmp / "nosuch" / "config.yaml"
    user_error(lambda: gpusynth.generate(str(missing)), str(missing), "No such file")
    user_error(lambda: gpusynth.generate("configs-missing.yml"), "configs-missing.yml", "No such file")
    user_error(lambda: gpusynth.generate(missing), str(missing), "No such file")
    user_error(lambda: gpusynth.generate(str(tmp)), str(tmp), "is a directory")
    one_line = ("{seed: 3, output: out/x.h5, ensembles: [{name: a, model: normal, params: {mu: 1, sigma: 1}, "
                "replicas: 2, length: 8}]}")
    assert gpusynth.generate(one_line, as_xarray=False)["a"].shape == (2, 8)
    user_error(lambda: gpusynth.generate("seed: [1"), "<config>")  # broken text is still read as text
    user_error(lambda: gpusynth.generate("*missing.yaml"), "*missing.yaml", "No such file")  # no YAML, a path
    def reentrant():  # a call from inside a call is an error, not a deadlock
        class Sneaky:
            def __fspath__(self):
                return gpusynth.generate(one_line)
        gpusynth.generate({"output": Sneaky()})
    user_error(reentrant, "cannot be called from inside one of its calls")
    # The config's file as the output: refused before the run, the config kept (issue 56).
    config = tmp / "self.yaml"
    config.write_text(one_line.replace("out/x.h5", "x.h5"))
    before = config.read_bytes()
    user_error(lambda: gpusynth.generate(str(config), output=str(config)), "are the same file",
               "an output may not replace an input of its own run")
    assert config.read_bytes() == before, "generate(path, output=path) changed the config"
    print(f"ok: {case}")

elif case == "fit-empty":
    series = np.random.default_rng(1).normal(10, 2, 500)
    for empty in ([], ()):
        user_error(lambda: gpusynth.fit(series, empty), "model", "empty", "accepted", "lfsn", "normal")
    for wrong in (0, 2**32):  # as the CLI's --replicas (issue 56)
        user_error(lambda: gpusynth.fit(series, "normal", replicas=wrong), f"replicas = {wrong} is out of range",
                   "1 to 4294967295")
    print(f"ok: {case}")

elif case == "memory":
    # generate returns every replica: refused before the run, with the numbers.
    started = time.monotonic()
    big = dict(SLOW, ensembles=[dict(SLOW["ensembles"][0], name=n) for n in ("x", "y")])
    message = user_error(lambda: gpusynth.generate(big, replicas=10**9), "'x' 1000000000 replicas × 4096 bins of uint32: 14.9 TiB", "29.8 TiB", "memory budget",
                         "memory_limit")
    assert time.monotonic() - started < 5, f"the refusal took {time.monotonic() - started:.1f} s"
    user_error(lambda: gpusynth.generate(SMALL, replicas=1000, memory_limit="1MiB"),
               "1.0 MiB (memory_limit)", "'a' 1000 replicas")
    out = gpusynth.generate(SMALL, replicas=1000, memory_limit=8 << 20, as_xarray=False)
    assert out["a"].shape == (1000, 300)
    user_error(lambda: gpusynth.generate(SMALL, memory_limit="lots"), "memory_limit", "'lots'", "GiB")
    for wrong in (0, -5, 10**30):
        user_error(lambda: gpusynth.generate(SMALL, memory_limit=wrong), f"memory_limit = {wrong} is out of range")
    # A study's fitted ensemble has its length only once the dataset is read: refused before the
    # read-back, the kept file complete.
    counts = os.path.join(os.environ["GS_DATA"], "cloudphysics_per_second.counts")
    study = {"seed": 1, "datasets": [{"name": "cp", "trace": counts, "format": "counts", "bin": "1s"}],
             "models": ["normal"], "replicas": 100}
    kept = tmp / "study.h5"
    user_error(lambda: gpusynth.generate(study, memory_limit="1MiB", output=str(kept)),
               "'cp-normal' 100 replicas × 7201 bins of uint32", "is complete")
    assert kept.exists()
    print(f"ok: {case}: {message[:120]}…")

elif case == "interrupt-run":
    # Ctrl-C while a run generates: KeyboardInterrupt within a second, nothing kept; the next call runs.
    kept = tmp / "interrupted.h5"
    stamp = {}
    sigint_after(0.5, stamp)
    started = time.monotonic()
    try:
        gpusynth.generate(SLOW, output=str(kept), as_xarray=False, backend="cpu")
    except KeyboardInterrupt:
        late = time.monotonic() - stamp["sent"]
        assert late < 1.0, f"KeyboardInterrupt {late:.2f} s after SIGINT"
    else:
        raise AssertionError(f"the run ended ({time.monotonic() - started:.1f} s) without KeyboardInterrupt")
    assert not kept.exists() and not list(tmp.glob(".interrupted.h5.tmp-*")), list(tmp.iterdir())
    assert gpusynth.generate(SMALL, as_xarray=False)["b"].shape == (4, 120)
    python_sees_ctrl_c()
    print(f"ok: {case}: KeyboardInterrupt {late:.2f} s after SIGINT")

elif case == "interrupt-threads":
    # Ctrl-C while threads call generate: the running call and the waiting ones raise
    # KeyboardInterrupt, and the main thread gets it as Python gives it Ctrl-C.
    raised = {}
    def worker(i):
        try:
            gpusynth.generate(SLOW, seed=i, as_xarray=False, backend="cpu")
            raised[i] = "returned"
        except KeyboardInterrupt:
            raised[i] = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    stamp = {}
    for t in threads:
        t.start()
    sigint_after(0.5, stamp)
    main = None
    try:
        while any(t.is_alive() for t in threads):
            time.sleep(0.02)
    except KeyboardInterrupt:
        main = time.monotonic()
    for t in threads:
        t.join()
    assert main is not None, "the main thread got no KeyboardInterrupt"
    for i in range(3):
        assert raised[i] != "returned", f"thread {i} ran to the end"
        assert raised[i] - stamp["sent"] < 1.0, f"thread {i}: {raised[i] - stamp['sent']:.2f} s"
    assert main - stamp["sent"] < 1.5, f"main thread: {main - stamp['sent']:.2f} s"
    assert gpusynth.generate(SMALL, as_xarray=False)["b"].shape == (4, 120)
    print(f"ok: {case}")

else:
    raise SystemExit(f"unknown case {case}")
