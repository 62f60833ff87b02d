#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# coverage-z: how far off the intervals of a bench/coverage.sh run are, from its KEEP file
# (one line a study and figure: scenario path figure truth estimate lo hi told blocks
# [session-truth [sample-blocks [timed-truth [ended-truth [u_T [own-truth]]]]]]).  Per cell and
# truth (pooled; session, timed, ended and own, where the file has them):
#   cover    the share of intervals that hold the truth (as bench/coverage.sh counts it)
#   t-cov    the share plain Student t intervals of the same standard errors would hold
#            (the difference is what Hall's skewness correction did)
#   below / above   the misses, the truth below the interval (estimate high) or above it
#   mean z   z = (estimate - truth) / se: a bias in standard errors.  se is the shorter
#            arm over t(0.975, df) in files with the 11th field (written since Hall's
#            correction only lengthens an arm: the shorter one is t's), else the mean
#            arm over it (Hall's two arms straddle t's)
#   sd z     and the sd z should have when the standard error is right: z is then
#            Student's t with df degrees of freedom, whose sd is sqrt(df / (df - 2)),
#            1.134 at the default 10 blocks (not 1: an estimated se spreads z more)
#   ratio    sd z / that sd: above 1, the error has a part the interval does not carry
#   bias %   the mean of (estimate - truth) / truth;  hw %  the median half-width / truth
# df is the sample's blocks less 1: the 11th field where the file has it (since the
# harness writes it), else 'blocks' less 1 on the fixed path and less the pilot's 10 on
# the two-stage path (its pilot only plans).
#   usage: KEEP=FILE bash bench/coverage.sh; bench/coverage-z.py FILE
import collections
import math
import sys

# t(0.975, df): a table, linear between its rows (10 to 40 blocks, up to 100 with a pilot).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000,
        100: 1.984}
PILOT = 10


def tq(df):
    df = min(max(df, 1), 100)
    lo = max(k for k in T975 if k <= df)
    hi = min(k for k in T975 if k >= df)
    return T975[lo] if lo == hi else T975[lo] + (T975[hi] - T975[lo]) * (df - lo) / (hi - lo)


def t_sd(df):
    return math.sqrt(df / (df - 2)) if df > 2 else float('nan')


cells = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 9 or 'null' in f[3:7]:
        continue
    sc, path, name = f[0], f[1], f[2]
    est, lo, hi = map(float, f[4:7])
    if len(f) > 10:
        df = int(f[10]) - 1
    else:
        df = round(float(f[8])) - (PILOT if path == 'adaptive' else 0) - 1
    hw = (hi - lo) / 2
    if hw <= 0 or df < 1:
        continue
    se = (min(est - lo, hi - est) if len(f) > 10 else hw) / tq(df)
    if se <= 0:
        continue
    truths = [('pooled', float(f[3]))]
    if len(f) > 9 and f[9] != 'nan':
        truths.append(('session', float(f[9])))
    if len(f) > 11 and f[11] != 'nan':
        truths.append(('timed', float(f[11])))
    if len(f) > 12 and f[12] != 'nan':
        truths.append(('ended', float(f[12])))
    if len(f) > 14 and f[14] != 'nan':
        truths.append(('own', float(f[14])))
    for tname, t in truths:
        cells[(sc, path, name, tname)].append(dict(
            z=(est - t) / se, cov=lo <= t <= hi, tcov=abs(est - t) <= tq(df) * se,
            below=t < lo, above=t > hi, rel=(est - t) / t if t else 0.0,
            hw=hw / abs(t) if t else 0.0, sd=t_sd(df)))

print(f"{'cell':42s} {'n':>4s} {'cover':>6s} {'t-cov':>6s} {'below':>6s} {'above':>6s} "
      f"{'mean z':>7s} {'sd z':>6s} {'want':>6s} {'ratio':>6s} {'bias %':>7s} {'hw %':>6s}")
for k in sorted(cells):
    v = cells[k]
    n = len(v)
    if n < 3:
        continue
    z = [x['z'] for x in v]
    m = sum(z) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in z) / (n - 1))
    want = sum(x['sd'] for x in v) / n

    def share(key):
        return sum(x[key] for x in v) / n
    print(f"{' '.join(k):42s} {n:4d} {share('cov'):6.3f} {share('tcov'):6.3f} "
          f"{share('below'):6.3f} {share('above'):6.3f} {m:7.2f} {sd:6.2f} {want:6.3f} "
          f"{sd / want:6.2f} {100 * sum(x['rel'] for x in v) / n:7.2f} "
          f"{100 * sorted(x['hw'] for x in v)[n // 2]:6.2f}")
