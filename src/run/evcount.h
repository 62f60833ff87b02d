/* SPDX-License-Identifier: MIT */
/*
 * evcount: one untimed counting run of any command, counting what monitors
 * pay for (core/counted.h): syscalls in total and by number, context
 * switches, page faults, tasks created, execs, CPU time, and the hits of each
 * SDT probe of its main executable.  The counters are the cheapest honest
 * ones this kernel has, and never a monitor that is measured:
 *
 *   kind                     counter
 *   syscalls                 perf_event tracepoint raw_syscalls:sys_enter
 *   context_switches         perf_event software context-switches
 *   minor/major_faults       perf_event software page-faults-min / -maj
 *   tasks_created, execs     perf_event tracepoints sched:sched_process_fork / _exec
 *   threads_created          perf_event tracepoint task:task_newtask, filtered on
 *                            clone_flags & CLONE_THREAD
 *   task_clock_ns            perf_event software task-clock
 *     (each counting only, on the child, inherited by every task it creates)
 *   voluntary/involuntary    wait4 rusage of the command (the tasks it reaped)
 *   syscalls by number       BPF programs on the raw tracepoint sys_enter and
 *                            sched:sched_process_fork/exit (evcount_bpf.c)
 *   SDT hits per probe       a tracefs uprobe event per probe (semaphores through
 *                            ref_ctr_offset), each counted as above (evcount_sdt.c)
 *
 * How it runs: the command is forked and waits on a pipe (stdin /dev/null,
 * stdout and stderr where the options say, pinned when asked, its own process
 * group, killed if probecost dies).  The counters are opened on it and
 * enabled, then it is released and execs: the counts start with its exec (its
 * own execve and that exec are counted) and follow every task it creates.
 * probecost is the child subreaper meanwhile, so a daemon that leaves the
 * group and loses its parent is reparented to probecost.  When the command
 * exits, the counts are read (the daemons' events included up to then); what
 * is left of the tree (its process group, and the orphans reparented to
 * probecost) is counted as left_running, killed and reaped.
 *
 * The tracepoint counters and the BPF programs need tracefs (mounted here as
 * root when it is not, and unmounted at exit) and root; what cannot be
 * counted is -1 with its reason, never 0.  Everything armed is closed on every
 * exit path, Ctrl-C included (cleanup.h): closing the fds detaches the BPF
 * programs and uprobes and lowers the semaphores.
 *
 * Use (the lead's runner: before the timed blocks, for a user's command):
 *   struct pcost_evcount c;
 *   struct pcost_evcount_opts o = { .cpu_mask = ..., .out_fd = -1, .err_fd = 2 };
 *   rc = pcost_evcount_run(argv, &o, &c, err, sizeof(err));
 *   ... c.v[PCOST_EVC_SYSCALLS] ... c.by_nr ... c.probes ...
 *   pcost_evcount_release(&c);
 */
#ifndef PCOST_EVCOUNT_H
#define PCOST_EVCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/counted.h"

struct pcost_evcount_opts {
	uint64_t cpu_mask;  /* pin the command to these CPUs (0: not pinned) */
	double timeout_s;   /* kill the tree after this many seconds (0: never) */
	bool no_by_nr;	    /* do not count syscalls by number (no BPF) */
	bool no_probes;	    /* do not count SDT probe hits */
	int out_fd, err_fd; /* the command's stdout and stderr; -1: /dev/null */
	char *const *env;   /* its environment; NULL: probecost's */
	/*
	 * A service the command loads (run --service): its events are counted
	 * too, into *service (initialized here, released by the caller), on
	 * every task of service_pid's tree and what they create during the run,
	 * from the command's release to its exit.  0: none.  What is left of
	 * the command is then its process group only, as in a timed run: the
	 * orphans reparented to probecost may be the service's.
	 */
	pid_t service_pid;
	struct pcost_evcount *service;
};

/*
 * One counting run of argv (argv[0] searched on $PATH) into *c (initialized
 * here; release it with pcost_evcount_release even on error).  Returns 0 when
 * it ran (c->wait_status, c->fail say how it ended), -EINTR when Ctrl-C ended
 * it (what was counted is in *c), or -errno with a line in err when it could
 * not start (not found, not executable, fork failed).
 */
int pcost_evcount_run(char *const *argv, const struct pcost_evcount_opts *o,
		      struct pcost_evcount *c, char *err, size_t len);

#endif
