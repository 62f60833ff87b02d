// SPDX-License-Identifier: MIT
/* analyze: per-configuration statistics of a run/probes session, from its raw samples only. */
#include "stats/analyze.h"

#include <errno.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/rerun.h"

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Is c a baseline: the plain run (monitor none) or the dormant run (probes)? */
static bool config_is_baseline(const struct pcost_session *s, const struct pcost_config *c)
{
	const char *base = s->kind == PCOST_SESSION_PROBES ? "dormant" : "none";

	return c->monitor && !strcmp(c->monitor, base);
}

bool pcost_sample_measured(const struct pcost_run_sample *x)
{
	return !x->warmup && !x->failed;
}

size_t pcost_figure_values(const struct pcost_config *c, size_t k, double **v)
{
	size_t n = 0;

	*v = xcalloc(c->nsamples + 1, sizeof(double));
	for (size_t j = 0; j < c->nsamples; j++) {
		const struct pcost_run_sample *x = &c->samples[j];

		if (pcost_sample_measured(x) && x->metrics && !isnan(x->metrics[k]))
			(*v)[n++] = x->metrics[k];
	}
	return n;
}

static int find_baseline(const struct pcost_session *s, size_t i)
{
	const struct pcost_config *c = &s->configs[i];

	if (config_is_baseline(s, c))
		return -1;
	for (size_t j = 0; j < s->nconfigs; j++) {
		const struct pcost_config *b = &s->configs[j];

		if (j != i && config_is_baseline(s, b) && same(b->workload, c->workload) &&
		    same(b->workload_args, c->workload_args) && same(b->variant, c->variant))
			return (int)j;
	}
	return -1;
}

/*
 * probes: the no-probe build's dormant run of the same workload and size as
 * a probe build's dormant run c (the arguments other than the variant and the
 * probe-site encoding equal: the no-probe build has no sites to encode).
 */
static const char *args_without_variant(const char *a)
{
	while (a && (!strncmp(a, "variant=", 8) || !strncmp(a, "site=", 5))) {
		a += strcspn(a, " ");
		a += *a == ' ';
	}
	return a ? a : "";
}

static int find_noprobe(const struct pcost_session *s, size_t i)
{
	const struct pcost_config *c = &s->configs[i];

	if (s->kind != PCOST_SESSION_PROBES || !config_is_baseline(s, c) || !c->variant ||
	    !strcmp(c->variant, "none"))
		return -1;
	for (size_t j = 0; j < s->nconfigs; j++) {
		const struct pcost_config *b = &s->configs[j];

		if (config_is_baseline(s, b) && b->variant && !strcmp(b->variant, "none") &&
		    same(b->workload, c->workload) &&
		    pcost_config_scale(b) == pcost_config_scale(c) &&
		    !strcmp(args_without_variant(b->workload_args),
			    args_without_variant(c->workload_args)))
			return (int)j;
	}
	return -1;
}

static double metric(const struct pcost_run_sample *x, enum pcost_sample_metric m)
{
	if (m == PCOST_METRIC_TIMED)
		return x->timed_ns ? (double)x->timed_ns : NAN;
	if (m == PCOST_METRIC_SERVICE_CPU)
		return x->has_service ? (double)(x->service_user_ns + x->service_sys_ns) : NAN;
	if (m >= PCOST_METRIC_FIGURE)
		return x->metrics ? x->metrics[m - PCOST_METRIC_FIGURE] : NAN;
	return (double)x->wall_ns;
}

size_t pcost_pair_blocks(const struct pcost_config *c, const struct pcost_config *b,
			 enum pcost_sample_metric m, double **x, double **y, uint32_t **blocks)
{
	size_t n = 0;

	*x = xcalloc(c->nsamples + 1, sizeof(double));
	*y = xcalloc(c->nsamples + 1, sizeof(double));
	if (blocks)
		*blocks = xcalloc(c->nsamples + 1, sizeof(uint32_t));
	for (size_t k = 0; k < c->nsamples; k++) {
		const struct pcost_run_sample *p = &c->samples[k];

		if (!pcost_sample_measured(p) || isnan(metric(p, m)))
			continue;
		for (size_t j = 0; j < b->nsamples; j++) {
			const struct pcost_run_sample *q = &b->samples[j];

			if (q->block != p->block || !pcost_sample_measured(q))
				continue;
			if (!isnan(metric(q, m))) {
				(*x)[n] = metric(p, m);
				(*y)[n] = metric(q, m);
				if (blocks)
					(*blocks)[n] = p->block;
				n++;
			}
			break;
		}
	}
	return n;
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

int pcost_optimized_verdict(const struct pcost_config_stats *st)
{
	if (st->baseline < 0 || !st->optimized_known)
		return 0;
	if (st->optimized_runs == st->optimized_known)
		return 1;
	return st->optimized_runs ? 0 : -1;
}

/*
 * Is what the monitor counts, where it counts, syscalls?  perf's counts other
 * than perf trace's are not: perf record's samples, perf stat's context
 * switches (its --service form).
 */
static bool counts_syscalls(const char *monitor)
{
	return !monitor || strncmp(monitor, "perf-", 5) != 0 || !strcmp(monitor, "perf-trace");
}

/* Medians of the events reported and counted, the busy-machine means, the optimized runs. */
static void counts(const struct pcost_config *c, struct pcost_config_stats *st)
{
	uint64_t *ev = xcalloc(c->nsamples + 1, sizeof(uint64_t));
	int64_t *mev = xcalloc(c->nsamples + 1, sizeof(int64_t));
	int64_t *lost = xcalloc(c->nsamples + 1, sizeof(int64_t));
	/* Lost: what the workload made in the same run and the monitor did not see.  A
	 * command's count comes from another run (its counting run, or --events). */
	bool comparable = c->unit && !strcmp(c->unit, "syscall") &&
			  strcmp(c->workload ?: "", "command") != 0 && counts_syscalls(c->monitor);
	size_t nev = 0, nmev = 0, nbusy = 0, nlost = 0;
	double other = 0, steal = 0;

	for (size_t k = 0; k < c->nsamples; k++) {
		const struct pcost_run_sample *x = &c->samples[k];

		/* A run that failed but reported says whether the site was optimized all the same. */
		if (x->optimized && !x->warmup) {
			st->optimized_known++;
			st->optimized_runs += x->optimized > 0;
		}
		if (!pcost_sample_measured(x))
			continue;
		if (x->events)
			ev[nev++] = x->events;
		if (x->monitor_events >= 0)
			mev[nmev++] = x->monitor_events;
		if (x->monitor_events >= 0 && x->events && comparable)
			lost[nlost++] = (int64_t)x->events - x->monitor_events;
		if (x->has_busy) {
			other += (double)x->other_cpu_ns;
			steal += (double)x->steal_ns;
			nbusy++;
		}
	}
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
	st->other_cpu_ns = nbusy ? other / (double)nbusy : NAN;
	st->steal_ns = nbusy ? steal / (double)nbusy : NAN;
	free(ev);
	free(mev);
}

/* The --service's CPU time per measured run that recorded it (ns), 0 when none did. */
static double service_cpu_mean(const struct pcost_config *c)
{
	double sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < c->nsamples; k++)
		if (pcost_sample_measured(&c->samples[k]) && c->samples[k].has_service) {
			sum += (double)(c->samples[k].service_user_ns +
					c->samples[k].service_sys_ns);
			n++;
		}
	return n ? sum / (double)n : 0;
}

static void basic(const struct pcost_config *c, struct pcost_config_stats *st)
{
	double *w = xcalloc(c->nsamples + 1, sizeof(double));
	double *u = xcalloc(c->nsamples + 1, sizeof(double));
	double *y = xcalloc(c->nsamples + 1, sizeof(double));
	size_t n = 0;

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
	}
	st->nok = n;
	pcost_summarize(w, n, &st->wall);
	pcost_summarize(u, n, &st->user);
	pcost_summarize(y, n, &st->sys);
	st->noutliers = st->wall.noutliers;
	st->cpu_util = st->wall.mean > 0 ? (st->user.mean + st->sys.mean) / st->wall.mean : 0;
	/* With a --service, its processes' CPU is the workload's too (the load generator waits). */
	st->cpu_util += st->wall.mean > 0 ? service_cpu_mean(c) / st->wall.mean : 0;
	counts(c, st);
	free(w);
	free(u);
	free(y);
}

/* Events one run makes, for per-event figures: the exact count when known (probes' hits). */
static double rate_events(const struct pcost_config *c, const struct pcost_config_stats *st)
{
	if (c->expected_events > 0)
		return (double)c->expected_events;
	return st->events ? (double)st->events : NAN;
}

static void set3(double *v, double *lo, double *hi, double a, double b, double c)
{
	*v = a;
	*lo = b;
	*hi = c;
}

static void set_nan(double *v, double *lo, double *hi)
{
	set3(v, lo, hi, NAN, NAN, NAN);
}

static void scale3(double *v, double *lo, double *hi, double k)
{
	*v *= k;
	*lo *= k;
	*hi *= k;
}

/* Overhead, extra time and cycles from the wall times paired by block. */
static void paired_wall(const struct pcost_session *s, size_t i, struct pcost_config_stats *st)
{
	struct pcost_paired p;
	double *x, *y;
	uint32_t *blocks, *first;
	size_t n = pcost_pair_blocks(&s->configs[i], &s->configs[st->baseline], PCOST_METRIC_WALL,
				     &x, &y, &blocks),
	       k = pcost_rerun_subsessions(s, &first);

	pcost_paired(x, y, n, PCOST_CONF, &p);
	st->npairs = n;
	set3(&st->overhead, &st->overhead_lo, &st->overhead_hi, p.ratio, p.ratio_lo, p.ratio_hi);
	st->overhead_se = p.ratio_se;
	st->overhead_df = p.df;
	st->p_value = p.p;
	st->significant = p.significant;
	set3(&st->extra_ns, &st->extra_ns_lo, &st->extra_ns_hi, p.diff, p.diff_lo, p.diff_hi);
	pcost_hl_ratio(x, y, n, PCOST_CONF, &st->overhead_robust, &st->overhead_robust_lo,
		       &st->overhead_robust_hi);
	/* On the log scale the HL estimate lives on; the delta method carries the se there. */
	st->overhead_skewed = pcost_skewed(log1p(p.ratio), log1p(st->overhead_robust),
					   p.ratio_se / (1 + p.ratio), p.skew_z);
	pcost_hl_diff(x, y, n, PCOST_CONF, &st->extra_ns_robust, &st->extra_ns_robust_lo,
		      &st->extra_ns_robust_hi);
	st->extra_skewed = pcost_skewed(p.diff, st->extra_ns_robust, p.diff_se, p.skew_z);
	pcost_rerun_ci(first, k, x, y, blocks, n, true, st->overhead, PCOST_CONF,
		       &st->overhead_rerun_lo, &st->overhead_rerun_hi, &st->overhead_rerun_se,
		       &st->rerun_subs);
	/* The overhead's level between sessions, where the store measured one (compare.h). */
	if (s->levels)
		pcost_rerun_widen(st->overhead, st->overhead_rerun_se, st->rerun_subs,
				  s->levels[i].ovh_pts / 100 / (1 + st->overhead), PCOST_CONF,
				  &st->overhead_rerun_lo, &st->overhead_rerun_hi);
	pcost_rerun_floor(st->overhead, st->overhead_lo, st->overhead_hi, true,
			  &st->overhead_rerun_lo, &st->overhead_rerun_hi);
	pcost_rerun_ci(first, k, x, y, blocks, n, false, st->extra_ns, PCOST_CONF,
		       &st->extra_ns_rerun_lo, &st->extra_ns_rerun_hi, NULL, &st->rerun_subs);
	pcost_rerun_floor(st->extra_ns, st->extra_ns_lo, st->extra_ns_hi, false,
			  &st->extra_ns_rerun_lo, &st->extra_ns_rerun_hi);
	if (s->tsc_hz > 0) {
		set3(&st->extra_cycles, &st->extra_cycles_lo, &st->extra_cycles_hi, st->extra_ns,
		     st->extra_ns_lo, st->extra_ns_hi);
		scale3(&st->extra_cycles, &st->extra_cycles_lo, &st->extra_cycles_hi,
		       s->tsc_hz / 1e9);
		set3(&st->extra_cycles_robust, &st->extra_cycles_robust_lo,
		     &st->extra_cycles_robust_hi, st->extra_ns_robust, st->extra_ns_robust_lo,
		     st->extra_ns_robust_hi);
		scale3(&st->extra_cycles_robust, &st->extra_cycles_robust_lo,
		       &st->extra_cycles_robust_hi, s->tsc_hz / 1e9);
	}
	free(first);
	free(blocks);
	free(x);
	free(y);
}

/*
 * The two costs from the workload's own timed region: per block, the extra
 * inside the region / events is the cost per event, the extra outside it
 * (whole run minus region) the fixed cost; t intervals over the blocks.
 */
static void timed_costs(const struct pcost_session *s, size_t i, struct pcost_config_stats *st)
{
	const struct pcost_config *c = &s->configs[i], *b = &s->configs[st->baseline];
	double *tx, *ty, *wx, *wy, ev = rate_events(c, st);
	uint32_t *tb, *wb;
	size_t nt = pcost_pair_blocks(c, b, PCOST_METRIC_TIMED, &tx, &ty, &tb);
	size_t nw = pcost_pair_blocks(c, b, PCOST_METRIC_WALL, &wx, &wy, &wb);
	double *pe = xcalloc(nt + 1, sizeof(double)), *fx = xcalloc(nt + 1, sizeof(double));
	size_t n = 0;

	for (size_t k = 0; k < nt && !isnan(ev); k++)
		for (size_t j = 0; j < nw; j++)
			if (wb[j] == tb[k]) {
				pe[n] = (tx[k] - ty[k]) / ev;
				fx[n] = (wx[j] - wy[j]) - (tx[k] - ty[k]);
				n++;
				break;
			}
	if (n) {
		pcost_mean_ci(pe, n, PCOST_CONF, &st->per_event_ns, &st->per_event_ns_lo,
			      &st->per_event_ns_hi);
		pcost_mean_ci(fx, n, PCOST_CONF, &st->fixed_ns, &st->fixed_ns_lo, &st->fixed_ns_hi);
		pcost_hodges_lehmann(pe, n, PCOST_CONF, &st->per_event_ns_robust,
				     &st->per_event_ns_robust_lo, &st->per_event_ns_robust_hi);
		pcost_hodges_lehmann(fx, n, PCOST_CONF, &st->fixed_ns_robust,
				     &st->fixed_ns_robust_lo, &st->fixed_ns_robust_hi);
		st->per_event_skewed = pcost_skewed(st->per_event_ns, st->per_event_ns_robust,
						    pcost_sem(pe, n), pcost_skew_z(pe, n));
		st->fixed_skewed = pcost_skewed(st->fixed_ns, st->fixed_ns_robust, pcost_sem(fx, n),
						pcost_skew_z(fx, n));
		st->per_event_source = "timed region";
	}
	free(tx);
	free(ty);
	free(tb);
	free(wx);
	free(wy);
	free(wb);
	free(pe);
	free(fx);
}

/*
 * probes: a probe build's dormant run against the no-probe build, from the
 * timed region when both have one.  Without, the elapsed time gives the
 * overhead only, labelled: the two builds are two binaries whose start-up
 * differs, and that difference divided by the hits is no cost per hit.
 */
static void dormant(const struct pcost_session *s, size_t i, struct pcost_config_stats *st)
{
	const struct pcost_config *c = &s->configs[i];
	struct pcost_paired p;
	double *x, *y, hits = rate_events(c, st);
	bool elapsed = false;
	size_t n;

	set_nan(&st->dormant_overhead, &st->dormant_overhead_lo, &st->dormant_overhead_hi);
	set_nan(&st->dormant_per_hit_ns, &st->dormant_per_hit_ns_lo, &st->dormant_per_hit_ns_hi);
	if ((st->noprobe = find_noprobe(s, i)) < 0)
		return;
	st->dormant_source = "timed region";
	n = pcost_pair_blocks(c, &s->configs[st->noprobe], PCOST_METRIC_TIMED, &x, &y, NULL);
	if (n < 2) {
		free(x);
		free(y);
		st->dormant_source = "elapsed time (start-up included; no per hit)";
		elapsed = true;
		n = pcost_pair_blocks(c, &s->configs[st->noprobe], PCOST_METRIC_WALL, &x, &y, NULL);
	}
	pcost_paired(x, y, n, PCOST_CONF, &p);
	set3(&st->dormant_overhead, &st->dormant_overhead_lo, &st->dormant_overhead_hi, p.ratio,
	     p.ratio_lo, p.ratio_hi);
	pcost_hl_ratio(x, y, n, PCOST_CONF, &st->dormant_overhead_robust,
		       &st->dormant_overhead_robust_lo, &st->dormant_overhead_robust_hi);
	if (elapsed) {
		free(x);
		free(y);
		return;
	}
	set3(&st->dormant_per_hit_ns, &st->dormant_per_hit_ns_lo, &st->dormant_per_hit_ns_hi,
	     p.diff, p.diff_lo, p.diff_hi);
	scale3(&st->dormant_per_hit_ns, &st->dormant_per_hit_ns_lo, &st->dormant_per_hit_ns_hi,
	       1 / hits);
	st->dormant_se = p.diff_se / hits;
	pcost_hl_diff(x, y, n, PCOST_CONF, &st->dormant_per_hit_ns_robust,
		      &st->dormant_per_hit_ns_robust_lo, &st->dormant_per_hit_ns_robust_hi);
	scale3(&st->dormant_per_hit_ns_robust, &st->dormant_per_hit_ns_robust_lo,
	       &st->dormant_per_hit_ns_robust_hi, 1 / hits);
	st->dormant_skewed = pcost_skewed(st->dormant_per_hit_ns, st->dormant_per_hit_ns_robust,
					  st->dormant_se, p.skew_z);
	free(x);
	free(y);
}

/* Arguments without the KEY=... word (and its blank). */
static void args_without(const char *a, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	const char *l = NULL;

	for (const char *w = a; w && *w; w += strcspn(w, " "), w += *w == ' ')
		if (!strncmp(w, key, kl) && w[kl] == '=') {
			l = w;
			break;
		}
	if (!l) {
		snprintf(out, len, "%s", a ? a : "");
		return;
	}
	snprintf(out, len, "%.*s%s", (int)(l - a), a,
		 l + strcspn(l, " ") + (l[strcspn(l, " ")] == ' '));
	/* "... kernel=all layout=a32": the blank before a last word goes with it. */
	if (*out && out[strlen(out) - 1] == ' ')
		out[strlen(out) - 1] = 0;
}

/* Arguments without the layout=... word: what the code-layout copies of one build share. */
static void args_without_layout(const char *a, char *out, size_t len)
{
	args_without(a, "layout", out, len);
}

static bool same_build(const struct pcost_config *a, const struct pcost_config *b)
{
	char x[512], y[512];

	if (!same(a->workload, b->workload) || !same(a->variant, b->variant) ||
	    !same(a->monitor, b->monitor) || pcost_config_scale(a) != pcost_config_scale(b))
		return false;
	args_without_layout(a->workload_args, x, sizeof(x));
	args_without_layout(b->workload_args, y, sizeof(y));
	return !strcmp(x, y);
}

/*
 * The mean of a build's dormant cost over its code layouts (see analyze.h):
 * a random-effects interval, Student t over the L layout means with L - 1 df.
 * Each layout mean carries its own blocks' noise and the layout's own offset,
 * so their spread estimates both; the within-layout standard errors alone
 * (a fixed-effect pooling) would leave out the variation between layouts,
 * which is why layouts are measured.  One layout: its own interval.
 */
static void dormant_layouts(const struct pcost_session *s, struct pcost_config_stats *st)
{
	double *d = xcalloc(s->nconfigs + 1, sizeof(double));

	for (size_t i = 0; i < s->nconfigs; i++) {
		size_t n = 0, only = 0;

		if (st[i].noprobe < 0)
			continue;
		for (size_t j = 0; j < s->nconfigs; j++)
			if (st[j].noprobe >= 0 && same_build(&s->configs[i], &s->configs[j]) &&
			    isfinite(st[j].dormant_per_hit_ns)) {
				d[n++] = st[j].dormant_per_hit_ns;
				only = j;
			}
		st[i].dormant_layouts = n;
		for (size_t j = 0; j < i && st[i].dormant_build < 0; j++)
			if (st[j].noprobe >= 0 && same_build(&s->configs[i], &s->configs[j]))
				st[i].dormant_build = (int)j;
		if (st[i].dormant_build < 0)
			st[i].dormant_build = (int)i;
		if (!n)
			continue;
		if (n == 1)
			set3(&st[i].dormant_all_per_hit_ns, &st[i].dormant_all_per_hit_ns_lo,
			     &st[i].dormant_all_per_hit_ns_hi, st[only].dormant_per_hit_ns,
			     st[only].dormant_per_hit_ns_lo, st[only].dormant_per_hit_ns_hi);
		else
			pcost_mean_ci(d, n, PCOST_CONF, &st[i].dormant_all_per_hit_ns,
				      &st[i].dormant_all_per_hit_ns_lo,
				      &st[i].dormant_all_per_hit_ns_hi);
		st[i].dormant_spread_min = pcost_min(d, n);
		st[i].dormant_spread_max = pcost_max(d, n);
	}
	free(d);
}

/* Arguments equal but for one word (the size), in the same order. */
static bool args_differ_in_one_word(const char *a, const char *b)
{
	int diff = 0;

	a = a ? a : "";
	b = b ? b : "";
	while (*a || *b) {
		size_t la = strcspn(a, " "), lb = strcspn(b, " ");
		const char *ea = memchr(a, '=', la), *eb = memchr(b, '=', lb);

		if (!*a || !*b)
			return false;
		/* k=v words must keep their key. */
		if ((ea != NULL) != (eb != NULL) ||
		    (ea && (ea - a != eb - b || memcmp(a, b, (size_t)(ea - a)))))
			return false;
		if (la != lb || memcmp(a, b, la))
			diff++;
		a += la + (a[la] == ' ');
		b += lb + (b[lb] == ' ');
	}
	return diff == 1;
}

/*
 * Same fit: same workload, monitor, variant, monitor placement and thread
 * count, and the same arguments but the size.
 */
static bool same_fit_group(const struct pcost_config *a, const struct pcost_config *b)
{
	if (!same(a->workload, b->workload) || !same(a->monitor, b->monitor) ||
	    !same(a->variant, b->variant) || !same(a->placement, b->placement) ||
	    a->threads != b->threads)
		return false;
	if (same(a->workload_args, b->workload_args))
		return true;
	return pcost_config_scale(a) != pcost_config_scale(b) &&
	       args_differ_in_one_word(a->workload_args, b->workload_args);
}

/*
 * Points of one fit group: (block, events, y) where y is the wall time of a
 * baseline, or a monitored run's extra over its baseline in the same block,
 * so the fixed cost is the monitor's start-up and the slope its cost per event.
 */
static void fit_group(const struct pcost_session *s, size_t g, struct pcost_config_stats *st)
{
	size_t cap = 16, n = 0, nscales = 0;
	uint32_t *blk = xcalloc(cap, sizeof(uint32_t));
	double *x = xcalloc(cap, sizeof(double)), *y = xcalloc(cap, sizeof(double)), first = NAN;
	struct pcost_fit f;

	for (size_t j = g; j < s->nconfigs; j++) {
		const struct pcost_config *d = &s->configs[j];
		double *px, *py, ev = rate_events(d, &st[j]);
		uint32_t *pb;
		size_t np;

		if ((st[j].fit_group >= 0 && st[j].fit_group != (int)g) ||
		    !same_fit_group(&s->configs[g], d) || isnan(ev))
			continue;
		st[j].fit_group = (int)g;
		if (st[j].baseline >= 0)
			np = pcost_pair_blocks(d, &s->configs[st[j].baseline], PCOST_METRIC_WALL,
					       &px, &py, &pb);
		else
			np = pcost_pair_blocks(d, d, PCOST_METRIC_WALL, &px, &py, &pb);
		if (np && isnan(first))
			first = pcost_config_scale(d);
		else if (np && pcost_config_scale(d) != first)
			nscales = 2;
		for (size_t k = 0; k < np; k++) {
			if (n + 1 > cap) {
				cap *= 2;
				blk = xrealloc(blk, cap * sizeof(uint32_t));
				x = xrealloc(x, cap * sizeof(double));
				y = xrealloc(y, cap * sizeof(double));
			}
			blk[n] = pb[k];
			x[n] = ev;
			y[n] = st[j].baseline >= 0 ? px[k] - py[k] : px[k];
			n++;
		}
		free(px);
		free(py);
		free(pb);
	}
	if (nscales >= 2 && pcost_block_fit(blk, x, y, n, PCOST_CONF, &f) == 0) {
		for (size_t j = g; j < s->nconfigs; j++) {
			if (st[j].fit_group != (int)g)
				continue;
			st[j].has_fit = true;
			st[j].fit_nblocks = f.nblocks;
			set3(&st[j].fit_fixed_ns, &st[j].fit_fixed_ns_lo, &st[j].fit_fixed_ns_hi,
			     f.fixed, f.fixed_lo, f.fixed_hi);
			set3(&st[j].fit_per_event_ns, &st[j].fit_per_event_ns_lo,
			     &st[j].fit_per_event_ns_hi, f.slope, f.slope_lo, f.slope_hi);
			st[j].fit_r2 = f.r2;
			set3(&st[j].fit_fixed_ns_robust, &st[j].fit_fixed_ns_robust_lo,
			     &st[j].fit_fixed_ns_robust_hi, f.fixed_robust, f.fixed_robust_lo,
			     f.fixed_robust_hi);
			set3(&st[j].fit_per_event_ns_robust, &st[j].fit_per_event_ns_robust_lo,
			     &st[j].fit_per_event_ns_robust_hi, f.slope_robust, f.slope_robust_lo,
			     f.slope_robust_hi);
			st[j].fit_per_event_skewed = f.slope_skewed;
			st[j].fit_fixed_skewed = f.fixed_skewed;
		}
	}
	free(blk);
	free(x);
	free(y);
}

static void fits(const struct pcost_session *s, struct pcost_config_stats *st)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		st[i].fit_group = -1;
	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].fit_group < 0 && st[i].nok)
			fit_group(s, i, st);
}

/* The null-workload configuration of configuration i's monitor (its fixed cost), or -1. */
static int null_twin(const struct pcost_session *s, size_t i)
{
	const struct pcost_config *c = &s->configs[i];

	for (size_t j = 0; j < s->nconfigs; j++) {
		const struct pcost_config *n = &s->configs[j];

		if (j != i && same(n->workload, "null") && same(n->monitor, c->monitor) &&
		    n->threads == c->threads && same(n->placement, c->placement))
			return (int)j;
	}
	return -1;
}

/*
 * The null workload's events of a row's unit, from the session's counting run
 * of it (options "counted_null", cmd/cmd-run.c): 0 for sessions stored before
 * it was counted (their model took none off), NaN when it could not be counted.
 */
static double null_events(const struct pcost_session *s, const char *unit)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	const cJSON *cn = cJSON_GetObjectItemCaseSensitive(o, "counted_null"); /* NULL-safe */
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cn, unit ? unit : ""), "count");
	double v = !cn ? 0 : cJSON_IsNumber(k) ? k->valuedouble : NAN;

	cJSON_Delete(o);
	return v;
}

/*
 * A user's command: per event from the model, extra = fixed + per event x
 * events on the command and on the null workload, in each block where both
 * ran plain and monitored: per event = (the command's extra - the null run's)
 * / (the command's events - the null workload's), and fixed = the null run's
 * extra less its events' cost.  The null workload is probecost starting up
 * and leaving (some 136 syscalls, a syscall tracer's cost on each), so its
 * events count: with none taken off, strace on gzip read a negative cost a
 * syscall.
 * t over those blocks, the Hodges-Lehmann companion beside it.
 */
static void model_costs(const struct pcost_session *s, size_t i, struct pcost_config_stats *all)
{
	struct pcost_config_stats *st = &all[i];
	const struct pcost_config *c = &s->configs[i], *nc;
	double ev = rate_events(c, st), evn, *cx, *cy, *nx, *ny, *d, *fx;
	uint32_t *cb, *nb;
	size_t ncp, nnp, n = 0;
	int j;

	if (!same(c->workload, "command") || isnan(ev) || ev <= 0 || (j = null_twin(s, i)) < 0 ||
	    all[j].baseline < 0)
		return;
	evn = null_events(s, c->unit);
	if (!(ev > evn)) {
		if (!st->per_event_source)
			st->per_event_why = isnan(evn)
						    ? "the null workload's events were not counted"
						    : "the command makes no more events than the "
						      "null workload: no per-event model";
		return;
	}
	nc = &s->configs[j];
	ncp = pcost_pair_blocks(c, &s->configs[st->baseline], PCOST_METRIC_WALL, &cx, &cy, &cb);
	nnp = pcost_pair_blocks(nc, &s->configs[all[j].baseline], PCOST_METRIC_WALL, &nx, &ny, &nb);
	d = xcalloc(ncp + 1, sizeof(double));
	fx = xcalloc(ncp + 1, sizeof(double));
	for (size_t a = 0; a < ncp; a++)
		for (size_t k = 0; k < nnp; k++)
			if (nb[k] == cb[a]) {
				d[n] = ((cx[a] - cy[a]) - (nx[k] - ny[k])) / (ev - evn);
				fx[n] = (nx[k] - ny[k]) - d[n] * evn;
				n++;
				break;
			}
	if (n >= 2) {
		double sk;

		pcost_mean_ci(d, n, PCOST_CONF, &st->model_per_event_ns, &st->model_per_event_ns_lo,
			      &st->model_per_event_ns_hi);
		if (st->has_fit)
			st->model_disagrees = st->model_per_event_ns_lo > st->fit_per_event_ns_hi ||
					      st->model_per_event_ns_hi < st->fit_per_event_ns_lo;
		if (!st->per_event_source) {
			set3(&st->per_event_ns, &st->per_event_ns_lo, &st->per_event_ns_hi,
			     st->model_per_event_ns, st->model_per_event_ns_lo,
			     st->model_per_event_ns_hi);
			pcost_mean_ci(fx, n, PCOST_CONF, &st->fixed_ns, &st->fixed_ns_lo,
				      &st->fixed_ns_hi);
			pcost_hodges_lehmann(d, n, PCOST_CONF, &st->per_event_ns_robust,
					     &st->per_event_ns_robust_lo,
					     &st->per_event_ns_robust_hi);
			pcost_hodges_lehmann(fx, n, PCOST_CONF, &st->fixed_ns_robust,
					     &st->fixed_ns_robust_lo, &st->fixed_ns_robust_hi);
			sk = pcost_sem(d, n);
			st->per_event_skewed = pcost_skewed(
				st->per_event_ns, st->per_event_ns_robust, sk, pcost_skew_z(d, n));
			st->fixed_skewed = pcost_skewed(st->fixed_ns, st->fixed_ns_robust,
							pcost_sem(fx, n), pcost_skew_z(fx, n));
			st->per_event_source = "model";
			st->per_event_why = NULL;
		}
	}
	free(cx);
	free(cy);
	free(cb);
	free(nx);
	free(ny);
	free(nb);
	free(d);
	free(fx);
}

/* A figure of work done per second: tps, IOPS, or a unit per second (req/s, KiB/s). */
static bool is_rate(const char *unit)
{
	size_t n = unit ? strlen(unit) : 0;

	return n &&
	       (!strcmp(unit, "tps") || !strcmp(unit, "IOPS") ||
		(n > 2 && !strcmp(unit + n - 2, "/s")) || (n > 4 && !strcmp(unit + n - 4, "/sec")));
}

/*
 * The work a --service's load did in its counting run (options "counted_run",
 * run/study_targets.c), in units of the session's rate figure: its value
 * there x the run's wall time, over which the service's events were counted.
 * *k: that figure; -1 and NaN when the session has none, or several
 * (redis-benchmark's, one a test: each a part of the run), or the counting
 * run did not print it.  *fixed: the load is known to run for a fixed time.
 */
static double counted_units(const struct pcost_session *s, int *k, bool *fixed)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	const cJSON *cr = cJSON_GetObjectItemCaseSensitive(o, "counted_run"); /* NULL-safe */
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(cr, "wall_ns"),
		    *figs = cJSON_GetObjectItemCaseSensitive(cr, "figures");
	double units = NAN;
	size_t rates = 0;

	*k = -1;
	*fixed = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cr, "fixed_time"));
	for (size_t j = 0; j < s->nmetrics; j++) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(figs, s->metrics[j].name),
			    *v = cJSON_GetObjectItemCaseSensitive(f, "value"),
			    *u = cJSON_GetObjectItemCaseSensitive(f, "unit");

		if (!is_rate(s->metrics[j].unit) || !cJSON_IsNumber(v) || !cJSON_IsString(u) ||
		    strcmp(u->valuestring, s->metrics[j].unit))
			continue;
		rates++;
		*k = (int)j;
		units = cJSON_IsNumber(w) ? v->valuedouble * w->valuedouble / 1e9 : NAN;
	}
	if (rates != 1 || !(units > 0)) {
		*k = -1;
		units = NAN;
	}
	cJSON_Delete(o);
	return units;
}

/*
 * A monitor of a --service, priced per event of the service (the row's unit
 * "service syscall", counted in the load's counting run).  It attached before
 * the run and detaches after it, so all its cost is per event.  With a rate
 * figure (pgbench's tps), from the rate, which holds for a load of a fixed
 * time too (pgbench -T: the run takes as long, less work is done): per unit
 * of work, per block, 1/rate(monitored) - 1/rate(plain), over the service's
 * events per unit in the counting run.  Else from the wall time, per block
 * (monitored - plain) / events, unless the load runs for a fixed time, known
 * or seen (then no figure, with the reason: the extra would read about 0).
 * t interval over the blocks.
 */
static bool service_costs(const struct pcost_session *s, size_t i, struct pcost_config_stats *st)
{
	const struct pcost_config *c = &s->configs[i];
	double *x, *y, ev = rate_events(c, st), units;
	size_t n, m = 0;
	bool fixed;
	int k;

	if (!c->unit || strncmp(c->unit, "service ", 8) || !(ev > 0))
		return false;
	units = counted_units(s, &k, &fixed);
	if (k < 0 && fixed) {
		st->per_event_why =
			"the load runs for a fixed time: a monitor's cost shows as less "
			"work done, not a longer run (give --metric with its rate, as "
			"pgbench's tps)";
		return true;
	}
	/*
	 * A load of a fixed time not known as one: the run lasted no longer (the
	 * extra's interval reaches 0) while the monitor saw a fifth fewer of the
	 * service's syscalls than the counting run made, a syscall tracer losing
	 * none of them (strace, bpftrace's counts in the kernel).
	 */
	if (k < 0 && !strcmp(c->unit, "service syscall") && counts_syscalls(c->monitor) &&
	    st->monitor_events >= 0 && (double)st->monitor_events < 0.8 * ev &&
	    !(st->extra_ns_lo > 0)) {
		st->per_event_why =
			"the run lasted no longer under the monitor, which saw fewer of "
			"the service's syscalls than were counted: a load of a fixed "
			"time? (give --metric with its rate, as pgbench's tps)";
		return true;
	}
	n = pcost_pair_blocks(c, &s->configs[st->baseline],
			      k < 0 ? PCOST_METRIC_WALL
				    : (enum pcost_sample_metric)(PCOST_METRIC_FIGURE + k),
			      &x, &y, NULL);
	for (size_t j = 0; j < n; j++)
		if (k < 0)
			x[m++] = (x[j] - y[j]) / ev;
		else if (x[j] > 0 && y[j] > 0)
			x[m++] = (1e9 / x[j] - 1e9 / y[j]) * units / ev;
	if (m >= 2) {
		pcost_mean_ci(x, m, PCOST_CONF, &st->per_event_ns, &st->per_event_ns_lo,
			      &st->per_event_ns_hi);
		pcost_hodges_lehmann(x, m, PCOST_CONF, &st->per_event_ns_robust,
				     &st->per_event_ns_robust_lo, &st->per_event_ns_robust_hi);
		st->per_event_skewed = pcost_skewed(st->per_event_ns, st->per_event_ns_robust,
						    pcost_sem(x, m), pcost_skew_z(x, m));
		st->per_event_source = k < 0 ? "extra per service event"
					     : "extra per service event, from the rate";
	}
	free(x);
	free(y);
	return m >= 2;
}

/* The two costs of a monitored configuration: timed region first, the fit otherwise. */
static void two_costs(const struct pcost_session *s, size_t i, struct pcost_config_stats *st)
{
	if (st->baseline < 0)
		return;
	timed_costs(s, i, st);
	if (st->per_event_source)
		return;
	if (st->has_fit) {
		set3(&st->per_event_ns, &st->per_event_ns_lo, &st->per_event_ns_hi,
		     st->fit_per_event_ns, st->fit_per_event_ns_lo, st->fit_per_event_ns_hi);
		set3(&st->fixed_ns, &st->fixed_ns_lo, &st->fixed_ns_hi, st->fit_fixed_ns,
		     st->fit_fixed_ns_lo, st->fit_fixed_ns_hi);
		set3(&st->per_event_ns_robust, &st->per_event_ns_robust_lo,
		     &st->per_event_ns_robust_hi, st->fit_per_event_ns_robust,
		     st->fit_per_event_ns_robust_lo, st->fit_per_event_ns_robust_hi);
		set3(&st->fixed_ns_robust, &st->fixed_ns_robust_lo, &st->fixed_ns_robust_hi,
		     st->fit_fixed_ns_robust, st->fit_fixed_ns_robust_lo,
		     st->fit_fixed_ns_robust_hi);
		st->per_event_skewed = st->fit_per_event_skewed;
		st->fixed_skewed = st->fit_fixed_skewed;
		st->per_event_source = "scale fit";
	} else if (service_costs(s, i, st)) {
		return;
	} else if (isnan(rate_events(&s->configs[i], st))) {
		st->per_event_why = "no event count (give --events N)";
	} else {
		st->per_event_why = "no timed region: start-up and per-event cost cannot be "
				    "told apart (use --scale)";
	}
}

static void init_nan(struct pcost_config_stats *st)
{
	set_nan(&st->overhead, &st->overhead_lo, &st->overhead_hi);
	set_nan(&st->extra_ns, &st->extra_ns_lo, &st->extra_ns_hi);
	set_nan(&st->extra_cycles, &st->extra_cycles_lo, &st->extra_cycles_hi);
	st->overhead_rerun_lo = st->overhead_rerun_hi = st->overhead_rerun_se = NAN;
	st->extra_ns_rerun_lo = st->extra_ns_rerun_hi = NAN;
	set_nan(&st->per_event_ns, &st->per_event_ns_lo, &st->per_event_ns_hi);
	set_nan(&st->model_per_event_ns, &st->model_per_event_ns_lo, &st->model_per_event_ns_hi);
	set_nan(&st->fixed_ns, &st->fixed_ns_lo, &st->fixed_ns_hi);
	set_nan(&st->fit_fixed_ns, &st->fit_fixed_ns_lo, &st->fit_fixed_ns_hi);
	set_nan(&st->fit_per_event_ns, &st->fit_per_event_ns_lo, &st->fit_per_event_ns_hi);
	set_nan(&st->dormant_overhead, &st->dormant_overhead_lo, &st->dormant_overhead_hi);
	set_nan(&st->dormant_per_hit_ns, &st->dormant_per_hit_ns_lo, &st->dormant_per_hit_ns_hi);
	set_nan(&st->dormant_all_per_hit_ns, &st->dormant_all_per_hit_ns_lo,
		&st->dormant_all_per_hit_ns_hi);
	st->dormant_spread_min = st->dormant_spread_max = st->dormant_se = NAN;
	st->p_value = st->fit_r2 = st->overhead_se = st->overhead_df = NAN;
	set_nan(&st->site_gain, &st->site_gain_lo, &st->site_gain_hi);
	set_nan(&st->overhead_robust, &st->overhead_robust_lo, &st->overhead_robust_hi);
	set_nan(&st->extra_ns_robust, &st->extra_ns_robust_lo, &st->extra_ns_robust_hi);
	set_nan(&st->extra_cycles_robust, &st->extra_cycles_robust_lo, &st->extra_cycles_robust_hi);
	set_nan(&st->per_event_ns_robust, &st->per_event_ns_robust_lo, &st->per_event_ns_robust_hi);
	set_nan(&st->fixed_ns_robust, &st->fixed_ns_robust_lo, &st->fixed_ns_robust_hi);
	set_nan(&st->fit_fixed_ns_robust, &st->fit_fixed_ns_robust_lo, &st->fit_fixed_ns_robust_hi);
	set_nan(&st->fit_per_event_ns_robust, &st->fit_per_event_ns_robust_lo,
		&st->fit_per_event_ns_robust_hi);
	set_nan(&st->dormant_overhead_robust, &st->dormant_overhead_robust_lo,
		&st->dormant_overhead_robust_hi);
	set_nan(&st->dormant_per_hit_ns_robust, &st->dormant_per_hit_ns_robust_lo,
		&st->dormant_per_hit_ns_robust_hi);
	set_nan(&st->site_gain_robust, &st->site_gain_robust_lo, &st->site_gain_robust_hi);
	st->noprobe = st->site_ref = st->dormant_build = -1;
}

const char *pcost_config_site(const struct pcost_config *c, char *buf, size_t len)
{
	static const char *const keys[] = { "site", "insn" };

	for (size_t k = 0; k < 2; k++)
		for (const char *w = c->workload_args; w && *w;
		     w += strcspn(w, " "), w += *w == ' ') {
			size_t kl = strlen(keys[k]);

			if (!strncmp(w, keys[k], kl) && w[kl] == '=') {
				snprintf(buf, len, "%.*s", (int)strcspn(w + kl + 1, " "),
					 w + kl + 1);
				return buf;
			}
		}
	return NULL;
}

/* a and b are one armed configuration at two site encodings (variant named after its site or equal). */
static bool same_but_site(const struct pcost_config *a, const struct pcost_config *b)
{
	char sa[32], sb[32], x[512], y[512];
	const char *ka = pcost_config_site(a, sa, sizeof(sa)),
		   *kb = pcost_config_site(b, sb, sizeof(sb));
	const char *key =
		strstr(a->workload_args ? a->workload_args : "", "insn=") ? "insn" : "site";

	if (!ka || !kb || !same(a->workload, b->workload) || !same(a->monitor, b->monitor) ||
	    pcost_config_scale(a) != pcost_config_scale(b))
		return false;
	if (!same(a->variant, b->variant) && !(same(a->variant, ka) && same(b->variant, kb)))
		return false;
	args_without(a->workload_args, key, x, sizeof(x));
	args_without(b->workload_args, key, y, sizeof(y));
	return !strcmp(x, y);
}

/* Per block: (armed - dormant) timed region / hits of configuration i; the blocks into *blk. */
static size_t armed_per_hit(const struct pcost_session *s, size_t i,
			    const struct pcost_config_stats *st, double **d, uint32_t **blk)
{
	double *y, hits = rate_events(&s->configs[i], &st[i]);
	size_t n = pcost_pair_blocks(&s->configs[i], &s->configs[st[i].baseline],
				     PCOST_METRIC_TIMED, d, &y, blk);

	for (size_t k = 0; k < n; k++)
		(*d)[k] = ((*d)[k] - y[k]) / hits;
	free(y);
	return n;
}

/* Configuration i against its site=nop twin: nop's cost per hit / i's, Fieller over the blocks. */
static void site_gain(const struct pcost_session *s, size_t i, struct pcost_config_stats *st)
{
	double *a, *b, *x, *y;
	uint32_t *ba, *bb;
	struct pcost_paired p;
	size_t na, nb, n = 0;

	na = armed_per_hit(s, (size_t)st[i].site_ref, st, &a, &ba);
	nb = armed_per_hit(s, i, st, &b, &bb);
	x = xcalloc(nb + 1, sizeof(double));
	y = xcalloc(nb + 1, sizeof(double));
	for (size_t k = 0; k < nb; k++)
		for (size_t j = 0; j < na; j++)
			if (ba[j] == bb[k]) {
				x[n] = a[j];
				y[n++] = b[k];
				break;
			}
	pcost_paired(x, y, n, PCOST_CONF, &p);
	set3(&st[i].site_gain, &st[i].site_gain_lo, &st[i].site_gain_hi, p.ratio + 1,
	     p.ratio_lo + 1, p.ratio_hi + 1);
	/* Robust: HL of the per-block log(nop's cost / this one's); none if one is not positive. */
	pcost_hl_ratio(x, y, n, PCOST_CONF, &st[i].site_gain_robust, &st[i].site_gain_robust_lo,
		       &st[i].site_gain_robust_hi);
	st[i].site_gain_skewed = pcost_skewed(log(st[i].site_gain), log1p(st[i].site_gain_robust),
					      p.ratio_se / st[i].site_gain, p.skew_z);
	set3(&st[i].site_gain_robust, &st[i].site_gain_robust_lo, &st[i].site_gain_robust_hi,
	     st[i].site_gain_robust + 1, st[i].site_gain_robust_lo + 1,
	     st[i].site_gain_robust_hi + 1);
	free(a);
	free(b);
	free(ba);
	free(bb);
	free(x);
	free(y);
}

/* Every armed configuration at a site other than nop, against the same one at nop. */
static void site_gains(const struct pcost_session *s, struct pcost_config_stats *st)
{
	for (size_t i = 0; i < s->nconfigs; i++) {
		char b[32];
		const char *site = pcost_config_site(&s->configs[i], b, sizeof(b));

		if (st[i].baseline < 0 || !site || !strcmp(site, "nop") ||
		    isnan(rate_events(&s->configs[i], &st[i])))
			continue;
		for (size_t j = 0; j < s->nconfigs && st[i].site_ref < 0; j++) {
			char bj[32];
			const char *sj = pcost_config_site(&s->configs[j], bj, sizeof(bj));

			if (j != i && st[j].baseline >= 0 && sj && !strcmp(sj, "nop") &&
			    same_but_site(&s->configs[j], &s->configs[i]) &&
			    !isnan(rate_events(&s->configs[j], &st[j])))
				st[i].site_ref = (int)j;
		}
		if (st[i].site_ref >= 0)
			site_gain(s, i, st);
	}
}

int pcost_analyze(const struct pcost_session *s, struct pcost_config_stats **out)
{
	struct pcost_config_stats *st;

	if (s->kind == PCOST_SESSION_COUNTERS)
		return -EINVAL;
	st = xcalloc(s->nconfigs ? s->nconfigs : 1, sizeof(*st));
	for (size_t i = 0; i < s->nconfigs; i++) {
		init_nan(&st[i]);
		st[i].baseline = find_baseline(s, i);
		basic(&s->configs[i], &st[i]);
	}
	for (size_t i = 0; i < s->nconfigs; i++) {
		if (st[i].baseline >= 0) {
			/* A monitored run of a command gives no count: its baseline's is the one. */
			if (!st[i].events)
				st[i].events = st[st[i].baseline].events;
			paired_wall(s, i, &st[i]);
		}
		dormant(s, i, &st[i]);
	}
	dormant_layouts(s, st);
	pcost_carryover(s, st);
	fits(s, st);
	for (size_t i = 0; i < s->nconfigs; i++)
		two_costs(s, i, &st[i]);
	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].baseline >= 0)
			model_costs(s, i, st);
	site_gains(s, st);
	for (size_t i = 0; i < s->nconfigs; i++)
		st[i].outcome = pcost_outcome_of(s, i, config_is_baseline(s, &s->configs[i]),
						 st[i].baseline, st[i].outcome_why,
						 sizeof(st[i].outcome_why), &st[i].outcome_noted);
	*out = st;
	return 0;
}

size_t pcost_changed_rows(const struct pcost_session *s, const struct pcost_config_stats *st,
			  char *buf, size_t len)
{
	size_t n = 0, off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < s->nconfigs; i++) {
		bool seen = false;

		if (st[i].outcome != PCOST_OUTCOME_CHANGED_PROGRAM)
			continue;
		n++;
		for (size_t j = 0; j < i; j++)
			seen |= st[j].outcome == PCOST_OUTCOME_CHANGED_PROGRAM &&
				!strcmp(s->configs[j].monitor, s->configs[i].monitor);
		if (seen || off >= len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
					s->configs[i].monitor);
		if (off >= len && len > 4)
			memcpy(buf + len - 4, "...", 4);
	}
	return n;
}
