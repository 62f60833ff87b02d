#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Generates tests/cli/data/run-carry-over.json and run-skew.json (hand-made sessions for t312).
import json
import os
import random

def sample(b, k, w):
    return {"block": b, "order": k, "warmup": False, "failed": False, "wait_status": 0,
            "fail_reason": "", "scale": 1, "wall_ns": w, "user_ns": w // 2, "sys_ns": w // 4,
            "maxrss_kb": 2048, "minflt": 100, "majflt": 0, "nvcsw": 10, "nivcsw": 1,
            "has_report": True, "events": 1000, "timed_ns": 0, "monitor_events": -1}

def session(mons, blocks, wall, seed, cmd):
    rng = random.Random(seed)
    samples = {m: [] for m in mons}
    prev = None
    for b in range(blocks):
        order = mons[:]
        rng.shuffle(order)
        for k, m in enumerate(order):
            samples[m].append(sample(b, k, round(wall(rng, b, m, prev))))
            prev = m
    configs = [{"workload": "pipe", "workload_args": "loops=1000", "monitor": m, "variant": None,
                "unit": "round-trip", "expected_events": -1, "samples": samples[m]} for m in mons]
    return {"format": "probecost-session", "format_version": 1, "id": 1, "kind": "run",
            "started": 1796053519, "cmdline": cmd + " (synthetic)", "version": "0.1.0",
            "seed": str(seed), "tsc_hz": 0, "complete": True, "env": None,
            "options": {"runs": blocks, "warmup": 0}, "configs": configs, "series": []}

def carry(rng, b, m, prev):
    w = 1e6 * {"none": 1, "strace": 1.2, "perf-stat": 1.02}[m] * (1 + rng.gauss(0, 0.004))
    return w * 1.05 if prev == "strace" else w      # a run right after strace: 5% longer

def skew(rng, b, m, prev):
    w = 1e6 * (1 + rng.gauss(0, 0.004))
    if m == "strace":
        w *= 1.20 * (2.5 if b == 7 else 1)          # strace: +20%, +200% in block 7
    return w

for name, mons, blocks, f, cmd in (
        ("run-carry-over.json", ["none", "strace", "perf-stat"], 16, carry,
         "probecost run -w pipe:loops=1000 -m strace -m perf-stat --runs 16"),
        ("run-skew.json", ["none", "strace"], 16, skew,
         "probecost run -w pipe:loops=1000 -m strace --runs 16")):
    s = session(mons, blocks, f, 19, cmd)
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "w").write(json.dumps(s, indent=1) + "\n")
