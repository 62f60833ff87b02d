// SPDX-License-Identifier: MIT
/*
 * report/run: a `run` session as text (in the voice of `perf stat -r`), JSON
 * (everything: the session with every raw run, the statistics, the warnings),
 * CSV and Markdown.  Reads the session and analyze.c only.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "report/brief.h"
#include "report/report.h"
#include "report/warnings.h"
#include "store/store.h"
#include "report/emit.h"
#include "report/run_figures.h"

static void fmt_time(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.3f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

static void fmt_count(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (a >= 1e9)
		snprintf(buf, len, "%.2f G", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.2f M", v / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%.1f k", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

/* Which loop a load generator ran: what its latencies can show of a stalled service. */
static void loop_line(const struct pcost_config *c, FILE *out)
{
	double rate = pcost_config_rate(c);
	char conns[16], dist[16];

	pcost_config_arg(c, "conns", conns, sizeof(conns));
	if (rate > 0) {
		pcost_config_arg(c, "dist", dist, sizeof(dist));
		fprintf(out,
			"# open loop: %.0f requests/s (%s spacing) on up to %s connections, latency "
			"from each request's due time (no coordinated omission)\n",
			rate, dist[0] ? dist : "uniform", conns[0] ? conns : "?");
	} else if (c->workload && !strcmp(c->workload, "server")) {
		fprintf(out,
			"# closed loop: %s connections, each sends when its last reply is back (a "
			"stalled service stalls the load too; rate=R for an open loop)\n",
			conns[0] ? conns : "?");
	}
}

static bool same_group(const struct pcost_config *a, const struct pcost_config *b)
{
	return !strcmp(a->workload ?: "", b->workload ?: "") &&
	       !strcmp(a->workload_args ?: "", b->workload_args ?: "");
}

/*
 * "50.0 k / 50.0 k": events the monitor saw / the workload made, and
 * "(lost 12)" where both count the same syscalls and some were not seen.
 */
static void fmt_seen(const struct pcost_config_stats *x, char *buf, size_t len)
{
	char seen[24] = "n/a", made[24] = "n/a";

	if (x->monitor_events >= 0)
		fmt_count((double)x->monitor_events, seen, sizeof(seen));
	if (x->events)
		fmt_count((double)x->events, made, sizeof(made));
	if (x->baseline < 0)
		snprintf(buf, len, "- / %s", made);
	else if (x->has_lost && x->lost_events)
		snprintf(buf, len, "%s / %s (lost %lld)", seen, made, (long long)x->lost_events);
	else
		snprintf(buf, len, "%s / %s", seen, made);
}

/* "strace, split" when monitors were placed (run --placement); the monitor alone otherwise. */
static const char *monitor_label(const struct pcost_config *c, char *buf, size_t len)
{
	if (c->placement)
		snprintf(buf, len, "%s, %s", c->monitor, c->placement);
	else
		snprintf(buf, len, "%s", c->monitor);
	return buf;
}

static size_t monitor_width(const struct pcost_session *s, const bool *done, size_t g)
{
	size_t mw = 7;
	char lab[160];

	for (size_t i = g; i < s->nconfigs; i++)
		if (!done[i] && same_group(&s->configs[i], &s->configs[g]) &&
		    strlen(monitor_label(&s->configs[i], lab, sizeof(lab))) > mw)
			mw = strlen(lab);
	return mw > 48 ? 48 : mw;
}

static void text_row(const struct pcost_session *s, const struct pcost_config_stats *st, size_t i,
		     int mw, FILE *out)
{
	const struct pcost_config *c = &s->configs[i];
	const struct pcost_config_stats *x = &st[i];
	char el[64], buf[24], ov[64], cy[24] = "-", fx[64] = "-", pe[96] = "-", me[64], lab[160];

	monitor_label(c, lab, sizeof(lab));
	if (!x->nok) {
		const char *why = c->nsamples ? c->samples[c->nsamples - 1].fail_reason : "";

		if (!x->nfailed)
			fprintf(out, "  %-*.*s no measured run (%s)\n", mw, mw, lab,
				c->nsamples ? "warm-up only" : "none stored");
		else
			fprintf(out, "  %-*.*s all %zu run%s failed: %s\n", mw, mw, lab, x->nfailed,
				x->nfailed == 1 ? "" : "s", *why ? why : "no reason recorded");
		return;
	}
	fmt_time(x->wall.mean, buf, sizeof(buf));
	snprintf(el, sizeof(el), "%s (+- %.1f%%)", buf,
		 x->wall.mean > 0 ? 100 * (x->wall.ci_hi - x->wall.mean) / x->wall.mean : 0);
	if (x->baseline < 0) {
		snprintf(ov, sizeof(ov), "-");
	} else {
		pcost_text_pct_ci(x->overhead, x->overhead_lo, x->overhead_hi, x->significant, ov,
				  sizeof(ov));
		if (isfinite(x->extra_cycles))
			fmt_count(x->extra_cycles, cy, sizeof(cy));
		else
			snprintf(cy, sizeof(cy), "n/a");
		pcost_text_ns_ci(x->fixed_ns, x->fixed_ns_lo, x->fixed_ns_hi, NULL, fx, sizeof(fx));
		pcost_text_ns_ci(x->per_event_ns, x->per_event_ns_lo, x->per_event_ns_hi,
				 c->unit ?: "event", pe, sizeof(pe));
	}
	fmt_seen(x, me, sizeof(me));
	fprintf(out, "  %-*.*s %-19s %-24s %-9s %-24s %-30s %-20s %s", mw, mw, lab, el, ov, cy, fx,
		pe, me, pcost_outcome_name(x->outcome));
	if (x->nfailed)
		fprintf(out, "  (%zu failed)", x->nfailed);
	fputc('\n', out);
}

/* Each row that did not end ok (or whose tool left a note): its outcome and what happened. */
static void text_outcomes(const struct pcost_session *s, const struct pcost_config_stats *st,
			  FILE *out)
{
	char lab[160];

	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].outcome != PCOST_OUTCOME_OK || st[i].outcome_noted)
			fprintf(out, "  %s on %s: %s: %s\n",
				monitor_label(&s->configs[i], lab, sizeof(lab)),
				s->configs[i].workload, pcost_outcome_name(st[i].outcome),
				st[i].outcome_why);
}

/* One line per fit group with a monitor: its two coefficients with their intervals. */
static void text_fits(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	for (size_t i = 0; i < s->nconfigs; i++) {
		char fx[64], pe[96], lab[160];

		if (!st[i].has_fit || st[i].baseline < 0 || st[i].fit_group != (int)i)
			continue;
		pcost_text_ns_ci(st[i].fit_fixed_ns, st[i].fit_fixed_ns_lo, st[i].fit_fixed_ns_hi,
				 NULL, fx, sizeof(fx));
		pcost_text_ns_ci(st[i].fit_per_event_ns, st[i].fit_per_event_ns_lo,
				 st[i].fit_per_event_ns_hi, s->configs[i].unit ?: "event", pe,
				 sizeof(pe));
		fprintf(out, "  fit %s on %s: extra = %s fixed + %s (R^2 %.3f, %zu blocks)\n",
			monitor_label(&s->configs[i], lab, sizeof(lab)), s->configs[i].workload, fx,
			pe, st[i].fit_r2, st[i].fit_nblocks);
	}
}

/* Where the two costs came from, once per distinct source, and why a row has none. */
/* One counting run's kinds under head; each beside nul's count of it when there is one. */
static void text_counts(const cJSON *c, const cJSON *nul, const char *head, FILE *out)
{
	const cJSON *e;

	if (!cJSON_IsObject(c))
		return;
	fprintf(out, "%s\n", head);
	cJSON_ArrayForEach(e, c)
	{
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "count"),
			    *by = cJSON_GetObjectItemCaseSensitive(e, "counter"),
			    *why = cJSON_GetObjectItemCaseSensitive(e, "why");

		/* "syscall" -> "syscalls", "context-switch" -> "context switches" */
		char name[48];
		size_t l;

		snprintf(name, sizeof(name), "%s", e->string);
		for (char *p = name; *p; p++)
			*p = *p == '-' ? ' ' : *p;
		l = strlen(name);
		snprintf(name + l, sizeof(name) - l, "%s",
			 l > 1 && !strcmp(name + l - 2, "ch") ? "es" : "s");
		const cJSON *nn = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(nul, e->string), "count");

		if (cJSON_IsNumber(n) && cJSON_IsNumber(nn))
			fprintf(out, "    %.0f %s (%s); the null workload's: %.0f\n",
				n->valuedouble, name, cJSON_IsString(by) ? by->valuestring : "?",
				nn->valuedouble);
		else if (cJSON_IsNumber(n))
			fprintf(out, "    %.0f %s (%s)\n", n->valuedouble, name,
				cJSON_IsString(by) ? by->valuestring : "?");
		else
			fprintf(out, "    %s: n/a (%s)\n", name,
				cJSON_IsString(why) ? why->valuestring : "not counted");
	}
}

/*
 * The counting run of a user's command (the session's options: "counted"):
 * "# events made, counted in one untimed run: 41230 syscalls (perf_event ...)";
 * with --service, its processes' in that run ("service_events").
 */
static void text_counted(const struct pcost_session *s, FILE *out)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;

	text_counts(cJSON_GetObjectItemCaseSensitive(o, "counted"),
		    cJSON_GetObjectItemCaseSensitive(o, "counted_null"),
		    "  events made, counted in one untimed run of the command:", out);
	text_counts(cJSON_GetObjectItemCaseSensitive(o, "service_events"), NULL,
		    "  events of the service's processes in that run (those it started included):",
		    out);
	cJSON_Delete(o);
}

static void text_sources(const struct pcost_session *s, const struct pcost_config_stats *st,
			 FILE *out)
{
	bool timed = false, fit = false, model = false, service = false, rate = false;

	text_counted(s, out);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const char *src = st[i].per_event_source;

		timed |= src && !strcmp(src, "timed region");
		fit |= src && !strcmp(src, "scale fit");
		model |= src && !strcmp(src, "model");
		service |= src && !strcmp(src, "extra per service event");
		rate |= src && !strcmp(src, "extra per service event, from the rate");
		/* The null workload makes no events: nothing to say per event. */
		if (st[i].baseline >= 0 && st[i].nok && st[i].per_event_why &&
		    strcmp(s->configs[i].workload ? s->configs[i].workload : "", "null"))
			fprintf(out, "  per event n/a for %s on %s: %s\n", s->configs[i].monitor,
				s->configs[i].workload, st[i].per_event_why);
	}
	if (service)
		fprintf(out,
			"  per service event: the extra time of the run / the service's events "
			"(its monitor attached before the run and detached after it)\n");
	if (rate)
		fprintf(out,
			"  per service event, from the rate: per unit of work, 1/rate monitored - "
			"1/rate plain,\n  / the service's events per unit in the counting run "
			"(its events / (its rate x its time))\n");
	if (timed)
		fprintf(out, "  per event: the extra time inside the workload's own timed region / "
			     "events; fixed: the rest of the extra time (start-up, teardown)\n");
	if (fit)
		fprintf(out,
			"  per event and fixed from --scale: extra = fixed + per event x events, "
			"fitted in each block\n");
	if (model)
		fprintf(out,
			"  per event (model-based): the command's extra time less the same "
			"monitor's on the null workload\n  (in the same blocks) / the events it pays "
			"for less the null workload's; fixed: the null's extra less its events'\n");
}

void pcost_report_level(const struct pcost_session *s, const bool *in, bool md, FILE *out)
{
	size_t used = 0, len = 0;
	bool same = true;
	char lab[160], head[160], *body = NULL;
	FILE *m;

	for (size_t i = 0; s->levels && i < s->nconfigs; i++) {
		if ((in && !in[i]) || !isfinite(s->levels[i].sd))
			continue;
		same &= !used || used == s->levels[i].sessions;
		used = s->levels[i].sessions;
	}
	if (!used || !(m = open_memstream(&body, &len)))
		return;
	for (size_t i = 0, k = 0; i < s->nconfigs; i++) {
		const struct pcost_config_level *l = &s->levels[i];
		const char *sep = " (";

		if ((in && !in[i]) || !isfinite(l->sd))
			continue;
		fprintf(m, "%s", k++ ? ", " : "");
		if (md)
			fprintf(m, "%s / ", s->configs[i].workload);
		fprintf(m, "%s %.1f%%", monitor_label(&s->configs[i], lab, sizeof(lab)),
			100 * l->sd);
		if (isfinite(l->ovh_pts)) {
			fprintf(m, "%sits overhead %.1f pts", sep, l->ovh_pts);
			sep = ", ";
		}
		for (size_t j = 0; l->figure_sd && j < s->nmetrics; j++)
			if (isfinite(l->figure_sd[j])) {
				fprintf(m, "%s%s %.1f%%", sep, s->metrics[j].name,
					100 * l->figure_sd[j]);
				sep = ", ";
			}
		if (!same) {
			fprintf(m, "%s%zu sessions", sep, l->sessions);
			sep = ", ";
		}
		fprintf(m, "%s", sep[0] == ',' ? ")" : "");
	}
	fclose(m);
	if (same)
		snprintf(head, sizeof(head),
			 "level between sessions (a mean's sd beyond its runs' +-; "
			 "%zu sessions, same conditions): ",
			 used);
	else
		snprintf(head, sizeof(head),
			 "level between sessions (a mean's sd beyond its runs' +-; "
			 "stored sessions, same conditions): ");
	if (md) {
		fprintf(out, "\n%s%s\n", head, body);
	} else {
		char *pre = xasprintf("  %s", head);

		pcost_report_wrapped(pre, body, out);
		free(pre);
	}
	free(body);
}

/*
 * The group's overheads again, each with where a rerun of the study would land
 * (stats/rerun.h), the headline a reader carries away; the table keeps each
 * session's own interval.  Nothing where none was measured.
 */
static void text_rerun(const struct pcost_session *s, const struct pcost_config_stats *st,
		       const bool *in, FILE *out)
{
	size_t len = 0, subs = 0;
	char *body = NULL, ov[64], lab[160], *pre;
	FILE *m;

	for (size_t i = 0; i < s->nconfigs; i++)
		if (in[i] && isfinite(st[i].overhead_rerun_lo))
			subs = subs > st[i].rerun_subs ? subs : st[i].rerun_subs;
	if (!subs || !(m = open_memstream(&body, &len)))
		return;
	for (size_t i = 0, k = 0; i < s->nconfigs; i++) {
		const struct pcost_config_stats *x = &st[i];

		if (!in[i] || !isfinite(x->overhead_rerun_lo))
			continue;
		pcost_text_pct_ci(x->overhead, x->overhead_rerun_lo, x->overhead_rerun_hi,
				  x->overhead_rerun_lo > 0 || x->overhead_rerun_hi < 0, ov,
				  sizeof(ov));
		fprintf(m, "%s%s %s", k++ ? ", " : "",
			monitor_label(&s->configs[i], lab, sizeof(lab)), ov);
	}
	fclose(m);
	pre = xasprintf("  overhead a rerun of this study would read, 95%% (%zu sub-sessions): ",
			subs);
	pcost_report_wrapped(pre, body, out);
	free(pre);
	free(body);
}

static void text(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	char head[256], wn[160];
	unsigned warm, blocks = pcost_report_blocks(s, &warm);
	bool *done, *in;
	struct pcost_run_warnings w;
	struct pcost_report_figures fig;

	if (pcost_report_run_brief_wanted(s)) {
		pcost_report_run_brief(s, st, out);
		return;
	}
	done = xcalloc(s->nconfigs + 1, sizeof(bool));
	in = xcalloc(s->nconfigs + 1, sizeof(bool));
	pcost_report_figures_init(&fig, s, st);
	pcost_option_text(s, "headline", head, sizeof(head));
	if (!s->nconfigs)
		fprintf(out, "# probecost run: session %lld%s%s, %s\n", (long long)s->id,
			head[0] ? " | " : "", head,
			s->complete
				? "no configuration"
				: "INCOMPLETE: nothing was measured before it stopped (killed or interrupted)");
	for (size_t g = 0; g < s->nconfigs; g++) {
		const struct pcost_config *c0 = &s->configs[g];
		int mw;

		if (done[g])
			continue;
		fprintf(out, "# probecost run: %s%s%s", c0->workload,
			c0->workload_args && *c0->workload_args ? ", " : "",
			c0->workload_args ?: "");
		if (st[g].events)
			fprintf(out, " (%llu %s%s)", (unsigned long long)st[g].events,
				c0->unit ?: "event", st[g].events == 1 ? "" : "s");
		fprintf(out, "%s%s\n", head[0] ? " | " : "", head);
		fprintf(out, "# %u interleaved block%s (%s), 95%% confidence, seed %llu%s%s\n",
			blocks, blocks == 1 ? "" : "s",
			pcost_report_warm_note(s, warm, wn, sizeof(wn)),
			(unsigned long long)s->seed,
			s->tsc_hz > 0 ? ", cycles = extra time x TSC" : "",
			pcost_session_failed(s) ? ", FAILED (no run succeeded)"
			: s->complete		? ""
						: ", INTERRUPTED (partial results)");
		if (c0->threads)
			fprintf(out, "# %u thread%s\n", c0->threads, c0->threads == 1 ? "" : "s");
		loop_line(c0, out);
		if (!g)
			pcost_text_changed(s, st, "under the monitor", "plain", out);
		mw = (int)monitor_width(s, done, g);
		fprintf(out, "\n  %-*s %-19s %-24s %-9s %-24s %-30s %-20s %s\n", mw, "monitor",
			"elapsed", "overhead", "cycles", "fixed", "per event", "events seen / made",
			"outcome");
		for (size_t i = 0; i < s->nconfigs; i++)
			in[i] = !done[i] && same_group(&s->configs[i], c0);
		for (size_t i = g; i < s->nconfigs; i++) {
			if (done[i] || !same_group(&s->configs[i], c0))
				continue;
			done[i] = true;
			text_row(s, st, i, mw, out);
		}
		pcost_report_figures_text(&fig, s, in, mw, out);
		text_rerun(s, st, in, out);
		pcost_report_level(s, in, false, out);
		fputc('\n', out);
	}
	text_outcomes(s, st, out);
	text_fits(s, st, out);
	text_sources(s, st, out);
	fprintf(out, "  overhead: mean(monitor)/mean(none) - 1 over runs paired by block, [95%% "
		     "interval]; '?' = not significant (the interval holds 0)\n");
	pcost_run_warnings(s, st, &w);
	if (w.n)
		fputc('\n', out);
	for (size_t i = 0; i < w.n; i++)
		fprintf(out, "warning: %s\n", w.msg[i]);
	free(done);
	free(in);
	pcost_report_figures_release(&fig);
}

static cJSON *summary_json(const struct pcost_summary *x)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "n", (double)x->n);
	cJSON_AddItemToObject(o, "mean", pcost_json_num(x->n ? x->mean : NAN));
	cJSON_AddItemToObject(o, "sd", pcost_json_num(x->n > 1 ? x->sd : NAN));
	cJSON_AddItemToObject(o, "sem", pcost_json_num(x->n > 1 ? x->sem : NAN));
	cJSON_AddItemToObject(o, "median", pcost_json_num(x->n ? x->median : NAN));
	cJSON_AddItemToObject(o, "mad", pcost_json_num(x->n ? x->mad : NAN));
	cJSON_AddItemToObject(o, "min", pcost_json_num(x->n ? x->min : NAN));
	cJSON_AddItemToObject(o, "max", pcost_json_num(x->n ? x->max : NAN));
	cJSON_AddItemToObject(o, "cov", pcost_json_num(x->n > 1 ? x->cov : NAN));
	cJSON_AddItemToObject(o, "p99", pcost_json_num(x->n ? x->p99 : NAN));
	cJSON_AddItemToObject(o, "ci_lo", pcost_json_num(x->n > 1 ? x->ci_lo : NAN));
	cJSON_AddItemToObject(o, "ci_hi", pcost_json_num(x->n > 1 ? x->ci_hi : NAN));
	pcost_json_ci(o, "robust", x->n ? x->robust : NAN, x->robust_lo, x->robust_hi);
	cJSON_AddNumberToObject(o, "outliers", (double)x->noutliers);
	return o;
}

static void json_costs(cJSON *o, const struct pcost_config_stats *x)
{
	pcost_json_ci(o, "overhead", x->overhead, x->overhead_lo, x->overhead_hi);
	cJSON_AddItemToObject(o, "p_value", pcost_json_num(x->p_value));
	cJSON_AddBoolToObject(o, "significant", x->significant);
	pcost_json_count(o, "pairs", (double)x->npairs, x->baseline >= 0);
	pcost_json_ci(o, "extra_ns", x->extra_ns, x->extra_ns_lo, x->extra_ns_hi);
	/* Where a rerun of the study would land (stats/rerun.h); null: not measured. */
	cJSON_AddItemToObject(o, "overhead_rerun_lo", pcost_json_num(x->overhead_rerun_lo));
	cJSON_AddItemToObject(o, "overhead_rerun_hi", pcost_json_num(x->overhead_rerun_hi));
	cJSON_AddItemToObject(o, "extra_ns_rerun_lo", pcost_json_num(x->extra_ns_rerun_lo));
	cJSON_AddItemToObject(o, "extra_ns_rerun_hi", pcost_json_num(x->extra_ns_rerun_hi));
	pcost_json_count(o, "rerun_subsessions", (double)x->rerun_subs,
			 isfinite(x->overhead_rerun_lo));
	pcost_json_ci(o, "extra_cycles", x->extra_cycles, x->extra_cycles_lo, x->extra_cycles_hi);
	pcost_json_ci(o, "fixed_ns", x->fixed_ns, x->fixed_ns_lo, x->fixed_ns_hi);
	pcost_json_ci(o, "per_event_ns", x->per_event_ns, x->per_event_ns_lo, x->per_event_ns_hi);
	pcost_json_ci(o, "model_per_event_ns", x->model_per_event_ns, x->model_per_event_ns_lo,
		      x->model_per_event_ns_hi);
	cJSON_AddItemToObject(o, "per_event_source",
			      x->per_event_source ? cJSON_CreateString(x->per_event_source)
						  : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "per_event_why",
			      x->per_event_why ? cJSON_CreateString(x->per_event_why)
					       : cJSON_CreateNull());
	pcost_json_ci(o, "fit_fixed_ns", x->fit_fixed_ns, x->fit_fixed_ns_lo, x->fit_fixed_ns_hi);
	pcost_json_ci(o, "fit_per_event_ns", x->fit_per_event_ns, x->fit_per_event_ns_lo,
		      x->fit_per_event_ns_hi);
	cJSON_AddItemToObject(o, "fit_r2", pcost_json_num(x->has_fit ? x->fit_r2 : NAN));
	pcost_json_count(o, "fit_blocks", (double)x->fit_nblocks, x->has_fit);
	cJSON_AddItemToObject(o, "other_cpu_ns", pcost_json_num(x->other_cpu_ns));
	cJSON_AddItemToObject(o, "steal_ns", pcost_json_num(x->steal_ns));
	/* The robust companions (analyze.h): Hodges-Lehmann with the Wilcoxon interval. */
	pcost_json_ci(o, "overhead_robust", x->overhead_robust, x->overhead_robust_lo,
		      x->overhead_robust_hi);
	pcost_json_ci(o, "extra_ns_robust", x->extra_ns_robust, x->extra_ns_robust_lo,
		      x->extra_ns_robust_hi);
	pcost_json_ci(o, "extra_cycles_robust", x->extra_cycles_robust, x->extra_cycles_robust_lo,
		      x->extra_cycles_robust_hi);
	pcost_json_ci(o, "fixed_ns_robust", x->fixed_ns_robust, x->fixed_ns_robust_lo,
		      x->fixed_ns_robust_hi);
	pcost_json_ci(o, "per_event_ns_robust", x->per_event_ns_robust, x->per_event_ns_robust_lo,
		      x->per_event_ns_robust_hi);
	pcost_json_ci(o, "fit_fixed_ns_robust", x->fit_fixed_ns_robust, x->fit_fixed_ns_robust_lo,
		      x->fit_fixed_ns_robust_hi);
	pcost_json_ci(o, "fit_per_event_ns_robust", x->fit_per_event_ns_robust,
		      x->fit_per_event_ns_robust_lo, x->fit_per_event_ns_robust_hi);
	pcost_json_carry_over(o, x);
}

/* The level between sessions of configuration i (s->levels): null where not measured. */
static void json_level(cJSON *o, const struct pcost_session *s, size_t i)
{
	const struct pcost_config_level *l = s->levels ? &s->levels[i] : NULL;

	cJSON_AddItemToObject(o, "level_sd", pcost_json_num(l ? l->sd : NAN));
	pcost_json_count(o, "level_sessions", l ? (double)l->sessions : 0, l && l->sessions);
	cJSON_AddItemToObject(o, "overhead_level_pts", pcost_json_num(l ? l->ovh_pts : NAN));
}

static int json(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	cJSON *root = pcost_json_envelope(s), *arr = pcost_json_statistics(root);
	struct pcost_run_warnings w;
	struct pcost_report_figures fig;

	pcost_report_figures_init(&fig, s, st);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config_stats *x = &st[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "config", (double)i);
		cJSON_AddStringToObject(o, "workload", s->configs[i].workload ?: "");
		cJSON_AddStringToObject(o, "workload_args", s->configs[i].workload_args ?: "");
		cJSON_AddStringToObject(o, "monitor", s->configs[i].monitor ?: "");
		cJSON_AddNumberToObject(o, "ok", (double)x->nok);
		cJSON_AddNumberToObject(o, "failed", (double)x->nfailed);
		cJSON_AddItemToObject(o, "wall_ns", summary_json(&x->wall));
		cJSON_AddItemToObject(o, "user_ns", summary_json(&x->user));
		cJSON_AddItemToObject(o, "sys_ns", summary_json(&x->sys));
		cJSON_AddItemToObject(o, "cpu_util", pcost_json_num(x->nok ? x->cpu_util : NAN));
		pcost_json_count(o, "baseline", x->baseline, x->baseline >= 0);
		cJSON_AddStringToObject(o, "unit", s->configs[i].unit ?: "");
		pcost_json_count(o, "events", (double)x->events, x->events > 0);
		pcost_json_count(o, "monitor_events", (double)x->monitor_events,
				 x->monitor_events >= 0);
		pcost_json_count(o, "lost_events", (double)x->lost_events, x->has_lost);
		pcost_json_count(o, "threads", s->configs[i].threads, s->configs[i].threads > 0);
		cJSON_AddItemToObject(o, "placement",
				      s->configs[i].placement
					      ? cJSON_CreateString(s->configs[i].placement)
					      : cJSON_CreateNull());
		cJSON_AddStringToObject(o, "outcome", pcost_outcome_name(x->outcome));
		cJSON_AddStringToObject(o, "outcome_why", x->outcome_why);
		json_costs(o, x);
		json_level(o, s, i);
		pcost_report_figures_json(&fig, s, i, o);
		cJSON_AddItemToArray(arr, o);
	}
	pcost_report_figures_release(&fig);
	pcost_run_warnings(s, st, &w);
	pcost_json_warnings(root, w.msg, w.n);
	pcost_json_print(root, out);
	return 0;
}

/* The level between sessions of configuration i (s->levels): empty where not measured. */
static void csv_level(struct pcost_csv *c, const struct pcost_session *s, size_t i)
{
	const struct pcost_config_level *l = s->levels ? &s->levels[i] : NULL;

	pcost_csv_num(c, "%.5f", l ? l->sd : NAN);
	pcost_csv_count(c, l ? (double)l->sessions : 0, l && l->sessions);
	pcost_csv_num(c, "%.2f", l ? l->ovh_pts : NAN);
}

static void csv(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	struct pcost_csv c = { .out = out };
	struct pcost_report_figures fig;

	pcost_report_figures_init(&fig, s, st);
	fprintf(out,
		"workload,workload_args,monitor,unit,runs_ok,runs_failed,wall_mean_ns,"
		"wall_ci_lo_ns,wall_ci_hi_ns,wall_sd_ns,wall_median_ns,user_mean_ns,sys_mean_ns,"
		"cpu_util,overhead,overhead_lo,overhead_hi,p_value,significant,extra_ns,"
		"extra_ns_lo,extra_ns_hi,extra_cycles,extra_cycles_lo,extra_cycles_hi,events,"
		"monitor_events,fixed_ns,fixed_ns_lo,fixed_ns_hi,per_event_ns,per_event_ns_lo,"
		"per_event_ns_hi,per_event_source,fit_fixed_ns,fit_fixed_ns_lo,fit_fixed_ns_hi,"
		"fit_per_event_ns,fit_per_event_ns_lo,fit_per_event_ns_hi,fit_r2,other_cpu_ns,"
		"steal_ns,outliers,lost_events,threads,placement,overhead_robust,"
		"overhead_robust_lo,overhead_robust_hi,extra_ns_robust,extra_ns_robust_lo,"
		"extra_ns_robust_hi,extra_cycles_robust,extra_cycles_robust_lo,"
		"extra_cycles_robust_hi,fixed_ns_robust,fixed_ns_robust_lo,fixed_ns_robust_hi,"
		"per_event_ns_robust,per_event_ns_robust_lo,per_event_ns_robust_hi,"
		"fit_fixed_ns_robust,fit_fixed_ns_robust_lo,fit_fixed_ns_robust_hi,"
		"fit_per_event_ns_robust,fit_per_event_ns_robust_lo,fit_per_event_ns_robust_hi,"
		"carry_over,carry_over_lo,carry_over_hi,carry_over_p,wall_robust_ns,"
		"wall_robust_lo_ns,wall_robust_hi_ns,level_sd,level_sessions,overhead_level_pts,"
		"outcome,outcome_why");
	pcost_report_figures_csv_header(&fig, s, out);
	fputc('\n', out);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config_stats *x = &st[i];
		bool two = x->nok > 1;

		pcost_csv_str(&c, s->configs[i].workload);
		pcost_csv_str(&c, s->configs[i].workload_args);
		pcost_csv_str(&c, s->configs[i].monitor);
		pcost_csv_str(&c, s->configs[i].unit);
		pcost_csv_count(&c, (double)x->nok, true);
		pcost_csv_count(&c, (double)x->nfailed, true);
		pcost_csv_num(&c, "%.0f", x->nok ? x->wall.mean : NAN);
		pcost_csv_num(&c, "%.0f", two ? x->wall.ci_lo : NAN);
		pcost_csv_num(&c, "%.0f", two ? x->wall.ci_hi : NAN);
		pcost_csv_num(&c, "%.0f", two ? x->wall.sd : NAN);
		pcost_csv_num(&c, "%.0f", x->nok ? x->wall.median : NAN);
		pcost_csv_num(&c, "%.0f", x->nok ? x->user.mean : NAN);
		pcost_csv_num(&c, "%.0f", x->nok ? x->sys.mean : NAN);
		pcost_csv_num(&c, "%.4f", x->nok ? x->cpu_util : NAN);
		pcost_csv_ci(&c, "%.6f", x->overhead, x->overhead_lo, x->overhead_hi);
		pcost_csv_num(&c, "%.6g", x->p_value);
		pcost_csv_bool(&c, x->significant);
		pcost_csv_ci(&c, "%.0f", x->extra_ns, x->extra_ns_lo, x->extra_ns_hi);
		pcost_csv_ci(&c, "%.0f", x->extra_cycles, x->extra_cycles_lo, x->extra_cycles_hi);
		pcost_csv_count(&c, (double)x->events, x->events > 0);
		pcost_csv_count(&c, (double)x->monitor_events, x->monitor_events >= 0);
		pcost_csv_ci(&c, "%.0f", x->fixed_ns, x->fixed_ns_lo, x->fixed_ns_hi);
		pcost_csv_ci(&c, "%.3f", x->per_event_ns, x->per_event_ns_lo, x->per_event_ns_hi);
		pcost_csv_str(&c, x->per_event_source);
		pcost_csv_ci(&c, "%.0f", x->fit_fixed_ns, x->fit_fixed_ns_lo, x->fit_fixed_ns_hi);
		pcost_csv_ci(&c, "%.3f", x->fit_per_event_ns, x->fit_per_event_ns_lo,
			     x->fit_per_event_ns_hi);
		pcost_csv_num(&c, "%.4f", x->has_fit ? x->fit_r2 : NAN);
		pcost_csv_num(&c, "%.0f", x->other_cpu_ns);
		pcost_csv_num(&c, "%.0f", x->steal_ns);
		pcost_csv_count(&c, (double)x->noutliers, true);
		pcost_csv_count(&c, (double)x->lost_events, x->has_lost);
		pcost_csv_count(&c, s->configs[i].threads, s->configs[i].threads > 0);
		pcost_csv_str(&c, s->configs[i].placement);
		pcost_csv_ci(&c, "%.6f", x->overhead_robust, x->overhead_robust_lo,
			     x->overhead_robust_hi);
		pcost_csv_ci(&c, "%.0f", x->extra_ns_robust, x->extra_ns_robust_lo,
			     x->extra_ns_robust_hi);
		pcost_csv_ci(&c, "%.0f", x->extra_cycles_robust, x->extra_cycles_robust_lo,
			     x->extra_cycles_robust_hi);
		pcost_csv_ci(&c, "%.0f", x->fixed_ns_robust, x->fixed_ns_robust_lo,
			     x->fixed_ns_robust_hi);
		pcost_csv_ci(&c, "%.3f", x->per_event_ns_robust, x->per_event_ns_robust_lo,
			     x->per_event_ns_robust_hi);
		pcost_csv_ci(&c, "%.0f", x->fit_fixed_ns_robust, x->fit_fixed_ns_robust_lo,
			     x->fit_fixed_ns_robust_hi);
		pcost_csv_ci(&c, "%.3f", x->fit_per_event_ns_robust, x->fit_per_event_ns_robust_lo,
			     x->fit_per_event_ns_robust_hi);
		pcost_csv_carry_over(&c, x);
		pcost_csv_ci(&c, "%.0f", x->wall.n ? x->wall.robust : NAN, x->wall.robust_lo,
			     x->wall.robust_hi);
		csv_level(&c, s, i);
		pcost_csv_str(&c, pcost_outcome_name(x->outcome));
		pcost_csv_str(&c, x->outcome_why);
		pcost_report_figures_csv(&fig, s, i, &c);
		pcost_csv_end(&c);
	}
	pcost_report_figures_release(&fig);
}

static void markdown(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	char buf[48], ov[64], fx[64], pe[96], me[64], lab[160];
	struct pcost_run_warnings w;

	pcost_text_changed(s, st, "under the monitor", "plain", out);
	fprintf(out,
		"| workload | monitor | elapsed | +- (95%%) | overhead [95%%] | p | fixed [95%%] | "
		"per event [95%%] | events seen / made | outcome |\n"
		"|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *x = &st[i];

		fmt_time(x->wall.mean, buf, sizeof(buf));
		fmt_seen(x, me, sizeof(me));
		char *wl = xasprintf("%s %s", c->workload, c->workload_args ?: "");

		pcost_md_cells(out, wl, monitor_label(c, lab, sizeof(lab)));
		free(wl);
		fprintf(out, "%s | %.1f%% | ", x->nok ? buf : "failed",
			x->wall.mean > 0 ? 100 * (x->wall.ci_hi - x->wall.mean) / x->wall.mean : 0);
		if (x->baseline < 0) {
			fprintf(out, "- | - | - | - | %s | %s |\n", me,
				pcost_outcome_name(x->outcome));
			continue;
		}
		pcost_text_pct_ci(x->overhead, x->overhead_lo, x->overhead_hi, x->significant, ov,
				  sizeof(ov));
		pcost_text_ns_ci(x->fixed_ns, x->fixed_ns_lo, x->fixed_ns_hi, NULL, fx, sizeof(fx));
		pcost_text_ns_ci(x->per_event_ns, x->per_event_ns_lo, x->per_event_ns_hi,
				 c->unit ?: "event", pe, sizeof(pe));
		snprintf(buf, sizeof(buf), isfinite(x->p_value) ? "%.2g" : "n/a", x->p_value);
		fprintf(out, "%s | %s | %s | %s | %s | %s |\n", ov, buf, fx, pe, me,
			pcost_outcome_name(x->outcome));
	}
	for (size_t i = 0, n = 0; i < s->nconfigs; i++)
		if (st[i].outcome != PCOST_OUTCOME_OK || st[i].outcome_noted)
			fprintf(out, "%s- %s on %s: %s: %s\n", n++ ? "" : "\n",
				s->configs[i].monitor, s->configs[i].workload,
				pcost_outcome_name(st[i].outcome), st[i].outcome_why);
	for (size_t i = 0, n = 0; i < s->nconfigs; i++) {
		if (!st[i].has_fit || st[i].baseline < 0 || st[i].fit_group != (int)i)
			continue;
		if (!n++)
			fprintf(out,
				"\n**Fit over the --scale sizes**: extra = fixed + per event x events "
				"[95%%]\n\n| workload | monitor | fixed | per event | R^2 |\n"
				"|---|---|---|---|---|\n");
		pcost_text_ns_ci(st[i].fit_fixed_ns, st[i].fit_fixed_ns_lo, st[i].fit_fixed_ns_hi,
				 NULL, fx, sizeof(fx));
		pcost_text_ns_ci(st[i].fit_per_event_ns, st[i].fit_per_event_ns_lo,
				 st[i].fit_per_event_ns_hi, s->configs[i].unit ?: "event", pe,
				 sizeof(pe));
		pcost_md_cells(out, s->configs[i].workload,
			       monitor_label(&s->configs[i], lab, sizeof(lab)));
		fprintf(out, "%s | %s | %.3f |\n", fx, pe, st[i].fit_r2);
	}
	{
		struct pcost_report_figures fig;

		pcost_report_figures_init(&fig, s, st);
		pcost_report_figures_markdown(&fig, s, out);
		pcost_report_figures_release(&fig);
	}
	pcost_report_level(s, NULL, true, out);
	pcost_run_warnings(s, st, &w);
	for (size_t i = 0; i < w.n; i++)
		fprintf(out, "%s- warning: %s\n", i ? "" : "\n", w.msg[i]);
}

int pcost_report_run(const struct pcost_session *s, enum pcost_format f, FILE *out)
{
	struct pcost_config_stats *st;
	int rc = pcost_analyze(s, &st);

	if (rc < 0)
		return rc;
	switch (f) {
	case PCOST_FMT_TEXT:
		text(s, st, out);
		break;
	case PCOST_FMT_JSON:
		json(s, st, out);
		break;
	case PCOST_FMT_CSV:
		csv(s, st, out);
		break;
	case PCOST_FMT_HTML: /* the page (html.c) lays out the markdown tables */
	case PCOST_FMT_MARKDOWN:
		markdown(s, st, out);
		break;
	}
	free(st);
	return 0;
}
