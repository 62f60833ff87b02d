// SPDX-License-Identifier: MIT
/* test_sdt_stanford: the stanford kernels are right and their hit counts exact and variant-blind. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/stanford.h"

/* Counts that follow from the algorithms (see kernels.c). */
static void closed_form_counts(void **state)
{
	uint64_t hits[PCOST_SK_N];

	(void)state;
	assert_int_equal(pcost_stanford_run(0, (1u << PCOST_SK_N) - 1, 1, hits), -1);
	assert_int_equal(hits[PCOST_SK_PERM], 43300);	 /* 5 x P(7), P(n) = 1 + n P(n-1) */
	assert_int_equal(hits[PCOST_SK_TOWERS], 16383);	 /* 2^14 - 1 moves */
	assert_int_equal(hits[PCOST_SK_INTMM], 1600);	 /* 40 x 40 inner products */
	assert_int_equal(hits[PCOST_SK_PUZZLE], 2005);	 /* Stanford's own kount check */
	assert_int_equal(hits[PCOST_SK_BUBBLE], 124750); /* 499 x 500 / 2 comparisons */
	assert_int_equal(hits[PCOST_SK_FFT], 20480);	 /* 20 transforms x 128 x 8 butterflies */
}

/* Every variant executes its probe sites exactly as often, and scale multiplies. */
static void variants_agree(void **state)
{
	uint64_t ref[PCOST_SK_N], hits[PCOST_SK_N];

	(void)state;
	assert_int_equal(pcost_stanford_run(0, (1u << PCOST_SK_N) - 1, 2, ref), -1);
	for (int v = 1; v < PCOST_STANFORD_NVARIANTS; v++) {
		assert_int_equal(pcost_stanford_run(v, (1u << PCOST_SK_N) - 1, 2, hits), -1);
		for (int k = 0; k < PCOST_SK_N; k++)
			assert_int_equal(hits[k], ref[k]);
	}
	assert_int_equal(pcost_stanford_run(1, 1u << PCOST_SK_TOWERS, 3, hits), -1);
	assert_int_equal(hits[PCOST_SK_TOWERS], 3 * 16383);
	assert_int_equal(hits[PCOST_SK_PERM], 0);
}

struct concurrent {
	int v, rc;
	uint64_t hits[PCOST_SK_N];
};

static void *run_variant(void *arg)
{
	struct concurrent *c = arg;

	c->rc = pcost_stanford_run(c->v, (1u << PCOST_SK_N) - 1, 3, c->hits);
	return NULL;
}

/*
 * Threads running the kernels at once each get their own data and counts:
 * every self-check passes and every thread counts exactly one run's hits
 * (with shared data, they would overwrite each other's arrays and counters).
 */
static void concurrent_runs(void **state)
{
	struct concurrent c[4];
	pthread_t t[4];
	uint64_t ref[PCOST_SK_N];

	(void)state;
	assert_int_equal(pcost_stanford_run(0, (1u << PCOST_SK_N) - 1, 3, ref), -1);
	for (int i = 0; i < 4; i++) {
		c[i] = (struct concurrent){ .v = i % 2 ? 1 : 4 };
		assert_int_equal(pthread_create(&t[i], NULL, run_variant, &c[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(c[i].rc, -1);
		assert_memory_equal(c[i].hits, ref, sizeof(ref));
	}
}

static void names(void **state)
{
	(void)state;
	assert_int_equal(pcost_stanford_variant_find("volatile-sem"), 4);
	assert_int_equal(pcost_stanford_variant_find("bogus"), -1);
	assert_string_equal(pcost_stanford_provider(3), "stanford_plain_sem");
	assert_null(pcost_stanford_provider(0));
	assert_string_equal(pcost_stanford_kernel_name(PCOST_SK_FFT), "fft");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(closed_form_counts),
		cmocka_unit_test(variants_agree),
		cmocka_unit_test(concurrent_runs),
		cmocka_unit_test(names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
