/* SPDX-License-Identifier: MIT */
/*
 * runner_opts: how a study runs (run/runner.h), apart so that one timed run
 * (run/spawn.h) reads its limits without the runner above it.
 */
#ifndef PCOST_RUNNER_OPTS_H
#define PCOST_RUNNER_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct pcost_metric_set;
struct pcost_service;

struct pcost_runner_opts {
	uint64_t cpu_mask; /* pin every process started (0: no pinning) */
	/*
	 * Per run; the whole process group is killed after it.  0: a monitored
	 * run is killed as hung after PCOST_HANG_FACTOR x the median of the slower
	 * of its plain runs and its own runs + PCOST_HANG_GRACE_S (its first run:
	 * PCOST_HANG_FIRST_FACTOR x the plain median + PCOST_HANG_GRACE_S); a plain
	 * run is never killed.
	 */
	double timeout_s;
	/*
	 * A run that reaches timeout_s while its processes used at least a tenth of
	 * a CPU since the last check is given timeout_s again, up to this many
	 * times (0: never): a slow run is not a hung one.  The runner sets it for a
	 * monitor's first run under the default limit, when nothing bounds it yet.
	 */
	unsigned busy_extend;
	double ready_timeout_s; /* attach monitors' readiness (default 10) */
	unsigned warmup;	/* blocks discarded (flagged) first */
	unsigned runs;		/* measured blocks; 0 = adaptive */
	unsigned min_runs;	/* adaptive: the pilot, and at least this many measured blocks */
	unsigned max_runs;	/* adaptive: at most (0: no limit but max_time_s) */
	/*
	 * Adaptive (runs 0): after a pilot of min_runs blocks, the blocks needed for
	 * every overhead CI's longer arm within the wider of precision (a fraction:
	 * percentage points / 100) and precision_rel x the overhead itself (a
	 * fraction of it; 0: not asked) and, probes, every build's dormant per-hit
	 * half-width < precision_dormant_ns are planned once (stats/twostage.c) and
	 * run, within max_runs and max_time_s.
	 */
	double precision;
	double precision_rel;
	double precision_dormant_ns;
	double max_time_s; /* adaptive: stop adding blocks after this much time */
	/*
	 * Adaptive: the pilot only plans.  When at least min_runs more blocks fit
	 * (max_runs, max_time_s), a second stage of max(plan, min_runs) blocks is
	 * its own sample and the pilot's blocks are flagged warm-up when it ends
	 * (options "pilot_blocks"), so that a pilot short of its slow runs, whose
	 * plan is short for that reason, cannot carry the figures (a pilot that
	 * also counts covers less: bench/two-stage-rule.py).  Otherwise the pilot
	 * stays in the figures.
	 */
	bool pilot_apart;
	/*
	 * The measured blocks in sub-sessions (stats/rerun.h), each a fresh launch:
	 * another environment size (PCOST_RERUN_PAD_ENV of a new length in every run),
	 * a pause before it; options "subsessions" records their first blocks.
	 */
	bool rerun;
	unsigned
		max_failures; /* a configuration whose first N runs all failed is dropped (default 2) */
	uint64_t seed;	      /* block order shuffles */
	/*
	 * Before each run (warm-up or measured) that comes right after a monitored
	 * one, this many runs of its target's plain command, not measured (a
	 * washout, as between the periods of a crossover trial).  On a guest where
	 * a process that starts after a long-lived one starts up slower
	 * (bench/start-after.sh), the plain runs of a study whose monitored runs
	 * are long pay for it and its overhead reads low.  0: none.
	 */
	unsigned washout;
	const char *probed_binary; /* probes: the file whose probes are armed (NULL) */
	bool progress;		   /* progress bar with ETA on stderr */
	/* A session kind ("probes") of which one runs at a time (core/lock.h): check()
	 * waits for the other, or with no_wait refuses (-EBUSY).  NULL: none. */
	const char *exclusive;
	bool no_wait;
	/* Called after each block (may be NULL), e.g. for live output. */
	void (*on_block)(void *ctx, unsigned block, bool warmup);
	void *ctx;
	/*
	 * --metric (metric.h; NULL or empty: none): each run's stdout and stderr
	 * are captured and these figures parsed from them (run/figure_values.h); the
	 * session's figures must be declared before measuring.
	 */
	const struct pcost_metric_set *metric_set;
	/*
	 * --service (service.h; NULL: none), started by the caller: monitors get
	 * its pid, each run records its CPU time (not counted as another process's
	 * on a busy machine), it is started again before each block when its
	 * options say so, and once it is gone the runs fail with its exit status
	 * and measuring ends (-ECHILD, the reason in err).
	 */
	struct pcost_service *service;
	/*
	 * --check-output (run/outcheck.h): each run of a user's command has its
	 * stdout digested, without the lines output_filter (an extended regex,
	 * NULL: none) matches; a monitored or armed run whose output is none of
	 * the plain runs' is the program's failure (run/verdict.h).
	 */
	bool check_output;
	const char *output_filter;
	/*
	 * For pcost_run_once: a run is killed (and fails) when this process
	 * exits first (0: none).  The runner sets it to the --service's pid.
	 */
	pid_t watch_pid;
};

#endif
