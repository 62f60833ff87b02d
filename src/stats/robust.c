// SPDX-License-Identifier: MIT
/*
 * robust: the Hodges-Lehmann estimate and its distribution-free interval from
 * the Wilcoxon signed-rank test (Hollander, Wolfe & Chicken, Nonparametric
 * Statistical Methods, 3rd ed., 2014, sections 3.1-3.3): the companion of
 * every mean-based interval, which a few slow runs cannot carry.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Up to this n the interval comes from the exact null distribution of W+ (as R's wilcox.test). */
#define EXACT_MAX 50

/* z such that P(|Z| > z) = 1 - conf, by bisection on erfc (monotone). */
static double normal_quantile(double conf)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / sqrt(2.0)) > 1 - conf)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The number of subsets of {1..n} with each rank sum w, by adding one rank at
 * a time; below 2^53 for n <= 50, so exact in doubles.  cnt has n(n+1)/2 + 1 slots.
 */
static void signrank_counts(size_t n, double *cnt)
{
	size_t m = n * (n + 1) / 2;

	memset(cnt, 0, (m + 1) * sizeof(*cnt));
	cnt[0] = 1;
	for (size_t r = 1, top = 0; r <= n; r++) {
		top += r;
		for (size_t w = top; w >= r; w--)
			cnt[w] += cnt[w - r];
	}
}

size_t pcost_signrank_k(size_t n, double conf)
{
	double alpha = 1 - conf, m = (double)n * (double)(n + 1) / 2;
	size_t k = 0;

	if (n == 0 || !(conf > 0) || !(conf < 1))
		return 0;
	if (n <= EXACT_MAX) {
		double *cnt = xcalloc((size_t)m + 1, sizeof(*cnt)), cum = 0,
		       need = ldexp(alpha / 2, (int)n);

		/* R's qsignrank(alpha/2, n): the least q with P(W+ <= q) >= alpha/2. */
		signrank_counts(n, cnt);
		while (k <= (size_t)m && (cum += cnt[k]) < need)
			k++;
		free(cnt);
	} else {
		/*
		 * Normal approximation of W+ (Hollander et al. 3.3, the large-sample
		 * interval): mean n(n+1)/4, variance n(n+1)(2n+1)/24, the rank
		 * rounded (the continuity correction); 434 where the exact says 435
		 * at n = 50.
		 */
		double mu = m / 2, sd = sqrt(m * (double)(2 * n + 1) / 12);
		double c = floor(mu - normal_quantile(conf) * sd + 0.5);

		k = c > 0 ? (size_t)c : 0;
	}
	/*
	 * [W(k), W(m + 1 - k)] of the sorted Walsh averages covers with
	 * probability 1 - 2 P(W+ <= k - 1) >= conf; k = 0 would need more than
	 * all of them (R then takes k = 1 below the level asked): no interval.
	 */
	return k;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The pairs the estimates are order statistics of, never stored: the Walsh
 * averages (x_i + x_j) / 2, i <= j, of one sorted sample (y NULL), or the
 * differences y_j - x_i of two.  Each is monotone in both indices, so how many
 * lie at or below a value is counted in O(m + n) by two pointers, and the k-th
 * smallest found by bisection on the value (Monahan's idea, 1984, in its
 * simplest form): O((m + n) log) time and O(m + n) memory, where sorting all
 * of them costs O(mn log) time and O(mn) memory a figure, which a long
 * study's blocks make seconds for one `show`.
 */
struct pairs {
	const double *x, *y; /* ascending */
	size_t m, n;	     /* their lengths; n unused for Walsh averages */
};

/* How many pairs are at or below v; *top the largest of them (-inf: none). */
static double pairs_le(const struct pairs *p, double v, double *top)
{
	double count = 0;

	*top = -INFINITY;
	if (p->y) {
		/* The y_j with y_j - x_i <= v: a prefix of y, longer as x_i grows. */
		for (size_t i = 0, j = 0; i < p->m; i++) {
			while (j < p->n && p->y[j] - p->x[i] <= v)
				j++;
			count += (double)j;
			if (j)
				*top = fmax(*top, p->y[j - 1] - p->x[i]);
		}
		return count;
	}
	/* The j >= i with (x_i + x_j) / 2 <= v: [i, j), j falling as i grows. */
	for (size_t i = 0, j = p->m; i < p->m; i++) {
		while (j > i && (p->x[i] + p->x[j - 1]) / 2 > v)
			j--;
		if (j <= i)
			break;
		count += (double)(j - i);
		*top = fmax(*top, (p->x[i] + p->x[j - 1]) / 2);
	}
	return count;
}

/* The k-th smallest pair (1 <= k <= their number). */
static double pairs_kth(const struct pairs *p, double k)
{
	double lo = p->y ? p->y[0] - p->x[p->m - 1] : p->x[0];
	double hi = p->y ? p->y[p->n - 1] - p->x[0] : p->x[p->m - 1], top;

	if (pairs_le(p, lo, &top) >= k)
		return lo;
	/* Fewer than k at or below lo, k or more at or below hi, until they are adjacent. */
	for (int it = 0; it < 4200; it++) {
		double mid = lo + (hi - lo) / 2;

		if (!(mid > lo && mid < hi))
			break;
		if (pairs_le(p, mid, &top) >= k)
			hi = mid;
		else
			lo = mid;
	}
	pairs_le(p, hi, &top);
	return top;
}

/* The median of the pairs, and the k-th from each end (k = 0 or past them: no interval). */
static void pairs_hl(const struct pairs *p, double count, size_t k, double *est, double *lo,
		     double *hi)
{
	double half = floor(count / 2);

	*est = fmod(count, 2) ? pairs_kth(p, half + 1)
			      : (pairs_kth(p, half) + pairs_kth(p, half + 1)) / 2;
	if (k >= 1 && (double)k <= count) {
		*lo = pairs_kth(p, (double)k);
		*hi = pairs_kth(p, count + 1 - (double)k);
	}
}

/* A sorted copy of x; NULL when a value is not finite. */
static double *sorted_finite(const double *x, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i])) {
			free(s);
			return NULL;
		}
		s[i] = x[i];
	}
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

void pcost_hodges_lehmann(const double *x, size_t n, double conf, double *est, double *lo,
			  double *hi)
{
	double *s;

	*est = *lo = *hi = NAN;
	if (n == 0 || !(s = sorted_finite(x, n)))
		return;
	pairs_hl(&(struct pairs){ .x = s, .m = n }, (double)n * (double)(n + 1) / 2,
		 pcost_signrank_k(n, conf), est, lo, hi);
	free(s);
}

void pcost_hl_ratio(const double *x, const double *y, size_t n, double conf, double *r, double *lo,
		    double *hi)
{
	double *d = xmalloc((n ? n : 1) * sizeof(*d));

	*r = *lo = *hi = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !(y[i] > 0)) {
			free(d);
			return;
		}
		d[i] = log(x[i] / y[i]);
	}
	pcost_hodges_lehmann(d, n, conf, r, lo, hi);
	*r = expm1(*r);
	*lo = expm1(*lo);
	*hi = expm1(*hi);
	free(d);
}

void pcost_hl_diff(const double *x, const double *y, size_t n, double conf, double *d, double *lo,
		   double *hi)
{
	double *v = xmalloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = x[i] - y[i];
	pcost_hodges_lehmann(v, n, conf, d, lo, hi);
	free(v);
}

/*
 * The number of ways the Mann-Whitney count U (pairs with y above x) takes
 * each value u = 0..mn for m and n values: the partitions of u into at most
 * m parts of at most n (Hollander et al. 4.1), counted by adding parts of size
 * s = 1..n, any number of each, while tracking how many parts there are.
 * Additions only: no cancellation, and doubles hold C(100, 50) to 16 digits.
 * cnt has mn + 1 slots.
 */
static void ranksum_counts(size_t m, size_t n, double *cnt)
{
	size_t top = m * n;
	/* parts[k * (top + 1) + u]: partitions of u into exactly k parts so far */
	double *parts = xcalloc((m + 1) * (top + 1), sizeof(*parts));

	parts[0] = 1;
	for (size_t s = 1; s <= n; s++)
		for (size_t k = 1; k <= m; k++)
			for (size_t u = s; u <= top; u++)
				parts[k * (top + 1) + u] += parts[(k - 1) * (top + 1) + u - s];
	memset(cnt, 0, (top + 1) * sizeof(*cnt));
	for (size_t k = 0; k <= m; k++)
		for (size_t u = 0; u <= top; u++)
			cnt[u] += parts[k * (top + 1) + u];
	free(parts);
}

size_t pcost_ranksum_k(size_t m, size_t n, double conf)
{
	double alpha = 1 - conf, mn = (double)m * (double)n;
	size_t k = 0;

	if (m == 0 || n == 0 || !(conf > 0) || !(conf < 1))
		return 0;
	if (m <= EXACT_MAX && n <= EXACT_MAX) {
		double *cnt = xcalloc((size_t)mn + 1, sizeof(*cnt)), all = 0, cum = 0;

		ranksum_counts(m, n, cnt);
		for (size_t u = 0; u <= (size_t)mn; u++)
			all += cnt[u];
		/* R's qwilcox(alpha/2, m, n): the least q with P(U <= q) >= alpha/2. */
		while (k <= (size_t)mn && (cum += cnt[k]) / all < alpha / 2)
			k++;
		free(cnt);
	} else {
		/* U: mean mn/2, variance mn(m + n + 1)/12; the rank rounded. */
		double sd = sqrt(mn * (double)(m + n + 1) / 12);
		double c = floor(mn / 2 - normal_quantile(conf) * sd + 0.5);

		k = c > 0 ? (size_t)c : 0;
	}
	/* As pcost_signrank_k's: k = 0 would need more than all the differences. */
	return k;
}

void pcost_hl_shift(const double *x, size_t m, const double *y, size_t n, double conf, double *est,
		    double *lo, double *hi)
{
	double *sx, *sy;

	*est = *lo = *hi = NAN;
	if (m == 0 || n == 0 || !(sx = sorted_finite(x, m)))
		return;
	if ((sy = sorted_finite(y, n)))
		pairs_hl(&(struct pairs){ .x = sx, .y = sy, .m = m, .n = n }, (double)m * (double)n,
			 pcost_ranksum_k(m, n, conf), est, lo, hi);
	free(sx);
	free(sy);
}

/* log of each of n values into a new array; NULL when one is not positive. */
static double *logs_of(const double *v, size_t n)
{
	double *l = xmalloc((n ? n : 1) * sizeof(*l));

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0)) {
			free(l);
			return NULL;
		}
		l[i] = log(v[i]);
	}
	return l;
}

void pcost_hl_ratio_unpaired(const double *x, size_t m, const double *y, size_t n, double conf,
			     double *r, double *lo, double *hi)
{
	double *lx = logs_of(x, m), *ly = logs_of(y, n);

	*r = *lo = *hi = NAN;
	if (lx && ly) {
		pcost_hl_shift(lx, m, ly, n, conf, r, lo, hi);
		*r = expm1(*r);
		*lo = expm1(*lo);
		*hi = expm1(*hi);
	}
	free(lx);
	free(ly);
}

/*
 * 0.9 standard errors of the mean.  Under symmetric noise the mean and the
 * Hodges-Lehmann estimate differ by about 0.2 of one (HL's efficiency is
 * 3/pi), and by at most about 1 when one block of few strays; one block
 * carrying a spike moves the mean by one standard error of its own (the spike
 * makes the standard error too).  bench/skew-rule.py measured the rule firing
 * in 0.1-0.9% of studies of normal noise (2x drifting blocks included) and
 * 0.2-2.7% under t3 tails, 5 to 40 blocks; on a single +100% spike in every
 * study, on 2% hiccups about whenever one happened, and on lognormal costs
 * (CoV 2) in 5% of studies of 5 blocks to 90% of 40.
 */
#define PCOST_SKEW_SE 0.9
/*
 * |Z| of D'Agostino's test beyond its two-sided 2% point.  A long tail that
 * leaves the mean and HL together (lognormal, CoV 1, at 10 blocks: 13-18% of
 * studies told by the 0.9-se rule in bench/coverage.sh) still shows in the
 * third moment: bench/skew-interval.py puts this rule at 2.0% of studies of
 * normal noise and 30% (10 blocks) to 76% (28) of the lognormal ones.
 */
#define PCOST_SKEW_Z 2.326

double pcost_skewness(const double *x, size_t n)
{
	double m, m2 = 0, m3 = 0;

	if (n == 0)
		return NAN;
	m = pcost_mean(x, n);
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - m;

		m2 += d * d;
		m3 += d * d * d;
	}
	m2 /= (double)n;
	m3 /= (double)n;
	return m2 > 0 ? m3 / pow(m2, 1.5) : 0;
}

/* D'Agostino (1970), Biometrika 57:679, the transformation of sqrt(b1) to normal. */
double pcost_skew_z(const double *x, size_t n)
{
	double dn = (double)n, y, b2, w2, delta, alpha;

	if (n < 8)
		return NAN;
	y = pcost_skewness(x, n) * sqrt((dn + 1) * (dn + 3) / (6 * (dn - 2)));
	b2 = 3 * (dn * dn + 27 * dn - 70) * (dn + 1) * (dn + 3) /
	     ((dn - 2) * (dn + 5) * (dn + 7) * (dn + 9));
	w2 = -1 + sqrt(2 * (b2 - 1));
	delta = 1 / sqrt(0.5 * log(w2));
	alpha = sqrt(2 / (w2 - 1));
	return delta * asinh(y / alpha);
}

bool pcost_skewed(double mean, double robust, double se, double skew_z)
{
	if (fabs(skew_z) > PCOST_SKEW_Z)
		return true;
	return isfinite(mean) && isfinite(robust) && se > 0 &&
	       fabs(mean - robust) > PCOST_SKEW_SE * se;
}

bool pcost_skewed_unpaired(const double *x, size_t m, const double *y, size_t n, double change,
			   double robust)
{
	double mx, my;

	if (m < 2 || n < 2)
		return false;
	mx = pcost_mean(x, m);
	my = pcost_mean(y, n);
	return pcost_skewed(log1p(change), log1p(robust),
			    hypot(pcost_sem(x, m) / mx, pcost_sem(y, n) / my), NAN);
}
