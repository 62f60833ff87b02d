#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# two-stage-rule: the coverage of adaptive designs against the fixed one, simulated.
# Per-block overheads (5% and 1% normal noise, or a lognormal cost of CoV 1 on it);
# each study's 95% t interval of the mean; truth the population mean.  Designs, all
# with a pilot of 10 blocks and at most 200:
#   fixed        the pilot alone
#   sequential   add a block until the half-width is below the precision asked
#   stein        plan once from the pilot: N = n0 (hw / want)^2, then stop
#   stein x1.5   the same with 1.5x the blocks (src/stats/twostage.c's PLAN_FACTOR)
#   apart        the pilot only plans: a second stage of max(n0, 1.5 x N) fresh blocks is
#                the sample (run/runner.h pilot_apart), at most NMAX - n0; what probecost
#                run does, since stein x1.5 covers less than fixed (a pilot short of its
#                slow runs plans few blocks and its luck stays in the sample)
# Cells: coverage / mean blocks.  Needs python3-numpy and python3-scipy.
#   usage: bench/two-stage-rule.py [reps]
import math
import sys

import numpy as np
from scipy import stats

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 6000
N0, NMAX = 10, 200
rng = np.random.default_rng(19)


def halfwidth(x):
    n = len(x)
    return stats.t.ppf(0.975, n - 1) * np.std(x, ddof=1) / math.sqrt(n)


def study(gen, want, design):
    x = list(gen(N0))
    if design == "sequential":
        while len(x) < NMAX and halfwidth(x) >= want:
            x += list(gen(1))
    elif design.startswith("stein"):
        k = 1.5 if design.endswith("1.5") else 1.0
        n = min(NMAX, max(N0, math.ceil(k * N0 * (halfwidth(x) / want) ** 2)))
        x += list(gen(n - N0))
    elif design == "apart":
        n = min(NMAX, max(N0, math.ceil(1.5 * N0 * (halfwidth(x) / want) ** 2)))
        y = gen(min(NMAX - N0, n))
        hw = halfwidth(y)
        return y.mean() - hw, y.mean() + hw, N0 + len(y)
    x = np.array(x)
    hw = halfwidth(x)
    return x.mean() - hw, x.mean() + hw, len(x)


def cell(gen, truth, want, design):
    hit = blocks = 0
    for _ in range(REPS):
        lo, hi, n = study(gen, want, design)
        hit += lo <= truth <= hi
        blocks += n
    return f"{hit / REPS:.3f}/{blocks / REPS:.0f}"


s2 = math.log(2)  # lognormal with CoV 1
normal = lambda n: 0.05 + 0.01 * rng.standard_normal(n)
lognormal = lambda n: 0.05 * np.exp(rng.normal(-s2 / 2, math.sqrt(s2), n)) + 0.01 * rng.standard_normal(n)
designs = ("fixed", "sequential", "stein", "stein x1.5", "apart")
print(f"coverage/mean blocks, {REPS} studies a cell (binomial se 0.003 at 0.95)")
print(f"{'scenario':10} {'want':>6} " + " ".join(f"{d:>12}" for d in designs))
for name, gen in (("normal", normal), ("lognormal", lognormal)):
    for want in (0.01, 0.0075, 0.005):
        print(f"{name:10} {want:6.4f} " + " ".join(f"{cell(gen, 0.05, want, d):>12}" for d in designs))
