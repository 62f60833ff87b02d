/* SPDX-License-Identifier: MIT */
/*
 * busy: how busy the machine was around one run, from /proc/stat: the CPU
 * time other processes used on the CPUs the run could use (their busy time
 * less the run's own rusage) and the steal time of those CPUs.
 */
#ifndef PCOST_BUSY_H
#define PCOST_BUSY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"

struct pcost_cpu_times {
	bool ok;
	uint64_t busy, steal; /* clock ticks summed over the CPUs read */
};

/* The CPUs of cpu_mask (0: every CPU, the aggregate line); ok false when unreadable. */
void pcost_cpu_times_read(uint64_t cpu_mask, struct pcost_cpu_times *t);

/*
 * Fill smp->other_cpu_ns, steal_ns and has_busy from two readings around the
 * run; the run's own CPU time (smp->user_ns + sys_ns) is taken out, and its
 * --service's (service_user_ns + service_sys_ns) when it has one.  Tick
 * resolution (USER_HZ, usually 100): one run's figure is coarse, their mean is not.
 */
void pcost_busy_fill(const struct pcost_cpu_times *before, const struct pcost_cpu_times *after,
		     struct pcost_run_sample *smp);

#endif
