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
	double cov;		/* sd / mean, 0 when mean == 0 */
	double p99;		/* 99th percentile (linear interpolation, type 7) */
	double ci_lo, ci_hi;	/* 95% CI of the mean, Student t with n-1 df */
	size_t noutliers;	/* modified z-score > 3.5 (Iglewicz-Hoaglin) */
};

double pcost_mean(const double *x, size_t n);
double pcost_sd(const double *x, size_t n);		/* sample sd, n-1; 0 for n < 2 */
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
/* Half width of the conf CI of the mean of x. */
double pcost_ci_halfwidth(const double *x, size_t n, double conf);

/*
 * Modified z-score of each x (0.6745 (x - median) / MAD, Iglewicz & Hoaglin
 * 1993); flags[i] = |z| > 3.5.  Returns the number flagged.  flags may be NULL.
 */
size_t pcost_outliers(const double *x, size_t n, bool *flags);

/* Welch's unequal-variance t-test: two-sided p-value that mean(a) == mean(b). */
double pcost_welch_p(const double *a, size_t na, const double *b, size_t nb);

/*
 * Percentile bootstrap CI (conf, e.g. 0.95) of mean(num)/mean(den) - 1 over
 * paired blocks: each resample draws n block indices with replacement.
 * Deterministic for a given seed.  resamples >= 2000 recommended.
 */
void pcost_bootstrap_ratio_ci(const double *num, const double *den, size_t n,
			      unsigned resamples, uint64_t seed, double conf,
			      double *lo, double *hi);

/* Ordinary least squares y = a + b x; r2 is the coefficient of determination. */
int pcost_linfit(const double *x, const double *y, size_t n, double *a, double *b, double *r2);

/* Small deterministic PRNG (splitmix64), for shuffles and bootstraps. */
uint64_t pcost_rand_next(uint64_t *state);
/* Fisher-Yates shuffle of idx[0..n). */
void pcost_shuffle(size_t *idx, size_t n, uint64_t *state);

#endif
