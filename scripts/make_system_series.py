#!/usr/bin/python3
"""Compose a long synthetic system-level I/O series from the shipped Darshan logs.

The logs in ../shared/data/traces/darshan are single short jobs; a facility's
system-level series is the sum of many jobs. This script bins each log's bytes
(read, write or both) per second with gpusynth itself (`gpusynth stats --format
darshan --bin 10ms`, summed per second), lets jobs arrive as a Poisson process (each job one of the
logs, drawn uniformly; numpy PCG64 with a fixed seed), adds each job's profile at
its arrival second and sums the result into bins (5 min by default). The output
is a `counts` file whose header records every choice. It is synthetic: the job
profiles are real, the arrivals are not.

Example (what tests/data/system-write-5min.synthetic.counts was made with):
  scripts/make_system_series.py --gpusynth build/gpusynth --channel bytes_write \\
      --days 30 --jobs-per-hour 6 --seed 20 -o tests/data/system-write-5min.synthetic.counts
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np


def profile(gpusynth, log, channel, workdir):
    """Bytes per second of one log, from gpusynth's own darshan reader (in 10 ms bins, so that jobs
    of a few milliseconds are read too, summed per second)."""
    out = os.path.join(workdir, "profile.h5")
    subprocess.run([gpusynth, "stats", log, "--format", "darshan", "--bin", "10ms", "--series", channel,
                    "-o", out, "--name", "job"], check=True, stdout=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        hundredths = np.asarray(f["datasets/job/series"], dtype=np.float64)
    hundredths = np.concatenate([hundredths, np.zeros(-len(hundredths) % 100)])
    return hundredths.reshape(-1, 100).sum(axis=1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gpusynth", required=True)
    parser.add_argument("--logs", nargs="*",
                        default=sorted(glob.glob(os.path.join(here, "../../shared/data/traces/darshan/*.parser.txt.gz"))))
    parser.add_argument("--channel", default="bytes_write", choices=["bytes", "bytes_read", "bytes_write"])
    parser.add_argument("--days", type=float, default=30)
    parser.add_argument("--jobs-per-hour", type=float, default=6)
    parser.add_argument("--bin", type=int, default=300, help="seconds")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if not args.logs:
        sys.exit("no darshan logs found; give --logs")
    with tempfile.TemporaryDirectory() as workdir:
        profiles = [profile(args.gpusynth, log, args.channel, workdir) for log in args.logs]
    rng = np.random.Generator(np.random.PCG64(args.seed))
    seconds = int(round(args.days * 86400))
    longest = max(len(p) for p in profiles)
    total = np.zeros(seconds + longest)
    jobs = rng.poisson(args.jobs_per_hour * seconds / 3600)
    starts = np.sort(rng.integers(0, seconds, size=jobs))
    which = rng.integers(0, len(profiles), size=jobs)
    for start, k in zip(starts, which):
        total[start:start + len(profiles[k])] += profiles[k]
    bins = seconds // args.bin
    series = total[:bins * args.bin].reshape(bins, args.bin).sum(axis=1)
    with open(args.output + ".tmp", "w") as out:
        out.write("# Synthetic system-level series made by scripts/make_system_series.py: NOT a measured trace.\n")
        out.write(f"# {args.channel} per {args.bin} s bin, {args.days:g} days, {jobs} jobs arriving as a Poisson process "
                  f"({args.jobs_per_hour:g} per hour, numpy PCG64 seed {args.seed}), each job one of these darshan logs "
                  "(uniformly), its bytes binned per 10 ms by gpusynth and summed per second:\n")
        for log in args.logs:
            out.write(f"#   {os.path.basename(log)}\n")
        for value in series:
            out.write(f"{value:.17g}\n")
    os.replace(args.output + ".tmp", args.output)
    print(f"{args.output}: {bins} bins, {jobs} jobs, total {series.sum():.4g} bytes")


if __name__ == "__main__":
    main()
