#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# skew-hull: does Hall's skewness correction cost coverage under symmetric noise with
# rare outliers, and does keeping each arm at least Student t's (the hull, what
# pcost_hall_t does since this script) give it back?  Simulated, not measured.
# A study is n paired differences d; the truth is their mean; per cell and n, the share
# of 95% intervals that hold it and the median half-width in standard errors:
#   t     the mean, Student t (n - 1 df)
#   hall  Hall's (1992, JRSS B 54:221) transform of t: g(T) = ((1 + a T)^3 - 1)/(3 a) + b,
#         a = skew/(3 sqrt n), b = skew/(6 sqrt n), inverted at +-t (real cube root);
#         pcost_mean_ci before the hull
#   hull  each arm the longer of hall's and t's (pcost_mean_ci now)
# Cells: normal noise; normal noise plus 3% of values pushed out by Exp(8) sd, both ways
# (a preempted monitored or plain run; the spin workload's block differences here have
# kurtosis 65, skewness 2.4), or 70% of them up (the longer run preempted more); Student
# t with 3 df; a lognormal cost of CoV 1 on normal noise of sd 0.2; lognormal CoV 2.
#   usage: bench/skew-hull.py [studies]    (python3-numpy, python3-scipy: /usr/bin/python3)
import math
import sys

import numpy as np
from scipy import stats

R = int(sys.argv[1]) if len(sys.argv) > 1 else 40000
rng = np.random.default_rng(19)


def intervals(x):
    n = x.shape[1]
    m = x.mean(1)
    se = x.std(1, ddof=1) / math.sqrt(n)
    t = stats.t.ppf(0.975, n - 1)
    d = x - m[:, None]
    m2 = (d * d).mean(1)
    sk = np.where(m2 > 0, (d ** 3).mean(1) / np.maximum(m2, 1e-300) ** 1.5, 0)
    a, b = sk / (3 * math.sqrt(n)), sk / (6 * math.sqrt(n))

    def inv(v):
        with np.errstate(invalid="ignore", divide="ignore"):
            r = (np.cbrt(1 + 3 * a * (v - b)) - 1) / a
        return np.where(np.abs(a) < 1e-12, v - b, r)

    c_lo, c_hi = inv(-t), inv(t)
    return se, {"t": (m - t * se, m + t * se), "hall": (m - c_hi * se, m - c_lo * se),
                "hull": (m - np.maximum(c_hi, t) * se, m - np.minimum(c_lo, -t) * se)}


def contaminated(p, scale, up):
    def draw(shape):
        hit = rng.random(shape) < p
        sign = np.where(rng.random(shape) < up, 1, -1)
        return rng.normal(0, 1, shape) + hit * sign * rng.exponential(scale, shape)
    return draw, p * scale * (2 * up - 1)


S1, S2 = math.log(2), math.log(5)  # sigma^2 of lognormals of CoV 1 and 2
CELLS = [
    ("normal", lambda s: rng.normal(0, 1, s), 0),
    ("3% outliers, both ways", *contaminated(0.03, 8, 0.5)),
    ("3% outliers, 70% up", *contaminated(0.03, 8, 0.7)),
    ("student t, 3 df", lambda s: rng.standard_t(3, s), 0),
    ("lognormal CoV 1 + noise", lambda s: rng.lognormal(-S1 / 2, math.sqrt(S1), s) + rng.normal(0, 0.2, s), 1),
    ("lognormal CoV 2", lambda s: rng.lognormal(-S2 / 2, math.sqrt(S2), s), 1),
]
print(f"# {R} studies a cell; coverage/median half-width in standard errors")
print(f"{'cell':26s} {'n':>3s}  {'t':>11s}  {'hall':>11s}  {'hull':>11s}")
for name, draw, truth in CELLS:
    for n in (10, 20, 35):
        se, iv = intervals(draw((R, n)))
        cols = []
        for k in ("t", "hall", "hull"):
            lo, hi = iv[k]
            cols.append(f"{np.mean((lo <= truth) & (truth <= hi)):.3f}/{np.median((hi - lo) / 2 / se):.2f}")
        print(f"{name:26s} {n:3d}  " + "  ".join(f"{c:>11s}" for c in cols))
