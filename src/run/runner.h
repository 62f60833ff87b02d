/* SPDX-License-Identifier: MIT */
/*
 * src/run/: the runner, which turns configurations (a monitor and a target)
 * into raw samples, in interleaved blocks, and hands each block to the store.
 *
 * runner: fork/exec/wait4 of configurations in interleaved, shuffled blocks,
 * with warm-up, pinning, per-run timeouts, and fixed or adaptive run counts.
 *
 * Use:
 *   struct pcost_runner r;
 *   pcost_runner_init(&r, &session, &opts);     session: initialized by the caller
 *   pcost_runner_add(&r, monitor, &target);     once per configuration; returns its
 *                                               index in session.configs
 *   rc = pcost_runner_measure(&r);              blocks until done, budget spent or Ctrl-C
 *   pcost_runner_release(&r);                   calls every monitor's cleanup (not free)
 *
 * Samples go into session.configs[i].samples as they are measured (warm-up
 * blocks included, flagged); pcost_sink_config() is called after each
 * block for every configuration that got a sample.  On Ctrl-C (pcost_interrupted)
 * the running child's process group is killed, the block is abandoned and
 * session.complete is false.  Monitors are not owned: the caller frees them.
 */
#ifndef PCOST_RUNNER_H
#define PCOST_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "monitors/monitor.h"
#include "run/runner_opts.h"
#include "run/spawn.h"
#include "core/result.h"
#include "core/util.h"

#define PCOST_HANG_FACTOR 10
#define PCOST_HANG_GRACE_S 10
#define PCOST_HANG_FIRST_FACTOR 300
#define PCOST_HANG_BUSY_EXTEND 9
/* opts.rerun: the variable whose length changes the environment's size, a sub-session each */
#define PCOST_RERUN_PAD_ENV "PROBECOST_PAD"
#define PCOST_RERUN_PAD_MAX 4096
/* opts.rerun: the pause before each sub-session but the first (ms) */
#define PCOST_RERUN_PAUSE_MS 250

/* What one configuration runs. */
struct pcost_outcheck;

struct pcost_target {
	const char *workload;	   /* "pipe", ..., or "command" */
	const char *workload_args; /* as recorded ("loops=200000"), or the user's argv joined */
	const char *variant;	   /* probes; NULL elsewhere */
	const char *unit;	   /* default unit (a workload report overrides it) */
	char *const *argv;     /* what to execute (NULL-terminated), before the monitor wraps it */
	double scale;	       /* recorded in each sample (1 without --scale) */
	int64_t events;	       /* --events for a user's command; -1: from the workload's report */
	bool report_fd;	       /* give it PROBECOST_REPORT_FD and parse the line it writes */
	uint32_t threads;      /* recorded in the configuration (run --threads); 0: not varied */
	const char *placement; /* recorded (run --placement): "same", "split"; NULL */
	/*
	 * Where the monitor's own processes run (0: where the workload runs,
	 * opts.cpu_mask).  The monitor is started on these CPUs and a built-in
	 * workload moves itself to opts.cpu_mask (PROBECOST_WORKLOAD_CPUS).
	 */
	uint64_t monitor_cpu_mask;
};

struct pcost_runner_slot;

/*
 * Options key: whether the kernel's per-task perf hooks were held on while the
 * session measured ("held", or "not held: why"; runner.c hold_perf_hooks).
 */
#define PCOST_PERF_HOOKS_OPTION "perf_hooks"

struct pcost_runner {
	struct pcost_session *s;
	struct pcost_runner_opts opts;
	size_t nslots, cap;
	struct pcost_runner_slot *slots;
	unsigned blocks_done; /* all blocks, warm-up included */
	unsigned pilot_apart; /* the pilot's blocks when planned apart (opts.pilot_apart), else 0 */
	pcost_ns started_ns;
	bool checked;	   /* pcost_runner_check() passed */
	bool service_gone; /* the --service exited: service_why says how */
	char service_why[200];
	struct pcost_outcheck *outcheck; /* opts.check_output's plain outputs (NULL: off) */
	/* opts.rerun: the sub-sessions of the current stage (k over total blocks from base) */
	struct {
		unsigned k, base, total;
		int cur;	 /* the current one in the stage, -1 before its first */
		uint32_t *first; /* every sub-session's first block, in order */
		size_t n, cap;
		uint64_t rng; /* the environment sizes */
		char *pad;    /* this sub-session's PCOST_RERUN_PAD_ENV, NULL: none */
	} sub;
};

void pcost_runner_opts_default(struct pcost_runner_opts *o);
void pcost_runner_init(struct pcost_runner *r, struct pcost_session *s,
		       const struct pcost_runner_opts *o);
/* Adds a configuration to the session; returns its index (>= 0). */
int pcost_runner_add(struct pcost_runner *r, struct pcost_monitor *m, const struct pcost_target *t);
struct pcost_probe_config;
/* One configuration of a probes plan (probes/plan.h): its target, monitor and expected hits. */
int pcost_runner_add_probe(struct pcost_runner *r, const struct pcost_probe_config *c);
/*
 * Before measuring (after every pcost_runner_add): undo what a probecost
 * killed outright left behind (journal.h), note the tracefs mount state to
 * put back at exit, and refuse (-EBUSY, a line in err) while a tracer that is
 * not ours is armed on what is measured: a uprobe on a binary the session runs
 * or probes, or, with the syscall workload, the syscall tracepoints (set
 * PROBECOST_ALLOW_TRACERS=1 to measure anyway).  pcost_runner_measure() calls
 * it when the caller did not.
 */
int pcost_runner_check(struct pcost_runner *r, char *err, size_t len);
/*
 * One session of kind ("probes") at a time: wait for the one that runs (a
 * warning says whom for; Ctrl-C stops waiting: -EINTR), or refuse (-EBUSY)
 * with no_wait; 0 once ours, held until we exit.  Needs the journal open.
 */
int pcost_session_lock(const char *kind, bool no_wait, char *err, size_t len);

/*
 * Prepare every monitor, then run blocks.  Returns 0 (finished), -EINTR
 * (interrupted: what was measured stays in the session), or -errno when
 * nothing could be measured (a line in err).  A monitor whose prepare fails is
 * dropped with its reason in the configuration's failed sample.
 */
int pcost_runner_measure(struct pcost_runner *r, char *err, size_t len);
void pcost_runner_release(struct pcost_runner *r);

/* The last note a monitor left for configuration config (lost events...), NULL when none;
 * *count: how many runs left one. */
const char *pcost_runner_note(const struct pcost_runner *r, size_t config, unsigned *count);

#endif
