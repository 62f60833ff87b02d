/* SPDX-License-Identifier: MIT */
/*
 * busy: how busy the machine was around one run, from /proc/stat: the CPU
 * time other processes used on the CPUs the run could use (their busy time
 * less the study's own: this probecost's whole process tree, the run, its
 * monitors and service included) and the steal time of those CPUs.
 */
#ifndef PCOST_BUSY_H
#define PCOST_BUSY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"

struct pcost_cpu_times {
	bool ok, study_ok;
	uint64_t busy, steal; /* clock ticks summed over the CPUs read */
	unsigned cpus;	      /* how many CPUs they were read of */
	pcost_ns study;	      /* CPU time so far of this probecost and its live descendants */
	pcost_ns at;	      /* CLOCK_MONOTONIC of the reading */
};

/*
 * The CPUs of cpu_mask (0: every CPU, the aggregate line), then this
 * probecost's own CPU time and its live descendants' (an attach monitor, a
 * --service: each one's own and its reaped children's); ok (study_ok) false
 * when unreadable.
 */
void pcost_cpu_times_read(uint64_t cpu_mask, struct pcost_cpu_times *t);

/*
 * Fill smp->other_cpu_ns, steal_ns and has_busy from two readings around the
 * run; the study's own CPU time is taken out: the run's rusage (smp->user_ns
 * + sys_ns), probecost's own, and its live descendants' (an attach monitor, the
 * --service; its service_user_ns + service_sys_ns when more: a service that
 * forked into the background and left the tree).  That time may have been spent
 * on other CPUs than those read: the figure errs towards too little.  The
 * others' time is taken at their pace over the readings' window, for the
 * run's wall time (smp->wall_ns) alone.
 *
 * /proc/stat's busy time is the kernel's tick sampling, printed in clock ticks
 * (USER_HZ, usually 100: 10 ms), so each reading is off by up to a tick or two
 * while the run's rusage is exact.  A run of a few ms reads 0 or 10 ms of busy
 * time against its own 5; clipped at 0, a mean of such runs reads the
 * quantization as others' time (0.4 of the wall time of 5 ms runs on a quiet
 * machine).  A run shorter than PCOST_BUSY_MIN_TICKS clock ticks, less the
 * others' time in it on one CPU of those read, therefore gets no figure
 * (has_busy stays false; the warning says why); from that length on a run's
 * error is at most about a fifth of its wall time, and their mean's a few
 * percent.
 */
#define PCOST_BUSY_MIN_TICKS 10
void pcost_busy_fill(const struct pcost_cpu_times *before, const struct pcost_cpu_times *after,
		     struct pcost_run_sample *smp);

#endif
