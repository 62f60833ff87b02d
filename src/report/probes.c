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
#include "report/emit.h"
#include "report/warnings.h"

/*
 * Worst shortfall of the method's count against the hits expected (negative:
 * extra hits).  A shortfall is the tracer's loss only when the tracer said so
 * (its note on the run: ring-buffer drops, lost-event counters); a program that
 * made other hits than expected failed its run (run/verdict.h), whose count is
 * not in these.
 */
struct hits_check {
	bool known; /* some sample carried a count and something was expected */
	int64_t expected;
	int64_t counted; /* median (analyze) */
	int64_t lost;	 /* max over samples of expected - counted, > 0: hits lost */
	int64_t extra;	 /* max over samples of counted - expected */
	bool said;	 /* the tracer said it lost events in a run that came up short */
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

		if (!pcost_sample_measured(x) || x->monitor_events < 0)
			continue;
		h.known = true;
		if (h.expected - x->monitor_events > 0 && x->note[0])
			h.said = true;
		if (h.expected - x->monitor_events > h.lost)
			h.lost = h.expected - x->monitor_events;
		if (x->monitor_events - h.expected > h.extra)
			h.extra = x->monitor_events - h.expected;
	}
	return h;
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

/* Threads making the hits (threads=), 0 when the workload does not say. */
static unsigned threads_of(const struct pcost_config *c)
{
	char buf[16];

	return arg_token(c, "threads", buf, sizeof(buf)) ? (unsigned)strtoul(buf, NULL, 10) : 0;
}

/* "yes", "no", "2/5" (runs optimized of runs known) or "n/a" (unknown, or dormant: nothing armed). */
static const char *fmt_optimized(const struct pcost_config_stats *t, char *buf, size_t len)
{
	if (t->baseline < 0 || !t->optimized_known)
		return "n/a";
	if (pcost_optimized_verdict(t))
		return pcost_optimized_verdict(t) > 0 ? "yes" : "no";
	snprintf(buf, len, "%zu/%zu", t->optimized_runs, t->optimized_known);
	return buf;
}

/* Does the session have site encodings or thread counts to show? */
static bool has_shape(const struct pcost_session *s)
{
	char b[32];

	for (size_t i = 0; i < s->nconfigs; i++)
		if (pcost_config_site(&s->configs[i], b, sizeof(b)) || threads_of(&s->configs[i]))
			return true;
	return false;
}

/*
 * A row's site facts (probes/site_safety.h), from the session's options:
 * "site_facts", one object or null per configuration (cmd/cmd-probes.c).
 */
struct row_facts {
	char encoding[8];		   /* "nop5"; "" unknown */
	int8_t red_zone_live, optimizable; /* 1 yes, -1 no, 0 unknown */
};

static int8_t fact_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsBool(v) ? (cJSON_IsTrue(v) ? 1 : -1) : 0;
}

/* One per configuration, or NULL when the session has none (stored before they were kept). */
static struct row_facts *read_facts(const struct pcost_session *s)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "site_facts"), *e;
	struct row_facts *fx = NULL;
	size_t i = 0;

	if (!cJSON_IsArray(a))
		a = NULL;
	cJSON_ArrayForEach(e, a)
	{
		const cJSON *enc = cJSON_GetObjectItemCaseSensitive(e, "encoding");

		if (i >= s->nconfigs)
			break;
		if (!fx)
			fx = xcalloc(s->nconfigs, sizeof(*fx));
		if (cJSON_IsString(enc))
			snprintf(fx[i].encoding, sizeof(fx[i].encoding), "%s", enc->valuestring);
		fx[i].red_zone_live = fact_of(e, "red_zone_live");
		fx[i++].optimizable = fact_of(e, "optimizable");
	}
	cJSON_Delete(o);
	return fx;
}

/* A site fact as text: "yes", "no", "n/a". */
static const char *fact_text(int8_t v)
{
	return v > 0 ? "yes" : v < 0 ? "no" : "n/a";
}

/* The facts' columns at the end of a row in row[0..n) (nothing when the session has none). */
static void text_facts(const struct row_facts *fx, size_t i, char *row, int n, bool md)
{
	bool known = fx && fx[i].encoding[0];
	const char *enc = known ? fx[i].encoding : "-",
		   *rz = known ? fact_text(fx[i].red_zone_live) : "-",
		   *op = known ? fact_text(fx[i].optimizable) : "-";

	if (!fx || n < 0 || (size_t)n >= 512)
		return;
	snprintf(row + n, 512 - (size_t)n, md ? " %s | %s | %s |" : " %-8s %-8s %-11s", enc, rz,
		 op);
}

/* Print a row of 512 bytes at most without its trailing blanks. */
static void end_row(char *row, FILE *out)
{
	size_t n = strlen(row);

	while (n && row[n - 1] == ' ')
		row[--n] = '\0';
	fprintf(out, "%s\n", row);
}

static bool several_scales(const struct pcost_session *s)
{
	for (size_t i = 1; i < s->nconfigs; i++)
		if (pcost_config_scale(&s->configs[i]) != pcost_config_scale(&s->configs[0]))
			return true;
	return false;
}

/* "plain", "plain x4" when the session has several scales, "plain a32" at a code layout. */
static const char *label(const struct pcost_session *s, const struct pcost_config *c, char *buf,
			 size_t len)
{
	char scale[24] = "", layout[32];

	if (several_scales(s))
		snprintf(scale, sizeof(scale), " x%g", pcost_config_scale(c));
	if (pcost_config_layout(c, layout, sizeof(layout)))
		snprintf(buf, len, "%s%s %s", variant_of(c), scale, layout);
	else
		snprintf(buf, len, "%s%s", variant_of(c), scale);
	return buf;
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
		snprintf(buf, len, "%lld / %lld  %lld %s", (long long)h->counted,
			 (long long)h->expected, (long long)h->lost,
			 h->said ? "HITS LOST" : "SHORT");
	else if (h->extra > 0)
		snprintf(buf, len, "%lld / %lld  %lld extra hits", (long long)h->counted,
			 (long long)h->expected, (long long)h->extra);
	else
		snprintf(buf, len, "%lld / %lld  ok", (long long)h->counted,
			 (long long)h->expected);
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
		char fx[64], ph[64], r2[16];

		if (!st[i].has_fit || st[i].baseline < 0 || st[i].fit_group != (int)i)
			continue;
		if (!header) {
			fprintf(out, "\n# fit over the scales: extra time = fixed + per hit x hits "
				     "[95%% interval over blocks]\n");
			if (md)
				fprintf(out,
					"| variant | method | fixed | per hit | r2 |\n|---|---|---|---|---|\n");
			else
				fprintf(out, "  %-16s %-11s %-26s %-26s %s\n", "variant", "method",
					"fixed", "per hit", "r2");
			header = true;
		}
		pcost_text_ns_ci(st[i].fit_fixed_ns, st[i].fit_fixed_ns_lo, st[i].fit_fixed_ns_hi,
				 NULL, fx, sizeof(fx));
		pcost_text_ns_ci(st[i].fit_per_event_ns, st[i].fit_per_event_ns_lo,
				 st[i].fit_per_event_ns_hi, NULL, ph, sizeof(ph));
		snprintf(r2, sizeof(r2), isfinite(st[i].fit_r2) ? "%.3f" : "n/a", st[i].fit_r2);
		if (md)
			fprintf(out, "| %s | %s | %s | %s | %s |\n", variant_of(c), c->monitor, fx,
				ph, r2);
		else
			fprintf(out, "  %-16s %-11s %-26s %-26s %s\n", variant_of(c), c->monitor,
				fx, ph, r2);
	}
}

/* Cycles per hit from the ns figure (NaN when the TSC is unknown). */
static double cycles(const struct pcost_session *s, double ns)
{
	return s->tsc_hz > 0 ? ns * s->tsc_hz / 1e9 : NAN;
}

static void text_title(const struct pcost_session *s, const struct pcost_config_stats *st,
		       FILE *out)
{
	unsigned blocks = 0, warm = 0;

	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t k = 0; k < s->configs[i].nsamples; k++) {
			const struct pcost_run_sample *x = &s->configs[i].samples[k];

			if (x->warmup && x->block + 1 > warm)
				warm = x->block + 1;
			if (x->block + 1 > blocks)
				blocks = x->block + 1;
		}
	uint64_t hits = 0;
	const struct pcost_config *c0 = s->nconfigs ? &s->configs[0] : NULL;
	const char *args = c0 && c0->workload_args ? c0->workload_args : "";

	/* The variant and the site are columns: drop them from the arguments in the title. */
	while (!strncmp(args, "variant=", 8) || !strncmp(args, "site=", 5) ||
	       !strncmp(args, "insn=", 5))
		args += strcspn(args, " ") + (args[strcspn(args, " ")] ? 1 : 0);
	/* The hits of the first build with probes (the no-probe build has none). */
	for (size_t i = 0; i < s->nconfigs && !hits; i++)
		hits = s->configs[i].expected_events > 0 ? (uint64_t)s->configs[i].expected_events
							 : st[i].events;
	fprintf(out, "# probecost probes: %s %s, %llu hits per run%s\n", c0 ? c0->workload : "-",
		args, (unsigned long long)hits, s->complete ? "" : " (INTERRUPTED: partial)");
	fprintf(out,
		"# %u blocks (%u warm-up), 95%% confidence; per hit = extra time inside the "
		"workload's timed region over the dormant run of the same build / hits%s\n",
		blocks, warm, s->tsc_hz > 0 ? "" : "; TSC unknown, no cycles");
	pcost_text_changed(s, st, "armed", "dormant", out);
	fputc('\n', out);
}

static void text_row(const struct pcost_session *s, const struct pcost_config_stats *st,
		     const struct row_facts *fx, size_t i, FILE *out, bool md)
{
	const struct pcost_config *c = &s->configs[i];
	const struct pcost_config_stats *t = &st[i];
	struct hits_check h = check_hits(c, t);
	char el[64], ov[64], ph[64] = "-", cy[32] = "-", hi[96], lb[64], row[512];
	const char *oc = pcost_outcome_name(t->outcome);
	int n;

	if (t->nok)
		snprintf(el, sizeof(el), "%.3f s (+- %.1f%%)", t->wall.mean / 1e9,
			 100 * t->wall.cov);
	else if (t->nfailed)
		snprintf(el, sizeof(el), "failed (%zu)", t->nfailed);
	else
		snprintf(el, sizeof(el), "not measured");
	if (t->baseline < 0) {
		snprintf(ov, sizeof(ov), "-");
	} else {
		pcost_text_pct_ci(t->overhead, t->overhead_lo, t->overhead_hi, t->significant, ov,
				  sizeof(ov));
		pcost_text_ns_ci(t->per_event_ns, t->per_event_ns_lo, t->per_event_ns_hi, NULL, ph,
				 sizeof(ph));
		if (isfinite(cycles(s, t->per_event_ns)))
			snprintf(cy, sizeof(cy), "%.0f", cycles(s, t->per_event_ns));
		else
			snprintf(cy, sizeof(cy), "n/a");
	}
	fmt_hits(hi, sizeof(hi), &h, t->baseline < 0);
	if (has_shape(s)) {
		char sb[32], th[16] = "-", ob[32];
		const char *site = pcost_config_site(c, sb, sizeof(sb)),
			   *opt = fmt_optimized(t, ob, sizeof(ob));

		if (threads_of(c))
			snprintf(th, sizeof(th), "%u", threads_of(c));
		/* The facts before optimized: what the kernel should do, then what it did. */
		if (md)
			n = snprintf(row, sizeof(row),
				     "| %s | %s | %s | %s | %s | %s | %s | %s | %s |",
				     label(s, c, lb, sizeof(lb)), c->monitor, site ? site : "-", th,
				     el, ov, ph, cy, hi);
		else
			n = snprintf(row, sizeof(row),
				     "  %-16s %-11s %-8s %-7s %-21s %-25s %-24s %-10s %-28s",
				     label(s, c, lb, sizeof(lb)), c->monitor, site ? site : "-", th,
				     el, ov, ph, cy, hi);
		text_facts(fx, i, row, n, md);
		n = (int)strlen(row);
		snprintf(row + n, sizeof(row) - (size_t)n, md ? " %s | %s |" : " %-9s %s", opt, oc);
		end_row(row, out);
		return;
	} else if (md) {
		n = snprintf(row, sizeof(row), "| %s | %s | %s | %s | %s | %s | %s |",
			     label(s, c, lb, sizeof(lb)), c->monitor, el, ov, ph, cy, hi);
	} else {
		n = snprintf(row, sizeof(row), "  %-16s %-11s %-21s %-25s %-24s %-10s %-28s",
			     label(s, c, lb, sizeof(lb)), c->monitor, el, ov, ph, cy, hi);
	}
	text_facts(fx, i, row, n, md);
	n = (int)strlen(row);
	snprintf(row + n, sizeof(row) - (size_t)n, md ? " %s |" : " %s", oc);
	end_row(row, out);
}

/* The table's header; site, threads and optimized columns when the session has them. */
static void text_header(const struct pcost_session *s, const struct row_facts *fx, FILE *out,
			bool md)
{
	bool shape = has_shape(s), facts = fx != NULL;
	char row[512];

	if (md) {
		fprintf(out,
			"| variant | method |%s elapsed | overhead | per hit [95%%] | cycles/hit | "
			"hits counted / expected |%s%s outcome |\n|---|---|%s---|---|---|---|---|%s%s---|\n",
			shape ? " site | threads |" : "",
			facts ? " encoding | red zone live | optimizable |" : "",
			shape ? " optimized |" : "", shape ? "---|---|" : "",
			facts ? "---|---|---|" : "", shape ? "---|" : "");
		return;
	}
	if (shape)
		snprintf(row, sizeof(row),
			 "  %-16s %-11s %-8s %-7s %-21s %-25s %-24s %-10s %-28s %s%-9s %s",
			 "variant", "method", "site", "threads", "elapsed", "overhead", "per hit",
			 "cycles/hit", "hits counted / expected",
			 facts ? "encoding red-zone optimizable " : "", "optimized", "outcome");
	else
		snprintf(row, sizeof(row), "  %-16s %-11s %-21s %-25s %-24s %-10s %-28s %s%s",
			 "variant", "method", "elapsed", "overhead", "per hit", "cycles/hit",
			 "hits counted / expected", facts ? "encoding red-zone optimizable " : "",
			 "outcome");
	end_row(row, out);
}

/*
 * Each build over its code layouts: the mean dormant cost per hit with its
 * interval, and the spread of the layouts (analyze.c); once per build.
 */
static void dormant_builds(const struct pcost_session *s, const struct pcost_config_stats *st,
			   FILE *out, bool md)
{
	bool header = false;

	for (size_t i = 0; i < s->nconfigs; i++) {
		char ph[64], sp[64];
		bool first = true;

		if (st[i].noprobe < 0 || st[i].dormant_layouts < 2)
			continue;
		for (size_t j = 0; j < i && first; j++)
			first = !(st[j].noprobe >= 0 &&
				  !strcmp(variant_of(&s->configs[j]), variant_of(&s->configs[i])) &&
				  pcost_config_scale(&s->configs[j]) ==
					  pcost_config_scale(&s->configs[i]));
		if (!first)
			continue;
		if (!header) {
			fprintf(out,
				"\n# dormant cost per hit of each build over its %zu code layouts "
				"(mean [95%%, t over the layout means], spread of the layouts)\n",
				st[i].dormant_layouts);
			if (md)
				fprintf(out,
					"| variant | per hit | layouts from .. to |\n|---|---|---|\n");
			else
				fprintf(out, "  %-16s %-26s %s\n", "variant", "per hit",
					"layouts from .. to");
			header = true;
		}
		pcost_text_ns_ci(st[i].dormant_all_per_hit_ns, st[i].dormant_all_per_hit_ns_lo,
				 st[i].dormant_all_per_hit_ns_hi, NULL, ph, sizeof(ph));
		snprintf(sp, sizeof(sp), "%.2f .. %.2f ns", st[i].dormant_spread_min,
			 st[i].dormant_spread_max);
		if (md)
			fprintf(out, "| %s | %s | %s |\n", variant_of(&s->configs[i]), ph, sp);
		else
			fprintf(out, "  %-16s %-26s %s\n", variant_of(&s->configs[i]), ph, sp);
	}
}

/* Each probe build's dormant run against the no-probe build's (analyze.c pairs them). */
static void dormant_section(const struct pcost_session *s, const struct pcost_config_stats *st,
			    FILE *out, bool md)
{
	bool header = false;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		char ov[64], ph[64], lb[64];

		if (st[i].noprobe < 0)
			continue;
		if (!header) {
			fprintf(out,
				"\n# dormant probes vs the no-probe build (what a probe costs when "
				"nobody listens), from the %s\n",
				st[i].dormant_source);
			if (md)
				fprintf(out, "| variant | overhead | per hit |\n|---|---|---|\n");
			else
				fprintf(out, "  %-16s %-25s %s\n", "variant", "overhead",
					"per hit");
			header = true;
		}
		pcost_text_pct_ci(st[i].dormant_overhead, st[i].dormant_overhead_lo,
				  st[i].dormant_overhead_hi, true, ov, sizeof(ov));
		pcost_text_ns_ci(st[i].dormant_per_hit_ns, st[i].dormant_per_hit_ns_lo,
				 st[i].dormant_per_hit_ns_hi, NULL, ph, sizeof(ph));
		if (md)
			fprintf(out, "| %s | %s | %s |\n", label(s, c, lb, sizeof(lb)), ov, ph);
		else
			fprintf(out, "  %-16s %-25s %s\n", label(s, c, lb, sizeof(lb)), ov, ph);
	}
	dormant_builds(s, st, out, md);
}

/* Each armed site encoding against nop (analyze.c: site_gain): does the encoding pay per hit? */
static void site_section(const struct pcost_session *s, const struct pcost_config_stats *st,
			 FILE *out, bool md)
{
	bool header = false;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *t = &st[i];
		char sb[32], g[96];
		const char *v;

		if (t->site_ref < 0)
			continue;
		if (!header) {
			fprintf(out,
				"\n# site encodings against nop: nop's cost per hit / this site's "
				"(blocks paired, 95%%; above 1: cheaper)\n");
			if (md)
				fprintf(out, "| variant | method | site | gain | verdict |\n"
					     "|---|---|---|---|---|\n");
			else
				fprintf(out, "  %-16s %-11s %-8s %-24s %s\n", "variant", "method",
					"site", "gain", "verdict");
			header = true;
		}
		if (isnan(t->site_gain))
			snprintf(g, sizeof(g), "n/a");
		else if (isnan(t->site_gain_lo))
			snprintf(g, sizeof(g), "%.2fx", t->site_gain);
		else
			snprintf(g, sizeof(g), "%.2fx [%.2f, %.2f]", t->site_gain, t->site_gain_lo,
				 t->site_gain_hi);
		v = isnan(t->site_gain_lo) ? "no interval"
		    : t->site_gain_lo > 1  ? "cheaper (interval above 1)"
		    : t->site_gain_hi < 1  ? "dearer (interval below 1)"
					   : "not shown (interval spans 1)";
		if (md)
			fprintf(out, "| %s | %s | %s | %s | %s |\n", variant_of(c), c->monitor,
				pcost_config_site(c, sb, sizeof(sb)), g, v);
		else
			fprintf(out, "  %-16s %-11s %-8s %-24s %s\n", variant_of(c), c->monitor,
				pcost_config_site(c, sb, sizeof(sb)), g, v);
	}
}

static void text(const struct pcost_session *s, const struct pcost_config_stats *st,
		 const struct row_facts *fx, FILE *out, bool md)
{
	struct pcost_run_warnings w;

	text_title(s, st, out);
	text_header(s, fx, out, md);
	for (size_t i = 0; i < s->nconfigs; i++)
		text_row(s, st, fx, i, out, md);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		char sb[32];
		const char *site = pcost_config_site(c, sb, sizeof(sb));

		if (st[i].outcome != PCOST_OUTCOME_OK || st[i].outcome_noted)
			fprintf(out, "%s  %s/%s%s%s: %s: %s\n", md ? "\n" : "", variant_of(c),
				c->monitor, site ? " " : "", site ? site : "",
				pcost_outcome_name(st[i].outcome), st[i].outcome_why);
	}
	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].baseline >= 0 && st[i].nok && st[i].per_event_why) {
			fprintf(out, "\n  per hit n/a: %s\n", st[i].per_event_why);
			break;
		}
	fit_section(s, st, out, md);
	site_section(s, st, out, md);
	dormant_section(s, st, out, md);
	w.n = 0;
	pcost_stat_warnings(s, st, &w);
	for (size_t i = 0; i < w.n; i++)
		fprintf(out, "%s%s %s\n", i ? "" : "\n", md ? "- warning:" : "warning:", w.msg[i]);
}

/* site, threads, and in how many of the runs that said the kernel optimized the site. */
static void csv_shape(struct pcost_csv *w, const struct pcost_config *c,
		      const struct pcost_config_stats *t)
{
	char sb[32];
	const char *site = pcost_config_site(c, sb, sizeof(sb));
	bool known = t->optimized_known && t->baseline >= 0;

	pcost_csv_str(w, site ? site : "");
	pcost_csv_count(w, threads_of(c), threads_of(c) > 0);
	pcost_csv_count(w, (double)t->optimized_runs, known);
	pcost_csv_count(w, (double)t->optimized_known, known);
}

/* A fact, or an empty field when unknown. */
static void csv_fact(struct pcost_csv *w, int8_t v)
{
	if (v)
		pcost_csv_bool(w, v > 0);
	else
		pcost_csv_str(w, "");
}

static void csv(const struct pcost_session *s, const struct pcost_config_stats *st,
		const struct row_facts *fx, FILE *out)
{
	struct pcost_csv w = { .out = out };

	fprintf(out,
		"variant,method,runs,failed,elapsed_mean_ns,elapsed_cov,overhead,overhead_lo,"
		"overhead_hi,per_hit_ns,per_hit_cycles,hits_expected,hits_counted,hits_lost,"
		"per_hit_ns_lo,per_hit_ns_hi,fixed_ns,fixed_ns_lo,fixed_ns_hi,dormant_overhead,"
		"dormant_overhead_lo,dormant_overhead_hi,dormant_per_hit_ns,dormant_per_hit_ns_lo,"
		"dormant_per_hit_ns_hi,scale,site,threads,optimized_runs,optimized_known,"
		"gain_vs_nop,gain_vs_nop_lo,gain_vs_nop_hi,overhead_robust,overhead_robust_lo,"
		"overhead_robust_hi,per_hit_ns_robust,per_hit_ns_robust_lo,per_hit_ns_robust_hi,"
		"fixed_ns_robust,fixed_ns_robust_lo,fixed_ns_robust_hi,dormant_overhead_robust,"
		"dormant_overhead_robust_lo,dormant_overhead_robust_hi,dormant_per_hit_ns_robust,"
		"dormant_per_hit_ns_robust_lo,dormant_per_hit_ns_robust_hi,gain_vs_nop_robust,"
		"gain_vs_nop_robust_lo,gain_vs_nop_robust_hi,carry_over,carry_over_lo,carry_over_hi,"
		"carry_over_p,encoding,red_zone_live,optimizable,hits_loss_said,outcome,outcome_why\n");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *t = &st[i];
		struct hits_check h = check_hits(c, t);

		pcost_csv_str(&w, variant_of(c));
		pcost_csv_str(&w, c->monitor);
		pcost_csv_count(&w, (double)t->nok, true);
		pcost_csv_count(&w, (double)t->nfailed, true);
		pcost_csv_num(&w, "%.0f", t->nok ? t->wall.mean : NAN);
		pcost_csv_num(&w, "%.4f", t->nok > 1 ? t->wall.cov : NAN);
		pcost_csv_ci(&w, "%.5f", t->overhead, t->overhead_lo, t->overhead_hi);
		pcost_csv_num(&w, "%.2f", t->per_event_ns);
		pcost_csv_num(&w, "%.1f", cycles(s, t->per_event_ns));
		pcost_csv_count(&w, (double)h.expected, h.expected >= 0);
		pcost_csv_count(&w, (double)h.counted, h.known);
		pcost_csv_count(&w, (double)h.lost, h.known && h.expected >= 0);
		pcost_csv_num(&w, "%.2f", t->per_event_ns_lo);
		pcost_csv_num(&w, "%.2f", t->per_event_ns_hi);
		pcost_csv_ci(&w, "%.0f", t->fixed_ns, t->fixed_ns_lo, t->fixed_ns_hi);
		pcost_csv_ci(&w, "%.5f", t->dormant_overhead, t->dormant_overhead_lo,
			     t->dormant_overhead_hi);
		pcost_csv_ci(&w, "%.3f", t->dormant_per_hit_ns, t->dormant_per_hit_ns_lo,
			     t->dormant_per_hit_ns_hi);
		pcost_csv_num(&w, "%g", pcost_config_scale(c));
		csv_shape(&w, c, t);
		pcost_csv_ci(&w, "%.3f", t->site_gain, t->site_gain_lo, t->site_gain_hi);
		pcost_csv_ci(&w, "%.5f", t->overhead_robust, t->overhead_robust_lo,
			     t->overhead_robust_hi);
		pcost_csv_ci(&w, "%.2f", t->per_event_ns_robust, t->per_event_ns_robust_lo,
			     t->per_event_ns_robust_hi);
		pcost_csv_ci(&w, "%.0f", t->fixed_ns_robust, t->fixed_ns_robust_lo,
			     t->fixed_ns_robust_hi);
		pcost_csv_ci(&w, "%.5f", t->dormant_overhead_robust, t->dormant_overhead_robust_lo,
			     t->dormant_overhead_robust_hi);
		pcost_csv_ci(&w, "%.3f", t->dormant_per_hit_ns_robust,
			     t->dormant_per_hit_ns_robust_lo, t->dormant_per_hit_ns_robust_hi);
		pcost_csv_ci(&w, "%.3f", t->site_gain_robust, t->site_gain_robust_lo,
			     t->site_gain_robust_hi);
		pcost_csv_carry_over(&w, t);
		/* encoding, red_zone_live, optimizable: empty when unknown. */
		pcost_csv_str(&w, fx ? fx[i].encoding : "");
		csv_fact(&w, fx ? fx[i].red_zone_live : 0);
		csv_fact(&w, fx ? fx[i].optimizable : 0);
		if (h.known && h.lost > 0)
			pcost_csv_bool(&w, h.said);
		else
			pcost_csv_str(&w, "");
		pcost_csv_str(&w, pcost_outcome_name(t->outcome));
		pcost_csv_str(&w, t->outcome_why);
		pcost_csv_end(&w);
	}
}

/*
 * site (encoding of the probed instruction), threads, and optimized: true when
 * every measured run saw the kernel optimize the site, false when none did,
 * null when unknown, mixed, or nothing was armed (dormant).
 */
static cJSON *json_fact(int8_t v)
{
	return v ? cJSON_CreateBool(v > 0) : cJSON_CreateNull();
}

static void json_shape(cJSON *o, const struct pcost_config *c, const struct pcost_config_stats *t,
		       const struct row_facts *f)
{
	char sb[32];
	const char *site = pcost_config_site(c, sb, sizeof(sb));
	int v = pcost_optimized_verdict(t);

	cJSON_AddItemToObject(o, "site", site ? cJSON_CreateString(site) : cJSON_CreateNull());
	pcost_json_count(o, "threads", threads_of(c), threads_of(c) > 0);
	if (v)
		cJSON_AddBoolToObject(o, "optimized", v > 0);
	else
		cJSON_AddNullToObject(o, "optimized");
	pcost_json_count(o, "optimized_runs", (double)t->optimized_runs,
			 t->optimized_known && t->baseline >= 0);
	/* The sites' facts (probes/site_safety.h); null when not known. */
	cJSON_AddItemToObject(o, "encoding",
			      f && f->encoding[0] ? cJSON_CreateString(f->encoding)
						  : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "red_zone_live", json_fact(f ? f->red_zone_live : 0));
	cJSON_AddItemToObject(o, "optimizable", json_fact(f ? f->optimizable : 0));
}

/* The robust companions (analyze.h): Hodges-Lehmann with the Wilcoxon interval. */
static void json_robust(const struct pcost_session *s, cJSON *o, const struct pcost_config_stats *t)
{
	pcost_json_ci(o, "overhead_robust", t->overhead_robust, t->overhead_robust_lo,
		      t->overhead_robust_hi);
	pcost_json_ci(o, "extra_ns_robust", t->extra_ns_robust, t->extra_ns_robust_lo,
		      t->extra_ns_robust_hi);
	pcost_json_ci(o, "per_hit_ns_robust", t->per_event_ns_robust, t->per_event_ns_robust_lo,
		      t->per_event_ns_robust_hi);
	pcost_json_ci(o, "per_hit_cycles_robust", cycles(s, t->per_event_ns_robust),
		      cycles(s, t->per_event_ns_robust_lo), cycles(s, t->per_event_ns_robust_hi));
	pcost_json_ci(o, "fixed_ns_robust", t->fixed_ns_robust, t->fixed_ns_robust_lo,
		      t->fixed_ns_robust_hi);
	pcost_json_ci(o, "fit_fixed_ns_robust", t->fit_fixed_ns_robust, t->fit_fixed_ns_robust_lo,
		      t->fit_fixed_ns_robust_hi);
	pcost_json_ci(o, "fit_per_event_ns_robust", t->fit_per_event_ns_robust,
		      t->fit_per_event_ns_robust_lo, t->fit_per_event_ns_robust_hi);
	pcost_json_ci(o, "dormant_overhead_robust", t->dormant_overhead_robust,
		      t->dormant_overhead_robust_lo, t->dormant_overhead_robust_hi);
	pcost_json_ci(o, "dormant_per_hit_ns_robust", t->dormant_per_hit_ns_robust,
		      t->dormant_per_hit_ns_robust_lo, t->dormant_per_hit_ns_robust_hi);
	pcost_json_ci(o, "gain_vs_nop_robust", t->site_gain_robust, t->site_gain_robust_lo,
		      t->site_gain_robust_hi);
	pcost_json_carry_over(o, t);
}

static void json(const struct pcost_session *s, const struct pcost_config_stats *st,
		 const struct row_facts *fx, FILE *out)
{
	cJSON *root = pcost_json_envelope(s), *rows = pcost_json_statistics(root);
	struct pcost_run_warnings w;

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *t = &st[i];
		struct hits_check h = check_hits(c, t);
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "config", (double)i);
		cJSON_AddStringToObject(o, "workload", c->workload);
		cJSON_AddStringToObject(o, "workload_args",
					c->workload_args ? c->workload_args : "");
		cJSON_AddStringToObject(o, "variant", variant_of(c));
		cJSON_AddStringToObject(o, "method", c->monitor);
		cJSON_AddNumberToObject(o, "scale", pcost_config_scale(c));
		json_shape(o, c, t, fx ? &fx[i] : NULL);
		cJSON_AddNumberToObject(o, "runs", (double)t->nok);
		cJSON_AddNumberToObject(o, "failed", (double)t->nfailed);
		cJSON_AddItemToObject(o, "elapsed_mean_ns",
				      pcost_json_num(t->nok ? t->wall.mean : NAN));
		cJSON_AddItemToObject(o, "elapsed_cov",
				      pcost_json_num(t->nok > 1 ? t->wall.cov : NAN));
		pcost_json_ci(o, "overhead", t->overhead, t->overhead_lo, t->overhead_hi);
		cJSON_AddItemToObject(o, "p_value", pcost_json_num(t->p_value));
		cJSON_AddBoolToObject(o, "significant", t->significant);
		pcost_json_ci(o, "extra_ns", t->extra_ns, t->extra_ns_lo, t->extra_ns_hi);
		pcost_json_ci(o, "per_hit_ns", t->per_event_ns, t->per_event_ns_lo,
			      t->per_event_ns_hi);
		pcost_json_ci(o, "per_hit_cycles", cycles(s, t->per_event_ns),
			      cycles(s, t->per_event_ns_lo), cycles(s, t->per_event_ns_hi));
		pcost_json_ci(o, "fixed_ns", t->fixed_ns, t->fixed_ns_lo, t->fixed_ns_hi);
		cJSON_AddItemToObject(o, "per_hit_why",
				      t->per_event_why ? cJSON_CreateString(t->per_event_why)
						       : cJSON_CreateNull());
		pcost_json_ci(o, "fit_fixed_ns", t->fit_fixed_ns, t->fit_fixed_ns_lo,
			      t->fit_fixed_ns_hi);
		pcost_json_ci(o, "fit_per_event_ns", t->fit_per_event_ns, t->fit_per_event_ns_lo,
			      t->fit_per_event_ns_hi);
		pcost_json_count(o, "hits_expected", (double)h.expected, h.expected >= 0);
		pcost_json_count(o, "hits_counted", (double)h.counted, h.known);
		pcost_json_count(o, "hits_lost", (double)h.lost, h.known && h.expected >= 0);
		/* A shortfall the tracer said it lost (true), or not (false); null: none. */
		if (h.known && h.lost > 0)
			cJSON_AddBoolToObject(o, "hits_loss_said", h.said);
		else
			cJSON_AddNullToObject(o, "hits_loss_said");
		cJSON_AddStringToObject(o, "outcome", pcost_outcome_name(t->outcome));
		cJSON_AddStringToObject(o, "outcome_why", t->outcome_why);
		pcost_json_ci(o, "dormant_overhead", t->dormant_overhead, t->dormant_overhead_lo,
			      t->dormant_overhead_hi);
		pcost_json_ci(o, "dormant_per_hit_ns", t->dormant_per_hit_ns,
			      t->dormant_per_hit_ns_lo, t->dormant_per_hit_ns_hi);
		pcost_json_count(o, "dormant_layouts", (double)t->dormant_layouts, t->noprobe >= 0);
		pcost_json_ci(o, "dormant_all_per_hit_ns", t->dormant_all_per_hit_ns,
			      t->dormant_all_per_hit_ns_lo, t->dormant_all_per_hit_ns_hi);
		cJSON_AddItemToObject(o, "dormant_spread_min_ns",
				      pcost_json_num(t->dormant_spread_min));
		cJSON_AddItemToObject(o, "dormant_spread_max_ns",
				      pcost_json_num(t->dormant_spread_max));
		pcost_json_ci(o, "gain_vs_nop", t->site_gain, t->site_gain_lo, t->site_gain_hi);
		json_robust(s, o, t);
		cJSON_AddItemToArray(rows, o);
	}
	w.n = 0;
	pcost_stat_warnings(s, st, &w);
	pcost_json_warnings(root, w.msg, w.n);
	pcost_json_print(root, out);
}

int pcost_report_probes(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	struct pcost_config_stats *st = NULL;
	struct row_facts *fx;
	int rc = pcost_analyze(s, &st);

	if (rc < 0)
		return rc;
	fx = read_facts(s);
	switch (f) {
	case PCOST_FMT_CSV:
		csv(s, st, fx, out);
		break;
	case PCOST_FMT_JSON:
		json(s, st, fx, out);
		break;
	case PCOST_FMT_MARKDOWN:
		text(s, st, fx, out, true);
		break;
	default:
		text(s, st, fx, out, false);
		break;
	}
	free(fx);
	free(st);
	return 0;
}
