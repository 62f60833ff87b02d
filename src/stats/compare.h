/* SPDX-License-Identifier: MIT */
/*
 * compare: two stored sessions side by side.  Configurations match on
 * (workload, workload_args, monitor, variant); counter series on (interface,
 * op, events).  For each match: both means, the change with a Welch interval and
 * Welch's test, the overheads (analyze.h) and their change in points,
 * (probes) whether the kernel optimized the row's uprobe on each side, and how
 * each side's runs ended (outcome.h): a row whose outcome changed is flagged.
 */
#ifndef PCOST_COMPARE_H
#define PCOST_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "stats/outcome.h"

struct pcost_compare_row {
	char *name;    /* "pipe loops=1000 / strace" */
	int ia, ib;    /* index in a and b (configs or series); -1: only on the other side */
	size_t na, nb; /* measured samples */
	double mean_a, mean_b; /* ns: wall per run (configs) or per operation (series) */
	double change;	       /* mean_b / mean_a - 1 */
	double change_lo,
		change_hi; /* 95% Welch interval on the log ratio (the sessions share no blocks) */
	double p;	   /* Welch, two-sided */
	/* The change's robust companion (pcost_hl_ratio_unpaired) and the skew test. */
	double change_robust, change_robust_lo, change_robust_hi;
	bool change_skewed;
	bool significant;    /* p < 0.05 and the CI excludes 0 */
	bool has_overhead;   /* a monitored configuration with a baseline on both sides */
	double ovh_a, ovh_b; /* overhead fractions (analyze.h) */
	double ovh_a_lo, ovh_a_hi, ovh_b_lo, ovh_b_hi;
	double delta_pts; /* (ovh_b - ovh_a) x 100; for series and baselines: change x 100 */
	double delta_lo, delta_hi; /* 95% interval of delta_pts (overheads: each session's paired
				    * standard error, Welch-Satterthwaite df; else the change CI) */
	bool delta_significant;	   /* that CI excludes 0 */
	bool gated;	 /* counts for --fail-above (overheads and counter costs, not baselines) */
	bool regression; /* delta_pts > threshold and delta_lo > 0 (and p < 0.05 for means) */
	int optimized_a,
		optimized_b; /* probes: pcost_optimized_verdict() of each side (0 unknown) */
	/* How each side's runs ended (outcome.h), and B's one line; unknown where not analyzed. */
	enum pcost_outcome outcome_a, outcome_b;
	char *outcome_why_b;
	/*
	 * The level between sessions (pcost_compare_level): the sd of a session's log
	 * mean wall time over stored sessions of this configuration under the same
	 * conditions, less what their runs' noise explains; NAN where not measured
	 * (fewer than 2 degrees of freedom).  level_sessions: the sessions it pooled.
	 */
	double level_sd, level_df;
	size_t level_sessions;
	/*
	 * The overhead's own level between sessions, in points (the same sessions and
	 * groups; each session's paired overhead and its standard error), carried by the
	 * overhead change's interval and regression; NAN where not measured.
	 */
	double ovh_level_pts;
};

struct pcost_env_diff {
	char *key, *a, *b; /* a or b NULL: the field exists on one side only */
};

struct pcost_compare {
	size_t nrows;
	struct pcost_compare_row *rows; /* matched first, then only-in-a, then only-in-b */
	size_t ndiffs;
	struct pcost_env_diff *diffs;
	/*
	 * Set by pcost_compare_level: the sessions the level is measured over (a, b,
	 * then the peers; borrowed: valid while the caller keeps them) and each one's
	 * group of conditions (the index of its group's first session).
	 */
	size_t nlevel;
	const struct pcost_session **level_sessions;
	size_t *level_group;
};

/*
 * Compare a (before) with b (after).  threshold_pct marks regressions.
 * -EINVAL when the kinds differ.
 */
int pcost_compare_sessions(const struct pcost_session *a, const struct pcost_session *b,
			   double threshold_pct, struct pcost_compare *out);
void pcost_compare_release(struct pcost_compare *c);

/*
 * The level between sessions.  A shared machine's speed wanders over seconds and
 * minutes by more than one session's runs can show (docs/statistics.md: the
 * sessions of one study on a KVM guest lay several of their standard errors
 * apart), so the Welch interval of a mean change between two
 * sessions is too narrow.  This measures that level from the stored sessions of each
 * matched configuration (a, b and peers: same workload, arguments, monitor, variant,
 * placement, threads), grouped by conditions (no env fingerprint difference, the same
 * --cpu and --washout): the pooled within-group variance of their log mean wall
 * times, less the mean of their squared standard errors (a one-way random-effects
 * estimate; A and B count, so a real change between them only widens it).  Where
 * that has 2 or more degrees of freedom, the row's change interval, p, significance
 * and a baseline's regression are taken again with 2 x that variance added to the
 * runs' (Welch-Satterthwaite df), and the robust interval's arms are widened by it.
 * Run and probes sessions; peers equal to a or b (by id) are skipped.  The figures'
 * changes (figures.h pcost_compare_figures) take it the same way, from the same
 * sessions, and so does each monitored row's overhead change, from each session's
 * overhead (the monitor's cost moves between sessions too: 20 strace sessions' overhead
 * changes excluded 0 in 23% of pairs, bench/compare-level.sh).
 */
void pcost_compare_level(struct pcost_compare *c, const struct pcost_session *a,
			 const struct pcost_session *b, const struct pcost_session *peers,
			 size_t npeers, double threshold_pct);
/*
 * The level between sessions of each of s's configurations, with no comparison
 * (run and show print it beside the runs' own "+-"): out[i] for s->configs[i], over
 * s and the peers as pcost_compare_level pools them (NAN and 0 sessions: under 2 df,
 * or fewer than 2 peers with the configuration under s's own conditions); each
 * figure's too (figure_sd, malloc'd where s has figures: the caller frees it).
 */
void pcost_session_level(const struct pcost_session *s, const struct pcost_session *peers,
			 size_t npeers, struct pcost_config_level *out);
/*
 * The level's variance (log scale) of configuration x's wall times (figure NULL) or
 * of its figure of that name, over c's sessions (after pcost_compare_level): *df and
 * *used as above; false (and *s2 NAN) under 2 df.
 */
bool pcost_compare_level_of(const struct pcost_compare *c, const struct pcost_config *x,
			    const char *figure, double *s2, double *df, size_t *used);
/*
 * The change mean(b)/mean(a) - 1's 95% interval with the level's variance s2 (df_l)
 * added twice to the log ratio's; *p (when p is not NULL) its two-sided p; the
 * robust interval around *robust widened by the level (its arms and t x sqrt(2 s2)
 * in quadrature).  Nothing is written under 2 values a side.
 */
void pcost_change_level_ci(const double *a, size_t na, const double *b, size_t nb, double s2,
			   double df_l, double *lo, double *hi, double *p, double *robust,
			   double *robust_lo, double *robust_hi);

/* Differences between two env fingerprint JSON texts (their "fields" objects). */
void pcost_env_diff(const char *a_json, const char *b_json, struct pcost_env_diff **out, size_t *n);

#endif
