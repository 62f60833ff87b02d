#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# skew-interval: what holds a monitor's mean cost at 0.90 when it is skewed (lognormal,
# CoV 1, which the plain t interval missed at 0.855-0.895 in bench/coverage.sh),
# simulated, not measured.
# Paired blocks as bench/coverage.sh makes them: a plain run and a monitored run, each
# 1 + N(0, PN) (PN 0.075: the plain runs' CoV there), the monitored one plus a cost of mean
# 0.5 (+50%), normal with CoV 0.1 (sym) or lognormal with CoV 1 (log).  At n blocks, the
# share of studies whose 95% interval holds the truth:
#   t        the mean of the differences, Student t (pcost_mean_ci before Hall)
#   hall     the same with Hall's (1992, JRSS B 54:221) transform of the t statistic,
#            g(T) = T + a T^2 + a^2 T^3 / 3 + b, a = skew / (3 sqrt n), b = skew / (6 sqrt n),
#            inverted at the t quantiles (closed form, a real cube root: g is
#            ((1 + a T)^3 - 1) / (3 a) + b, monotone for any a); what pcost_mean_ci does
#            from 10 values on
#   fieller  the overhead mean(x)/mean(y) - 1 (truth 0.5), Fieller's interval
#   f-hall   Fieller's with Hall's bounds from the skewness of x - y (pcost_paired)
#   boot-t   the bootstrap-t of the mean (B = 599 resamples), second-order right too, random
#   width    hall's width over t's, the median and the 95th percentile over the studies
#   fold     the share of studies where 1 + 3 a (t - b) < 0 at one end (the cubic folds)
# and for telling: 'told' is D'Agostino's skewness test of x - y beyond |Z| 2.326 (2% of
# normal samples: pcost_skewed's third-moment rule), 'cov|told' covered by f-hall or told.
# Pure python (no numpy); 1500 studies a cell take about two minutes.
#   usage: bench/skew-interval.py [studies]
import math
import random
import statistics as st
import sys

N_STUDIES = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
PN = 0.075
T975 = {5: 2.776445, 8: 2.364624, 10: 2.262157, 28: 2.051831}
rng = random.Random(19)


def cost(kind):
    if kind == "sym":
        return rng.gauss(0.5, 0.05)
    s2 = math.log(2.0)  # lognormal of CoV 1: sigma^2 = log(1 + CoV^2)
    return rng.lognormvariate(math.log(0.5) - s2 / 2, math.sqrt(s2))


def skewness(d):
    m = st.fmean(d)
    m2 = sum((x - m) ** 2 for x in d) / len(d)
    return sum((x - m) ** 3 for x in d) / len(d) / m2**1.5 if m2 > 0 else 0.0


def dagostino_z(d):
    n = len(d)
    if n < 8:  # the transformation's b2 needs 8 values (pcost_skew_z: NaN, never told)
        return float("nan")
    y = skewness(d) * math.sqrt((n + 1) * (n + 3) / (6.0 * (n - 2)))
    b2 = 3.0 * (n * n + 27 * n - 70) * (n + 1) * (n + 3) / ((n - 2.0) * (n + 5) * (n + 7) * (n + 9))
    w2 = -1 + math.sqrt(2 * (b2 - 1))
    return math.asinh(y / math.sqrt(2 / (w2 - 1))) / math.sqrt(0.5 * math.log(w2))


def hall_c(g, n, t):
    """Hall's bounds (c_lo, c_hi) on T, and whether the cubic folds at either."""
    a, b = g / (3 * math.sqrt(n)), g / (6 * math.sqrt(n))
    if abs(a) < 1e-12:
        return -t - b, t - b, False

    def inv(x):
        u = 1 + 3 * a * (x - b)
        return (math.copysign(abs(u) ** (1 / 3), u) - 1) / a

    return inv(-t), inv(t), min(1 + 3 * a * (t - b), 1 + 3 * a * (-t - b)) < 0


def fieller(x, y, c_lo, c_hi):
    n = len(x)
    xb, yb = st.fmean(x), st.fmean(y)
    v11, v22 = st.variance(x) / n, st.variance(y) / n
    v12 = sum((a - xb) * (b - yb) for a, b in zip(x, y)) / (n - 1) / n

    def roots(c):
        aa, bb, cc = yb * yb - c * c * v22, xb * yb - c * c * v12, xb * xb - c * c * v11
        disc = bb * bb - aa * cc
        if aa <= 0 or disc < 0:
            return None
        return (bb - math.sqrt(disc)) / aa, (bb + math.sqrt(disc)) / aa

    lo, hi = roots(c_hi), roots(-c_lo)
    return (lo[0] - 1, hi[1] - 1) if lo and hi else None


def boot_t(d, reps=599):
    n = len(d)
    m, se = st.fmean(d), st.stdev(d) / math.sqrt(n)
    ts = []
    for _ in range(reps):
        x = [rng.choice(d) for _ in range(n)]
        sx = st.stdev(x) / math.sqrt(n)
        if sx > 0:
            ts.append((st.fmean(x) - m) / sx)
    ts.sort()
    return m - ts[int(0.975 * len(ts))] * se, m - ts[int(0.025 * len(ts))] * se


def study(n, kind):
    y = [rng.gauss(1, PN) for _ in range(n)]
    x = [rng.gauss(1, PN) + cost(kind) for _ in range(n)]
    d = [a - b for a, b in zip(x, y)]
    t = T975[n]
    m, se = st.fmean(d), st.stdev(d) / math.sqrt(n)
    c_lo, c_hi, fold = hall_c(skewness(d), n, t)
    f, fh = fieller(x, y, -t, t), fieller(x, y, c_lo, c_hi)
    blo, bhi = boot_t(d)
    return {
        "t": abs(m - 0.5) <= t * se,
        "hall": m - c_hi * se <= 0.5 <= m - c_lo * se,
        "fieller": bool(f) and f[0] <= 0.5 <= f[1],
        "f-hall": bool(fh) and fh[0] <= 0.5 <= fh[1],
        "boot-t": blo <= 0.5 <= bhi,
        "width": (c_hi - c_lo) / (2 * t),
        "fold": fold,
        "told": abs(dagostino_z(d)) > 2.326,  # NaN compares false
    }


print(f"# {N_STUDIES} studies a cell, plain CoV {PN}, cost +50%")
cols = ("t", "hall", "fieller", "f-hall", "boot-t")
print(f"{'n':>3} {'cost':>4} " + " ".join(f"{c:>7}" for c in cols) +
      f" {'width':>6} {'p95':>5} {'fold':>5} {'told':>5} {'cov|told':>8}")
for n in (5, 8, 10, 28):
    for kind in ("sym", "log"):
        r = [study(n, kind) for _ in range(N_STUDIES)]
        k = len(r)
        w = sorted(x["width"] for x in r)
        print(f"{n:3d} {kind:>4} " + " ".join(f"{sum(x[c] for x in r) / k:7.3f}" for c in cols) +
              f" {w[k // 2]:6.3f} {w[int(0.95 * k)]:5.2f} {sum(x['fold'] for x in r) / k:5.3f}"
              f" {sum(x['told'] for x in r) / k:5.3f} {sum(x['f-hall'] or x['told'] for x in r) / k:8.3f}")
