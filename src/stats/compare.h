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
};

struct pcost_env_diff {
	char *key, *a, *b; /* a or b NULL: the field exists on one side only */
};

struct pcost_compare {
	size_t nrows;
	struct pcost_compare_row *rows; /* matched first, then only-in-a, then only-in-b */
	size_t ndiffs;
	struct pcost_env_diff *diffs;
};

/*
 * Compare a (before) with b (after).  threshold_pct marks regressions.
 * -EINVAL when the kinds differ.
 */
int pcost_compare_sessions(const struct pcost_session *a, const struct pcost_session *b,
			   double threshold_pct, struct pcost_compare *out);
void pcost_compare_release(struct pcost_compare *c);

/* Differences between two env fingerprint JSON texts (their "fields" objects). */
void pcost_env_diff(const char *a_json, const char *b_json, struct pcost_env_diff **out, size_t *n);

#endif
