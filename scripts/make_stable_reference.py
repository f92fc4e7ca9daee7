#!/usr/bin/python3
"""Independent high-precision reference values of the standard alpha-stable density and CDF.

Writes tests/data/stable_reference_S0.csv (Nolan's S0, scale 1, location 0) and
tests/data/stable_reference_S1.csv (S1 with sigma != 1, mu != 0), computed with mpmath from
Nolan's (1997) integral representation (J. P. Nolan, "Numerical calculation of stable densities
and distribution functions", Commun. Statist.-Stochastic Models 13(4), 759-774, Theorem 1),
implemented here from the formulas, not from any library's code.

Usage (what made the shipped tables; the CPU time it took is in their headers):
  /usr/bin/python3 scripts/make_stable_reference.py
Options: --checks-only (the checks (a)-(c) only), --quick (a small grid, for trying changes),
--log FILE (a copy of the progress lines). python3-gmpy2, where installed, makes mpmath faster.

Method, for alpha != 1 and x > zeta (zeta = -beta tan(pi alpha/2), theta0 = atan(beta tan(pi
alpha/2))/alpha, g(theta) = (x - zeta)^(alpha/(alpha-1)) V(theta), theta in (-theta0, pi/2)):
  f(x) = alpha / (pi |alpha-1| (x-zeta)) * Int g exp(-g) dtheta,
  F(x) = c1 + sign(1-alpha)/pi * Int exp(-g) dtheta (c1 = (pi/2-theta0)/pi for alpha<1, 1 for alpha>1),
and for alpha = 1 (beta > 0; g = exp(-pi x/(2 beta)) V(theta), theta in (-pi/2, pi/2)):
  f(x) = 1/(2 beta) Int g exp(-g) dtheta,   F(x) = 1/pi Int exp(-g) dtheta;
x < zeta (and alpha = 1, beta < 0) by the reflection f(x; a, b) = f(-x; a, -b), F(x; a, b) = 1 - F(-x; a, -b);
x = zeta by Nolan's closed form; alpha = 2 (normal, variance 2) and alpha = 1, beta = 0 (Cauchy) in
closed form. The upper tail 1 - F is the integral of -expm1(-g) (alpha < 1 and alpha = 1) or of
exp(-g) (alpha > 1), and F likewise, so that neither tail is computed as a difference: with
I_c = Int exp(-g), I_s = Int -expm1(-g) and delta0 = pi/2 - theta0:
  alpha < 1: F = (delta0 + I_c)/pi, 1-F = I_s/pi;  alpha > 1: F = (delta0 + I_s)/pi, 1-F = I_c/pi.

Numerics: g is monotone in theta. Every trigonometric factor of V is written in terms of the
distance u = theta + theta0 from the lower end or v = pi/2 - theta from the upper end (constants
delta0 and eps1 = pi - alpha pi/2 - atan(beta tan(pi alpha/2)) computed 30 digits beyond the working
precision, and exactly 0 where they vanish: beta = 1, alpha < 1 and beta = -1, alpha > 1), so that
points close to an end keep full relative precision. The interval is split at the peak of the
density's integrand (ln g = 0, found by bisection on the monotone ln g), at further levels of ln g
on both sides of it (or, where g > 1 everywhere, at g = g_min + k), and at an interior point where
the coordinate switches from u to v; each piece is integrated with mpmath.quad (tanh-sinh,
error=True) over [0, 1] after scaling the integrand to its largest value on the piece (mpmath's
error control is absolute). ln g is evaluated with extra digits where it is a difference of large
terms (alpha near 1) or where g is huge (light tails), so that exp(-g) keeps its relative precision.
Each point is computed twice: mp.dps = 40 (stored) and mp.dps = 50 with maxdegree + 2, other split
levels and another switch point; a point is kept only if the two agree to 1e-12 relative in the
density, the CDF and the upper tail, and the quadrature error estimates are below 1e-12 relative.
alpha, beta, x, sigma and mu are the exact binary64 values of the printed numbers. Points where
ln f < -1.8e308 (not representable in binary64; found from the bound f <= C L g_min exp(-g_min))
are left out and listed in the header.
"""
import argparse
import math
import os
import time

import mpmath
from mpmath import mp, mpf

BASE_DPS = 40
CHECK_DPS = 50
TOL = 1e-12
LO, HI = 0, 1
# split levels of ln g below the peak (ln g = 0 is the peak of the density's integrand), and
# g = max(1, g_min) + k above it, for the stored run (0) and the check run (1)
LEVELS = {0: ((-5, 0), (3, 30, 150)),
          1: ((-8, -1.5, 0), (1.5, 12, 200))}
DBL_MAX = mpf("1.7976931348623157e308")
NEG_INF = float("-inf")


def tan_half_pi(a):
    """tan(pi alpha/2), exactly 1 and -1 at alpha = 1/2 and 3/2 (there zeta is a binary64 number
    and a grid point can be zeta itself)."""
    if a == mpf("0.5"):
        return mpf(1)
    if a == mpf("1.5"):
        return mpf(-1)
    return mp.tan(mp.pi * a / 2)


def exact(v):
    """The exact value of a binary64 number (or of a decimal string rounded to binary64)."""
    return mpf(float(v))


# ---------------------------------------------------------------------------------------------
# Nolan's representation, one law (alpha, beta) and one point x on the formula's side
# ---------------------------------------------------------------------------------------------

class Integrand:
    """ln g as a function of the position (side, offset): side LO means theta = -theta0 + off,
    side HI means theta = pi/2 - off. ln g increases with theta for alpha <= 1 and decreases for
    alpha > 1."""

    def __init__(self, a, b, x, dps):
        # a, b, x are mpf; for alpha != 1 the caller guarantees x > zeta, for alpha = 1 beta > 0.
        self.a, self.b = a, b
        self.dps = dps
        with mp.workdps(dps + 30):
            pi = +mp.pi
            if a == 1:
                self.L = pi
                self.clo = pi / 2 * (1 - b)
                self.chi = pi / 2 * (1 + b)
                self.l2pi = mp.log(2 / pi)
                self.shift = -pi * x / (2 * b)
                self.terms = max(1, abs(self.shift))
                self.ymin = (self.l2pi - 1 + self.shift) if b == 1 else None
                self.minside = LO
            else:
                T = tan_half_pi(a)
                bT = b * T
                atn = mp.atan(bT)
                self.zeta = -bT
                if a < 1 and b == 1:
                    d0 = mpf(0)
                elif a < 1 and b == -1:
                    d0 = +pi
                else:
                    d0 = (a * pi / 2 - atn) / a
                if (a > 1 and b == -1) or a == 2:
                    e1 = mpf(0)
                else:
                    e1 = pi - a * pi / 2 - atn
                self.d0, self.e1 = d0, e1
                self.L = pi - d0
                self.r = a / (a - 1)
                self.k1 = -mp.log1p(bT * bT) / (2 * (a - 1))   # ln cos(alpha theta0)^(1/(alpha-1))
                self.xz = x - self.zeta
                self.shift = self.r * mp.log(self.xz) if self.L > 0 else mpf(0)
                self.terms = max(1, abs(self.k1), abs(self.r) * (1 + abs(mp.log(self.xz))), abs(self.shift))
                self.minside = LO if a < 1 else HI
                self.ymin = None
                if self.L > 0 and ((a < 1 and d0 == 0) or (a > 1 and e1 == 0)):
                    self.ymin = self.k1 + self.r * mp.log(1 / a) + mp.log(abs(a - 1)) + self.shift
        self.maxside = HI if self.minside == LO else LO

    def Y(self, side, off):
        """ln g at (side, off), at self.dps digits."""
        a, b = self.a, self.b
        with mp.workdps(self.dps):
            if a == 1:
                s, c = mp.sin(off), mp.cos(off)
                if side == LO:   # theta = -pi/2 + off: cos theta = sin off, tan theta = -cos off/sin off
                    P = self.clo + b * off
                    return self.l2pi + mp.log(P / s) - P * c / (b * s) + self.shift
                P = self.chi - b * off   # theta = pi/2 - off
                return self.l2pi + mp.log(P / s) + P * c / (b * s) + self.shift
            L, d0, e1 = self.L, self.d0, self.e1
            if side == LO:
                # cos theta = sin(off + d0); sin(alpha(theta0+theta)) = sin(alpha off);
                # cos(alpha theta0 + (alpha-1) theta) = sin(d0 + (1-alpha) off)
                t = off + d0
                A = mp.sin(t) if t < 2 else mp.sin(L - off)
                B = mp.sin(a * off)
                C = mp.sin(d0 + (1 - a) * off)
            else:
                # cos theta = sin(off); sin(alpha(theta0+theta)) = sin(e1 + alpha off);
                # cos(alpha theta0 + (alpha-1) theta) = sin(e1 + (alpha-1) off)
                A = mp.sin(off)
                t = e1 + a * off
                B = mp.sin(t) if t < 2 else mp.sin(a * (L - off))
                C = mp.sin(e1 + (a - 1) * off)
            return self.k1 + self.r * mp.log(A / B) + mp.log(C / A) + self.shift


BIG = 10 ** 5


def _lnh(y):
    """ln of the density's integrand g exp(-g) at ln g = y (-inf where it is below exp(-1e5))."""
    if mp.isinf(y) or y > BIG:
        return mp.ninf
    if y < -BIG:
        return y
    return y - mp.exp(y)


def _ln_expm(y):
    """ln exp(-g) = -g at ln g = y."""
    if y < -BIG:
        return mpf(0)
    if y > BIG:
        return mp.ninf
    return -mp.exp(y)


def _ln_1mexpm(y):
    """ln(1 - exp(-g)) at ln g = y."""
    if y > BIG:
        return mpf(0)
    if y < -BIG:
        return y
    return _ln_mexpm1(mp.exp(y))


def _ln_mexpm1(g):
    """ln(1 - exp(-g)) for g > 0 without mpmath's expm1 (which raises the precision to the size
    of 1/g for tiny g)."""
    if g < mpf(2) ** (-(mp.prec // 3) - 2):
        return mp.log(g) + mp.log1p(g * (g / 6 - mpf(1) / 2))
    if g > mp.prec:        # 1 - exp(-g) = 1 - tiny; ln of it is -exp(-g) to working precision
        return -mp.exp(-g) if g < 100000 else mpf(0)
    return mp.log(-mp.expm1(-g))


def _ez(z):
    return mp.exp(z) if z > -100000 else mpf(0)


class Evaluation:
    pass


def nolan_integrals(a, b, x, dps, maxdeg_extra=0, variant=0):
    """The three integrals of Nolan's representation at one point (x on the formula's side).
    Returns (ln of the density's integral + its constant, I_c, I_s, relative error estimates, the
    Integrand) or None if L = 0 (outside the support)."""
    probe = Integrand(a, b, x, 30)
    if probe.L == 0:
        return None
    # extra digits for ln g: differences of large terms, and g huge (light tails)
    mag = probe.terms
    if probe.ymin is not None and probe.ymin > 0:
        with mp.workdps(30):
            mag = max(mag, mp.exp(probe.ymin) * probe.ymin)
    extra = int(mp.ceil(mp.log10(mag))) + 3
    hi = dps + extra
    I = Integrand(a, b, x, hi)
    L = I.L
    ymin = I.ymin
    frac = mpf(1) / 2 if variant == 0 else mpf(2) / 5
    with mp.workdps(hi):
        mid_min = frac * L          # the switch point, as an offset from the min end ...
        mid_max = L - mid_min       # ... and from the max end
        ymid = I.Y(I.minside, mid_min)

        def find_level(c, tol):
            if c <= ymid:
                if ymin is not None and c <= ymin:
                    return None
                side, sign, top = I.minside, 1, mid_min
            else:
                side, sign, top = I.maxside, -1, mid_max
            hs = mp.log(top)
            ls = hs - 10
            while sign * (I.Y(side, mp.exp(ls)) - c) >= 0:
                ls -= 2 * (hs - ls)
                if ls < -1e7:
                    raise RuntimeError("level %s not bracketed" % c)
            ym = None
            for _ in range(600):
                ms = (ls + hs) / 2
                ym = I.Y(side, mp.exp(ms))
                if abs(ym - c) < tol:
                    break
                if sign * (ym - c) < 0:
                    ls = ms
                else:
                    hs = ms
            return (side, mp.exp(ms), ym)

        gref = mpf(1)
        if ymin is not None and ymin > 0:
            gref = mp.exp(ymin)
        low_levels, high_ks = LEVELS[variant]
        levels = []   # (ln g, tolerance of the bisection in ln g)
        if ymin is None or ymin < 0:
            levels += [(mpf(c), mpf("0.01")) for c in low_levels]
        levels += [(mp.log(gref + mpf(k)), mpf("0.02") * k / (gref + k)) for k in high_ks]
        # positions, each as (key from the min end, side, offset, ln g)
        pos = [(mpf(0), I.minside, mpf(0), ymin if ymin is not None else mp.ninf),
               (mid_min, I.minside, mid_min, ymid),
               (L, I.maxside, mpf(0), mp.inf)]
        for c, tol in levels:
            p = find_level(c, tol)
            if p is None:
                continue
            side, off, y = p
            key = off if side == I.minside else L - off
            pos.append((key, side, off, y))
        pos.sort(key=lambda q: q[0])

    with mp.workdps(dps):
        base_deg = mp._tanh_sinh.guess_degree(mp.prec) + maxdeg_extra
    pieces = []
    for (k1, s1, o1, y1), (k2, s2, o2, y2) in zip(pos[:-1], pos[1:]):
        if k2 <= k1:
            continue
        if k2 <= mid_min:            # on the min side, offsets increase with the key
            side, oa, ob, ya, yb = I.minside, (o1 if s1 == I.minside else mid_min), \
                (o2 if s2 == I.minside else mid_min), y1, y2
        else:                        # on the max side, offsets decrease with the key
            side, oa, ob, ya, yb = I.maxside, (o2 if s2 == I.maxside else mid_max), \
                (o1 if s1 == I.maxside else mid_max), y2, y1
        with mp.workdps(hi):
            w = ob - oa
            if w <= 0:
                continue
            ylo, yhi = (ya, yb) if ya <= yb else (yb, ya)
            # the largest value of each integrand on the piece (at an end of it: the density's
            # integrand peaks at ln g = 0, which is a split point)
            ln_s = (max(_lnh(ylo), _lnh(yhi)), _ln_expm(ylo), _ln_1mexpm(yhi))
            # and the smallest (each integrand is monotone on a piece)
            ln_m = (min(_lnh(ylo), _lnh(yhi)), _ln_expm(yhi), _ln_1mexpm(ylo))
            pieces.append((side, oa, w, ln_s, ln_m))
    # an integrand is not integrated on a piece where its upper bound (width * largest value) is
    # below 1e-50 of a lower bound of the whole integral (the sum of width * smallest value)
    with mp.workdps(hi):
        bounds = [[w * mp.exp(ln_s[j]) for j in range(3)] for (side, oa, w, ln_s, ln_m) in pieces]
        lows = [sum(w * mp.exp(ln_m[j]) for (side, oa, w, ln_s, ln_m) in pieces) for j in range(3)]
    S = [mpf(0)] * 3
    E = [mpf(0)] * 3
    with mp.workdps(hi):
        ylim = mp.log(gref + 10 ** 6)
    for (side, oa, w, ln_s, ln_m), bd in zip(pieces, bounds):
        cache = {}

        def val(t, j, side=side, oa=oa, w=w, ln_s=ln_s, cache=cache):
            with mp.workdps(hi):
                y = cache.get(t)
                if y is None:
                    y = cache[t] = I.Y(side, oa + w * t)
                if y < -200:       # g < 1e-86: g exp(-g) = g, exp(-g) = 1, 1 - exp(-g) = g to 40 digits
                    z = (y - ln_s[0], -ln_s[1], y - ln_s[2])[j]
                elif y > ylim:     # g > g_ref + 1e6: only 1 - exp(-g) = 1 is left
                    if j < 2:
                        return mpf(0)
                    z = -ln_s[2]
                else:
                    g = mp.exp(y)
                    if j == 0:
                        z = y - g - ln_s[0]
                    elif j == 1:
                        z = -g - ln_s[1]
                    else:
                        z = _ln_mexpm1(g) - ln_s[2]
            return _ez(z)

        for j in range(3):
            with mp.workdps(hi):
                if bd[j] == 0 or bd[j] < lows[j] * mpf(10) ** -50:
                    continue
            with mp.workdps(dps):
                v, e = mp.quad(lambda t, j=j: val(t, j), [0, 1], error=True, maxdegree=base_deg)
            with mp.workdps(hi):
                m = w * mp.exp(ln_s[j])
                S[j] += m * v
                E[j] += m * e
    S1, Sc, Ss = S
    E1, Ec, Es = E
    with mp.workdps(hi):
        if a == 1:
            lnc = -mp.log(2 * b)
        else:
            lnc = mp.log(a / (mp.pi * abs(a - 1) * I.xz))
        ln_pdf = lnc + mp.log(S1)
        rel = (E1 / S1, Ec / Sc if Sc else mpf(0), Es / Ss if Ss else mpf(0))
        closure = abs((Sc + Ss) / L - 1)
    return ln_pdf, Sc, Ss, rel, I, len(pieces), closure


def s0_point(alpha, beta, x, dps=BASE_DPS, maxdeg_extra=0, variant=0):
    """Standard S0 law at x (alpha, beta, x: mpf or numbers taken as exact binary64).
    Returns dict(ln_pdf, cdf, sf, rel (error estimates), pieces, closure, method)."""
    with mp.workdps(dps + 40):
        a, b = mpf(alpha), mpf(beta)
        xx = mpf(x)
        out = {"rel": (0, 0, 0), "pieces": 0, "closure": 0}
        if a == 2:
            out.update(method="normal", ln_pdf=-xx * xx / 4 - mp.log(2 * mp.sqrt(mp.pi)),
                       cdf=mp.erfc(-xx / 2) / 2, sf=mp.erfc(xx / 2) / 2)
            return out
        if a == 1 and b == 0:
            out.update(method="cauchy", ln_pdf=-mp.log(mp.pi * (1 + xx * xx)),
                       cdf=mp.atan2(1, -xx) / mp.pi, sf=mp.atan2(1, xx) / mp.pi)
            return out
        reflect = False
        if a == 1:
            if b < 0:
                reflect = True
        else:
            zeta = -b * tan_half_pi(a)
            if xx == zeta and a < 1 and abs(b) == 1:   # the end of the support: f = 0
                out.update(method="x=zeta", ln_pdf=mp.ninf, cdf=mpf(0) if b == 1 else mpf(1),
                           sf=mpf(1) if b == 1 else mpf(0))
                return out
            if xx == zeta:
                theta0 = mp.atan(-zeta) / a
                out.update(method="x=zeta",
                           ln_pdf=mp.log(mp.gamma(1 + 1 / a) * mp.cos(theta0) / mp.pi)
                           - mp.log1p(zeta * zeta) / (2 * a),
                           cdf=(mp.pi / 2 - theta0) / mp.pi, sf=(mp.pi / 2 + theta0) / mp.pi)
                return out
            if xx < zeta:
                reflect = True
        if reflect:
            xx, b = -xx, -b
    res = nolan_integrals(a, b, xx, dps, maxdeg_extra, variant)
    with mp.workdps(dps + 40):
        if res is None:   # alpha < 1, beta = -1, x > zeta: outside the support
            ln_pdf, cdf, sf = mp.ninf, mpf(1), mpf(0)
            rel, pieces, closure, I = (0, 0, 0), 0, 0, None
        else:
            ln_pdf, Ic, Is, rel, I, pieces, closure = res
            pi = +mp.pi
            if a == 1:
                cdf, sf = Ic / pi, Is / pi
            elif a < 1:
                cdf, sf = (I.d0 + Ic) / pi, Is / pi
            else:
                cdf, sf = (I.d0 + Is) / pi, Ic / pi
        if reflect:
            cdf, sf = sf, cdf
        out.update(method="nolan", ln_pdf=ln_pdf, cdf=cdf, sf=sf, rel=rel, pieces=pieces, closure=closure)
    return out


def ln_pdf_upper_bound(alpha, beta, x):
    """A cheap upper bound of ln f where g > 1 on the whole interval (None when there is none):
    f <= const * L * g_min exp(-g_min)."""
    with mp.workdps(60):
        a, b, xx = mpf(alpha), mpf(beta), mpf(x)
    with mp.workdps(30):
        if a == 2 or (a == 1 and b == 0):
            return None
        if a == 1:
            if b < 0:
                xx, b = -xx, -b
        else:
            zeta = -b * tan_half_pi(a)
            if xx == zeta:
                return None
            if xx < zeta:
                xx, b = -xx, -b
        I = Integrand(a, b, xx, 30)
        if I.L == 0 or I.ymin is None or I.ymin <= 0:
            return None
        lnc = -mp.log(2 * b) if a == 1 else mp.log(a / (mp.pi * abs(a - 1) * I.xz))
        return lnc + mp.log(I.L) + I.ymin - mp.exp(min(I.ymin, 10 ** 6))


# ---------------------------------------------------------------------------------------------
# Two runs, the agreement test, rounding to binary64
# ---------------------------------------------------------------------------------------------

def to_double(v):
    """v (mpf) rounded to the nearest binary64, subnormals included; 0.0 below half the least one."""
    if v == 0:
        return 0.0
    if mp.isinf(v):
        return float(v)
    s = -1.0 if v < 0 else 1.0
    v = abs(v)
    with mp.workdps(max(mp.dps, 30)):
        if v < mpf(2) ** -1022:
            k = int(mp.nint(v * mpf(2) ** 1074))
            return s * math.ldexp(float(k), -1074)
    with mp.workprec(53):
        w = +v
    return s * float(w)


def ln_diff(p, q):
    """|ln p - ln q| for p, q >= 0 (0 if both are 0, inf if only one is)."""
    if p == 0 and q == 0:
        return mpf(0)
    if p == 0 or q == 0:
        return mp.inf
    with mp.workdps(60):
        return abs(mp.log(p) - mp.log(q))


def reference_point(alpha, beta, x):
    """The stored values at one point, with the agreement between the two runs.
    Returns dict or raises/flags failures."""
    bound = ln_pdf_upper_bound(alpha, beta, x)
    if bound is not None and bound < -DBL_MAX * (1 + mpf(2) ** -50):
        return {"status": "lnpdf_out_of_range", "bound": bound}
    A = s0_point(alpha, beta, x, BASE_DPS, 0, 0)
    B = s0_point(alpha, beta, x, CHECK_DPS, 2, 1)
    with mp.workdps(60):
        dl = mpf(0) if A["ln_pdf"] == B["ln_pdf"] else abs(A["ln_pdf"] - B["ln_pdf"])
        if mp.isnan(dl):
            dl = mpf(0)
        dc = ln_diff(A["cdf"], B["cdf"])
        ds = ln_diff(A["sf"], B["sf"])
        err = max([abs(e) for e in B["rel"]] + [abs(e) for e in A["rel"]])
    agree = max(dl, dc, ds)
    ok = agree <= TOL and err <= TOL
    with mp.workdps(60):
        pdf = mpf(0) if A["ln_pdf"] == mp.ninf else mp.exp(A["ln_pdf"])
    if A["ln_pdf"] != mp.ninf and abs(A["ln_pdf"]) > DBL_MAX:
        return {"status": "lnpdf_out_of_range", "bound": A["ln_pdf"]}
    return {"status": "ok" if ok else "disagree", "agree": agree, "err": err, "A": A, "B": B,
            "row": (to_double(A["ln_pdf"]) if A["ln_pdf"] != mp.ninf else NEG_INF,
                    to_double(pdf), to_double(A["cdf"]), to_double(A["sf"])),
            "doubles_differ": (to_double(A["cdf"]) != to_double(B["cdf"]) or to_double(A["sf"]) != to_double(B["sf"])
                               or (A["ln_pdf"] != mp.ninf and to_double(A["ln_pdf"]) != to_double(B["ln_pdf"]))),
            "closure": max(A["closure"], B["closure"]), "pieces": A["pieces"]}


def fmt(v):
    if v == NEG_INF:
        return "-inf"
    return repr(float(v))


# ---------------------------------------------------------------------------------------------
# Check (a): closed forms
# ---------------------------------------------------------------------------------------------

def rel_diff(p, q):
    with mp.workdps(60):
        p, q = mpf(p), mpf(q)
        if p == q:
            return mpf(0)
        return abs(p - q) / abs(q)


def check_closed_forms(log):
    worst = {}
    # Levy: S1(1/2, 1, sigma=1, mu=0) is Levy with c = 1 (the characteristic functions agree:
    # exp(-sqrt(-2 i c t)) = exp(-sqrt(c|t|)(1 - i sign t)) = exp(-|t|^(1/2) (1 - i sign t tan(pi/4)))).
    # In S0 the same law is shifted by zeta = -tan(pi/4) = -1: f0(x) = f_Levy(x + 1).
    wl = mpf(0)
    for x1 in ["0.01", "0.05", "0.2", "0.5", "1", "2", "10", "100", "10000", "1e8"]:
        x1 = exact(x1)
        with mp.workdps(60):
            x0 = x1 - 1          # exact in binary64 for these values? use the mpf value directly
            f = mp.sqrt(1 / (2 * mp.pi)) * x1 ** mpf(-1.5) * mp.exp(-1 / (2 * x1))
            F = mp.erfc(mp.sqrt(1 / (2 * x1)))
            S = mp.erf(mp.sqrt(1 / (2 * x1)))
        r = s0_point(mpf("0.5"), 1, x0)
        with mp.workdps(60):
            d = max(rel_diff(mp.exp(r["ln_pdf"]), f), rel_diff(r["cdf"], F), rel_diff(r["sf"], S))
        log("  (a) Levy  x1=%-8s  pdf %s  max rel diff (pdf, cdf, sf) %s" % (mp.nstr(x1, 6), mp.nstr(f, 12), mp.nstr(d, 3)))
        wl = max(wl, d)
    worst["levy"] = wl
    # Normal: Nolan's integral at alpha = 2, beta = 0 against exp(-x^2/4)/(2 sqrt(pi)).
    wn = mpf(0)
    for x in ["0.3", "1", "3", "10", "30"]:
        x = exact(x)
        res = nolan_integrals(mpf(2), mpf(0), x, BASE_DPS)
        with mp.workdps(60):
            ln_pdf, Ic, Is, rel, I, _, _ = res
            f = mp.exp(-x * x / 4) / (2 * mp.sqrt(mp.pi))
            sf = Ic / mp.pi
            cdf = (I.d0 + Is) / mp.pi
            d = max(rel_diff(mp.exp(ln_pdf), f), rel_diff(sf, mp.erfc(x / 2) / 2), rel_diff(cdf, mp.erfc(-x / 2) / 2))
        log("  (a) normal (Nolan's integral at alpha=2) x=%-5s max rel diff %s" % (mp.nstr(x, 4), mp.nstr(d, 3)))
        wn = max(wn, d)
    worst["normal"] = wn
    # Cauchy: Nolan's alpha != 1 integral at alpha = 1 -+ 2^-60, beta = 0 (S0 is continuous in alpha;
    # the difference from the Cauchy law is O(2^-60)); this exercises the formula where its
    # exponents 1/(alpha-1) are ~1e18.
    wc = mpf(0)
    for da in (-1, 1):
        al = 1 + da * mpf(2) ** -60
        for x in ["0", "0.3", "1", "3", "30", "1000"]:
            x = exact(x)
            r = s0_point(al, 0, x)
            with mp.workdps(60):
                f = 1 / (mp.pi * (1 + x * x))
                d = max(rel_diff(mp.exp(r["ln_pdf"]), f), rel_diff(r["cdf"], mp.atan2(1, -x) / mp.pi),
                        rel_diff(r["sf"], mp.atan2(1, x) / mp.pi))
            log("  (a) Cauchy (alpha = 1 %s 2^-60) x=%-5s max rel diff %s" % ("-+"[da > 0], mp.nstr(x, 4), mp.nstr(d, 3)))
            wc = max(wc, d)
    worst["cauchy"] = wc
    return worst


# ---------------------------------------------------------------------------------------------
# Check (b): Fourier inversion of the S0 characteristic function
# ---------------------------------------------------------------------------------------------

def fourier(alpha, beta, x, dps=25):
    """The density by Fourier inversion, f(x) = 1/pi Int_0^inf Re(exp(-i t x) phi(t)) dt, and the
    CDF by Gil-Pelaez, F(x) = 1/2 - 1/pi Int_0^inf Im(exp(-i t x) phi(t))/t dt, phi the S0
    characteristic function; mpmath.quad on [0, t_max] (exp(-t_max^alpha) < 10^-dps) cut into
    pieces of at most ~1/4 of the local period of the oscillation."""
    with mp.workdps(dps):
        a, b, x = mpf(alpha), mpf(beta), mpf(x)
        tmax = (dps * mp.log(10) + 15) ** (1 / a)
        if a == 1:
            c = 2 * b / mp.pi
            phase = lambda t: t * x + c * t * mp.log(t)
            dphase = lambda t: abs(x + c * (mp.log(t) + 1))
        else:
            z = -b * mp.tan(mp.pi * a / 2)
            # exp(-itx) phi(t) = exp(-t^a) exp(-i (t (x - zeta) + zeta t^a)), t > 0
            phase = lambda t: t * (x - z) + z * t ** a
            dphase = lambda t: abs((x - z) + a * z * t ** (a - 1))
        # near t = 0 the phase changes by a bounded amount (t^alpha, t ln t): [0, 1] is one piece
        # for tanh-sinh (end singularity); beyond, pieces of a quarter period
        freq = max(dphase(1 + (tmax - 1) * k / 400) for k in range(401)) + 1
        n = int(mp.ceil((tmax - 1) * freq / 1.5)) + 1
        pts = [mpf(0)] + [1 + (tmax - 1) * k / n for k in range(n + 1)]
        f = mp.quad(lambda t: mp.exp(-t ** a) * mp.cos(phase(t)), pts) / mp.pi
        F = mpf(1) / 2 + mp.quad(lambda t: mp.exp(-t ** a) * mp.sin(phase(t)) / t, pts) / mp.pi
        return f, F


def check_fourier(log):
    cases = []
    for a in ["0.5", "0.7", "0.9", "0.99", "1.0", "1.01", "1.1", "1.5", "1.9"]:
        for b, x in (("-1", "-0.3"), ("0.5", "1"), ("1", "3"), ("0.9", "-1")):
            cases.append((a, b, x))
    worst, where, worst_cdf, where_cdf = mpf(0), None, mpf(0), None
    for a, b, x in cases:
        a, b, x = exact(a), exact(b), exact(x)
        r = s0_point(a, b, x)
        with mp.workdps(60):
            ref = mp.exp(r["ln_pdf"]) if r["ln_pdf"] != mp.ninf else mpf(0)
        four, gp = fourier(a, b, x, 28)
        d = rel_diff(four, ref) if ref != 0 else abs(four)
        dc = rel_diff(gp, r["cdf"])
        log("  (b) alpha=%-5s beta=%-4s x=%-5s pdf: Nolan %s  Fourier %s  rel diff %s;  cdf: Nolan %s  "
            "Gil-Pelaez %s  rel diff %s"
            % (mp.nstr(a, 4), mp.nstr(b, 3), mp.nstr(x, 3), mp.nstr(ref, 17), mp.nstr(four, 17), mp.nstr(d, 3),
               mp.nstr(r["cdf"], 17), mp.nstr(gp, 17), mp.nstr(dc, 3)))
        if d > worst:
            worst, where = d, (float(a), float(b), float(x))
        if dc > worst_cdf:
            worst_cdf, where_cdf = dc, (float(a), float(b), float(x))
    return {"pdf": worst, "pdf_at": where, "cdf": worst_cdf, "cdf_at": where_cdf, "n": len(cases)}


# ---------------------------------------------------------------------------------------------
# Check (c): Nolan's STABLE tables (S1) shipped in tests/data
# ---------------------------------------------------------------------------------------------

def read_table(path):
    rows, header = [], None
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split(",")
            if header is None:
                header = fields
            else:
                rows.append(dict(zip(header, fields)))
    return rows


def s1_to_s0_x(alpha, beta, sigma, mu, x):
    """The standard S0 point z and the density factor 1/sigma for X ~ S1(alpha, beta, sigma, mu) at x.
    alpha != 1: X = sigma Z1 + mu and Z1 = Z0 - zeta, so z = (x - mu)/sigma + zeta;
    alpha = 1: X = sigma Z + mu + (2/pi) beta sigma ln sigma, so z = (x - mu)/sigma - (2/pi) beta ln sigma."""
    a, b, s, m, xx = (exact(v) for v in (alpha, beta, sigma, mu, x))
    with mp.workdps(BASE_DPS + 40):
        if a == 1:
            z = (xx - m) / s - 2 / mp.pi * b * mp.log(s)
        else:
            z = (xx - m) / s - b * tan_half_pi(a)
    return z, s


def check_nolan(log, data_dir, every):
    """Nolan's STABLE values (S1, scale 1, location 0); the largest differences, for alpha != 1 and
    alpha = 1 apart (STABLE is known to be inaccurate at alpha = 1, beta != 0)."""
    pdf_rows = read_table(os.path.join(data_dir, "stable_pdf_S1.csv"))
    cdf_rows = read_table(os.path.join(data_dir, "stable_cdf_S1.csv"))
    cdf_by = {(r["alpha"], r["beta"], r["pct"]): r for r in cdf_rows}
    res = {k: [mpf(0), None, mpf(0), None] for k in ("a!=1", "a=1")}
    n = 0
    for i, r in enumerate(pdf_rows):
        if i % every:
            continue
        z, s = s1_to_s0_x(r["alpha"], r["beta"], 1, 0, r["x"])
        v = s0_point(exact(r["alpha"]), exact(r["beta"]), z, 20, -2)
        with mp.workdps(60):
            f = mp.exp(v["ln_pdf"]) if v["ln_pdf"] != mp.ninf else mpf(0)
            dp = rel_diff(exact(r["pdf"]), f) if f != 0 else mpf(1)
        c = cdf_by.get((r["alpha"], r["beta"], r["pct"]))
        dc = mpf(0)
        if c is not None and c["x"] == r["x"]:
            dc = abs(exact(c["cdf"]) - v["cdf"])
        n += 1
        w = res["a=1" if float(r["alpha"]) == 1 else "a!=1"]
        if dp > w[0]:
            w[0], w[1] = dp, (float(r["alpha"]), float(r["beta"]), float(r["x"]), r["pdf"], mp.nstr(f, 17))
        if dc > w[2]:
            w[2], w[3] = dc, (float(r["alpha"]), float(r["beta"]), float(r["x"]), c["cdf"], mp.nstr(v["cdf"], 17))
    for k, w in res.items():
        log("  (c) Nolan's STABLE (%s), stable_pdf_S1.csv / stable_cdf_S1.csv: largest rel diff of pdf %s at %s; "
            "largest abs diff of cdf %s at %s" % (k, mp.nstr(w[0], 3), w[1], mp.nstr(w[2], 3), w[3]))
    # the location/scale table: scale 2, location 3 in S0 and S1
    ls = read_table(os.path.join(data_dir, "stable_loc_scale.csv"))
    wl, wlat, wlc = mpf(0), None, mpf(0)
    for r in ls:
        a, b, g, d, x = r["alpha"], r["beta"], r["scale"], r["loc"], r["x"]
        if r["param"] == "S1":
            z, s = s1_to_s0_x(a, b, g, d, x)
        else:
            with mp.workdps(BASE_DPS + 40):
                s = exact(g)
                z = (exact(x) - exact(d)) / s
        v = s0_point(exact(a), exact(b), z, 20, -2)
        with mp.workdps(60):
            f = mp.exp(v["ln_pdf"]) / s
            dp = rel_diff(exact(r["pdf"]), f)
            dc = abs(exact(r["cdf"]) - v["cdf"])
        if dp > wl:
            wl, wlat = dp, (r["param"], a, b, x, r["pdf"], mp.nstr(f, 17))
        wlc = max(wlc, dc)
    log("  (c) stable_loc_scale.csv (scale 2, location 3, S0 and S1; %d rows): largest rel diff of pdf %s at %s; "
        "largest abs diff of cdf %s" % (len(ls), mp.nstr(wl, 3), wlat, mp.nstr(wlc, 3)))
    return {"n": n, "res": res, "ls_pdf": wl, "ls_at": wlat, "ls_cdf": wlc, "ls_n": len(ls)}


# ---------------------------------------------------------------------------------------------
# The grid
# ---------------------------------------------------------------------------------------------

ALPHAS = ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "0.95", "0.99", "0.999", "0.9995",
          "1.0", "1.0005", "1.001", "1.01", "1.05", "1.1", "1.3", "1.5", "1.7", "1.9", "1.99", "1.999", "2.0"]
BETAS = ["-1.0", "-0.99", "-0.5", "0.0", "0.5", "0.9", "0.999", "1.0"]
XS = ["-1000.0", "-100.0", "-30.0", "-10.0", "-3.0", "-1.0", "-0.3", "0.0", "0.3", "1.0", "3.0", "10.0",
      "30.0", "100.0", "1000.0"]
NEAR_ZETA_D = ["0.001", "0.003", "0.01", "0.03", "0.1", "0.3"]
NEAR_ALPHAS_ABOVE_1 = ["1.0005", "1.001", "1.01", "1.05", "1.1"]
NEAR_BETAS = ["-1.0", "-0.99", "0.9", "0.999", "1.0"]
LIGHT_TARGETS = [10, 50, 200, 305, 1000]    # the density falls to 10^-k


def light_side_x(alpha, beta, k, start=None):
    """x on the light side (beta = 1: left, beta = -1: right) where ln f is about -k ln 10: a
    quick evaluation (dps 20) and regula falsi (Illinois) on ln(-ln f) against ln d, d the
    distance from zeta (from 0 for alpha = 1); x rounded to 6 significant digits.
    Returns (x, d) so that the next, smaller, target can start from d."""
    a, b = exact(alpha), exact(beta)
    with mp.workdps(30):
        target = mp.log(k * mp.log(10))
        sgn = -1 if b > 0 else 1   # direction of the light tail
        origin = mpf(0) if a == 1 else -b * tan_half_pi(a)

    def F(u):   # ln(-ln f) - target at d = exp(u)
        with mp.workdps(30):
            x = origin + sgn * mp.exp(u)
            bound = ln_pdf_upper_bound(a, b, x)
            if bound is not None and bound < -k * mp.log(10) * 10:
                lf = bound
            else:
                lf = s0_point(a, b, x, 20, -2, 0)["ln_pdf"]
            return mp.log(-lf) - target if lf < 0 else -target - 1

    with mp.workdps(30):
        u0 = mp.log(start) if start is not None else mpf(0)
        f0 = F(u0)
        step = mpf(1) if f0 < 0 else mpf(-1)
        u1, f1 = u0, f0
        while (f1 < 0) == (f0 < 0):
            u0, f0 = u1, f1
            u1 = u1 + step
            f1 = F(u1)
            step *= 2 if abs(step) < 4 else 1
        side = 0
        for _ in range(100):
            u = u1 - f1 * (u1 - u0) / (f1 - f0)
            fu = F(u)
            if abs(fu) < mpf("1e-9"):
                break
            if (fu < 0) == (f1 < 0):
                u1, f1 = u, fu
                if side == 1:
                    f0 /= 2
                side = 1
            else:
                u0, f0 = u, fu
                if side == -1:
                    f1 /= 2
                side = -1
        d = mp.exp(u)
        x = origin + sgn * d
    return float(mp.nstr(x, 6)), d


def build_grid(quick, log):
    pts = []   # (alpha string, beta string, x float, kind)
    alphas = ALPHAS if not quick else ["0.5", "0.9995", "1.0", "1.5", "2.0"]
    for a in alphas:
        betas = ["0.0"] if a == "2.0" else BETAS
        for b in betas:
            for x in XS:
                pts.append((a, b, float(x), "grid"))
    near_alphas = [a for a in alphas if float(a) < 1] + [a for a in NEAR_ALPHAS_ABOVE_1 if a in alphas]
    for a in near_alphas:
        for b in NEAR_BETAS:
            with mp.workdps(60):
                zeta = -exact(b) * tan_half_pi(exact(a))
            for d in NEAR_ZETA_D:
                for sg in (-1, 1):
                    with mp.workdps(60):
                        x = to_double(zeta + sg * exact(d))
                    pts.append((a, b, x, "near_zeta"))
    light_alphas = [a for a in alphas if 1 <= float(a) < 2]
    for a in light_alphas:
        for b in ("-1.0", "1.0"):
            d = None
            for k in LIGHT_TARGETS:
                t0 = time.time()
                x, d = light_side_x(a, b, k, d)
                log("  light side alpha=%s beta=%s f ~ 1e-%d at x = %r (%.1f s)" % (a, b, k, x, time.time() - t0))
                pts.append((a, b, x, "light_%d" % k))
    # drop duplicates, keep order
    seen, out = set(), []
    for p in pts:
        key = (p[0], p[1], p[2])
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


S1_CASES = (
    # (alpha, beta, sigma, mu, xs)
    [("0.428", "1.0", "143.8", "-12.33", ["-12.0", "-10.0", "0.0", "1.0", "5.0", "50.0", "500.0", "5000.0"]),
     ("1.0", "1.0", "143.8", "-12.33", ["-12.0", "-10.0", "0.0", "1.0", "5.0", "50.0", "500.0", "5000.0"])]
    + [(a, b, s, m, None) for (a, b) in (("0.7", "0.5"), ("1.0", "-0.5"), ("1.3", "-1.0"), ("1.9", "0.999"))
       for s in ("0.5", "143.8") for m in ("-12.33", "3.0")]
)


def s1_rows(log):
    rows = []
    for a, b, s, m, xs in S1_CASES:
        if xs is None:
            sg, mu = float(s), float(m)
            xs = [repr(float("%.4g" % (mu + sg * k))) for k in (-3.0, 0.25, 6.0)]
        for x in xs:
            z, sig = s1_to_s0_x(a, b, s, m, x)
            # the two runs at the (non-binary64) standard point z
            A = s0_point(exact(a), exact(b), z, BASE_DPS, 0, 0)
            B = s0_point(exact(a), exact(b), z, CHECK_DPS, 2, 1)
            with mp.workdps(60):
                agree = max(abs(A["ln_pdf"] - B["ln_pdf"]) if A["ln_pdf"] != mp.ninf else mpf(0),
                            ln_diff(A["cdf"], B["cdf"]), ln_diff(A["sf"], B["sf"]))
                err = max([abs(e) for e in A["rel"] + B["rel"]])
                ln_pdf = A["ln_pdf"] - mp.log(sig) if A["ln_pdf"] != mp.ninf else mp.ninf
                pdf = mp.exp(ln_pdf) if ln_pdf != mp.ninf else mpf(0)
            ok = agree <= TOL and err <= TOL
            log("  S1 alpha=%s beta=%s sigma=%s mu=%s x=%s: z=%s ln f=%s agree %s err %s %s"
                % (a, b, s, m, x, mp.nstr(z, 10), mp.nstr(ln_pdf, 12), mp.nstr(agree, 2), mp.nstr(err, 2),
                   "" if ok else "DROPPED"))
            if ok:
                rows.append((a, b, s, m, float(x), to_double(ln_pdf) if ln_pdf != mp.ninf else NEG_INF,
                             to_double(pdf), to_double(A["cdf"]), to_double(A["sf"])))
    return rows


# ---------------------------------------------------------------------------------------------

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-s0", default=os.path.join(root, "tests/data/stable_reference_S0.csv"))
    ap.add_argument("--out-s1", default=os.path.join(root, "tests/data/stable_reference_S1.csv"))
    ap.add_argument("--checks-only", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--nolan-every", type=int, default=1, help="check (c) on every n-th row of Nolan's table")
    ap.add_argument("--log", default=None)
    args = ap.parse_args()
    logfh = open(args.log, "w") if args.log else None

    def log(msg):
        print(msg, flush=True)
        if logfh:
            logfh.write(msg + "\n")
            logfh.flush()

    t_start = time.time()
    cpu_start = time.process_time()
    mp.dps = BASE_DPS
    log("mpmath %s (backend %s)" % (mpmath.__version__, mpmath.libmp.BACKEND))
    log("check (a): closed forms")
    wa = check_closed_forms(log)
    log("check (b): Fourier inversion")
    wb = check_fourier(log)
    log("check (c): Nolan's tables")
    wc = check_nolan(log, os.path.join(root, "tests/data"), args.nolan_every)
    t_checks = time.time() - t_start
    log("checks took %.0f s" % t_checks)
    if args.checks_only:
        return

    t0 = time.time()
    grid = build_grid(args.quick, log)
    log("grid: %d points (light-side search %.0f s)" % (len(grid), time.time() - t0))
    rows, dropped, out_of_range = [], [], []
    worst_agree, worst_err, worst_closure, n_differ = mpf(0), mpf(0), mpf(0), 0
    t_grid = time.time()
    for i, (a, b, x, kind) in enumerate(grid):
        t1 = time.time()
        try:
            r = reference_point(exact(a), exact(b), x)
        except Exception as exc:   # recorded and reported, not stored
            dropped.append((a, b, x, kind, mp.inf, mp.inf))
            log("%5d alpha=%s beta=%s x=%r (%s): FAILED (%r)  DROPPED" % (i, a, b, x, kind, exc))
            continue
        dt = time.time() - t1
        if r["status"] == "lnpdf_out_of_range":
            out_of_range.append((a, b, x, kind, r["bound"]))
            log("%5d alpha=%s beta=%s x=%r (%s): ln f < %s, beyond binary64: left out"
                % (i, a, b, x, kind, mp.nstr(r["bound"], 5)))
            continue
        line = "%5d alpha=%s beta=%s x=%r (%s): ln f=%s cdf=%s sf=%s agree %s err %s pieces %d %.2fs" % (
            i, a, b, x, kind, mp.nstr(r["A"]["ln_pdf"], 15), mp.nstr(r["A"]["cdf"], 6), mp.nstr(r["A"]["sf"], 6),
            mp.nstr(r["agree"], 2), mp.nstr(r["err"], 2), r["pieces"], dt)
        if r["status"] != "ok":
            dropped.append((a, b, x, kind, r["agree"], r["err"]))
            log(line + "  DROPPED")
            continue
        log(line)
        worst_agree = max(worst_agree, r["agree"])
        worst_err = max(worst_err, r["err"])
        worst_closure = max(worst_closure, r["closure"])
        n_differ += r["doubles_differ"]
        rows.append((a, b, x) + r["row"])
    t_grid = time.time() - t_grid
    log("grid done in %.0f s: %d rows, %d dropped, %d left out (ln f beyond binary64)"
        % (t_grid, len(rows), len(dropped), len(out_of_range)))
    t1 = time.time()
    srows = s1_rows(log)
    t_s1 = time.time() - t1
    total = time.time() - t_start
    cpu = time.process_time() - cpu_start

    cmd = "/usr/bin/python3 scripts/make_stable_reference.py" + (" --quick" if args.quick else "") + \
        ("" if args.nolan_every == 1 else " --nolan-every %d" % args.nolan_every)
    today = "2026-11-25"
    common = [
        "# Made by: %s  (%s; %.0f min of CPU time, one core, checks included)" % (cmd, today, cpu / 60),
        "# mpmath %s (Debian python3-mpmath; gmpy2 backend for speed, which does not change the results), "
        "working precision mp.dps = %d; every point recomputed at mp.dps = %d with maxdegree + 2, other split "
        "levels and another switch point, and kept only if both agree to %g relative (pdf, cdf and sf) and "
        "the quadrature error estimates are below %g relative." % (mpmath.__version__, BASE_DPS, CHECK_DPS, TOL, TOL),
        "# Method: Nolan (1997), Theorem 1 (S0) integrals with mpmath.quad (tanh-sinh), the interval split at the "
        "integrand's peak (ln g = 0, by bisection on the monotone ln g), at further levels of ln g and at "
        "an interior point; trigonometric factors written in the distance from the nearer end of the "
        "interval; alpha = 2 (normal, variance 2) and alpha = 1, beta = 0 (Cauchy) in closed form. See the "
        "script's docstring.",
        "# Checks: (a) closed forms: Levy (S1(1/2, 1, 1, 0) is Levy with c = 1, checked on the characteristic "
        "function; 10 points, pdf/cdf/sf) largest rel diff %s; normal via Nolan's integral at alpha = 2 "
        "(5 points) %s; Cauchy via Nolan's alpha != 1 integral at alpha = 1 -+ 2^-60 (12 points) %s."
        % (mp.nstr(wa["levy"], 2), mp.nstr(wa["normal"], 2), mp.nstr(wa["cauchy"], 2)),
        "# (b) against Fourier inversion of the S0 characteristic function (density) and Gil-Pelaez's "
        "inversion (CDF), mpmath.quad at dps 28 on [0, t_max] cut into quarter periods of the oscillation, "
        "%d points, alpha 0.5..1.9, beta -1..1: largest rel diff of the density %s (at alpha, beta, x = %s), of "
        "the CDF %s (at %s)." % (wb["n"], mp.nstr(wb["pdf"], 2), wb["pdf_at"], mp.nstr(wb["cdf"], 2), wb["cdf_at"]),
        "# (c) against Nolan's STABLE (tests/data/stable_pdf_S1.csv, stable_cdf_S1.csv, %d rows, converted to S0 "
        "by z = x + zeta): alpha != 1: largest rel diff of the pdf %s, largest abs diff of the cdf %s; alpha = 1: "
        "pdf %s, cdf %s (at alpha, beta, x = %s: STABLE's cdf %s, here %s; Gil-Pelaez's inversion agrees with the "
        "value here, STABLE is known to be inaccurate at alpha = 1, beta != 0). stable_loc_scale.csv (%d rows, scale "
        "2, location 3, S0 and S1): pdf %s rel, cdf %s abs."
        % (wc["n"], mp.nstr(wc["res"]["a!=1"][0], 2), mp.nstr(wc["res"]["a!=1"][2], 2),
           mp.nstr(wc["res"]["a=1"][0], 2), mp.nstr(wc["res"]["a=1"][2], 2), wc["res"]["a=1"][3][:3],
           wc["res"]["a=1"][3][3], wc["res"]["a=1"][3][4][:12],
           wc["ls_n"], mp.nstr(wc["ls_pdf"], 2), mp.nstr(wc["ls_cdf"], 2)),
    ]
    with open(args.out_s0, "w") as fh:
        fh.write("# Standard alpha-stable laws in Nolan's S0 parameterization (scale 1, location 0): log density, "
                 "density, CDF and upper tail, computed independently with mpmath (not from any stable library).\n")
        for c in common:
            fh.write(c + "\n")
        fh.write("# This table: %d rows; largest disagreement between the two precisions %s (|ln ratio|), largest "
                 "quadrature error estimate %s relative; the binary64 rounding of the two runs differs in %d rows. "
                 "I_c + I_s = pi/2 + theta0 holds to %s.\n"
                 % (len(rows), mp.nstr(worst_agree, 2), mp.nstr(worst_err, 2), n_differ, mp.nstr(worst_closure, 2)))
        fh.write("# Grid: alpha in {%s}; beta in {%s} (alpha = 2: beta = 0 only); x in {%s}; plus, for alpha < 1 "
                 "and alpha in {%s} with beta in {%s}, x = zeta -+ d, d in {%s} (x the binary64 nearest to zeta -+ d, "
                 "zeta = -beta tan(pi alpha/2)); plus, for 1 <= alpha < 2 and beta = -+1, points on the light side "
                 "where the density is about 1e-%s.\n"
                 % (", ".join(ALPHAS), ", ".join(BETAS), ", ".join(XS), ", ".join(NEAR_ALPHAS_ABOVE_1),
                    ", ".join(NEAR_BETAS), ", ".join(NEAR_ZETA_D), ", 1e-".join(str(k) for k in LIGHT_TARGETS)))
        fh.write("# Columns: alpha, beta, x as binary64 (repr); log_pdf = ln f rounded to binary64 (-inf where f = 0: "
                 "beta = 1, alpha < 1, x <= zeta and beta = -1, alpha < 1, x >= zeta); pdf = f rounded to binary64 "
                 "(0 where f is below the binary64 range, subnormal where f is); cdf = F and sf = 1 - F, each "
                 "computed without cancellation, rounded to binary64.\n")
        if out_of_range:
            fh.write("# Left out: %d points where ln f < -1.8e308 (not representable; there f, F (or 1 - F) round "
                     "to 0): %s.\n" % (len(out_of_range), "; ".join(
                         "(%s, %s, %r)" % (a, b, x) for a, b, x, k, bd in out_of_range)))
        if dropped:
            fh.write("# Dropped (the two runs disagree by more than %g or the error estimate is larger): %s.\n"
                     % (TOL, "; ".join("(%s, %s, %r)" % (a, b, x) for a, b, x, k, ag, er in dropped)))
        fh.write("alpha,beta,x,log_pdf,pdf,cdf,sf\n")
        for a, b, x, lp, p, c, s in rows:
            fh.write("%s,%s,%s,%s,%s,%s,%s\n" % (repr(float(a)), repr(float(b)), fmt(x), fmt(lp), fmt(p), fmt(c), fmt(s)))
    with open(args.out_s1, "w") as fh:
        fh.write("# alpha-stable laws in S1 (Samorodnitsky-Taqqu) with scale sigma and location mu: log density, "
                 "density, CDF and upper tail, computed independently with mpmath.\n")
        for c in common:
            fh.write(c + "\n")
        fh.write("# Change of variables: X ~ S1(alpha, beta, sigma, mu) is sigma Z + mu (alpha != 1) or sigma Z + mu + "
                 "(2/pi) beta sigma ln sigma (alpha = 1), Z standard S1; the standard S1 law is the standard S0 law "
                 "shifted by -zeta = beta tan(pi alpha/2) (alpha != 1) and equal to it for alpha = 1. So f_X(x) = f0(z)/sigma, "
                 "F_X(x) = F0(z) with z = (x - mu)/sigma + zeta (alpha != 1) or z = (x - mu)/sigma - (2/pi) beta ln sigma "
                 "(alpha = 1), z evaluated exactly from the binary64 inputs (not rounded to binary64) and f0, F0 the "
                 "S0 functions of stable_reference_S0.csv. Both runs (dps 40 and 50) agree to %g; %d rows.\n"
                 % (TOL, len(srows)))
        fh.write("alpha,beta,sigma,mu,x,log_pdf,pdf,cdf,sf\n")
        for a, b, s, m, x, lp, p, c, sf in srows:
            fh.write("%s,%s,%s,%s,%s,%s,%s,%s,%s\n" % (repr(float(a)), repr(float(b)), repr(float(s)), repr(float(m)),
                                                      fmt(x), fmt(lp), fmt(p), fmt(c), fmt(sf)))
    log("wrote %s (%d rows) and %s (%d rows); %.0f s wall, %.0f s CPU in all (wall: checks %.0f, grid %.0f, S1 %.0f)"
        % (args.out_s0, len(rows), args.out_s1, len(srows), total, cpu, t_checks, t_grid, t_s1))


if __name__ == "__main__":
    main()
