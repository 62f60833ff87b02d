/* SPDX-License-Identifier: MIT */
/*
 * figures: the figures of a run session besides its times (the --metric values
 * parsed from a command's output, a built-in workload's own facts such as the
 * server's p99_us) and the CPU time of a --service, analysed exactly as elapsed
 * time is (analyze.h): the mean of the measured runs with its t interval, and
 * under each monitor the change mean(monitor)/mean(none) - 1 over the runs
 * paired by block, with its 95% interval (pcost_paired: log scale).  NaN: not
 * measured.
 */
#ifndef PCOST_FIGURES_H
#define PCOST_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "stats/analyze.h"

struct pcost_figure_stats {
	bool baseline;		       /* a baseline's row: no change */
	size_t n;		       /* measured runs that gave a value */
	double mean, mean_lo, mean_hi; /* Student t interval of the mean over those runs */
	double mean_robust, mean_robust_lo, mean_robust_hi; /* Hodges-Lehmann, Wilcoxon */
	size_t npairs;			     /* blocks where this and its baseline both gave one */
	double change, change_lo, change_hi; /* mean(this)/mean(baseline) - 1, log-scale interval */
	double p;			     /* paired t test of the per-block differences */
	bool significant;		     /* p < 0.05 */
	/*
	 * The change's robust companion, as the overhead's (analyze.h): Hodges-Lehmann
	 * of the per-block log ratios with its Wilcoxon interval (NaN bounds below 6
	 * pairs; all NaN when a value is not positive), and whether it and the mean
	 * disagree (pcost_skewed).
	 */
	double change_robust, change_robust_lo, change_robust_hi;
	bool change_skewed;
	/* Where a rerun of the study would land (stats/rerun.h); NaN: not measured. */
	double change_rerun_lo, change_rerun_hi;
	/* The level between sessions (compare.h), carried by the intervals; NAN: not measured. */
	double level_sd;
	size_t level_sessions;
};

/*
 * Figure k of every configuration: out[i * s->nmetrics + k] (caller frees;
 * NULL when the session has no figures).  st: pcost_analyze's rows (their
 * baselines).
 */
void pcost_analyze_figures(const struct pcost_session *s, const struct pcost_config_stats *st,
			   struct pcost_figure_stats **out);

/* The CPU time of the --service per run (ns) of each configuration: out[i]; caller frees. */
void pcost_analyze_service_cpu(const struct pcost_session *s, const struct pcost_config_stats *st,
			       struct pcost_figure_stats **out);

/* Has figure k a value in some measured run of s? */
bool pcost_figure_measured(const struct pcost_session *s, size_t k);
/* Did any measured run of s record the --service's CPU time? */
bool pcost_service_measured(const struct pcost_session *s);

/*
 * Two stored sessions' figures (compare): for each row of c matched in both, each
 * figure of a that b has under the same name, its means and the change b vs a,
 * mean(b)/mean(a) - 1, with the Welch interval on the log ratio (the sessions
 * share no blocks: pcost_ratio_ci_unpaired), as compare does for the times.
 */
struct pcost_figure_compare {
	char *name;	  /* "<row name> / tps" */
	const char *unit; /* a's */
	int better;	  /* a's: +1 higher, -1 lower, 0 unknown */
	size_t na, nb;
	double mean_a, mean_b, change, change_lo, change_hi;
	/* Its robust companion (pcost_hl_ratio_unpaired) and the skew test. */
	double change_robust, change_robust_lo, change_robust_hi;
	bool change_skewed;
	/* The level between sessions (compare.h), carried by the intervals; NAN: not measured. */
	double level_sd;
	size_t level_sessions;
};
struct pcost_compare;
void pcost_compare_figures(const struct pcost_session *a, const struct pcost_session *b,
			   const struct pcost_compare *c, struct pcost_figure_compare **out,
			   size_t *n);
void pcost_figure_compare_free(struct pcost_figure_compare *f, size_t n);

#endif
