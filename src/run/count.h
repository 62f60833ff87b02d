/* SPDX-License-Identifier: MIT */
/*
 * count: the events a command makes, for the cost model (stats/predict.h):
 * syscalls, context switches, page faults, tasks created, execs and CPU time
 * of its whole process tree, counted in untimed runs (run/evcount.h: never a
 * monitor that is measured), as the mean and standard error over those runs;
 * and the syscalls of the names asked for (strace-seccomp's set), from
 * evcount's count by number.  A kind evcount could not count here is NaN
 * with its reason, never 0.  The command's output is discarded, as in the
 * runner's runs (a pipe to read would add switches); its standard error goes
 * to a private file whose last line names a failure.  With a service, its
 * processes' events are counted beside the command's, the same way.
 */
#ifndef PCOST_COUNT_H
#define PCOST_COUNT_H

#include <stdint.h>
#include <sys/types.h>

#include "stats/predict.h"

struct pcost_count_opts {
	unsigned runs;		  /* counting runs (at least 1) */
	uint64_t cpu_mask;	  /* pin the command (0: not pinned) */
	double timeout_s;	  /* kill a run after this (0: never) */
	const char *const *names; /* syscalls to count by name (by_nr), NULL */
	size_t nnames;
	/*
	 * A service the command loads (predict --service): its processes' events
	 * in the same runs (those it starts during a run included: evcount.h),
	 * into *service (initialized here, as *c); 0: none.
	 */
	pid_t service_pid;
	struct pcost_counts *service;
};

/*
 * Count argv's events (its stdout discarded) into *c (initialized here; the
 * plain time base_ns is left NaN for the caller).  Returns 0; -ECHILD when the
 * command failed (exit status or signal: err says how, with the last line of
 * its error output); -errno with err when it could not be counted.
 */
int pcost_count_command(char *const *argv, const struct pcost_count_opts *o, struct pcost_counts *c,
			char *err, size_t len);
/* Free what *c holds (by_nr); the struct itself stays. */
void pcost_counts_release(struct pcost_counts *c);

#endif
