#!/usr/bin/python3
"""Independent alpha-stable log-likelihoods of whole series, for the fit's check on continuous data.

The α-stable fit's ln L at given parameters (S1: alpha, beta, sigma, mu) is the sum over the
values of ln f(x); this script computes that sum with the mpmath evaluation of Nolan's integral
that made tests/data/stable_reference_S*.csv (scripts/make_stable_reference.py: s0_point, at
mp.dps = 30 here, every point's quadrature error estimate below 1e-12 relative or the point is
reported). Nothing of gpusynth is used: the parameters are numbers given on the command line.

  draws:      /usr/bin/python3 scripts/make_stable_loglik_reference.py draws
              writes tests/data/stable_draws_*.values: 1000 draws each of S1 laws whose estimates
              lie near the edge of their support (alpha <= 0.6, |beta| = 1), from scipy's
              levy_stable.rvs (Chambers-Mallows-Stuck, S1) with a fixed seed, 17 digits a line.
  reference:  /usr/bin/python3 scripts/make_stable_loglik_reference.py reference \\
                  --point FILE[:COLUMN] LABEL ALPHA BETA SIGMA MU [--point ...] [--out CSV]
              prints (and with --out writes) a CSV row per point: file, label, the parameters as
              given, n, the sum of ln f and the largest quadrature error estimate. The values are
              the file's whitespace-separated COLUMN (default 1); a first line that is no number
              (a header) is skipped.
"""
import argparse
import datetime
import math
import os
import sys
import time

from mpmath import mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_stable_reference as nolan  # noqa: E402  (the same directory)

DPS = 30
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The draws: (file, alpha, beta, sigma, mu, seed), S1.
DRAWS = [("stable_draws_a05_b1.values", 0.5, 1.0, 1.0, 0.0, 20261125),
         ("stable_draws_a06_bm1.values", 0.6, -1.0, 2.0, 3.0, 20261126)]


def write_draws():
    from scipy.stats import levy_stable  # only for the draws
    levy_stable.parameterization = "S1"
    for name, a, b, s, m, seed in DRAWS:
        x = levy_stable.rvs(a, b, loc=m, scale=s, size=1000, random_state=seed)
        with open(os.path.join(ROOT, "tests", "data", name), "w") as out:
            out.writelines("%r\n" % float(v) for v in x)
        print("wrote tests/data/%s: S1(%s, %s, %s, %s), seed %d" % (name, a, b, s, m, seed))


def read_values(path, column):
    values = []
    with open(path) as f:
        for i, line in enumerate(f):
            if not line.strip():
                continue
            field = line.split()[column - 1]
            try:
                float(field)
            except ValueError:
                if i == 0:
                    continue  # the header
                raise
            values.append(field)
    return values


def log_likelihood(values, alpha, beta, sigma, mu):
    """Sum of ln f(x) over the values (decimal strings, read as binary64), and the largest error estimate."""
    total, worst = mp.mpf(0), 0
    with mp.workdps(DPS + 20):
        for v in values:
            z, s = nolan.s1_to_s0_x(alpha, beta, sigma, mu, float(v))
            point = nolan.s0_point(nolan.exact(alpha), nolan.exact(beta), z, DPS)
            if point["ln_pdf"] == mp.ninf:
                return -math.inf, 0
            total += point["ln_pdf"] - mp.log(s)
            worst = max(worst, max(abs(e) for e in point["rel"]))
    return total, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["draws", "reference"])
    ap.add_argument("--point", nargs=6, action="append", default=[],
                    metavar=("FILE", "LABEL", "ALPHA", "BETA", "SIGMA", "MU"))
    ap.add_argument("--out", help="the CSV to write (default: print only)")
    args = ap.parse_args()
    nolan.BASE_DPS = DPS
    if args.what == "draws":
        write_draws()
        return
    rows = []
    for where, label, *params in args.point:
        start = time.process_time()
        path, _, column = where.partition(":")
        values = read_values(os.path.join(ROOT, path), int(column or 1))
        alpha, beta, sigma, mu = (float(p) for p in params)
        total, worst = log_likelihood(values, alpha, beta, sigma, mu)
        rows.append("%s,%s,%s,%s,%s,%s,%d,%s,%.1e" % (os.path.basename(path), label, *params, len(values),
                                                      mp.nstr(total, 17), worst))
        print(rows[-1], "(%.0f s of CPU)" % (time.process_time() - start), flush=True)
    if args.out:
        with open(args.out, "w") as out:
            out.write("# Sums of ln f over the values of each file at the parameters given (S1), computed with\n"
                      "# mpmath (Nolan's integral, scripts/make_stable_reference.py's s0_point at mp.dps = %d),\n"
                      "# every point's quadrature error estimate below the worst_error column.\n"
                      "# Made by: /usr/bin/python3 %s (%s); the parameters are\n"
                      "# gpusynth's estimates (label estimates) and the laws the draws came from (label truth).\n"
                      % (DPS, " ".join(sys.argv[0:1] + [a if " " not in a else repr(a) for a in sys.argv[1:]]),
                         datetime.date.today()))
            out.write("file,label,alpha,beta,sigma,mu,n,log_likelihood,worst_error\n")
            out.writelines(r + "\n" for r in rows)


if __name__ == "__main__":
    main()
