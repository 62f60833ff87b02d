// SPDX-License-Identifier: MIT
/* run_warnings: CPU far below elapsed, a slow first block, high CoV, outliers, lost events, failures. */
#include "report/warnings.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Thresholds: judgement calls, stated in README.md (probecost run: Warnings). */
#define LOW_CPU 0.5		/* user+sys below half of elapsed: the runs mostly waited */
#define SLOW_FIRST 1.25		/* first block 25% slower than the median of the rest */
#define HIGH_COV 0.10		/* sd/mean above 10% */
#define MIN_BLOCKS 5		/* fewer paired blocks than this: say the CI is rough */
#define BUSY_OTHER 0.10		/* other processes' CPU time above 10% of a run's wall time */
#define BUSY_STEAL 0.01		/* steal above 1% of a run's wall time */

static void add(struct pcost_run_warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct pcost_run_warnings *w, const char *fmt, ...)
{
	va_list ap;

	if (w->n >= PCOST_RUN_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(w->msg[w->n++], sizeof(w->msg[0]), fmt, ap);
	va_end(ap);
}

/*
 * One line for the whole session: how much CPU time other processes took on
 * the runs' CPUs, as a share of the runs' wall time, from the least to the
 * most busy configuration (JSON has each), when any passes the thresholds;
 * such runs carry the others' interference.
 */
static void busy_warning(const struct pcost_session *s, const struct pcost_config_stats *st,
			 struct pcost_run_warnings *w)
{
	double lo = INFINITY, hi = -INFINITY, steal = 0;
	size_t ilo = 0, ihi = 0, n = 0;

	for (size_t i = 0; i < s->nconfigs; i++) {
		double o = st[i].other_cpu_ns / st[i].wall.mean, t = st[i].steal_ns / st[i].wall.mean;

		if (!st[i].nok || !isfinite(o))
			continue;
		if (o < lo)
			lo = o, ilo = i;
		if (o > hi)
			hi = o, ihi = i;
		steal = fmax(steal, t);
		n += o > BUSY_OTHER || t > BUSY_STEAL;
	}
	if (n)
		add(w, "busy machine: other processes took CPU time equal to %.0f%% (%s on %s) to "
		    "%.0f%% (%s on %s) of the runs' wall time on their CPUs, steal up to %.1f%%: the "
		    "timings carry their interference", 100 * lo, s->configs[ilo].monitor,
		    s->configs[ilo].workload, 100 * hi, s->configs[ihi].monitor,
		    s->configs[ihi].workload, 100 * steal);
}

void pcost_run_warnings(const struct pcost_session *s, const struct pcost_config_stats *st,
			struct pcost_run_warnings *w)
{
	cJSON *o = s->options_json ? cJSON_Parse(s->options_json) : NULL;
	cJSON *cpu = cJSON_GetObjectItemCaseSensitive(o, "cpu"); /* cJSON: NULL when o is */
	bool pinned = cJSON_IsString(cpu) && cpu->valuestring[0];

	cJSON_Delete(o);
	size_t fewest = SIZE_MAX;

	w->n = 0;
	if (!s->complete)
		add(w, "the run was interrupted: these are the blocks measured so far");
	busy_warning(s, st, w);
	for (size_t i = 0; i < s->nconfigs; i++)
		if (st[i].baseline >= 0 && st[i].nok && st[i].nok < fewest)
			fewest = st[i].nok;
	/* bench/coverage.sh checks the intervals' coverage at MIN_BLOCKS blocks, not below. */
	if (fewest < MIN_BLOCKS)
		add(w, "only %zu measured block%s: the intervals are checked for coverage from %d "
		    "blocks (bench/coverage.sh); use --runs %d or more", fewest, fewest == 1 ? "" : "s",
		    MIN_BLOCKS, MIN_BLOCKS);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct pcost_config *c = &s->configs[i];
		const struct pcost_config_stats *x = &st[i];
		const char *m = c->monitor, *wl = c->workload;
		double first = -1, med = x->wall.median;

		if (x->nfailed) {
			const char *why = "";

			for (size_t k = 0; k < c->nsamples; k++)
				if (c->samples[k].failed)
					why = c->samples[k].fail_reason;
			add(w, "%s on %s: %zu run%s failed and %s not averaged in (last: %s)", m, wl,
			    x->nfailed, x->nfailed == 1 ? "" : "s", x->nfailed == 1 ? "was" : "were", why);
		}
		if (!x->nok)
			continue;
		if (x->cpu_util < LOW_CPU)
			add(w, "%s on %s: CPU use was %.0f%% of elapsed: the runs mostly waited "
			    "(sleeping, blocked on I/O or a monitor%s)", m, wl, 100 * x->cpu_util,
			    pinned ? "" : ", or waking tasks on another CPU: try --cpu 0");
		if (x->wall.cov > HIGH_COV)
			add(w, "%s on %s: high variation (CoV %.0f%%): pin with --cpu, quiet the "
			    "machine, or add runs", m, wl, 100 * x->wall.cov);
		if (x->noutliers)
			add(w, "%s on %s: %zu outlier run%s (modified z-score > 3.5), kept in the "
			    "statistics", m, wl, x->noutliers, x->noutliers == 1 ? "" : "s");
		/* The first measured block (after any warm-up) against the rest. */
		for (size_t k = 0, fb = SIZE_MAX; k < c->nsamples; k++)
			if (!c->samples[k].failed && !c->samples[k].warmup && c->samples[k].block < fb) {
				fb = c->samples[k].block;
				first = (double)c->samples[k].wall_ns;
			}
		if (first > 0 && med > 0 && first > SLOW_FIRST * med && x->nok >= 3)
			add(w, "%s on %s: the first measured block was %.0f%% slower than the median "
			    "(cold caches, page cache, CPU frequency)%s", m, wl, 100 * (first / med - 1),
			    c->nsamples && c->samples[0].warmup ? "; try more --warmup" :
								   "; try --warmup 1");
		if (x->has_lost && x->lost_events > 0)
			add(w, "%s on %s: the monitor saw %lld syscalls of the %llu the workload "
			    "made: %lld lost", m, wl, (long long)x->monitor_events,
			    (unsigned long long)x->events, (long long)x->lost_events);
		if (x->baseline >= 0 && !isnan(x->overhead) && x->overhead < -0.02 && x->significant)
			add(w, "%s on %s: the monitored runs were faster than the plain ones "
			    "(%+.1f%%): something else changed between them", m, wl,
			    100 * x->overhead);
	}
}
