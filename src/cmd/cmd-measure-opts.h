/* SPDX-License-Identifier: MIT */
/*
 * cmd-measure-opts: the options the measuring commands share (run, probes,
 * counters, calibrate, predict): one row macro each (parse-options.h), with
 * its name, range and unit, so a range cannot differ between two commands.  A
 * command puts the rows it takes in its table with its own help text; they
 * fill one struct pcost_measure_opts.
 */
#ifndef PCOST_CMD_MEASURE_OPTS_H
#define PCOST_CMD_MEASURE_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cmd-options.h"
#include "cmd/parse-options.h"
#include "core/format.h"
#include "run/runner.h"

struct pcost_measure_opts {
	struct pcost_runner_opts ro; /* runs, warmup, min/max runs, precision, max time, timeouts,
					seed, cpu mask */
	bool runs_given, seed_given;
	/* Either one given alone is the whole ask; neither: the default's wider of both. */
	bool precision_given, precision_rel_given;
	double precision_ns; /* --precision of probes (ns per hit) */
	char cpu_text[64];   /* --cpu as given ("" when not) */
	unsigned threads[8]; /* --threads; nthreads 0: not given */
	size_t nthreads;
	enum pcost_format fmt; /* --format, text by default */
	const char *db;	       /* --db, or NULL */
	bool no_store;
};

/*
 * The rows, for a command's table: m is its struct pcost_measure_opts *, h the
 * command's help text.  Numbers out of range say "--NAME 'ARG': expected WHAT
 * in LO..HI".
 */
#define OPT_MEASURE_RUNS(m, h)                                                                     \
	OPT_NUMBER(PCOST_OPTION_UINT, 'r', "runs", &(m)->ro.runs, &(m)->runs_given, "N", 1,        \
		   100000, "a whole number", h)
#define OPT_MEASURE_WARMUP(m, h)                                                                   \
	OPT_UINT(0, "warmup", &(m)->ro.warmup, "N", 0, 1000, "a whole number", h)
#define OPT_MEASURE_MIN_RUNS(m, h)                                                                 \
	OPT_UINT(0, "min-runs", &(m)->ro.min_runs, "N", 2, 100000, "a whole number", h)
#define OPT_MEASURE_MAX_RUNS(m, h)                                                                 \
	OPT_UINT(0, "max-runs", &(m)->ro.max_runs, "N", 2, 100000, "a whole number", h)
/* --precision PP: the overhead's half-width in percentage points (run). */
#define OPT_MEASURE_PRECISION_PP(m, h)                                                             \
	OPT_CALLBACK_RANGE("precision", m, "PP", 0.001, 100, "percentage points", h,               \
			   pcost_measure_precision, 0)
/* --precision NS: the dormant cost's half-width in ns per hit (probes). */
#define OPT_MEASURE_PRECISION_NS(m, h)                                                             \
	OPT_DOUBLE(0, "precision", &(m)->precision_ns, "NS", 0.001, 1e6, "ns per hit", h)
/* --precision-rel PCT: the overhead's half-width in percent of itself (run). */
#define OPT_MEASURE_PRECISION_REL(m, h)                                                            \
	OPT_CALLBACK_RANGE("precision-rel", m, "PCT", 0.001, 1000, "percent of the overhead", h,   \
			   pcost_measure_precision, 1)
#define OPT_MEASURE_MAX_TIME(m, h)                                                                 \
	OPT_DOUBLE(0, "max-time", &(m)->ro.max_time_s, "S", 0.001, 86400, "seconds", h)
#define OPT_MEASURE_TIMEOUT(m, h)                                                                  \
	OPT_DOUBLE(0, "timeout", &(m)->ro.timeout_s, "S", 0.001, 86400, "seconds", h)
#define OPT_MEASURE_READY_TIMEOUT(m, h)                                                            \
	OPT_DOUBLE(0, "ready-timeout", &(m)->ro.ready_timeout_s, "S", 0.001, 3600, "seconds", h)
/* hi 0: all of uint64 */
#define OPT_MEASURE_SEED(m, h)                                                                     \
	OPT_NUMBER(PCOST_OPTION_U64, 0, "seed", &(m)->ro.seed, &(m)->seed_given, "N", 0, 0,        \
		   "a whole number", h)
#define OPT_MEASURE_WASHOUT(m, h)                                                                  \
	OPT_UINT(0, "washout", &(m)->ro.washout, "N", 0, 100, "a whole number", h)
#define OPT_MEASURE_CPU(m, h) OPT_CALLBACK(0, "cpu", m, "LIST", h, pcost_measure_cpu)
#define OPT_MEASURE_THREADS(m, h)                                                                  \
	OPT_CALLBACK_RANGE("threads", m, "LIST", 1, 1024, NULL, h, pcost_measure_threads, 0)
#define OPT_MEASURE_FORMAT(m, h) OPT_FORMAT(&(m)->fmt, NULL, PCOST_FMT_ROWS, h)
#define OPT_MEASURE_DB(m) OPT_DB(&(m)->db)
#define OPT_MEASURE_NO_STORE(m, h) OPT_BOOL(0, "no-store", &(m)->no_store, h)
#define OPT_MEASURE_CHECK_OUTPUT(m, h) OPT_BOOL(0, "check-output", &(m)->ro.check_output, h)
/* --output-filter REGEX: an extended regex (checked here); implies --check-output. */
#define OPT_MEASURE_OUTPUT_FILTER(m, h)                                                            \
	OPT_CALLBACK(0, "output-filter", m, "REGEX", h, pcost_measure_output_filter)

/* The callbacks of the rows above (value: the struct pcost_measure_opts). */
int pcost_measure_precision(const struct pcost_option *opt, const char *arg);
int pcost_measure_cpu(const struct pcost_option *opt, const char *arg);
int pcost_measure_threads(const struct pcost_option *opt, const char *arg);
int pcost_measure_output_filter(const struct pcost_option *opt, const char *arg);

/* Defaults: the runner's (pcost_runner_opts_default), text, no threads. */
void pcost_measure_opts_init(struct pcost_measure_opts *m);

/*
 * After parsing: what needs several options together (--threads against the
 * CPUs of --cpu: run/limits.h).  0, or an exit code after one usage line.
 */
int pcost_measure_opts_check(const struct pcost_measure_opts *m);

/*
 * After a run or probes session is printed: PCOST_EXIT_FAIL (1), with one
 * error line, when a configuration's outcome is changed-program (the program
 * failed under the tool and not without it: stats/outcome.h); 0 otherwise.
 */
int pcost_changed_exit(const struct pcost_session *s);

#endif
