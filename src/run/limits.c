// SPDX-License-Identifier: MIT
/* limits: bounds on what a session may ask for (--threads). */
#include "run/limits.h"

#include <sched.h>

#include "core/util.h"

/* The most threads for the CPUs of cpu_mask (0: those probecost may run on). */
static unsigned threads_max(uint64_t cpu_mask)
{
	cpu_set_t set;
	unsigned n = 0;

	if (cpu_mask)
		n = (unsigned)__builtin_popcountll(cpu_mask);
	else if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = (unsigned)CPU_COUNT(&set);
	return PCOST_THREADS_PER_CPU * (n ? n : 1);
}

int pcost_threads_check(uint64_t threads, uint64_t cpu_mask)
{
	unsigned max = threads_max(cpu_mask);

	if (threads <= max)
		return 0;
	return usage_error("--threads %llu: at most %u here (%d per CPU %s): more measure the "
			   "scheduler, not the monitor, and each thread makes the full count",
			   (unsigned long long)threads, max, PCOST_THREADS_PER_CPU,
			   cpu_mask ? "of --cpu" : "probecost may run on");
}
