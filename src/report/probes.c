// SPDX-License-Identifier: MIT
/*
 * report/probes: render a `probes` session -- per variant x arming method the
 * elapsed time, overhead against the dormant run of the same build, cost per
 * hit in ns and TSC cycles, hits counted vs expected; then the dormant cost
 * of each probe build against the no-probe build.  Reads the session and
 * pcost_analyze() only.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "report/report.h"
#include "stats/stats.h"

#define BOOT_RESAMPLES 2000	/* as analyze.c */

static bool measured(const struct pcost_run_sample *x)
{
	return !x->warmup && !x->failed;
}

/* Worst shortfall of the method's count against the hits expected (negative: extra hits). */
struct hits_check {
	bool known;		/* some sample carried a count and something was expected */
	int64_t expected;
	int64_t counted;	/* median (analyze) */
	int64_t lost;		/* max over samples of expected - counted, > 0: hits lost */
	int64_t extra;		/* max over samples of counted - expected */
};

static struct hits_check check_hits(const struct pcost_config *c,
				    const struct pcost_config_stats *st)
{
	struct hits_check h = { .expected = c->expected_events, .counted = st->monitor_events };

	if (h.expected < 0 && st->monitor_events >= 0) {
		/* Nothing to check against: the count alone. */
		h.known = true;
		return h;
	}

	if (h.expected < 0) {
		/* No --hits: what the workload itself reported is the reference. */
		h.expected = st->events ? (int64_t)st->events : -1;
	}
	for (size_t k = 0; k < c->nsamples && h.expected >= 0; k++) {
		const struct pcost_run_sample *x = &c->samples[k];

		if (!measured(x) || x->monitor_events < 0)
			continue;
		h.known = true;
		if (h.expected - x->monitor_events > h.lost)
			h.lost = h.expected - x->monitor_events;
		if (x->monitor_events - h.expected > h.extra)
			h.extra = x->monitor_events - h.expected;
	}
	return h;
}

/*
 * Hits per run for the cost per hit: the exact number when known, else what
 * the workload reported, else (a user's command without --hits) what the
 * method itself counted.
 */
static uint64_t hits_per_run(const struct pcost_config *c, const struct pcost_config_stats *t)
{
	if (c->expected_events > 0)
		return (uint64_t)c->expected_events;
	if (t->events)
		return t->events;
	return t->monitor_events > 0 ? (uint64_t)t->monitor_events : 0;
}

/* Are a and b the same arguments but for their variant= and site= words? */
static bool same_but_build(const char *a, const char *b)
{
	for (;;) {
		while (a && (!strncmp(a, "variant=", 8) || !strncmp(a, "site=", 5)))
			a = strchr(a, ' ') ? strchr(a, ' ') + 1 : NULL;
		while (b && (!strncmp(b, "variant=", 8) || !strncmp(b, "site=", 5)))
			b = strchr(b, ' ') ? strchr(b, ' ') + 1 : NULL;
		if (!a || !b || !*a || !*b)
			return (!a || !*a) && (!b || !*b);
		if (strcspn(a, " ") != strcspn(b, " ") || strncmp(a, b, strcspn(a, " ")))
			return false;
		a += strcspn(a, " ");
		b += strcspn(b, " ");
		a += *a == ' ';
		b += *b == ' ';
	}
}

/*
 * The dormant run of variant "none" (the build without probes) at the same
 * size, kernel and thread count: what the probe builds' dormant runs compare to.
 */
static int find_noprobe(const struct pcost_session *s, const struct pcost_config *c)
{
	for (size_t j = 0; j < s->nconfigs; j++) {
		const struct pcost_config *b = &s->configs[j];

		if (b->variant && !strcmp(b->variant, "none") && !strcmp(b->monitor, "dormant") &&
		    !strcmp(b->workload, c->workload) &&
		    same_but_build(b->workload_args ? b->workload_args : "",
				   c->workload_args ? c->workload_args : ""))
			return (int)j;
	}
	return -1;
}

struct dormant_cost {
	bool ok;
	double overhead, lo, hi, per_hit_ns;
};

/* Paired by block, as analyze.c does for its overheads. */
static struct dormant_cost dormant_vs_noprobe(const struct pcost_session *s, size_t i, size_t b,
					      uint64_t hits)
{
	const struct pcost_config *c = &s->configs[i], *base = &s->configs[b];
	struct dormant_cost d = { .ok = false };
	double *num = xcalloc(c->nsamples + 1, sizeof(double));
	double *den = xcalloc(c->nsamples + 1, sizeof(double));
	size_t n = 0;

	for (size_t k = 0; k < c->nsamples; k++) {
		if (!measured(&c->samples[k]))
			continue;
		for (size_t j = 0; j < base->nsamples; j++) {
			if (measured(&base->samples[j]) && base->samples[j].block == c->samples[k].block) {
				num[n] = (double)c->samples[k].wall_ns;
				den[n] = (double)base->samples[j].wall_ns;
				n++;
				break;
			}
		}
	}
	if (n) {
		double mn = pcost_mean(num, n), md = pcost_mean(den, n);

		d.ok = true;
		d.overhead = mn / md - 1;
		d.lo = d.hi = NAN;
		if (n >= 2)
			pcost_bootstrap_ratio_ci(num, den, n, BOOT_RESAMPLES, s->seed ^ (i << 8), 0.95,
						 &d.lo, &d.hi);
		d.per_hit_ns = hits ? (mn - md) / (double)hits : NAN;
	}
	free(num);
	free(den);
	return d;
}

static const char *variant_of(const struct pcost_config *c)
{
	return c->variant ? c->variant : "-";
}

/* The value of KEY=value in c's workload arguments into buf; false when absent. */
static bool arg_token(const struct pcost_config *c, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);

	for (const char *a = c->workload_args; a && *a; a += strcspn(a, " "), a += *a == ' ') {
		if (!strncmp(a, key, kl) && a[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(a + kl + 1, " "), a + kl + 1);
			return true;
		}
	}
	return false;
}

/* The probe-site encoding: stanford's site=, the uprobe workload's insn=; NULL when unknown. */
static const char *site_of(const struct pcost_config *c, char *buf, size_t len)
{
	if (arg_token(c, "site", buf, len) || arg_token(c, "insn", buf, len))
		return buf;
	return NULL;
}

/* Threads making the hits (threads=), 0 when the workload does not say. */
static unsigned threads_of(const struct pcost_config *c)
{
	char buf[16];

	return arg_token(c, "threads", buf, sizeof(buf)) ? (unsigned)strtoul(buf, NULL, 10) : 0;
}

/* Measured runs in which the kernel optimized the site, and runs that said either way. */
static void optimized_of(const struct pcost_config *c, size_t *yes, size_t *known)
{
	*yes = *known = 0;
	for (size_t k = 0; k < c->nsamples; k++) {
		const struct pcost_run_sample *x = &c->samples[k];

		if (measured(x) && x->optimized) {
			(*known)++;
			*yes += x->optimized > 0;
		}
	}
}

/* "yes", "no", "2/5" (runs optimized of runs known) or "n/a" (dormant rows: nothing armed). */
static const char *fmt_optimized(const struct pcost_config *c, bool baseline, char *buf,
				 size_t len)
{
	size_t yes, known;

	optimized_of(c, &yes, &known);
	if (baseline || !known)
		return "n/a";
	if (yes == known || !yes)
		return yes ? "yes" : "no";
	snprintf(buf, len, "%zu/%zu", yes, known);
	return buf;
}

/* Does the session have site encodings or thread counts to show? */
static bool has_shape(const struct pcost_session *s)
{
	char b[32];

	for (size_t i = 0; i < s->nconfigs; i++)
		if (site_of(&s->configs[i], b, sizeof(b)) || threads_of(&s->configs[i]))
			return true;
	return false;
}

/* The scale of a configuration's runs (1 when none measured). */
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

/* "plain", or "plain x4" when the session has several scales. */
static const char *label(const struct pcost_session *s, const struct pcost_config *c, char *buf,
			 size_t len)
{
	if (!several_scales(s))
		return variant_of(c);
	snprintf(buf, len, "%s x%g", variant_of(c), scale_of(c));
	return buf;
}

static void fmt_pct(char *buf, size_t len, double v, double lo, double hi)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isnan(lo))
		snprintf(buf, len, "%+.1f%%", 100 * v);
	else
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]", 100 * v, 100 * lo, 100 * hi);
}

static void fmt_hits(char *buf, size_t len, const struct hits_check *h, bool baseline)
{
	if (baseline)
		snprintf(buf, len, "-");
	else if (!h->known)
		snprintf(buf, len, "%s", h->expected >= 0 ? "not counted" : "-");
	else if (h->expected < 0)
		snprintf(buf, len, "%lld counted, none expected given", (long long)h->counted);
	else if (h->lost > 0)
		snprintf(buf, len, "%lld / %lld  %lld HITS LOST", (long long)h->counted,
			 (long long)h->expected, (long long)h->lost);
	else if (h->extra > 0)
		snprintf(buf, len, "%lld / %lld  %lld extra hits", (long long)h->counted,
			 (long long)h->expected, (long long)h->extra);
	else
		snprintf(buf, len, "%lld / %lld  ok", (long long)h->counted, (long long)h->expected);
}

/*
 * --scale with several sizes: analyze.c fits extra time = fixed + per hit x
 * hits for each build and method; the slope is the cost per hit with the
 * method's start-up (perf stat, bpftrace) taken out.
 */
static void fit_section(const struct pcost_session *s, const struct pcost_config_stats *st,
			FILE *out, bool md)
{
	bool header = false;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		char fx[32], ph[32];
		bool first = true;

		if (!st[i].has_fit || st[i].baseline < 0)
			continue;
		/* One row per build and method: the first configuration of the group. */
		for (size_t j = 0; j < i && first; j++)
			first = !(st[j].has_fit && !strcmp(s->configs[j].monitor, c->monitor) &&
				  !strcmp(variant_of(&s->configs[j]), variant_of(c)));
		if (!first)
			continue;
		if (!header) {
			fprintf(out, "\n# fit over the scales: extra time = fixed + per hit x hits\n");
			if (md)
				fprintf(out, "| variant | method | fixed | per hit | r2 |\n|---|---|---|---|---|\n");
			else
				fprintf(out, "  %-13s %-11s %-12s %-11s %s\n", "variant", "method", "fixed",
					"per hit", "r2");
			header = true;
		}
		snprintf(fx, sizeof(fx), "%.2f ms", st[i].fit_fixed_ns / 1e6);
		snprintf(ph, sizeof(ph), "%.0f ns", st[i].fit_per_event_ns);
		if (md)
			fprintf(out, "| %s | %s | %s | %s | %.3f |\n", variant_of(c), c->monitor, fx, ph,
				st[i].fit_r2);
		else
			fprintf(out, "  %-13s %-11s %-12s %-11s %.3f\n", variant_of(c), c->monitor, fx,
				ph, st[i].fit_r2);
	}
}

static void text(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out,
		 bool md)
{
	const struct pcost_config *c0 = s->nconfigs ? &s->configs[0] : NULL;
	unsigned blocks = 0, warm = 0;
	bool any_dormant = false, shape;

	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t k = 0; k < s->configs[i].nsamples; k++) {
			const struct pcost_run_sample *x = &s->configs[i].samples[k];

			if (x->warmup && x->block + 1 > warm)
				warm = x->block + 1;
			if (x->block + 1 > blocks)
				blocks = x->block + 1;
		}
	{
		const char *args = c0 && c0->workload_args ? c0->workload_args : "";

		/* The variant and the site are columns: drop them from the arguments in the title. */
		while (!strncmp(args, "variant=", 8) || !strncmp(args, "site=", 5) ||
		       !strncmp(args, "insn=", 5))
			args += strcspn(args, " ") + (args[strcspn(args, " ")] ? 1 : 0);
		uint64_t hits = 0;

		/* The hits of the first build with probes (the no-probe build has none). */
		for (size_t i = 0; i < s->nconfigs && !hits; i++)
			hits = s->configs[i].expected_events > 0
				       ? (uint64_t)s->configs[i].expected_events
				       : st[i].events;
		fprintf(out, "# probecost probes: %s %s, %llu hits per run%s\n",
			c0 ? c0->workload : "-", args, (unsigned long long)hits,
			s->complete ? "" : " (INTERRUPTED: partial)");
	}
	fprintf(out, "# %u blocks (%u warm-up), 95%% confidence; per hit = extra time over the "
		     "dormant run of the same build / hits%s\n\n",
		blocks, warm, s->tsc_hz > 0 ? "" : "; TSC unknown, no cycles");
	shape = has_shape(s);
	if (md)
		fprintf(out, "| variant | method |%s elapsed | overhead | per hit | cycles/hit | hits "
			     "counted / expected |%s\n|---|---|%s---|---|---|---|---|%s\n",
			shape ? " site | threads |" : "", shape ? " optimized |" : "",
			shape ? "---|---|" : "", shape ? "---|" : "");
	else if (shape)
		fprintf(out, "  %-13s %-11s %-6s %-7s %-21s %-25s %-11s %-11s %-28s %s\n", "variant",
			"method", "site", "threads", "elapsed", "overhead", "per hit", "cycles/hit",
			"hits counted / expected", "optimized");
	else
		fprintf(out, "  %-13s %-11s %-21s %-25s %-11s %-11s %s\n", "variant", "method",
			"elapsed", "overhead", "per hit", "cycles/hit", "hits counted / expected");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *t = &st[i];
		struct hits_check h = check_hits(c, t);
		char el[64], ov[64], ph[32] = "-", cy[32] = "-", hi[96], lb[64];
		uint64_t hits = hits_per_run(c, t);

		if (t->nok)
			snprintf(el, sizeof(el), "%.3f s (+- %.1f%%)", t->wall.mean / 1e9,
				 100 * t->wall.cov);
		else
			snprintf(el, sizeof(el), "failed (%zu)", t->nfailed);
		fmt_pct(ov, sizeof(ov), t->overhead, t->overhead_lo, t->overhead_hi);
		if (t->baseline >= 0 && hits && !isnan(t->extra_ns)) {
			snprintf(ph, sizeof(ph), "%.0f ns", t->extra_ns / (double)hits);
			if (s->tsc_hz > 0)
				snprintf(cy, sizeof(cy), "%.0f", t->extra_cycles / (double)hits);
		}
		fmt_hits(hi, sizeof(hi), &h, t->baseline < 0);
		if (shape) {
			char sb[32], th[16] = "-", ob[32];
			const char *site = site_of(c, sb, sizeof(sb)), *opt;

			if (threads_of(c))
				snprintf(th, sizeof(th), "%u", threads_of(c));
			opt = fmt_optimized(c, t->baseline < 0, ob, sizeof(ob));
			if (md)
				fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
					label(s, c, lb, sizeof(lb)), c->monitor, site ? site : "-",
					th, el, ov, ph, cy, hi, opt);
			else
				fprintf(out, "  %-13s %-11s %-6s %-7s %-21s %-25s %-11s %-11s %-28s %s\n",
					label(s, c, lb, sizeof(lb)), c->monitor, site ? site : "-",
					th, el, ov, ph, cy, hi, opt);
		} else if (md)
			fprintf(out, "| %s | %s | %s | %s | %s | %s | %s |\n",
				label(s, c, lb, sizeof(lb)), c->monitor, el, ov, ph, cy, hi);
		else
			fprintf(out, "  %-13s %-11s %-21s %-25s %-11s %-11s %s\n",
				label(s, c, lb, sizeof(lb)), c->monitor, el, ov, ph, cy, hi);
		any_dormant |= t->baseline < 0 && c->variant && strcmp(c->variant, "none") &&
			       find_noprobe(s, c) >= 0;
	}
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];

		for (size_t k = c->nsamples; k-- > 0;)
			if (c->samples[k].failed && !c->samples[k].warmup) {
				fprintf(out, "%s  %s/%s failed: %s\n", md ? "\n" : "", variant_of(c),
					c->monitor, c->samples[k].fail_reason);
				break;
			}
	}
	fit_section(s, st, out, md);
	if (!any_dormant)
		return;
	fprintf(out, "\n# dormant probes vs the no-probe build (what a probe costs when nobody "
		     "listens)\n");
	if (md)
		fprintf(out, "| variant | overhead | per hit |\n|---|---|---|\n");
	else
		fprintf(out, "  %-13s %-25s %s\n", "variant", "overhead", "per hit");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		int b;
		struct dormant_cost d;
		char ov[64], ph[32] = "-";

		if (st[i].baseline >= 0 || !c->variant || !strcmp(c->variant, "none"))
			continue;
		b = find_noprobe(s, c);
		if (b < 0)
			continue;
		d = dormant_vs_noprobe(s, i, (size_t)b,
				       c->expected_events > 0 ? (uint64_t)c->expected_events
							      : st[i].events);
		if (!d.ok)
			continue;
		fmt_pct(ov, sizeof(ov), d.overhead, d.lo, d.hi);
		if (!isnan(d.per_hit_ns))
			snprintf(ph, sizeof(ph), "%.2f ns", d.per_hit_ns);
		if (md)
			fprintf(out, "| %s | %s | %s |\n", c->variant, ov, ph);
		else
			fprintf(out, "  %-13s %-25s %s\n", c->variant, ov, ph);
	}
}

static void csv(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	fprintf(out, "variant,method,runs,failed,elapsed_mean_ns,elapsed_cov,overhead,overhead_lo,"
		     "overhead_hi,per_hit_ns,per_hit_cycles,hits_expected,hits_counted,hits_lost,"
		     "site,threads,optimized_runs,optimized_known\n");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *t = &st[i];
		struct hits_check h = check_hits(c, t);
		uint64_t hits = hits_per_run(c, t);
		double ph = t->baseline >= 0 && hits ? t->extra_ns / (double)hits : NAN;
		double pc = s->tsc_hz > 0 && !isnan(ph) ? t->extra_cycles / (double)hits : NAN;

		char sb[32], th[16] = "", ok[48] = ",";
		const char *site = site_of(c, sb, sizeof(sb));
		size_t yes, known;

		if (threads_of(c))
			snprintf(th, sizeof(th), "%u", threads_of(c));
		optimized_of(c, &yes, &known);
		if (known && t->baseline >= 0)
			snprintf(ok, sizeof(ok), "%zu,%zu", yes, known);
		fprintf(out, "%s,%s,%zu,%zu,%.0f,%.4f,%.5f,%.5f,%.5f,%.2f,%.1f,%lld,%lld,%lld,%s,%s,%s\n",
			variant_of(c), c->monitor, t->nok, t->nfailed, t->wall.mean, t->wall.cov,
			t->overhead, t->overhead_lo, t->overhead_hi, ph, pc, (long long)h.expected,
			h.known ? (long long)h.counted : -1LL, h.known ? (long long)h.lost : -1LL,
			site ? site : "", th, ok);
	}
}

static cJSON *num_or_null(double v)
{
	return isnan(v) || isinf(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

/*
 * site (encoding of the probed instruction), threads, and optimized: true when
 * every measured run saw the kernel optimize the site, false when none did,
 * null when unknown, mixed, or nothing was armed (dormant).
 */
static void json_shape(cJSON *o, const struct pcost_config *c, bool baseline)
{
	char sb[32];
	const char *site = site_of(c, sb, sizeof(sb));
	size_t yes, known;

	optimized_of(c, &yes, &known);
	cJSON_AddItemToObject(o, "site", site ? cJSON_CreateString(site) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "threads", threads_of(c) ? cJSON_CreateNumber(threads_of(c))
							   : cJSON_CreateNull());
	if (baseline || !known || (yes && yes != known))
		cJSON_AddNullToObject(o, "optimized");
	else
		cJSON_AddBoolToObject(o, "optimized", yes == known);
	cJSON_AddItemToObject(o, "optimized_runs", known && !baseline ? cJSON_CreateNumber((double)yes)
								      : cJSON_CreateNull());
}

static void json(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(root, "configs");
	char *txt;

	cJSON_AddStringToObject(root, "kind", "probes");
	cJSON_AddBoolToObject(root, "complete", s->complete);
	cJSON_AddItemToObject(root, "tsc_hz", num_or_null(s->tsc_hz > 0 ? s->tsc_hz : NAN));
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *t = &st[i];
		struct hits_check h = check_hits(c, t);
		uint64_t hits = hits_per_run(c, t);
		double ph = t->baseline >= 0 && hits ? t->extra_ns / (double)hits : NAN;
		cJSON *o = cJSON_CreateObject();
		int b;

		cJSON_AddStringToObject(o, "workload", c->workload);
		cJSON_AddStringToObject(o, "workload_args", c->workload_args ? c->workload_args : "");
		cJSON_AddStringToObject(o, "variant", variant_of(c));
		cJSON_AddStringToObject(o, "method", c->monitor);
		json_shape(o, c, t->baseline < 0);
		cJSON_AddNumberToObject(o, "runs", (double)t->nok);
		cJSON_AddNumberToObject(o, "failed", (double)t->nfailed);
		cJSON_AddItemToObject(o, "elapsed_mean_ns", num_or_null(t->nok ? t->wall.mean : NAN));
		cJSON_AddItemToObject(o, "elapsed_cov", num_or_null(t->nok ? t->wall.cov : NAN));
		cJSON_AddItemToObject(o, "overhead", num_or_null(t->overhead));
		cJSON_AddItemToObject(o, "overhead_lo", num_or_null(t->overhead_lo));
		cJSON_AddItemToObject(o, "overhead_hi", num_or_null(t->overhead_hi));
		cJSON_AddItemToObject(o, "per_hit_ns", num_or_null(ph));
		cJSON_AddItemToObject(o, "per_hit_cycles",
				      num_or_null(s->tsc_hz > 0 && !isnan(ph)
							  ? t->extra_cycles / (double)hits
							  : NAN));
		cJSON_AddNumberToObject(o, "hits_expected", (double)h.expected);
		cJSON_AddItemToObject(o, "hits_counted",
				      h.known ? cJSON_CreateNumber((double)h.counted) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "hits_lost",
				      h.known ? cJSON_CreateNumber((double)h.lost) : cJSON_CreateNull());
		if (t->baseline < 0 && c->variant && strcmp(c->variant, "none") &&
		    (b = find_noprobe(s, c)) >= 0) {
			struct dormant_cost d = dormant_vs_noprobe(s, i, (size_t)b, hits);

			if (d.ok) {
				cJSON_AddItemToObject(o, "dormant_overhead", num_or_null(d.overhead));
				cJSON_AddItemToObject(o, "dormant_overhead_lo", num_or_null(d.lo));
				cJSON_AddItemToObject(o, "dormant_overhead_hi", num_or_null(d.hi));
				cJSON_AddItemToObject(o, "dormant_per_hit_ns", num_or_null(d.per_hit_ns));
			}
		}
		cJSON_AddItemToArray(rows, o);
	}
	txt = cJSON_Print(root);
	fprintf(out, "%s\n", txt);
	free(txt);
	cJSON_Delete(root);
}

int pcost_report_probes(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	struct pcost_config_stats *st = NULL;
	int rc = pcost_analyze(s, &st);

	if (rc < 0)
		return rc;
	switch (f) {
	case PCOST_FMT_CSV:
		csv(s, st, out);
		break;
	case PCOST_FMT_JSON:
		json(s, st, out);
		break;
	case PCOST_FMT_MARKDOWN:
		text(s, st, out, true);
		break;
	default:
		text(s, st, out, false);
		break;
	}
	free(st);
	return 0;
}
