// SPDX-License-Identifier: MIT
/* report/run_figures: --metric values, workload facts and a service's CPU in every format. */
#include "report/run_figures.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void pcost_report_figures_init(struct pcost_report_figures *f, const struct pcost_session *s,
			       const struct pcost_config_stats *st)
{
	memset(f, 0, sizeof(*f));
	pcost_analyze_figures(s, st, &f->fig);
	f->shown = xcalloc(s->nmetrics + 1, sizeof(bool));
	for (size_t k = 0; k < s->nmetrics; k++)
		f->shown[k] = pcost_figure_measured(s, k);
	f->service = pcost_service_measured(s);
	if (f->service)
		pcost_analyze_service_cpu(s, st, &f->svc);
}

void pcost_report_figures_release(struct pcost_report_figures *f)
{
	free(f->fig);
	free(f->svc);
	free(f->shown);
	memset(f, 0, sizeof(*f));
}

static const char *better_word(int better)
{
	return better > 0 ? "higher" : better < 0 ? "lower" : NULL;
}

/* "6559.5", "12.35": five significant digits; n/a when unmeasured. */
static void fmt_val(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.5g", v);
	else
		snprintf(buf, len, "n/a");
}

/* "6559.5 [6480.2, 6638.8]" (no brackets without an interval). */
static void fmt_mean(const struct pcost_figure_stats *x, char *buf, size_t len)
{
	char m[32], lo[32], hi[32];

	fmt_val(x->n ? x->mean : NAN, m, sizeof(m));
	if (!isfinite(x->mean_lo) || !isfinite(x->mean_hi)) {
		snprintf(buf, len, "%s", m);
		return;
	}
	fmt_val(x->mean_lo, lo, sizeof(lo));
	fmt_val(x->mean_hi, hi, sizeof(hi));
	snprintf(buf, len, "%s [%s, %s]", m, lo, hi);
}

/* Configuration i's level between sessions of figure k (s->levels), or NAN. */
static double figure_level(const struct pcost_session *s, size_t i, size_t k)
{
	return s->levels && s->levels[i].figure_sd ? s->levels[i].figure_sd[k] : NAN;
}

static void text_line(const struct pcost_figure_stats *x, const char *label, int mw, FILE *out)
{
	char mean[80], ch[64] = "-";

	fmt_mean(x, mean, sizeof(mean));
	if (!x->baseline)
		pcost_text_pct_ci(x->change, x->change_lo, x->change_hi, x->significant, ch,
				  sizeof(ch));
	fprintf(out, "    %-*.*s %-34s %s\n", mw, mw, label, mean, ch);
}

static const char *label_of(const struct pcost_config *c, char *buf, size_t len)
{
	if (c->placement)
		snprintf(buf, len, "%s, %s", c->monitor, c->placement);
	else
		snprintf(buf, len, "%s", c->monitor);
	return buf;
}

/* Some figure was measured, or the service's CPU time: the block has something to show. */
static bool any_figure(const struct pcost_report_figures *f, const struct pcost_session *s)
{
	bool any = f->service;

	for (size_t k = 0; k < s->nmetrics; k++)
		any |= f->shown[k];
	return any;
}

void pcost_report_figures_text(const struct pcost_report_figures *f, const struct pcost_session *s,
			       const bool *in, int mw, FILE *out)
{
	char lab[160];

	if (!any_figure(f, s))
		return;
	fprintf(out, "\n  %-*s %-34s %s\n", mw + 2, "figure / monitor", "mean [95%]",
		"change [95%]");
	for (size_t k = 0; k < s->nmetrics; k++) {
		const struct pcost_session_metric *m = &s->metrics[k];
		const char *b = better_word(m->better);

		if (!f->shown[k])
			continue;
		fprintf(out, "  %s (%s%s%s%s)\n", m->name, m->unit[0] ? m->unit : "no unit",
			b ? ", " : "", b ? b : "", b ? " is better" : "");
		for (size_t i = 0; i < s->nconfigs; i++)
			if (in[i])
				text_line(&f->fig[i * s->nmetrics + k],
					  label_of(&s->configs[i], lab, sizeof(lab)), mw, out);
	}
	if (!f->service)
		return;
	fprintf(out, "  service CPU time per run (ms, its processes' user + sys)\n");
	for (size_t i = 0; i < s->nconfigs; i++) {
		struct pcost_figure_stats ms;

		if (!in[i])
			continue;
		/* In ms: the ns of the statistics, scaled (the change is a ratio: unchanged). */
		ms = f->svc[i];
		ms.mean /= 1e6;
		ms.mean_lo /= 1e6;
		ms.mean_hi /= 1e6;
		text_line(&ms, label_of(&s->configs[i], lab, sizeof(lab)), mw, out);
	}
}

static void json_stats(cJSON *o, const struct pcost_figure_stats *x)
{
	cJSON_AddItemToObject(o, "mean", pcost_json_num(x->n ? x->mean : NAN));
	cJSON_AddItemToObject(o, "mean_lo", pcost_json_num(x->mean_lo));
	cJSON_AddItemToObject(o, "mean_hi", pcost_json_num(x->mean_hi));
	cJSON_AddItemToObject(o, "change", pcost_json_num(x->change));
	cJSON_AddItemToObject(o, "change_lo", pcost_json_num(x->change_lo));
	cJSON_AddItemToObject(o, "change_hi", pcost_json_num(x->change_hi));
	cJSON_AddItemToObject(o, "change_rerun_lo", pcost_json_num(x->change_rerun_lo));
	cJSON_AddItemToObject(o, "change_rerun_hi", pcost_json_num(x->change_rerun_hi));
	cJSON_AddNumberToObject(o, "runs", (double)x->n);
	cJSON_AddItemToObject(o, "p_value", pcost_json_num(x->p));
	cJSON_AddBoolToObject(o, "significant", x->significant);
	pcost_json_ci(o, "mean_robust", x->mean_robust, x->mean_robust_lo, x->mean_robust_hi);
	pcost_json_ci(o, "change_robust", x->change_robust, x->change_robust_lo,
		      x->change_robust_hi);
	cJSON_AddBoolToObject(o, "change_skewed", x->change_skewed);
}

void pcost_report_figures_json(const struct pcost_report_figures *f, const struct pcost_session *s,
			       size_t i, cJSON *row)
{
	cJSON *arr = cJSON_AddArrayToObject(row, "metrics");

	for (size_t k = 0; k < s->nmetrics; k++) {
		const struct pcost_session_metric *m = &s->metrics[k];
		const char *b = better_word(m->better);
		cJSON *o;

		if (!f->shown[k])
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", m->name);
		cJSON_AddStringToObject(o, "unit", m->unit);
		cJSON_AddItemToObject(o, "better", b ? cJSON_CreateString(b) : cJSON_CreateNull());
		json_stats(o, &f->fig[i * s->nmetrics + k]);
		cJSON_AddItemToObject(o, "level_sd", pcost_json_num(figure_level(s, i, k)));
		cJSON_AddItemToArray(arr, o);
	}
	if (f->service) {
		cJSON *o = cJSON_CreateObject();

		json_stats(o, &f->svc[i]);
		cJSON_AddItemToObject(row, "service_cpu_ns", o);
	} else {
		cJSON_AddNullToObject(row, "service_cpu_ns");
	}
}

static const char *const csv_cols[] = {
	"mean",		  "mean_lo",	   "mean_hi",	       "change",
	"change_lo",	  "change_hi",	   "mean_robust",      "mean_robust_lo",
	"mean_robust_hi", "change_robust", "change_robust_lo", "change_robust_hi",
	"level_sd",
};

void pcost_report_figures_csv_header(const struct pcost_report_figures *f,
				     const struct pcost_session *s, FILE *out)
{
	for (size_t k = 0; k < s->nmetrics; k++)
		for (size_t j = 0; f->shown[k] && j < ARRAY_SIZE(csv_cols); j++)
			fprintf(out, ",metric_%s_%s", s->metrics[k].name, csv_cols[j]);
	for (size_t j = 0; f->service && j < ARRAY_SIZE(csv_cols); j++)
		fprintf(out, ",service_cpu_ns_%s", csv_cols[j]);
}

static void csv_stats(struct pcost_csv *c, const struct pcost_figure_stats *x, double level)
{
	pcost_csv_ci(c, "%.9g", x->n ? x->mean : NAN, x->mean_lo, x->mean_hi);
	pcost_csv_ci(c, "%.6f", x->change, x->change_lo, x->change_hi);
	pcost_csv_ci(c, "%.9g", x->mean_robust, x->mean_robust_lo, x->mean_robust_hi);
	pcost_csv_ci(c, "%.6f", x->change_robust, x->change_robust_lo, x->change_robust_hi);
	pcost_csv_num(c, "%.6f", level);
}

void pcost_report_figures_csv(const struct pcost_report_figures *f, const struct pcost_session *s,
			      size_t i, struct pcost_csv *c)
{
	for (size_t k = 0; k < s->nmetrics; k++)
		if (f->shown[k])
			csv_stats(c, &f->fig[i * s->nmetrics + k], figure_level(s, i, k));
	if (f->service)
		csv_stats(c, &f->svc[i], NAN);
}

static void md_row(const struct pcost_figure_stats *x, FILE *out)
{
	char mean[80], ch[64] = "-";

	fmt_mean(x, mean, sizeof(mean));
	if (!x->baseline)
		pcost_text_pct_ci(x->change, x->change_lo, x->change_hi, x->significant, ch,
				  sizeof(ch));
	fprintf(out, "%s | %s |\n", mean, ch);
}

void pcost_report_figures_markdown(const struct pcost_report_figures *f,
				   const struct pcost_session *s, FILE *out)
{
	char lab[160];

	if (!any_figure(f, s))
		return;
	fprintf(out, "\n**Figures**: mean [95%%]; change = mean(monitor)/mean(none) - 1 over runs "
		     "paired by block [95%%]\n\n| figure | monitor | mean | change |\n"
		     "|---|---|---|---|\n");
	for (size_t k = 0; k < s->nmetrics; k++) {
		char name[128];

		if (!f->shown[k])
			continue;
		snprintf(name, sizeof(name), "%s%s%s%s", s->metrics[k].name,
			 s->metrics[k].unit[0] ? " (" : "", s->metrics[k].unit,
			 s->metrics[k].unit[0] ? ")" : "");
		for (size_t i = 0; i < s->nconfigs; i++) {
			pcost_md_cells(out, name, label_of(&s->configs[i], lab, sizeof(lab)));
			md_row(&f->fig[i * s->nmetrics + k], out);
		}
	}
	for (size_t i = 0; f->service && i < s->nconfigs; i++) {
		struct pcost_figure_stats ms = f->svc[i];

		ms.mean /= 1e6;
		ms.mean_lo /= 1e6;
		ms.mean_hi /= 1e6;
		pcost_md_cells(out, "service CPU (ms/run)",
			       label_of(&s->configs[i], lab, sizeof(lab)));
		md_row(&ms, out);
	}
}
