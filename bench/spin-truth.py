#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# spin-truth: what the inject monitor's known answer leaves out, run by run.  Reads the
# studies a loop like this one wrote (10 blocks each, the spin workload's own log of
# every run beside probecost's JSON):
#   for i in $(seq 300); do PCOST_SPIN_LOG=DIR/log.$i ./probecost run --no-store --format json \
#     --runs 10 --warmup 1 --cpu 0 --seed $i -w spin:loops=500,work=10000 \
#     -m inject:event=E,fixed=F,dist=normal,cov=0.1 >DIR/s.$i.json; done
# and matches each logged run to its sample (the log's lines are in run order: block,
# then order within it).  Per block it splits the monitored run's extra time:
#   per event   (timed region's extra) / events = the injected spins per event (the
#               truth) + the work part (the plain spins' own difference, noise)
#   fixed       (wall's extra - timed region's extra) = injected set-up + fixed spin
#               (the truth) + the uncounted rest
# and prints: the work part's shape (skewness, excess kurtosis: its outliers), the
# between-study level of the injected cost and its pace against what the runs
# predict, and the uncounted rest of the fixed cost with its standard error, by the
# monitored run's place in its block.
#   usage: bench/spin-truth.py DIR [EVENTS]     (python3-numpy, python3-scipy)
import glob
import json
import math
import os
import sys

import numpy as np
from scipy import stats

D = sys.argv[1]
EV = int(sys.argv[2]) if len(sys.argv) > 2 else 500


def facts(line):
    return dict(kv.split("=", 1) for kv in line.split())


studies = []
for path in sorted(glob.glob(os.path.join(D, "s.*.json"))):
    i = path.rsplit(".", 2)[1]
    try:
        js = json.load(open(path))
    except ValueError:
        continue
    samples = sorted(((s["block"], s["order"], c["monitor"] != "none", s)
                      for c in js["session"]["configs"] for s in c["samples"]),
                     key=lambda t: (t[0], t[1]))
    log = [facts(line) for line in open(os.path.join(D, f"log.{i}"))][-len(samples):]
    blocks = {}
    for (b, _, mon, s), f in zip(samples, log):
        if int(f["inject"]) != mon:
            sys.exit(f"{path}: the log does not match the samples (block {b})")
        if not s["warmup"]:
            blocks.setdefault(b, {})[mon] = (s, f)
    rows = []
    for b in sorted(blocks):
        if len(blocks[b]) < 2:
            continue
        (sp, _), (sm, fm) = blocks[b][False], blocks[b][True]
        dt = sm["timed_ns"] - sp["timed_ns"]
        inj = float(fm["injected_event_ns"]) / EV
        told = float(fm["injected_setup_ns"]) + float(fm["injected_fixed_ns"])
        rows.append((dt / EV - inj, inj, float(fm["factor"]),
                     (sm["wall_ns"] - sp["wall_ns"]) - dt - told, sm["order"]))
    if len(rows) > 2:
        studies.append(np.array(rows))


def level(name, per_study):
    m = np.array([x.mean() for x in per_study])
    pred = math.sqrt(np.mean([x.var(ddof=1) / len(x) for x in per_study]))
    print(f"  {name:34s} sd of the study means {m.std(ddof=1):9.2f}, the runs predict {pred:9.2f}")


print(f"# {len(studies)} studies from {D}")
work = np.concatenate([s[:, 0] - s[:, 0].mean() for s in studies])
print(f"work part per event: mean {np.mean([s[:, 0].mean() for s in studies]):.1f} ns, "
      f"skewness {stats.skew(work):.2f}, excess kurtosis {stats.kurtosis(work):.1f}")
print("between studies (ns):")
level("injected per event", [s[:, 1] for s in studies])
level("its pace (injected / factor)", [s[:, 1] / s[:, 2] for s in studies])
level("work part per event", [s[:, 0] for s in studies])
u = np.concatenate([s[:, 3] for s in studies])
print(f"uncounted fixed: {u.mean() / 1e3:.1f} us a run, se {u.std(ddof=1) / math.sqrt(len(u)) / 1e3:.1f} "
      f"({len(u)} blocks)")
o = np.concatenate([s[:, 4] for s in studies])
for k, name in ((0, "monitored run first"), (1, "monitored run second")):
    x = u[o == k]
    if len(x) > 1:
        print(f"  {name:20s} {x.mean() / 1e3:6.1f} us, se {x.std(ddof=1) / math.sqrt(len(x)) / 1e3:.1f} ({len(x)})")
