/* SPDX-License-Identifier: MIT */
/*
 * src/monitors/: the monitoring tools `probecost run` measures, one adapter per
 * kind (wrap.c: a tool that runs the workload; attach.c: a tool started
 * beside it; tracepoint.c, delay.c), listed by monitor_table.c.
 *
 * monitor: one adapter per monitoring tool, behind an ops table.  The runner
 * (src/run/runner.h) drives a monitor instance through these hooks; a command
 * other than `run` (e.g. `probes`) may build its own instances with its own
 * ops and hand them to the runner.
 *
 * Call order, for one instance:
 *
 *   available(m, why)      any time (list, option checking); false + reason
 *   prepare(m)             once, before the first run (temp files, checks)
 *   for every run of a configuration using m:
 *     wrap(m, launch)      before the fork: prefix / edit the argv and the
 *                          environment of the process the runner starts
 *     start(m, timeout)    attach monitors: before the fork; returns once the
 *                          monitor is ready (or -ETIMEDOUT / -errno)
 *     ... the runner forks, times and reaps the workload ...
 *     stop(m, sample)      after the reap, also when the run failed or was
 *                          interrupted: stop what start() started, set
 *                          sample->monitor_events (its own count, -1 unknown)
 *                          and, when the monitor itself failed, sample->failed
 *                          and sample->fail_reason; note() for warnings
 *   cleanup(m)             once, after the last run, also on errors and Ctrl-C
 *                          (the runner calls it; it must be idempotent)
 *
 * A NULL hook means "not needed".  Hooks return 0 or -errno and never print
 * (put a reason in the buffers given).  Private state: embed struct
 * pcost_monitor in your own struct and recover it with container_of().
 */
#ifndef PCOST_MONITOR_H
#define PCOST_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/proc.h"
#include "core/result.h"
#include "core/util.h"

enum pcost_monitor_kind {
	PCOST_MON_BASELINE, /* nothing watches (none, dormant) */
	PCOST_MON_WRAP,	    /* prefixes the workload's argv */
	PCOST_MON_ATTACH,   /* runs beside the workload, started first */
	PCOST_MON_PRELOAD,  /* changes the workload's environment (LD_PRELOAD) */
};

const char *pcost_monitor_kind_name(enum pcost_monitor_kind k);

/* What the runner will execute for one run: argv and extra environment. */
struct pcost_launch {
	size_t argc, cap;
	char **argv; /* NULL-terminated, strings owned */
	size_t nenv, cap_env;
	char **env; /* "KEY=VALUE" added to the environment, owned */
};

void pcost_launch_init(struct pcost_launch *l, char *const argv[]);
void pcost_launch_release(struct pcost_launch *l);
/* Insert n words before position pos (0 = in front). */
void pcost_launch_insert(struct pcost_launch *l, size_t pos, char *const words[], size_t n);
void pcost_launch_setenv(struct pcost_launch *l, const char *key, const char *value);

struct pcost_monitor;

struct pcost_monitor_ops {
	enum pcost_monitor_kind kind;
	bool (*available)(const struct pcost_monitor *m, char *why, size_t len);
	int (*prepare)(struct pcost_monitor *m, char *err, size_t len);
	int (*wrap)(struct pcost_monitor *m, struct pcost_launch *l);
	/* timeout_ns: how long readiness may take; -ETIMEDOUT after it. */
	int (*start)(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len);
	int (*stop)(struct pcost_monitor *m, struct pcost_run_sample *sample);
	void (*cleanup)(struct pcost_monitor *m);
	/* Frees the instance (created by a factory); NULL for static instances. */
	void (*free)(struct pcost_monitor *m);
};

struct pcost_monitor {
	const struct pcost_monitor_ops *ops;
	char name[96];	/* as shown and stored: "perf-stat", "delay:ns=500", "custom" */
	char note[256]; /* a warning from the last stop() ("perf trace lost 12 events"), or "" */
	/*
	 * --service: its leader's pid, set by the runner before each wrap() and
	 * start(); "{pid}" in a monitor's command becomes it.  0: no service.
	 */
	pid_t service_pid;
};

/* The `run` monitor table: name, kind, summary, and a factory. */
struct pcost_monitor_def {
	const char *name; /* "perf-stat"; "delay" takes ":ns=N" */
	enum pcost_monitor_kind kind;
	const char *summary;
	/* A tool it needs on $PATH and the Debian package that has it (NULL: none). */
	const char *tool, *package;
	/* Extra availability check (permissions, tracefs); NULL: the tool is enough. */
	bool (*available)(char *why, size_t len);
	/* New instance; arg is what followed "name:" (NULL when nothing). NULL + err. */
	struct pcost_monitor *(*create)(const char *arg, char *err, size_t len);
};

extern const struct pcost_monitor_def *const pcost_monitor_defs[];
/* The custom wrapper (`-m 'CMD ARGS'`), not in the table: it has no fixed name. */
extern const struct pcost_monitor_def pcost_monitor_def_custom;
#define for_each_monitor_def(d)                                                                    \
	for (const struct pcost_monitor_def *const *d##_it = pcost_monitor_defs; ((d) = *d##_it);  \
	     d##_it++)

/*
 * An instance from a `-m` word: a table name ("strace", "delay:ns=500") or,
 * when the word holds a space, a custom wrapper command ("pfmon --follow-fork";
 * "{}" marks where the workload goes, else at the end).  NULL + one line in
 * err when unknown or malformed.
 */
struct pcost_monitor *pcost_monitor_create(const char *word, char *err, size_t len);
/* A custom attach monitor: cmd split into argv (no shell), ready when a line of
 * its output matches the POSIX extended regex ready (NULL: ready at once). */
struct pcost_monitor *pcost_monitor_attach_create(const char *cmd, const char *ready, char *err,
						  size_t len);
/*
 * run --service: the service form of a built-in monitor, pointed at the
 * service's processes ({pid} and its descendants, listed at each start) instead
 * of wrapping the load generator: perf-stat and perf-record (perf -p, enabled
 * through its control fifo), strace (-f -p, ready once every process is
 * traced), bpftrace-syscalls (the tree's syscalls: its processes at start and
 * what they fork).  NULL when word has none: it wraps the load generator.
 */
struct pcost_monitor *pcost_monitor_service_create(const char *word, char *err, size_t len);
/* Is it usable here?  false + why (the package to install, the sysctl to set). */
bool pcost_monitor_available(const struct pcost_monitor *m, char *why, size_t len);
void pcost_monitor_free(struct pcost_monitor *m);

/* Split a command line into words: blanks separate, '...' and "..." quote, no
 * expansion of any kind.  Returns argc (argv NULL-terminated, caller frees with
 * pcost_argv_free) or -EINVAL on an unterminated quote or an empty line. */
int pcost_argv_split(const char *line, char ***argv);
void pcost_argv_free(char **argv);
/* A bpftrace (0.17 loses a signal that lands outside its epoll_wait): stopped
 * with SIGTERM, sent again while it sits in epoll_wait.  After pcost_proc_start. */
void pcost_proc_stop_as_bpftrace(struct pcost_proc *p);
/* A malloc'd copy of a NULL-terminated argv (free with pcost_argv_free). */
char **pcost_argv_dup(char *const *argv);

#endif
