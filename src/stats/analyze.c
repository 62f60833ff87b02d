// SPDX-License-Identifier: MIT
/* analyze: per-configuration statistics of a run/probes session, from its raw samples only. */
#include "stats/analyze.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Resamples of the overhead bootstrap: >= 2000 (Efron & Tibshirani 1993, ch. 13, for percentile CIs). */
#define BOOT_RESAMPLES 2000

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool is_baseline(const struct pcost_session *s, const struct pcost_config *c)
{
	const char *base = s->kind == PCOST_SESSION_PROBES ? "dormant" : "none";

	return c->monitor && !strcmp(c->monitor, base);
}

static int find_baseline(const struct pcost_session *s, size_t i)
{
	const struct pcost_config *c = &s->configs[i];

	if (is_baseline(s, c))
		return -1;
	for (size_t j = 0; j < s->nconfigs; j++) {
		const struct pcost_config *b = &s->configs[j];

		if (j != i && is_baseline(s, b) && same(b->workload, c->workload) &&
		    same(b->workload_args, c->workload_args) &&
		    (s->kind == PCOST_SESSION_PROBES || same(b->variant, c->variant)))
			return (int)j;
	}
	return -1;
}

static bool measured(const struct pcost_run_sample *x)
{
	return !x->warmup && !x->failed;
}

/* Wall time of c's measured sample in block b, or -1. */
static double wall_in_block(const struct pcost_config *c, uint32_t b)
{
	for (size_t k = 0; k < c->nsamples; k++)
		if (c->samples[k].block == b && measured(&c->samples[k]))
			return (double)c->samples[k].wall_ns;
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void basic(const struct pcost_session *s, size_t i, struct pcost_config_stats *st)
{
	const struct pcost_config *c = &s->configs[i];
	double *w = xcalloc(c->nsamples + 1, sizeof(double));
	double *u = xcalloc(c->nsamples + 1, sizeof(double));
	double *y = xcalloc(c->nsamples + 1, sizeof(double));
	uint64_t *ev = xcalloc(c->nsamples + 1, sizeof(uint64_t));
	int64_t *mev = xcalloc(c->nsamples + 1, sizeof(int64_t));
	int64_t *lost = xcalloc(c->nsamples + 1, sizeof(int64_t));
	bool comparable = c->unit && !strcmp(c->unit, "syscall");
	size_t n = 0, nev = 0, nmev = 0, nlost = 0;

	for (size_t k = 0; k < c->nsamples; k++) {
		const struct pcost_run_sample *x = &c->samples[k];

		if (x->failed) {
			st->nfailed++;
			continue;
		}
		if (x->warmup)
			continue;
		w[n] = (double)x->wall_ns;
		u[n] = (double)x->user_ns;
		y[n] = (double)x->sys_ns;
		n++;
		if (x->events)
			ev[nev++] = x->events;
		if (x->monitor_events >= 0)
			mev[nmev++] = x->monitor_events;
		if (x->monitor_events >= 0 && x->events && comparable)
			lost[nlost++] = (int64_t)x->events - x->monitor_events;
	}
	st->nok = n;
	pcost_summarize(w, n, &st->wall);
	pcost_summarize(u, n, &st->user);
	pcost_summarize(y, n, &st->sys);
	st->noutliers = st->wall.noutliers;
	st->cpu_util = st->wall.mean > 0 ? (st->user.mean + st->sys.mean) / st->wall.mean : 0;
	if (nev) {
		qsort(ev, nev, sizeof(*ev), cmp_u64);
		st->events = ev[nev / 2];
	} else if (c->expected_events > 0) {
		st->events = (uint64_t)c->expected_events;
	}
	st->monitor_events = -1;
	if (nmev) {
		qsort(mev, nmev, sizeof(*mev), cmp_i64);
		st->monitor_events = mev[nmev / 2];
	}
	st->has_lost = nlost > 0;
	if (nlost) {
		/* The lower median: with the upper median of the counts above, seen + lost = made. */
		qsort(lost, nlost, sizeof(*lost), cmp_i64);
		st->lost_events = lost[(nlost - 1) / 2];
	}
	free(lost);
	free(w);
	free(u);
	free(y);
	free(ev);
	free(mev);
}

static void overhead(const struct pcost_session *s, size_t i, struct pcost_config_stats *st,
		     const struct pcost_config_stats *all)
{
	const struct pcost_config *c = &s->configs[i], *b;
	double *num, *den, *wa, *wb;
	size_t n = 0, na = 0, nb = 0;

	st->overhead = st->overhead_lo = st->overhead_hi = NAN;
	st->p_value = NAN;
	st->extra_ns = NAN;
	st->per_event_ns = NAN;
	if (st->baseline < 0)
		return;
	b = &s->configs[st->baseline];
	num = xcalloc(c->nsamples + 1, sizeof(double));
	den = xcalloc(c->nsamples + 1, sizeof(double));
	wa = xcalloc(c->nsamples + 1, sizeof(double));
	wb = xcalloc(b->nsamples + 1, sizeof(double));
	/* Pairs: this configuration's and the baseline's run of the same block. */
	for (size_t k = 0; k < c->nsamples; k++) {
		const struct pcost_run_sample *x = &c->samples[k];
		double base;

		if (!measured(x))
			continue;
		wa[na++] = (double)x->wall_ns;
		base = wall_in_block(b, x->block);
		if (base > 0) {
			num[n] = (double)x->wall_ns;
			den[n] = base;
			n++;
		}
	}
	for (size_t k = 0; k < b->nsamples; k++)
		if (measured(&b->samples[k]))
			wb[nb++] = (double)b->samples[k].wall_ns;
	if (n >= 1) {
		double mn = pcost_mean(num, n), md = pcost_mean(den, n);

		st->overhead = mn / md - 1;
		st->extra_ns = mn - md;
	} else if (na && nb) {
		st->overhead = pcost_mean(wa, na) / pcost_mean(wb, nb) - 1;
		st->extra_ns = pcost_mean(wa, na) - pcost_mean(wb, nb);
	}
	if (n >= 2)
		pcost_bootstrap_ratio_ci(num, den, n, BOOT_RESAMPLES, s->seed ^ (uint64_t)i, 0.95,
					 &st->overhead_lo, &st->overhead_hi);
	st->p_value = pcost_welch_p(wa, na, wb, nb);
	st->significant = !isnan(st->p_value) && st->p_value < 0.05 && !isnan(st->overhead_lo) &&
			  (st->overhead_lo > 0 || st->overhead_hi < 0);
	if (!isnan(st->extra_ns)) {
		st->extra_cycles = s->tsc_hz > 0 ? st->extra_ns * s->tsc_hz / 1e9 : 0;
		if (st->events == 0 && all[st->baseline].events)
			st->events = all[st->baseline].events;
		if (st->events)
			st->per_event_ns = st->extra_ns / (double)st->events;
	}
	free(num);
	free(den);
	free(wa);
	free(wb);
}

/*
 * --scale: configurations with the same workload, monitor and variant at
 * different sizes.  Baselines fit wall = fixed + per_event x events; monitored
 * configurations fit their extra time over the baseline of the same size, so
 * fixed is the monitor's start-up cost and the slope its cost per event.
 */
static void fit(const struct pcost_session *s, struct pcost_config_stats *st)
{
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		double *x = NULL, *y = NULL, a, b, r2;
		size_t n = 0, cap = 0, nscales = 0;
		double first_scale = NAN;

		if (st[i].has_fit)
			continue;
		for (size_t j = 0; j < s->nconfigs; j++) {
			const struct pcost_config *d = &s->configs[j];
			double base = 0;

			if (!same(d->workload, c->workload) || !same(d->monitor, c->monitor) ||
			    !same(d->variant, c->variant) || !st[j].nok)
				continue;
			if (st[j].baseline >= 0) {
				if (!st[st[j].baseline].nok)
					continue;
				base = st[st[j].baseline].wall.mean;
			} else if (!is_baseline(s, d)) {
				continue;
			}
			for (size_t k = 0; k < d->nsamples; k++) {
				const struct pcost_run_sample *smp = &d->samples[k];

				if (!measured(smp))
					continue;
				if (isnan(first_scale))
					first_scale = smp->scale;
				else if (smp->scale != first_scale && nscales < 2)
					nscales = 2;
				xgrow((void **)&x, &cap, n + 1, sizeof(double));
				y = xrealloc(y, cap * sizeof(double));
				x[n] = (double)(smp->events ? smp->events : st[j].events);
				y[n] = (double)smp->wall_ns - base;
				n++;
			}
		}
		if (nscales >= 2 && pcost_linfit(x, y, n, &a, &b, &r2) == 0) {
			for (size_t j = 0; j < s->nconfigs; j++) {
				const struct pcost_config *d = &s->configs[j];

				if (same(d->workload, c->workload) && same(d->monitor, c->monitor) &&
				    same(d->variant, c->variant)) {
					st[j].has_fit = true;
					st[j].fit_fixed_ns = a;
					st[j].fit_per_event_ns = b;
					st[j].fit_r2 = r2;
				}
			}
		}
		free(x);
		free(y);
	}
}

int pcost_analyze(const struct pcost_session *s, struct pcost_config_stats **out)
{
	struct pcost_config_stats *st = xcalloc(s->nconfigs ? s->nconfigs : 1, sizeof(*st));

	if (s->kind == PCOST_SESSION_COUNTERS) {
		free(st);
		return -EINVAL;
	}
	for (size_t i = 0; i < s->nconfigs; i++) {
		st[i].baseline = find_baseline(s, i);
		basic(s, i, &st[i]);
	}
	for (size_t i = 0; i < s->nconfigs; i++)
		overhead(s, i, &st[i], st);
	fit(s, st);
	*out = st;
	return 0;
}
