#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# skew-rule: how often pcost_skewed() (src/stats/robust.c) calls a monitor's cost skewed.
# Simulated paired blocks (baseline y, monitored x = base (1 + noise) (1 + cost)); the rule:
# |log(mean x / mean y) - HL(log(x / y))| > K x the delta-method standard error of the ratio
# of means on the log scale (as pcost_paired computes it).  Null scenarios (a constant 5%
# cost) should almost never fire; skewed costs should.  Needs python3-numpy.
#   usage: bench/skew-rule.py [reps]
import math
import sys

import numpy as np

K = 0.9  # PCOST_SKEW_SE in robust.c
REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
rng = np.random.default_rng(19)


def hodges_lehmann(d):
    i, j = np.triu_indices(len(d))
    return np.median((d[i] + d[j]) / 2)


def fires(x, y):
    n = len(x)
    r = x.mean() / y.mean()
    se_log = np.std(x - r * y, ddof=1) / math.sqrt(n) / y.mean() / r
    return se_log > 0 and abs(math.log(r) - hodges_lehmann(np.log(x / y))) > K * se_log


def rate(cost, n, noise=0.01, drift=0.0, tails=None):
    hit = 0
    for _ in range(REPS):
        base = 1e6 * (1 + drift * rng.random(n))

        def e():
            return rng.standard_t(tails, n) if tails else rng.standard_normal(n)

        y = base * (1 + noise * e())
        x = base * (1 + noise * e()) * (1 + cost(n))
        hit += fires(x, y)
    return hit / REPS


def lognormal(cov):
    s2 = math.log(1 + cov * cov)
    return lambda n: 0.05 * np.exp(rng.normal(-s2 / 2, math.sqrt(s2), n))


flat = lambda n: 0.05
hiccups = lambda n: 0.05 + 1.0 * (rng.random(n) < 0.02)
one_spike = lambda n: 0.05 + 1.0 * (np.arange(n) == 0)

print(f"P(rule fires), {REPS} studies each, K = {K}")
print(" n | null: normal 1%  5% + 2x drift  t3 1% | skewed: lognormal CoV 1  CoV 2  "
      "hiccups 2% (+100%)  one spike (+100%)")
for n in (5, 8, 10, 20, 40):
    null = [rate(flat, n), rate(flat, n, 0.05, 1.0), rate(flat, n, tails=3)]
    alt = [rate(lognormal(1), n), rate(lognormal(2), n), rate(hiccups, n), rate(one_spike, n)]
    print(f"{n:2d} | " + "  ".join(f"{v:.4f}" for v in null) + " | " +
          "  ".join(f"{v:.3f}" for v in alt) + f"  (P(a hiccup in {n}) = {1 - 0.98 ** n:.3f})")
