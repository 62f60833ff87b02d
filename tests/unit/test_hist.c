// SPDX-License-Identifier: MIT
/* test_hist: the log-linear latency histogram (bucket bounds, quantiles of known inputs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "stats/hist.h"

/* A bucket's midpoint is within half a bucket of any value in it: 1/256 of its smallest. */
#define HALF_BUCKET (1.0 / 256)

static struct pcost_hist *hist_new(void)
{
	struct pcost_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	pcost_hist_init(h);
	return h;
}

static void assert_within(double got, double want, double rel)
{
	if (fabs(got - want) > rel * want)
		fail_msg("got %.6f, want %.6f within %.3f%%", got, want, rel * 100);
}

static void check_bucket(uint64_t v)
{
	size_t b = pcost_hist_bucket_of(v);
	uint64_t lo = pcost_hist_bucket_lo(b), hi = pcost_hist_bucket_hi(b);

	assert_true(b < PCOST_HIST_BUCKETS);
	if (!(lo <= v && v <= hi))
		fail_msg("%llu in bucket %zu [%llu, %llu]", (unsigned long long)v, b,
			 (unsigned long long)lo, (unsigned long long)hi);
	/* Exact below 256; above, at most lo/128 wide. */
	assert_true(v < 256 ? lo == hi : hi - lo + 1 <= lo / PCOST_HIST_SUB);
}

/* Every value lies in its bucket; buckets tile the line without gaps or overlaps. */
static void buckets_hold_their_values(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 100000; v++)
		check_bucket(v);
	for (unsigned e = 8; e < 64; e++) {
		uint64_t p = 1ULL << e;

		check_bucket(p - 1);
		check_bucket(p);
		check_bucket(p + 1);
		check_bucket(p + p / 3);
	}
	check_bucket(UINT64_MAX);
	assert_int_equal(pcost_hist_bucket_of(UINT64_MAX), PCOST_HIST_BUCKETS - 1);
	for (size_t b = 1; b < PCOST_HIST_BUCKETS; b++)
		assert_true(pcost_hist_bucket_lo(b) == pcost_hist_bucket_hi(b - 1) + 1);
}

/* Small values are exact: nearest rank of {1..5}. */
static void small_values_exact(void **state)
{
	struct pcost_hist *h = hist_new();
	const uint64_t v[] = { 3, 1, 5, 2, 4 };

	(void)state;
	for (size_t i = 0; i < 5; i++)
		pcost_hist_record(h, v[i]);
	assert_int_equal(h->count, 5);
	assert_true(pcost_hist_quantile(h, 0) == 1);
	assert_true(pcost_hist_quantile(h, 0.2) == 1);
	assert_true(pcost_hist_quantile(h, 0.5) == 3); /* rank ceil(2.5) = 3 */
	assert_true(pcost_hist_quantile(h, 0.8) == 4);
	assert_true(pcost_hist_quantile(h, 0.81) == 5);
	assert_true(pcost_hist_quantile(h, 1) == 5);
	assert_true(pcost_hist_mean(h) == 3);
	free(h);
}

/* 1..100000 ns once each: the quantiles of rank q x n, within half a bucket. */
static void uniform_quantiles(void **state)
{
	struct pcost_hist *h = hist_new();

	(void)state;
	for (uint64_t v = 1; v <= 100000; v++)
		pcost_hist_record(h, v);
	assert_within(pcost_hist_quantile(h, 0.5), 50000, HALF_BUCKET);
	assert_within(pcost_hist_quantile(h, 0.9), 90000, HALF_BUCKET);
	assert_within(pcost_hist_quantile(h, 0.99), 99000, HALF_BUCKET);
	assert_within(pcost_hist_quantile(h, 0.999), 99900, HALF_BUCKET);
	assert_within(pcost_hist_quantile(h, 0.0001), 10, 0); /* exact below 256 */
	assert_true(pcost_hist_quantile(h, 1) == 100000);     /* the exact max */
	assert_true(pcost_hist_mean(h) == 50000.5);
	free(h);
}

/* A tail: 989 requests of 20 us, 10 of 1 ms, one of 50 ms. */
static void tail_quantiles(void **state)
{
	struct pcost_hist *h = hist_new();

	(void)state;
	for (int i = 0; i < 989; i++)
		pcost_hist_record(h, 20000);
	for (int i = 0; i < 10; i++)
		pcost_hist_record(h, 1000000);
	pcost_hist_record(h, 50000000);
	assert_within(pcost_hist_quantile(h, 0.5), 20000, HALF_BUCKET);
	assert_within(pcost_hist_quantile(h, 0.989), 20000, HALF_BUCKET);  /* rank 989 */
	assert_within(pcost_hist_quantile(h, 0.99), 1000000, HALF_BUCKET); /* rank 990 */
	assert_within(pcost_hist_quantile(h, 0.999), 1000000, HALF_BUCKET);
	assert_true(pcost_hist_quantile(h, 0.9991) == 50000000); /* rank 1000, the max */
	assert_true(pcost_hist_quantile(h, 0) == 20000);	 /* clamped to the min */
	assert_within(pcost_hist_mean(h), (989 * 20000.0 + 10 * 1e6 + 5e7) / 1000, 1e-12);
	free(h);
}

/* Log-uniform random values: every quantile within half a bucket of the sorted truth. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void random_quantiles(void **state)
{
	enum { N = 20000 };
	struct pcost_hist *h = hist_new();
	uint64_t *v = malloc(N * sizeof(*v));
	const double qs[] = { 0.01, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999 };

	(void)state;
	srand48(17);
	for (int i = 0; i < N; i++) {
		v[i] = (uint64_t)exp(log(300.0) + drand48() * log(1e9 / 300.0));
		pcost_hist_record(h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t rank = (size_t)ceil(qs[i] * N);

		assert_within(pcost_hist_quantile(h, qs[i]), (double)v[rank - 1], HALF_BUCKET);
	}
	free(v);
	free(h);
}

/* Two halves merged are the whole. */
static void merge_is_whole(void **state)
{
	struct pcost_hist *a = hist_new(), *b = hist_new(), *all = hist_new();

	(void)state;
	for (uint64_t v = 1; v <= 5000; v++) {
		pcost_hist_record(v % 2 ? a : b, v * 37);
		pcost_hist_record(all, v * 37);
	}
	pcost_hist_merge(a, b);
	assert_memory_equal(a->bucket, all->bucket, sizeof(a->bucket));
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min, 37);
	assert_int_equal(a->max, 5000 * 37);
	assert_true(pcost_hist_quantile(a, 0.5) == pcost_hist_quantile(all, 0.5));
	free(a);
	free(b);
	free(all);
}

static void empty_is_nan(void **state)
{
	struct pcost_hist *h = hist_new();

	(void)state;
	assert_true(isnan(pcost_hist_quantile(h, 0.5)));
	assert_true(isnan(pcost_hist_mean(h)));
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_hold_their_values),
		cmocka_unit_test(small_values_exact),
		cmocka_unit_test(uniform_quantiles),
		cmocka_unit_test(tail_quantiles),
		cmocka_unit_test(random_quantiles),
		cmocka_unit_test(merge_is_whole),
		cmocka_unit_test(empty_is_nan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
