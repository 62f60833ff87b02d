/* SPDX-License-Identifier: MIT */
/*
 * run/study: the experiment of `probecost run`, built from its options: the
 * workloads' argv (or the user's command, counted first), the monitors, the
 * --service, the session and its options' JSON, then measured by the runner.
 * predict's measuring (study_predict.c), calibrate's (study_calibrate.c)
 * and the session's record (command line, version, machine) are here too.
 *
 * Call order: fill a pcost_study_opts (cmd-run.c parses into it, with the
 * setters below), pcost_study_check_service(), pcost_study_placement() when
 * --placement is asked, pcost_study_init(), pcost_study_measure(), print
 * st->s, pcost_study_release() on every path once init was called.
 *
 * Returns: 0; -EINVAL bad input (the usage line printed: exit 2); -EINTR
 * interrupted; another -errno when it failed (the error printed: exit 1).
 */
#ifndef PCOST_STUDY_H
#define PCOST_STUDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "run/evcount.h"
#include "run/metric.h"
#include "run/runner.h"
#include "run/service.h"

/* The most -w and -m a study takes. */
#define PCOST_STUDY_MAX_ITEMS 32

struct pcost_monitor;

/* What `probecost run` measures and how: its options once parsed. */
struct pcost_study_opts {
	const char *workloads[PCOST_STUDY_MAX_ITEMS]; /* -w specs ("pipe:loops=2000") */
	size_t nworkloads;
	const char *monitors[PCOST_STUDY_MAX_ITEMS]; /* -m words */
	size_t nmonitors;
	const char *attach, *ready; /* --attach CMD and its --ready REGEX */
	const char *unit;	    /* --unit of the command's --events (NULL: "event") */
	int64_t events;		    /* --events (-1: not given) */
	double scales[8];	    /* --scale (none given: 1 alone) */
	size_t nscales;
	bool placement[2];   /* --placement: [0] same, [1] split */
	uint64_t split_mask; /* the monitor's CPU when split (pcost_study_placement) */
	bool default_study;
	char **command; /* the user's command, or NULL */
	int ncommand;
	const char *service, *service_ready; /* --service CMD, its --ready */
	const char *service_pid;	     /* --service-pid PID|unit:NAME|cgroup:PATH */
	bool service_per_block;
	int service_port;		 /* --ready-port (0: none) */
	char service_addr[48];		 /* its address ("": localhost) */
	struct pcost_metric_set metrics; /* --metric */
	/* The shared measuring options: --runs, --warmup, ..., --cpu, --seed. */
	struct pcost_runner_opts ro;
	char cpu_text[64];   /* --cpu as given ("" when not) */
	unsigned threads[8]; /* --threads; nthreads 0: the workload's own */
	size_t nthreads;
	bool seed_given;
	const char *db; /* --db, or NULL */
	bool no_store;
};

/* A study being measured: its monitors, counting runs, session, runner and service. */
struct pcost_study {
	struct pcost_study_opts *o;
	struct pcost_monitor *mons[PCOST_STUDY_MAX_ITEMS + 2]; /* "none" first */
	size_t nmons;
	struct pcost_evcount counted; /* the command's counting run (no --events) */
	bool have_counted;
	struct pcost_evcount null_counted; /* the null workload's, counted the same way */
	bool have_null_counted;
	/* With --service: its processes' events in the command's counting run */
	struct pcost_evcount service_counted;
	bool have_service_counted;
	char *counted_run; /* ... its wall time and figures, JSON text (study_targets.c); NULL */
	struct pcost_session s;
	struct pcost_runner r;
	struct pcost_service sv;
	bool have_session, have_runner, have_service;
	bool measured; /* pcost_study_measure() left something in s to print */
};

/*
 * The values of run's own options into o (study_opts.c); each 0, or -EINVAL
 * after one usage line naming the option and what it takes.
 *   --ready-port [ADDRESS:]PORT (numeric: nothing is looked up),
 *   --scale LIST (up to 8 numbers in 0.001..1000, each once),
 *   --placement same,split.
 */
int pcost_study_ready_port(struct pcost_study_opts *o, const char *v);
int pcost_study_scales(struct pcost_study_opts *o, const char *v);
int pcost_study_placement_list(struct pcost_study_opts *o, const char *v);

/*
 * Once parsed: --service, --service-pid, --ready-port, --service-per-block,
 * --metric and a {pid} in -m or --attach, what goes with what.  0, or -EINVAL after one
 * usage line.
 */
int pcost_study_check_service(const struct pcost_study_opts *o);

/*
 * One -m word: with --service or --service-pid, a built-in's service form where it has one
 * (pointed at the service's processes); a tool without one wraps the load
 * generator, which is said.  NULL with err when the word names no monitor.
 */
struct pcost_monitor *pcost_study_monitor_create(const struct pcost_study_opts *a, const char *word,
						 char *err, size_t len);

/*
 * --service CMD (a->service, a->service_ready, a->service_port and
 * service_addr, a->ro's cpu_mask and ready_timeout_s) into *sv, not started:
 * split into words (no shell), on the session's CPUs.  0, or -EINVAL after a
 * usage line (an unterminated quote, a command that cannot be executed).
 */
int pcost_study_service_init(const struct pcost_study_opts *a, struct pcost_service *sv);

/*
 * --placement: the workload's CPU is --cpu (default the first CPU we may use:
 * o->ro.cpu_mask and o->cpu_text are set then), split puts the monitor on the
 * first allowed CPU outside it (o->split_mask).  0, -EINVAL (no CPU to split
 * to: said) or -EIO (error printed).
 */
int pcost_study_placement(struct pcost_study_opts *o);

/*
 * Build the study of o (which it keeps, and fills with the defaults: the
 * default study's workloads and monitors, the seed, scale 1): the monitors
 * available here, the command's counting run, the session (argc/argv: the
 * command line from the subcommand's name on), the --service and one runner
 * configuration per target and monitor.  0 or as above.
 */
int pcost_study_init(struct pcost_study *st, struct pcost_study_opts *o, int argc, char **argv);

/*
 * Measure the study into the store (o->db, unless o->no_store): sweep and
 * check (runner.h), start the --service, run the blocks, stop it, warn of the
 * monitors' notes.  Returns 0, -EINTR, or -errno with why in err.  With
 * st->measured false nothing is to be printed (and the error, but for
 * -EINTR, was printed).
 */
int pcost_study_measure(struct pcost_study *st, char *err, size_t len);

/* Each --metric that no run's output had, said with its last lines; true if any. */
bool pcost_study_metric_unmatched(const struct pcost_study *st);

/* What init made: monitors, counts, runner, service, session (not o). */
void pcost_study_release(struct pcost_study *st);

/*
 * The session's record: kind, start time, version, the command line
 * ("probecost" then argv[0..argc)), the machine (env JSON, TSC rate).
 */
void pcost_study_session_start(struct pcost_session *s, int argc, char **argv);

/* calibrate: study_calibrate.c. */
struct pcost_calibrate_opts;
struct pcost_cost_table;

/* This machine's name (gethostname, else "unknown"), malloc'd: a cost table's host. */
char *pcost_study_host_name(void);

/*
 * Measure this machine's cost table into *t (initialized here: level,
 * version, host, kernel, cpu, environment): the monitors' terms (o), then,
 * without -m, the probe methods' and the counter interfaces'; progress lines
 * on stderr.  0 (t->complete); -EINTR (incomplete); or -errno with why in err
 * when nothing could be measured.
 */
int pcost_study_calibrate(const struct pcost_calibrate_opts *o, const char *level,
			  const char *cpu_text, struct pcost_cost_table *t, char *err, size_t len);

/* predict: study_predict.c. */
struct pcost_counts;
struct pcost_prediction;
struct pcost_prediction_check;

/* What predict measures: the command, the monitors, its runs. */
struct pcost_predict_study {
	const char *const *monitors;
	size_t nmonitors;
	char **command;
	int ncommand;
	unsigned count_runs, plain_runs;
	struct pcost_runner_opts ro; /* runs (--verify), warmup, cpu_mask, timeout_s, seed */
	bool seed_given;
	const char *db; /* --db, or NULL: the --verify session's store */
	bool no_store;
	int argc; /* the command line, for the sessions' record */
	char **argv;
	/* --service CMD and its readiness, as run takes them (service, service_ready,
	 * service_port, service_addr; ro's cpu_mask, ready_timeout_s); NULL: none */
	const struct pcost_study_opts *service;
};

/*
 * The command's events counted in o->count_runs untimed runs (the model's
 * syscall classes and strace-seccomp's trace= names by name too) and its
 * plain time in o->plain_runs, into *c (pcost_counts_release it on every
 * path); then each monitor's prediction from table t into p[0..nmonitors).
 * With o->service, the service runs meanwhile and its processes' events in
 * the same runs go into *sc (released as *c): a monitor with a service form
 * is priced by them (pcost_predict_service), the others by the command's.
 * 0, or as above (the command's failure said: "'CMD' failed: ...").
 */
int pcost_study_predict(const struct pcost_predict_study *o, const struct pcost_cost_table *t,
			struct pcost_counts *c, struct pcost_counts *sc,
			struct pcost_prediction *p);

/*
 * --verify: the monitors measured beside plain runs (as run -- COMMAND does;
 * with o->service, its service forms, the service started and stopped around them),
 * stored unless o->no_store; checks[i] compares p[i] with what was measured,
 * *session is the stored session's id.  0 or as above.
 */
int pcost_study_verify(const struct pcost_predict_study *o, const struct pcost_prediction *p,
		       struct pcost_prediction_check *checks, int64_t *session);

#endif
