// SPDX-License-Identifier: MIT
/* plot: what each session kind (and a comparison) looks like as a chart; drawing in plot_draw.c. */
#include "report/plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "report/plot_chart.h"
#include "stats/stats.h"
#include "store/db.h"
#include "core/util.h"

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

/* The --scale multiple of a configuration's runs (1 when it has none). */
static double scale_of(const struct pcost_config *c)
{
	return c->nsamples ? c->samples[0].scale : 1;
}

static bool several_scales(const struct pcost_session *s)
{
	for (size_t i = 1; i < s->nconfigs; i++)
		if (scale_of(&s->configs[i]) != scale_of(&s->configs[0]))
			return true;
	return false;
}

/* "strace", "pipe: strace", and " x4" after it in a --scale session. */
static char *bar_label(const struct pcost_session *s, const struct pcost_config *c, bool wl)
{
	char scale[32] = "";

	if (several_scales(s))
		snprintf(scale, sizeof(scale), " x%g", scale_of(c));
	return wl ? xasprintf("%s: %s%s", c->workload ?: "?", c->monitor ?: "?", scale)
		  : xasprintf("%s%s", c->monitor ?: "?", scale);
}

/* run: overhead (%) of each monitored configuration, 95% interval whiskers. */
static int plot_run(const struct pcost_session *s, const struct pcost_config_stats *st,
		    struct pcost_plot_out *o, char *err, size_t errlen)
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
		.note = "bars: mean wall-time overhead; whiskers: 95% interval over paired blocks",
		.ncats = n, .nseries = 1, .cats = cats, .v = v, .lo = lo, .hi = hi, .log = -1,
	};

	rc = n ? pcost_chart_bars_draw(&c, o, err, errlen) : -ENODATA;
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
		       struct pcost_plot_out *o, char *err, size_t errlen)
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

		if (x->baseline < 0 || !isfinite(x->per_event_ns))
			continue;
		g = find_name(cats, ncat, s->configs[i].monitor ? s->configs[i].monitor : "?");
		k = find_name(vars, nvar, s->configs[i].variant ? s->configs[i].variant : "default");
		v[g * nvar + k] = x->per_event_ns;
		lo[g * nvar + k] = x->per_event_ns_lo;
		hi[g * nvar + k] = x->per_event_ns_hi;
	}
	title = xasprintf("Cost per probe hit by method and variant (%s)", w);
	struct pcost_chart_bars c = {
		.title = title,
		.ylabel = "extra time per hit (ns)",
		.note = "bars: extra time in the timed region / hits; whiskers: 95% interval over blocks",
		.ncats = ncat, .nseries = nvar, .cats = cats, .series = vars, .v = v, .lo = lo,
		.hi = hi, .log = -1,
	};

	rc = ncat ? pcost_chart_bars_draw(&c, o, err, errlen) : -ENODATA;
	if (!ncat)
		snprintf(err, errlen, "no armed configuration with hits and a dormant baseline to plot");
	free(title);
	free(w);
	free(cats);
	free(vars);
	free(v);
	return rc;
}

/*
 * The operation a counters plot shows: the whole start+stop+read episode when
 * measured (what self-monitoring code pays, and seed 001's graphs), else the
 * operation most series have.
 */
static const char *counters_op(const struct pcost_session *s)
{
	const char *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < s->nseries; i++) {
		const char *op = s->series[i].op ? s->series[i].op : "";
		size_t n = 0;

		if (!strcmp(op, "start+stop+read") && s->series[i].n)
			return op;
		for (size_t j = 0; j < s->nseries; j++)
			n += s->series[j].n && s->series[j].op && !strcmp(s->series[j].op, op);
		if (n > best_n) {
			best = op;
			best_n = n;
		}
	}
	return best;
}

/* counters: mean ns of one operation against the number of events, a line per interface. */
static int plot_counters(const struct pcost_session *s, const struct pcost_config_stats *st,
			 struct pcost_plot_out *o, char *err, size_t errlen)
{
	struct pcost_chart_line_series *ls = xcalloc(s->nseries + 1, sizeof(*ls));
	/* Per line, up to nseries points of x, y, err: one slab of 3 x nseries each. */
	double *arr = xcalloc(3 * (s->nseries + 1) * (s->nseries + 1), sizeof(double));
	const char *op = counters_op(s);
	size_t nl = 0, stride = s->nseries + 1;
	char *title, *w = who(s);
	int rc;

	for (size_t i = 0; op && i < s->nseries; i++) {
		const struct pcost_counter_series *x = &s->series[i];
		const char *itf = x->interface ? x->interface : "?";
		struct pcost_summary sum;
		size_t l, m;

		if (!x->n || !x->op || strcmp(x->op, op))
			continue;
		for (l = 0; l < nl && strcmp(ls[l].name, itf); l++)
			;
		if (l == nl) {
			ls[nl].name = itf;
			ls[nl].x = arr + 3 * stride * nl;
			ls[nl].y = ls[nl].x + stride;
			ls[nl].err = ls[nl].y + stride;
			nl++;
		}
		pcost_summarize(x->ns, x->n, &sum);
		/* Insert in order of k. */
		for (m = ls[l].n; m > 0 && ls[l].x[m - 1] > x->nevents; m--) {
			((double *)ls[l].x)[m] = ls[l].x[m - 1];
			((double *)ls[l].y)[m] = ls[l].y[m - 1];
			((double *)ls[l].err)[m] = ls[l].err[m - 1];
		}
		((double *)ls[l].x)[m] = x->nevents;
		((double *)ls[l].y)[m] = sum.mean;
		((double *)ls[l].err)[m] = sum.sd;
		ls[l].n++;
	}
	title = xasprintf("Counter %s cost by number of events (%s)", op ? op : "operation", w);
	struct pcost_chart_lines c = {
		.title = title,
		.xlabel = "events counted at once (k)",
		.ylabel = "time per operation (ns)",
		.note = "points: mean of every sample; bars: one standard deviation (clipped at the top); "
			"other operations: probecost report ID",
		.nseries = nl,
		.series = ls,
	};

	rc = nl ? pcost_chart_lines_draw(&c, o, err, errlen) : -ENODATA;
	if (!nl)
		snprintf(err, errlen, "no counter series with samples to plot");
	free(title);
	free(w);
	free(ls);
	free(arr);
	return rc;
}

/* The fit group of a configuration: same workload, monitor and variant (as analyze.c fits). */
static bool same_fit(const struct pcost_config *a, const struct pcost_config *b)
{
	return !strcmp(a->workload ?: "", b->workload ?: "") &&
	       !strcmp(a->monitor ?: "", b->monitor ?: "") && !strcmp(a->variant ?: "", b->variant ?: "");
}

/* A monitored configuration of a --scale fit, with events: one point of the fit picture. */
static bool fitted(const struct pcost_config_stats *x)
{
	return x->has_fit && x->baseline >= 0 && x->events && isfinite(x->extra_ns);
}

static char *fit_name(const struct pcost_session *s, const struct pcost_config *c)
{
	const char *m = c->monitor ?: "?";

	if (many_workloads(s))
		return c->variant ? xasprintf("%s: %s %s", c->workload ?: "?", c->variant, m)
				  : xasprintf("%s: %s", c->workload ?: "?", m);
	return c->variant ? xasprintf("%s %s", c->variant, m) : xstrdup(m);
}

/* --scale: each size's extra time against its events, a series per fit with its line. */
static int plot_fit(const struct pcost_session *s, const struct pcost_config_stats *st,
		    struct pcost_plot_out *o, char *err, size_t errlen)
{
	size_t n = s->nconfigs + 1, nf = 0;
	struct pcost_chart_fit_series *fs = xcalloc(n, sizeof(*fs));
	double *x = xcalloc(2 * n * n, sizeof(double));
	size_t *first = xcalloc(n, sizeof(size_t));
	const char *evunit = "event";
	struct names ns = { 0 };
	char *title, *xlabel, *w = who(s);
	int rc;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		struct pcost_chart_fit_series *f;
		size_t l = 0;

		if (!fitted(&st[i]))
			continue;
		while (l < nf && !same_fit(&s->configs[first[l]], c))
			l++;
		f = &fs[l];
		if (l == nf) {
			first[nf++] = i;
			f->name = names_add(&ns, fit_name(s, c));
			f->x = x + 2 * n * l;
			f->y = f->x + n;
			f->a = st[i].fit_fixed_ns;
			f->b = st[i].fit_per_event_ns;
			evunit = c->unit ?: evunit;
		}
		((double *)f->x)[f->n] = (double)st[i].events;
		((double *)f->y)[f->n] = st[i].extra_ns;
		f->n++;
	}
	title = xasprintf("Extra time against %ss, with the fit (%s)", evunit, w);
	xlabel = xasprintf("%ss per run", evunit);
	struct pcost_chart_fits c = {
		.title = title, .xlabel = xlabel, .yname = "extra time",
		.note = s->kind == PCOST_SESSION_PROBES
				? "points: mean extra time over the dormant run of the same size; line: "
				  "least-squares fit extra = fixed + per hit x hits over every run"
				: "points: mean extra time over the unmonitored run of the same size; line: "
				  "least-squares fit extra = fixed + per event x events over every run",
		.nseries = nf, .series = fs,
	};

	rc = nf ? pcost_chart_fits_draw(&c, o, err, errlen) : -ENODATA;
	if (!nf)
		snprintf(err, errlen, "no monitored configuration with a --scale fit to plot");
	free(title);
	free(xlabel);
	free(w);
	names_free(&ns);
	free(first);
	free(x);
	free(fs);
	return rc;
}

static bool has_fit(const struct pcost_session *s, const struct pcost_config_stats *st)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		if (fitted(&st[i]))
			return true;
	return false;
}

static bool kind_run(const struct pcost_session *s, const struct pcost_config_stats *st)
{
	return s->kind == PCOST_SESSION_RUN;
}

static bool kind_probes(const struct pcost_session *s, const struct pcost_config_stats *st)
{
	return s->kind == PCOST_SESSION_PROBES;
}

static bool kind_counters(const struct pcost_session *s, const struct pcost_config_stats *st)
{
	return s->kind == PCOST_SESSION_COUNTERS;
}

/* A session's figures, the one people look at first first (what --plot draws). */
static const struct figure {
	const char *name, *caption;
	bool (*applies)(const struct pcost_session *s, const struct pcost_config_stats *st);
	int (*draw)(const struct pcost_session *s, const struct pcost_config_stats *st,
		    struct pcost_plot_out *o, char *err, size_t errlen);
} figures[] = {
	{ "fit", "Extra time against events over the --scale sizes, with the fitted line", has_fit,
	  plot_fit },
	{ "overhead", "Overhead of each monitor, with its 95% interval", kind_run, plot_run },
	{ "per-hit", "Cost per probe hit by method and build, with intervals", kind_probes,
	  plot_probes },
	{ "counters", "Counter cost against the number of events, per interface", kind_counters,
	  plot_counters },
};

/* Statistics for the figures: none for counters (their series are the figures). */
static int stats_of(const struct pcost_session *s, struct pcost_config_stats **st, char *err,
		    size_t errlen)
{
	int rc;

	*st = NULL;
	if (s->kind == PCOST_SESSION_COUNTERS)
		return 0;
	if ((rc = pcost_analyze(s, st)))
		snprintf(err, errlen, "could not analyze session %lld: %s", (long long)s->id,
			 strerror(-rc));
	return rc;
}

int pcost_plot_session(const struct pcost_session *s, const char *path, char *err, size_t errlen)
{
	struct pcost_plot_out o = { .path = path };
	struct pcost_config_stats *st;
	int rc = -ENODATA;

	if (pcost_plot_format_of(path) < 0) {
		snprintf(err, errlen, "the file name must end in .png, .svg or .pdf");
		return -EINVAL;
	}
	if ((rc = stats_of(s, &st, err, errlen)))
		return rc;
	rc = -ENODATA;
	snprintf(err, errlen, "nothing to plot in a %s session", pcost_session_kind_name(s->kind));
	for (size_t i = 0; i < ARRAY_SIZE(figures) && rc == -ENODATA; i++)
		if (figures[i].applies(s, st))
			rc = figures[i].draw(s, st, &o, err, errlen);
	free(st);
	return rc;
}

int pcost_plot_figures(const struct pcost_session *s, struct pcost_figure **out, size_t *n,
		       char *err, size_t errlen)
{
	struct pcost_config_stats *st;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = stats_of(s, &st, err, errlen)))
		return rc;
	*out = xcalloc(ARRAY_SIZE(figures), sizeof(**out));
	for (size_t i = 0; i < ARRAY_SIZE(figures) && !rc; i++) {
		struct pcost_plot_out o = { 0 };

		if (!figures[i].applies(s, st))
			continue;
		rc = figures[i].draw(s, st, &o, err, errlen);
		if (rc == -ENODATA) {
			rc = 0;
			continue;
		}
		if (rc)
			break;
		(*out)[*n].name = figures[i].name;
		(*out)[*n].caption = figures[i].caption;
		(*out)[*n].svg = o.svg;
		(*out)[*n].len = o.svglen;
		(*n)++;
	}
	free(st);
	if (rc) {
		pcost_figures_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void pcost_figures_free(struct pcost_figure *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i].svg);
	free(f);
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
	struct pcost_plot_out o = { .path = path };
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
		.note = any_ovh ? "whiskers: 95% interval of each session's overhead"
				: "bars: mean of the measured samples",
		.ncats = n, .nseries = 2, .cats = cats, .series = series, .v = v, .lo = lo, .hi = hi,
		.log = -1,
	};

	rc = n ? pcost_chart_bars_draw(&c, &o, err, errlen) : -ENODATA;
	if (!n)
		snprintf(err, errlen, "no configuration present in both sessions");
	free(title);
	free(wa);
	free(wb);
	free(cats);
	free(v);
	return rc;
}
