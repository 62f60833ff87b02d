/* SPDX-License-Identifier: MIT */
/*
 * src/stats/: numbers from raw samples, no I/O: descriptive statistics, tests
 * and fits (stats), the overheads of a session with their intervals (analyze)
 * and two stored sessions side by side with the environment diff (compare).
 *
 * stats: descriptive statistics, confidence intervals, tests and fits on
 * arrays of doubles.  Names are exact: sd is the sample standard deviation
 * (n-1), sem the standard error of the mean (sd / sqrt(n)).
 */
#ifndef PCOST_STATS_H
#define PCOST_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pcost_summary {
	size_t n;
	double mean, sd, sem, median, mad, min, max;
	double cov;	     /* sd / mean, 0 when mean == 0 */
	double p99;	     /* 99th percentile (linear interpolation, type 7) */
	double ci_lo, ci_hi; /* 95% CI of the mean, Student t with n-1 df */
	size_t noutliers;    /* modified z-score > 3.5 (Iglewicz-Hoaglin) */
};

double pcost_mean(const double *x, size_t n);
double pcost_sd(const double *x, size_t n); /* sample sd, n-1; 0 for n < 2 */
double pcost_sem(const double *x, size_t n);
double pcost_min(const double *x, size_t n);
double pcost_max(const double *x, size_t n);
/* Quantile q in [0,1], linear interpolation between order statistics (R type 7). */
double pcost_quantile(const double *x, size_t n, double q);
double pcost_median(const double *x, size_t n);
/* Median absolute deviation from the median (raw, not scaled by 1.4826). */
double pcost_mad(const double *x, size_t n);

/* Fill every field of *s from x[0..n). n == 0 gives all zeros. */
void pcost_summarize(const double *x, size_t n, struct pcost_summary *s);

/* Two-sided Student t quantile: t such that P(|T_df| <= t) = conf. */
double pcost_t_quantile(double conf, double df);
/* Two-sided tail P(|T_df| > t). */
double pcost_t_tail(double t, double df);
/* Half width of the conf CI of the mean of x. */
double pcost_ci_halfwidth(const double *x, size_t n, double conf);

/*
 * Modified z-score of each x (0.6745 (x - median) / MAD, Iglewicz & Hoaglin
 * 1993); flags[i] = |z| > 3.5.  Returns the number flagged.  flags may be NULL.
 */
size_t pcost_outliers(const double *x, size_t n, bool *flags);

/* Welch's unequal-variance t-test: two-sided p-value that mean(a) == mean(b). */
double pcost_welch_p(const double *a, size_t na, const double *b, size_t nb);

/* Ordinary least squares y = a + b x; r2 is the coefficient of determination. */
int pcost_linfit(const double *x, const double *y, size_t n, double *a, double *b, double *r2);

/* Small deterministic PRNG (splitmix64), for shuffles. */
uint64_t pcost_rand_next(uint64_t *state);
/*
 * Uniform in [0, n) without modulo bias: draws at or above the largest
 * multiple of n below 2^64 are rejected and drawn again.  n > 0.
 */
size_t pcost_rand_below(uint64_t *state, size_t n);
/* Fisher-Yates shuffle of idx[0..n). */
void pcost_shuffle(size_t *idx, size_t n, uint64_t *state);

/* ---- inference from the paired block design (infer.c) ---- */

/* Mean of x and its conf interval (Student t, n - 1 df); NaN bounds for n < 2. */
void pcost_mean_ci(const double *x, size_t n, double conf, double *m, double *lo, double *hi);

/*
 * Paired blocks: x[i] (a monitored run) and y[i] (its baseline) ran in the
 * same block i.  ratio = mean(x)/mean(y) - 1 with Fieller's interval; diff =
 * mean(x - y) with the paired t interval; p is the paired t test of diff = 0
 * (so p < 1 - conf exactly when both intervals exclude 0).  Standard errors
 * (ratio_se by the delta method) and df (n - 1) are for combining estimates.
 * Unknown figures are NaN (n < 2: no interval).
 */
struct pcost_paired {
	size_t n;
	double ratio, ratio_lo, ratio_hi, ratio_se;
	double diff, diff_lo, diff_hi, diff_se;
	double df, p;
};
void pcost_paired(const double *x, const double *y, size_t n, double conf, struct pcost_paired *p);

/* Welch-Satterthwaite df of the sum of two independent estimates' variances. */
double pcost_welch_df(double se_a, double df_a, double se_b, double df_b);
/* est +- t(df_ws) sqrt(se_a^2 + se_b^2): an interval for a difference of independent estimates. */
void pcost_welch_ci(double est, double se_a, double df_a, double se_b, double df_b, double conf,
		    double *lo, double *hi);

/*
 * Two independent samples (two sessions): *r = mean(b)/mean(a) - 1 and its
 * interval, Welch t on the log of the ratio (delta-method standard errors,
 * Welch-Satterthwaite df).  NaN bounds when either side has fewer than 2.
 */
void pcost_ratio_ci_unpaired(const double *a, size_t na, const double *b, size_t nb, double conf,
			     double *r, double *lo, double *hi);

/*
 * y = fixed + slope x, from points tagged with their block.  Each block with
 * two sizes or more is fitted on its own; the estimates are the means of the
 * per-block coefficients and their intervals Student t over those blocks
 * (blocks are the independent replicates of the design).  With fewer than two
 * such blocks: pooled OLS with its classical t intervals (n - 2 df), NaN
 * bounds below 3 points.  r2: of the pooled fit.  -EINVAL / -EDOM as linfit.
 * The robust companions: Hodges-Lehmann over the per-block coefficients with
 * the Wilcoxon interval (NaN for the pooled fallback); slope_skewed: the mean
 * slope and its robust companion disagree (pcost_skewed).
 */
struct pcost_fit {
	size_t nblocks;
	double fixed, fixed_lo, fixed_hi;
	double slope, slope_lo, slope_hi;
	double r2;
	double fixed_robust, fixed_robust_lo, fixed_robust_hi;
	double slope_robust, slope_robust_lo, slope_robust_hi;
	bool slope_skewed;
};
int pcost_block_fit(const uint32_t *block, const double *x, const double *y, size_t n, double conf,
		    struct pcost_fit *f);

/* ---- robust companions (robust.c) ---- */

/*
 * The rank k of the Wilcoxon signed-rank interval for n values at conf: the
 * interval is [W(k), W(M + 1 - k)] of the M = n(n+1)/2 sorted Walsh averages
 * (1-based), covering with probability >= conf when the values are
 * symmetric about their centre.  k is R's qsignrank((1 - conf)/2, n), exact
 * up to n = 50, then the normal approximation with continuity correction.
 * 0 when no interval reaches conf (n < 6 at 95%).
 */
size_t pcost_signrank_k(size_t n, double conf);

/*
 * Hodges-Lehmann estimate of the centre of x (the median of the Walsh averages
 * (x_i + x_j)/2, i <= j) and its distribution-free Wilcoxon interval, as R's
 * wilcox.test(x, conf.int = TRUE) for untied x.  est NaN for n = 0, n above
 * 2000 (the Walsh averages are all sorted) or a non-finite x; NaN bounds when
 * no interval reaches conf (n < 6 at 95%).
 */
void pcost_hodges_lehmann(const double *x, size_t n, double conf, double *est, double *lo,
			  double *hi);

/*
 * Paired ratio, robust: *r = exp(HL(log(x_i / y_i))) - 1 and its Wilcoxon
 * interval mapped the same way (the log makes a multiplicative cost additive).
 * All NaN when some x_i or y_i is not positive.
 */
void pcost_hl_ratio(const double *x, const double *y, size_t n, double conf, double *r, double *lo,
		    double *hi);

/* Paired differences, robust: HL of x_i - y_i with its Wilcoxon interval. */
void pcost_hl_diff(const double *x, const double *y, size_t n, double conf, double *d, double *lo,
		   double *hi);

/*
 * A mean and its robust companion disagree: they are more than 0.9 se (se: the
 * mean's standard error) apart, on the scale both are estimated on (log for
 * ratios).  Why 0.9: robust.c.
 * False when either is unknown or se is not positive.
 */
bool pcost_skewed(double mean, double robust, double se);

/*
 * Invert the p x p row-major matrix a in place (linsolve.c).  -EDOM, a left
 * unspecified, when it is singular to working precision.
 */
int pcost_matrix_inverse(double *a, size_t p);

#endif
