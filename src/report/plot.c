// SPDX-License-Identifier: MIT
/* plot: what each session kind (and a comparison) looks like as a chart; drawing in plot_draw.c. */
#include "report/plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "report/plot_chart.h"
#include "stats.h"
#include "store_db.h"
#include "util.h"

struct names {
	size_t n, cap;
	char **v;
};

static const char *names_add(struct names *ns, char *s)
{
	xgrow((void **)&ns->v, &ns->cap, ns->n + 1, sizeof(char *));
	ns->v[ns->n++] = s;
	return s;
}

static void names_free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
}

/* "kernel 6.18.0, session 12" for titles and legends. */
static char *who(const struct pcost_session *s)
{
	char *k = pcost_env_json_kernel(s->env_json), *out;

	out = xasprintf("session %lld, kernel %s", (long long)s->id, k ? k : "unknown");
	free(k);
	return out;
}

/* Do the session's configurations use more than one workload (label bars with it)? */
static bool many_workloads(const struct pcost_session *s)
{
	for (size_t i = 1; i < s->nconfigs; i++)
		if (strcmp(s->configs[i].workload ? s->configs[i].workload : "",
			   s->configs[0].workload ? s->configs[0].workload : ""))
			return true;
	return false;
}

static char *bar_label(const struct pcost_session *s, const struct pcost_config *c, bool wl)
{
	return wl ? xasprintf("%s: %s", c->workload ? c->workload : "?", c->monitor ? c->monitor : "?")
		  : xstrdup(c->monitor ? c->monitor : "?");
}

/* run: overhead (%) of each monitored configuration, 95% bootstrap CI whiskers. */
static int plot_run(const struct pcost_session *s, const struct pcost_config_stats *st,
		    const char *path, char *err, size_t errlen)
{
	double *v = xcalloc(s->nconfigs + 1, sizeof(double) * 3), *lo = v + s->nconfigs + 1;
	double *hi = lo + s->nconfigs + 1;
	const char **cats = xcalloc(s->nconfigs + 1, sizeof(char *));
	bool wl = many_workloads(s);
	struct names ns = { 0 };
	size_t n = 0;
	char *title, *w = who(s);
	int rc;

	for (size_t i = 0; i < s->nconfigs; i++) {
		if (st[i].baseline < 0 || !isfinite(st[i].overhead))
			continue;
		cats[n] = names_add(&ns, bar_label(s, &s->configs[i], wl));
		v[n] = st[i].overhead * 100;
		lo[n] = st[i].overhead_lo * 100;
		hi[n] = st[i].overhead_hi * 100;
		n++;
	}
	title = wl || !s->nconfigs ? xasprintf("Monitor overhead (%s)", w)
				   : xasprintf("Monitor overhead on %s %s (%s)", s->configs[0].workload,
					       s->configs[0].workload_args ? s->configs[0].workload_args : "", w);
	struct pcost_chart_bars c = {
		.title = title,
		.ylabel = "overhead vs. no monitor (%)",
		.note = "bars: mean wall-time overhead; whiskers: 95% bootstrap CI over paired blocks",
		.ncats = n, .nseries = 1, .cats = cats, .v = v, .lo = lo, .hi = hi, .log = -1,
	};

	rc = n ? pcost_chart_bars_draw(&c, path, err, errlen) : -ENODATA;
	if (!n)
		snprintf(err, errlen, "no monitored configuration with a baseline ('none') to plot");
	free(title);
	free(w);
	names_free(&ns);
	free(cats);
	free(v);
	return rc;
}

static int find_name(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return (int)i;
	return -1;
}

/* probes: extra ns per probe hit, grouped by method (monitor), one bar per variant. */
static int plot_probes(const struct pcost_session *s, const struct pcost_config_stats *st,
		       const char *path, char *err, size_t errlen)
{
	size_t n = s->nconfigs + 1, ncat = 0, nvar = 0;
	const char **cats = xcalloc(n, sizeof(char *)), **vars = xcalloc(n, sizeof(char *));
	double *v, *lo, *hi;
	char *title, *w = who(s);
	int rc;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const char *m = s->configs[i].monitor ? s->configs[i].monitor : "?";
		const char *va = s->configs[i].variant ? s->configs[i].variant : "default";

		if (st[i].baseline < 0 || !isfinite(st[i].per_event_ns))
			continue;
		if (find_name(cats, ncat, m) < 0)
			cats[ncat++] = m;
		if (find_name(vars, nvar, va) < 0)
			vars[nvar++] = va;
	}
	v = xcalloc(ncat * nvar + 1, 3 * sizeof(double));
	lo = v + ncat * nvar + 1;
	hi = lo + ncat * nvar + 1;
	for (size_t i = 0; i < (ncat * nvar + 1) * 3; i++)
		v[i] = NAN;
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config_stats *x = &st[i];
		int g, k;
		double base, ev;

		if (x->baseline < 0 || !isfinite(x->per_event_ns))
			continue;
		g = find_name(cats, ncat, s->configs[i].monitor ? s->configs[i].monitor : "?");
		k = find_name(vars, nvar, s->configs[i].variant ? s->configs[i].variant : "default");
		base = st[x->baseline].wall.mean;
		ev = (double)x->events;
		v[g * nvar + k] = x->per_event_ns;
		/* The overhead CI scaled to ns per hit: extra = overhead x baseline mean. */
		lo[g * nvar + k] = ev > 0 ? x->overhead_lo * base / ev : NAN;
		hi[g * nvar + k] = ev > 0 ? x->overhead_hi * base / ev : NAN;
	}
	title = xasprintf("Cost per probe hit by method and variant (%s)", w);
	struct pcost_chart_bars c = {
		.title = title,
		.ylabel = "extra time per hit (ns)",
		.note = "bars: (mean wall - dormant mean wall) / hits; whiskers: 95% bootstrap CI",
		.ncats = ncat, .nseries = nvar, .cats = cats, .series = vars, .v = v, .lo = lo,
		.hi = hi, .log = -1,
	};

	rc = ncat ? pcost_chart_bars_draw(&c, path, err, errlen) : -ENODATA;
	if (!ncat)
		snprintf(err, errlen, "no armed configuration with hits and a dormant baseline to plot");
	free(title);
	free(w);
	free(cats);
	free(vars);
	free(v);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* counters: mean ns per operation against the number of events, one line per interface and op. */
static int plot_counters(const struct pcost_session *s, const char *path, char *err, size_t errlen)
{
	struct pcost_chart_line_series *ls = xcalloc(s->nseries + 1, sizeof(*ls));
	double *buf = xcalloc(s->nseries + 1, 3 * sizeof(double));
	struct names ns = { 0 };
	size_t nl = 0;
	char *title, *w = who(s);
	int rc;

	for (size_t i = 0; i < s->nseries; i++) {
		const struct pcost_counter_series *x = &s->series[i];
		char *name = xasprintf("%s %s", x->interface ? x->interface : "?", x->op ? x->op : "?");
		struct pcost_summary sum;
		int l = -1;

		for (size_t k = 0; k < nl; k++)
			if (!strcmp(ls[k].name, name))
				l = (int)k;
		if (l < 0) {
			l = (int)nl++;
			ls[l].name = names_add(&ns, name);
		} else {
			free(name);
		}
		pcost_summarize(x->ns, x->n, &sum);
		/* Points are (k, mean, sd) triples for now; split into arrays after. */
		buf[3 * i] = x->nevents;
		buf[3 * i + 1] = x->n ? sum.mean : NAN;
		buf[3 * i + 2] = sum.sd;
		ls[l].n++;
	}
	/* Lay each line's points out as x[], y[], err[], sorted by k. */
	double *arr = xcalloc(s->nseries + 1, 3 * sizeof(double));
	size_t off = 0;

	for (size_t l = 0; l < nl; l++) {
		double *tri = xcalloc(ls[l].n + 1, 3 * sizeof(double));
		size_t m = 0;

		for (size_t i = 0; i < s->nseries; i++) {
			char *name = xasprintf("%s %s", s->series[i].interface ? s->series[i].interface : "?",
					       s->series[i].op ? s->series[i].op : "?");

			if (!strcmp(name, ls[l].name))
				memcpy(&tri[3 * m++], &buf[3 * i], 3 * sizeof(double));
			free(name);
		}
		qsort(tri, m, 3 * sizeof(double), cmp_double);
		ls[l].x = arr + off;
		ls[l].y = arr + off + m;
		ls[l].err = arr + off + 2 * m;
		for (size_t k = 0; k < m; k++) {
			arr[off + k] = tri[3 * k];
			arr[off + m + k] = tri[3 * k + 1];
			arr[off + 2 * m + k] = tri[3 * k + 2];
		}
		off += 3 * m;
		free(tri);
	}
	title = xasprintf("Counter interface cost by number of events (%s)", w);
	struct pcost_chart_lines c = {
		.title = title,
		.xlabel = "events counted at once (k)",
		.ylabel = "time per operation (ns)",
		.note = "points: mean of every sample; bars: one standard deviation",
		.nseries = nl,
		.series = ls,
	};

	rc = nl ? pcost_chart_lines_draw(&c, path, err, errlen) : -ENODATA;
	if (!nl)
		snprintf(err, errlen, "no counter series to plot");
	free(title);
	free(w);
	names_free(&ns);
	free(ls);
	free(buf);
	free(arr);
	return rc;
}

int pcost_plot_session(const struct pcost_session *s, const char *path, char *err, size_t errlen)
{
	struct pcost_config_stats *st = NULL;
	int rc;

	if (pcost_plot_format_of(path) < 0) {
		snprintf(err, errlen, "the file name must end in .png, .svg or .pdf");
		return -EINVAL;
	}
	if (s->kind == PCOST_SESSION_COUNTERS)
		return plot_counters(s, path, err, errlen);
	if ((rc = pcost_analyze(s, &st))) {
		snprintf(err, errlen, "could not analyze session %lld: %s", (long long)s->id,
			 strerror(-rc));
		return rc;
	}
	rc = s->kind == PCOST_SESSION_PROBES ? plot_probes(s, st, path, err, errlen)
					     : plot_run(s, st, path, err, errlen);
	free(st);
	return rc;
}

/* Paired bars: A and B per configuration present in both (overhead %, or cost change). */
int pcost_plot_compare(const struct pcost_session *a, const struct pcost_session *b,
		       const struct pcost_compare *cmp, const char *path, char *err, size_t errlen)
{
	size_t n = 0, any_ovh = 0;
	const char **cats = xcalloc(cmp->nrows + 1, sizeof(char *));
	double *v = xcalloc(2 * cmp->nrows + 2, 3 * sizeof(double));
	double *lo = v + 2 * cmp->nrows + 2, *hi = lo + 2 * cmp->nrows + 2;
	char *wa = who(a), *wb = who(b), *title;
	const char *series[2] = { wa, wb };
	int rc;

	for (size_t i = 0; i < cmp->nrows; i++)
		any_ovh += cmp->rows[i].has_overhead;
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct pcost_compare_row *r = &cmp->rows[i];

		if (r->ia < 0 || r->ib < 0 || (any_ovh && !r->has_overhead))
			continue;
		cats[n] = r->name;
		if (any_ovh) {
			v[2 * n] = r->ovh_a * 100;
			v[2 * n + 1] = r->ovh_b * 100;
			lo[2 * n] = r->ovh_a_lo * 100;
			hi[2 * n] = r->ovh_a_hi * 100;
			lo[2 * n + 1] = r->ovh_b_lo * 100;
			hi[2 * n + 1] = r->ovh_b_hi * 100;
		} else {
			/* Baselines or counter operations: mean time, no whiskers. */
			v[2 * n] = r->mean_a;
			v[2 * n + 1] = r->mean_b;
			lo[2 * n] = hi[2 * n] = lo[2 * n + 1] = hi[2 * n + 1] = NAN;
		}
		n++;
	}
	title = xasprintf("%s: session %lld vs %lld", any_ovh ? "Monitor overhead" : "Mean time",
			  (long long)a->id, (long long)b->id);
	struct pcost_chart_bars c = {
		.title = title,
		.ylabel = any_ovh ? "overhead vs. no monitor (%)" : "mean time (ns)",
		.note = any_ovh ? "whiskers: 95% bootstrap CI of each session's overhead"
				: "bars: mean of the measured samples",
		.ncats = n, .nseries = 2, .cats = cats, .series = series, .v = v, .lo = lo, .hi = hi,
		.log = -1,
	};

	rc = n ? pcost_chart_bars_draw(&c, path, err, errlen) : -ENODATA;
	if (!n)
		snprintf(err, errlen, "no configuration present in both sessions");
	free(title);
	free(wa);
	free(wb);
	free(cats);
	free(v);
	return rc;
}
