/* SPDX-License-Identifier: MIT */
/*
 * src/workloads/: the built-in workloads, one file each, listed by workload_table.c,
 * their key=value parameters parsed by params.c; stanford/ holds the
 * SDT-instrumented kernels that `probecost probes` measures, built in variants.
 *
 * workload: the built-in workloads monitors wrap.  A static table of rows,
 * each with its parameters (key=value, typed, ranged, defaulted) and a run
 * function that does the work in the calling process (forking helpers of its
 * own as needed) and returns the facts the runner records.
 *
 * A workload never prints results for humans; `probecost workload NAME`
 * writes `events=N unit=UNIT timed_ns=T [extra facts]` on PROBECOST_REPORT_FD.
 */
#ifndef PCOST_WORKLOAD_H
#define PCOST_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

/*
 * TEXT: a word of printable characters without blanks, quotes or backslashes
 * (http's url=), at most PCOST_PARAM_TEXT_MAX bytes; its value is
 * pcost_param_text(), v[] holds 1 when it is given.
 */
enum pcost_param_type { PCOST_PARAM_U64, PCOST_PARAM_ENUM, PCOST_PARAM_SYSCALL, PCOST_PARAM_TEXT };

#define PCOST_PARAM_TEXT_MAX 200

#define PCOST_MAX_PARAMS 12

struct pcost_param_desc {
	const char *key;
	enum pcost_param_type type;
	uint64_t def;	     /* U64: default; ENUM: index of the default choice */
	uint64_t min, max;   /* U64 range (inclusive) */
	const char *choices; /* ENUM: "process|thread" */
	const char *help;
};

/* Parsed parameter values, in the order of the workload's param table. */
struct pcost_params {
	const struct pcost_workload *wl;
	uint64_t v[PCOST_MAX_PARAMS];
	bool given[PCOST_MAX_PARAMS];
	/* TEXT values: pointers into the words given to pcost_params_parse, which must outlive p. */
	const char *text[PCOST_MAX_PARAMS];
};

struct pcost_wl_result {
	uint64_t events;   /* work done, in the workload's unit */
	pcost_ns timed_ns; /* its own timed region, setup excluded */
	char extra[512];   /* more facts, " key=value key=value", may be empty */
	/*
	 * The workload's check of its own result (pcost_wl_check): 0 it has none,
	 * 1 ok, -1 bad, check_why saying what was wrong.  Reported as check=ok, or
	 * check=bad why="..."; a bad check makes `probecost workload` exit 1.
	 */
	int check;
	char check_why[160];
};

/* A fact of a workload's report line that `run` analyses as a figure (server: p99_us). */
struct pcost_wl_figure {
	const char *fact; /* the report's key, and the figure's name */
	const char *unit;
	int better; /* +1 higher is better, -1 lower */
	/* A parameter: the figure is the workload's only when it is given (server's max_us: rate). */
	const char *when;
};

struct pcost_workload {
	const char *name;
	const char *summary;
	const char *unit;     /* "round-trip", "message", "syscall", "task", "none", ... */
	const char *size_key; /* the parameter --scale multiplies (NULL: none) */
	const struct pcost_param_desc *params; /* terminated by a row with key == NULL */
	/* Do the work; 0 or -errno (an error line already printed). */
	int (*run)(const struct pcost_params *p, struct pcost_wl_result *res);
	/*
	 * Optional: parameters that are each in range but wrong together
	 * (server: role=load without port=).  Called by pcost_params_parse
	 * last; -EINVAL and one line in err (without the "workload NAME: "
	 * prefix, which the parser adds).
	 */
	int (*check_params)(const struct pcost_params *p, char *err, size_t len);
	/* Optional: can it run here?  false and a reason in why when not. */
	bool (*available)(char *why, size_t len);
	/* Optional: the facts `run` analyses as figures, terminated by a NULL fact. */
	const struct pcost_wl_figure *figures;
	/*
	 * Optional: parameters (a comma list) left out of pcost_params_format while
	 * not given: one added to a workload later (server's rate=) keeps the
	 * records of the runs that do not give it as they were.
	 */
	const char *quiet;
};

/* The table: for_each_workload(w) { ... } */
extern const struct pcost_workload *const *const pcost_workloads_ptr;
#define for_each_workload(w)                                                                       \
	for (const struct pcost_workload *const *w##_it = pcost_workloads_ptr; ((w) = *w##_it);    \
	     w##_it++)

const struct pcost_workload *pcost_workload_find(const char *name);

/* Index of key in wl->params, or -1. */
int pcost_param_index(const struct pcost_workload *wl, const char *key);
/* Value of key (the default when not given). Aborts on an unknown key (a bug). */
uint64_t pcost_param_get(const struct pcost_params *p, const char *key);

/* Value of the TEXT parameter key, "" when not given.  Aborts on an unknown key (a bug). */
const char *pcost_param_text(const struct pcost_params *p, const char *key);

/*
 * Parse argv[0..argc) of "key=value" words into *p (defaults for the rest).
 * On bad input writes one line to err (naming the parameter and its accepted
 * range) and returns -EINVAL.
 */
int pcost_params_parse(const struct pcost_workload *wl, int argc, char **argv,
		       struct pcost_params *p, char *err, size_t errlen);

/* Value v of parameter d as a user writes it: "4096", "thread", "getppid". */
void pcost_param_value_format(const struct pcost_param_desc *d, uint64_t v, char *buf, size_t len);

/* Format "k=v k=v" of every parameter (chosen values), for records. */
void pcost_params_format(const struct pcost_params *p, char *buf, size_t len);

/* Syscall number -> name for the `syscall` workload's nr= parameter. */
/* Syscall numbers from here up exist in no kernel: entry and exit alone, ENOSYS. */
#define PCOST_SYSCALL_NONE_MIN 1024
const char *pcost_syscall_name(long nr);

/*
 * Write "events=N unit=U timed_ns=T extra [check=ok|bad [why="..."]]" to the
 * descriptor named by PROBECOST_REPORT_FD, if it names one.  Returns 0, 1 when
 * no fd is set, or -errno.
 */
int pcost_workload_report(const struct pcost_workload *wl, const struct pcost_wl_result *r);

/*
 * Parse a report line back: events=, unit=, timed_ns=, and any other
 * key=value into the callback (may be NULL); a value may be "double quoted"
 * (spaces inside, no quote).  Returns 0, or -EINVAL on a malformed word or a
 * line without events= (the keys before it have reached the callback: a
 * workload's fault line, signal=..., has no events=).
 */
int pcost_report_parse(const char *line, uint64_t *events, char *unit, size_t unitlen,
		       pcost_ns *timed_ns,
		       void (*other)(const char *key, const char *val, void *ctx), void *ctx);

#endif
