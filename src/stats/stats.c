// SPDX-License-Identifier: MIT
/*
 * stats: descriptive statistics, Student t, Welch's test, least squares and
 * an unbiased PRNG.  The Student t distribution goes through the
 * regularized incomplete beta function, evaluated by its continued fraction
 * (Numerical Recipes in C, 2nd ed., 6.4 "betacf", modified Lentz's method).
 */
#include "stats/stats.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

double pcost_mean(const double *x, size_t n)
{
	/* Welford-style running mean: no overflow, no large-sum rounding. */
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m += (x[i] - m) / (double)(i + 1);
	return m;
}

double pcost_sd(const double *x, size_t n)
{
	double m = 0, m2 = 0;

	if (n < 2)
		return 0;
	/* Welford (1962): one pass, numerically stable. */
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - m;

		m += d / (double)(i + 1);
		m2 += d * (x[i] - m);
	}
	return sqrt(m2 / (double)(n - 1));
}

double pcost_sem(const double *x, size_t n)
{
	return n ? pcost_sd(x, n) / sqrt((double)n) : 0;
}

double pcost_min(const double *x, size_t n)
{
	double m = n ? x[0] : 0;

	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double pcost_max(const double *x, size_t n)
{
	double m = n ? x[0] : 0;

	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	if (n)
		memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

/* R type 7 on already sorted data: h = (n-1) q, interpolate x[floor h], x[floor h + 1]. */
static double quantile_sorted(const double *s, size_t n, double q)
{
	double h, frac;
	size_t lo;

	if (n == 0)
		return 0;
	if (q <= 0)
		return s[0];
	if (q >= 1)
		return s[n - 1];
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	frac = h - (double)lo;
	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + frac * (s[lo + 1] - s[lo]);
}

double pcost_quantile(const double *x, size_t n, double q)
{
	double *s, r;

	if (n == 0)
		return 0;
	s = sorted_copy(x, n);
	r = quantile_sorted(s, n, q);
	free(s);
	return r;
}

double pcost_median(const double *x, size_t n)
{
	return pcost_quantile(x, n, 0.5);
}

double pcost_mad(const double *x, size_t n)
{
	double med, *d, r;

	if (n == 0)
		return 0;
	med = pcost_median(x, n);
	d = xmalloc(n * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	r = pcost_median(d, n);
	free(d);
	return r;
}

/* One term of the modified Lentz recurrence: c and d move on, the factor of h is returned. */
static double lentz_step(double aa, double *c, double *d, double tiny)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction of the incomplete beta (NR 6.4 betacf, modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		h *= lentz_step(aa, &c, &d, tiny);
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		del = lentz_step(aa, &c, &d, tiny);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* Use the fraction where it converges fast (NR: x < (a+1)/(a+b+2)). */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* Two-sided tail P(|T_df| > t) = I_{df/(df+t^2)}(df/2, 1/2). */
double pcost_t_tail(double t, double df)
{
	t = fabs(t);
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double pcost_t_quantile(double conf, double df)
{
	double lo = 0, hi = 1, alpha = 1 - conf;

	if (!(df > 0) || !(conf > 0) || !(conf < 1))
		return NAN;
	/* Bracket then bisect: the tail is monotone in t; 200 halvings reach DBL precision. */
	while (pcost_t_tail(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (pcost_t_tail(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
		if (hi - lo <= 1e-15 * hi)
			break;
	}
	return (lo + hi) / 2;
}

double pcost_ci_halfwidth(const double *x, size_t n, double conf)
{
	if (n < 2)
		return 0;
	return pcost_t_quantile(conf, (double)(n - 1)) * pcost_sem(x, n);
}

/* Iglewicz & Hoaglin (1993), "How to Detect and Handle Outliers": 0.6745 and 3.5. */
#define IH_SCALE 0.6745
#define IH_LIMIT 3.5

size_t pcost_outliers(const double *x, size_t n, bool *flags)
{
	double med, mad;
	size_t k = 0;

	if (flags)
		for (size_t i = 0; i < n; i++)
			flags[i] = false;
	if (n < 3)
		return 0;
	med = pcost_median(x, n);
	mad = pcost_mad(x, n);
	for (size_t i = 0; i < n; i++) {
		bool out;

		if (mad > 0)
			out = fabs(IH_SCALE * (x[i] - med) / mad) > IH_LIMIT;
		else
			out = false; /* MAD 0: over half the values equal; z undefined, flag none. */
		if (flags)
			flags[i] = out;
		k += out;
	}
	return k;
}

void pcost_summarize(const double *x, size_t n, struct pcost_summary *s)
{
	double *sorted;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	sorted = sorted_copy(x, n);
	s->n = n;
	s->mean = pcost_mean(x, n);
	s->sd = pcost_sd(x, n);
	s->sem = n ? s->sd / sqrt((double)n) : 0;
	s->median = quantile_sorted(sorted, n, 0.5);
	s->mad = pcost_mad(x, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->cov = s->mean != 0 ? s->sd / s->mean : 0;
	s->p99 = quantile_sorted(sorted, n, 0.99);
	if (n >= 2) {
		double hw = pcost_t_quantile(0.95, (double)(n - 1)) * s->sem;

		s->ci_lo = s->mean - hw;
		s->ci_hi = s->mean + hw;
	} else {
		s->ci_lo = s->ci_hi = s->mean;
	}
	s->noutliers = pcost_outliers(x, n, NULL);
	pcost_hodges_lehmann(x, n, 0.95, &s->robust, &s->robust_lo, &s->robust_hi);
	free(sorted);
}

double pcost_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	double ma, mb, va, vb, se2, t, df;

	if (na < 2 || nb < 2)
		return NAN;
	ma = pcost_mean(a, na);
	mb = pcost_mean(b, nb);
	va = pcost_sd(a, na);
	vb = pcost_sd(b, nb);
	va = va * va / (double)na;
	vb = vb * vb / (double)nb;
	se2 = va + vb;
	if (se2 == 0)
		return ma == mb ? 1.0 : 0.0;
	t = (ma - mb) / sqrt(se2);
	/* Welch-Satterthwaite degrees of freedom. */
	df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	return pcost_t_tail(t, df);
}

uint64_t pcost_rand_next(uint64_t *state)
{
	/* splitmix64 (Steele, Lea, Flood 2014; constants from Vigna's reference code). */
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t pcost_rand_below(uint64_t *state, size_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = pcost_rand_next(state);
	while (r >= lim);
	return (size_t)(r % n);
}

void pcost_shuffle(size_t *idx, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = pcost_rand_below(state, i), t = idx[i - 1];

		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

int pcost_linfit(const double *x, const double *y, size_t n, double *a, double *b, double *r2)
{
	double mx, my, sxx = 0, sxy = 0, syy = 0, ssr = 0;

	if (n < 2)
		return -EINVAL;
	mx = pcost_mean(x, n);
	my = pcost_mean(y, n);
	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0)
		return -EDOM; /* all x equal: slope undefined */
	*b = sxy / sxx;
	*a = my - *b * mx;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (*a + *b * x[i]);

		ssr += e * e;
	}
	*r2 = syy > 0 ? 1 - ssr / syy : 1;
	return 0;
}
