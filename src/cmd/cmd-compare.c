// SPDX-License-Identifier: MIT
/* cmd/cmd-compare: two stored sessions side by side: changes, their CIs and tests, env differences. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "stats/compare.h"
#include "stats/figures.h"
#include "core/format.h"
#include "report/emit.h"
#include "report/plot.h"
#include "core/util.h"

static const char *const compare_usage[] = {
	"compare ID1 ID2 [--db PATH|URL] [--threshold PCT] [--fail-above PCT]\n"
	"                         [--format text|json|csv|markdown] [--plot FILE.svg|png|pdf]",
	NULL,
};

/* 3 significant digits in ns, us, ms or s. */
static const char *fmt_ns(double ns, char *buf, size_t len)
{
	static const struct {
		double div;
		const char *unit;
	} u[] = {
		{ 1e9, "s" },
		{ 1e6, "ms" },
		{ 1e3, "us" },
		{ 1, "ns" },
	};

	if (!isfinite(ns)) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (size_t i = 0; i < ARRAY_SIZE(u); i++)
		if (fabs(ns) >= u[i].div || i == ARRAY_SIZE(u) - 1) {
			double v = ns / u[i].div;

			snprintf(buf, len, "%.*f %s",
				 fabs(v) >= 100	 ? 0
				 : fabs(v) >= 10 ? 1
						 : 2,
				 v, u[i].unit);
			break;
		}
	return buf;
}

static const char *fmt_pct(double f, char *buf, size_t len)
{
	if (!isfinite(f))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.*f%%", fabs(f * 100) >= 100 ? 0 : 1, f * 100);
	return buf;
}

static const char *fmt_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

static void headline(const char *tag, const struct pcost_session *s)
{
	char *kernel = pcost_env_json_kernel(s->env_json), when[32];
	time_t t = (time_t)s->started;
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", gmtime_r(&t, &tm) ? &tm : &(struct tm){ 0 });
	printf("%s: session %lld, %s, %s UTC, kernel %s%s\n", tag, (long long)s->id,
	       pcost_session_kind_name(s->kind), when, kernel ? kernel : "unknown",
	       s->complete ? "" : " (incomplete)");
	free(kernel);
}

/* A row's optimized verdict (pcost_optimized_verdict) in words. */
static const char *verdict_name(int v)
{
	return v > 0 ? "yes" : v < 0 ? "no" : "n/a";
}

/* probes: the rows in which the kernel optimized the uprobe on one side and not the other. */
static void print_optimized(const struct pcost_compare *c, bool md)
{
	bool any = false;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];

		if (r->ia < 0 || r->ib < 0 || r->optimized_a == r->optimized_b)
			continue;
		if (!any)
			printf("\nuprobe optimized by the kernel (A -> B), where they differ:\n");
		any = true;
		printf("%s%s: %s -> %s\n", md ? "- " : "  ", r->name, verdict_name(r->optimized_a),
		       verdict_name(r->optimized_b));
	}
}

/* Both sides known and different: the row is flagged. */
static bool outcome_changed(const struct pcost_compare_row *r)
{
	return r->ia >= 0 && r->ib >= 0 && r->outcome_a != r->outcome_b;
}

/* The rows whose runs ended otherwise in B than in A (stats/outcome.h), with B's one line. */
static void print_outcomes(const struct pcost_compare *c, bool md)
{
	bool any = false;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];

		if (!outcome_changed(r))
			continue;
		if (!any)
			printf("\noutcome changed (A -> B):\n");
		any = true;
		printf("%s%s: %s -> %s (%s)\n", md ? "- " : "  ", r->name,
		       pcost_outcome_name(r->outcome_a), pcost_outcome_name(r->outcome_b),
		       r->outcome_why_b ? r->outcome_why_b : "");
	}
}

/* "+12.0% [+8.0%, +16.0%]" */
static const char *fmt_pct_ci(double v, double lo, double hi, char *buf, size_t len)
{
	char a[24], b[24], c[24];

	snprintf(buf, len, "%s [%s, %s]", fmt_pct(v, a, sizeof(a)), fmt_pct(lo, b, sizeof(b)),
		 fmt_pct(hi, c, sizeof(c)));
	return buf;
}

/* One change whose mean and robust companion disagree, under the "skewed" heading. */
static void skew_line(bool *any, bool md, const char *name, double v, double lo, double hi,
		      double r, double rlo, double rhi)
{
	char m[80], b[80];

	if (!*any)
		printf("\nskewed (A -> B; the change by the means and by Hodges-Lehmann disagree: a "
		       "few runs carry the means):\n");
	*any = true;
	printf("%s%s: mean %s, robust %s\n", md ? "- " : "  ", name,
	       fmt_pct_ci(v, lo, hi, m, sizeof(m)), fmt_pct_ci(r, rlo, rhi, b, sizeof(b)));
}

/* The rows and figures whose change is skewed (stats/compare.h change_skewed). */
static void print_skewed(const struct pcost_session *a, const struct pcost_session *b,
			 const struct pcost_compare *c, bool md)
{
	struct pcost_figure_compare *f;
	bool any = false;
	size_t n;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];

		if (r->ia >= 0 && r->ib >= 0 && r->change_skewed && isfinite(r->change_robust))
			skew_line(&any, md, r->name, r->change, r->change_lo, r->change_hi,
				  r->change_robust, r->change_robust_lo, r->change_robust_hi);
	}
	pcost_compare_figures(a, b, c, &f, &n);
	for (size_t i = 0; i < n; i++)
		if (f[i].change_skewed && isfinite(f[i].change_robust))
			skew_line(&any, md, f[i].name, f[i].change, f[i].change_lo, f[i].change_hi,
				  f[i].change_robust, f[i].change_robust_lo, f[i].change_robust_hi);
	pcost_figure_compare_free(f, n);
}

/* A figure's mean to 5 significant digits, or n/a (unmeasured on that side). */
static const char *fmt_fig(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.5g", v);
	else
		snprintf(buf, len, "n/a");
	return buf;
}

/* The figures both sessions have (--metric, a workload's own), B against A. */
static void print_figures(const struct pcost_session *a, const struct pcost_session *b,
			  const struct pcost_compare *c, bool md)
{
	struct pcost_figure_compare *f;
	char ch[24], lo[24], hi[24], ma[24], mb[24];
	size_t n;

	pcost_compare_figures(a, b, c, &f, &n);
	for (size_t i = 0; i < n; i++) {
		if (!i)
			printf("\nfigures (A -> B; change [95%% CI], Welch):\n");
		printf("%s%s: %s -> %s %s, %s [%s, %s]", md ? "- " : "  ", f[i].name,
		       fmt_fig(f[i].mean_a, ma, sizeof(ma)), fmt_fig(f[i].mean_b, mb, sizeof(mb)),
		       f[i].unit, fmt_pct(f[i].change, ch, sizeof(ch)),
		       fmt_pct(f[i].change_lo, lo, sizeof(lo)),
		       fmt_pct(f[i].change_hi, hi, sizeof(hi)));
		if (isfinite(f[i].level_sd))
			printf(", level between sessions %.1f%% (%zu sessions)",
			       100 * f[i].level_sd, f[i].level_sessions);
		printf("\n");
	}
	pcost_figure_compare_free(f, n);
}

/*
 * The level between sessions (stats/compare.h pcost_compare_level): per matched
 * configuration, measured or not; one line when none is.
 */
static void print_level(const struct pcost_session *a, const struct pcost_compare *c, bool md)
{
	bool any = false;

	if (a->kind == PCOST_SESSION_COUNTERS)
		return;
	for (size_t i = 0; i < c->nrows; i++)
		any |= c->rows[i].ia >= 0 && c->rows[i].ib >= 0 && isfinite(c->rows[i].level_sd);
	if (!any) {
		printf("\nlevel between sessions: not measured (fewer than 3 stored sessions of a "
		       "configuration under the same conditions): each mean change's interval "
		       "counts the runs' noise only, and a shared machine's level moves between "
		       "sessions by more (docs/statistics.md)\n");
		return;
	}
	printf("\nlevel between sessions (the sd of a session's mean beyond its runs' noise, over "
	       "the stored sessions of each configuration under the same conditions; the mean "
	       "change's interval carries it):\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];

		if (r->ia < 0 || r->ib < 0)
			continue;
		if (isfinite(r->level_sd) && isfinite(r->ovh_level_pts))
			printf("%s%s: %.1f%%, its overhead %.1f pts (%zu sessions)\n",
			       md ? "- " : "  ", r->name, 100 * r->level_sd, r->ovh_level_pts,
			       r->level_sessions);
		else if (isfinite(r->level_sd))
			printf("%s%s: %.1f%% (%zu sessions)\n", md ? "- " : "  ", r->name,
			       100 * r->level_sd, r->level_sessions);
		else
			printf("%s%s: not measured (fewer than 3 sessions): the runs' noise only\n",
			       md ? "- " : "  ", r->name);
	}
}

static void print_text(const struct pcost_session *a, const struct pcost_session *b,
		       const struct pcost_compare *c, bool md)
{
	char m1[24], m2[24], ch[24], lo[24], hi[24], p[16], oa[24], ob[24], d[64], ci[80];
	bool any_one = false;
	const char *sep = md ? " | " : "  ";
	int wn = 13;

	/* The name column as wide as the longest name (capped: long ones overflow). */
	for (size_t i = 0; i < c->nrows; i++)
		wn = (int)fmin(60, fmax(wn, (double)strlen(c->rows[i].name)));

	headline("A", a);
	headline("B", b);
	printf("\n");
	if (md)
		printf("| configuration | A mean | B mean | change [95%% CI] | p | A overhead | "
		       "B overhead | overhead change [95%% CI] | |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
	else
		printf("%-*s%s%9s%s%9s%s%-27s%s%6s%s%8s%s%8s%s%-28s\n", wn, "CONFIGURATION", sep,
		       "A MEAN", sep, "B MEAN", sep, "MEAN CHANGE [95% CI]", sep, "P", sep, "A OVH",
		       sep, "B OVH", sep, "OVERHEAD CHANGE [95% CI]");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];

		if (r->ia < 0 || r->ib < 0) {
			any_one = true;
			continue;
		}
		snprintf(ci, sizeof(ci), "%s [%s, %s]", fmt_pct(r->change, ch, sizeof(ch)),
			 fmt_pct(r->change_lo, lo, sizeof(lo)),
			 fmt_pct(r->change_hi, hi, sizeof(hi)));
		if (isfinite(r->delta_pts) && r->has_overhead && isfinite(r->delta_lo))
			snprintf(d, sizeof(d), "%+.1f [%+.*f, %+.*f] pts", r->delta_pts,
				 fabs(r->delta_lo) < 100 ? 1 : 0, r->delta_lo,
				 fabs(r->delta_hi) < 100 ? 1 : 0, r->delta_hi);
		else if (isfinite(r->delta_pts))
			snprintf(d, sizeof(d), "%+.1f %s", r->delta_pts,
				 r->has_overhead ? "pts" : "%");
		else
			snprintf(d, sizeof(d), "-");
		printf("%s%-*s%s%9s%s%9s%s%-27s%s%6s%s%8s%s%8s%s%-28s%s%s%s\n", md ? "| " : "", wn,
		       r->name, sep, fmt_ns(r->mean_a, m1, sizeof(m1)), sep,
		       fmt_ns(r->mean_b, m2, sizeof(m2)), sep, ci, sep, fmt_p(r->p, p, sizeof(p)),
		       sep, r->has_overhead ? fmt_pct(r->ovh_a, oa, sizeof(oa)) : "-", sep,
		       r->has_overhead ? fmt_pct(r->ovh_b, ob, sizeof(ob)) : "-", sep, d,
		       md ? " | " : "  ",
		       r->regression && outcome_changed(r) ? "REGRESSION, OUTCOME CHANGED"
		       : r->regression			   ? "REGRESSION"
		       : outcome_changed(r)		   ? "OUTCOME CHANGED"
							   : "",
		       md ? " |" : "");
	}
	print_level(a, c, md);
	print_outcomes(c, md);
	if (a->kind == PCOST_SESSION_PROBES)
		print_optimized(c, md);
	print_figures(a, b, c, md);
	print_skewed(a, b, c, md);
	if (any_one) {
		printf("\n");
		for (size_t i = 0; i < c->nrows; i++)
			if (c->rows[i].ia < 0 || c->rows[i].ib < 0)
				printf("%sonly in %s: %s\n", md ? "- " : "",
				       c->rows[i].ia < 0 ? "B" : "A", c->rows[i].name);
	}
	printf("\n%s (A -> B):%s\n", "environment differences", c->ndiffs ? "" : " none");
	for (size_t i = 0; i < c->ndiffs; i++)
		printf("%s%s: %s -> %s\n", md ? "- " : "  ", c->diffs[i].key,
		       c->diffs[i].a ? c->diffs[i].a : "(absent)",
		       c->diffs[i].b ? c->diffs[i].b : "(absent)");
}

static void add_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

/* true, false, or null when unknown. */
static void add_verdict(cJSON *o, const char *k, int v)
{
	if (v)
		cJSON_AddBoolToObject(o, k, v > 0);
	else
		cJSON_AddNullToObject(o, k);
}

/* "figures": [{name, unit, better, n_a, n_b, mean_a, mean_b, change, change_lo, change_hi}] */
static void json_figures(cJSON *o, const struct pcost_session *a, const struct pcost_session *b,
			 const struct pcost_compare *c)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "figures");
	struct pcost_figure_compare *f;
	size_t n;

	pcost_compare_figures(a, b, c, &f, &n);
	for (size_t i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "name", f[i].name);
		cJSON_AddStringToObject(x, "unit", f[i].unit);
		if (f[i].better)
			cJSON_AddStringToObject(x, "better", f[i].better > 0 ? "higher" : "lower");
		else
			cJSON_AddNullToObject(x, "better");
		cJSON_AddNumberToObject(x, "n_a", (double)f[i].na);
		cJSON_AddNumberToObject(x, "n_b", (double)f[i].nb);
		add_num(x, "mean_a", f[i].mean_a);
		add_num(x, "mean_b", f[i].mean_b);
		add_num(x, "change", f[i].change);
		add_num(x, "change_lo", f[i].change_lo);
		add_num(x, "change_hi", f[i].change_hi);
		add_num(x, "change_robust", f[i].change_robust);
		add_num(x, "change_robust_lo", f[i].change_robust_lo);
		add_num(x, "change_robust_hi", f[i].change_robust_hi);
		cJSON_AddBoolToObject(x, "change_skewed", f[i].change_skewed);
		add_num(x, "level_sd", f[i].level_sd);
		cJSON_AddNumberToObject(x, "level_sessions",
					isfinite(f[i].level_sd) ? (double)f[i].level_sessions : 0);
		cJSON_AddItemToArray(arr, x);
	}
	pcost_figure_compare_free(f, n);
}

static void print_json(const struct pcost_session *a, const struct pcost_session *b,
		       const struct pcost_compare *c, double threshold)
{
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(o, "rows");
	cJSON *env = cJSON_AddArrayToObject(o, "env_differences");
	char *text;

	cJSON_AddNumberToObject(o, "a", (double)a->id);
	cJSON_AddNumberToObject(o, "b", (double)b->id);
	cJSON_AddStringToObject(o, "kind", pcost_session_kind_name(a->kind));
	cJSON_AddNumberToObject(o, "threshold", threshold);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "name", r->name);
		cJSON_AddStringToObject(x, "in", r->ia < 0 ? "b" : r->ib < 0 ? "a" : "both");
		if (r->ia >= 0 && r->ib >= 0) {
			cJSON_AddNumberToObject(x, "n_a", (double)r->na);
			cJSON_AddNumberToObject(x, "n_b", (double)r->nb);
			add_num(x, "mean_a_ns", r->mean_a);
			add_num(x, "mean_b_ns", r->mean_b);
			add_num(x, "change", r->change);
			add_num(x, "change_lo", r->change_lo);
			add_num(x, "change_hi", r->change_hi);
			add_num(x, "change_robust", r->change_robust);
			add_num(x, "change_robust_lo", r->change_robust_lo);
			add_num(x, "change_robust_hi", r->change_robust_hi);
			cJSON_AddBoolToObject(x, "change_skewed", r->change_skewed);
			add_num(x, "p", r->p);
			cJSON_AddBoolToObject(x, "significant", r->significant);
			if (r->has_overhead) {
				add_num(x, "overhead_a", r->ovh_a);
				add_num(x, "overhead_b", r->ovh_b);
			}
			add_num(x, r->has_overhead ? "overhead_change_points" : "change_percent",
				r->delta_pts);
			add_num(x, "delta_lo", r->delta_lo);
			add_num(x, "delta_hi", r->delta_hi);
			cJSON_AddBoolToObject(x, "regression", r->regression);
			cJSON_AddStringToObject(x, "outcome_a", pcost_outcome_name(r->outcome_a));
			cJSON_AddStringToObject(x, "outcome_b", pcost_outcome_name(r->outcome_b));
			cJSON_AddBoolToObject(x, "outcome_changed", outcome_changed(r));
			add_num(x, "level_sd", r->level_sd);
			add_num(x, "level_df", r->level_df);
			add_num(x, "overhead_level_pts", r->ovh_level_pts);
			cJSON_AddNumberToObject(x, "level_sessions", (double)r->level_sessions);
			if (a->kind == PCOST_SESSION_PROBES) {
				add_verdict(x, "optimized_a", r->optimized_a);
				add_verdict(x, "optimized_b", r->optimized_b);
			}
		}
		cJSON_AddItemToArray(rows, x);
	}
	json_figures(o, a, b, c);
	for (size_t i = 0; i < c->ndiffs; i++) {
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "key", c->diffs[i].key);
		if (c->diffs[i].a)
			cJSON_AddStringToObject(x, "a", c->diffs[i].a);
		else
			cJSON_AddNullToObject(x, "a");
		if (c->diffs[i].b)
			cJSON_AddStringToObject(x, "b", c->diffs[i].b);
		else
			cJSON_AddNullToObject(x, "b");
		cJSON_AddItemToArray(env, x);
	}
	text = cJSON_Print(o);
	printf("%s\n", text);
	free(text);
	cJSON_Delete(o);
}

/* 1, 0, or empty when unknown. */
static const char *csv_verdict(int v)
{
	return v > 0 ? "1" : v < 0 ? "0" : "";
}

/* Unmeasured figures are empty fields (pcost_csv_num), never "nan". */
static void print_csv(const struct pcost_compare *c)
{
	struct pcost_csv w = { .out = stdout };

	printf("name,in,mean_a_ns,mean_b_ns,change,change_lo,change_hi,p,overhead_a,overhead_b,"
	       "delta,regression,optimized_a,optimized_b,outcome_a,outcome_b,outcome_changed,"
	       "change_robust,change_robust_lo,change_robust_hi,change_skewed,level_sd,level_sessions,overhead_level_pts\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];
		bool both = r->ia >= 0 && r->ib >= 0;

		pcost_csv_str(&w, r->name);
		pcost_csv_str(&w, r->ia < 0 ? "b" : r->ib < 0 ? "a" : "both");
		pcost_csv_num(&w, "%.17g", r->mean_a);
		pcost_csv_num(&w, "%.17g", r->mean_b);
		pcost_csv_ci(&w, "%.6g", r->change, r->change_lo, r->change_hi);
		pcost_csv_num(&w, "%.6g", r->p);
		pcost_csv_num(&w, "%.6g", r->ovh_a);
		pcost_csv_num(&w, "%.6g", r->ovh_b);
		pcost_csv_num(&w, "%.6g", r->delta_pts);
		pcost_csv_num(&w, "%.0f", r->regression); /* 1 or 0, as before */
		pcost_csv_str(&w, csv_verdict(r->optimized_a));
		pcost_csv_str(&w, csv_verdict(r->optimized_b));
		pcost_csv_str(&w, both ? pcost_outcome_name(r->outcome_a) : "");
		pcost_csv_str(&w, both ? pcost_outcome_name(r->outcome_b) : "");
		pcost_csv_num(&w, "%.0f", outcome_changed(r));
		pcost_csv_ci(&w, "%.6g", r->change_robust, r->change_robust_lo,
			     r->change_robust_hi);
		pcost_csv_num(&w, "%.0f", r->change_skewed);
		pcost_csv_num(&w, "%.6g", r->level_sd);
		pcost_csv_num(&w, "%.0f",
			      both && isfinite(r->level_sd) ? (double)r->level_sessions : NAN);
		pcost_csv_num(&w, "%.6g", r->ovh_level_pts);
		pcost_csv_end(&w);
	}
}

/* --threshold PCT, --fail-above PCT. */
static int percent_opt(const struct pcost_option *opt, const char *arg)
{
	if (pcost_parse_double(arg, 0, 1e6, opt->value))
		return usage_error("--%s takes a percentage >= 0, not '%s'", opt->long_name, arg);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	double threshold = 5, fail_above = NAN;
	const char *plot = NULL;
	struct pcost_store_opts o = { .args = "two session ids", .min_args = 2, .max_args = 2 };
	const struct pcost_option options[] = {
		OPT_CALLBACK(0, "threshold", &threshold, "PCT",
			     "REGRESSION marks a growth above PCT points (default 5)\n"
			     "whose CI lies above 0",
			     percent_opt),
		OPT_CALLBACK(0, "fail-above", &fail_above, "PCT",
			     "exit 1 when any overhead grew by more than PCT points\n"
			     "(counter costs: percent) with its 95% interval above 0,\n"
			     "so CI can gate on it",
			     percent_opt),
		OPT_STORE_FORMAT(&o, PCOST_FMT_ROWS, "text, json, csv or markdown"),
		OPT_CALLBACK(0, "plot", &plot, "FILE",
			     "also draw the comparison to FILE (.svg, .png or .pdf)",
			     pcost_plot_opt),
		OPT_STORE_DB(&o),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "compare",
		.usage = compare_usage,
		.about =
			"Puts two stored sessions of the same kind side by side (ID1 before, ID2 after).\n"
			"Per configuration present in both (same workload, arguments, monitor, variant):\n"
			"both mean wall times per run, the change with a 95% Welch interval and p\n"
			"(carrying the level between sessions, measured from the stored sessions of\n"
			"the configuration under the same conditions, where 3 or more are stored),\n"
			"both overheads (paired within each session's blocks) and their change in\n"
			"points with a 95% Welch interval; REGRESSION marks a growth above\n"
			"--threshold whose CI lies above 0.  For counters sessions the rows are the\n"
			"counter operations and the change is in percent.  Configurations on one side\n"
			"only, and differences between the two machine fingerprints, are listed.",
		.options = options,
	};
	enum pcost_format fmt;
	struct pcost_session a, b;
	struct pcost_compare cmp;
	struct pcost_session *peers = NULL;
	size_t npeers = 0;
	struct pcost_db *db;
	int rc;

	if ((rc = pcost_store_opts_parse(&o, &p, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	fmt = o.fmt;
	if ((rc = pcost_cli_open_db(o.db, PCOST_DB_READ, &db)))
		return rc;
	if ((rc = pcost_cli_load(db, o.argv[0], &a))) {
		pcost_db_close(db);
		return rc;
	}
	if ((rc = pcost_cli_load(db, o.argv[1], &b))) {
		pcost_session_release(&a);
		pcost_db_close(db);
		return rc;
	}
	if (a.id != b.id)
		peers = pcost_cli_peers(db, &a, &b, 0, &npeers);
	pcost_db_close(db);
	if (a.id == b.id) {
		rc = usage_error("'%s' and '%s' are both session %lld: compare two sessions",
				 o.argv[0], o.argv[1], (long long)a.id);
		goto out;
	}
	if (pcost_compare_sessions(&a, &b, threshold, &cmp)) {
		rc = usage_error(
			"session %lld is a '%s' session and %lld a '%s' one; compare sessions of one kind",
			(long long)a.id, pcost_session_kind_name(a.kind), (long long)b.id,
			pcost_session_kind_name(b.kind));
		goto out;
	}
	pcost_compare_level(&cmp, &a, &b, peers, npeers, threshold);
	if (fmt == PCOST_FMT_JSON)
		print_json(&a, &b, &cmp, threshold);
	else if (fmt == PCOST_FMT_CSV)
		print_csv(&cmp);
	else
		print_text(&a, &b, &cmp, fmt == PCOST_FMT_MARKDOWN);
	if (plot) {
		char err[256];

		if (pcost_plot_compare(&a, &b, &cmp, plot, err, sizeof(err))) {
			error("could not plot to '%s': %s", plot, err);
			rc = PCOST_EXIT_FAIL;
		}
	}
	if (isfinite(fail_above)) {
		for (size_t i = 0; i < cmp.nrows; i++) {
			const struct pcost_compare_row *r = &cmp.rows[i];
			bool holds0 = isfinite(r->delta_lo) && r->delta_lo <= 0;
			char ci[64] = "no interval";

			if (!r->gated || r->ia < 0 || r->ib < 0 || !(r->delta_pts > fail_above))
				continue;
			if (isfinite(r->delta_lo) && isfinite(r->delta_hi))
				snprintf(ci, sizeof(ci), "%.1f, %.1f", r->delta_lo, r->delta_hi);
			/* Its interval holding 0: the growth is not told from noise; not counted. */
			fprintf(stderr,
				"probecost compare: %s grew by %.1f %s [%s], more than --fail-above %g%s\n",
				r->name, r->delta_pts, r->has_overhead ? "points" : "%", ci,
				fail_above,
				holds0 ? ", but its 95% interval holds 0: not counted" : "");
			if (!holds0)
				rc = PCOST_EXIT_FAIL;
		}
	}
	pcost_compare_release(&cmp);
out:
	pcost_cli_peers_free(peers, npeers);
	pcost_session_release(&a);
	pcost_session_release(&b);
	return rc;
}
