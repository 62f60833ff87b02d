// SPDX-License-Identifier: MIT
/*
 * infer: intervals and tests from the paired block design -- the ratio of
 * paired means (delta method on the log scale for positive samples, else Fieller
 * 1954), paired differences (Student t), per-block
 * linear fits averaged over blocks, and Welch-Satterthwaite combinations of
 * independent estimates.  All t-based, the one-sample ones with Hall's
 * skewness correction: bench/coverage.sh checks their coverage.
 */
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* g^-1(v) for g(T) = ((1 + a T)^3 - 1) / (3 a) + b: increasing in v for every a. */
static double hall_inverse(double a, double b, double v)
{
	if (fabs(a) < 1e-12)
		return v - b;
	return (cbrt(1 + 3 * a * (v - b)) - 1) / a;
}

/*
 * Below 10 values the sample skewness of symmetric noise often lies where
 * Hall's cubic folds (1 + 3 a (t - b) < 0: 5.5% of normal samples of 8, 22% of
 * 5, 2.6% of 10), and there it stretches one end of the interval to 2.4 times
 * t's half-width for nothing (bench/skew-interval.py).  From 10 on, the
 * default study's blocks, the correction is applied.
 */
#define HALL_MIN_N 10

/* Hall's a and b; 0 (plain t) for an unknown skewness or fewer than HALL_MIN_N values. */
static void hall_ab(double skew, size_t n, double *a, double *b)
{
	*a = *b = 0;
	if (n >= HALL_MIN_N && isfinite(skew)) {
		*a = skew / (3 * sqrt((double)n));
		*b = skew / (6 * sqrt((double)n));
	}
}

/*
 * Hall's bounds, each at least as far out as t's: the correction lengthens the
 * arm on the skewed side and never shortens the other.  Under symmetric noise
 * with rare outliers (a preempted run: the spin workload's blocks have a
 * heavy tail, bench/results/coverage.md) the sample skewness follows the
 * outlier that pulled the mean, so
 * Hall's short arm was short just where the estimate had moved: at 35 blocks a
 * 3% contamination covered 0.919 with it, 0.965 with t and 0.967 with this
 * hull; a lognormal cost of CoV 1, 0.934 with Hall's, 0.948 with the hull
 * (bench/skew-hull.py).  bench/coverage.sh's symmetric cells lost 1-3.5 points to
 * the short arm.
 */
void pcost_hall_t(double skew, size_t n, double t, double *c_lo, double *c_hi)
{
	double a, b;

	hall_ab(skew, n, &a, &b);
	*c_lo = fmin(hall_inverse(a, b, -t), -t);
	*c_hi = fmax(hall_inverse(a, b, t), t);
}

/*
 * pcost_hall_t with each end held at the cubic's fold: past 1 + 3 a (v - b) = 0
 * the inverse runs off along the cube root (c of 7-9 at 10 blocks once |g1| > ~1.33,
 * one slow run among ten), so the end stops at the fold's T = -1/a, the furthest
 * Hall's expansion still reaches by following the curve.
 */
static void hall_t_capped(double skew, size_t n, double t, double *c_lo, double *c_hi)
{
	double a, b, lo, hi;

	hall_ab(skew, n, &a, &b);
	lo = hall_inverse(a, b, -t);
	hi = hall_inverse(a, b, t);
	if (a > 0 && 1 + 3 * a * (-t - b) < 0)
		lo = -1 / a;
	if (a < 0 && 1 + 3 * a * (t - b) < 0)
		hi = -1 / a;
	*c_lo = fmin(lo, -t);
	*c_hi = fmax(hi, t);
}

void pcost_mean_ci(const double *x, size_t n, double conf, double *m, double *lo, double *hi)
{
	double se, c_lo, c_hi;

	*m = n ? pcost_mean(x, n) : NAN;
	*lo = *hi = NAN;
	if (n < 2)
		return;
	se = pcost_sem(x, n);
	pcost_hall_t(pcost_skewness(x, n), n, pcost_t_quantile(conf, (double)(n - 1)), &c_lo,
		     &c_hi);
	*lo = *m - c_hi * se;
	*hi = *m - c_lo * se;
}

/* Sample covariance (n - 1). */
static double cov(const double *x, const double *y, size_t n)
{
	double mx = pcost_mean(x, n), my = pcost_mean(y, n), s = 0;

	for (size_t i = 0; i < n; i++)
		s += (x[i] - mx) * (y[i] - my);
	return s / (double)(n - 1);
}

/*
 * The roots of (Xb - R Yb)^2 = c^2 (v11 - 2 R v12 + R^2 v22), v the
 * covariance of the means: the R at which mean(x) - R mean(y) is c standard
 * errors from 0.  -1 when they do not bound R (mean(y) not clear of 0).
 */
static int fieller_roots(double xb, double yb, const double v[3], double c, double r[2])
{
	double c2 = c * c, a = yb * yb - c2 * v[2], b = xb * yb - c2 * v[1],
	       k = xb * xb - c2 * v[0];
	double disc = b * b - a * k;

	if (!(a > 0))
		return -1;
	/* Exact ratios give disc = 0 up to rounding. */
	if (disc < 0 && disc > -1e-12 * b * b)
		disc = 0;
	if (disc < 0)
		return -1;
	r[0] = (b - sqrt(disc)) / a;
	r[1] = (b + sqrt(disc)) / a;
	return 0;
}

/*
 * Fieller's interval for R = mean(x)/mean(y) with paired (x_i, y_i): the R
 * for which T(R) = (mean(x) - R mean(y)) / se lies in [c_lo, c_hi] (Hall's
 * bounds; -t and t without skew).  T falls as R grows, so the lower end is
 * the lesser root at c_hi and the upper the greater at -c_lo.  Unbounded
 * (NaN) when mean(y) itself is not clear of 0.
 */
static void fieller(const double *x, const double *y, size_t n, double c_lo, double c_hi,
		    double *lo, double *hi)
{
	double xb = pcost_mean(x, n), yb = pcost_mean(y, n), sx = pcost_sd(x, n);
	double sy = pcost_sd(y, n), r1[2], r2[2];
	double v[3] = { sx * sx / (double)n, cov(x, y, n) / (double)n, sy * sy / (double)n };

	*lo = *hi = NAN;
	if (fieller_roots(xb, yb, v, c_hi, r1) || fieller_roots(xb, yb, v, -c_lo, r2))
		return;
	*lo = r1[0];
	*hi = r2[1];
}

/* Every value above 0: a time, a rate, a size, whose ratio's log is defined. */
static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

/*
 * The interval of R = mean(x)/mean(y) for positive samples, on the log scale by the
 * delta method: log(R) +- c sd(u)/sqrt(n) with u_i = x_i/mean(x) - y_i/mean(y) (mean
 * 0), c Hall's bounds from u's skewness held at the fold.  The estimand is Fieller's
 * and so is the coverage (bench/coverage.sh), but it is never unbounded: Fieller's is
 * whenever mean(y)/se(mean(y)) <= c, which one slow plain run among ten made happen
 * for a cost as clear as +200% (nine plain runs at 1.0 and one at 3.0).  u is kept in d.
 */
static void log_ratio_ci(const double *x, const double *y, size_t n, double conf, double *d,
			 double *lo, double *hi)
{
	double mx = pcost_mean(x, n), my = pcost_mean(y, n), l = log(mx / my), se, c_lo, c_hi;

	for (size_t i = 0; i < n; i++)
		d[i] = x[i] / mx - y[i] / my;
	se = pcost_sd(d, n) / sqrt((double)n);
	hall_t_capped(pcost_skewness(d, n), n, pcost_t_quantile(conf, (double)(n - 1)), &c_lo,
		      &c_hi);
	*lo = exp(l - c_hi * se);
	*hi = exp(l - c_lo * se);
}

void pcost_paired(const double *x, const double *y, size_t n, double conf, struct pcost_paired *p)
{
	double *d, mx, my, sd, c_lo, c_hi;

	memset(p, 0, sizeof(*p));
	p->n = n;
	p->ratio = p->ratio_lo = p->ratio_hi = p->ratio_se = NAN;
	p->diff = p->diff_lo = p->diff_hi = p->diff_se = NAN;
	p->p = p->skew = p->skew_z = NAN;
	p->df = n >= 2 ? (double)(n - 1) : NAN;
	if (n == 0)
		return;
	mx = pcost_mean(x, n);
	my = pcost_mean(y, n);
	p->diff = mx - my;
	if (my != 0)
		p->ratio = mx / my - 1;
	if (n < 2)
		return;
	d = xmalloc(n * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = x[i] - y[i];
	pcost_mean_ci(d, n, conf, &p->diff, &p->diff_lo, &p->diff_hi);
	sd = pcost_sd(d, n);
	p->diff_se = sd / sqrt((double)n);
	p->skew = pcost_skewness(d, n);
	p->skew_z = pcost_skew_z(d, n);
	p->significant = p->diff_lo > 0 || p->diff_hi < 0;
	/* Paired t test of mean(x - y) = 0, plain t (see stats.h). */
	if (p->diff_se > 0)
		p->p = pcost_t_tail(p->diff / p->diff_se, p->df);
	else
		p->p = p->diff == 0 ? 1 : 0;
	if (my != 0) {
		double r = mx / my;

		/* Delta method: se of mean(x)/mean(y) from the residuals x - R y. */
		for (size_t i = 0; i < n; i++)
			d[i] = x[i] - r * y[i];
		p->ratio_se = pcost_sd(d, n) / sqrt((double)n) / fabs(my);
		if (all_positive(x, n) && all_positive(y, n)) {
			log_ratio_ci(x, y, n, conf, d, &p->ratio_lo, &p->ratio_hi);
		} else {
			pcost_hall_t(p->skew, n, pcost_t_quantile(conf, p->df), &c_lo, &c_hi);
			fieller(x, y, n, c_lo, c_hi, &p->ratio_lo, &p->ratio_hi);
		}
		p->ratio_lo -= 1;
		p->ratio_hi -= 1;
	}
	free(d);
}

/* Welch-Satterthwaite df of the sum of two independent estimates' variances. */
static double welch_df(double se_a, double df_a, double se_b, double df_b)
{
	double va = se_a * se_a, vb = se_b * se_b, den = 0;

	if (va > 0)
		den += va * va / df_a;
	if (vb > 0)
		den += vb * vb / df_b;
	return den > 0 ? (va + vb) * (va + vb) / den : NAN;
}

void pcost_welch_ci(double est, double se_a, double df_a, double se_b, double df_b, double conf,
		    double *lo, double *hi)
{
	double se = sqrt(se_a * se_a + se_b * se_b), df = welch_df(se_a, df_a, se_b, df_b);

	*lo = *hi = NAN;
	if (isnan(est) || isnan(se))
		return;
	if (se == 0) {
		*lo = *hi = est;
		return;
	}
	if (isnan(df))
		return;
	*lo = est - pcost_t_quantile(conf, df) * se;
	*hi = est + pcost_t_quantile(conf, df) * se;
}

void pcost_ratio_ci_unpaired(const double *a, size_t na, const double *b, size_t nb, double conf,
			     double *r, double *lo, double *hi)
{
	double ma = na ? pcost_mean(a, na) : NAN, mb = nb ? pcost_mean(b, nb) : NAN, ea, eb;

	*r = ma > 0 ? mb / ma - 1 : NAN;
	*lo = *hi = NAN;
	if (na < 2 || nb < 2 || !(ma > 0) || !(mb > 0))
		return;
	ea = pcost_sem(a, na) / ma;
	eb = pcost_sem(b, nb) / mb;
	pcost_welch_ci(log(mb / ma), ea, (double)(na - 1), eb, (double)(nb - 1), conf, lo, hi);
	*lo = exp(*lo) - 1;
	*hi = exp(*hi) - 1;
}

/* Order of points by block, for grouping. */
struct fit_pt {
	uint32_t block;
	double x, y;
};

static int cmp_pt(const void *a, const void *b)
{
	const struct fit_pt *p = a, *q = b;

	return (p->block > q->block) - (p->block < q->block);
}

/* OLS over every point with its classical t intervals (n - 2 df): the fallback for one block. */
static void pooled_fit(const double *x, const double *y, size_t n, double conf, struct pcost_fit *f)
{
	double a, b, r2, mx, sxx = 0, ssr = 0, s2, t;

	if (pcost_linfit(x, y, n, &a, &b, &r2))
		return;
	f->fixed = a;
	f->slope = b;
	f->r2 = r2;
	if (n < 3)
		return;
	mx = pcost_mean(x, n);
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (a + b * x[i]);

		ssr += e * e;
		sxx += (x[i] - mx) * (x[i] - mx);
	}
	s2 = ssr / (double)(n - 2);
	t = pcost_t_quantile(conf, (double)(n - 2));
	f->slope_lo = b - t * sqrt(s2 / sxx);
	f->slope_hi = b + t * sqrt(s2 / sxx);
	f->fixed_lo = a - t * sqrt(s2 * (1.0 / (double)n + mx * mx / sxx));
	f->fixed_hi = a + t * sqrt(s2 * (1.0 / (double)n + mx * mx / sxx));
}

int pcost_block_fit(const uint32_t *block, const double *x, const double *y, size_t n, double conf,
		    struct pcost_fit *f)
{
	struct fit_pt *pt = xcalloc(n + 1, sizeof(*pt));
	double *bx = xcalloc(n + 1, sizeof(double)), *by = xcalloc(n + 1, sizeof(double));
	double *fa = xcalloc(n + 1, sizeof(double)), *fb = xcalloc(n + 1, sizeof(double));
	double r2;
	size_t nb = 0;
	int rc;

	memset(f, 0, sizeof(*f));
	f->fixed = f->fixed_lo = f->fixed_hi = NAN;
	f->slope = f->slope_lo = f->slope_hi = f->r2 = NAN;
	f->fixed_robust = f->fixed_robust_lo = f->fixed_robust_hi = NAN;
	f->slope_robust = f->slope_robust_lo = f->slope_robust_hi = NAN;
	for (size_t i = 0; i < n; i++)
		pt[i] = (struct fit_pt){ block[i], x[i], y[i] };
	qsort(pt, n, sizeof(*pt), cmp_pt);
	/* One fit per block that has two sizes or more. */
	for (size_t i = 0, j; i < n; i = j) {
		size_t k = 0;

		for (j = i; j < n && pt[j].block == pt[i].block; j++, k++) {
			bx[k] = pt[j].x;
			by[k] = pt[j].y;
		}
		if (pcost_linfit(bx, by, k, &fa[nb], &fb[nb], &r2) == 0)
			nb++;
	}
	f->nblocks = nb;
	rc = pcost_linfit(x, y, n, &f->fixed, &f->slope, &f->r2);
	if (rc == 0 && nb >= 2) {
		/*
		 * Every block ran every size, so the mean of the per-block fits is the
		 * fit of the block means; the spread of the per-block fits is the
		 * uncertainty, with the blocks as independent replicates.
		 */
		pcost_mean_ci(fa, nb, conf, &f->fixed, &f->fixed_lo, &f->fixed_hi);
		pcost_mean_ci(fb, nb, conf, &f->slope, &f->slope_lo, &f->slope_hi);
		pcost_hodges_lehmann(fa, nb, conf, &f->fixed_robust, &f->fixed_robust_lo,
				     &f->fixed_robust_hi);
		pcost_hodges_lehmann(fb, nb, conf, &f->slope_robust, &f->slope_robust_lo,
				     &f->slope_robust_hi);
		f->slope_skewed = pcost_skewed(f->slope, f->slope_robust, pcost_sem(fb, nb),
					       pcost_skew_z(fb, nb));
		f->fixed_skewed = pcost_skewed(f->fixed, f->fixed_robust, pcost_sem(fa, nb),
					       pcost_skew_z(fa, nb));
	} else if (rc == 0) {
		pooled_fit(x, y, n, conf, f);
	}
	free(pt);
	free(bx);
	free(by);
	free(fa);
	free(fb);
	return rc;
}
