/* SPDX-License-Identifier: MIT */
/*
 * result: the plain result structs every measuring command fills and every
 * consumer (report/, store, compare, plots) reads.  Raw samples are kept.
 *
 *   measure (run / probes / counters) -> struct pcost_session -> store -> report
 *
 * Exporters read these structs only; they never rerun or recompute a
 * measurement beyond the statistics in stats.c.
 */
#ifndef PCOST_RESULT_H
#define PCOST_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/util.h"

/*
 * Whose doing a run's failure was (the runner's verdict, stored with the run):
 * the program's (it died of a signal, exited non-zero, failed its own check,
 * made other hits than expected) or the tool's (the monitor or arming method
 * did not start, did not stop, crashed, miscounted).  UNKNOWN: not recorded
 * (runs stored before probecost told them apart); see stats/outcome.h.
 */
enum pcost_fault {
	PCOST_FAULT_UNKNOWN = 0,
	PCOST_FAULT_NONE,
	PCOST_FAULT_PROGRAM,
	PCOST_FAULT_TOOL,
};

/* "none", "program", "tool"; NULL for UNKNOWN.  parse: -1 on an unknown word. */
const char *pcost_fault_name(enum pcost_fault f);
int pcost_fault_parse(const char *s, enum pcost_fault *f);

/* One execution of one configuration (a `run` or `probes` sample). */
struct pcost_run_sample {
	uint32_t block;	 /* interleaving block, 0-based, warm-up blocks included */
	uint32_t order;	 /* position within the block */
	bool warmup;	 /* warm-up block: kept, never averaged */
	bool failed;	 /* non-zero exit, signal, timeout, monitor failure, a changed program */
	int wait_status; /* raw wait4() status, -1 when not reaped normally */
	/*
	 * "exit 3", "killed by SIGSEGV at fft+0x4a (...)", "timeout after 10 s"; or, in a
	 * run that did not fail but whose tool misbehaved (fault TOOL), what it did.
	 */
	char fail_reason[256];
	enum pcost_fault fault;	  /* whose failure it was (NONE when it did not fail) */
	int8_t check;		  /* the workload's check of its own result: 1 ok, -1 bad, 0 none */
	char note[128];		  /* the monitor's own warning about this run ("lttng discarded 12
				 * events"), "" when none: a shortfall it explains is its loss */
	double scale;		  /* multiple of the workload's size (1 without --scale) */
	pcost_ns wall_ns;	  /* CLOCK_MONOTONIC fork -> reap */
	pcost_ns user_ns, sys_ns; /* wait4 rusage */
	long maxrss_kb, minflt, majflt, nvcsw, nivcsw;
	bool has_report;	/* the workload wrote its PROBECOST_REPORT_FD line */
	uint64_t events;	/* events the workload did (report or --events) */
	pcost_ns timed_ns;	/* the workload's own timed region, 0 when unknown */
	int64_t monitor_events; /* events the monitor counted itself, -1 when unknown */
	int8_t optimized;	/* probes: 1 the kernel optimized a uprobe of the run (the workload
				 * saw [uprobes-trampoline]), -1 it did not, 0 unknown */
	bool has_busy;		/* other_cpu_ns and steal_ns were recorded */
	pcost_ns other_cpu_ns;	/* CPU time of processes outside the study during the run
				 * (/proc/stat less probecost's tree, run/busy.h), summed over
				 * the CPUs it could run on */
	pcost_ns steal_ns;	/* steal time of those CPUs during the run */
	/* For the monitor's stop(), not stored: */
	pid_t pid;	    /* the process the runner started, 0 when none */
	long event_syscall; /* the syscall the workload's events are (its report's nr=), -1 */
	/*
	 * The session's figures (--metric, a workload's own), one value per
	 * session->metrics[k], NaN where the run did not give it; NULL when the
	 * session has none.  Malloc'd; owned by the configuration once added
	 * (pcost_config_add_sample takes it), freed by pcost_session_release.
	 */
	double *metrics;
	/* --service: the CPU time its processes used during the run (has_service) */
	bool has_service;
	pcost_ns service_user_ns, service_sys_ns;
};

/* One configuration: a workload (or a user's command) under one monitor. */
struct pcost_config {
	char *workload;		 /* "pipe", "syscall", ..., or "command" */
	char *workload_args;	 /* "loops=200000 mode=process", or the user's argv joined */
	char *monitor;		 /* "none", "perf-stat", "strace", "uprobe", ... */
	char *variant;		 /* probes: "plain", "volatile-sem", ...; NULL elsewhere */
	char *unit;		 /* "round-trip", "syscall", "hit", ... */
	int64_t expected_events; /* probes: hits expected; -1 when not known */
	uint32_t threads;	 /* run --threads: threads of the workload; 0 when not varied */
	char *placement;	 /* run --placement: "same" or "split" CPU as the workload; NULL */
	size_t nsamples, cap;
	struct pcost_run_sample *samples;
};

/* One series of counter-interface timings (`counters`). */
struct pcost_counter_series {
	char *interface;  /* "perf-read", "perf-group", "papi", "rdtsc", ... */
	char *op;	  /* "start", "stop", "read", "start+stop+read", "matmul", "matmul-base" */
	char *events;	  /* the event names, comma separated */
	unsigned nevents; /* k */
	char *timer;	  /* "tsc" or "monotonic" */
	char *note;	  /* why skipped, sanity notes; NULL when none */
	size_t n;
	double *ns; /* every sample, in nanoseconds */
};

/*
 * A figure of the session besides the times: a --metric parsed from the
 * command's output, or a fact a built-in workload reports (server: throughput,
 * p99_us).  Every run sample holds one value of each.
 */
struct pcost_session_metric {
	char *name; /* [A-Za-z][A-Za-z0-9_]* */
	char *unit; /* "tps", "us", "req/s"; "" when none */
	int better; /* +1 higher is better, -1 lower, 0 not known yet */
};

enum pcost_session_kind { PCOST_SESSION_RUN, PCOST_SESSION_PROBES, PCOST_SESSION_COUNTERS };

/*
 * A configuration's level between sessions (stats/compare.h pcost_session_level): the
 * sd of a session's log mean wall time beyond its runs' noise, over the stored
 * sessions of the configuration under the same conditions; its overhead's in points;
 * NAN where not measured; sessions: how many were pooled.  Not stored: looked up
 * from the store when a session is printed.
 */
struct pcost_config_level {
	double sd, ovh_pts;
	size_t sessions;
	double *figure_sd; /* one a figure of the session (NAN: not measured); NULL: none */
};

struct pcost_session {
	int64_t id; /* store id; 0 when not stored */
	enum pcost_session_kind kind;
	int64_t started;    /* unix seconds */
	char *cmdline;	    /* argv joined with single spaces, shell-quoted where needed */
	char *version;	    /* probecost version */
	char *env_json;	    /* the env fingerprint as JSON text (pcost_env_to_json) */
	uint64_t seed;	    /* shuffle / bootstrap seed */
	double tsc_hz;	    /* TSC frequency used for cycle figures, 0 when unknown */
	bool complete;	    /* false when interrupted */
	char *options_json; /* command-specific settings as a JSON object text, may be NULL */

	size_t nconfigs, cap_configs;
	struct pcost_config *configs;

	size_t nseries, cap_series;
	struct pcost_counter_series *series;

	size_t nmetrics; /* figures every sample has a value of (sample->metrics) */
	struct pcost_session_metric *metrics;

	/* One a configuration, or NULL: the level between sessions was not looked up. */
	struct pcost_config_level *levels;
};

const char *pcost_session_kind_name(enum pcost_session_kind k);
int pcost_session_kind_parse(const char *s, enum pcost_session_kind *k);

void pcost_session_init(struct pcost_session *s, enum pcost_session_kind kind);
/* Frees contents (configs, samples, series, strings); the struct itself stays. */
void pcost_session_release(struct pcost_session *s);

/* Append a configuration (strings copied; NULLs allowed); returns it. */
struct pcost_config *pcost_session_add_config(struct pcost_session *s, const char *workload,
					      const char *workload_args, const char *monitor,
					      const char *variant, const char *unit);
/* The --scale multiple of a configuration's runs (1 when it has none). */
double pcost_config_scale(const struct pcost_config *c);
/* Mark a sample failed, with its reason (printf format) in fail_reason. */
void pcost_sample_fail(struct pcost_run_sample *smp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append a figure (strings copied) to the session; returns its index.  Before any sample. */
size_t pcost_session_add_metric(struct pcost_session *s, const char *name, const char *unit,
				int better);
/*
 * Value v of figure k for sample seq of configuration ci (a store's row): its
 * metrics array made (NaN elsewhere) when it has none.  -1 when ci, seq or k
 * is out of range.
 */
int pcost_session_set_metric(struct pcost_session *s, size_t ci, size_t seq, size_t k, double v);
/* The index of the figure called name, or -1. */
int pcost_session_metric_find(const struct pcost_session *s, const char *name);
/*
 * Append a sample (copied) to a configuration; returns the stored copy.  Its
 * metrics array, if any, now belongs to the configuration.
 */
struct pcost_run_sample *pcost_config_add_sample(struct pcost_config *c,
						 const struct pcost_run_sample *sample);
/* Append a counter series (strings copied, ns copied); returns it. */
struct pcost_counter_series *pcost_session_add_series(struct pcost_session *s,
						      const char *interface, const char *op,
						      const char *events, unsigned nevents,
						      const char *timer, const double *ns,
						      size_t n);

/*
 * No run of s succeeded and at least one failed (warm-up runs aside): the
 * session FAILED, whether or not it was interrupted.
 */
bool pcost_session_failed(const struct pcost_session *s);
/* The reason of the last failed run that has one, or NULL. */
const char *pcost_session_fail_reason(const struct pcost_session *s);

/*
 * Join argv into one display string, quoted as a shell reads it back: 'x y'
 * where needed, and $'...' with \xNN for every byte that is not printable
 * UTF-8 (a tab, an escape sequence, bytes of another encoding), so the string
 * is always valid UTF-8 a terminal does not obey.  Caller frees.
 */
char *pcost_join_argv(int argc, char **argv);

#endif
