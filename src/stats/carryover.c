// SPDX-License-Identifier: MIT
/*
 * carryover: does a monitor's run slow the run that comes after it?  A
 * monitor's teardown (a flush, a daemon finishing, caches it left cold) lands
 * on the next run; when that is a baseline run the baseline is inflated and
 * the overhead understated, and pairing by block does not remove it.  The
 * runner shuffles each block's order (seeded; the seed and every run's
 * position are stored), so what ran before a run is random and its effect can
 * be told from the configuration's and the block's own.
 *
 * The model, a regression on the predecessor (a three-way additive analysis of
 * variance, unbalanced): log(wall) = configuration + block + predecessor +
 * error over every measured run, the predecessor's levels being each monitored
 * configuration and, as the reference, a baseline run or nothing (first in the
 * session).  Least squares on the normal equations, the blocks absorbed (their
 * means taken out), each run weighted by 1 / its configuration's residual
 * variance (fit_weighted); the coefficient of monitor M is the log of
 * how much longer a run takes right after M than right after a baseline run,
 * with its t interval (runs - blocks - parameters df).  Every run
 * counts, not only the baseline's: a baseline follows each monitor in only
 * about 1/K of the blocks of K configurations, and follows itself almost never.
 */
#include "stats/analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/rerun.h"

/* One run in the session's time order. */
struct slot {
	uint32_t block, order;
	size_t config;
	const struct pcost_run_sample *x;
	bool paused; /* the first run of a sub-session after the first: a pause came before it */
};

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *p = a, *q = b;

	if (p->block != q->block)
		return (p->block > q->block) - (p->block < q->block);
	return (p->order > q->order) - (p->order < q->order);
}

/*
 * A study split into sub-sessions (stats/rerun.h) pauses before each but the
 * first, long enough for what a monitor leaves behind to finish: the run after
 * the pause follows no monitor, whatever ran last before it.
 */
static void mark_paused(const struct pcost_session *s, struct slot *v, size_t n)
{
	uint32_t *first = NULL;
	size_t nf = pcost_rerun_subsessions(s, &first);

	for (size_t k = 1; k < n; k++)
		if (v[k].block != v[k - 1].block)
			for (size_t j = 1; j < nf; j++)
				if (first[j] == v[k].block)
					v[k].paused = true;
	free(first);
}

/*
 * Every run of the session (warm-up and failed ones too: they ran) ordered by
 * (block, position): each block ran its configurations one after the other,
 * the blocks one after the other, so a run's predecessor is the element
 * before it, across block boundaries too.  NULL when two runs share a position.
 */
static struct slot *time_order(const struct pcost_session *s, size_t *n)
{
	size_t total = 0, k = 0;
	struct slot *v;

	for (size_t i = 0; i < s->nconfigs; i++)
		total += s->configs[i].nsamples;
	v = xcalloc(total + 1, sizeof(*v));
	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t j = 0; j < s->configs[i].nsamples; j++) {
			const struct pcost_run_sample *x = &s->configs[i].samples[j];

			v[k++] = (struct slot){ x->block, x->order, i, x, false };
		}
	qsort(v, total, sizeof(*v), cmp_slot);
	/* Two runs at one position (a session made by hand): no time order to read. */
	for (k = 1; k < total; k++)
		if (!cmp_slot(&v[k - 1], &v[k])) {
			free(v);
			return NULL;
		}
	mark_paused(s, v, total);
	*n = total;
	return v;
}

static bool counts(const struct pcost_run_sample *x)
{
	return pcost_sample_measured(x) && x->wall_ns > 0;
}

/* Columns past this are not fitted (the normal equations grow as its square, the solve as its
 * cube). */
#define MAX_COLUMNS 400

/*
 * The design's columns: one per configuration but the first measured, one per
 * monitored predecessor seen; -1: no column (the reference level, or absent).
 * The blocks are absorbed (each block's means taken out), so they need none.
 */
struct design {
	size_t p, nclean, rows, nblocks;
	long *cfg, *pred; /* by configuration index */
};

/*
 * The monitored configuration that ran right before run k, -1 for a baseline,
 * none, or a sub-session's pause.
 */
static long predecessor(const struct slot *v, size_t k, const struct pcost_config_stats *st)
{
	return k > 0 && !v[k].paused && st[v[k - 1].config].baseline >= 0 ? (long)v[k - 1].config
									  : -1;
}

static void design_init(struct design *d, const struct slot *v, size_t n, size_t nconfigs,
			const struct pcost_config_stats *st)
{
	bool *seen = xcalloc(nconfigs + 1, sizeof(bool)), ref = false;
	uint32_t last = 0;

	memset(d, 0, sizeof(*d));
	d->cfg = xcalloc(nconfigs + 1, sizeof(long));
	d->pred = xcalloc(nconfigs + 1, sizeof(long));
	for (size_t i = 0; i < nconfigs; i++)
		d->cfg[i] = d->pred[i] = -1;
	for (size_t k = 0; k < n; k++) {
		long q = predecessor(v, k, st);

		if (!counts(v[k].x))
			continue;
		seen[v[k].config] = true;
		if (q < 0)
			d->nclean++;
		else if (d->pred[q] < 0)
			d->pred[q] = (long)d->p++;
		if (!d->rows++ || v[k].block != last)
			d->nblocks++;
		last = v[k].block;
	}
	for (size_t i = 0; i < nconfigs; i++)
		if (seen[i] && ref)
			d->cfg[i] = (long)d->p++;
		else if (seen[i])
			ref = true;
	free(seen);
}

static void design_release(struct design *d)
{
	free(d->cfg);
	free(d->pred);
}

/* The columns of run k (up to two: its configuration, its predecessor). */
static size_t columns(const struct design *d, const struct slot *v, size_t k,
		      const struct pcost_config_stats *st, size_t *col)
{
	long q = predecessor(v, k, st);
	size_t n = 0;

	if (d->cfg[v[k].config] >= 0)
		col[n++] = (size_t)d->cfg[v[k].config];
	if (q >= 0)
		col[n++] = (size_t)d->pred[q];
	return n;
}

/* A run's weight: 1 / its configuration's residual variance (w NULL: 1). */
static double weight(const double *w, const struct slot *v, size_t k)
{
	return w ? w[v[k].config] : 1;
}

/*
 * One block's runs, v[from..to): add its weighted sums to the normal equations
 * with the block's weighted means taken out (Frisch-Waugh: sum w x x' - S S'/W
 * over the block, S the weighted sum of its rows, W of the weights; the same
 * for x y).  sum, nz: scratch of p slots (left zero).
 */
static void add_block(const struct design *d, const struct slot *v, size_t from, size_t to,
		      const struct pcost_config_stats *st, const double *w, double *xx, double *xy,
		      double *sum, size_t *nz)
{
	size_t col[2], nc, nnz = 0;
	double sy = 0, sw = 0;

	for (size_t k = from; k < to; k++) {
		double y, wk = weight(w, v, k);

		if (!counts(v[k].x))
			continue;
		y = log((double)v[k].x->wall_ns);
		nc = columns(d, v, k, st, col);
		for (size_t i = 0; i < nc; i++) {
			if (sum[col[i]] == 0)
				nz[nnz++] = col[i];
			sum[col[i]] += wk;
			xy[col[i]] += wk * y;
			for (size_t j = 0; j < nc; j++)
				xx[col[i] * d->p + col[j]] += wk;
		}
		sy += wk * y;
		sw += wk;
	}
	for (size_t i = 0; i < nnz && sw > 0; i++) {
		xy[nz[i]] -= sum[nz[i]] * sy / sw;
		for (size_t j = 0; j < nnz; j++)
			xx[nz[i] * d->p + nz[j]] -= sum[nz[i]] * sum[nz[j]] / sw;
	}
	for (size_t i = 0; i < nnz; i++)
		sum[nz[i]] = 0;
}

/* The end of the block that starts at run k. */
static size_t block_end(const struct slot *v, size_t n, size_t k)
{
	size_t e = k;

	while (e < n && v[e].block == v[k].block)
		e++;
	return e;
}

/*
 * Weighted sum of squared residuals of the absorbed fit over one block's runs;
 * with csse and ccnt, each configuration's squared residuals and runs too.
 */
static double block_sse(const struct design *d, const struct slot *v, size_t from, size_t to,
			const struct pcost_config_stats *st, const double *beta, const double *w,
			double *csse, size_t *ccnt)
{
	double *e = xcalloc(to - from + 1, sizeof(double)), mean = 0, sw = 0, sse = 0;
	size_t col[2], nc;

	for (size_t k = from; k < to; k++) {
		if (!counts(v[k].x))
			continue;
		e[k - from] = log((double)v[k].x->wall_ns);
		nc = columns(d, v, k, st, col);
		for (size_t i = 0; i < nc; i++)
			e[k - from] -= beta[col[i]];
		sw += weight(w, v, k);
		mean += weight(w, v, k) * (e[k - from] - mean) / sw;
	}
	for (size_t k = from; k < to; k++) {
		double r = e[k - from] - mean;

		if (!counts(v[k].x))
			continue;
		sse += weight(w, v, k) * r * r;
		if (csse) {
			csse[v[k].config] += r * r;
			ccnt[v[k].config]++;
		}
	}
	free(e);
	return sse;
}

/*
 * Weighted least squares: *inv gets (X'WX)^-1 of the block-absorbed design,
 * beta the coefficients, *s2 the residual variance over *df = rows - blocks -
 * p; csse, ccnt (may be NULL) each configuration's squared residuals and runs.
 * -1 when X'WX is singular or no degree of freedom is left.
 */
static int fit(const struct design *d, const struct slot *v, size_t n,
	       const struct pcost_config_stats *st, const double *w, double *inv, double *beta,
	       double *s2, double *df, double *csse, size_t *ccnt)
{
	double *xy = xcalloc(d->p + 1, sizeof(double)), *sum = xcalloc(d->p + 1, sizeof(double));
	size_t *nz = xcalloc(d->p + 1, sizeof(size_t));
	double sse = 0;
	int rc = -1;

	memset(inv, 0, d->p * d->p * sizeof(double));
	for (size_t k = 0; k < n; k = block_end(v, n, k))
		add_block(d, v, k, block_end(v, n, k), st, w, inv, xy, sum, nz);
	if (d->rows <= d->nblocks + d->p || pcost_matrix_inverse(inv, d->p) < 0)
		goto out;
	for (size_t i = 0; i < d->p; i++) {
		beta[i] = 0;
		for (size_t j = 0; j < d->p; j++)
			beta[i] += inv[i * d->p + j] * xy[j];
	}
	for (size_t k = 0; k < n; k = block_end(v, n, k))
		sse += block_sse(d, v, k, block_end(v, n, k), st, beta, w, csse, ccnt);
	*df = (double)(d->rows - d->nblocks - d->p);
	*s2 = sse / *df;
	rc = 0;
out:
	free(xy);
	free(sum);
	free(nz);
	return rc;
}

/*
 * Two steps (feasible generalized least squares): an unweighted fit, then
 * each run weighted by 1 / its configuration's residual variance.  A monitor
 * can make its runs ten times noisier than the baseline's; unweighted, the
 * pooled variance then misstates every predecessor's standard error
 * (bench/carry-rule.py: a quiet monitor's test rejected 8.5-9.6% of studies
 * without carry-over at a nominal 5%; weighted 5.2-6.7%, and more power).  A
 * configuration without a variance (every residual 0) gets the largest weight
 * of the others.
 */
static int fit_weighted(const struct design *d, const struct slot *v, size_t n, size_t nconfigs,
			const struct pcost_config_stats *st, double *inv, double *beta, double *s2,
			double *df)
{
	double *csse = xcalloc(nconfigs + 1, sizeof(double)), *w = NULL, top = 0;
	size_t *ccnt = xcalloc(nconfigs + 1, sizeof(size_t));
	int rc = fit(d, v, n, st, NULL, inv, beta, s2, df, csse, ccnt);

	if (rc == 0) {
		w = xcalloc(nconfigs + 1, sizeof(double));
		for (size_t i = 0; i < nconfigs; i++)
			if (ccnt[i] && csse[i] > 0)
				top = fmax(top, w[i] = (double)ccnt[i] / csse[i]);
		for (size_t i = 0; i < nconfigs; i++)
			if (!(w[i] > 0))
				w[i] = top > 0 ? top : 1;
		rc = fit(d, v, n, st, w, inv, beta, s2, df, NULL, NULL);
	}
	free(w);
	free(csse);
	free(ccnt);
	return rc;
}

void pcost_carryover(const struct pcost_session *s, struct pcost_config_stats *st)
{
	size_t n = 0;
	struct slot *v = time_order(s, &n);
	struct design d;
	double *inv, *beta, s2, df, t;

	for (size_t i = 0; i < s->nconfigs; i++) {
		st[i].carry_over = st[i].carry_over_lo = st[i].carry_over_hi = NAN;
		st[i].carry_over_p = NAN;
	}
	if (!v)
		return;
	design_init(&d, v, n, s->nconfigs, st);
	for (size_t k = 0; k < n; k++)
		if (counts(v[k].x) && predecessor(v, k, st) >= 0)
			st[predecessor(v, k, st)].carry_after++;
	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].baseline >= 0)
			st[i].carry_clean = d.nclean;
	if (d.p > MAX_COLUMNS || !d.nclean) {
		design_release(&d);
		free(v);
		return;
	}
	inv = xcalloc(d.p * d.p + 1, sizeof(double));
	beta = xcalloc(d.p + 1, sizeof(double));
	if (fit_weighted(&d, v, n, s->nconfigs, st, inv, beta, &s2, &df) == 0) {
		size_t tests = 0;

		t = pcost_t_quantile(PCOST_CONF, df);
		for (size_t i = 0; i < s->nconfigs; i++)
			tests += d.pred[i] >= 0 && st[i].baseline >= 0;
		for (size_t i = 0; i < s->nconfigs; i++) {
			size_t j;
			double b, se;

			if (d.pred[i] < 0 || st[i].baseline < 0)
				continue;
			j = (size_t)d.pred[i];
			b = beta[j];
			se = sqrt(s2 * inv[j * d.p + j]);
			st[i].carry_over = expm1(b);
			if (!(se > 0))
				continue;
			st[i].carry_over_lo = expm1(b - t * se);
			st[i].carry_over_hi = expm1(b + t * se);
			st[i].carry_over_p = pcost_t_tail(b / se, df);
			/* One test per monitor: Bonferroni keeps false warnings at 5% per session.
			 */
			st[i].carry_over_significant =
				st[i].carry_over_p < (1 - PCOST_CONF) / (double)tests;
		}
	}
	free(inv);
	free(beta);
	design_release(&d);
	free(v);
}
