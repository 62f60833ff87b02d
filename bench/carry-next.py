#!/usr/bin/env python3
"""bench/carry-next: does one long run slow the plain run right after it?

Pinned to CPU $CPU (0), ROUNDS (20) rounds, each in shuffled order: 12 plain spin
runs each right after a plain run (PP), and 12 each right after a run that spins
65 ms (LP); the mean of the last 10 of each, timed by this script around fork and
wait.  Prints each round's LP / PP - 1 and their mean with a t interval: a
carry-over from one long run to the next (bench/carry-plain.sh looks at a whole
session's plain runs instead).
  PROBECOST (./probecost)  ROUNDS (20)  CPU (0)
"""
import math
import os
import random
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
pc = os.path.realpath(os.environ.get("PROBECOST", os.path.join(here, "..", "probecost")))
rounds = int(os.environ.get("ROUNDS", "20"))
os.sched_setaffinity(0, {int(os.environ.get("CPU", "0"))})
plain = [pc, "workload", "spin", "loops=500", "work=10000"]
long_ = [pc, "workload", "spin", "loops=500", "work=130000"]
T975 = {19: 2.093, 9: 2.262, 4: 2.776}


def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - t


d = []
for r in range(rounds):
    mean = {}
    for k in random.sample(["PP", "LP"], 2):
        v = []
        for _ in range(12):
            timed(plain if k == "PP" else long_)
            v.append(timed(plain))
        mean[k] = statistics.mean(v[2:])
    d.append(mean["LP"] / mean["PP"] - 1)
    print(f"round {r + 1}: after plain {mean['PP'] * 1e3:.3f} ms, after 65 ms "
          f"{mean['LP'] * 1e3:.3f} ms, {d[-1] * 100:+.2f}%", flush=True)
if len(d) < 2:
    sys.exit(0)
t = T975.get(len(d) - 1, 2.0)
hw = t * statistics.stdev(d) / math.sqrt(len(d))
print(f"after a 65-ms run: {statistics.mean(d) * 100:+.2f}% [{(statistics.mean(d) - hw) * 100:+.2f}, "
      f"{(statistics.mean(d) + hw) * 100:+.2f}] ({len(d)} rounds, t interval)")
