/* SPDX-License-Identifier: MIT */
/*
 * calibrate: this machine's cost table (core/costs.h), measured with the
 * runner on built-in workloads sized for each term, and priced the way the
 * model (stats/predict.h) uses it.
 *
 * What is measured, each against a plain run of the same workload in the
 * same interleaved block, pinned:
 *
 *   term                 workload              figure
 *   per syscall          syscall (getppid)     timed region per call
 *   per decoded syscall  syscall args=stat     timed region per newfstatat
 *   per getdents64       syscall args=dir      timed region per listing, less
 *                                              the lseek that rewinds it
 *   per untraced syscall syscall, strace-seccomp:trace=getpid (getppid not
 *                        in the set)           timed region per call
 *   per stop after work  syscall work=2000000  timed region per call, less a
 *                        (2 ms before a call)  tight loop's call (ptrace tools)
 *   per context switch   pipe (ping-pong)      timed region per round trip,
 *                                              less its syscalls' cost, over
 *                                              its switches per round trip
 *   per task             spawn kind=fork       timed region per fork, less its
 *                                              syscalls' and switches' cost
 *   per exec             spawn kind=vfork-exec timed region per vfork+exec of
 *                                              true, less its task's, syscalls'
 *                                              and switches' cost
 *   per sample           spin (1 us a loop)    timed region per loop over the
 *                                              samples a loop takes (CPU time
 *                                              x frequency)
 *   per run (fixed)      true(1)               whole-run extra time less the
 *                                              run's own events' cost (the
 *                                              inject monitor: the null
 *                                              workload, where it spins)
 *
 * The events each workload makes per loop are counted (run/count.h) on its
 * plain run, less what the null workload's start-up makes, so a cost is what is left
 * once the other terms the monitor pays for are taken out (status
 * "derived"), with their variances added (Welch-Satterthwaite df).
 *
 *   quick (default)  strace, strace-seccomp, perf-trace, bpftrace-syscalls,
 *                    tracepoint-syscalls: per syscall and per run; strace,
 *                    strace-seccomp, perf-trace: per decoded syscall and per
 *                    getdents64; strace, strace-seccomp, perf-trace,
 *                    perf-stat, perf-record: per task; strace, strace-seccomp,
 *                    perf-trace, perf-record: per exec; strace, perf-stat,
 *                    perf-record: per context switch;
 *                    perf-record at 4000 Hz: per sample and per run; probes:
 *                    the uprobe and bpftrace methods at nop and nop5 sites;
 *                    counters: each interface's read; 5 blocks
 *   thorough         also perf-record at 999 and 99 Hz (per sample, per run),
 *                    every probe method available at nop, nop5 and nop10,
 *                    and 10 blocks
 */
#ifndef PCOST_CALIBRATE_H
#define PCOST_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/costs.h"

#define PCOST_CALIBRATE_MAX_MONITORS 16

/* The placements a cost is measured under: as run runs a command, and as run --cpu does. */
#define PCOST_PLACE_UNPINNED (1u << 0) /* the scheduler's choice */
#define PCOST_PLACE_PINNED (1u << 1)   /* every run on cpu_mask */

struct pcost_calibrate_opts {
	bool thorough;
	/* -m: only these monitors (their model's terms), no probes or counters; n 0: the level's. */
	const char *monitors[PCOST_CALIBRATE_MAX_MONITORS];
	size_t nmonitors;
	uint64_t cpu_mask;     /* pin every run (0: not pinned); the pinned placement's CPUs */
	unsigned placements;   /* PCOST_PLACE_* measured (pcost_study_calibrate); 0: both */
	unsigned runs, warmup; /* measured and warm-up blocks (0: the level's) */
	uint64_t seed;
	bool progress;	/* the runner's progress bar on stderr */
	const char *db; /* the store the measurement sessions go to (NULL: default) */
	bool no_store;
};

/*
 * Can monitor be calibrated (does the model price it)?  false + why (usage:
 * a monitor with no model, an unknown one).
 */
bool pcost_calibrate_monitor_ok(const char *monitor, char *why, size_t len);

/*
 * Measure the cost table into *t (initialized by the caller; its level, host,
 * kernel, cpu and env are the caller's to fill).  The measurement sessions
 * go through the sink (store.h) so every entry names the session it came
 * from.  Returns 0, -EINTR (interrupted: t holds what was derived, complete
 * false), or -errno with one line in err when nothing could be measured.
 */
int pcost_calibrate(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t, char *err,
		    size_t len);

/* The probe arming methods' and the counter interfaces' entries (calibrate_probes_counters.c). */
int pcost_calibrate_probes(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t,
			   char *err, size_t len);
int pcost_calibrate_counters(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t);

#endif
