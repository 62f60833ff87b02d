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

struct mm_ctx {
	const struct pcost_counter_iface *ifc;
	void *st;
	unsigned k;
	uint64_t *vals;		/* rows x k values read */
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

int pcost_counter_measure_matmul(const struct pcost_counter_iface *ifc, const char *const *names,
				 unsigned k, const struct pcost_counter_plan *plan,
				 struct pcost_session *s, char *why, size_t len)
{
	const struct pcost_timer *t = plan->timer;
	unsigned n = plan->matmul_n, runs = plan->matmul_runs, w = runs / 8 + 1, kept = 0;
	unsigned decreasing = 0, ratio_n = 0;
	int tc = -1, rc;
	double *a, *b, *c, *with, *base, *ratios, *cpu_ratios, sink = 0;
	struct mm_ctx m = { .ifc = ifc, .k = k };
	struct pcost_counter_series *sr;
	char *ev;

	if (!ifc->takes_events)
		return 0;
	for (unsigned i = 0; i < k; i++)
		if (!strcmp(names[i], "task-clock") || !strcasecmp(names[i], "perf::TASK-CLOCK"))
			tc = (int)i;
	rc = ifc->open(&m.st, names, k, why, len);
	if (rc < 0)
		return rc;
	a = xcalloc((size_t)n * n, sizeof(double));
	b = xcalloc((size_t)n * n, sizeof(double));
	c = xcalloc((size_t)n * n, sizeof(double));
	for (size_t i = 0; i < (size_t)n * n; i++) {
		a[i] = (double)(i % 7) * 0.5;
		b[i] = (double)(i % 11) * 0.25;
	}
	m.vals = xcalloc((size_t)n * (k ? k : 1), sizeof(uint64_t));
	with = xcalloc(runs, sizeof(double));
	base = xcalloc(runs, sizeof(double));
	ratios = xcalloc(runs, sizeof(double));
	cpu_ratios = xcalloc(runs, sizeof(double));

	for (unsigned r = 0; r < w + runs && !pcost_interrupted; r++) {
		double tw = 0, tb = 0;
		uint64_t t0, t1, pre[PCOST_COUNTERS_MAX], post[PCOST_COUNTERS_MAX];
		pcost_ns cpu0 = 0, cpu1 = 0, wall0 = 0, wall1 = 0;

		/* Alternate which loop goes first so drift and cache warmth cancel. */
		for (int pass = 0; pass < 2; pass++) {
			bool reads = (pass == 0) == (r % 2 == 0);

			if (reads) {
				rc = ifc->start(m.st);
				if (!rc)
					rc = ifc->read(m.st, pre);
				if (rc) {
					rc = op_failed(ifc, "start", rc, why, len);
					goto out;
				}
				/* Outside the timed region: the yardsticks for task-clock. */
				cpu0 = thread_cpu_ns();
				wall0 = pcost_now_ns();
				t0 = pcost_timer_begin(t);
				sink += pcost_matmul(n, a, b, c, mm_read_row, &m);
				t1 = pcost_timer_end(t);
				wall1 = pcost_now_ns();
				cpu1 = thread_cpu_ns();
				rc = ifc->read(m.st, post);
				if (!rc)
					rc = ifc->stop(m.st);
				if (rc || m.rc) {
					rc = op_failed(ifc, rc ? "stop" : "read", rc ? rc : m.rc,
						       why, len);
					goto out;
				}
				tw = ticks_ns(t, t0, t1);
			} else {
				t0 = pcost_timer_begin(t);
				sink += pcost_matmul(n, a, b, c, NULL, NULL);
				t1 = pcost_timer_end(t);
				tb = ticks_ns(t, t0, t1);
			}
		}
		if (r < w)
			continue;
		with[kept] = tw;
		base[kept] = tb;
		for (unsigned i = 1; i < n; i++)
			for (unsigned j = 0; j < k; j++)
				if (m.vals[(size_t)i * k + j] < m.vals[(size_t)(i - 1) * k + j])
					decreasing++;
		if (tc >= 0) {
			/* task-clock counts this thread's CPU time: equal to the thread's CPU
			 * clock always, to elapsed time only when nothing else ran here. */
			double d = (double)(post[tc] - pre[tc]);

			ratios[ratio_n] = d / (double)(wall1 - wall0);
			cpu_ratios[ratio_n++] = d / (double)(cpu1 - cpu0);
		}
		kept++;
	}
	ev = join_names(names, k);
	sr = pcost_session_add_series(s, ifc->name, "matmul", ev, k, pcost_counter_timer_name(t),
				      with, kept);
	if (ratio_n) {
		qsort(ratios, ratio_n, sizeof(double), cmp_double);
		qsort(cpu_ratios, ratio_n, sizeof(double), cmp_double);
		sr->note = xasprintf("%u reads/run; values %s; task-clock/elapsed %.3f, "
				     "task-clock/thread-cpu-time %.3f (medians)",
				     n, decreasing ? "DECREASED" : "monotonic", ratios[ratio_n / 2],
				     cpu_ratios[ratio_n / 2]);
	} else {
		sr->note = xasprintf("%u reads/run; values %s", n,
				     decreasing ? "DECREASED" : "monotonic");
	}
	pcost_session_add_series(s, ifc->name, "matmul-base", ev, k, pcost_counter_timer_name(t),
				 base, kept);
	free(ev);
	/* Keep the checksum alive without printing it. */
	__asm__ __volatile__("" ::"g"(&sink) : "memory");
	rc = 2;
out:
	if (ifc->close)
		ifc->close(m.st);
	free(a);
	free(b);
	free(c);
	free(m.vals);
	free(with);
	free(base);
	free(ratios);
	free(cpu_ratios);
	return rc;
}
