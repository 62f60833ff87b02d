// SPDX-License-Identifier: MIT
/* figures: --metric values, workload facts and a service's CPU, analysed as elapsed time is. */
#include "stats/figures.h"

#include <math.h>
#include <stdlib.h>

#include "core/util.h"

/* One figure (a pairing key of pcost_pair_blocks) of configuration i. */
static void one(const struct pcost_session *s, const struct pcost_config_stats *st, size_t i,
		enum pcost_metric what, struct pcost_figure_stats *f)
{
	const struct pcost_config *c = &s->configs[i];
	double *x, *y;
	struct pcost_paired p;
	size_t n;

	f->mean = f->mean_lo = f->mean_hi = NAN;
	f->change = f->change_lo = f->change_hi = f->p = NAN;
	/* A configuration paired with itself: its values, the measured runs that have one. */
	n = pcost_pair_blocks(c, c, what, &x, &y, NULL);
	f->n = n;
	pcost_mean_ci(x, n, PCOST_CONF, &f->mean, &f->mean_lo, &f->mean_hi);
	free(x);
	free(y);
	f->baseline = st[i].baseline < 0;
	if (f->baseline)
		return;
	n = pcost_pair_blocks(c, &s->configs[st[i].baseline], what, &x, &y, NULL);
	pcost_paired(x, y, n, PCOST_CONF, &p);
	f->npairs = n;
	f->change = p.ratio;
	f->change_lo = p.ratio_lo;
	f->change_hi = p.ratio_hi;
	f->p = p.p;
	f->significant = !isnan(p.p) && p.p < 1 - PCOST_CONF;
	free(x);
	free(y);
}

void pcost_analyze_figures(const struct pcost_session *s, const struct pcost_config_stats *st,
			   struct pcost_figure_stats **out)
{
	*out = NULL;
	if (!s->nmetrics)
		return;
	*out = xcalloc(s->nconfigs * s->nmetrics + 1, sizeof(**out));
	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t k = 0; k < s->nmetrics; k++)
			one(s, st, i, (enum pcost_metric)(PCOST_METRIC_FIGURE + k),
			    &(*out)[i * s->nmetrics + k]);
}

void pcost_analyze_service_cpu(const struct pcost_session *s, const struct pcost_config_stats *st,
			       struct pcost_figure_stats **out)
{
	*out = xcalloc(s->nconfigs + 1, sizeof(**out));
	for (size_t i = 0; i < s->nconfigs; i++)
		one(s, st, i, PCOST_METRIC_SERVICE_CPU, &(*out)[i]);
}

bool pcost_figure_measured(const struct pcost_session *s, size_t k)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t j = 0; j < s->configs[i].nsamples; j++) {
			const struct pcost_run_sample *x = &s->configs[i].samples[j];

			if (pcost_sample_measured(x) && x->metrics && !isnan(x->metrics[k]))
				return true;
		}
	return false;
}

bool pcost_service_measured(const struct pcost_session *s)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t j = 0; j < s->configs[i].nsamples; j++)
			if (pcost_sample_measured(&s->configs[i].samples[j]) &&
			    s->configs[i].samples[j].has_service)
				return true;
	return false;
}
