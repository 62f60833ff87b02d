/* SPDX-License-Identifier: MIT */
/*
 * counted: what one counting run of a command counted (run/evcount.h fills
 * it, report/counts.h prints it): the events monitors pay for, each with the
 * counter it came from, or -1 and the reason when it could not be counted.
 *
 * Every figure covers the command's whole process tree (its own exec
 * included, children, threads, daemons that left its process group) from the
 * moment it was released to exec until it exited, except where a kind's
 * source says otherwise (the rusage figures: only the tasks that were reaped).
 */
#ifndef PCOST_COUNTED_H
#define PCOST_COUNTED_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

enum pcost_evc_kind {
	PCOST_EVC_SYSCALLS,	   /* system calls entered */
	PCOST_EVC_CSWITCHES,	   /* context switches (switches out of a task of the tree) */
	PCOST_EVC_CSW_VOLUNTARY,   /* ... of which voluntary (the task blocked) */
	PCOST_EVC_CSW_INVOLUNTARY, /* ... involuntary (preempted, or yielded) */
	PCOST_EVC_MINOR_FAULTS,	   /* page faults served without I/O */
	PCOST_EVC_MAJOR_FAULTS,	   /* page faults that waited for I/O */
	PCOST_EVC_TASKS,	   /* tasks created (fork, vfork, clone: processes and threads) */
	PCOST_EVC_THREADS,	   /* ... of which threads (CLONE_THREAD) */
	PCOST_EVC_EXECS,	   /* successful execs, the command's own included */
	PCOST_EVC_TASK_CLOCK,	   /* CPU time of the tree's tasks, ns */
	PCOST_EVC_N
};

/* One syscall number and how often the tree entered it. */
struct pcost_evc_syscall {
	long nr;       /* -1: numbers out of the counted range (and invalid ones) */
	char name[32]; /* "getppid", or "" when this machine's table has no name */
	uint64_t count;
	/*
	 * of which made by processes the tree created, before their first exec:
	 * strace --seccomp-bpf stops at each of them
	 */
	uint64_t new_task;
};

/* One SDT probe of the main executable (its sites summed) and its hits. */
struct pcost_evc_probe {
	char provider[64], name[64];
	unsigned nsites;
	int64_t hits; /* -1: could not be read */
};

struct pcost_evcount {
	/* The command (argv joined) and the file it ran (PATH resolved). */
	char *command;
	char exe[PATH_MAX];

	int64_t v[PCOST_EVC_N];		 /* -1: not counted (see why) */
	const char *source[PCOST_EVC_N]; /* the counter, in words; NULL when not counted */
	char why[PCOST_EVC_N][160];	 /* why not counted, "" when counted */

	/* Syscalls by number, most frequent first (nby_nr 0 and by_nr_why when not counted). */
	bool by_nr_counted;
	struct pcost_evc_syscall *by_nr;
	size_t nby_nr;
	uint64_t by_nr_lost_tasks; /* tasks created that the by-number counter could not
				    * follow (its table was full): their syscalls are missing */
	uint64_t by_nr_new_tasks;  /* the new_task counts summed */
	const char *by_nr_source;
	char by_nr_why[160];

	/* SDT probes of exe: hits per probe (nprobes 0 and probes_why when not counted). */
	bool probes_counted;
	struct pcost_evc_probe *probes;
	size_t nprobes;
	const char *probes_source;
	char probes_why[256];

	/* How the run went. */
	pcost_ns wall_ns;	  /* CLOCK_MONOTONIC from the release to the reap */
	pcost_ns user_ns, sys_ns; /* wait4 rusage: the command and the children it reaped */
	int wait_status;	  /* raw wait4 status; -1 when it was never started */
	bool timed_out, interrupted;
	unsigned left_running; /* processes of the tree still running when the command
				* exited (daemons, background jobs): counted until then,
				* then killed */
	char fail[256];	       /* why it did not run as asked ("exit 3", "could not
				* execute ..."), "" when it exited 0 */
};

/* The kind's name in JSON and text ("syscalls", "context_switches", ...). */
const char *pcost_evc_kind_name(enum pcost_evc_kind k);
/* Its unit ("syscall", "switch", "fault", "task", "exec", "ns"). */
const char *pcost_evc_kind_unit(enum pcost_evc_kind k);

/* Zero *c: every kind not counted, wait_status -1. */
void pcost_evcount_init(struct pcost_evcount *c);
/* Free what *c holds (not c itself). */
void pcost_evcount_release(struct pcost_evcount *c);

#endif
