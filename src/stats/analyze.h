/* SPDX-License-Identifier: MIT */
/*
 * analyze: the statistics of a run/probes session, computed from its raw
 * samples only (so live output, `show`, `report`, plots and `compare` agree;
 * renderers print these figures and compute none).
 *
 * Baseline of a configuration: the configuration of the same session with the
 * same workload, workload_args and variant whose monitor is "none" (run) or
 * "dormant" (probes).  Every figure against it comes from the runs paired
 * within blocks (pcost_pair_blocks) and carries a 95% interval from that
 * paired design (stats.h: the log-scale delta method for ratios, paired t for differences, t over
 * per-block fits for --scale).  NaN: not measured (renderers print null,
 * empty or n/a).
 *
 * Robust companions (*_robust, *_robust_lo, *_robust_hi): each mean-based
 * figure again as the Hodges-Lehmann estimate over the same per-block values
 * with its distribution-free Wilcoxon interval (robust.c): of the per-block
 * log-ratios for ratios (overhead, gain), of the per-block differences for
 * times.  A few slow runs carry a mean, not these.  Bounds NaN below 6 blocks
 * (no 95% interval exists there).  *_skewed: the mean and its companion are
 * more than the mean's standard error apart (pcost_skewed).
 */
#ifndef PCOST_ANALYZE_H
#define PCOST_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "stats/outcome.h"
#include "stats/stats.h"

/* Confidence of every interval analyze computes. */
#define PCOST_CONF 0.95

struct pcost_config_stats {
	size_t nok, nfailed, noutliers;
	struct pcost_summary wall;	/* ns, measured (non-warm-up, non-failed) samples */
	struct pcost_summary user, sys; /* ns */
	double cpu_util;		/* (user + sys + the --service's CPU) / wall */
	int baseline;			/* index of the baseline config, -1 when this is one */
	size_t npairs;			/* blocks where this and the baseline both ran */
	double overhead; /* mean(this)/mean(baseline) - 1 over the pairs, a fraction */
	double overhead_lo, overhead_hi; /* 95% interval over paired blocks (log scale) */
	double overhead_se, overhead_df; /* delta-method standard error, n - 1 (to combine) */
	double p_value;			 /* paired t test of the per-block differences */
	bool significant;		 /* p < 0.05 (then the overhead interval excludes 0) */
	double extra_ns, extra_ns_lo, extra_ns_hi;	       /* mean per-block wall difference */
	double extra_cycles, extra_cycles_lo, extra_cycles_hi; /* x TSC Hz; NaN when TSC unknown */
	/*
	 * Where a rerun of the same study would land (stats/rerun.h): the overhead's
	 * and the extra time's, from rerun_subs sub-sessions; NaN (and 0) where the
	 * session was not split into enough of them.
	 */
	double overhead_rerun_lo, overhead_rerun_hi, extra_ns_rerun_lo, extra_ns_rerun_hi;
	size_t rerun_subs;
	double overhead_rerun_se; /* s_B / sqrt(k) of log(1 + overhead), rerun_subs - 1 df */
	/* HL of the per-block log(x/y), as a fraction */
	double overhead_robust, overhead_robust_lo, overhead_robust_hi;
	bool overhead_skewed;
	double extra_ns_robust, extra_ns_robust_lo, extra_ns_robust_hi;
	bool extra_skewed; /* the per-block differences the overhead's numerator averages */
	double extra_cycles_robust, extra_cycles_robust_lo, extra_cycles_robust_hi;
	uint64_t events;	/* events per run (median of reports / --events); 0 unknown */
	int64_t monitor_events; /* what the monitor counted (median), -1 unknown */
	/*
	 * Events made minus events the monitor saw (median over runs), when both
	 * count the same thing: the workload's unit is "syscall" and the monitor
	 * counted syscalls.  has_lost false: not counted.
	 */
	bool has_lost;
	int64_t lost_events;
	/*
	 * Two costs.  per event: the timed-region difference / events where the
	 * workload times itself, else the --scale fit's slope; fixed: the
	 * whole-run extra minus per event x events (timed region), else the fit's
	 * intercept.  NaN with per_event_why set when they cannot be separated.
	 */
	double per_event_ns, per_event_ns_lo, per_event_ns_hi;
	double fixed_ns, fixed_ns_lo, fixed_ns_hi;
	/* "timed region", "scale fit", "model", "extra per service event" (", from the
	 * rate") or NULL */
	const char *per_event_source;
	/*
	 * model: a user's command (no timed region) whose events were counted or
	 * given, with its monitor also run on the null workload in the session:
	 * per event = (extra time - the null run's extra, the monitor's fixed cost)
	 * / events, a Welch interval over the two paired differences.  It is the
	 * per-event figure when there is no fit; with a fit, it is kept beside it
	 * and model_disagrees says their intervals do not overlap.
	 */
	double model_per_event_ns, model_per_event_ns_lo, model_per_event_ns_hi;
	bool model_disagrees;
	/* HL over the per-block values the means above average (fit: per-block coefficients) */
	double per_event_ns_robust, per_event_ns_robust_lo, per_event_ns_robust_hi;
	double fixed_ns_robust, fixed_ns_robust_lo, fixed_ns_robust_hi;
	bool per_event_skewed, fixed_skewed;
	const char *per_event_why; /* why per_event_ns is NaN, NULL otherwise */
	/* --scale: time = fixed + per_event x events over the configurations of one fit group */
	bool has_fit;
	int fit_group;	    /* index of the group's first configuration */
	size_t fit_nblocks; /* blocks fitted on their own (the t intervals' n) */
	double fit_fixed_ns, fit_fixed_ns_lo, fit_fixed_ns_hi;
	double fit_per_event_ns, fit_per_event_ns_lo, fit_per_event_ns_hi;
	double fit_r2;
	double fit_fixed_ns_robust, fit_fixed_ns_robust_lo, fit_fixed_ns_robust_hi;
	double fit_per_event_ns_robust, fit_per_event_ns_robust_lo, fit_per_event_ns_robust_hi;
	bool fit_per_event_skewed, fit_fixed_skewed;
	/* probes: a probe build's dormant run against the no-probe build's, same size */
	int noprobe; /* index of that configuration, -1 when none */
	double dormant_overhead, dormant_overhead_lo, dormant_overhead_hi;
	double dormant_per_hit_ns, dormant_per_hit_ns_lo, dormant_per_hit_ns_hi;
	/* "timed region", or the elapsed time: overhead only, per hit NaN (start-up is no hit) */
	const char *dormant_source;
	double dormant_se; /* of dormant_per_hit_ns */
	double dormant_overhead_robust, dormant_overhead_robust_lo, dormant_overhead_robust_hi;
	double dormant_per_hit_ns_robust, dormant_per_hit_ns_robust_lo;
	double dormant_per_hit_ns_robust_hi;
	bool dormant_skewed;
	/*
	 * The same build at every code layout of the session (layout=... in the
	 * arguments): the mean of their dormant costs per hit with its interval
	 * (random effects: Student t over the L layout means, L - 1 df; one
	 * layout: its own interval) and the spread (least and greatest layout).
	 * Equal in the rows of every layout of the build.
	 */
	size_t dormant_layouts;
	int dormant_build; /* the build's first layout row (-1: no dormant cost) */
	double dormant_all_per_hit_ns, dormant_all_per_hit_ns_lo, dormant_all_per_hit_ns_hi;
	double dormant_spread_min, dormant_spread_max;
	/*
	 * probes --sites: an armed configuration at a site encoding other than
	 * nop against the same configuration at nop (site_ref, -1 when none):
	 * nop's cost per hit over this one's, each the timed-region difference
	 * from its own dormant run, with its ratio interval (pcost_paired) over the blocks where
	 * all four ran.  Above 1: this encoding is cheaper per hit.
	 */
	int site_ref;
	double site_gain, site_gain_lo, site_gain_hi;
	/* exp(HL of the per-block log ratios) */
	double site_gain_robust, site_gain_robust_lo, site_gain_robust_hi;
	bool site_gain_skewed;
	/* a busy machine: other processes' CPU and steal time while this ran (ns per run) */
	double other_cpu_ns, steal_ns; /* means; NaN when not recorded */
	/*
	 * Carry-over (carryover.c): how much longer a run takes right after one of
	 * this configuration's runs than right after a baseline run or first in
	 * the session, as a fraction, from the regression log(wall) = configuration
	 * + block + predecessor over every measured run (carry_after of them ran
	 * right after this one, carry_clean after a baseline or first), with its t
	 * interval and p.  The order within each block is shuffled, so the
	 * predecessor is random.  Positive: this monitor's runs slow the next run;
	 * the baseline pays part of its cost and its overhead is understated.  NaN
	 * when no run followed it or none followed a baseline, the design is
	 * singular, or no time order was recorded (two runs at one position).
	 */
	size_t carry_after, carry_clean;
	double carry_over, carry_over_lo, carry_over_hi, carry_over_p;
	/* carry_over_p < 0.05 / the monitors tested (Bonferroni: 5% false warnings per session) */
	bool carry_over_significant;
	/*
	 * probes: runs (warm-up aside, failed ones too) that said whether the
	 * kernel optimized the site's uprobe, and how many of them it did (0, 0:
	 * unknown).
	 */
	size_t optimized_known, optimized_runs;
	/* How its runs ended (outcome.h), and in one line what happened, in how many runs. */
	enum pcost_outcome outcome;
	char outcome_why[320];
	bool outcome_noted; /* the monitor left a note on a run (outcome_why has it) */
};

/*
 * The optimized verdict of a row: 1 every run that said was optimized, -1 none
 * was, 0 unknown, mixed, or a baseline (nothing armed).
 */
int pcost_optimized_verdict(const struct pcost_config_stats *st);

/* The probe-site encoding of c (its site= or insn= argument) into buf; NULL when none. */
const char *pcost_config_site(const struct pcost_config *c, char *buf, size_t len);

/* Fill the carry-over figures of every monitored configuration (baselines set first). */
void pcost_carryover(const struct pcost_session *s, struct pcost_config_stats *st);

/* Analyze every configuration of s; *out gets s->nconfigs rows (caller frees). */
int pcost_analyze(const struct pcost_session *s, struct pcost_config_stats **out);

/*
 * The two-stage design of adaptive studies (twostage.c): the blocks a study
 * needs, planned once from its pilot's statistics st, for every overhead's
 * longer arm to be within pcost_precision_want(precision, precision_rel, its
 * overhead) (0: not asked) and every
 * build's dormant cost over its layouts below precision_dormant_ns (0: not
 * asked), with a margin for the pilot's noisy sd.  INFINITY when no block count
 * gets there (an unbounded interval; layouts that differ more than that);
 * 0 when nothing is asked.  The caller caps it (--max-runs, --max-time).
 */
/*
 * The longer arm of an interval about its estimate: Hall's correction (infer.c)
 * makes skewed intervals longer on one side, and a precision of +- want holds only
 * when both arms are within it.  NaN when an end is unbounded (twostage.c).
 */
double pcost_longer_arm(double mid, double lo, double hi);

/*
 * The half-width an overhead is asked to reach: the wider of precision (a
 * fraction, percentage points / 100) and precision_rel x |overhead| (0: not
 * asked); 0 when neither is asked or the overhead is not finite.
 */
double pcost_precision_want(double precision, double precision_rel, double overhead);

double pcost_two_stage_blocks(const struct pcost_session *s, const struct pcost_config_stats *st,
			      double precision, double precision_rel, double precision_dormant_ns);

/* What pcost_pair_blocks pairs. */
enum pcost_sample_metric {
	PCOST_METRIC_WALL,	  /* wall_ns */
	PCOST_METRIC_TIMED,	  /* timed_ns (samples without one are left out) */
	PCOST_METRIC_SERVICE_CPU, /* --service: its CPU time during the run (user + sys) */
	/* PCOST_METRIC_FIGURE + k: the session's figure k, sample->metrics[k] (NaN left out) */
	PCOST_METRIC_FIGURE = 16,
};

/*
 * The one pairing of the block design: for each measured (non-warm-up,
 * non-failed) sample of c, the measured sample of b from the same block.
 * *x gets c's values, *y b's, *blocks (may be NULL) the block numbers, all
 * malloc'd (caller frees, even when 0 pairs); returns the number of pairs.
 */
size_t pcost_pair_blocks(const struct pcost_config *c, const struct pcost_config *b,
			 enum pcost_sample_metric m, double **x, double **y, uint32_t **blocks);

/* Whether a sample counts in the statistics: neither warm-up nor failed. */
bool pcost_sample_measured(const struct pcost_run_sample *x);

/* The measured values of figure k of configuration c, into a malloc'd array; how many. */
size_t pcost_figure_values(const struct pcost_config *c, size_t k, double **v);

/*
 * The configurations of s whose outcome (outcome.h) is changed-program: how
 * many, and their monitors (distinct, comma separated, "..." past len) into buf.
 */
size_t pcost_changed_rows(const struct pcost_session *s, const struct pcost_config_stats *st,
			  char *buf, size_t len);

#endif
