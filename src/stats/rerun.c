// SPDX-License-Identifier: MIT
/* rerun: the interval a rerun of the same study lands in, from its sub-sessions (rerun.h). */
#include "stats/rerun.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/stats.h"

size_t pcost_rerun_subsessions(const struct pcost_session *s, uint32_t **first)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, PCOST_RERUN_OPTION), *e;
	size_t n = 0;

	*first = NULL;
	if (cJSON_IsArray(a) && cJSON_GetArraySize(a) > 0) {
		*first = xcalloc((size_t)cJSON_GetArraySize(a), sizeof(**first));
		cJSON_ArrayForEach(e, a)
		{
			/* Ascending block numbers only: anything else is not a split we made. */
			if (!cJSON_IsNumber(e) || e->valuedouble < 0 ||
			    e->valuedouble > UINT32_MAX ||
			    (n && e->valuedouble <= (*first)[n - 1])) {
				n = 0;
				break;
			}
			(*first)[n++] = (uint32_t)e->valuedouble;
		}
	}
	cJSON_Delete(o);
	if (!n) {
		free(*first);
		*first = NULL;
	}
	return n;
}

/* The sub-session block b belongs to: the last that starts at or before it; -1 before all. */
static long sub_of(const uint32_t *first, size_t k, uint32_t b)
{
	long j = -1;

	for (size_t i = 0; i < k && first[i] <= b; i++)
		j = (long)i;
	return j;
}

void pcost_rerun_widen(double est, double se, size_t subs, double level, double conf, double *lo,
		       double *hi)
{
	double h;

	if (!isfinite(est) || !(est > -1) || !isfinite(se) || !isfinite(level) || subs < 2)
		return;
	h = pcost_t_quantile(conf, (double)(subs - 1)) * sqrt(2 * se * se + 2 * level * level);
	*lo = expm1(log1p(est) - h);
	*hi = expm1(log1p(est) + h);
}

void pcost_rerun_floor(double est, double own_lo, double own_hi, bool ratio, double *lo, double *hi)
{
	double e = est, a = own_lo, b = own_hi, l, h;

	if (!isfinite(est) || !isfinite(own_lo) || !isfinite(own_hi) || !isfinite(*lo) ||
	    !isfinite(*hi) || (ratio && (est <= -1 || own_lo <= -1 || *lo <= -1)))
		return;
	if (ratio) {
		e = log1p(est);
		a = log1p(own_lo);
		b = log1p(own_hi);
	}
	l = e - PCOST_RERUN_FLOOR * fmax(e - a, 0);
	h = e + PCOST_RERUN_FLOOR * fmax(b - e, 0);
	if (ratio) {
		l = expm1(l);
		h = expm1(h);
	}
	*lo = fmin(*lo, l);
	*hi = fmax(*hi, h);
}

static double arm(double x)
{
	return isfinite(x) && x > 0 ? x : 0;
}

void pcost_rerun_change_floor(double h, double a_down, double a_up, double b_down, double b_up,
			      double *down, double *up)
{
	double f = PCOST_RERUN_FLOOR / sqrt(2.0);

	*down = fmax(arm(h), f * hypot(arm(b_down), arm(a_up)));
	*up = fmax(arm(h), f * hypot(arm(b_up), arm(a_down)));
}

bool pcost_rerun_ci(const uint32_t *first, size_t k, const double *x, const double *y,
		    const uint32_t *blocks, size_t n, bool ratio, double est, double conf,
		    double *lo, double *hi, double *se, size_t *used)
{
	double *sx = xcalloc(k + 1, sizeof(double)), *sy = xcalloc(k + 1, sizeof(double));
	double *yj = xcalloc(k + 1, sizeof(double)), h;
	size_t *cnt = xcalloc(k + 1, sizeof(size_t)), m = 0;
	bool ok;

	*lo = *hi = NAN;
	if (se)
		*se = NAN;
	for (size_t i = 0; i < n; i++) {
		long j = sub_of(first, k, blocks[i]);

		if (j < 0 || !isfinite(x[i]) || !isfinite(y[i]))
			continue;
		sx[j] += x[i];
		sy[j] += y[i];
		cnt[j]++;
	}
	for (size_t j = 0; j < k; j++) {
		if (!cnt[j])
			continue;
		if (!ratio)
			yj[m++] = (sx[j] - sy[j]) / (double)cnt[j];
		else if (sx[j] > 0 && sy[j] > 0)
			yj[m++] = log(sx[j] / sy[j]);
	}
	*used = m;
	ok = m >= PCOST_RERUN_MIN_SUBS && isfinite(est) && (!ratio || est > -1);
	if (ok) {
		double e = pcost_sd(yj, m) / sqrt((double)m);

		/* A rerun's own mean of m sub-sessions differs from this one's by sqrt(2) x e. */
		h = pcost_t_quantile(conf, (double)(m - 1)) * sqrt(2.0) * e;
		if (se)
			*se = e;
		if (ratio) {
			*lo = expm1(log1p(est) - h);
			*hi = expm1(log1p(est) + h);
		} else {
			*lo = est - h;
			*hi = est + h;
		}
	}
	free(sx);
	free(sy);
	free(yj);
	free(cnt);
	return ok;
}
