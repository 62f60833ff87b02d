// SPDX-License-Identifier: MIT
/*
 * test_stats: stats.c on fixed data.  Reference values were computed apart
 * from this code with Python 3.11's `statistics` module and mpmath 1.3 (t
 * tails by numerical quadrature of the Student t density, quantiles by
 * findroot); the script is in the comment of each test.  The t quantiles
 * also match the printed tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/stats.h"

#define ARRLEN(a) (sizeof(a) / sizeof((a)[0]))

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.15g, want %.15g (tol %g)", got, want, tol);
}

/* x = 2 4 4 4 5 5 7 9: statistics.mean/stdev/median; MAD by hand = 0.5. */
static const double X8[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

static void test_descriptive(void **state)
{
	struct pcost_summary s;

	(void)state;
	near(pcost_mean(X8, 8), 5.0, 1e-12);
	near(pcost_sd(X8, 8), 2.138089935299395, 1e-12);
	near(pcost_sem(X8, 8), 2.138089935299395 / sqrt(8), 1e-12);
	near(pcost_median(X8, 8), 4.5, 1e-12);
	near(pcost_mad(X8, 8), 0.5, 1e-12);
	near(pcost_min(X8, 8), 2, 0);
	near(pcost_max(X8, 8), 9, 0);
	/* Type 7 (R default): h = 7 q. */
	near(pcost_quantile(X8, 8, 0.99), 8.86, 1e-12);
	near(pcost_quantile(X8, 8, 0.25), 4.0, 1e-12);
	near(pcost_sd(X8, 1), 0, 0);

	pcost_summarize(X8, 8, &s);
	assert_int_equal(s.n, 8);
	near(s.mean, 5.0, 1e-12);
	near(s.cov, 2.138089935299395 / 5.0, 1e-12);
	near(s.p99, 8.86, 1e-12);
	/* mean -+ qt(0.975, 7) * sem, qt from mpmath quadrature. */
	near(s.ci_lo, 3.2125120817637893, 1e-9);
	near(s.ci_hi, 6.787487918236211, 1e-9);
	/* MAD 0.5, z(9) = 0.6745*4.5/0.5 = 6.07 > 3.5, z(2) = -3.37: one outlier. */
	assert_int_equal(s.noutliers, 1);
	/*
	 * The robust companion: the 36 Walsh averages of X8, sorted, have 4.5 in the
	 * middle (the 18th and 19th), and with k = 4 (qsignrank(0.025, 8)) the interval
	 * is [W(4), W(33)] = [3, 7]: `ws <- sort((outer(x,x,"+")/2)[!lower.tri(diag(8))])`.
	 */
	near(s.robust, 4.5, 0);
	near(s.robust_lo, 3, 0);
	near(s.robust_hi, 7, 0);

	pcost_summarize(X8, 0, &s);
	assert_int_equal(s.n, 0);
	near(s.mean, 0, 0);
}

/* qt(0.975, df): 12.7062047361747, 4.30265272974946, ... (mpmath, as above). */
static void test_t_quantile(void **state)
{
	static const struct {
		double df, q;
	} ref[] = {
		{ 1, 12.7062047361747 },  { 2, 4.30265272974946 },  { 4, 2.77644510519779 },
		{ 10, 2.22813885198627 }, { 30, 2.04227245630124 }, { 1000, 1.96233908082641 },
	};

	(void)state;
	for (size_t i = 0; i < ARRLEN(ref); i++)
		near(pcost_t_quantile(0.95, ref[i].df), ref[i].q, 1e-9 * ref[i].q);
	near(pcost_ci_halfwidth(X8, 8, 0.95), 6.787487918236211 - 5.0, 1e-9);
	assert_true(isnan(pcost_t_quantile(0.95, 0)));
}

/*
 * Welch: a, b below; statistics.variance for the variances; t = -2.2255120399698,
 * Welch-Satterthwaite df = 24.5246349442573; p = 2 * integral of the t
 * density from |t| to inf = 0.0354845308300103 (mpmath.quad).
 */
static void test_welch(void **state)
{
	static const double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
	static const double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
				    23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };

	(void)state;
	near(pcost_welch_p(a, ARRLEN(a), b, ARRLEN(b)), 0.0354845308300103, 1e-10);
	near(pcost_welch_p(b, ARRLEN(b), a, ARRLEN(a)), 0.0354845308300103, 1e-10);
	near(pcost_welch_p(a, ARRLEN(a), a, ARRLEN(a)), 1.0, 1e-12);
	assert_true(isnan(pcost_welch_p(a, 1, b, 3)));
}

/* y = 2.1 3.9 6.2 7.8 10.1 on x = 1..5: statistics.linear_regression and correlation^2. */
static void test_linfit(void **state)
{
	static const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2.1, 3.9, 6.2, 7.8, 10.1 };
	static const double same[] = { 3, 3, 3 };
	double a, b, r2;

	(void)state;
	assert_int_equal(pcost_linfit(x, y, 5, &a, &b, &r2), 0);
	near(a, 0.05, 1e-12);
	near(b, 1.99, 1e-12);
	near(r2, 0.9973053289009772, 1e-12);
	assert_true(pcost_linfit(same, y, 3, &a, &b, &r2) < 0);
	assert_true(pcost_linfit(x, y, 1, &a, &b, &r2) < 0);
}

/* Modified z of 30 among values near 10 is 134.7 (by hand: 0.6745 * 19.975 / 0.1). */
static void test_outliers(void **state)
{
	static const double o[] = { 10, 10.1, 9.9, 10.2, 9.8, 10, 10.05, 30 };
	static const double flat[] = { 1, 1, 1, 1, 5 };
	bool flags[8];

	(void)state;
	assert_int_equal(pcost_outliers(o, 8, flags), 1);
	for (int i = 0; i < 7; i++)
		assert_false(flags[i]);
	assert_true(flags[7]);
	/* MAD 0: no scale, nothing flagged rather than dividing by zero. */
	assert_int_equal(pcost_outliers(flat, 5, NULL), 0);
}

static void test_shuffle(void **state)
{
	size_t idx[10], idx2[10];
	uint64_t s1 = 5, s2 = 5, r;
	int seen[10] = { 0 }, moved = 0;

	(void)state;
	for (size_t i = 0; i < 10; i++)
		idx[i] = idx2[i] = i;
	pcost_shuffle(idx, 10, &s1);
	pcost_shuffle(idx2, 10, &s2);
	for (size_t i = 0; i < 10; i++) {
		assert_int_equal(idx[i], idx2[i]);
		seen[idx[i]]++;
		moved += idx[i] != i;
	}
	for (size_t i = 0; i < 10; i++)
		assert_int_equal(seen[i], 1);
	assert_true(moved > 0);
	/* splitmix64 reference: first output for seed 0 is 0xe220a8397b1dcdaf (Vigna's splitmix64.c). */
	r = 0;
	assert_true(pcost_rand_next(&r) == 0xe220a8397b1dcdafULL);
}

/* Draws below n: in range and about uniform (the rejection keeps "r % n" from favouring small values). */
static void test_rand_below(void **state)
{
	uint64_t st = 42, counts[3] = { 0 };

	(void)state;
	for (int i = 0; i < 30000; i++)
		counts[pcost_rand_below(&st, 3)]++;
	for (int k = 0; k < 3; k++)
		assert_true(counts[k] > 9500 && counts[k] < 10500);
	for (size_t n = 1; n < 100; n++)
		assert_true(pcost_rand_below(&st, n) < n);
}

/* The paired interval on a hand-computed case (Python statistics + mpmath). */
static void test_paired(void **state)
{
	static const double y[] = { 1000, 1100, 950, 1050, 1000 },
			    x[] = { 1100, 1180, 1060, 1150, 1090 };
	struct pcost_paired p;

	(void)state;
	pcost_paired(x, y, 5, 0.95, &p);
	near(p.ratio, 0.09411764705882364, 1e-12);
	/* log(R) -+ t(4) sd(x/xbar - y/ybar)/sqrt(5), exponentiated (below 10 blocks: plain t). */
	near(p.ratio_lo, 0.07475274134236609, 1e-9);
	near(p.ratio_hi, 0.1138314698414884, 1e-9);
	near(p.diff_lo, 81.84285223017726, 1e-6);
	near(p.p, 4.68693255316292e-5, 1e-9);
	pcost_paired(x, y, 1, 0.95, &p);
	assert_true(isnan(p.ratio_lo) && isnan(p.diff_lo) && isnan(p.p));
}

/*
 * Hall's (1992) skewness correction, against mpmath 1.3 (30 digits):
 *   d = [100, 110, 95, 400, 105, 98, 102, 250, 97, 103]  (x - y below)
 *   m = fsum(d)/10; m2 = fsum((v-m)**2 for v in d)/10; m3 = fsum((v-m)**3 ...)/10
 *   g = m3/m2**1.5 = 1.915915663224845; se = stdev(d)/sqrt(10)
 *   t = findroot(lambda t: betainc(4.5, 0.5, 0, 9/(9+t*t), regularized=True) - 0.05, 2.5)
 *   a = g/(3*sqrt(10)); b = g/(6*sqrt(10)); inv(v) = (real_cbrt(1 + 3*a*(v-b)) - 1)/a
 *   Hall's own [m - inv(t)*se, m - inv(-t)*se] = [95.18910626430893, 423.2348025804462],
 *   plain t [73.86433592396151, 218.1356640760385]; each arm the longer of the two
 *   (infer.c: the correction never shortens one): [73.86433592396151, 423.2348025804462]
 * (the first nine values take plain t, n below 10: [69.49246967080113,
 * 232.0630858847544] with t(8)).
 * The ratio (positive samples: the log scale): u = x/xbar - y/ybar, g(u) =
 * 1.9232775537484361, se = stdev(u)/sqrt(10), [c_lo, c_hi] Hall's from g(u), each
 * arm the longer: R = exp(log(xbar/ybar) - c se) in [1.0763924368685871,
 * 1.313786392588971].  D'Agostino's Z of d (the
 * transformation of scipy.stats.skewtest, by hand): 3.070988667676554; of the
 * symmetric e = [3, -1, 2, -2, 0, 1, -3, 2, -1, -1] (g 0.0957046137435248):
 * 0.1712343225256538.  pcost_hall_t(1.5, 10, t) = [-9.359823513868663, t]
 * (the fold: 1 + 3 a (-t - b) < 0; Hall's own upper 1.690801843866684 is
 * shorter than t), (-3) = [-t, 6.610084283153012] (Hall's own lower
 * -1.396523883712988).
 */
/*
 * One slow plain run among ten: Fieller's interval was unbounded (Hall's c from the
 * skewness of x - y reached 7.23 past the cubic's fold, above ybar/se(ybar) = 6.00),
 * for an overhead as clear as +202.5%.  On the log scale, with Hall's c held at the fold
 * (numpy/scipy, the same formulas as test_hall's):
 *   u = x/x.mean() - y/y.mean(); g(u) = -2.665982604359972, a = g/(3 sqrt 10) < 0 and
 *   1 + 3a(t - b) < 0, so c_hi = -1/a = 3.558475199721966, c_lo = -t
 *   exp(log(xbar/ybar) - c se) - 1 in [0.7215106898239412, 3.3286957627030764]
 * Samples that are not all positive (a cost per hit near 0) keep Fieller's.
 */
static void test_ratio_log_scale(void **state)
{
	static const double y[] = { 1.00, 1.02, 0.98, 1.01, 0.99, 1.00, 1.03, 0.97, 1.00, 3.00 },
			    x[] = { 3.60, 3.70, 3.50, 3.65, 3.55, 3.60, 3.70, 3.50, 3.60, 3.90 };
	static const double yz[] = { 1, -1, 2, -2, 1, 0, 1, -1, 2, 1 },
			    xz[] = { 3, 1, 4, 0, 3, 2, 3, 1, 4, 3 };
	struct pcost_paired p;

	(void)state;
	pcost_paired(x, y, 10, 0.95, &p);
	near(p.ratio, 2.025, 1e-12);
	near(p.ratio_lo, 0.7215106898239412, 1e-9);
	near(p.ratio_hi, 3.3286957627030764, 1e-9);
	/* mean(y) = 0.4, not clear of 0: Fieller's, unbounded. */
	pcost_paired(xz, yz, 10, 0.95, &p);
	assert_true(isnan(p.ratio_lo) && isnan(p.ratio_hi));
}

static void test_hall(void **state)
{
	static const double y[] = { 1000, 1010, 990, 1005, 995, 1002, 998, 1008, 992, 1000 };
	static const double c[] = { 100, 110, 95, 400, 105, 98, 102, 250, 97, 103 };
	static const double e[] = { 3, -1, 2, -2, 0, 1, -3, 2, -1, -1 };
	double x[10], m, lo, hi, t = 2.262157162798205, clo, chi;
	struct pcost_paired p;

	(void)state;
	for (size_t i = 0; i < 10; i++)
		x[i] = y[i] + c[i];
	near(pcost_skewness(c, 10), 1.915915663224845, 1e-12);
	near(pcost_skew_z(c, 10), 3.070988667676554, 1e-10);
	near(pcost_skew_z(e, 10), 0.1712343225256538, 1e-10);
	assert_true(isnan(pcost_skew_z(c, 7)));
	pcost_mean_ci(c, 10, 0.95, &m, &lo, &hi);
	near(m, 146, 1e-12);
	near(lo, 73.86433592396151, 1e-8);
	near(hi, 423.2348025804462, 1e-8);
	pcost_mean_ci(c, 9, 0.95, &m, &lo, &hi);
	near(lo, 69.49246967080113, 1e-8);
	near(hi, 232.0630858847544, 1e-8);
	pcost_hall_t(0, 10, t, &clo, &chi);
	near(clo, -t, 1e-12);
	near(chi, t, 1e-12);
	pcost_hall_t(1.5, 10, t, &clo, &chi);
	near(clo, -9.359823513868663, 1e-9);
	near(chi, t, 1e-12);
	pcost_hall_t(-3, 10, t, &clo, &chi);
	near(clo, -t, 1e-12);
	near(chi, 6.610084283153012, 1e-9);
	pcost_paired(x, y, 10, 0.95, &p);
	near(p.diff_lo, 73.86433592396151, 1e-8);
	near(p.diff_hi, 423.2348025804462, 1e-8);
	near(p.ratio, 0.146, 1e-12);
	near(p.ratio_lo, 0.0763924368685871, 1e-10);
	near(p.ratio_hi, 0.313786392588971, 1e-10);
	near(p.skew_z, 3.070988667676554, 1e-10);
	assert_true(p.significant);
	/* The skew warning: by the third moment alone, or by the mean and HL apart. */
	assert_true(pcost_skewed(146, 146, 30, 3.07));
	assert_false(pcost_skewed(146, 146, 30, 0.17));
	assert_false(pcost_skewed(146, 146, 30, NAN));
	assert_true(pcost_skewed(146, 100, 30, NAN));
}

/*
 * The Mann-Whitney rank k (R's qwilcox(0.025, m, n)) against the null
 * distribution counted here by brute force: every way of placing m x values
 * among m + n sorted positions, U the pairs with a y above an x, k the least q
 * with P(U <= q) >= 0.025.  By hand: m = n = 5 gives P(U <= 2) = 4/252 =
 * 0.016 and P(U <= 3) = 7/252 = 0.028, so k = 3; m = n = 3 reaches no 95%
 * interval (P(U = 0) = 1/20 > 0.025), so k = 0.  Past 50 a side, the normal
 * approximation: m = n = 60, mn/2 = 1800, sd = sqrt(3600 x 121 / 12) =
 * 190.526, 1800 - 1.959964 x 190.526 = 1426.58, rounded: 1427.
 */
static size_t brute_ranksum_k(unsigned m, unsigned n)
{
	unsigned top = m * n;
	double cnt[64] = { 0 }, all = 0, cum = 0;
	size_t k = 0;

	for (unsigned mask = 0; mask < 1U << (m + n); mask++) {
		unsigned u = 0, ys_above = 0;

		if ((unsigned)__builtin_popcount(mask) != m)
			continue;
		/* from the top position down: each x counts the y values above it */
		for (int pos = (int)(m + n) - 1; pos >= 0; pos--) {
			if (mask & (1U << pos))
				u += ys_above;
			else
				ys_above++;
		}
		cnt[u]++;
		all++;
	}
	while (k <= top && (cum += cnt[k]) / all < 0.025)
		k++;
	return k;
}

static void test_ranksum_k(void **state)
{
	static const unsigned mn[][2] = { { 3, 3 }, { 4, 4 }, { 5, 5 }, { 4, 7 }, { 6, 6 },
					  { 7, 5 }, { 6, 7 }, { 8, 6 }, { 2, 9 } };

	(void)state;
	assert_int_equal(pcost_ranksum_k(5, 5, 0.95), 3);
	assert_int_equal(pcost_ranksum_k(3, 3, 0.95), 0);
	for (size_t i = 0; i < ARRLEN(mn); i++) {
		size_t want = brute_ranksum_k(mn[i][0], mn[i][1]);

		if (pcost_ranksum_k(mn[i][0], mn[i][1], 0.95) != want)
			fail_msg("m = %u, n = %u: k %zu, brute force %zu", mn[i][0], mn[i][1],
				 pcost_ranksum_k(mn[i][0], mn[i][1], 0.95), want);
	}
	assert_int_equal(pcost_ranksum_k(60, 60, 0.95), 1427);
	assert_int_equal(pcost_ranksum_k(0, 5, 0.95), 0);
}

/*
 * The Hodges-Lehmann shift by hand: x = 1..5, y = 3..7, so y_j - x_i = 2 + (j - i),
 * whose 25 values are -2 once, -1 twice, 0 three times, 1 four, 2 five, 3 four, 4
 * three, 5 twice, 6 once: the median 2, and with k = 3 the interval [D(3), D(23)]
 * = [-1, 5].  As ratios: x = 1, 2, 4, 8, 16 and y = 2x give log-differences
 * log 2 x (1 + j - i): the change +100%, [2^-2 - 1, 2^4 - 1] = [-75%, +1500%].
 * The skew test: x ten runs of 100, y nine of 90 and one of 300: +11% by the means,
 * -10% robust, 0.21 apart on the log scale against a standard error of 21/111 =
 * 0.189 (x has none): skewed; y = 0.9 x of a symmetric x is not.
 */
static void test_hl_shift(void **state)
{
	static const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 3, 4, 5, 6, 7 };
	static const double rx[] = { 1, 2, 4, 8, 16 }, ry[] = { 2, 4, 8, 16, 32 };
	double a[10], b[10], c[10], e, lo, hi;

	(void)state;
	pcost_hl_shift(x, 5, y, 5, 0.95, &e, &lo, &hi);
	near(e, 2, 0);
	near(lo, -1, 0);
	near(hi, 5, 0);
	pcost_hl_shift(x, 3, y, 3, 0.95, &e, &lo, &hi); /* 9 differences, no 95% interval */
	near(e, 2, 0);
	assert_true(isnan(lo) && isnan(hi));
	pcost_hl_ratio_unpaired(rx, 5, ry, 5, 0.95, &e, &lo, &hi);
	near(e, 1, 1e-12);
	near(lo, -0.75, 1e-12);
	near(hi, 15, 1e-12);
	pcost_hl_ratio_unpaired(x, 5, (const double[]){ 1, 0, 1, 1, 1 }, 5, 0.95, &e, &lo, &hi);
	assert_true(isnan(e) && isnan(lo) && isnan(hi));
	for (int i = 0; i < 10; i++) {
		a[i] = 100;
		b[i] = i == 6 ? 300 : 90;
		c[i] = 0.9 * (100 + (i % 2 ? 1 : -1) * (i + 1));
	}
	pcost_hl_ratio_unpaired(a, 10, b, 10, 0.95, &e, &lo, &hi);
	near(e, -0.1, 1e-12);
	assert_true(pcost_skewed_unpaired(a, 10, b, 10, 0.11, e));
	for (int i = 0; i < 10; i++)
		a[i] = 100 + (i % 2 ? 1 : -1) * (i + 1);
	pcost_hl_ratio_unpaired(a, 10, c, 10, 0.95, &e, &lo, &hi);
	assert_false(
		pcost_skewed_unpaired(a, 10, c, 10, pcost_mean(c, 10) / pcost_mean(a, 10) - 1, e));
}

/*
 * The Wilcoxon interval's rank k against R 4.2.2: qsignrank(0.025, n) for n <= 50
 * (exact), e.g. `Rscript -e 'qsignrank(0.025, c(6, 7, 8, 10, 20, 30, 49, 50))'` =
 * 1 3 4 9 53 138 416 435; below n = 6 no interval reaches 95%; above 50 the normal
 * approximation `floor(n*(n+1)/4 - qnorm(0.975)*sqrt(n*(n+1)*(2*n+1)/24) + 0.5)` =
 * 454 (n 51), 1955 (n 100), 232345 (n 1000).
 */
static void test_signrank_k(void **state)
{
	static const struct {
		size_t n, k;
	} ref[] = {
		{ 1, 0 },    { 5, 0 },	    { 6, 1 },	      { 7, 3 },	   { 8, 4 },
		{ 10, 9 },   { 20, 53 },    { 30, 138 },      { 49, 416 }, { 50, 435 },
		{ 51, 454 }, { 100, 1955 }, { 1000, 232345 },
	};

	(void)state;
	for (size_t i = 0; i < ARRLEN(ref); i++)
		if (pcost_signrank_k(ref[i].n, 0.95) != ref[i].k)
			fail_msg("n %zu: k %zu, want %zu", ref[i].n,
				 pcost_signrank_k(ref[i].n, 0.95), ref[i].k);
	/* qsignrank(0.05, 10) = 11: a 90% interval drops more Walsh averages. */
	assert_int_equal(pcost_signrank_k(10, 0.90), 11);
}

/*
 * Hodges-Lehmann and its interval against R 4.2.2 wilcox.test(x, conf.int = TRUE):
 *   x <- c(0.05, 0.12, -0.02, 0.31, 0.08, 0.09, 0.15) -> 0.1 [0.03, 0.215];
 *   five values: the estimate 3.125 (R's 93.75% interval is below the 95% asked: none here);
 *   60 values (normal approximation): the Walsh averages k = 649 from each end,
 *   `ws <- sort((outer(z,z,"+")/2)[!lower.tri(diag(60))]); c(median(ws), ws[649], ws[1182])`
 *   = 10.28375 [9.8145, 10.7165]; R's own wilcox.test(z, conf.int = TRUE, exact = FALSE)
 *   (root-finding on the corrected z) gives 10.28351 [9.81446, 10.71651].
 */
static void test_hodges_lehmann(void **state)
{
	static const double x7[] = { 0.05, 0.12, -0.02, 0.31, 0.08, 0.09, 0.15 };
	static const double x5[] = { 3.1, 2.7, 3.9, 3.3, 2.95 };
	/* set.seed(1); z <- round(rnorm(60, 10, 2), 3) */
	static const double z[] = {
		8.747,	10.367, 8.329,	13.191, 10.659, 8.359,	10.975, 11.477, 11.152, 9.389,
		13.024, 10.78,	8.758,	5.571,	12.25,	9.91,	9.968,	11.888, 11.642, 11.188,
		11.838, 11.564, 10.149, 6.021,	11.24,	9.888,	9.688,	7.058,	9.044,	10.836,
		12.717, 9.794,	10.775, 9.892,	7.246,	9.17,	9.211,	9.881,	12.2,	11.526,
		9.671,	9.493,	11.394, 11.113, 8.622,	8.585,	10.729, 11.537, 9.775,	11.762,
		10.796, 8.776,	10.682, 7.741,	12.866, 13.961, 9.266,	7.912,	11.139, 9.73,
	};
	double e, lo, hi;

	(void)state;
	pcost_hodges_lehmann(x7, 7, 0.95, &e, &lo, &hi);
	near(e, 0.1, 1e-15);
	near(lo, 0.03, 1e-15);
	near(hi, 0.215, 1e-15);
	pcost_hodges_lehmann(x5, 5, 0.95, &e, &lo, &hi);
	near(e, 3.125, 1e-15);
	assert_true(isnan(lo) && isnan(hi));
	pcost_hodges_lehmann(z, ARRLEN(z), 0.95, &e, &lo, &hi);
	near(e, 10.28375, 1e-12);
	near(lo, 9.8145, 1e-12);
	near(hi, 10.7165, 1e-12);
	pcost_hodges_lehmann(x7, 0, 0.95, &e, &lo, &hi);
	assert_true(isnan(e) && isnan(lo) && isnan(hi));
	pcost_hodges_lehmann(x7, 1, 0.95, &e, &lo, &hi);
	near(e, 0.05, 0);
	assert_true(isnan(lo));
	{
		/*
		 * 0, 1, ..., 4000 (8 million Walsh averages, never stored), given in
		 * descending order: symmetric, so the estimate is 2000 and the interval's ends
		 * are 2000 -+ the same distance.  The rank: python3 -c "import math; n=4001;
		 * print(math.floor(n*(n+1)/4 - 1.959963984540054*math.sqrt(n*(n+1)*(2*n+1)/24)
		 * + 0.5))" -> 3859784; lo is the 3859784th smallest Walsh average, checked by
		 * counting all of them.  A non-finite value: nothing.
		 */
		size_t nb = 4001;
		double *big = calloc(nb, sizeof(double)), below = 0, above = 0;

		for (size_t i = 0; i < nb; i++)
			big[nb - 1 - i] = (double)i; /* given descending: sorted inside */
		pcost_hodges_lehmann(big, nb, 0.95, &e, &lo, &hi);
		near(e, 2000, 0);
		near(lo + hi, 4000, 0);
		assert_int_equal(pcost_signrank_k(nb, 0.95), 3859784);
		for (size_t i = 0; i < nb; i++)
			for (size_t j = i; j < nb; j++) {
				below += ((double)i + (double)j) / 2 < lo;
				above += ((double)i + (double)j) / 2 <= lo;
			}
		/* lo is the 3859784th smallest: fewer below it, as many or more at or below. */
		assert_true(below < 3859784 && above >= 3859784);
		big[7] = NAN;
		pcost_hodges_lehmann(big, nb, 0.95, &e, &lo, &hi);
		assert_true(isnan(e) && isnan(lo) && isnan(hi));
		free(big);
	}
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Reference: the k-th smallest (1-based) of v[0..n) by sorting a copy. */
static double kth_sorted(const double *v, size_t n, size_t k)
{
	double *c = malloc(n * sizeof(*c)), r;

	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_dbl);
	r = c[k - 1];
	free(c);
	return r;
}

/*
 * The selection behind pcost_hodges_lehmann and pcost_hl_shift (no pair stored)
 * against sorting every pair, on 60 seeded samples of 1-120 values with ties
 * (values on a grid of 0.25) and unequal sizes: the same estimate and ends, exactly.
 */
static void test_hl_selection_vs_sort(void **state)
{
	uint64_t seed = 19;

	(void)state;
	for (int t = 0; t < 60; t++) {
		size_t m = 1 + pcost_rand_below(&seed, 120), n = 1 + pcost_rand_below(&seed, 90);
		size_t nw = m * (m + 1) / 2, w = 0, k;
		double *x = malloc(m * sizeof(*x)), *y = malloc(n * sizeof(*y));
		double *walsh = malloc(nw * sizeof(*walsh)), *d = malloc(m * n * sizeof(*d));
		double e, lo, hi, want;

		for (size_t i = 0; i < m; i++)
			x[i] = 0.25 * (double)pcost_rand_below(&seed, 40) - 3;
		for (size_t j = 0; j < n; j++)
			y[j] = 0.25 * (double)pcost_rand_below(&seed, 40) - 2;
		for (size_t i = 0; i < m; i++)
			for (size_t j = i; j < m; j++)
				walsh[w++] = (x[i] + x[j]) / 2;
		pcost_hodges_lehmann(x, m, 0.95, &e, &lo, &hi);
		want = nw % 2 ? kth_sorted(walsh, nw, nw / 2 + 1)
			      : (kth_sorted(walsh, nw, nw / 2) +
				 kth_sorted(walsh, nw, nw / 2 + 1)) /
					2;
		near(e, want, 0);
		k = pcost_signrank_k(m, 0.95);
		if (k >= 1 && k <= nw) {
			near(lo, kth_sorted(walsh, nw, k), 0);
			near(hi, kth_sorted(walsh, nw, nw + 1 - k), 0);
		} else {
			assert_true(isnan(lo) && isnan(hi));
		}
		w = 0;
		for (size_t i = 0; i < m; i++)
			for (size_t j = 0; j < n; j++)
				d[w++] = y[j] - x[i];
		pcost_hl_shift(x, m, y, n, 0.95, &e, &lo, &hi);
		want = w % 2 ? kth_sorted(d, w, w / 2 + 1)
			     : (kth_sorted(d, w, w / 2) + kth_sorted(d, w, w / 2 + 1)) / 2;
		near(e, want, 0);
		k = pcost_ranksum_k(m, n, 0.95);
		if (k >= 1 && k <= w) {
			near(lo, kth_sorted(d, w, k), 0);
			near(hi, kth_sorted(d, w, w + 1 - k), 0);
		} else {
			assert_true(isnan(lo) && isnan(hi));
		}
		free(x);
		free(y);
		free(walsh);
		free(d);
	}
}

/*
 * Eight paired blocks, the monitor costs 4.2-6.1% in seven and 52% in one (a
 * hiccup).  R 4.2.2: d <- log(x/y); w <- wilcox.test(d, conf.int = TRUE);
 * expm1(c(w$estimate, w$conf.int)) = 0.0517470570771856 [0.0459923517884823,
 * 0.264531533810051], while mean(x)/mean(y) - 1 = 0.109397375: the hiccup
 * carries the mean, not the robust figure.
 */
static void test_hl_ratio(void **state)
{
	static const double y[] = { 1000, 1010, 990, 1005, 995, 1000, 1002, 998 };
	static const double x[] = { 1050,    1071.61, 1031.58, 1060.275,
				    1040.77, 1052,    1523.04, 1045.904 };
	static const double neg[] = { 1000, -1, 990, 1005, 995, 1000, 1002, 998 };
	double r, lo, hi;

	(void)state;
	pcost_hl_ratio(x, y, 8, 0.95, &r, &lo, &hi);
	near(r, 0.0517470570771856, 1e-12);
	near(lo, 0.0459923517884823, 1e-12);
	near(hi, 0.264531533810051, 1e-12);
	/* A time that is not positive has no log: nothing, rather than a wrong figure. */
	pcost_hl_ratio(x, neg, 8, 0.95, &r, &lo, &hi);
	assert_true(isnan(r) && isnan(lo) && isnan(hi));
}

/*
 * By hand: [[4, 7], [2, 6]]^-1 = [[0.6, -0.7], [-0.2, 0.4]] (determinant 10); the
 * 3 x 3 needs a row swap (a zero first pivot): numpy.linalg.inv([[0, 2, 1],
 * [1, 1, 0], [2, 0, 3]]) = [[-0.375, 0.75, 0.125], [0.375, 0.25, -0.125],
 * [0.25, -0.5, 0.25]]; a singular matrix is refused.
 */
static void test_matrix_inverse(void **state)
{
	double a[] = { 4, 7, 2, 6 }, b[] = { 0, 2, 1, 1, 1, 0, 2, 0, 3 }, sing[] = { 1, 2, 2, 4 };
	static const double ainv[] = { 0.6, -0.7, -0.2, 0.4 };
	static const double binv[] = { -0.375, 0.75, 0.125, 0.375, 0.25, -0.125, 0.25, -0.5, 0.25 };

	(void)state;
	assert_int_equal(pcost_matrix_inverse(a, 2), 0);
	for (size_t i = 0; i < 4; i++)
		near(a[i], ainv[i], 1e-15);
	assert_int_equal(pcost_matrix_inverse(b, 3), 0);
	for (size_t i = 0; i < 9; i++)
		near(b[i], binv[i], 1e-15);
	assert_true(pcost_matrix_inverse(sing, 2) < 0);
}

/*
 * Three blocks at sizes 1000, 2000, 4000, each fitted on its own; R 4.2.2:
 * x <- c(1000, 2000, 4000); Y <- rbind(c(2510, 4490, 8530), c(2470, 4520, 8480),
 * c(2540, 4460, 8550)); co <- t(apply(Y, 1, function(y) coef(lm(y ~ x))));
 * colMeans(co) -+ qt(0.975, 2) * apply(co, 2, sd) / sqrt(3):
 *   fixed 491.666666666666 [484.495578783749, 498.837754549583],
 *   slope 2.00595238095238 [1.99311617043360, 2.01878859147117];
 *   summary(lm(as.vector(t(Y)) ~ rep(x, 3)))$r.squared = 0.99986286870499.
 * One block only: the pooled fit, confint(lm(Y[1, ] ~ x)): fixed 490
 * [157.273457147862, 822.726542852137], slope 2.00857142857143
 * [1.88281261614614, 2.13433024099672] (t with 1 df).
 */
static void test_block_fit(void **state)
{
	static const double x[] = { 1000, 2000, 4000, 1000, 2000, 4000, 1000, 2000, 4000 };
	static const double y[] = { 2510, 4490, 8530, 2470, 4520, 8480, 2540, 4460, 8550 };
	static const uint32_t blk[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
	struct pcost_fit f;

	(void)state;
	assert_int_equal(pcost_block_fit(blk, x, y, 9, 0.95, &f), 0);
	assert_int_equal(f.nblocks, 3);
	near(f.fixed, 491.666666666666, 1e-9);
	near(f.fixed_lo, 484.495578783749, 1e-8);
	near(f.fixed_hi, 498.837754549583, 1e-8);
	near(f.slope, 2.00595238095238, 1e-12);
	near(f.slope_lo, 1.99311617043360, 1e-11);
	near(f.slope_hi, 2.01878859147117, 1e-11);
	near(f.r2, 0.99986286870499, 1e-12);
	assert_int_equal(pcost_block_fit(blk, x, y, 3, 0.95, &f), 0);
	assert_int_equal(f.nblocks, 1);
	near(f.fixed, 490, 1e-9);
	near(f.fixed_lo, 157.273457147862, 1e-7);
	near(f.fixed_hi, 822.726542852137, 1e-7);
	near(f.slope, 2.00857142857143, 1e-12);
	near(f.slope_lo, 1.88281261614614, 1e-10);
	near(f.slope_hi, 2.13433024099672, 1e-10);
	/* No robust companion for the pooled fallback: there are no blocks to rank. */
	assert_true(isnan(f.slope_robust));
}

/*
 * Two sessions' samples: R 4.2.2, a <- c(100, 104, 98, 102, 101); b <- c(110,
 * 115, 108, 113); ea <- sd(a)/sqrt(5)/mean(a); eb <- sd(b)/sqrt(4)/mean(b);
 * se <- sqrt(ea^2 + eb^2); df <- se^4/(ea^4/4 + eb^4/3) (= 5.70130243523574);
 * exp(log(mean(b)/mean(a)) + c(-1, 1) * qt(0.975, df) * se) - 1 =
 * [0.0581522588182586, 0.151751598947577] around 0.103960396039604.
 */
static void test_ratio_ci_unpaired(void **state)
{
	static const double a[] = { 100, 104, 98, 102, 101 }, b[] = { 110, 115, 108, 113 };
	double r, lo, hi;

	(void)state;
	pcost_ratio_ci_unpaired(a, 5, b, 4, 0.95, &r, &lo, &hi);
	near(r, 0.103960396039604, 1e-12);
	near(lo, 0.0581522588182586, 1e-10);
	near(hi, 0.151751598947577, 1e-10);
	pcost_ratio_ci_unpaired(a, 1, b, 4, 0.95, &r, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_linfit),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_rand_below),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_signrank_k),
		cmocka_unit_test(test_ranksum_k),
		cmocka_unit_test(test_hl_shift),
		cmocka_unit_test(test_hodges_lehmann),
		cmocka_unit_test(test_hl_selection_vs_sort),
		cmocka_unit_test(test_hl_ratio),
		cmocka_unit_test(test_matrix_inverse),
		cmocka_unit_test(test_block_fit),
		cmocka_unit_test(test_ratio_ci_unpaired),
		cmocka_unit_test(test_hall),
		cmocka_unit_test(test_ratio_log_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
