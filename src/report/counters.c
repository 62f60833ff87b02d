// SPDX-License-Identifier: MIT
/*
 * report/counters: render a `counters` session (text, json, csv, markdown)
 * from its counter series alone, so a stored session prints as the live run did.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/emit.h"
#include "report/report.h"
#include "stats/stats.h"

struct row_stats {
	struct pcost_summary ns;
	bool cycles; /* s->tsc_hz known */
	double cyc_per_ns;
};

static void row_stats(const struct pcost_session *s, const struct pcost_counter_series *sr,
		      struct row_stats *r)
{
	pcost_summarize(sr->ns, sr->n, &r->ns);
	r->cycles = s->tsc_hz > 0;
	r->cyc_per_ns = s->tsc_hz / 1e9;
}

static bool is_skip(const struct pcost_counter_series *sr)
{
	return sr->n == 0;
}

static bool is_matmul(const struct pcost_counter_series *sr)
{
	return sr->op && !strncmp(sr->op, "matmul", 6);
}

/* The "matmul-base" series that pairs with matmul series i, or NULL. */
static const struct pcost_counter_series *matmul_base(const struct pcost_session *s, size_t i)
{
	const struct pcost_counter_series *m = &s->series[i];

	for (size_t j = 0; j < s->nseries; j++) {
		const struct pcost_counter_series *b = &s->series[j];

		/* Every column may be NULL in a store another program wrote. */
		if (b->op && !strcmp(b->op, "matmul-base") && b->interface && m->interface &&
		    !strcmp(b->interface, m->interface) && b->nevents == m->nevents && b->n)
			return b;
	}
	return NULL;
}

/* Reads per matmul run: from options_json ("matmul_n"), 128 (seed 001) when absent. */
static unsigned matmul_reads(const struct pcost_session *s)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "matmul_n"); /* cJSON: NULL when o is */
	unsigned r = cJSON_IsNumber(n) && n->valuedouble >= 1 ? (unsigned)n->valuedouble : 128;

	cJSON_Delete(o);
	return r;
}

struct matmul_fig {
	double with_ns, base_ns, per_read_ns;
};

static bool matmul_figures(const struct pcost_session *s, size_t i, struct matmul_fig *f)
{
	const struct pcost_counter_series *m = &s->series[i], *b = matmul_base(s, i);

	if (!m->op || strcmp(m->op, "matmul") || !m->n || !b)
		return false;
	size_t n = m->n < b->n ? m->n : b->n;
	double *d = xcalloc(n ? n : 1, sizeof(double));

	f->with_ns = pcost_median(m->ns, m->n);
	f->base_ns = pcost_median(b->ns, b->n);
	/* Sample i of both series is one run pair, measured back to back: the
	 * median of the paired differences resists a burst that hit some pairs. */
	for (size_t j = 0; j < n; j++)
		d[j] = m->ns[j] - b->ns[j];
	f->per_read_ns = pcost_median(d, n) / matmul_reads(s);
	free(d);
	return true;
}

/* ---- text / markdown ------------------------------------------------------------ */

static void header_lines(const struct pcost_session *s, FILE *out, const char *prefix)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	cJSON *it = cJSON_GetObjectItemCaseSensitive(o, "iterations"); /* cJSON: NULL when o is */
	cJSON *cpu = cJSON_GetObjectItemCaseSensitive(o, "cpu");
	cJSON *tw = cJSON_GetObjectItemCaseSensitive(o, "timer_why");
	cJSON *pw = cJSON_GetObjectItemCaseSensitive(o, "pmu_why");
	cJSON *cnt = cJSON_GetObjectItemCaseSensitive(o, "counting");
	cJSON *mach = cJSON_GetObjectItemCaseSensitive(o, "machine");

	fprintf(out, "%sprobecost counters", prefix);
	if (cJSON_IsNumber(it))
		fprintf(out, ": %.0f iterations per series", it->valuedouble);
	if (cJSON_IsNumber(cpu))
		fprintf(out, ", pinned to CPU %.0f", cpu->valuedouble);
	if (!s->complete)
		fprintf(out, " (INTERRUPTED: partial)");
	if (cJSON_IsString(mach))
		fprintf(out, " | %s", mach->valuestring);
	fprintf(out, "\n");
	if (cJSON_IsString(tw))
		fprintf(out, "%stimer: %s\n", prefix, tw->valuestring);
	if (cJSON_IsString(cnt) && !strcmp(cnt->valuestring, "user"))
		fprintf(out,
			"%scounting user space only (kernel.perf_event_paranoid, no privilege): "
			"kernel-side events such as context-switches read 0\n",
			prefix);
	if (cJSON_IsString(pw))
		fprintf(out, "%s%s: software events only, perf-mmap/rdpmc skipped\n", prefix,
			pw->valuestring);
	fprintf(out,
		"%stimes in ns%s; start = ioctl ENABLE, stop = ioctl DISABLE "
		"(PAPI_stop also reads)\n",
		prefix, s->tsc_hz > 0 ? ", cycles at the TSC frequency" : "");
	cJSON_Delete(o);
}

static void render_text(const struct pcost_session *s, FILE *out, bool md)
{
	static const char *const cols[] = { "min", "median", "mean", "sd", "p99", "max" };
	bool any_skip = false, any_mm = false;
	unsigned reads = matmul_reads(s), prev_k = 0;

	header_lines(s, out, md ? "" : "# ");
	fprintf(out, "\n");
	if (md) {
		fprintf(out, "| interface | op | k | n |");
		for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
			fprintf(out, " %s ns |", cols[i]);
		fprintf(out, "%s\n", s->tsc_hz > 0 ? " median cyc | mean cyc |" : "");
		fprintf(out, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|%s\n",
			s->tsc_hz > 0 ? "--:|--:|" : "");
	} else {
		fprintf(out, "  %-14s %-16s %2s %6s", "interface", "op", "k", "n");
		for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
			fprintf(out, " %9s", cols[i]);
		fprintf(out, "%s\n", s->tsc_hz > 0 ? "  median cyc  mean cyc" : "");
	}
	for (size_t i = 0, shown = 0; i < s->nseries; i++) {
		const struct pcost_counter_series *sr = &s->series[i];
		struct row_stats r;
		double v[6];

		if (is_skip(sr)) {
			any_skip = true;
			continue;
		}
		if (is_matmul(sr)) {
			any_mm = true;
			continue;
		}
		/* A blank line between groups of k in text, where the interfaces compare. */
		if (!md && shown++ && sr->nevents != prev_k)
			fprintf(out, "\n");
		prev_k = sr->nevents;
		row_stats(s, sr, &r);
		v[0] = r.ns.min, v[1] = r.ns.median, v[2] = r.ns.mean, v[3] = r.ns.sd,
		v[4] = r.ns.p99, v[5] = r.ns.max;
		if (md)
			fprintf(out, "| %s | %s | %u | %zu |", sr->interface, sr->op, sr->nevents,
				sr->n);
		else
			fprintf(out, "  %-14s %-16s %2u %6zu", sr->interface, sr->op, sr->nevents,
				sr->n);
		for (int j = 0; j < 6; j++)
			fprintf(out, md ? " %.1f |" : " %9.1f", v[j]);
		if (r.cycles)
			fprintf(out, md ? " %.0f | %.0f |" : "  %10.0f %9.0f",
				r.ns.median * r.cyc_per_ns, r.ns.mean * r.cyc_per_ns);
		fprintf(out, "\n");
	}
	if (any_mm) {
		fprintf(out,
			md ? "\n**Reads inside a matmul** (%u reads per run, medians)\n\n"
			   : "\n# reads inside a matmul: %u reads per run, medians of the runs\n",
			reads);
		if (md)
			fprintf(out,
				"| interface | k | runs | with reads ns | without ns | per read ns "
				"| check |\n|---|--:|--:|--:|--:|--:|---|\n");
		else
			fprintf(out, "  %-14s %2s %5s %14s %14s %10s  %s\n", "interface", "k",
				"runs", "with reads", "without", "per read", "check");
		for (size_t i = 0; i < s->nseries; i++) {
			const struct pcost_counter_series *sr = &s->series[i];
			struct matmul_fig f;

			if (!matmul_figures(s, i, &f))
				continue;
			fprintf(out,
				md ? "| %s | %u | %zu | %.0f | %.0f | %.1f | %s |\n"
				   : "  %-14s %2u %5zu %14.0f %14.0f %10.1f  %s\n",
				sr->interface, sr->nevents, sr->n, f.with_ns, f.base_ns,
				f.per_read_ns, sr->note ? sr->note : "");
		}
	}
	if (any_skip) {
		fprintf(out, md ? "\n**Skipped**\n\n" : "\n# skipped\n");
		for (size_t i = 0; i < s->nseries; i++) {
			const struct pcost_counter_series *sr = &s->series[i];

			if (!is_skip(sr))
				continue;
			fprintf(out, md ? "- %s (%s, k=%u): %s\n" : "  %-14s %-6s k=%-2u %s\n",
				sr->interface, sr->op, sr->nevents, sr->note ? sr->note : "");
		}
	}
}

/* ---- csv ------------------------------------------------------------------------ */

static void render_csv(const struct pcost_session *s, FILE *out)
{
	struct pcost_csv c = { .out = out };

	fprintf(out, "interface,op,k,events,timer,n,min_ns,median_ns,mean_ns,sd_ns,p99_ns,max_ns,"
		     "min_cyc,median_cyc,mean_cyc,sd_cyc,p99_cyc,max_cyc,per_read_ns,note\n");
	for (size_t i = 0; i < s->nseries; i++) {
		const struct pcost_counter_series *sr = &s->series[i];
		struct row_stats r = { 0 };
		struct matmul_fig f;
		double v[6];

		if (sr->n)
			row_stats(s, sr, &r);
		v[0] = r.ns.min, v[1] = r.ns.median, v[2] = r.ns.mean, v[3] = r.ns.sd,
		v[4] = r.ns.p99, v[5] = r.ns.max;
		pcost_csv_str(&c, sr->interface);
		pcost_csv_str(&c, sr->op);
		pcost_csv_count(&c, sr->nevents, true);
		pcost_csv_str(&c, sr->events);
		pcost_csv_str(&c, sr->timer);
		pcost_csv_count(&c, (double)sr->n, true);
		for (int j = 0; j < 6; j++)
			pcost_csv_num(&c, "%.2f", sr->n ? v[j] : NAN);
		for (int j = 0; j < 6; j++)
			pcost_csv_num(&c, "%.1f", sr->n && r.cycles ? v[j] * r.cyc_per_ns : NAN);
		pcost_csv_num(&c, "%.2f", matmul_figures(s, i, &f) ? f.per_read_ns : NAN);
		pcost_csv_str(&c, sr->note);
		pcost_csv_end(&c);
	}
}

/* ---- json ------------------------------------------------------------------------ */

/*
 * x * mul to a millionth: the TSC timer's cycles are kept as ns (cycles / GHz), and
 * back in cycles a whole count came out as 77.99999999999999 (t409 saw it once).
 */
static double scaled(double x, double mul)
{
	return mul == 1 ? x : rint(x * mul * 1e6) / 1e6;
}

static cJSON *stats_obj(const struct pcost_summary *x, double mul)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "min", scaled(x->min, mul));
	cJSON_AddNumberToObject(o, "median", scaled(x->median, mul));
	cJSON_AddNumberToObject(o, "mean", scaled(x->mean, mul));
	cJSON_AddNumberToObject(o, "sd", scaled(x->sd, mul));
	cJSON_AddNumberToObject(o, "p99", scaled(x->p99, mul));
	cJSON_AddNumberToObject(o, "max", scaled(x->max, mul));
	return o;
}

static int render_json(const struct pcost_session *s, FILE *out)
{
	cJSON *root = pcost_json_envelope(s), *arr, *mm;

	/* One row per series in "statistics"; the matmul figures are this kind's own section. */
	arr = pcost_json_statistics(root);
	mm = cJSON_AddArrayToObject(root, "matmul");
	for (size_t i = 0; i < s->nseries; i++) {
		const struct pcost_counter_series *sr = &s->series[i];
		cJSON *o = cJSON_CreateObject();
		struct row_stats r;
		struct matmul_fig f;

		cJSON_AddStringToObject(o, "interface", sr->interface ? sr->interface : "");
		cJSON_AddStringToObject(o, "op", sr->op ? sr->op : "");
		cJSON_AddNumberToObject(o, "k", sr->nevents);
		cJSON_AddStringToObject(o, "events", sr->events ? sr->events : "");
		cJSON_AddStringToObject(o, "timer", sr->timer ? sr->timer : "");
		cJSON_AddNumberToObject(o, "n", (double)sr->n);
		cJSON_AddBoolToObject(o, "skipped", is_skip(sr));
		if (sr->note)
			cJSON_AddStringToObject(o, "note", sr->note);
		if (sr->n) {
			row_stats(s, sr, &r);
			cJSON_AddItemToObject(o, "ns", stats_obj(&r.ns, 1));
			if (r.cycles)
				cJSON_AddItemToObject(o, "cycles", stats_obj(&r.ns, r.cyc_per_ns));
		}
		cJSON_AddItemToArray(arr, o);
		if (matmul_figures(s, i, &f)) {
			cJSON *m = cJSON_CreateObject();

			cJSON_AddStringToObject(m, "interface", sr->interface);
			cJSON_AddNumberToObject(m, "k", sr->nevents);
			cJSON_AddNumberToObject(m, "runs", (double)sr->n);
			cJSON_AddNumberToObject(m, "reads_per_run", matmul_reads(s));
			cJSON_AddNumberToObject(m, "with_reads_ns", f.with_ns);
			cJSON_AddNumberToObject(m, "without_ns", f.base_ns);
			cJSON_AddNumberToObject(m, "per_read_ns", f.per_read_ns);
			cJSON_AddStringToObject(m, "check", sr->note ? sr->note : "");
			cJSON_AddItemToArray(mm, m);
		}
	}
	pcost_json_warnings(root, NULL, 0);
	pcost_json_print(root, out);
	return 0;
}

int pcost_report_counters(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	switch (f) {
	case PCOST_FMT_JSON:
		return render_json(s, out);
	case PCOST_FMT_CSV:
		render_csv(s, out);
		return 0;
	case PCOST_FMT_MARKDOWN:
		render_text(s, out, true);
		return 0;
	default:
		render_text(s, out, false);
		return 0;
	}
}
