#!/usr/bin/python3
"""What a Python user would otherwise write for the comparison models, timed on
the shapes of bench_cpu's BM_GpusynthModel (16 replicas x 65536 values):
Davies-Harte fGn in vectorised numpy (H = 0.8), i.i.d. normals in numpy, and
the 3-state continuous-time HMM of BM_GpusynthModel/model:6 as a plain Python
event loop (timed on 2 replicas, which is long enough to be stable)."""
import time

import numpy as np

REPLICAS, LENGTH = 16, 1 << 16


def best_of(fn, repeats=3):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def fgn_davies_harte(H, n, replicas, rng):
    k = np.arange(n + 1, dtype=float)
    gamma = 0.5 * (np.abs(k + 1) ** (2 * H) - 2 * k ** (2 * H) + np.abs(k - 1) ** (2 * H))
    row = np.concatenate([gamma, gamma[-2:0:-1]])  # gamma(n) in the middle
    lam = np.fft.rfft(row).real
    m = row.size
    w = rng.standard_normal((replicas, lam.size)) + 1j * rng.standard_normal((replicas, lam.size))
    w[:, 1:-1] /= np.sqrt(2)
    w[:, 0] = w[:, 0].real
    w[:, -1] = w[:, -1].real
    return np.fft.irfft(np.sqrt(np.maximum(lam, 0) / m) * w, n=m, axis=1)[:, :n] * m


def hmm_python(q, mu, sigma, initial, interval, n, rng):
    rates = -np.diag(q)
    jumps = [np.where(np.arange(3) == i, 0.0, q[i] / rates[i]) for i in range(3)]
    state = rng.choice(3, p=initial)
    t_end = rng.exponential(1 / rates[state])
    out = np.empty(n)
    for i in range(n):
        t = i * interval
        while t_end <= t:
            state = rng.choice(3, p=jumps[state])
            t_end += rng.exponential(1 / rates[state])
        out[i] = np.exp(mu[state] + sigma[state] * rng.standard_normal())
    return out


def main():
    rng = np.random.default_rng(1)
    print(f"numpy {np.__version__}; shapes: {REPLICAS} replicas x {LENGTH} values")
    seconds = best_of(lambda: fgn_davies_harte(0.8, LENGTH, REPLICAS, rng))
    print(f"numpy_fgn_davies_harte  {REPLICAS * LENGTH / seconds:.3g} samples/s")
    seconds = best_of(lambda: rng.standard_normal((REPLICAS, LENGTH)))
    print(f"numpy_normal            {REPLICAS * LENGTH / seconds:.3g} samples/s")
    q = np.array([[-0.5, 0.4, 0.1], [0.2, -0.3, 0.1], [1.0, 2.0, -3.0]])
    mu, sigma = np.array([0.0, 1.0, 3.0]), np.array([0.1, 0.25, 0.5])
    a = np.vstack([q.T, np.ones(3)])  # pi Q = 0, sum(pi) = 1
    initial = np.linalg.lstsq(a, np.array([0.0, 0.0, 0.0, 1.0]), rcond=None)[0]
    seconds = best_of(lambda: [hmm_python(q, mu, sigma, initial, 1.0, LENGTH, rng) for _ in range(2)], repeats=1)
    print(f"python_loop_hmm         {2 * LENGTH / seconds:.3g} samples/s")


if __name__ == "__main__":
    main()
