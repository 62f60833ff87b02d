// SPDX-License-Identifier: MIT
/* run_warnings: CPU far below elapsed, a slow first block, high CoV, outliers, lost events, failures. */
#include "report/warnings.h"

#include "report/emit.h"
#include "stats/figures.h"
#include "core/util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thresholds: judgement calls, stated in docs/run.md (Warnings). */
#define LOW_CPU 0.5	/* user+sys below half of elapsed: the runs mostly waited */
#define SLOW_FIRST 1.25 /* first block 25% slower than the median of the rest */
#define HIGH_COV 0.10	/* sd/mean above 10% */
#define MIN_BLOCKS 10	/* fewer paired blocks than this: say the CI is rough */
#define BUSY_OTHER 0.10 /* CPU time outside the study above 10% of a run's wall time */
#define BUSY_STEAL 0.01 /* steal above 1% of a run's wall time */

static void vadd(struct pcost_run_warnings *w, enum pcost_warn_kind kind, double value,
		 const char *fmt, va_list ap)
{
	if (w->n >= PCOST_RUN_MAX_WARNINGS)
		return;
	w->kind[w->n] = kind;
	w->value[w->n] = value;
	vsnprintf(w->msg[w->n++], sizeof(w->msg[0]), fmt, ap);
}

static void add(struct pcost_run_warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct pcost_run_warnings *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(w, PCOST_WARN_OTHER, NAN, fmt, ap);
	va_end(ap);
}

/* An advisory warning (warnings.h), with the figure it is about. */
static void advise(struct pcost_run_warnings *w, enum pcost_warn_kind kind, double value,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void advise(struct pcost_run_warnings *w, enum pcost_warn_kind kind, double value,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(w, kind, value, fmt, ap);
	va_end(ap);
}

/*
 * One line for the whole session: how much CPU time processes outside the
 * study took on the runs' CPUs (run/busy.h: the study's own process tree,
 * its monitors and probecost included, is not counted; kernel threads are),
 * as a share of the runs' wall time, from the least to the most busy
 * configuration (JSON has each), when any passes the thresholds; such runs
 * carry the others' interference.  Configurations whose runs were too short
 * for the figure (JSON null) are named, with why.
 */
static void busy_warning(const struct pcost_session *s, const struct pcost_config_stats *st,
			 struct pcost_run_warnings *w)
{
	double lo = INFINITY, hi = -INFINITY, steal = 0;
	size_t ilo = 0, ihi = 0, n = 0, len = 0;
	char shorts[160] = "";

	for (size_t i = 0; i < s->nconfigs; i++) {
		double o = st[i].other_cpu_ns / st[i].wall.mean,
		       t = st[i].steal_ns / st[i].wall.mean;

		/* Measured runs without a figure: too short for /proc/stat's ticks (run/busy.h). */
		if (st[i].nok && !isfinite(o) && len < sizeof(shorts))
			len += (size_t)snprintf(shorts + len, sizeof(shorts) - len,
						"%s%s on %s (%.0f ms)", len ? ", " : "",
						s->configs[i].monitor, s->configs[i].workload,
						st[i].wall.mean / 1e6);
		if (!st[i].nok || !isfinite(o))
			continue;
		if (o < lo)
			lo = o, ilo = i;
		if (o > hi)
			hi = o, ihi = i;
		steal = fmax(steal, t);
		n += o > BUSY_OTHER || t > BUSY_STEAL;
	}
	if (n)
		add(w,
		    "busy machine: processes outside this study took CPU time equal to %.0f%% (%s on "
		    "%s) to %.0f%% (%s on %s) of the runs' wall time on their CPUs (the study's own "
		    "monitors and probecost not counted; kernel threads are), steal up to %.1f%%: the "
		    "timings carry their interference%s%s%s",
		    100 * lo, s->configs[ilo].monitor, s->configs[ilo].workload, 100 * hi,
		    s->configs[ihi].monitor, s->configs[ihi].workload, 100 * steal,
		    shorts[0] ? "; not measured for " : "", shorts,
		    shorts[0] ? ": runs too short for /proc/stat's clock ticks" : "");
}

/*
 * A mean-based figure and its robust companion disagree (analyze.h *_skewed):
 * say both, and which side the few runs that carry the mean are on; also, the
 * figures that share its per-block values and are skewed with it ("" for none).
 */
static void skew_warning(struct pcost_run_warnings *w, const char *who, const char *what,
			 const char *mean, const char *robust, bool mean_higher, const char *also)
{
	add(w, "%s: %s mean %s, robust %s (Hodges-Lehmann): the cost is skewed%s; %s", who, what,
	    mean, robust, also,
	    mean_higher ? "rare slow runs carry the mean"
			: "rare slow baseline runs pull the mean down");
}

static void skew_pct(struct pcost_run_warnings *w, const char *who, const char *what, double v,
		     double lo, double hi, double r, double rlo, double rhi, const char *also)
{
	char m[64], b[64];

	pcost_text_pct_ci(v, lo, hi, true, m, sizeof(m));
	pcost_text_pct_ci(r, rlo, rhi, true, b, sizeof(b));
	skew_warning(w, who, what, m, b, v > r, also);
}

static void skew_ns(struct pcost_run_warnings *w, const char *who, const char *what,
		    const char *per, double v, double lo, double hi, double r, double rlo,
		    double rhi)
{
	char m[96], b[96];
	/* One unit for both figures: the largest of the six chooses it. */
	double at = fmax(fmax(fabs(v), fabs(r)),
			 fmax(fmax(fabs(lo), fabs(hi)), fmax(fabs(rlo), fabs(rhi))));

	pcost_text_ns_ci_at(v, lo, hi, at, per, m, sizeof(m));
	pcost_text_ns_ci_at(r, rlo, rhi, at, per, b, sizeof(b));
	skew_warning(w, who, what, m, b, v > r, "");
}

/*
 * A --metric figure's (or the service's CPU time's) change against the baseline
 * and its robust companion disagree: the same test and line as the overhead's,
 * where a few runs may sit on either side (a figure may be better higher).
 */
static void figure_skew(struct pcost_run_warnings *w, const char *who, const char *what,
			const struct pcost_figure_stats *x)
{
	char m[64], b[64];

	if (x->baseline || !x->change_skewed || !isfinite(x->change_robust))
		return;
	pcost_text_pct_ci(x->change, x->change_lo, x->change_hi, true, m, sizeof(m));
	pcost_text_pct_ci(x->change_robust, x->change_robust_lo, x->change_robust_hi, true, b,
			  sizeof(b));
	add(w,
	    "%s: %s change mean %s, robust %s (Hodges-Lehmann): the change is skewed; a few "
	    "runs carry the mean",
	    who, what, m, b);
}

static void figures_skew(const struct pcost_session *s, const struct pcost_config_stats *st,
			 struct pcost_run_warnings *w)
{
	struct pcost_figure_stats *f = NULL, *svc = NULL;
	bool service = pcost_service_measured(s);
	char who[160];

	pcost_analyze_figures(s, st, &f);
	if (service)
		pcost_analyze_service_cpu(s, st, &svc);
	for (size_t i = 0; i < s->nconfigs; i++) {
		snprintf(who, sizeof(who), "%s on %s", s->configs[i].monitor,
			 s->configs[i].workload);
		for (size_t k = 0; f && k < s->nmetrics; k++)
			if (pcost_figure_measured(s, k))
				figure_skew(w, who, s->metrics[k].name, &f[i * s->nmetrics + k]);
		if (svc)
			figure_skew(w, who, "service CPU", &svc[i]);
	}
	free(f);
	free(svc);
}

bool pcost_config_arg(const struct pcost_config *c, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);

	for (const char *a = c->workload_args; a && *a; a += strcspn(a, " "), a += *a == ' ')
		if (!strncmp(a, key, n) && a[n] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(a + n + 1, " "), a + n + 1);
			return true;
		}
	snprintf(buf, len, "%s", "");
	return false;
}

bool pcost_config_layout(const struct pcost_config *c, char *buf, size_t len)
{
	if (pcost_config_arg(c, "layout", buf, len))
		return true;
	snprintf(buf, len, "default");
	return false;
}

double pcost_config_rate(const struct pcost_config *c)
{
	char v[32];

	if (!c->workload || (strcmp(c->workload, "server") && strcmp(c->workload, "http")) ||
	    !pcost_config_arg(c, "rate", v, sizeof(v)))
		return 0;
	return strtod(v, NULL);
}

/*
 * An open loop's runs that did not keep the rate asked (below 97% of it): the
 * service, or the generator, fell behind, and the latencies are those of a queue
 * that grew through the run, not of the rate asked.
 */
#define RATE_KEPT 0.97

static void rate_warning(const struct pcost_session *s, struct pcost_run_warnings *w)
{
	int k = pcost_session_metric_find(s, "throughput");

	for (size_t i = 0; i < s->nconfigs && k >= 0; i++) {
		const struct pcost_config *c = &s->configs[i];
		double rate = pcost_config_rate(c), least = INFINITY;
		size_t behind = 0, runs = 0;

		for (size_t j = 0; rate > 0 && j < c->nsamples; j++) {
			const struct pcost_run_sample *x = &c->samples[j];
			double v = x->metrics ? x->metrics[k] : NAN;

			if (x->warmup || x->failed || !isfinite(v))
				continue;
			runs++;
			behind += v < RATE_KEPT * rate;
			least = fmin(least, v);
		}
		if (behind)
			add(w,
			    "%s on %s: %zu of %zu runs could not keep rate=%.0f requests/s (the "
			    "least achieved %.0f/s, %.0f%%): their latencies are of a queue that grew "
			    "through the run, not of the rate asked",
			    c->monitor, c->workload, behind, runs, rate, least, 100 * least / rate);
	}
}

/*
 * A build measured at several code layouts (build b, its first layout's row):
 * one line for the layouts whose dormant cost per hit is skewed, naming them and
 * showing the one whose mean and robust figure lie furthest apart, in place of a
 * line per layout (ten on the stanford workload).
 */
static void dormant_layouts_skew(const struct pcost_session *s, const struct pcost_config_stats *st,
				 size_t b, const char *who, struct pcost_run_warnings *w)
{
	char names[256] = "", one[32], m[96], r[96];
	size_t k = 0, worst = b, at = 0;
	double gap = -1;

	for (size_t j = b; j < s->nconfigs; j++) {
		const struct pcost_config_stats *y = &st[j];

		if (y->dormant_build != (int)b || !y->dormant_skewed)
			continue;
		pcost_config_layout(&s->configs[j], one, sizeof(one));
		at += (size_t)snprintf(names + at, at < sizeof(names) ? sizeof(names) - at : 0,
				       "%s%s", k ? " " : "", one);
		if (at >= sizeof(names))
			at = sizeof(names);
		if (fabs(y->dormant_per_hit_ns - y->dormant_per_hit_ns_robust) > gap)
			gap = fabs(y->dormant_per_hit_ns - y->dormant_per_hit_ns_robust), worst = j;
		k++;
	}
	if (!k)
		return;
	if (k == st[b].dormant_layouts)
		snprintf(names, sizeof(names), "all"); /* ten names would not leave room */
	pcost_config_layout(&s->configs[worst], one, sizeof(one));
	pcost_text_ns_ci(st[worst].dormant_per_hit_ns, st[worst].dormant_per_hit_ns_lo,
			 st[worst].dormant_per_hit_ns_hi, "hit", m, sizeof(m));
	pcost_text_ns_ci(st[worst].dormant_per_hit_ns_robust,
			 st[worst].dormant_per_hit_ns_robust_lo,
			 st[worst].dormant_per_hit_ns_robust_hi, "hit", r, sizeof(r));
	add(w,
	    "%s: dormant per hit skewed at %zu of %zu layouts (%s): a few blocks carry those "
	    "layouts' means; furthest apart, %s: mean %s, robust %s (Hodges-Lehmann)",
	    who, k, st[b].dormant_layouts, names, one, m, r);
}

/* An interval's longer arm wider than asked (want > 0), up to rounding. */
static bool wider_than(double arm, double want)
{
	return want > 0 && isfinite(arm) && arm > want * (1 + 1e-9);
}

/*
 * The adaptive dormant study (probes --via dormant, options precision_ns) stops
 * at its plan or at --max-time, whichever comes first: a build whose interval
 * over its layouts is still wider than asked on either side is named, with the
 * layouts' spread, which no block count narrows.
 */
static void dormant_precision(const struct pcost_session *s, const struct pcost_config_stats *st,
			      size_t b, struct pcost_run_warnings *w)
{
	const struct pcost_config_stats *x = &st[b];
	double want = pcost_option_number(s, "precision_ns"), arm;
	char ci[96];

	arm = pcost_longer_arm(x->dormant_all_per_hit_ns, x->dormant_all_per_hit_ns_lo,
			       x->dormant_all_per_hit_ns_hi);
	if (!wider_than(arm, want))
		return;
	pcost_text_ns_ci(x->dormant_all_per_hit_ns, x->dormant_all_per_hit_ns_lo,
			 x->dormant_all_per_hit_ns_hi, "hit", ci, sizeof(ci));
	add(w,
	    "%s: dormant per hit over its %zu layouts %s is not within the +-%.3g ns asked "
	    "(an arm of %.3g) after %zu blocks (the pilot's plan, within --max-time %g s); "
	    "the layouts' spread (%.2f .. %.2f ns) is part of that width",
	    s->configs[b].variant ? s->configs[b].variant : "-", x->dormant_layouts, ci, want, arm,
	    x->nok, pcost_option_number(s, "max_time_s"), x->dormant_spread_min,
	    x->dormant_spread_max);
}

/* Points to three figures, never in exponent form ("1417", not "1.42e+03"). */
static int fmt_points(char *buf, size_t len, double points)
{
	return fabs(points) >= 1000 ? snprintf(buf, len, "%.0f", points)
				    : snprintf(buf, len, "%.3g", points);
}

/*
 * The adaptive run (options runs 0, precision and precision_rel fractions)
 * plans its blocks once from the pilot, within --max-runs and --max-time: the
 * overheads whose intervals are still wider than asked on either side are
 * named in one line, the widest first (an unbounded one first of all), with
 * the limits, so that a silent stop at a limit does not read as the precision
 * met.  With a relative ask each name says what it was asked ("24.8 of 12"):
 * the ask differs by overhead.
 */
static void run_precision(const struct pcost_session *s, const struct pcost_config_stats *st,
			  struct pcost_run_warnings *w)
{
	double pp = pcost_option_number(s, "precision"),
	       rel = pcost_option_number(s, "precision_rel");
	double arm[64], want[64];
	size_t idx[64], n = 0, blocks = 0, more = 0, off = 0, cap;
	char list[160] = "", tail[24] = "", asked[80], head[200];
	const char *end = "; raise a limit or the precision";

	if (pcost_option_number(s, "runs") != 0)
		return;
	pp = isfinite(pp) ? pp : 0;
	rel = isfinite(rel) ? rel : 0; /* sessions stored before --precision-rel */
	for (size_t i = 0; i < s->nconfigs && n < ARRAY_SIZE(idx); i++) {
		double a = pcost_longer_arm(st[i].overhead, st[i].overhead_lo, st[i].overhead_hi);
		double wi = pcost_precision_want(pp, rel, st[i].overhead);

		if (st[i].baseline < 0 || !isfinite(st[i].overhead))
			continue;
		if (isnan(a))
			a = INFINITY; /* an unbounded interval: wider than any precision */
		if (!(wi > 0 && a > wi * (1 + 1e-9)))
			continue;
		/* insertion, widest first */
		size_t k = n++;

		for (; k > 0 && arm[k - 1] < a; k--)
			arm[k] = arm[k - 1], want[k] = want[k - 1], idx[k] = idx[k - 1];
		arm[k] = a, want[k] = wi, idx[k] = i;
		blocks = st[i].npairs > blocks ? st[i].npairs : blocks;
	}
	if (!n)
		return;
	if (rel <= 0)
		snprintf(asked, sizeof(asked), "--precision +-%.3g points", 100 * pp);
	else if (pp <= 0)
		snprintf(asked, sizeof(asked), "--precision-rel +-%.3g%% of itself", 100 * rel);
	else
		snprintf(asked, sizeof(asked), "+-%.3g points or %.3g%% of itself", 100 * pp,
			 100 * rel);
	snprintf(head, sizeof(head),
		 "overhead wider than %s after %zu blocks (--max-runs %g, --max-time %g s), "
		 "longer arm: ",
		 asked, blocks, pcost_option_number(s, "max_runs"),
		 pcost_option_number(s, "max_time_s"));
	/* The names fill what the line has left; the rest are counted. */
	cap = sizeof(w->msg[0]) - strlen(head) - strlen(end) - sizeof(tail);
	cap = cap < sizeof(list) ? cap : sizeof(list);
	for (size_t k = 0; k < n; k++) {
		const struct pcost_config *c = &s->configs[idx[k]];
		char a[48];
		int len;

		if (isinf(arm[k]))
			snprintf(a, sizeof(a), "unbounded");
		else
			fmt_points(a, sizeof(a), 100 * arm[k]);
		if (rel > 0 && strlen(a) + 4 < sizeof(a)) {
			snprintf(a + strlen(a), sizeof(a) - strlen(a), " of ");
			fmt_points(a + strlen(a), sizeof(a) - strlen(a), 100 * want[k]);
		}
		len = snprintf(list + off, cap - off, "%s%s on %s (%s)", k ? ", " : "", c->monitor,
			       c->workload, a);

		if (len < 0 || (size_t)len >= cap - off) {
			list[off] = 0;
			more = n - k;
			break;
		}
		off += (size_t)len;
	}
	if (more)
		snprintf(tail, sizeof(tail), "%s%zu more", off ? " and " : "", more);
	add(w, "%s%s%s%s", head, list, tail, end);
}

/* "1.80x [1.70, 1.90]", or without brackets when there is no interval. */
static void fmt_gain(double v, double lo, double hi, char *buf, size_t len)
{
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, len, "%.2fx [%.2f, %.2f]", v, lo, hi);
	else
		snprintf(buf, len, "%.2fx", v);
}

/* Runs right after this monitor's differ from those after a baseline run (analyze.h carry_over). */
static void carry_warning(const struct pcost_session *s, const struct pcost_config_stats *x,
			  const char *who, struct pcost_run_warnings *w)
{
	const char *base = s->configs[x->baseline].monitor;

	if (!x->carry_over_significant)
		return;
	if (x->carry_over > 0)
		add(w,
		    "%s: carry-over: runs right after it took %+.1f%% [%+.1f, %+.1f] longer than "
		    "after %s or first (p = %.2g; %zu and %zu runs): what it leaves behind slows "
		    "the next run; the baseline pays part of it and its overhead is understated%s",
		    who, 100 * x->carry_over, 100 * x->carry_over_lo, 100 * x->carry_over_hi, base,
		    x->carry_over_p, x->carry_after, x->carry_clean,
		    pcost_option_number(s, "washout") > 0
			    ? " (after the --washout runs between)"
			    : " (--washout N runs N plain runs between, unmeasured)");
	else
		add(w,
		    "%s: carry-over: runs right after it took %+.1f%% [%+.1f, %+.1f] less than "
		    "after %s or first (p = %.2g; %zu and %zu runs): the order of the runs matters; "
		    "the overheads are biased",
		    who, 100 * x->carry_over, 100 * x->carry_over_lo, 100 * x->carry_over_hi, base,
		    x->carry_over_p, x->carry_after, x->carry_clean);
}

void pcost_stat_warnings(const struct pcost_session *s, const struct pcost_config_stats *st,
			 struct pcost_run_warnings *w)
{
	bool probes = s->kind == PCOST_SESSION_PROBES;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *x = &st[i];
		char who[160];

		if (probes)
			snprintf(who, sizeof(who), "%s/%s", c->variant ? c->variant : "-",
				 c->monitor);
		else
			snprintf(who, sizeof(who), "%s on %s", c->monitor, c->workload);
		/*
		 * The extra time is the overhead's numerator, the same per-block
		 * differences: skewed with it, it is named on the overhead's line.
		 */
		if (x->overhead_skewed)
			skew_pct(w, who, "overhead", x->overhead, x->overhead_lo, x->overhead_hi,
				 x->overhead_robust, x->overhead_robust_lo, x->overhead_robust_hi,
				 x->extra_skewed ? ", and the extra time a run with it" : "");
		else if (x->extra_skewed)
			skew_ns(w, who, "extra time", "run", x->extra_ns, x->extra_ns_lo,
				x->extra_ns_hi, x->extra_ns_robust, x->extra_ns_robust_lo,
				x->extra_ns_robust_hi);
		if (x->per_event_skewed)
			skew_ns(w, who, probes ? "per hit" : "per event", probes ? "hit" : c->unit,
				x->per_event_ns, x->per_event_ns_lo, x->per_event_ns_hi,
				x->per_event_ns_robust, x->per_event_ns_robust_lo,
				x->per_event_ns_robust_hi);
		if (x->fixed_skewed)
			skew_ns(w, who, "fixed", "run", x->fixed_ns, x->fixed_ns_lo, x->fixed_ns_hi,
				x->fixed_ns_robust, x->fixed_ns_robust_lo, x->fixed_ns_robust_hi);
		if (x->noprobe >= 0 && x->dormant_build == (int)i)
			dormant_precision(s, st, i, w);
		if (x->dormant_layouts > 1 && x->dormant_build == (int)i)
			dormant_layouts_skew(s, st, i, who, w);
		else if (x->dormant_skewed && x->dormant_layouts <= 1)
			skew_ns(w, who, "dormant per hit", "hit", x->dormant_per_hit_ns,
				x->dormant_per_hit_ns_lo, x->dormant_per_hit_ns_hi,
				x->dormant_per_hit_ns_robust, x->dormant_per_hit_ns_robust_lo,
				x->dormant_per_hit_ns_robust_hi);
		if (x->baseline >= 0)
			carry_warning(s, x, who, w);
		if (x->site_gain_skewed) {
			char m[64], r[64];

			fmt_gain(x->site_gain, x->site_gain_lo, x->site_gain_hi, m, sizeof(m));
			fmt_gain(x->site_gain_robust, x->site_gain_robust_lo,
				 x->site_gain_robust_hi, r, sizeof(r));
			/* A few slow blocks: nop's raise the gain, this site's lower it. */
			add(w,
			    "%s: gain against nop mean %s, robust %s (Hodges-Lehmann): the cost "
			    "per hit is skewed; a few blocks carry the mean",
			    who, m, r);
		}
	}
	if (!probes) {
		rate_warning(s, w);
		figures_skew(s, st, w);
		run_precision(s, st, w);
	}
}

void pcost_run_warnings(const struct pcost_session *s, const struct pcost_config_stats *st,
			struct pcost_run_warnings *w)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	cJSON *cpu = cJSON_GetObjectItemCaseSensitive(o, "cpu"); /* cJSON: NULL when o is */
	bool pinned = cJSON_IsString(cpu) && cpu->valuestring[0];

	cJSON_Delete(o);
	size_t fewest = SIZE_MAX, ifewest = 0;

	w->n = 0;
	if (!s->complete)
		add(w, "the run was interrupted: these are the blocks measured so far");
	busy_warning(s, st, w);
	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].baseline >= 0 && st[i].nok && st[i].nok < fewest)
			fewest = st[i].nok, ifewest = i;
	/*
	 * bench/coverage.sh checks the intervals' coverage under skewed costs at
	 * MIN_BLOCKS blocks, not below.  Where failed runs made the count short,
	 * the fix is not a larger --runs (the default study runs MIN_BLOCKS).
	 */
	if (fewest < MIN_BLOCKS && st[ifewest].nfailed)
		add(w,
		    "only %zu measured block%s for %s on %s (%zu run%s failed): the intervals are "
		    "checked for coverage from %d blocks (bench/coverage.sh)",
		    fewest, fewest == 1 ? "" : "s", s->configs[ifewest].monitor,
		    s->configs[ifewest].workload, st[ifewest].nfailed,
		    st[ifewest].nfailed == 1 ? "" : "s", MIN_BLOCKS);
	else if (fewest < MIN_BLOCKS)
		add(w,
		    "only %zu measured block%s: the intervals are checked for coverage from %d "
		    "blocks (bench/coverage.sh); use --runs %d or more",
		    fewest, fewest == 1 ? "" : "s", MIN_BLOCKS, MIN_BLOCKS);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *x = &st[i];
		const char *m = c->monitor, *wl = c->workload;
		double first = -1, med = x->wall.median;

		if (x->nfailed) {
			const char *why = "";

			for (size_t k = 0; k < c->nsamples; k++)
				if (c->samples[k].failed)
					why = c->samples[k].fail_reason;
			add(w, "%s on %s: %zu run%s failed and %s not averaged in (last: %s)", m,
			    wl, x->nfailed, x->nfailed == 1 ? "" : "s",
			    x->nfailed == 1 ? "was" : "were", why);
		}
		if (!x->nok)
			continue;
		if (x->cpu_util < LOW_CPU)
			advise(w, PCOST_WARN_LOW_CPU, x->cpu_util,
			       "%s on %s: CPU use was %.0f%% of elapsed: the runs mostly waited "
			       "(sleeping, blocked on I/O or a monitor%s)",
			       m, wl, 100 * x->cpu_util,
			       pinned ? "" : ", or waking tasks on another CPU: try --cpu 0");
		if (x->wall.cov > HIGH_COV)
			advise(w, PCOST_WARN_HIGH_COV, x->wall.cov,
			       "%s on %s: high variation (CoV %.0f%%): pin with --cpu, quiet the "
			       "machine, or add runs",
			       m, wl, 100 * x->wall.cov);
		if (x->noutliers)
			advise(w, PCOST_WARN_OUTLIERS, (double)x->noutliers,
			       "%s on %s: %zu outlier run%s (modified z-score > 3.5), kept in the "
			       "statistics",
			       m, wl, x->noutliers, x->noutliers == 1 ? "" : "s");
		/* The first measured block (after any warm-up) against the rest. */
		for (size_t k = 0, fb = SIZE_MAX; k < c->nsamples; k++)
			if (!c->samples[k].failed && !c->samples[k].warmup &&
			    c->samples[k].block < fb) {
				fb = c->samples[k].block;
				first = (double)c->samples[k].wall_ns;
			}
		if (first > 0 && med > 0 && first > SLOW_FIRST * med && x->nok >= 3)
			advise(w, PCOST_WARN_SLOW_FIRST, first / med,
			       "%s on %s: the first measured block was %.0f%% slower than the median "
			       "(cold caches, page cache, CPU frequency)%s",
			       m, wl, 100 * (first / med - 1),
			       c->nsamples && c->samples[0].warmup ? "; try more --warmup"
								   : "; try --warmup 1");
		if (x->has_lost && x->lost_events > 0)
			add(w,
			    "%s on %s: the monitor saw %lld syscalls of the %llu the workload "
			    "made: %lld lost",
			    m, wl, (long long)x->monitor_events, (unsigned long long)x->events,
			    (long long)x->lost_events);
		if (x->model_disagrees)
			add(w,
			    "%s on %s: per event, the model (extra less the null run's) gives %.0f "
			    "[%.0f, %.0f] ns and the --scale fit %.0f [%.0f, %.0f] ns: they disagree, "
			    "so the cost is not fixed + per event x events",
			    m, wl, x->model_per_event_ns, x->model_per_event_ns_lo,
			    x->model_per_event_ns_hi, x->fit_per_event_ns, x->fit_per_event_ns_lo,
			    x->fit_per_event_ns_hi);
		if (x->baseline >= 0 && !isnan(x->overhead) && x->overhead < -0.02 &&
		    x->significant)
			add(w,
			    "%s on %s: the monitored runs were faster than the plain ones "
			    "(%+.1f%%): something else changed between them",
			    m, wl, 100 * x->overhead);
	}
	pcost_stat_warnings(s, st, w);
}
