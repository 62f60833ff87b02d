// SPDX-License-Identifier: MIT
/*
 * report/brief: a run session in words, for a newcomer (the default study):
 *
 *   strace             +1,126% [+956, +1,365]   72 us per round trip, 44 us per syscall, 13 ms to start
 *
 * the answer first, one line per monitor (the overhead on the first workload,
 * the cost per event of each workload, the fixed cost from the workload that
 * knows it best), then each workload's table in 100 columns, then the warnings,
 * the advisory ones (warnings.h) folded into one line.  Prints only figures
 * analyze.c computed.
 */
#include "report/brief.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/emit.h"
#include "report/warnings.h"

#define W PCOST_BRIEF_COLUMNS
#define MAX_GROUPS 8

/* "1,126" from 1126.4; the sign when plus is asked. */
static void fmt_int(double v, bool plus, char *buf, size_t len)
{
	char digits[32], *o = buf;
	long long n = llround(fabs(v));
	size_t nd;

	snprintf(digits, sizeof(digits), "%lld", n);
	nd = strlen(digits);
	if (len < nd + nd / 3 + 3)
		return (void)snprintf(buf, len, "?");
	if (v < 0 && n)
		*o++ = '-';
	else if (plus)
		*o++ = '+';
	for (size_t i = 0; i < nd; i++) {
		if (i && (nd - i) % 3 == 0)
			*o++ = ',';
		*o++ = digits[i];
	}
	*o = 0;
}

/* A percentage: one decimal below 10, whole above ("+3.4", "+37", "+1,126"). */
static void fmt_pct1(double frac, char *buf, size_t len)
{
	double p = 100 * frac;

	if (fabs(p) < 9.95)
		snprintf(buf, len, "%+.1f", p);
	else
		fmt_int(p, true, buf, len);
}

/* "+1,126% [+956, +1,365]", '?' when not significant; "n/a" unmeasured. */
static void fmt_pct_ci(double v, double lo, double hi, bool sig, char *buf, size_t len)
{
	char a[32], l[32], h[32];

	if (!isfinite(v))
		return (void)snprintf(buf, len, "n/a");
	fmt_pct1(v, a, sizeof(a));
	if (!isfinite(lo) || !isfinite(hi))
		return (void)snprintf(buf, len, "%s%% [unbounded]", a);
	fmt_pct1(lo, l, sizeof(l));
	fmt_pct1(hi, h, sizeof(h));
	snprintf(buf, len, "%s%% [%s, %s]%s", a, l, h, sig ? "" : "?");
}

/* The session's own overhead interval (the table's). */
static void fmt_overhead(const struct pcost_config_stats *x, char *buf, size_t len)
{
	fmt_pct_ci(x->overhead, x->overhead_lo, x->overhead_hi, x->significant, buf, len);
}

/*
 * The answer's: where a rerun would land where measured ('?' when that holds 0),
 * else the session's own.
 */
static void fmt_answer(const struct pcost_config_stats *x, char *buf, size_t len)
{
	if (isfinite(x->overhead_rerun_lo))
		fmt_pct_ci(x->overhead, x->overhead_rerun_lo, x->overhead_rerun_hi,
			   x->overhead_rerun_lo > 0 || x->overhead_rerun_hi < 0, buf, len);
	else
		fmt_overhead(x, buf, len);
}

/* A duration in two or three significant digits: "72 us", "4.4 us", "1.23 s". */
static void fmt_dur(double ns, char *buf, size_t len)
{
	static const struct {
		double div;
		const char *u;
	} units[] = {
		{ 1e9, "s" },
		{ 1e6, "ms" },
		{ 1e3, "us" },
		{ 1, "ns" },
	};
	double a = fabs(ns);
	size_t k = 0;

	while (k + 1 < ARRAY_SIZE(units) && a < units[k].div)
		k++;
	a = ns / units[k].div;
	snprintf(buf, len, fabs(a) < 9.95 ? "%.2g %s" : "%.0f %s", a, units[k].u);
	if (fabs(a) < 9.95 && fabs(a) >= 1 && !strchr(buf, '.'))
		snprintf(buf, len, "%.1f %s", a, units[k].u); /* "4.0 us", not "4 us" */
}

/*
 * A cost in words: "72 us per round trip"; "under 9 ns per syscall" when its
 * interval holds 0 (the data bound it, no more); "none seen ..." when the
 * interval lies at or below 0; "" when unmeasured.
 */
static void fmt_cost(double v, double lo, double hi, const char *what, char *buf, size_t len)
{
	char d[32];

	buf[0] = 0;
	if (!isfinite(v))
		return;
	if (isfinite(lo) && isfinite(hi) && hi <= 0)
		return (void)snprintf(buf, len, "none seen %s", what);
	if (isfinite(lo) && isfinite(hi) && lo <= 0) {
		fmt_dur(hi, d, sizeof(d));
		return (void)snprintf(buf, len, "under %s %s", d, what);
	}
	fmt_dur(v, d, sizeof(d));
	snprintf(buf, len, "%s %s", d, what);
}

/* "round-trip" -> "round trip" */
static void unit_words(const char *unit, char *buf, size_t len)
{
	snprintf(buf, len, "%s", unit && *unit ? unit : "event");
	for (char *p = buf; *p; p++)
		if (*p == '-' || *p == '_')
			*p = ' ';
}

static bool same_workload(const struct pcost_config *a, const struct pcost_config *b)
{
	return !strcmp(a->workload ?: "", b->workload ?: "") &&
	       !strcmp(a->workload_args ?: "", b->workload_args ?: "");
}

/* The workloads of the session, each by its first configuration, in order. */
static size_t groups(const struct pcost_session *s, size_t *g)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nconfigs; i++) {
		bool seen = false;

		for (size_t k = 0; k < n && !seen; k++)
			seen = same_workload(&s->configs[g[k]], &s->configs[i]);
		if (!seen && n < MAX_GROUPS)
			g[n++] = i;
	}
	return n;
}

/* Monitor m's configuration on group g's workload (unplaced), -1 when none. */
static int find_row(const struct pcost_session *s, const struct pcost_config_stats *st, size_t g,
		    const char *monitor)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].baseline >= 0 && same_workload(&s->configs[i], &s->configs[g]) &&
		    !strcmp(s->configs[i].monitor, monitor))
			return (int)i;
	return -1;
}

unsigned pcost_report_blocks(const struct pcost_session *s, unsigned *warm)
{
	unsigned maxb = 0, maxw = 0;
	bool any = false, anyw = false;

	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t k = 0; k < s->configs[i].nsamples; k++) {
			const struct pcost_run_sample *x = &s->configs[i].samples[k];

			if (x->warmup)
				anyw = true, maxw = x->block > maxw ? x->block : maxw;
			else if (!(x->failed && x->wall_ns == 0))
				any = true, maxb = x->block > maxb ? x->block : maxb;
		}
	*warm = anyw ? maxw + 1 : 0;
	return any ? maxb + 1 - *warm : 0;
}

const char *pcost_report_warm_note(const struct pcost_session *s, unsigned warm, char *buf,
				   size_t len)
{
	double p = pcost_option_number(s, "pilot_blocks"), wo = pcost_option_number(s, "washout");
	unsigned pilot = p > 0 && p <= warm ? (unsigned)p : 0;
	size_t k;

	if (pilot)
		k = (size_t)snprintf(buf, len, "+%u warm-up, +%u pilot that planned them",
				     warm - pilot, pilot);
	else
		k = (size_t)snprintf(buf, len, "+%u warm-up", warm);
	if (wo > 0 && k < len)
		snprintf(buf + k, len - k, "; %g unmeasured plain run%s after each monitored one",
			 wo, wo == 1 ? "" : "s");
	return buf;
}

/* The fixed cost from the workload whose interval of it is narrowest. */
static int fixed_row(const struct pcost_config_stats *st, const int *rows, size_t n)
{
	int best = -1;

	for (size_t k = 0; k < n; k++) {
		const struct pcost_config_stats *x = rows[k] >= 0 ? &st[rows[k]] : NULL;

		if (!x || !isfinite(x->fixed_ns) || !isfinite(x->fixed_ns_hi - x->fixed_ns_lo))
			continue;
		if (best < 0 ||
		    x->fixed_ns_hi - x->fixed_ns_lo < st[best].fixed_ns_hi - st[best].fixed_ns_lo)
			best = rows[k];
	}
	return best;
}

/* The words of one monitor's answer: its costs per event of each workload, then fixed. */
static void answer_words(const struct pcost_session *s, const struct pcost_config_stats *st,
			 const int *rows, size_t n, bool terse, char *buf, size_t len)
{
	size_t off = 0;
	int f = fixed_row(st, rows, n);
	char part[96], u[40], what[64];

	buf[0] = 0;
	for (size_t k = 0; k <= n; k++) {
		const struct pcost_config_stats *x;

		if (k < n) {
			if (rows[k] < 0)
				continue;
			x = &st[rows[k]];
			unit_words(s->configs[rows[k]].unit, u, sizeof(u));
			snprintf(what, sizeof(what), terse ? "/%s" : "per %s", u);
			fmt_cost(x->per_event_ns, x->per_event_ns_lo, x->per_event_ns_hi, what,
				 part, sizeof(part));
		} else {
			if (f < 0)
				break;
			x = &st[f];
			fmt_cost(x->fixed_ns, x->fixed_ns_lo, x->fixed_ns_hi, "to start", part,
				 sizeof(part));
		}
		if (terse) /* "72 us /round trip" -> "72 us/round trip" */
			for (char *p = strstr(part, " /"); p; p = strstr(p, " /"))
				memmove(p, p + 1, strlen(p));
		if (part[0] && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						part);
	}
}

/* One line a monitor, for the monitors measured on the first workload or any other. */
static void answer(const struct pcost_session *s, const struct pcost_config_stats *st,
		   const size_t *g, size_t ng, FILE *out)
{
	char ov[64], words[256], lab[64];
	int mw = 7, ow = 14;
	bool rerun = false;

	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].baseline >= 0) {
			fmt_answer(&st[i], ov, sizeof(ov));
			rerun |= isfinite(st[i].overhead_rerun_lo);
			mw = (int)fmax(mw, (double)strlen(s->configs[i].monitor));
			ow = (int)fmax(ow, (double)strlen(ov));
		}
	mw = mw > 24 ? 24 : mw;
	snprintf(lab, sizeof(lab),
		 ng > 1	 ? "overhead on %s"
		 : rerun ? "overhead [a rerun, 95%%]"
			 : "overhead [95%%]",
		 s->configs[g[0]].workload);
	fprintf(out, "\n  %-*s %-*s   %s\n", mw, "monitor", ow, lab, "what it costs");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		int rows[MAX_GROUPS], line;
		bool seen = false;

		if (st[i].baseline < 0)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = st[j].baseline >= 0 && !strcmp(s->configs[j].monitor, c->monitor);
		if (seen)
			continue;
		for (size_t k = 0; k < ng; k++)
			rows[k] = find_row(s, st, g[k], c->monitor);
		if (rows[0] >= 0 && st[rows[0]].nok) {
			fmt_answer(&st[rows[0]], ov, sizeof(ov));
		} else {
			const struct pcost_config *f = rows[0] >= 0 ? &s->configs[rows[0]] : c;
			const char *why =
				f->nsamples ? f->samples[f->nsamples - 1].fail_reason : "";

			fprintf(out, "  %-*.*s failed: %.*s\n", mw, mw, c->monitor, W - mw - 11,
				*why ? why : "no measured run");
			continue;
		}
		answer_words(s, st, rows, ng, false, words, sizeof(words));
		line = 2 + mw + 1 + ow + 3 + (int)strlen(words);
		if (line > W)
			answer_words(s, st, rows, ng, true, words, sizeof(words));
		fprintf(out, "  %-*.*s %-*s   %s\n", mw, mw, c->monitor, ow, ov, words);
	}
}

/* One workload's table: monitor, elapsed, overhead, fixed, per event, each with its interval. */
struct cells {
	char mon[32], el[32], ov[48], fx[48], pe[48];
};

static void row_cells(const struct pcost_session *s, const struct pcost_config_stats *st, size_t i,
		      bool plusminus, struct cells *c)
{
	const struct pcost_config_stats *x = &st[i];
	char d[32];

	snprintf(c->mon, sizeof(c->mon), "%s", s->configs[i].monitor);
	snprintf(c->el, sizeof(c->el), "-");
	snprintf(c->ov, sizeof(c->ov), "-");
	snprintf(c->fx, sizeof(c->fx), "-");
	snprintf(c->pe, sizeof(c->pe), "-");
	if (!x->nok) {
		snprintf(c->el, sizeof(c->el), "failed");
		return;
	}
	fmt_dur(x->wall.mean, d, sizeof(d));
	if (plusminus && x->nok > 1 && x->wall.mean > 0)
		snprintf(c->el, sizeof(c->el), "%s +-%.1f%%", d,
			 100 * (x->wall.ci_hi - x->wall.mean) / x->wall.mean);
	else
		snprintf(c->el, sizeof(c->el), "%s", d);
	if (x->baseline < 0)
		return;
	fmt_overhead(x, c->ov, sizeof(c->ov));
	pcost_text_ns_ci(x->fixed_ns, x->fixed_ns_lo, x->fixed_ns_hi, NULL, c->fx, sizeof(c->fx));
	pcost_text_ns_ci(x->per_event_ns, x->per_event_ns_lo, x->per_event_ns_hi, NULL, c->pe,
			 sizeof(c->pe));
}

static void table(const struct pcost_session *s, const struct pcost_config_stats *st, size_t g,
		  FILE *out)
{
	struct cells *c = xcalloc(s->nconfigs + 1, sizeof(*c));
	size_t n = 0, w[5];
	char u[40], pe[48], head[160];
	const struct pcost_config *c0 = &s->configs[g];
	bool pm = true;
	int gap = 2;

	/* Elapsed with its +-, then without, then one space between the columns. */
	for (int pass = 0; pass < 3; pass++, pm = false, gap = pass < 2 ? 2 : 1) {
		struct cells h = { "monitor", "elapsed", "overhead [95%]", "fixed [95%]", "" };

		unit_words(c0->unit, u, sizeof(u));
		snprintf(pe, sizeof(pe), "per %s [95%%]", u);
		snprintf(h.pe, sizeof(h.pe), "%s", pe);
		c[0] = h;
		n = 1;
		for (size_t i = 0; i < s->nconfigs; i++)
			if (same_workload(&s->configs[i], c0))
				row_cells(s, st, i, pm, &c[n++]);
		memset(w, 0, sizeof(w));
		for (size_t k = 0; k < n; k++) {
			w[0] = (size_t)fmax((double)w[0], (double)strlen(c[k].mon));
			w[1] = (size_t)fmax((double)w[1], (double)strlen(c[k].el));
			w[2] = (size_t)fmax((double)w[2], (double)strlen(c[k].ov));
			w[3] = (size_t)fmax((double)w[3], (double)strlen(c[k].fx));
			w[4] = (size_t)fmax((double)w[4], (double)strlen(c[k].pe));
		}
		/* Too wide with elapsed's +-: the -v table keeps it. */
		if (2 + w[0] + w[1] + w[2] + w[3] + w[4] + 4 * (size_t)gap <= W)
			break;
	}
	snprintf(head, sizeof(head), "%s%s%s", c0->workload, c0->workload_args ? ", " : "",
		 c0->workload_args ?: "");
	fprintf(out, "\n# %.*s\n", W - 2, head);
	for (size_t k = 0; k < n; k++)
		fprintf(out, "  %-*s%*s%-*s%*s%-*s%*s%-*s%*s%s\n", (int)w[0], c[k].mon, gap, "",
			(int)w[1], c[k].el, gap, "", (int)w[2], c[k].ov, gap, "", (int)w[3],
			c[k].fx, gap, "", c[k].pe);
	free(c);
}

void pcost_report_wrapped(const char *prefix, const char *msg, FILE *out)
{
	size_t col = strlen(prefix);
	const char *p = msg + strspn(msg, " ");

	fputs(prefix, out);
	while (*p) {
		size_t word = strcspn(p, " ");

		fwrite(p, 1, word, out);
		col += word;
		p += word;
		p += strspn(p, " ");
		if (!*p)
			break;
		if (col + 1 + strcspn(p, " ") > W) {
			fputs("\n   ", out);
			col = 3;
		} else {
			fputc(' ', out);
			col++;
		}
	}
	fputc('\n', out);
}

/*
 * The warnings: those that change what a reader concludes as they are; the
 * advisory ones (a row's runs were noisy, which its interval carries) as one
 * line that counts them, listed one by one under -v.
 */
static void warnings(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	static const char *const what[] = {
		[PCOST_WARN_LOW_CPU] = "low CPU use",
		[PCOST_WARN_HIGH_COV] = "high variation",
		[PCOST_WARN_OUTLIERS] = "outlier runs",
		[PCOST_WARN_SLOW_FIRST] = "a slow first block",
	};
	struct pcost_run_warnings *w = xcalloc(1, sizeof(*w));
	size_t count[ARRAY_SIZE(what)] = { 0 }, nadv = 0, off = 0;
	double cov = 0;
	char fold[256];

	pcost_run_warnings(s, st, w);
	for (size_t i = 0; i < w->n; i++) {
		if (w->kind[i] == PCOST_WARN_OTHER) {
			pcost_report_wrapped(i ? "warning: " : "\nwarning: ", w->msg[i], out);
			continue;
		}
		count[w->kind[i]]++;
		nadv++;
		if (w->kind[i] == PCOST_WARN_HIGH_COV)
			cov = fmax(cov, w->value[i]);
	}
	if (nadv) {
		for (size_t k = 1; k < ARRAY_SIZE(what); k++) {
			if (!count[k])
				continue;
			off += (size_t)snprintf(fold + off, sizeof(fold) - off, "%s%s in %zu row%s",
						off ? ", " : "", what[k], count[k],
						count[k] == 1 ? "" : "s");
			if (k == PCOST_WARN_HIGH_COV && off < sizeof(fold))
				off += (size_t)snprintf(fold + off, sizeof(fold) - off,
							" (CoV up to %.0f%%)", 100 * cov);
		}
		if (off < sizeof(fold))
			snprintf(fold + off, sizeof(fold) - off,
				 ": noise the intervals carry "
				 "(-v lists them)");
		pcost_report_wrapped(
			nadv == w->n ? "\nnote: noisy runs: " : "note: noisy runs: ", fold, out);
	}
	free(w);
}

bool pcost_report_run_brief_wanted(const struct pcost_session *s)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	bool study = cJSON_IsTrue(o ? cJSON_GetObjectItemCaseSensitive(o, "default_study") : NULL);

	cJSON_Delete(o);
	return study && pcost_verbosity < 2;
}

void pcost_report_run_brief(const struct pcost_session *s, const struct pcost_config_stats *st,
			    FILE *out)
{
	size_t g[MAX_GROUPS], ng = groups(s, g);
	unsigned warm, nb = pcost_report_blocks(s, &warm);
	char head[256], cpu[64], names[160], wn[160];
	size_t off = 0;

	pcost_option_text(s, "headline", head, sizeof(head));
	pcost_option_text(s, "cpu", cpu, sizeof(cpu));
	for (size_t k = 0; k < ng && off < sizeof(names); k++) {
		char u[40], ev[32];
		const struct pcost_config_stats *x = &st[g[k]];

		unit_words(s->configs[g[k]].unit, u, sizeof(u));
		fmt_int((double)x->events, false, ev, sizeof(ev));
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s (%s %s%s)",
					k ? (k + 1 == ng ? " and " : ", ") : "",
					s->configs[g[k]].workload, ev, u,
					x->events == 1 ? "" : "s");
	}
	fprintf(out, "# probecost run: what each monitor costs here, on %s\n",
		ng ? names : "nothing (no configuration)");
	if (head[0])
		fprintf(out, "# %.*s\n", W - 2, head);
	fprintf(out, "# %u block%s (%s)%s%s, 95%% intervals, seed %llu%s\n", nb, nb == 1 ? "" : "s",
		pcost_report_warm_note(s, warm, wn, sizeof(wn)), cpu[0] ? ", pinned to CPU " : "",
		cpu, (unsigned long long)s->seed,
		pcost_session_failed(s) ? ", FAILED (no run succeeded)"
		: s->complete		? ""
					: ", INTERRUPTED (partial results)");
	if (ng)
		answer(s, st, g, ng, out);
	for (size_t k = 0; k < ng; k++) {
		bool *in = xcalloc(s->nconfigs, sizeof(bool));

		table(s, st, g[k], out);
		for (size_t i = 0; i < s->nconfigs; i++)
			in[i] = same_workload(&s->configs[i], &s->configs[g[k]]);
		pcost_report_level(s, in, false, out);
		free(in);
	}
	fprintf(out,
		"\n  overhead: mean(monitor)/mean(none) - 1, runs paired by block; '?': its "
		"interval holds 0\n"
		"  a rerun: where the same study run again here would land (its sub-sessions' "
		"spread);\n    the tables' [95%%]: this session's runs alone\n"
		"  per event: the extra time inside the workload's own timed region / events\n"
		"  to start (fixed): the rest of the extra time (start-up, teardown)\n"
		"  under X: the interval holds 0 and X is its upper end; -v: the wide table\n");
	warnings(s, st, out);
}
