#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# coverage-z: how far off the intervals of a bench/coverage.sh run are, from its KEEP file
# (one line a study and figure: scenario path figure truth estimate lo hi told blocks
# [session-truth]).  Per cell: coverage, the mean of z = (estimate - truth) / se (a bias,
# in standard errors), the sd of z (1 when the standard error is right; above 1, the
# error has a part the interval does not carry), the mean bias in % of the truth and the
# median half-width in %.  se is the half-width over t(0.975, blocks - 1).
#   usage: KEEP=FILE bash bench/coverage.sh; bench/coverage-z.py FILE
import collections
import math
import sys

# t(0.975, df): a table, linear between its rows (blocks are means: 10 to 40).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021}


def tq(df):
    df = min(max(df, 1), 40)
    lo = max(k for k in T975 if k <= df)
    hi = min(k for k in T975 if k >= df)
    return T975[lo] if lo == hi else T975[lo] + (T975[hi] - T975[lo]) * (df - lo) / (hi - lo)


g=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.split()
    if len(f)<9 or 'null' in f[3:7]: continue
    sc,path,name=f[0],f[1],f[2]; t,e,lo,hi=map(float,f[3:7]); b=float(f[8])
    hw=(hi-lo)/2
    if hw<=0: continue
    se=hw/tq(max(1,round(b)-1))
    g[(sc,path,name)].append(((e-t)/se, lo<=t<=hi, (e-t)/t if t else 0, hw/abs(t) if t else 0))
print(f"{'cell':34s} {'n':>4s} {'cover':>6s} {'mean z':>7s} {'sd z':>6s} {'bias %':>7s} {'hw %':>6s}")
for k in sorted(g):
    v=g[k]; n=len(v); z=[a for a,_,_,_ in v]; m=sum(z)/n; sd=math.sqrt(sum((x-m)**2 for x in z)/(n-1))
    c=sum(b for _,b,_,_ in v)/n; bias=100*sum(r for _,_,r,_ in v)/n; hw=100*sorted(h for *_,h in v)[n//2]
    print(f"{' '.join(k):34s} {n:4d} {c:6.3f} {m:7.2f} {sd:6.2f} {bias:7.2f} {hw:6.2f}")
