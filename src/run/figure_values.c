// SPDX-License-Identifier: MIT
/* run/figure_values: each run's --metric values and workload facts into its sample (see figure_values.h). */
#include "run/figure_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "run/metric.h"
#include "workloads/workload.h"

static int better_sign(enum pcost_metric_better b)
{
	return b == PCOST_METRIC_HIGHER ? 1 : b == PCOST_METRIC_LOWER ? -1 : 0;
}

size_t pcost_figures_set_size(const struct pcost_metric_set *set)
{
	return set ? set->n : 0;
}

void pcost_figures_declare_set(struct pcost_session *s, const struct pcost_metric_set *set)
{
	for (size_t i = 0; set && i < set->n; i++)
		if (pcost_session_metric_find(s, set->m[i]->name) < 0)
			pcost_session_add_metric(s, set->m[i]->name, set->m[i]->unit,
						 better_sign(set->m[i]->better));
}

/* Does the "k=v k=v" list args give parameter key? */
static bool args_give(const char *args, const char *key)
{
	size_t n = strlen(key);

	for (const char *a = args; a && *a; a += strcspn(a, " "), a += *a == ' ')
		if (!strncmp(a, key, n) && a[n] == '=')
			return true;
	return false;
}

void pcost_figures_declare_workload(struct pcost_session *s, const struct pcost_workload *wl,
				    const char *args)
{
	for (const struct pcost_wl_figure *f = wl->figures; f && f->fact; f++)
		if ((!f->when || args_give(args, f->when)) &&
		    pcost_session_metric_find(s, f->fact) < 0)
			pcost_session_add_metric(s, f->fact, f->unit, f->better);
}

struct facts {
	struct pcost_session *s;
	double *v;
};

/* A report fact that names a figure: its value (the set's figures are not facts). */
static void one_fact(const char *key, const char *val, void *ctx)
{
	struct facts *f = ctx;
	int k = pcost_session_metric_find(f->s, key);
	char *end;
	double d;

	if (k < 0)
		return;
	d = strtod(val, &end);
	if (end != val && !*end && isfinite(d))
		f->v[k] = d;
}

/* Value v of figure k in the figure's unit, setting what it does not know yet; 0 or -1. */
static int into_figure(struct pcost_session *s, size_t k, const struct pcost_metric_value *v,
		       double *out, char *err, size_t len)
{
	struct pcost_session_metric *fm = &s->metrics[k];

	if (!fm->better)
		fm->better = better_sign(v->better);
	if (!fm->unit[0] && v->unit[0]) {
		free(fm->unit);
		fm->unit = xstrdup(v->unit);
	}
	if (pcost_metric_convert(v->value, v->unit, fm->unit, out) == 0)
		return 0;
	snprintf(err, len,
		 "metric '%s': this run printed it in '%s', earlier runs in '%s', "
		 "which do not convert",
		 fm->name, v->unit[0] ? v->unit : "(no unit)",
		 fm->unit[0] ? fm->unit : "(no unit)");
	return -1;
}

/* The set's metrics from the output into v; 0, or -1 with the reason in err. */
static int from_output(struct pcost_session *s, const struct pcost_metric_set *set, const char *out,
		       size_t outlen, double *v, char *err, size_t len)
{
	struct pcost_metric_value *mv = xcalloc(set->n + 1, sizeof(*mv));
	bool *found = xcalloc(set->n + 1, sizeof(*found));
	int rc = pcost_metric_extract_set(set, out ? out : "", out ? outlen : 0, mv, found, err,
					  len);

	for (size_t i = 0; i < set->n && rc == 0; i++) {
		int k = pcost_session_metric_find(s, set->m[i]->name);

		if (found[i] && k >= 0 && into_figure(s, (size_t)k, &mv[i], &v[k], err, len) < 0)
			rc = -1;
	}
	free(mv);
	free(found);
	return rc < 0 ? -1 : 0;
}

void pcost_figures_extract(struct pcost_session *s, const struct pcost_metric_set *set,
			   const char *out, size_t outlen, const char *report,
			   struct pcost_run_sample *smp)
{
	struct facts f = { .s = s };
	char err[512];

	if (!s->nmetrics)
		return;
	smp->metrics = xcalloc(s->nmetrics, sizeof(double));
	for (size_t k = 0; k < s->nmetrics; k++)
		smp->metrics[k] = NAN;
	if (smp->failed)
		return;
	f.v = smp->metrics;
	if (report && *report) {
		uint64_t ev;
		pcost_ns timed;
		char unit[32];

		pcost_report_parse(report, &ev, unit, sizeof(unit), &timed, one_fact, &f);
	}
	if (set && set->n && from_output(s, set, out, outlen, smp->metrics, err, sizeof(err)) < 0) {
		for (size_t k = 0; k < s->nmetrics; k++)
			smp->metrics[k] = NAN;
		pcost_sample_fail(smp, "%s", err);
	}
}

bool pcost_figures_unmatched(const struct pcost_session *s, const struct pcost_metric_set *set,
			     size_t i, char *why, size_t len)
{
	int k = pcost_session_metric_find(s, set->m[i]->name);
	char key[PCOST_METRIC_NAME_MAX + 16];
	const char *reason = NULL;

	if (set->m[i]->optional || k < 0)
		return false;
	snprintf(key, sizeof(key), "metric '%s'", set->m[i]->name);
	for (size_t c = 0; c < s->nconfigs; c++)
		for (size_t j = 0; j < s->configs[c].nsamples; j++) {
			const struct pcost_run_sample *x = &s->configs[c].samples[j];

			if (!x->warmup && !x->failed && x->metrics && !isnan(x->metrics[k]))
				return false;
			if (strstr(x->fail_reason, key))
				reason = x->fail_reason;
		}
	snprintf(why, len, "%s matched in no run%s%s", key, reason ? ": " : "",
		 reason ? reason : "");
	return true;
}
