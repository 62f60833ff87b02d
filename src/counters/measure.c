// SPDX-License-Identifier: MIT
/*
 * counters/measure: the timed loops.  Start, read and stop are each timed
 * alone, then a whole start+read+stop episode is timed as one; rows take
 * turns in blocks; warm-up iterations are discarded; every kept sample
 * becomes part of a series.
 * After seed 001's "raw start/stop/read" and "reads in a 128x128 matmul" tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/cleanup.h"
#include "counters/counters.h"
#include "probecost/counters.h"

static char *join_names(const char *const *names, unsigned k)
{
	size_t len = 1;
	char *s;

	for (unsigned i = 0; i < k; i++)
		len += strlen(names[i]) + 1;
	s = xcalloc(1, len);
	for (unsigned i = 0; i < k; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, names[i]);
	}
	return s;
}

static double ticks_ns(const struct pcost_timer *t, uint64_t a, uint64_t b)
{
	return (double)(b - a) * t->ns_per_tick;
}

static int op_failed(const struct pcost_counter_iface *ifc, const char *op, int rc, char *why,
		     size_t len)
{
	snprintf(why, len, "%s failed during %s: %s", ifc->name, op, strerror(rc < 0 ? -rc : EIO));
	return rc < 0 ? rc : -EIO;
}

/* Per-slot state while a set is measured. */
struct slot_run {
	void *st;
	bool open;
	unsigned kept;
	double *ser[4];
};

/*
 * One iteration of one row: start, read, stop each timed alone, then a whole
 * episode timed as one region (what a self-monitoring caller pays).  out[] gets
 * the four durations; baselines fill out[1] only.  0 or the first error.
 */
static int one_iteration(const struct pcost_counter_iface *ifc, void *st,
			 const struct pcost_timer *t, double out[4], const char **op)
{
	uint64_t vals[PCOST_COUNTERS_MAX], a, b, c, d, e, f;
	int r1, r2, r3;

	if (!ifc->takes_events) {
		a = pcost_timer_begin(t);
		if (ifc->read)
			ifc->read(st, vals);
		b = pcost_timer_end(t);
		out[1] = ticks_ns(t, a, b);
		return 0;
	}
	a = pcost_timer_begin(t);
	r1 = ifc->start(st);
	b = pcost_timer_end(t);
	c = pcost_timer_begin(t);
	r2 = ifc->read(st, vals);
	d = pcost_timer_end(t);
	e = pcost_timer_begin(t);
	r3 = ifc->stop(st);
	f = pcost_timer_end(t);
	if (r1 || r2 || r3) {
		*op = r1 ? "start" : r2 ? "read" : "stop";
		return r1 ? r1 : r2 ? r2 : r3;
	}
	out[0] = ticks_ns(t, a, b);
	out[1] = ticks_ns(t, c, d);
	out[2] = ticks_ns(t, e, f);
	a = pcost_timer_begin(t);
	r1 = ifc->start(st);
	r2 = ifc->read(st, vals);
	r3 = ifc->stop(st);
	b = pcost_timer_end(t);
	if (r1 || r2 || r3) {
		*op = "start+read+stop";
		return r1 ? r1 : r2 ? r2 : r3;
	}
	out[3] = ticks_ns(t, a, b);
	return 0;
}

/* Iterations a row runs before the next row takes its turn. */
#define BLOCK 16

int pcost_counter_measure_set(struct pcost_counter_slot *slots, size_t nslots,
			      const char *const *names, unsigned k,
			      const struct pcost_counter_plan *plan, struct pcost_session *s)
{
	static const char *const ops[4] = { "start", "read", "stop", "start+stop+read" };
	const struct pcost_timer *t = plan->timer;
	unsigned n = plan->iterations, w = plan->warmup, total = w + n;
	struct slot_run *run = xcalloc(nslots ? nslots : 1, sizeof(*run));
	int added = 0;

	for (size_t i = 0; i < nslots; i++) {
		const struct pcost_counter_iface *ifc = slots[i].ifc;

		slots[i].why[0] = '\0';
		slots[i].rc = ifc->open(&run[i].st, names, ifc->takes_events ? k : 0, slots[i].why,
					sizeof(slots[i].why));
		run[i].open = slots[i].rc == 0;
		for (int j = 0; j < 4 && run[i].open; j++)
			run[i].ser[j] = xcalloc(n ? n : 1, sizeof(double));
	}
	/*
	 * Rows take turns in blocks, the first row of each block rotating, so the
	 * drift of a shared machine spreads over every row instead of favouring
	 * whichever was measured first.
	 */
	for (unsigned done = 0, blk = 0; done < total && !pcost_interrupted; done += BLOCK, blk++) {
		for (size_t r = 0; r < nslots && !pcost_interrupted; r++) {
			size_t i = (blk + r) % nslots;
			const struct pcost_counter_iface *ifc = slots[i].ifc;

			for (unsigned it = done; run[i].open && it < done + BLOCK && it < total;
			     it++) {
				double out[4] = { 0 };
				const char *op = "";
				int rc = one_iteration(ifc, run[i].st, t, out, &op);

				if (rc) {
					slots[i].rc = op_failed(ifc, op, rc, slots[i].why,
								sizeof(slots[i].why));
					if (ifc->close)
						ifc->close(run[i].st);
					run[i].open = false;
					break;
				}
				if (it < w)
					continue;
				for (int j = 0; j < 4; j++)
					run[i].ser[j][run[i].kept] = out[j];
				run[i].kept++;
			}
		}
	}
	for (size_t i = 0; i < nslots; i++) {
		const struct pcost_counter_iface *ifc = slots[i].ifc;
		unsigned kk = ifc->takes_events ? k : 0;

		if (run[i].open) {
			char *ev = join_names(names, kk);

			for (int j = 0; j < 4; j++) {
				if (!ifc->takes_events && j != 1)
					continue;
				pcost_session_add_series(s, ifc->name, ops[j], ev, kk,
							 pcost_counter_timer_name(t), run[i].ser[j],
							 run[i].kept);
				added++;
			}
			free(ev);
			if (ifc->close)
				ifc->close(run[i].st);
		}
		for (int j = 0; j < 4; j++)
			free(run[i].ser[j]);
	}
	free(run);
	return added;
}

/* ---- reads inside a matmul -------------------------------------------------------- */

double pcost_matmul(unsigned n, const double *a, const double *b, double *c,
		    void (*each_row)(void *ctx, unsigned i), void *ctx)
{
	double sum = 0;

	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = 0; j < n; j++) {
			double acc = 0;

			for (unsigned k = 0; k < n; k++)
				acc += a[(size_t)i * n + k] * b[(size_t)k * n + j];
			c[(size_t)i * n + j] = acc;
			sum += acc;
		}
		if (each_row)
			each_row(ctx, i);
	}
	return sum;
}

struct mm_ctx {
	const struct pcost_counter_iface *ifc;
	void *st;
	unsigned k;
	uint64_t *vals; /* rows x k values read */
	int rc;
};

static void mm_read_row(void *arg, unsigned i)
{
	struct mm_ctx *m = arg;
	int rc = m->ifc->read(m->st, m->vals + (size_t)i * m->k);

	if (rc && !m->rc)
		m->rc = rc;
}

static pcost_ns thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (pcost_ns)ts.tv_sec * 1000000000u + (pcost_ns)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A matmul measurement: the matrices, the reads, the samples kept. */
struct mm_run {
	struct mm_ctx m;
	const struct pcost_timer *t;
	unsigned n; /* matrix size */
	int tc;	    /* task-clock's index among the events, -1 */
	double *a, *b, *c, sink;
	double *with, *base, *ratios, *cpu_ratios;
	unsigned kept, ratio_n, decreasing;
};

/* One matmul with reads: its time, and the yardsticks of task-clock around it. */
struct mm_sample {
	double ns;
	uint64_t pre[PCOST_COUNTERS_MAX], post[PCOST_COUNTERS_MAX];
	pcost_ns cpu0, cpu1, wall0, wall1;
};

static void mm_alloc(struct mm_run *r, unsigned n, unsigned k, unsigned runs)
{
	r->n = n;
	r->a = xcalloc((size_t)n * n, sizeof(double));
	r->b = xcalloc((size_t)n * n, sizeof(double));
	r->c = xcalloc((size_t)n * n, sizeof(double));
	for (size_t i = 0; i < (size_t)n * n; i++) {
		r->a[i] = (double)(i % 7) * 0.5;
		r->b[i] = (double)(i % 11) * 0.25;
	}
	r->m.vals = xcalloc((size_t)n * (k ? k : 1), sizeof(uint64_t));
	r->with = xcalloc(runs, sizeof(double));
	r->base = xcalloc(runs, sizeof(double));
	r->ratios = xcalloc(runs, sizeof(double));
	r->cpu_ratios = xcalloc(runs, sizeof(double));
}

static void mm_free(struct mm_run *r)
{
	free(r->a);
	free(r->b);
	free(r->c);
	free(r->m.vals);
	free(r->with);
	free(r->base);
	free(r->ratios);
	free(r->cpu_ratios);
}

/* Start, one timed matmul reading every event after each row, stop; 0 or -errno. */
static int mm_with_reads(struct mm_run *r, struct mm_sample *x, char *why, size_t len)
{
	const struct pcost_counter_iface *ifc = r->m.ifc;
	uint64_t t0, t1;
	int rc = ifc->start(r->m.st);

	if (!rc)
		rc = ifc->read(r->m.st, x->pre);
	if (rc)
		return op_failed(ifc, "start", rc, why, len);
	/* Outside the timed region: the yardsticks for task-clock. */
	x->cpu0 = thread_cpu_ns();
	x->wall0 = pcost_now_ns();
	t0 = pcost_timer_begin(r->t);
	r->sink += pcost_matmul(r->n, r->a, r->b, r->c, mm_read_row, &r->m);
	t1 = pcost_timer_end(r->t);
	x->wall1 = pcost_now_ns();
	x->cpu1 = thread_cpu_ns();
	rc = ifc->read(r->m.st, x->post);
	if (!rc)
		rc = ifc->stop(r->m.st);
	if (rc || r->m.rc)
		return op_failed(ifc, rc ? "stop" : "read", rc ? rc : r->m.rc, why, len);
	x->ns = ticks_ns(r->t, t0, t1);
	return 0;
}

/* The same matmul without reads: its time. */
static double mm_without_reads(struct mm_run *r)
{
	uint64_t t0, t1;

	t0 = pcost_timer_begin(r->t);
	r->sink += pcost_matmul(r->n, r->a, r->b, r->c, NULL, NULL);
	t1 = pcost_timer_end(r->t);
	return ticks_ns(r->t, t0, t1);
}

/* Keep one pair of runs: both times, whether values went down, task-clock's ratios. */
static void mm_keep(struct mm_run *r, const struct mm_sample *x, double base_ns)
{
	unsigned k = r->m.k;

	r->with[r->kept] = x->ns;
	r->base[r->kept] = base_ns;
	for (unsigned i = 1; i < r->n; i++)
		for (unsigned j = 0; j < k; j++)
			if (r->m.vals[(size_t)i * k + j] < r->m.vals[(size_t)(i - 1) * k + j])
				r->decreasing++;
	if (r->tc >= 0) {
		/* task-clock counts this thread's CPU time: equal to the thread's CPU
		 * clock always, to elapsed time only when nothing else ran here. */
		double d = (double)(x->post[r->tc] - x->pre[r->tc]);

		r->ratios[r->ratio_n] = d / (double)(x->wall1 - x->wall0);
		r->cpu_ratios[r->ratio_n++] = d / (double)(x->cpu1 - x->cpu0);
	}
	r->kept++;
}

/* The two series, matmul (with its note) and matmul-base. */
static void mm_add_series(struct mm_run *r, const char *const *names, struct pcost_session *s)
{
	const char *iname = r->m.ifc->name, *timer = pcost_counter_timer_name(r->t);
	const char *values = r->decreasing ? "DECREASED" : "monotonic";
	unsigned k = r->m.k;
	char *ev = join_names(names, k);
	struct pcost_counter_series *sr;

	sr = pcost_session_add_series(s, iname, "matmul", ev, k, timer, r->with, r->kept);
	if (r->ratio_n) {
		qsort(r->ratios, r->ratio_n, sizeof(double), cmp_double);
		qsort(r->cpu_ratios, r->ratio_n, sizeof(double), cmp_double);
		sr->note = xasprintf("%u reads/run; values %s; task-clock/elapsed %.3f, "
				     "task-clock/thread-cpu-time %.3f (medians)",
				     r->n, values, r->ratios[r->ratio_n / 2],
				     r->cpu_ratios[r->ratio_n / 2]);
	} else {
		sr->note = xasprintf("%u reads/run; values %s", r->n, values);
	}
	pcost_session_add_series(s, iname, "matmul-base", ev, k, timer, r->base, r->kept);
	free(ev);
}

int pcost_counter_measure_matmul(const struct pcost_counter_iface *ifc, const char *const *names,
				 unsigned k, const struct pcost_counter_plan *plan,
				 struct pcost_session *s, char *why, size_t len)
{
	unsigned runs = plan->matmul_runs, w = runs / 8 + 1;
	struct mm_run r = { .m = { .ifc = ifc, .k = k }, .t = plan->timer, .tc = -1 };
	int rc;

	if (!ifc->takes_events)
		return 0;
	for (unsigned i = 0; i < k; i++)
		if (!strcmp(names[i], "task-clock") || !strcasecmp(names[i], "perf::TASK-CLOCK"))
			r.tc = (int)i;
	rc = ifc->open(&r.m.st, names, k, why, len);
	if (rc < 0)
		return rc;
	mm_alloc(&r, plan->matmul_n, k, runs);
	for (unsigned i = 0; i < w + runs && !pcost_interrupted; i++) {
		struct mm_sample x = { 0 };
		double base_ns = 0;

		/* Alternate which loop goes first so drift and cache warmth cancel. */
		for (int pass = 0; pass < 2; pass++) {
			if ((pass == 0) != (i % 2 == 0))
				base_ns = mm_without_reads(&r);
			else if ((rc = mm_with_reads(&r, &x, why, len)))
				goto out;
		}
		if (i >= w)
			mm_keep(&r, &x, base_ns);
	}
	mm_add_series(&r, names, s);
	/* Keep the checksum alive without printing it. */
	__asm__ __volatile__("" ::"g"(&r.sink) : "memory");
	rc = 2;
out:
	if (ifc->close)
		ifc->close(r.m.st);
	mm_free(&r);
	return rc;
}
