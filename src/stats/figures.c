// SPDX-License-Identifier: MIT
/* figures: --metric values, workload facts and a service's CPU, analysed as elapsed time is. */
#include "stats/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/compare.h"
#include "stats/rerun.h"

/* One figure (a pairing key of pcost_pair_blocks) of configuration i. */
static void one(const struct pcost_session *s, const struct pcost_config_stats *st, size_t i,
		enum pcost_sample_metric what, struct pcost_figure_stats *f)
{
	const struct pcost_config *c = &s->configs[i];
	double *x, *y;
	uint32_t *blocks, *first;
	struct pcost_paired p;
	size_t n, k, used;

	f->mean = f->mean_lo = f->mean_hi = NAN;
	f->change = f->change_lo = f->change_hi = f->p = NAN;
	f->change_robust = f->change_robust_lo = f->change_robust_hi = NAN;
	f->change_rerun_lo = f->change_rerun_hi = NAN;
	/* A configuration paired with itself: its values, the measured runs that have one. */
	n = pcost_pair_blocks(c, c, what, &x, &y, NULL);
	f->n = n;
	pcost_mean_ci(x, n, PCOST_CONF, &f->mean, &f->mean_lo, &f->mean_hi);
	pcost_hodges_lehmann(x, n, PCOST_CONF, &f->mean_robust, &f->mean_robust_lo,
			     &f->mean_robust_hi);
	free(x);
	free(y);
	f->baseline = st[i].baseline < 0;
	if (f->baseline)
		return;
	n = pcost_pair_blocks(c, &s->configs[st[i].baseline], what, &x, &y, &blocks);
	pcost_paired(x, y, n, PCOST_CONF, &p);
	f->npairs = n;
	f->change = p.ratio;
	f->change_lo = p.ratio_lo;
	f->change_hi = p.ratio_hi;
	f->p = p.p;
	f->significant = p.significant;
	pcost_hl_ratio(x, y, n, PCOST_CONF, &f->change_robust, &f->change_robust_lo,
		       &f->change_robust_hi);
	/* As the overhead's: on the log scale, the se carried there by the delta method. */
	f->change_skewed = pcost_skewed(log1p(p.ratio), log1p(f->change_robust),
					p.ratio_se / (1 + p.ratio), p.skew_z);
	k = pcost_rerun_subsessions(s, &first);
	pcost_rerun_ci(first, k, x, y, blocks, n, true, f->change, PCOST_CONF, &f->change_rerun_lo,
		       &f->change_rerun_hi, NULL, &used);
	pcost_rerun_floor(f->change, f->change_lo, f->change_hi, true, &f->change_rerun_lo,
			  &f->change_rerun_hi);
	free(first);
	free(blocks);
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
			one(s, st, i, (enum pcost_sample_metric)(PCOST_METRIC_FIGURE + k),
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

void pcost_compare_figures(const struct pcost_session *a, const struct pcost_session *b,
			   const struct pcost_compare *c, struct pcost_figure_compare **out,
			   size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pcost_compare_row *r = &c->rows[i];

		for (size_t k = 0; r->ia >= 0 && r->ib >= 0 && k < a->nmetrics; k++) {
			int kb = pcost_session_metric_find(b, a->metrics[k].name);
			struct pcost_figure_compare *f;
			double *va, *vb, s2, df;
			size_t used, na, nb;

			if (kb < 0)
				continue;
			na = pcost_figure_values(&a->configs[r->ia], k, &va);
			nb = pcost_figure_values(&b->configs[r->ib], (size_t)kb, &vb);
			/* A figure neither session measured (a preset's test not run) is no row. */
			if (!na && !nb) {
				free(va);
				free(vb);
				continue;
			}
			xgrow((void **)out, &cap, *n + 1, sizeof(**out));
			f = &(*out)[(*n)++];
			memset(f, 0, sizeof(*f));
			f->name = xasprintf("%s / %s", r->name, a->metrics[k].name);
			f->unit = a->metrics[k].unit;
			f->better = a->metrics[k].better;
			f->na = na;
			f->nb = nb;
			f->mean_a = f->na ? pcost_mean(va, f->na) : NAN;
			f->mean_b = f->nb ? pcost_mean(vb, f->nb) : NAN;
			pcost_ratio_ci_unpaired(va, f->na, vb, f->nb, PCOST_CONF, &f->change,
						&f->change_lo, &f->change_hi);
			pcost_hl_ratio_unpaired(va, f->na, vb, f->nb, PCOST_CONF, &f->change_robust,
						&f->change_robust_lo, &f->change_robust_hi);
			f->change_skewed = pcost_skewed_unpaired(va, f->na, vb, f->nb, f->change,
								 f->change_robust);
			f->level_sd = NAN;
			if (pcost_compare_level_of(c, &a->configs[r->ia], a->metrics[k].name, &s2,
						   &df, &used)) {
				f->level_sd = sqrt(s2);
				f->level_sessions = used;
				pcost_change_level_ci(va, f->na, vb, f->nb, s2, df, &f->change_lo,
						      &f->change_hi, NULL, &f->change_robust,
						      &f->change_robust_lo, &f->change_robust_hi);
			}
			free(va);
			free(vb);
		}
	}
}

void pcost_figure_compare_free(struct pcost_figure_compare *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i].name);
	free(f);
}
