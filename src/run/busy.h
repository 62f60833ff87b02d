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
 * run's wall time (smp->wall_ns) alone.  Tick
 * resolution (USER_HZ, usually 100): one run's figure is coarse, their mean is not.
 */
void pcost_busy_fill(const struct pcost_cpu_times *before, const struct pcost_cpu_times *after,
		     struct pcost_run_sample *smp);

#endif
