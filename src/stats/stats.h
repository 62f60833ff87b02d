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
	/* Its robust companion: Hodges-Lehmann with its Wilcoxon interval (NaN bounds below 6) */
	double robust, robust_lo, robust_hi;
	size_t noutliers; /* modified z-score > 3.5 (Iglewicz-Hoaglin) */
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

/*
 * Mean of x and its conf interval: Student t (n - 1 df) with Hall's (1992)
 * skewness correction (pcost_hall_t), so a long-tailed x is not covered on
 * its short side only; plain t when x is symmetric or n < 10.  NaN bounds
 * for n < 2.
 */
void pcost_mean_ci(const double *x, size_t n, double conf, double *m, double *lo, double *hi);

/*
 * Hall (1992), "On the removal of skewness by transformation", JRSS B 54:221:
 * g(T) = T + a T^2 + a^2 T^3 / 3 + b, a = skew / (3 sqrt n), b = skew / (6 sqrt n),
 * takes the skewness out of the studentized mean T = (mean - mu) / se of n
 * values of sample skewness skew.  The interval is the mu with -t <= g(T) <= t,
 * i.e. [mean - c_hi se, mean - c_lo se] with c_hi = g^-1(t) > 0 and
 * c_lo = g^-1(-t) < 0 (a closed form: g is ((1 + a T)^3 - 1) / (3 a) + b),
 * each then taken at least as far out as t (c_hi >= t, c_lo <= -t: the
 * correction lengthens the skewed side's arm and never shortens the other;
 * infer.c says why).  skew 0, NaN, or n below 10 gives c = +-t.
 */
void pcost_hall_t(double skew, size_t n, double t, double *c_lo, double *c_hi);

/*
 * Paired blocks: x[i] (a monitored run) and y[i] (its baseline) ran in the
 * same block i.  ratio = mean(x)/mean(y) - 1 with its interval: on the log
 * scale by the delta method where every x and y is above 0 (never unbounded),
 * else Fieller's; diff = mean(x - y) with the paired t interval; both with
 * Hall's correction for skewness (of x - y for the diff and Fieller's; of
 * x/mean(x) - y/mean(y) on the log scale, held at the cubic's fold).
 * significant: the diff's interval excludes 0.  p is the
 * plain paired t test of diff = 0, which can disagree with significant when x -
 * y is skewed (Hall's transform, a polynomial fitted near the quantiles, would
 * read a difference 50 standard errors out as p = 0.01).  Standard errors
 * (ratio_se by the delta method) and df (n - 1) are for combining estimates.
 * skew, skew_z: pcost_skewness and pcost_skew_z of x - y.  Unknown figures are
 * NaN (n < 2: no interval).
 */
struct pcost_paired {
	size_t n;
	double ratio, ratio_lo, ratio_hi, ratio_se;
	double diff, diff_lo, diff_hi, diff_se;
	double df, p;
	double skew, skew_z;
	bool significant;
};
void pcost_paired(const double *x, const double *y, size_t n, double conf, struct pcost_paired *p);

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
 * the Wilcoxon interval (NaN for the pooled fallback); slope_skewed and
 * fixed_skewed: the mean slope or intercept and its robust companion disagree
 * (pcost_skewed).
 */
struct pcost_fit {
	size_t nblocks;
	double fixed, fixed_lo, fixed_hi;
	double slope, slope_lo, slope_hi;
	double r2;
	double fixed_robust, fixed_robust_lo, fixed_robust_hi;
	double slope_robust, slope_robust_lo, slope_robust_hi;
	bool slope_skewed, fixed_skewed;
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
 * The rank k of the Mann-Whitney interval for samples of m and n values at conf:
 * the interval is [D(k), D(mn + 1 - k)] of the mn sorted differences y_j - x_i
 * (1-based), covering with probability >= conf for two samples of one shape
 * shifted.  k is R's qwilcox((1 - conf)/2, m, n), exact up to 50 values a
 * side, then the normal approximation with continuity correction.  0 when no
 * interval reaches conf (m = n = 3 at 95%).
 */
size_t pcost_ranksum_k(size_t m, size_t n, double conf);

/*
 * Two independent samples, robust: the Hodges-Lehmann shift (the median of the
 * m n differences y_j - x_i) and its distribution-free Mann-Whitney interval,
 * as R's wilcox.test(y, x, conf.int = TRUE) for untied values.  est NaN for
 * an empty sample, above 1,000,000 differences or a non-finite value; NaN bounds
 * when no interval reaches conf.
 */
void pcost_hl_shift(const double *x, size_t m, const double *y, size_t n, double conf, double *est,
		    double *lo, double *hi);

/*
 * Two sessions' runs, robust: *r = exp(shift of log y over log x) - 1 and its
 * interval mapped the same way (pcost_ratio_ci_unpaired's companion).  All NaN
 * when a value is not positive.
 */
void pcost_hl_ratio_unpaired(const double *x, size_t m, const double *y, size_t n, double conf,
			     double *r, double *lo, double *hi);

/*
 * Two sessions' change (mean(y)/mean(x) - 1) and its robust companion disagree:
 * pcost_skewed on the log scale, the log ratio's se from each mean's relative
 * se in quadrature (the delta method); the mean-vs-robust rule only, since two
 * sessions have no per-block differences for the third-moment test.
 */
bool pcost_skewed_unpaired(const double *x, size_t m, const double *y, size_t n, double change,
			   double robust);

/* Sample skewness g1 = m3 / m2^1.5 (moments about the mean, divided by n); 0 when m2 is 0. */
double pcost_skewness(const double *x, size_t n);

/*
 * D'Agostino's (1970) test of skewness: g1 of n normal values mapped to a
 * standard normal Z (as scipy.stats.skewtest).  NaN below 8 values, where the
 * approximation does not hold.
 */
double pcost_skew_z(const double *x, size_t n);

/*
 * The skew warning: a mean and its robust companion disagree, more than 0.9
 * se (se: the mean's standard error) apart, on the scale both are estimated
 * on (log for ratios); or the values the mean was taken of are skewed beyond
 * what normal noise gives in 2% of samples (|skew_z| > 2.326, skew_z from
 * pcost_skew_z; NaN: not asked).  Why 0.9 and 2%: robust.c.
 */
bool pcost_skewed(double mean, double robust, double se, double skew_z);

/*
 * Invert the p x p row-major matrix a in place (linsolve.c).  -EDOM, a left
 * unspecified, when it is singular to working precision.
 */
int pcost_matrix_inverse(double *a, size_t p);

#endif
