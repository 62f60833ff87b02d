// SPDX-License-Identifier: MIT
/* plot: what each session kind (and a comparison) looks like as a chart; drawing in plot_draw.c. */
#include "report/plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "stats/figures.h"
#include "report/plot_chart.h"
#include "report/warnings.h"
#include "stats/stats.h"
#include "store/store.h"
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

static bool several_scales(const struct pcost_session *s)
{
	for (size_t i = 1; i < s->nconfigs; i++)
		if (pcost_config_scale(&s->configs[i]) != pcost_config_scale(&s->configs[0]))
			return true;
	return false;
}

/* " x4" in a --scale session, else "". */
static const char *scale_suffix(const struct pcost_session *s, const struct pcost_config *c,
				char *buf, size_t len)
{
	*buf = 0;
	if (several_scales(s))
		snprintf(buf, len, " x%g", pcost_config_scale(c));
	return buf;
}

/* A probes bar series: the build ("plain"), and its size in a --scale session. */
static char *variant_label(const struct pcost_session *s, const struct pcost_config *c)
{
	char scale[32];

	return xasprintf("%s%s", c->variant ?: "default", scale_suffix(s, c, scale, sizeof(scale)));
}

/* "strace", "pipe: strace", and " x4" after it in a --scale session. */
static char *bar_label(const struct pcost_session *s, const struct pcost_config *c, bool wl)
{
	char scale[32];

	scale_suffix(s, c, scale, sizeof(scale));
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
	title = wl || !s->nconfigs
			? xasprintf("Monitor overhead (%s)", w)
			: xasprintf("Monitor overhead on %s %s (%s)", s->configs[0].workload,
				    s->configs[0].workload_args ? s->configs[0].workload_args : "",
				    w);
	struct pcost_chart_bars c = {
		.title = title,
		.ylabel = "overhead vs. no monitor (%)",
		.note = "bars: mean wall-time overhead; whiskers: 95% interval over paired blocks",
		.ncats = n,
		.nseries = 1,
		.cats = cats,
		.v = v,
		.lo = lo,
		.hi = hi,
		.log = -1,
	};

	rc = n ? pcost_chart_bars_draw(&c, o, err, errlen) : -ENODATA;
	if (!n)
		snprintf(err, errlen,
			 "no monitored configuration with a baseline ('none') to plot");
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
	const char **label = xcalloc(n, sizeof(char *));
	struct names ns = { 0 };
	double *v, *lo, *hi;
	char *title, *w = who(s);
	int rc;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const char *m = s->configs[i].monitor ? s->configs[i].monitor : "?";
		const char *va = label[i] = names_add(&ns, variant_label(s, &s->configs[i]));

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
		k = find_name(vars, nvar, label[i]);
		v[g * nvar + k] = x->per_event_ns;
		lo[g * nvar + k] = x->per_event_ns_lo;
		hi[g * nvar + k] = x->per_event_ns_hi;
	}
	title = xasprintf("Cost per probe hit by method and variant (%s)", w);
	struct pcost_chart_bars c = {
		.title = title,
		.ylabel = "extra time per hit (ns)",
		.note = "bars: extra time in the timed region / hits; whiskers: 95% interval over blocks",
		.ncats = ncat,
		.nseries = nvar,
		.cats = cats,
		.series = vars,
		.v = v,
		.lo = lo,
		.hi = hi,
		.log = -1,
	};

	rc = ncat ? pcost_chart_bars_draw(&c, o, err, errlen) : -ENODATA;
	if (!ncat)
		snprintf(err, errlen,
			 "no armed configuration with hits and a dormant baseline to plot");
	free(title);
	free(w);
	free(cats);
	free(vars);
	free(label);
	names_free(&ns);
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

/* A monitored configuration of a --scale fit, with events: one point of the fit picture. */
static bool fitted(const struct pcost_config_stats *x)
{
	return x->has_fit && x->baseline >= 0 && x->events && isfinite(x->extra_ns) &&
	       x->fit_group >= 0;
}

static char *fit_name(const struct pcost_session *s, const struct pcost_config *c)
{
	const char *m = c->monitor ?: "?";

	if (many_workloads(s))
		return c->variant ? xasprintf("%s: %s %s", c->workload ?: "?", c->variant, m)
				  : xasprintf("%s: %s", c->workload ?: "?", m);
	return c->variant ? xasprintf("%s %s", c->variant, m) : xstrdup(m);
}

/*
 * The intervals of a fit, as analyze gives them (t over per-block fits): the
 * band fans out from the fitted fixed cost with the cost per event's interval
 * (a + b_lo x to a + b_hi x, from 0 to the last point), and a bar at 0 events
 * spans the fixed cost's.
 */
static void fit_band(const struct pcost_config_stats *x, struct pcost_chart_fit_series *f,
		     double *bx, double *blo, double *bhi)
{
	double top = 0;

	f->a_lo = x->fit_fixed_ns_lo;
	f->a_hi = x->fit_fixed_ns_hi;
	if (!isfinite(x->fit_per_event_ns_lo) || !isfinite(x->fit_per_event_ns_hi))
		return;
	for (size_t i = 0; i < f->n; i++)
		top = fmax(top, f->x[i]);
	bx[0] = 0;
	bx[1] = top;
	blo[0] = bhi[0] = f->a;
	blo[1] = f->a + x->fit_per_event_ns_lo * top;
	bhi[1] = f->a + x->fit_per_event_ns_hi * top;
	f->nband = 2;
	f->band_x = bx;
	f->band_lo = blo;
	f->band_hi = bhi;
}

/* --scale: each size's extra time against its events, a panel per fit group with its line. */
static int plot_fit(const struct pcost_session *s, const struct pcost_config_stats *st,
		    struct pcost_plot_out *o, char *err, size_t errlen)
{
	size_t n = s->nconfigs + 1, nf = 0, slab = 2 * n + 6;
	struct pcost_chart_fit_series *fs = xcalloc(n, sizeof(*fs));
	double *x = xcalloc(slab * n, sizeof(double));
	int *group = xcalloc(n, sizeof(int));
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
		while (l < nf && group[l] != st[i].fit_group)
			l++;
		f = &fs[l];
		if (l == nf) {
			group[nf++] = st[i].fit_group;
			f->name = names_add(&ns, fit_name(s, c));
			f->x = x + slab * l;
			f->y = f->x + n;
			f->a = st[i].fit_fixed_ns;
			f->b = st[i].fit_per_event_ns;
			f->a_lo = f->a_hi = NAN;
			if (c->unit)
				evunit = c->unit;
		}
		((double *)f->x)[f->n] = (double)st[i].events;
		((double *)f->y)[f->n] = st[i].extra_ns;
		f->n++;
	}
	for (size_t l = 0; l < nf; l++) {
		double *b = x + slab * l + 2 * n;

		fit_band(&st[group[l]], &fs[l], b, b + 2, b + 4);
	}
	title = xasprintf("Extra time against %ss, with the fit (%s)", evunit, w);
	xlabel = xasprintf("%ss per run", evunit);
	struct pcost_chart_fits c = {
		.title = title,
		.xlabel = xlabel,
		.yname = "extra time",
		.note = s->kind == PCOST_SESSION_PROBES
				? "points: mean extra time over the dormant run of each size; line: fixed + "
				  "per hit x hits; 95% intervals: per hit (band), fixed (bar at 0 hits)"
				: "points: mean extra time over the unmonitored run of each size; line: fixed + "
				  "per event x events; 95% intervals: per event (band), fixed (bar at 0 events)",
		.nseries = nf,
		.series = fs,
	};

	rc = nf ? pcost_chart_fits_draw(&c, o, err, errlen) : -ENODATA;
	if (!nf)
		snprintf(err, errlen, "no monitored configuration with a --scale fit to plot");
	free(title);
	free(xlabel);
	free(w);
	names_free(&ns);
	free(group);
	free(x);
	free(fs);
	return rc;
}

/*
 * A latency distribution among the figures: the ones named PRE p50 POST, PRE p99
 * POST, and where there, PRE p999 POST and PRE max POST (the server's p50_us,
 * wrk's latency_p50, fio's read_clat_p50): k[] their indices (-1: absent).
 */
#define NQ 4
static const char *const q_word[NQ] = { "p50", "p99", "p999", "max" };
/* x = log10(1 / (1 - q)), HdrHistogram's percentile axis; max one decade past p99.9. */
static const double q_x[NQ] = { 0.30103, 2, 3, 4 };

static bool latency_figures(const struct pcost_session *s, int k[NQ])
{
	for (size_t m = 0; m < s->nmetrics; m++) {
		const char *name = s->metrics[m].name, *at = strstr(name, "p50");
		char other[128];

		if (!at || !pcost_figure_measured(s, m))
			continue;
		k[0] = (int)m;
		for (size_t q = 1; q < NQ; q++) {
			snprintf(other, sizeof(other), "%.*s%s%s", (int)(at - name), name,
				 q_word[q], at + 3);
			k[q] = pcost_session_metric_find(s, other);
			if (k[q] >= 0 && !pcost_figure_measured(s, (size_t)k[q]))
				k[q] = -1;
		}
		if (k[1] >= 0)
			return true;
	}
	return false;
}

/* Do the session's configurations differ in their workload's parameters? */
static bool many_args(const struct pcost_session *s)
{
	for (size_t i = 1; i < s->nconfigs; i++)
		if (strcmp(s->configs[i].workload_args ?: "", s->configs[0].workload_args ?: ""))
			return true;
	return false;
}

/*
 * A latency line's name: the monitor ("strace"), after the workload where there
 * are several, and the loop where the parameters differ ("none, open loop at
 * 500/s"), else the parameters themselves.
 */
static char *latency_label(const struct pcost_session *s, const struct pcost_config *c, bool wl)
{
	char *base = bar_label(s, c, wl), *out;
	double rate = pcost_config_rate(c);

	if (!many_args(s))
		return base;
	if (rate > 0)
		out = xasprintf("%s, open loop at %.0f/s", base, rate);
	else if (c->workload && !strcmp(c->workload, "server"))
		out = xasprintf("%s, closed loop", base);
	else
		out = xasprintf("%s, %s", base, c->workload_args ?: "");
	free(base);
	return out;
}

/*
 * run: each configuration's latency percentiles (the mean of its runs', with
 * the mean's 95% interval) on HdrHistogram's percentile axis, a line each,
 * plain beside every monitor.
 */
static int plot_latency(const struct pcost_session *s, const struct pcost_config_stats *st,
			struct pcost_plot_out *o, char *err, size_t errlen)
{
	static const char *const labels[] = { "50%", "90%", "99%", "99.9%", "max" };
	static const double ticks[] = { 0.30103, 1, 2, 3, 4 };
	struct pcost_chart_line_series *ls = xcalloc(s->nconfigs + 1, sizeof(*ls));
	double *arr = xcalloc(4 * NQ * (s->nconfigs + 1), sizeof(double));
	struct pcost_figure_stats *f = NULL;
	bool wl = many_workloads(s), lo_some = false;
	struct names ns = { 0 };
	size_t nl = 0;
	char *title, *ylabel, *w = who(s);
	int k[NQ], rc;

	if (!latency_figures(s, k)) {
		free(ls);
		free(arr);
		free(w);
		return -ENODATA;
	}
	pcost_analyze_figures(s, st, &f);
	for (size_t i = 0; f && i < s->nconfigs; i++) {
		struct pcost_chart_line_series *l = &ls[nl];
		double *x = arr + 4 * NQ * nl;

		l->x = x;
		l->y = x + NQ;
		l->lo = x + 2 * NQ;
		l->hi = x + 3 * NQ;
		for (size_t q = 0; q < NQ; q++) {
			const struct pcost_figure_stats *g =
				k[q] >= 0 ? &f[i * s->nmetrics + (size_t)k[q]] : NULL;

			if (!g || !isfinite(g->mean))
				continue;
			/* Lines side by side: each a little apart, so their bars do not hide. */
			x[l->n] = q_x[q] + 0.03 * ((double)nl - (double)(s->nconfigs - 1) / 2);
			((double *)l->y)[l->n] = g->mean;
			((double *)l->lo)[l->n] = g->mean_lo;
			((double *)l->hi)[l->n] = g->mean_hi;
			lo_some |= isfinite(g->mean_lo);
			l->n++;
		}
		if (!l->n)
			continue;
		l->name = names_add(&ns, latency_label(s, &s->configs[i], wl));
		nl++;
	}
	title = xasprintf("Latency by percentile%s%s, plain and under each monitor (%s)",
			  wl || !s->nconfigs ? "" : " on ",
			  wl || !s->nconfigs ? "" : s->configs[0].workload, w);
	ylabel = xasprintf("latency (%s, log scale)",
			   s->metrics[k[1]].unit[0] ? s->metrics[k[1]].unit : "as printed");
	struct pcost_chart_lines c = {
		.title = title,
		.xlabel = "percentile (log scale of 1/(1-q), as HdrHistogram plots it; max last)",
		.ylabel = ylabel,
		.note = lo_some ? "points: the mean of the runs' percentiles; bars: its 95% interval"
				: "points: the mean of the runs' percentiles",
		.nseries = nl,
		.series = ls,
		.ylog = true,
		.nxticks = ARRAY_SIZE(ticks),
		.xticks = ticks,
		.xtick_labels = labels,
	};

	rc = nl ? pcost_chart_lines_draw(&c, o, err, errlen) : -ENODATA;
	if (!nl)
		snprintf(err, errlen, "no configuration has latency percentiles");
	names_free(&ns);
	free(title);
	free(ylabel);
	free(w);
	free(f);
	free(arr);
	free(ls);
	return rc;
}

static bool has_latency(const struct pcost_session *s, const struct pcost_config_stats *st)
{
	int k[NQ];

	(void)st;
	return s->kind == PCOST_SESSION_RUN && latency_figures(s, k);
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
	{ "latency", "Latency by percentile, plain and under each monitor, with 95% intervals",
	  has_latency, plot_latency },
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
		.ncats = n,
		.nseries = 2,
		.cats = cats,
		.series = series,
		.v = v,
		.lo = lo,
		.hi = hi,
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
