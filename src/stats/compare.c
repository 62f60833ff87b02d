// SPDX-License-Identifier: MIT
/* compare: match two sessions' configurations and test each change (see compare.h). */
#include "stats/compare.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "stats/rerun.h"
#include "stats/stats.h"
#include "core/util.h"

static bool same(const char *x, const char *y)
{
	return (!x && !y) || (x && y && !strcmp(x, y));
}

static bool cfg_match(const struct pcost_config *x, const struct pcost_config *y)
{
	return same(x->workload, y->workload) && same(x->workload_args, y->workload_args) &&
	       same(x->monitor, y->monitor) && same(x->variant, y->variant) &&
	       same(x->placement, y->placement) && x->threads == y->threads;
}

static bool series_match(const struct pcost_counter_series *x, const struct pcost_counter_series *y)
{
	return same(x->interface, y->interface) && same(x->op, y->op) &&
	       same(x->events, y->events) && x->nevents == y->nevents;
}

static char *cfg_name(const struct pcost_config *c)
{
	return xasprintf("%s%s%s / %s%s%s%s%s", c->workload ? c->workload : "?",
			 c->workload_args && *c->workload_args ? " " : "",
			 c->workload_args ? c->workload_args : "", c->monitor ? c->monitor : "?",
			 c->placement ? ", " : "", c->placement ? c->placement : "",
			 c->variant ? " / " : "", c->variant ? c->variant : "");
}

static char *series_name(const struct pcost_counter_series *c)
{
	return xasprintf("%s %s, %u event%s%s%s", c->interface ? c->interface : "?",
			 c->op ? c->op : "?", c->nevents, c->nevents == 1 ? "" : "s",
			 c->events && *c->events ? ": " : "", c->events ? c->events : "");
}

/* Wall times of the measured (non-warm-up, non-failed) samples; *n gets the count. */
static double *measured_walls(const struct pcost_config *c, size_t *n)
{
	double *w = xcalloc(c->nsamples + 1, sizeof(double));

	*n = 0;
	for (size_t k = 0; k < c->nsamples; k++)
		if (!c->samples[k].warmup && !c->samples[k].failed)
			w[(*n)++] = (double)c->samples[k].wall_ns;
	return w;
}

static void fill_change(struct pcost_compare_row *r, const double *a, size_t na, const double *b,
			size_t nb)
{
	r->na = na;
	r->nb = nb;
	r->mean_a = na ? pcost_mean(a, na) : NAN;
	r->mean_b = nb ? pcost_mean(b, nb) : NAN;
	/* Two sessions share no blocks: the unpaired (Welch) interval and test. */
	pcost_ratio_ci_unpaired(a, na, b, nb, PCOST_CONF, &r->change, &r->change_lo, &r->change_hi);
	r->p = na >= 2 && nb >= 2 ? pcost_welch_p(a, na, b, nb) : NAN;
	r->significant = r->p < 0.05 && (r->change_lo > 0 || r->change_hi < 0);
	pcost_hl_ratio_unpaired(a, na, b, nb, PCOST_CONF, &r->change_robust, &r->change_robust_lo,
				&r->change_robust_hi);
	r->change_skewed = pcost_skewed_unpaired(a, na, b, nb, r->change, r->change_robust);
}

static struct pcost_compare_row *add_row(struct pcost_compare *c, size_t *cap, char *name, int ia,
					 int ib)
{
	struct pcost_compare_row *r;

	xgrow((void **)&c->rows, cap, c->nrows + 1, sizeof(*r));
	r = &c->rows[c->nrows++];
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->ia = ia;
	r->ib = ib;
	r->mean_a = r->mean_b = r->change = r->change_lo = r->change_hi = r->p = NAN;
	r->change_robust = r->change_robust_lo = r->change_robust_hi = NAN;
	r->ovh_a = r->ovh_b = r->delta_pts = r->delta_lo = r->delta_hi = NAN;
	r->level_sd = r->level_df = r->ovh_level_pts = NAN;
	r->outcome_a = r->outcome_b = PCOST_OUTCOME_UNKNOWN;
	return r;
}

/* The distance on the log(1 + overhead) scale from x's estimate down (or up) to its interval's end. */
static double log_arm(const struct pcost_config_stats *x, bool up)
{
	double end = up ? x->overhead_hi : x->overhead_lo;

	if (!isfinite(end) || end <= -1 || x->overhead <= -1)
		return NAN;
	return fabs(log1p(end) - log1p(x->overhead));
}

/*
 * The overhead change's interval in points from each session's standard error over
 * its sub-sessions (stats/rerun.h): on the log scale, where those live, the
 * difference log(1 + b) - log(1 + a) +- t x sqrt(se_a^2 + se_b^2), then as points of
 * a's 1 + overhead.  t with the smaller session's k - 1 df (Hsu's conservative
 * choice): with 4 df a side, Welch-Satterthwaite's up to 8 called identical default
 * studies under load different in 2-3 of 28 pairs (bench/rerun.sh).  Each arm
 * reaches at least the rerun interval's floor for two sessions
 * (pcost_rerun_change_floor): sub-sessions that happened to agree leave out the
 * sampling and level each session carries.
 */
static void rerun_delta(const struct pcost_config_stats *a, const struct pcost_config_stats *b,
			double *lo, double *hi)
{
	double d = log1p(b->overhead) - log1p(a->overhead),
	       df = (double)(a->rerun_subs < b->rerun_subs ? a->rerun_subs : b->rerun_subs) - 1,
	       h = pcost_t_quantile(PCOST_CONF, df) *
		   hypot(a->overhead_rerun_se, b->overhead_rerun_se),
	       down, up;

	pcost_rerun_change_floor(h, log_arm(a, false), log_arm(a, true), log_arm(b, false),
				 log_arm(b, true), &down, &up);
	*lo = 100 * (1 + a->overhead) * expm1(d - down);
	*hi = 100 * (1 + a->overhead) * expm1(d + up);
}

static void compare_configs(const struct pcost_session *a, const struct pcost_session *b,
			    double threshold, struct pcost_compare *c, size_t *cap)
{
	struct pcost_config_stats *sa = NULL, *sb = NULL;
	bool *used_b = xcalloc(b->nconfigs + 1, sizeof(bool));

	if (pcost_analyze(a, &sa))
		sa = NULL;
	if (pcost_analyze(b, &sb))
		sb = NULL;
	for (size_t i = 0; i < a->nconfigs; i++) {
		size_t j, na, nb;

		for (j = 0; j < b->nconfigs; j++)
			if (!used_b[j] && cfg_match(&a->configs[i], &b->configs[j]))
				break;
		if (j == b->nconfigs)
			continue;
		used_b[j] = true;
		struct pcost_compare_row *r =
			add_row(c, cap, cfg_name(&a->configs[i]), (int)i, (int)j);
		double *wa = measured_walls(&a->configs[i], &na),
		       *wb = measured_walls(&b->configs[j], &nb);

		fill_change(r, wa, na, wb, nb);
		free(wa);
		free(wb);
		if (sa && sb) {
			r->optimized_a = pcost_optimized_verdict(&sa[i]);
			r->optimized_b = pcost_optimized_verdict(&sb[j]);
			r->outcome_a = sa[i].outcome;
			r->outcome_b = sb[j].outcome;
			r->outcome_why_b = xstrdup(sb[j].outcome_why);
		}
		if (sa && sb && sa[i].baseline >= 0 && sb[j].baseline >= 0 &&
		    isfinite(sa[i].overhead) && isfinite(sb[j].overhead)) {
			r->has_overhead = r->gated = true;
			r->ovh_a = sa[i].overhead;
			r->ovh_b = sb[j].overhead;
			r->ovh_a_lo = sa[i].overhead_lo;
			r->ovh_a_hi = sa[i].overhead_hi;
			r->ovh_b_lo = sb[j].overhead_lo;
			r->ovh_b_hi = sb[j].overhead_hi;
			r->delta_pts = (r->ovh_b - r->ovh_a) * 100;
			/*
			 * Each session's overhead from its own paired blocks; the two are
			 * independent.  Where both were split into sub-sessions, each one's
			 * standard error over them (stats/rerun.h), which counts the level
			 * that they draw again; the runs' alone call identical studies
			 * different (bench/rerun.sh).
			 */
			if (isfinite(sa[i].overhead_rerun_se) && isfinite(sb[j].overhead_rerun_se))
				rerun_delta(&sa[i], &sb[j], &r->delta_lo, &r->delta_hi);
			else
				pcost_welch_ci(r->delta_pts, 100 * sa[i].overhead_se,
					       sa[i].overhead_df, 100 * sb[j].overhead_se,
					       sb[j].overhead_df, PCOST_CONF, &r->delta_lo,
					       &r->delta_hi);
			r->delta_significant = r->delta_lo > 0 || r->delta_hi < 0;
			r->regression = r->delta_pts > threshold && r->delta_lo > 0;
		} else {
			/* A baseline: its own change in percent, never gated. */
			r->delta_pts = r->change * 100;
			r->delta_lo = r->change_lo * 100;
			r->delta_hi = r->change_hi * 100;
			r->delta_significant = r->significant;
			r->regression = r->delta_pts > threshold && r->significant;
		}
	}
	for (size_t i = 0; i < a->nconfigs; i++) {
		bool found = false;

		for (size_t k = 0; k < c->nrows; k++)
			found |= c->rows[k].ia == (int)i;
		if (!found)
			add_row(c, cap, cfg_name(&a->configs[i]), (int)i, -1);
	}
	for (size_t j = 0; j < b->nconfigs; j++)
		if (!used_b[j])
			add_row(c, cap, cfg_name(&b->configs[j]), -1, (int)j);
	free(used_b);
	free(sa);
	free(sb);
}

static void compare_series(const struct pcost_session *a, const struct pcost_session *b,
			   double threshold, struct pcost_compare *c, size_t *cap)
{
	bool *used_b = xcalloc(b->nseries + 1, sizeof(bool));
	size_t first = c->nrows;

	for (size_t i = 0; i < a->nseries; i++) {
		const struct pcost_counter_series *x = &a->series[i];
		size_t j;

		for (j = 0; j < b->nseries; j++)
			if (!used_b[j] && series_match(x, &b->series[j]))
				break;
		if (j == b->nseries)
			continue;
		used_b[j] = true;
		struct pcost_compare_row *r = add_row(c, cap, series_name(x), (int)i, (int)j);

		fill_change(r, x->ns, x->n, b->series[j].ns, b->series[j].n);
		/* A counter operation's time is itself the cost: gate on its change. */
		r->delta_pts = r->change * 100;
		r->delta_lo = r->change_lo * 100;
		r->delta_hi = r->change_hi * 100;
		r->delta_significant = r->significant;
		r->gated = true;
		r->regression = r->delta_pts > threshold && r->significant;
	}
	for (size_t i = 0; i < a->nseries; i++) {
		bool found = false;

		for (size_t k = first; k < c->nrows; k++)
			found |= c->rows[k].ia == (int)i;
		if (!found)
			add_row(c, cap, series_name(&a->series[i]), (int)i, -1);
	}
	for (size_t j = 0; j < b->nseries; j++)
		if (!used_b[j])
			add_row(c, cap, series_name(&b->series[j]), -1, (int)j);
	free(used_b);
}

static char *value_text(const cJSON *v)
{
	if (!v)
		return NULL;
	if (cJSON_IsString(v))
		return xstrdup(v->valuestring);
	return cJSON_PrintUnformatted(v);
}

/* "" (no --cpu) reads "unpinned"; v itself otherwise (malloc'd, may be NULL). */
static char *option_text(const char *key, const cJSON *v)
{
	char *t = value_text(v);

	if (t && !t[0] && !strcmp(key, "cpu")) {
		free(t);
		return xstrdup("unpinned");
	}
	return t;
}

static void env_diffs_free(struct pcost_env_diff *d, size_t n);

static const char *const cost_options[] = { "cpu", "washout" };

/* Whether option key differs between ja and jb; if so *va and *vb get its texts (malloc'd). */
static bool option_differs(const cJSON *ja, const cJSON *jb, const char *key, char **va, char **vb)
{
	*va = option_text(key, cJSON_GetObjectItemCaseSensitive(ja, key));
	*vb = option_text(key, cJSON_GetObjectItemCaseSensitive(jb, key));
	if ((!*va && !*vb) || (*va && *vb && !strcmp(*va, *vb))) {
		free(*va);
		free(*vb);
		*va = *vb = NULL;
		return false;
	}
	return true;
}

/*
 * The run options that change what a run costs, where the two sessions differ:
 * "option cpu" (--cpu's pinning) and "option washout", listed with the
 * environment's differences (on a small guest strace on a getppid loop runs
 * several times slower unpinned than pinned: a comparison must say which was
 * which).
 */
static void options_diff(const char *a_json, const char *b_json, struct pcost_compare *out)
{
	cJSON *ja = a_json ? cJSON_Parse(a_json) : NULL, *jb = b_json ? cJSON_Parse(b_json) : NULL;
	size_t cap = out->ndiffs;

	for (size_t i = 0; ja && jb && i < ARRAY_SIZE(cost_options); i++) {
		char *va, *vb;

		if (!option_differs(ja, jb, cost_options[i], &va, &vb))
			continue;
		xgrow((void **)&out->diffs, &cap, out->ndiffs + 1, sizeof(*out->diffs));
		out->diffs[out->ndiffs].key = xasprintf("option %s", cost_options[i]);
		out->diffs[out->ndiffs].a = va;
		out->diffs[out->ndiffs].b = vb;
		out->ndiffs++;
	}
	cJSON_Delete(ja);
	cJSON_Delete(jb);
}

int pcost_compare_sessions(const struct pcost_session *a, const struct pcost_session *b,
			   double threshold_pct, struct pcost_compare *out)
{
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (a->kind != b->kind)
		return -EINVAL;
	if (a->kind == PCOST_SESSION_COUNTERS)
		compare_series(a, b, threshold_pct, out, &cap);
	else
		compare_configs(a, b, threshold_pct, out, &cap);
	pcost_env_diff(a->env_json, b->env_json, &out->diffs, &out->ndiffs);
	options_diff(a->options_json, b->options_json, out);
	return 0;
}

void pcost_compare_release(struct pcost_compare *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].name);
		free(c->rows[i].outcome_why_b);
	}
	env_diffs_free(c->diffs, c->ndiffs);
	free(c->level_sessions);
	free(c->level_group);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

/*
 * Two readings of one quantity (a calibrated TSC frequency, a free-memory
 * figure) within 0.1% of each other are the same machine, not a difference.
 */
static bool same_reading(const char *x, const char *y)
{
	char *ex, *ey;
	double a, b;

	if (!strcmp(x, y))
		return true;
	a = strtod(x, &ex);
	b = strtod(y, &ey);
	if (ex == x || ey == y || strcmp(ex, ey) || !isfinite(a) || !isfinite(b))
		return false;
	return fabs(a - b) <= 1e-3 * fmax(fabs(a), fabs(b));
}

/* The "fields" object of an env fingerprint, or the object itself. */
static const cJSON *env_fields(const cJSON *j)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "fields");

	return cJSON_IsObject(f) ? f : j;
}

void pcost_env_diff(const char *a_json, const char *b_json, struct pcost_env_diff **out, size_t *n)
{
	cJSON *ja = a_json ? cJSON_Parse(a_json) : NULL, *jb = b_json ? cJSON_Parse(b_json) : NULL;
	const cJSON *fa = env_fields(ja), *fb = env_fields(jb), *v;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	/* Keys of a (changed or gone), then keys only in b. */
	for (int pass = 0; pass < 2; pass++) {
		const cJSON *from = pass ? fb : fa;

		cJSON_ArrayForEach(v, from)
		{
			const cJSON *w =
				cJSON_GetObjectItemCaseSensitive(pass ? fa : fb, v->string);
			char *tv, *tw;

			if (!v->string || (pass && w))
				continue;
			tv = value_text(v);
			tw = value_text(w);
			if (tv && tw && same_reading(tv, tw)) {
				free(tv);
				free(tw);
				continue;
			}
			xgrow((void **)out, &cap, *n + 1, sizeof(**out));
			(*out)[*n].key = xstrdup(v->string);
			(*out)[*n].a = pass ? tw : tv;
			(*out)[*n].b = pass ? tv : tw;
			(*n)++;
		}
	}
	cJSON_Delete(ja);
	cJSON_Delete(jb);
}

static void env_diffs_free(struct pcost_env_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].key);
		free(d[i].a);
		free(d[i].b);
	}
	free(d);
}

/* Same conditions: no env fingerprint difference, the same --cpu and --washout. */
static bool same_conditions(const struct pcost_session *x, const struct pcost_session *y)
{
	struct pcost_env_diff *d;
	size_t n;
	cJSON *jx, *jy;
	bool same;

	pcost_env_diff(x->env_json, y->env_json, &d, &n);
	env_diffs_free(d, n);
	if (n)
		return false;
	jx = x->options_json ? cJSON_Parse(x->options_json) : NULL;
	jy = y->options_json ? cJSON_Parse(y->options_json) : NULL;
	same = true;
	for (size_t i = 0; i < ARRAY_SIZE(cost_options); i++) {
		char *vx, *vy;

		if (option_differs(jx, jy, cost_options[i], &vx, &vy)) {
			free(vx);
			free(vy);
			same = false;
		}
	}
	cJSON_Delete(jx);
	cJSON_Delete(jy);
	return same;
}

/* The log of the mean of v and its squared relative standard error; false under 2 values. */
static bool log_mean(const double *v, size_t n, double *lm, double *var)
{
	double m = n >= 2 ? pcost_mean(v, n) : NAN;

	if (!(m > 0))
		return false;
	*lm = log(m);
	*var = pow(pcost_sem(v, n) / m, 2);
	return true;
}

/* s's configuration that matches x, or NULL. */
static const struct pcost_config *find_config(const struct pcost_session *s,
					      const struct pcost_config *x)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		if (cfg_match(&s->configs[i], x))
			return &s->configs[i];
	return NULL;
}

/*
 * The measured values of s's configuration matching x: its wall times (figure NULL)
 * or the figure of that name (pcost_figure_values); malloc'd, how many (0: none).
 */
static size_t level_values(const struct pcost_session *s, const struct pcost_config *x,
			   const char *figure, double **v)
{
	const struct pcost_config *c = find_config(s, x);
	int k = figure ? pcost_session_metric_find(s, figure) : -1;
	size_t n = 0;

	*v = NULL;
	if (c && !figure)
		*v = measured_walls(c, &n);
	else if (c && k >= 0)
		n = pcost_figure_values(c, (size_t)k, v);
	return n;
}

/*
 * The level's variance from each session's value and squared standard error (ok[i]:
 * it has them), pooled within c's groups of conditions: false under 2 df.
 */
static bool pool_level(const struct pcost_compare *c, const bool *ok, const double *val,
		       const double *var, double *s2, double *df, size_t *used)
{
	size_t n = c->nlevel;
	double ssw = 0, vsum = 0;

	*df = 0;
	*used = 0;
	/* Per group of 2 or more: the squares about its mean, and its sessions' variances. */
	for (size_t g = 0; g < n; g++) {
		double sum = 0;
		size_t kg = 0;

		for (size_t i = 0; i < n; i++)
			if (ok[i] && c->level_group[i] == g) {
				sum += val[i];
				kg++;
			}
		if (kg < 2)
			continue;
		for (size_t i = 0; i < n; i++)
			if (ok[i] && c->level_group[i] == g) {
				ssw += pow(val[i] - sum / (double)kg, 2);
				vsum += var[i];
			}
		*df += (double)(kg - 1);
		*used += kg;
	}
	*s2 = *df >= 2 ? fmax(0, ssw / *df - vsum / (double)*used) : NAN;
	return *df >= 2;
}

bool pcost_compare_level_of(const struct pcost_compare *c, const struct pcost_config *x,
			    const char *figure, double *s2, double *df, size_t *used)
{
	size_t n = c->nlevel;
	double *lm = xcalloc(n + 1, sizeof(double)), *v = xcalloc(n + 1, sizeof(double));
	bool *ok = xcalloc(n + 1, sizeof(bool)), got;

	for (size_t i = 0; i < n; i++) {
		double *vals;
		size_t nv = level_values(c->level_sessions[i], x, figure, &vals);

		ok[i] = log_mean(vals, nv, &lm[i], &v[i]);
		free(vals);
	}
	got = pool_level(c, ok, lm, v, s2, df, used);
	free(ok);
	free(v);
	free(lm);
	return got;
}

/*
 * c's sessions for the level: the nfirst of first, then the peers of their kind that
 * are none of them (by id); each joins the group of the first one before it under
 * the same conditions.
 */
static void level_setup(struct pcost_compare *c, const struct pcost_session *const *first,
			size_t nfirst, const struct pcost_session *peers, size_t npeers)
{
	const struct pcost_session **ss =
		xcalloc(npeers + nfirst, sizeof(const struct pcost_session *));
	size_t n = 0;

	for (size_t i = 0; i < nfirst; i++)
		ss[n++] = first[i];
	for (size_t i = 0; i < npeers; i++) {
		bool seen = peers[i].kind != first[0]->kind;

		for (size_t j = 0; j < nfirst && !seen && peers[i].id; j++)
			seen = peers[i].id == first[j]->id;
		if (!seen)
			ss[n++] = &peers[i];
	}
	c->level_sessions = ss;
	c->nlevel = n;
	c->level_group = xcalloc(n, sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		c->level_group[i] = i;
		for (size_t j = 0; j < i; j++)
			if (c->level_group[j] == j && same_conditions(ss[j], ss[i])) {
				c->level_group[i] = j;
				break;
			}
	}
}

/* Each of c's level sessions analyzed (NULL where that failed); free with level_stats_free. */
static struct pcost_config_stats **level_stats(const struct pcost_compare *c)
{
	struct pcost_config_stats **st =
		xcalloc(c->nlevel + 1, sizeof(struct pcost_config_stats *));

	for (size_t i = 0; i < c->nlevel; i++)
		if (pcost_analyze(c->level_sessions[i], &st[i]))
			st[i] = NULL;
	return st;
}

static void level_stats_free(const struct pcost_compare *c, struct pcost_config_stats **st)
{
	for (size_t i = 0; i < c->nlevel; i++)
		free(st[i]);
	free(st);
}

/*
 * The overhead's level between sessions (a fraction's variance): each session's
 * overhead of its configuration matching x and its squared standard error (st[i]:
 * session i's analysis, NULL when it failed), pooled as pool_level does.
 */
static bool overhead_level(const struct pcost_compare *c, struct pcost_config_stats *const *st,
			   const struct pcost_config *x, double *s2, double *df, size_t *used)
{
	size_t n = c->nlevel;
	double *o = xcalloc(n + 1, sizeof(double)), *v = xcalloc(n + 1, sizeof(double));
	bool *ok = xcalloc(n + 1, sizeof(bool)), got;

	for (size_t i = 0; i < n; i++) {
		const struct pcost_session *s = c->level_sessions[i];
		const struct pcost_config *m = find_config(s, x);
		const struct pcost_config_stats *y = st[i] && m ? &st[i][m - s->configs] : NULL;

		ok[i] = y && y->baseline >= 0 && isfinite(y->overhead) && isfinite(y->overhead_se);
		if (ok[i]) {
			o[i] = y->overhead;
			v[i] = y->overhead_se * y->overhead_se;
		}
	}
	got = pool_level(c, ok, o, v, s2, df, used);
	free(ok);
	free(v);
	free(o);
	return got;
}

/*
 * The Welch-Satterthwaite df of the variance va + vb + 2 x s2: two sessions' squared
 * standard errors (dfa, dfb) and the level's variance (dfl) once for each.
 */
static double level_df(double va, double dfa, double vb, double dfb, double s2, double dfl)
{
	double v = va + vb + 2 * s2;

	return v * v / (va * va / dfa + vb * vb / dfb + 4 * s2 * s2 / dfl);
}

void pcost_change_level_ci(const double *a, size_t na, const double *b, size_t nb, double s2,
			   double df_l, double *lo, double *hi, double *p, double *robust,
			   double *robust_lo, double *robust_hi)
{
	double la, va, lb, vb, v, df, t;

	if (!log_mean(a, na, &la, &va) || !log_mean(b, nb, &lb, &vb))
		return;
	v = va + vb + 2 * s2;
	if (!(v > 0))
		return;
	df = level_df(va, (double)(na - 1), vb, (double)(nb - 1), s2, df_l);
	t = pcost_t_quantile(PCOST_CONF, df);
	*lo = exp(lb - la - t * sqrt(v)) - 1;
	*hi = exp(lb - la + t * sqrt(v)) - 1;
	if (p)
		*p = pcost_t_tail((lb - la) / sqrt(v), df);
	/* The robust interval's arms (log scale) and the level's t x sd, in quadrature. */
	if (isfinite(*robust_lo) && isfinite(*robust_hi) && s2 > 0) {
		double c = log1p(*robust), l = t * sqrt(2 * s2);

		*robust_lo = expm1(c - hypot(c - log1p(*robust_lo), l));
		*robust_hi = expm1(c + hypot(log1p(*robust_hi) - c, l));
	}
}

/*
 * The overhead change of each monitored row again, with the overhead's own level
 * between sessions (each session analyzed once): its variance in points is both
 * sessions' squared standard errors plus 2 x the level's (Welch-Satterthwaite df).
 */
static void overhead_levels(struct pcost_compare *c, const struct pcost_session *a,
			    const struct pcost_session *b, double threshold_pct)
{
	struct pcost_config_stats **st = level_stats(c);
	struct pcost_config_stats *sa = st[0], *sb = st[1];

	for (size_t k = 0; sa && sb && k < c->nrows; k++) {
		struct pcost_compare_row *r = &c->rows[k];
		double s2, df, v, dfw, t, ea, eb;
		size_t used;

		if (!r->has_overhead || r->ia < 0 || r->ib < 0 ||
		    !overhead_level(c, st, &a->configs[r->ia], &s2, &df, &used))
			continue;
		r->ovh_level_pts = 100 * sqrt(s2);
		ea = 100 * sa[r->ia].overhead_se;
		eb = 100 * sb[r->ib].overhead_se;
		v = ea * ea + eb * eb + 2 * 1e4 * s2;
		if (!(v > 0))
			continue;
		dfw = level_df(ea * ea, sa[r->ia].overhead_df, eb * eb, sb[r->ib].overhead_df,
			       1e4 * s2, df);
		if (!(dfw > 0))
			continue;
		t = pcost_t_quantile(PCOST_CONF, dfw);
		r->delta_lo = r->delta_pts - t * sqrt(v);
		r->delta_hi = r->delta_pts + t * sqrt(v);
		r->delta_significant = r->delta_lo > 0 || r->delta_hi < 0;
		r->regression = r->delta_pts > threshold_pct && r->delta_lo > 0;
	}
	level_stats_free(c, st);
}

void pcost_session_level(const struct pcost_session *s, const struct pcost_session *peers,
			 size_t npeers, struct pcost_config_level *out)
{
	struct pcost_compare c = { 0 };
	struct pcost_config_stats **st;

	for (size_t i = 0; i < s->nconfigs; i++) {
		out[i] = (struct pcost_config_level){ .sd = NAN, .ovh_pts = NAN };
		if (s->nmetrics)
			out[i].figure_sd = xcalloc(s->nmetrics, sizeof(double));
		for (size_t k = 0; k < s->nmetrics; k++)
			out[i].figure_sd[k] = NAN;
	}
	if (s->kind == PCOST_SESSION_COUNTERS)
		return;
	level_setup(&c, &s, 1, peers, npeers);
	st = level_stats(&c);
	for (size_t i = 0; i < s->nconfigs; i++) {
		double s2, df;
		size_t used, own = 0;

		/* s's own group must count: s and 2 more with the configuration (c's group 0). */
		for (size_t j = 0; j < c.nlevel; j++)
			own += c.level_group[j] == 0 &&
			       find_config(c.level_sessions[j], &s->configs[i]);
		if (own < 3)
			continue;

		if (pcost_compare_level_of(&c, &s->configs[i], NULL, &s2, &df, &used)) {
			out[i].sd = sqrt(s2);
			out[i].sessions = used;
		}
		if (overhead_level(&c, st, &s->configs[i], &s2, &df, &used))
			out[i].ovh_pts = 100 * sqrt(s2);
		for (size_t k = 0; k < s->nmetrics; k++)
			if (pcost_compare_level_of(&c, &s->configs[i], s->metrics[k].name, &s2, &df,
						   &used))
				out[i].figure_sd[k] = sqrt(s2);
	}
	level_stats_free(&c, st);
	pcost_compare_release(&c);
}

void pcost_compare_level(struct pcost_compare *c, const struct pcost_session *a,
			 const struct pcost_session *b, const struct pcost_session *peers,
			 size_t npeers, double threshold_pct)
{
	const struct pcost_session *ab[] = { a, b };

	if (a->kind == PCOST_SESSION_COUNTERS || a->kind != b->kind)
		return;
	level_setup(c, ab, 2, peers, npeers);
	for (size_t k = 0; k < c->nrows; k++) {
		struct pcost_compare_row *r = &c->rows[k];
		double s2, df, *wa, *wb;
		size_t used, na, nb;

		if (r->ia < 0 || r->ib < 0 ||
		    !pcost_compare_level_of(c, &a->configs[r->ia], NULL, &s2, &df, &used))
			continue;
		r->level_sd = sqrt(s2);
		r->level_df = df;
		r->level_sessions = used;
		wa = measured_walls(&a->configs[r->ia], &na);
		wb = measured_walls(&b->configs[r->ib], &nb);
		pcost_change_level_ci(wa, na, wb, nb, s2, df, &r->change_lo, &r->change_hi, &r->p,
				      &r->change_robust, &r->change_robust_lo,
				      &r->change_robust_hi);
		free(wa);
		free(wb);
		r->significant = r->p < 0.05 && (r->change_lo > 0 || r->change_hi < 0);
		if (r->has_overhead)
			continue;
		r->delta_lo = r->change_lo * 100;
		r->delta_hi = r->change_hi * 100;
		r->delta_significant = r->significant;
		r->regression = r->delta_pts > threshold_pct && r->significant;
	}
	overhead_levels(c, a, b, threshold_pct);
}
