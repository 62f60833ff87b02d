/* SPDX-License-Identifier: MIT */
/*
 * costs: a machine's cost table -- what each monitor, probe arming method and
 * counter interface costs per event on this machine, with its 95% interval,
 * measured by `probecost calibrate`, kept by the store, printed by `probecost
 * costs` and used by `probecost predict` (stats/predict.h).
 *
 * An entry is one (subject, event) pair: "strace" per "syscall", "perf-stat"
 * per "cswitch", "perf-record:freq=999" per "sample", "uprobe@nop5" per "hit",
 * "perf-read" per "read", and every monitor per "run" (its fixed cost).  An
 * entry that could not be measured keeps its status and its reason and no
 * number (NaN), never 0.
 */
#ifndef PCOST_COSTS_H
#define PCOST_COSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What an entry's figure is. */
enum pcost_cost_status {
	PCOST_COST_MEASURED,	/* measured directly (a timed region, a fit, a null run) */
	PCOST_COST_DERIVED,	/* measured, less the costs of other entries it includes */
	PCOST_COST_UNAVAILABLE, /* the tool or the permission is missing here (why says) */
	PCOST_COST_FAILED,	/* it was tried and gave no figure (why says) */
	PCOST_COST_NSTATUS
};

/* The events an entry is priced per (the "run" event is the fixed cost of one run). */
enum pcost_cost_event {
	PCOST_CE_RUN,		   /* once per run: start-up and tear-down */
	PCOST_CE_SYSCALL,	   /* a system call the monitor traces (one without pointer
				    * arguments a decoding tracer reads: getppid's kind) */
	PCOST_CE_SYSCALL_DECODED,  /* one whose path, struct or buffer a decoding tracer
				    * (strace, perf trace) reads and prints: newfstatat's kind */
	PCOST_CE_SYSCALL_DIR,	   /* a directory listing (getdents64), decoded entry by entry */
	PCOST_CE_SYSCALL_UNTRACED, /* a system call it filters out (strace --seccomp-bpf) */
	PCOST_CE_CSWITCH,	   /* a context switch of the watched tasks */
	PCOST_CE_FAULT,		   /* a page fault */
	PCOST_CE_TASK,		   /* a task created (fork, clone) */
	PCOST_CE_EXEC,		   /* an exec */
	PCOST_CE_SAMPLE,	   /* a sample (perf record) */
	PCOST_CE_HIT,		   /* a probe hit (probe arming methods) */
	PCOST_CE_READ,		   /* a counter read (counter interfaces) */
	PCOST_CE_SIDEBAND,	  /* perf record's side-band wait, a model term (stats/predict.c) */
	PCOST_CE_STOP_AFTER_WORK, /* a ptrace stop after a long run of work, more than a tight
				   * loop's: the tracer slept, and its CPU is woken colder */
	PCOST_CE_STOP_SHARED,	  /* a decoded syscall's ptrace stop while another tracee of
				   * the same tracer makes its calls: more (less) than alone */
	PCOST_CE_SYSCALL_SHARED,  /* a syscall made while another task of the run makes its own
				   * on another CPU: what a BPF program's call costs more there */
	PCOST_CE_N
};

struct pcost_cost_entry {
	char *subject; /* the monitor ("strace", "inject:event=2000,fixed=0"), the probe
				 * method at a site encoding ("uprobe@nop5"), or the counter
				 * interface ("perf-read") */
	char *kind;    /* "monitor", "probe" or "counter" */
	enum pcost_cost_event event;
	enum pcost_cost_status status;
	double ns, lo, hi;  /* per event, with its 95% interval; NaN when not measured */
	double df;	    /* degrees of freedom of the interval (to combine it); NaN unknown */
	char *workload;	    /* what it was measured on: "syscall loops=20000" */
	char *method;	    /* how: "timed region", "null run less its events", ... */
	char *why;	    /* unavailable or failed: why; else a note or NULL */
	int64_t session_id; /* the stored session it came from, 0 when none */
	char *placement;    /* where its runs ran: "unpinned" (the scheduler's choice) or
			     * "cpu=LIST" (pinned, as --cpu LIST); NULL: the table's cpu */
};

struct pcost_cost_table {
	int64_t id;	 /* store id; 0 when not stored */
	int64_t created; /* unix seconds */
	char *level;	 /* "quick", "thorough", or "custom" (calibrate -m) */
	char *version;	 /* probecost version that measured it */
	char *host;	 /* the machine's host name */
	char *kernel;	 /* kernel release */
	char *cpu;	 /* the CPUs pinned runs were pinned to ("0"), "" when none were;
			  * each entry says its own placement */
	char *env_json;	 /* the environment fingerprint (core/env.h) as JSON text */
	double seconds;	 /* how long calibrating took */
	bool complete;	 /* false when interrupted */
	size_t n, cap;
	struct pcost_cost_entry *e;
};

const char *pcost_cost_status_name(enum pcost_cost_status s);
int pcost_cost_status_parse(const char *s, enum pcost_cost_status *out);
/* "run", "syscall", "syscall-untraced", "cswitch", ... */
const char *pcost_cost_event_name(enum pcost_cost_event e);
int pcost_cost_event_parse(const char *s, enum pcost_cost_event *out);
/* The unit the event's cost is per, in words: "per run", "per syscall", ... */
const char *pcost_cost_event_per(enum pcost_cost_event e);

void pcost_cost_table_init(struct pcost_cost_table *t);
/* Frees contents (entries, strings); the struct itself stays. */
void pcost_cost_table_release(struct pcost_cost_table *t);
/* Release each of t[0..n) and free the array (NULL allowed). */
void pcost_cost_tables_free(struct pcost_cost_table *t, size_t n);
/*
 * Append an entry (strings copied, NULLs allowed) with no figure: status and
 * figures are the caller's to set (ns, lo, hi, df start NaN).  Returns it.
 */
struct pcost_cost_entry *pcost_cost_add(struct pcost_cost_table *t, const char *subject,
					const char *kind, enum pcost_cost_event event,
					const char *workload, const char *method);
/* Set why (printf format). */
void pcost_cost_why(struct pcost_cost_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The entry of (subject, event), or NULL. */
const struct pcost_cost_entry *pcost_cost_find(const struct pcost_cost_table *t,
					       const char *subject, enum pcost_cost_event event);
/*
 * The placement a run on cpu_text ("0,1"; NULL or "" not pinned) has:
 * "unpinned" or "cpu=0,1".  Caller frees.
 */
char *pcost_cost_placement(const char *cpu_text);
/* Entries from index from on without a placement take the one cpu_text gives. */
void pcost_cost_set_placement(struct pcost_cost_table *t, size_t from, const char *cpu_text);
/*
 * Move from's entries to the end of t, each without a placement taking the
 * one cpu_text gives; from is left empty (released).
 */
void pcost_cost_table_take(struct pcost_cost_table *t, struct pcost_cost_table *from,
			   const char *cpu_text);
/* Whether the table has any entry (with a figure or not) measured under placement. */
bool pcost_cost_has_placement(const struct pcost_cost_table *t, const char *placement);
/*
 * Into out (initialised here; release it): t's header and only the entries
 * measured under placement, copied.
 */
void pcost_cost_table_select(const struct pcost_cost_table *t, const char *placement,
			     struct pcost_cost_table *out);
/* Copy t's entries measured under placement (of subject; NULL: any) to the end of out. */
void pcost_cost_copy_entries(struct pcost_cost_table *out, const struct pcost_cost_table *t,
			     const char *placement, const char *subject);
/* The entry of (subject, event) measured under placement (NULL: any), or NULL. */
const struct pcost_cost_entry *pcost_cost_find_at(const struct pcost_cost_table *t,
						  const char *subject, enum pcost_cost_event event,
						  const char *placement);
/* An entry with a figure (measured or derived, ns finite). */
bool pcost_cost_has_value(const struct pcost_cost_entry *e);

#endif
