/* SPDX-License-Identifier: MIT */
/*
 * workloads/timed: a workload's timed region and what it reports: the clock it
 * is read on, spins of a known length (the inject monitor's costs), threads
 * released together, and the facts beside the time (its own check, threads,
 * the uprobe trampoline).
 */
#ifndef PCOST_WL_TIMED_H
#define PCOST_WL_TIMED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

/*
 * The workload's check of its own result, into res: ok keeps a good check
 * good; a bad one (ok false) sticks, with the first reason (printf format).
 */
struct pcost_wl_result;
void pcost_wl_check(struct pcost_wl_result *res, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Append " uprobe_trampoline=1" (or =0) to res->extra: whether this process
 * has the [uprobes-trampoline] mapping Linux 6.18 creates when it optimizes a
 * uprobe on a 5-byte nop into a call (nothing when /proc/self/maps is
 * unreadable).  Call it at the end of the timed region, while still armed.
 */
void pcost_wl_report_trampoline(struct pcost_wl_result *res);

/*
 * Busy work of a known length: spin ns on the monotonic clock from now; returns
 * the time actually spun (a preemption inside the spin counts in it).
 */
pcost_ns pcost_wl_spin_ns(pcost_ns ns);

/*
 * The inject monitor's known costs (monitors/inject.c): the nanoseconds in
 * the environment variable key (PCOST_INJECT_EVENT_NS, PCOST_INJECT_FIXED_NS),
 * 0 when unset or malformed.  The spin, syscall and null workloads honour
 * them: per event spins in the timed region, a fixed spin once before it.
 */
uint64_t pcost_wl_inject_ns(const char *key);

/* The clock a workload's timed region is read on. */
enum pcost_wl_clock {
	PCOST_WL_WALL, /* CLOCK_MONOTONIC */
	PCOST_WL_CPU,  /* the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) */
};
pcost_ns pcost_wl_clock_ns(enum pcost_wl_clock clock);

/*
 * Run fn(arg, i) on n threads (i = 0..n-1) released together by one barrier,
 * every thread timing itself.  *timed_ns gets, on the wall clock, the time
 * from the first thread's start to the last one's end; on the CPU clock, the
 * threads' CPU times summed.  n == 1 runs fn in the calling thread and starts
 * none (nothing else in the process, as perf bench does).  0 or -errno.
 */
int pcost_wl_threads_run(unsigned n, enum pcost_wl_clock clock, void (*fn)(void *arg, unsigned i),
			 void *arg, pcost_ns *timed_ns);

/* Append " threads=n" to res->extra. */
void pcost_wl_report_threads(struct pcost_wl_result *res, unsigned n);

/*
 * A probed loop on n threads (pcost_wl_threads_run, wall clock) and its facts:
 * events = hits x n, the trampoline fact when uprobes could be on it
 * (uprobes), " threads=n".  0 or -errno.
 */
int pcost_wl_probe_threads(unsigned n, void (*fn)(void *arg, unsigned i), void *arg, uint64_t hits,
			   bool uprobes, struct pcost_wl_result *res);

#endif
