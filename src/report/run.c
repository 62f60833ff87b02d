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
#include "report/report.h"
#include "report/warnings.h"
#include "store/session_json.h"

static const char *opt_str(const struct pcost_session *s, const char *key, char *buf, size_t len)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

	buf[0] = 0;
	if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%g", v->valuedouble);
	cJSON_Delete(o);
	return buf;
}

static void fmt_time(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.3f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

static void fmt_ns(double ns, char *buf, size_t len)
{
	double a = fabs(ns);

	if (a >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else
		snprintf(buf, len, "%.0f ns", ns);
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

static unsigned count_blocks(const struct pcost_session *s, unsigned *warm)
{
	uint32_t maxb = 0, maxw = 0;
	bool any = false, anyw = false;

	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t k = 0; k < s->configs[i].nsamples; k++) {
			const struct pcost_run_sample *x = &s->configs[i].samples[k];

			if (x->warmup) {
				anyw = true;
				if (x->block > maxw)
					maxw = x->block;
			} else if (!(x->failed && x->wall_ns == 0)) {
				any = true;
				if (x->block > maxb)
					maxb = x->block;
			}
		}
	*warm = anyw ? maxw + 1 : 0;
	return any ? maxb + 1 - *warm : 0;
}

static bool same_group(const struct pcost_config *a, const struct pcost_config *b)
{
	return !strcmp(a->workload ?: "", b->workload ?: "") &&
	       !strcmp(a->workload_args ?: "", b->workload_args ?: "");
}

/* "strace, split" when monitors were placed (run --placement); the monitor alone otherwise. */
static void monitor_label(const struct pcost_config *c, char *buf, size_t len)
{
	if (c->placement)
		snprintf(buf, len, "%s, %s", c->monitor, c->placement);
	else
		snprintf(buf, len, "%s", c->monitor);
}

/* "12.3 k (lost 45)", "12.3 k (lost 0)", or "12.3 k (45 ns each)" where nothing is comparable. */
static void monitor_events_text(const struct pcost_config_stats *x, char *out, size_t len)
{
	char buf[24], per[24];

	if (x->monitor_events < 0) {
		snprintf(out, len, "-");
		return;
	}
	fmt_count((double)x->monitor_events, buf, sizeof(buf));
	if (x->has_lost)
		snprintf(out, len, "%s (lost %lld)", buf, (long long)x->lost_events);
	else if (x->baseline >= 0 && !isnan(x->extra_ns) && x->monitor_events > 0) {
		fmt_ns(x->extra_ns / (double)x->monitor_events, per, sizeof(per));
		snprintf(out, len, "%s (%s each)", buf, per);
	} else {
		snprintf(out, len, "%s", buf);
	}
}

/* A monitored configuration with a --scale fit, the first of its (workload, monitor): its line. */
static bool first_of_fit(const struct pcost_session *s, const struct pcost_config_stats *st, size_t i)
{
	if (!st[i].has_fit || st[i].baseline < 0)
		return false;
	for (size_t j = 0; j < i; j++)
		if (st[j].has_fit && !strcmp(s->configs[j].workload, s->configs[i].workload) &&
		    !strcmp(s->configs[j].monitor, s->configs[i].monitor))
			return false;
	return true;
}

static void text(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	char head[256], buf[24];
	unsigned warm, blocks = count_blocks(s, &warm);
	bool *done = xcalloc(s->nconfigs + 1, sizeof(bool));
	struct pcost_run_warnings w;
	size_t mw;

	opt_str(s, "headline", head, sizeof(head));
	for (size_t g = 0; g < s->nconfigs; g++) {
		const struct pcost_config *c0 = &s->configs[g];

		if (done[g])
			continue;
		fprintf(out, "# probecost run: %s%s%s", c0->workload, c0->workload_args ? ", " : "",
			c0->workload_args ?: "");
		if (st[g].events)
			fprintf(out, " (%llu %s%s)", (unsigned long long)st[g].events,
				c0->unit ?: "event", st[g].events == 1 ? "" : "s");
		fprintf(out, "%s%s\n", head[0] ? " | " : "", head);
		fprintf(out, "# %u interleaved block%s (+%u warm-up), 95%% confidence, seed %llu%s%s\n",
			blocks, blocks == 1 ? "" : "s", warm, (unsigned long long)s->seed,
			s->tsc_hz > 0 ? ", cycles = extra time x TSC" : "",
			s->complete ? "" : ", INTERRUPTED (partial results)");
		if (c0->threads)
			fprintf(out, "# %u thread%s\n", c0->threads, c0->threads == 1 ? "" : "s");
		mw = 7;
		for (size_t i = g; i < s->nconfigs; i++) {
			char lab[160];

			monitor_label(&s->configs[i], lab, sizeof(lab));
			if (!done[i] && same_group(&s->configs[i], c0) && strlen(lab) > mw)
				mw = strlen(lab);
		}
		if (mw > 48)
			mw = 48;
		fprintf(out, "\n  %-*s %-21s %-8s %-8s %-27s %-12s %-18s %s\n", (int)mw, "monitor", "elapsed",
			"user", "sys", "overhead", "extra cycles", "per event", "monitor events");
		for (size_t i = g; i < s->nconfigs; i++) {
			const struct pcost_config *c = &s->configs[i];
			const struct pcost_config_stats *x = &st[i];
			char el[64], us[24], sy[24], ov[64], cy[24], pe[96], me[96], lab[160];

			if (done[i] || !same_group(c, c0))
				continue;
			done[i] = true;
			monitor_label(c, lab, sizeof(lab));
			if (!x->nok) {
				const char *why = c->nsamples ? c->samples[c->nsamples - 1].fail_reason : "";

				fprintf(out, "  %-*.*s all %zu run%s failed: %s\n", (int)mw, (int)mw, lab, x->nfailed,
					x->nfailed == 1 ? "" : "s", why);
				continue;
			}
			fmt_time(x->wall.mean, buf, sizeof(buf));
			snprintf(el, sizeof(el), "%s (+- %.1f%%)", buf,
				 x->wall.mean > 0 ? 100 * (x->wall.ci_hi - x->wall.mean) / x->wall.mean : 0);
			snprintf(us, sizeof(us), "%.2f s", x->user.mean / 1e9);
			snprintf(sy, sizeof(sy), "%.2f s", x->sys.mean / 1e9);
			if (x->baseline < 0 || isnan(x->overhead)) {
				snprintf(ov, sizeof(ov), "-");
				snprintf(cy, sizeof(cy), "-");
				snprintf(pe, sizeof(pe), "-");
			} else {
				if (isnan(x->overhead_lo))
					snprintf(ov, sizeof(ov), "%+.1f%%", 100 * x->overhead);
				else
					snprintf(ov, sizeof(ov), "%+.1f%% [%+.1f, %+.1f]%s", 100 * x->overhead,
						 100 * x->overhead_lo, 100 * x->overhead_hi,
						 x->significant ? "" : "?");
				if (s->tsc_hz > 0)
					fmt_count(x->extra_cycles, cy, sizeof(cy));
				else
					snprintf(cy, sizeof(cy), "n/a");
				if (!isnan(x->per_event_ns)) {
					fmt_ns(x->per_event_ns, buf, sizeof(buf));
					snprintf(pe, sizeof(pe), "%s/%s", buf, c->unit ?: "event");
				} else {
					snprintf(pe, sizeof(pe), "-");
				}
			}
			monitor_events_text(x, me, sizeof(me));
			fprintf(out, "  %-*.*s %-21s %-8s %-8s %-27s %-12s %-18s %s", (int)mw, (int)mw, lab, el, us,
				sy, ov, cy, pe, me);
			if (x->nfailed)
				fprintf(out, "  (%zu failed)", x->nfailed);
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < s->nconfigs; i++) {
		if (!first_of_fit(s, st, i))
			continue;
		char fx[24], pe[24];

		fmt_ns(st[i].fit_fixed_ns, fx, sizeof(fx));
		fmt_ns(st[i].fit_per_event_ns, pe, sizeof(pe));
		fprintf(out, "  fit %s on %s: extra = %s fixed + %s/%s (R^2 %.3f)\n",
			s->configs[i].monitor, s->configs[i].workload, fx, pe,
			s->configs[i].unit ?: "event", st[i].fit_r2);
	}
	fprintf(out, "  overhead: mean(monitor)/mean(none) - 1 paired per block, [95%% bootstrap CI]; "
		     "'?' = not significant (Welch p >= 0.05 or CI spans 0)\n");
	pcost_run_warnings(s, st, &w);
	if (w.n)
		fputc('\n', out);
	for (size_t i = 0; i < w.n; i++)
		fprintf(out, "warning: %s\n", w.msg[i]);
	free(done);
}

static cJSON *num_or_null(double v)
{
	return isnan(v) || isinf(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

static cJSON *summary_json(const struct pcost_summary *x)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "n", (double)x->n);
	cJSON_AddItemToObject(o, "mean", num_or_null(x->mean));
	cJSON_AddItemToObject(o, "sd", num_or_null(x->sd));
	cJSON_AddItemToObject(o, "sem", num_or_null(x->sem));
	cJSON_AddItemToObject(o, "median", num_or_null(x->median));
	cJSON_AddItemToObject(o, "mad", num_or_null(x->mad));
	cJSON_AddItemToObject(o, "min", num_or_null(x->min));
	cJSON_AddItemToObject(o, "max", num_or_null(x->max));
	cJSON_AddItemToObject(o, "cov", num_or_null(x->cov));
	cJSON_AddItemToObject(o, "p99", num_or_null(x->p99));
	cJSON_AddItemToObject(o, "ci_lo", num_or_null(x->ci_lo));
	cJSON_AddItemToObject(o, "ci_hi", num_or_null(x->ci_hi));
	cJSON_AddNumberToObject(o, "outliers", (double)x->noutliers);
	return o;
}

static int json(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *arr, *warr;
	struct pcost_run_warnings w;
	char *txt;

	cJSON_AddStringToObject(root, "probecost", s->version ?: PCOST_VERSION);
	cJSON_AddItemToObject(root, "session",
			      pcost_session_to_json(s));
	arr = cJSON_AddArrayToObject(root, "statistics");
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
		cJSON_AddItemToObject(o, "cpu_util", num_or_null(x->cpu_util));
		cJSON_AddNumberToObject(o, "baseline", x->baseline);
		cJSON_AddItemToObject(o, "overhead", num_or_null(x->overhead));
		cJSON_AddItemToObject(o, "overhead_lo", num_or_null(x->overhead_lo));
		cJSON_AddItemToObject(o, "overhead_hi", num_or_null(x->overhead_hi));
		cJSON_AddItemToObject(o, "p_value", num_or_null(x->p_value));
		cJSON_AddBoolToObject(o, "significant", x->significant);
		cJSON_AddItemToObject(o, "extra_ns", num_or_null(x->extra_ns));
		cJSON_AddItemToObject(o, "extra_cycles", num_or_null(x->extra_cycles));
		cJSON_AddStringToObject(o, "cycles_source", s->tsc_hz > 0 ? "tsc" : "unknown");
		cJSON_AddNumberToObject(o, "events", (double)x->events);
		cJSON_AddStringToObject(o, "unit", s->configs[i].unit ?: "");
		cJSON_AddItemToObject(o, "per_event_ns", num_or_null(x->per_event_ns));
		cJSON_AddItemToObject(o, "monitor_events", x->monitor_events >= 0 ?
				      cJSON_CreateNumber((double)x->monitor_events) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "lost_events", x->has_lost ?
				      cJSON_CreateNumber((double)x->lost_events) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "threads", s->configs[i].threads ?
				      cJSON_CreateNumber(s->configs[i].threads) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "placement", s->configs[i].placement ?
				      cJSON_CreateString(s->configs[i].placement) : cJSON_CreateNull());
		if (x->has_fit) {
			cJSON_AddNumberToObject(o, "fit_fixed_ns", x->fit_fixed_ns);
			cJSON_AddNumberToObject(o, "fit_per_event_ns", x->fit_per_event_ns);
			cJSON_AddNumberToObject(o, "fit_r2", x->fit_r2);
		}
		cJSON_AddItemToArray(arr, o);
	}
	pcost_run_warnings(s, st, &w);
	warr = cJSON_AddArrayToObject(root, "warnings");
	for (size_t i = 0; i < w.n; i++)
		cJSON_AddItemToArray(warr, cJSON_CreateString(w.msg[i]));
	txt = cJSON_Print(root);
	fprintf(out, "%s\n", txt);
	free(txt);
	cJSON_Delete(root);
	return 0;
}

static void csv_field(FILE *out, const char *v)
{
	fputc('"', out);
	for (; v && *v; v++) {
		if (*v == '"')
			fputc('"', out);
		fputc(*v, out);
	}
	fputc('"', out);
}

/* ",value", or "," alone when the figure does not exist (NaN). */
static void csv_num(FILE *out, const char *fmt, double v)
{
	fputc(',', out);
	if (!isnan(v) && !isinf(v))
		fprintf(out, fmt, v);
}

static void csv(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	fprintf(out, "workload,workload_args,monitor,unit,runs_ok,runs_failed,wall_mean_ns,"
		     "wall_ci_lo_ns,wall_ci_hi_ns,wall_sd_ns,wall_median_ns,user_mean_ns,sys_mean_ns,"
		     "cpu_util,overhead,overhead_lo,overhead_hi,p_value,significant,extra_ns,"
		     "extra_cycles,events,per_event_ns,monitor_events,outliers,lost_events,threads,"
		     "placement\n");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config_stats *x = &st[i];

		csv_field(out, s->configs[i].workload);
		fputc(',', out);
		csv_field(out, s->configs[i].workload_args);
		fputc(',', out);
		csv_field(out, s->configs[i].monitor);
		fputc(',', out);
		csv_field(out, s->configs[i].unit);
		fprintf(out, ",%zu,%zu", x->nok, x->nfailed);
		csv_num(out, "%.0f", x->wall.mean);
		csv_num(out, "%.0f", x->wall.ci_lo);
		csv_num(out, "%.0f", x->wall.ci_hi);
		csv_num(out, "%.0f", x->wall.sd);
		csv_num(out, "%.0f", x->wall.median);
		csv_num(out, "%.0f", x->user.mean);
		csv_num(out, "%.0f", x->sys.mean);
		csv_num(out, "%.4f", x->cpu_util);
		csv_num(out, "%.6f", x->overhead);
		csv_num(out, "%.6f", x->overhead_lo);
		csv_num(out, "%.6f", x->overhead_hi);
		csv_num(out, "%.6g", x->p_value);
		fprintf(out, ",%d", x->significant);
		csv_num(out, "%.0f", x->extra_ns);
		csv_num(out, "%.0f", x->extra_cycles);
		fprintf(out, ",%llu", (unsigned long long)x->events);
		csv_num(out, "%.3f", x->per_event_ns);
		fputc(',', out);
		if (x->monitor_events >= 0)
			fprintf(out, "%lld", (long long)x->monitor_events);
		fprintf(out, ",%zu,", x->noutliers);
		if (x->has_lost)
			fprintf(out, "%lld", (long long)x->lost_events);
		fputc(',', out);
		if (s->configs[i].threads)
			fprintf(out, "%u", s->configs[i].threads);
		fputc(',', out);
		if (s->configs[i].placement)
			csv_field(out, s->configs[i].placement);
		fputc('\n', out);
	}
}

static void markdown(const struct pcost_session *s, const struct pcost_config_stats *st, FILE *out)
{
	char buf[48], pe[48], lab[160];
	struct pcost_run_warnings w;

	fprintf(out, "| workload | monitor | elapsed | +- (95%%) | overhead | 95%% CI | p | "
		     "per event | monitor events |\n|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *x = &st[i];

		monitor_label(c, lab, sizeof(lab));
		fmt_time(x->wall.mean, buf, sizeof(buf));
		if (!isnan(x->per_event_ns)) {
			char t[24];

			fmt_ns(x->per_event_ns, t, sizeof(t));
			snprintf(pe, sizeof(pe), "%s/%s", t, c->unit ?: "event");
		} else {
			snprintf(pe, sizeof(pe), "-");
		}
		fprintf(out, "| %s %s | %s | %s | %.1f%% | ", c->workload, c->workload_args ?: "",
			lab, x->nok ? buf : "failed",
			x->wall.mean > 0 ? 100 * (x->wall.ci_hi - x->wall.mean) / x->wall.mean : 0);
		if (x->baseline < 0 || isnan(x->overhead))
			fprintf(out, "- | - | - | - | ");
		else
			fprintf(out, "%+.1f%% | [%+.1f, %+.1f] | %.2g | %s | ", 100 * x->overhead,
				100 * x->overhead_lo, 100 * x->overhead_hi, x->p_value, pe);
		if (x->monitor_events >= 0)
			fprintf(out, "%lld |\n", (long long)x->monitor_events);
		else
			fprintf(out, "- |\n");
	}
	for (size_t i = 0, n = 0; i < s->nconfigs; i++) {
		char fx[24], slope[24];

		if (!first_of_fit(s, st, i))
			continue;
		if (!n++)
			fprintf(out, "\n**Fit over the --scale sizes**: extra = fixed + per event x events\n\n"
				     "| workload | monitor | fixed | per event | R^2 |\n|---|---|---|---|---|\n");
		fmt_ns(st[i].fit_fixed_ns, fx, sizeof(fx));
		fmt_ns(st[i].fit_per_event_ns, slope, sizeof(slope));
		fprintf(out, "| %s | %s | %s | %s/%s | %.3f |\n", s->configs[i].workload,
			s->configs[i].monitor, fx, slope, s->configs[i].unit ?: "event", st[i].fit_r2);
	}
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
