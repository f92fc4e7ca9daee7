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
              (a header) is skipped. With --rounded the values are whole numbers (counts) and the sum
              is of ln P(k - 1/2 < X < k + 1/2) (rounded_log_probability), the fit's likelihood of counts.
  intervals:  /usr/bin/python3 scripts/make_stable_loglik_reference.py intervals --out CSV
              ln P(a < X < b) of S1 laws at the points where a difference of distribution functions
              is hard (INTERVALS): an end at mu (the support's edge zeta for alpha < 1, |beta| = 1), at
              or next to the mode, both ends far in a tail (where 1 - F(a) and 1 - F(b) nearly cancel).

rounded_log_probability: F(b) - F(a) or (1 - F(a)) - (1 - F(b)), whichever has the smaller terms,
each F and 1 - F from s0_point (computed without cancellation); at mp.dps = 30 (+ 40 guard digits
inside s0_point) a difference of terms below 1 loses nothing a binary64 result can hold.
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


def rounded_log_probability(a_end, b_end, alpha, beta, sigma, mu):
    """ln P(a < X < b) for X ~ S1(alpha, beta, sigma, mu), the largest term of the difference (the
    size of what cancels) and the largest quadrature error estimate."""
    za, _ = nolan.s1_to_s0_x(alpha, beta, sigma, mu, a_end)
    zb, _ = nolan.s1_to_s0_x(alpha, beta, sigma, mu, b_end)
    pa = nolan.s0_point(nolan.exact(alpha), nolan.exact(beta), za, DPS)
    pb = nolan.s0_point(nolan.exact(alpha), nolan.exact(beta), zb, DPS)
    with mp.workdps(DPS + 20):
        if pa["sf"] < pb["cdf"]:
            p, scale = pa["sf"] - pb["sf"], pa["sf"]
        else:
            p, scale = pb["cdf"] - pa["cdf"], pb["cdf"]
        worst = max(max(abs(e) for e in pa["rel"]), max(abs(e) for e in pb["rel"]))
        return mp.log(p), scale, worst


def rounded_log_likelihood(values, alpha, beta, sigma, mu):
    """Sum of ln P(k - 1/2 < X < k + 1/2) over whole numbers (decimal strings), and the largest error estimate."""
    counts = {}
    for v in values:
        k = float(v)
        if k != int(k):
            raise SystemExit("--rounded: %s is not a whole number" % v)
        counts[k] = counts.get(k, 0) + 1
    total, worst = mp.mpf(0), 0
    with mp.workdps(DPS + 20):
        for k, c in sorted(counts.items()):
            lp, _, w = rounded_log_probability(k - 0.5, k + 0.5, alpha, beta, sigma, mu)
            total += c * lp
            worst = max(worst, w)
    return total, worst


# (label, alpha, beta, sigma, mu (S1), a, b): the interval probabilities of tests/data/stable_interval_reference.csv.
# The first law is the α-stable fit of nonmpi_dxt_anonymized per 100 ms (issue 61), its support's edge mu
# 0.0009 below the zero bin's lower end.
NONMPI = (0.2920188689746691, 1.0, 1.1015886068101992, -0.5008964027878156)
INTERVALS = [
    ("edge 0.0009 below a", *NONMPI, -0.5, 0.5),
    ("next bin", *NONMPI, 0.5, 1.5),
    ("a at the edge mu", *NONMPI, NONMPI[3], NONMPI[3] + 1),
    ("a 1e-3 past the edge", *NONMPI, NONMPI[3] + 1e-3, NONMPI[3] + 1),
    ("right tail |z| 680", *NONMPI, 748.5, 749.5),
    ("right tail |z| 9e4", *NONMPI, 99999.5, 100000.5),
    ("mode inside", 1.5, 0.5, 1.0, 0.0, -0.5, 0.5),
    ("a at mu", 1.5, 0.5, 1.0, 0.0, 0.0, 1.0),
    ("b at mu", 1.5, 0.5, 1.0, 0.0, -1.0, 0.0),
    ("right tail both ends", 1.5, 0.5, 1.0, 0.0, 3000.5, 3001.5),
    ("left tail both ends", 1.5, 0.5, 1.0, 0.0, -3001.5, -3000.5),
    ("narrow right of the mode", 1.5, 0.5, 2.0, 3.0, 40.0, 40.001),
    ("edge at the right b at mu", 0.7, -1.0, 2.0, 3.0, 2.0, 3.0),
    ("edge at the right b 1e-6 before mu", 0.7, -1.0, 2.0, 3.0, 2.0, 3.0 - 1e-6),
    ("light side alpha 1.2", 1.2, 1.0, 1.0, 0.0, -4.5, -3.5),
    ("light right side alpha 1.2", 1.2, -1.0, 1.0, 0.0, 7.5, 8.5),
    ("alpha 0.9 right tail", 0.9, 0.3, 5.0, 10.0, 20000.5, 20001.5),
]


def write_intervals(out):
    rows = []
    for label, a, b, s, m, lo, hi in INTERVALS:
        lp, scale, worst = rounded_log_probability(lo, hi, a, b, s, m)
        rows.append("%s,%r,%r,%r,%r,%r,%r,%s,%s,%.1e" % (label, a, b, s, m, lo, hi, mp.nstr(lp, 20),
                                                      mp.nstr(scale, 6), worst))
        print(rows[-1], flush=True)
    with open(out, "w") as f:
        f.write("# ln P(a < X < b) of S1 laws (alpha, beta, sigma, mu) at points where a difference of distribution\n"
                "# functions is hard: an end at mu (the support's edge for alpha < 1, |beta| = 1), the mode inside,\n"
                "# both ends far in a tail, a narrow interval. mpmath at mp.dps = %d (Nolan's integral,\n"
                "# scripts/make_stable_reference.py's s0_point): F(b) - F(a) or (1 - F(a)) - (1 - F(b)), whichever has\n"
                "# the smaller terms; scale: the larger term of that difference; worst_error: the largest quadrature\n"
                "# error estimate (relative) of the two ends.\n"
                "# Made by: /usr/bin/python3 scripts/make_stable_loglik_reference.py intervals --out %s (%s)\n"
                % (DPS, os.path.relpath(out, ROOT), datetime.date.today()))
        f.write("label,alpha,beta,sigma,mu,a,b,log_probability,scale,worst_error\n")
        f.writelines(r + "\n" for r in rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["draws", "reference", "intervals"])
    ap.add_argument("--rounded", action="store_true", help="reference: whole numbers, ln P(k -+ 1/2) (the counts' likelihood)")
    ap.add_argument("--point", nargs=6, action="append", default=[],
                    metavar=("FILE", "LABEL", "ALPHA", "BETA", "SIGMA", "MU"))
    ap.add_argument("--out", help="the CSV to write (default: print only)")
    args = ap.parse_args()
    nolan.BASE_DPS = DPS
    if args.what == "draws":
        write_draws()
        return
    if args.what == "intervals":
        write_intervals(args.out)
        return
    rows = []
    for where, label, *params in args.point:
        start = time.process_time()
        path, _, column = where.partition(":")
        values = read_values(os.path.join(ROOT, path), int(column or 1))
        alpha, beta, sigma, mu = (float(p) for p in params)
        total, worst = (rounded_log_likelihood if args.rounded else log_likelihood)(values, alpha, beta, sigma, mu)
        rows.append("%s,%s,%s,%s,%s,%s,%d,%s,%.1e" % (os.path.basename(path), label, *params, len(values),
                                                      mp.nstr(total, 17), worst))
        print(rows[-1], "(%.0f s of CPU)" % (time.process_time() - start), flush=True)
    if args.out:
        with open(args.out, "w") as out:
            out.write("# Sums of %s over the values of each file at the parameters given (S1), computed with\n"
                      "# mpmath (Nolan's integral, scripts/make_stable_reference.py's s0_point at mp.dps = %d),\n"
                      "# every point's quadrature error estimate below the worst_error column.\n"
                      "# Made by: /usr/bin/python3 %s (%s); the parameters are\n"
                      "# gpusynth's estimates (label estimates) and the laws the draws came from (label truth).\n"
                      % ("ln P(k - 1/2 < X < k + 1/2) (whole numbers)" if args.rounded else "ln f", DPS, " ".join(sys.argv[0:1] + [a if " " not in a else repr(a) for a in sys.argv[1:]]),
                         datetime.date.today()))
            out.write("file,label,alpha,beta,sigma,mu,n,log_likelihood,worst_error\n")
            out.writelines(r + "\n" for r in rows)


if __name__ == "__main__":
    main()
