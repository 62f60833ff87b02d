/* SPDX-License-Identifier: MIT */
/*
 * src/counters/: the cost of reading performance counters: the interfaces
 * measured (iface.c), event names (events.c, libpfm4), the self-monitoring
 * library (lib.c), PAPI, the timer and the measuring loops (measure.c).
 *
 * counters (internal): the table of counter interfaces `probecost counters`
 * measures, the timer that measures them, and the measuring loops.
 *
 *   for_each_counter_iface(ifc)            the rows, as `probecost list counters` shows them
 *   pcost_counter_timer_init()             TSC (serialized) or CLOCK_MONOTONIC, once
 *   pcost_counter_measure_set()            start/stop/read series of rows, interleaved
 *   pcost_counter_measure_matmul()         reads inside a 128x128 matmul vs the bare loop
 *   pcost_matmul()                         that matmul, also the `matmul` workload's kernel
 */
#ifndef PCOST_COUNTERS_INTERNAL_H
#define PCOST_COUNTERS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/result.h"
#include "core/util.h"

/*
 * One counter interface.  Hooks are called in this order, by one thread:
 * available (any time), open (not timed), then start / read / stop in the
 * timed loop, then close.  A NULL start/stop means the row has no such
 * operation (the baselines); a NULL read in a baseline times an empty region.
 */
struct pcost_counter_iface {
	const char *name;
	const char *kind; /* "perf_event", "papi", "baseline" */
	const char *summary;
	bool takes_events; /* false: a baseline, measured once with k = 0 */
	/* Can it run here at all?  false and the reason (and the fix) when not. */
	bool (*available)(char *why, size_t len);
	/* Open k events; 0, or -errno and why.  *st is the row's private state. */
	int (*open)(void **st, const char *const *names, unsigned k, char *why, size_t len);
	int (*start)(void *st);
	int (*read)(void *st, uint64_t *values);
	int (*stop)(void *st);
	void (*close)(void *st);
};

extern const struct pcost_counter_iface *const pcost_counter_ifaces[];
#define for_each_counter_iface(ifc)                                                                \
	for (const struct pcost_counter_iface *const *ifc##_it = pcost_counter_ifaces;             \
	     ((ifc) = *ifc##_it); ifc##_it++)

const struct pcost_counter_iface *pcost_counter_iface_find(const char *name);

/*
 * Can this user count kernel side too?  Opens task-clock: 0 yes; 1 only user
 * space (kernel.perf_event_paranoid = 2 and no privilege), after which the
 * perf rows open with exclude_kernel; -errno when not at all.
 */
int pcost_counter_probe_kernel(void);
void pcost_counter_set_user_only(bool on);
bool pcost_counter_user_only(void);
/* One line on EACCES: the paranoid level read now, what each level allows, the fix. */
void pcost_counter_explain_eacces(char *buf, size_t len);

/* The PAPI row (counters/papi.c). */
extern const struct pcost_counter_iface pcost_counter_iface_papi;
/* Release PAPI if it was initialized (idempotent). */
void pcost_counter_papi_shutdown(void);
/* Load PAPI (counters/papi_dl.c): NULL, or one line saying why it could not be, and the fix. */
const char *pcost_papi_load(void);

/* ---- timer ---------------------------------------------------------------- */

enum pcost_timer_kind { PCOST_TIMER_TSC, PCOST_TIMER_MONOTONIC };

struct pcost_timer {
	enum pcost_timer_kind kind;
	double ns_per_tick; /* 1 for monotonic */
	double tsc_hz;	    /* 0 when unknown */
	char why[160];	    /* why this timer (and not the other) */
};

/* Choose: the TSC when it is invariant and its frequency is known, else monotonic. */
void pcost_counter_timer_init(struct pcost_timer *t, bool force_monotonic);
const char *pcost_counter_timer_name(const struct pcost_timer *t);

static inline uint64_t pcost_timer_begin(const struct pcost_timer *t)
{
#if defined(__x86_64__) || defined(__i386__)
	if (t->kind == PCOST_TIMER_TSC) {
		uint32_t lo, hi;

		/* lfence keeps earlier work from drifting past the read (Intel's
		 * "How to Benchmark Code Execution Times", 2010). */
		__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
		return (uint64_t)hi << 32 | lo;
	}
#endif
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t pcost_timer_end(const struct pcost_timer *t)
{
#if defined(__x86_64__) || defined(__i386__)
	if (t->kind == PCOST_TIMER_TSC) {
		uint32_t lo, hi, aux;

		/* rdtscp waits for earlier instructions; lfence keeps later ones out. */
		__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
		return (uint64_t)hi << 32 | lo;
	}
#endif
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- measuring -------------------------------------------------------------- */

struct pcost_counter_plan {
	unsigned iterations;  /* kept samples per series */
	unsigned warmup;      /* discarded first */
	unsigned matmul_runs; /* runs of each matmul loop (with and without reads) */
	unsigned matmul_n;    /* matrix size (128) */
	const struct pcost_timer *timer;
};

/* One row of a measured set: in, the row; out, whether it was measured and why not. */
struct pcost_counter_slot {
	const struct pcost_counter_iface *ifc;
	int rc;	       /* 0 measured, -errno skipped */
	char why[512]; /* when rc < 0: why (open failed, an operation failed) */
};

/*
 * Measure every row of slots[] with k events (names[0..k); baselines with
 * none), the rows taking turns in blocks of iterations.  Appends, in slot
 * order, the series of each row measured (start, read, stop,
 * start+stop+read; a baseline only "read") and returns how many; rows that
 * could not be opened or failed midway have rc < 0 and why set.
 */
int pcost_counter_measure_set(struct pcost_counter_slot *slots, size_t nslots,
			      const char *const *names, unsigned k,
			      const struct pcost_counter_plan *plan, struct pcost_session *s);

/*
 * Reads inside a naive matmul: series "matmul" (loop with one read of all k
 * events per outer iteration, plus start before and stop after the loop
 * outside the timed region) and "matmul-base" (the same loop, no reads),
 * interleaved run by run.  The note of "matmul" says whether the values read
 * were sane (never decreasing; task-clock, when read, close to elapsed).
 */
int pcost_counter_measure_matmul(const struct pcost_counter_iface *ifc, const char *const *names,
				 unsigned k, const struct pcost_counter_plan *plan,
				 struct pcost_session *s, char *why, size_t len);

/*
 * The matmul of seed 001, shared by `counters --matmul` and the matmul workload
 * (workloads/matmul.c, which reads counters inside it too): c = a x b, n x n
 * doubles, naive i-j-k order; after each outer iteration calls each_row(ctx, i)
 * when non-NULL.  Returns a checksum so the compiler keeps the work.
 */
double pcost_matmul(unsigned n, const double *a, const double *b, double *c,
		    void (*each_row)(void *ctx, unsigned i), void *ctx);

/*
 * The default event names for k events: hardware events first when a PMU is
 * present, then the software events, then the software events again with :u=1
 * and :k=1 qualifiers (PAPI refuses the same event twice in one set).  Fills
 * names[0..k) with malloc'd strings; returns k, or -E2BIG past what it knows.
 */
int pcost_counter_default_events(bool pmu, unsigned k, char **names);

#endif
