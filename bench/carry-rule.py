#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# carry-rule: how the carry-over test of src/stats/carryover.c behaves on simulated studies.
# Blocks of K configurations in a shuffled order (none and K-1 monitors whose runs have a CoV
# of 1, 5 and 10%), 2% block drift; the model log(wall) = configuration + block + predecessor,
# fitted unweighted and in two steps (weights 1 / each configuration's residual variance, as
# carryover.c).  Prints, per monitor, how often its p < 0.05, and how often the session warns
# (Bonferroni over the monitors).  Needs python3-numpy and python3-scipy.
#   usage: bench/carry-rule.py [studies]
import math
import sys

import numpy as np
from scipy import stats

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
rng = np.random.default_rng(3)


def study(k, blocks, cov, carry, weighted, drift=0.02):
    rows, y, cfg, prev = [], [], [], None
    for b in range(blocks):
        off = drift * rng.standard_normal()
        for c in rng.permutation(k):
            w = math.log(1 + 0.2 * c) + off + cov[c] * rng.standard_normal()
            if prev is not None and prev > 0:
                w += math.log1p(carry[prev])
            rows.append([1] + [c == j for j in range(1, k)] + [b == j for j in range(1, blocks)]
                        + [prev == j for j in range(1, k)])
            y.append(w)
            cfg.append(c)
            prev = c
    x, y, cfg = np.array(rows, float), np.array(y), np.array(cfg)
    wt = np.ones(len(y))
    if weighted:
        beta, *_ = np.linalg.lstsq(x, y, rcond=None)
        e = y - x @ beta
        wt = 1 / np.array([np.mean(e[cfg == c] ** 2) for c in range(k)])[cfg]
    xw, yw = x * np.sqrt(wt)[:, None], y * np.sqrt(wt)
    beta, *_ = np.linalg.lstsq(xw, yw, rcond=None)
    df = len(y) - x.shape[1]
    cov_b = np.sum((yw - xw @ beta) ** 2) / df * np.linalg.pinv(xw.T @ xw)
    first = x.shape[1] - (k - 1)
    return np.array([2 * stats.t.sf(abs(beta[j]) / math.sqrt(cov_b[j, j]), df)
                     for j in range(first, x.shape[1])])


COV = [0.01, 0.01, 0.05, 0.10]
print(f"{REPS} studies each; columns: P(p < 0.05) for monitors 1-3, P(the session warns)")
for weighted in (False, True):
    for blocks, carry, name in ((10, [0, 0, 0, 0], "no carry-over, 10 blocks"),
                                (30, [0, 0, 0, 0], "no carry-over, 30 blocks"),
                                (10, [0, 0.02, 0, 0], "monitor 1 carries 2%, 10 blocks"),
                                (30, [0, 0.02, 0, 0], "monitor 1 carries 2%, 30 blocks")):
        p = np.array([study(4, blocks, COV, carry, weighted) for _ in range(REPS)])
        print(f"{'weighted' if weighted else 'unweighted':10s} {name:32s} "
              + " ".join(f"{v:.3f}" for v in np.mean(p < 0.05, axis=0))
              + f"  warns {np.mean((p < 0.05 / 3).any(axis=1)):.3f}")
