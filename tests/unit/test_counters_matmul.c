// SPDX-License-Identifier: MIT
/*
 * test_counters_matmul: the matmul kernel computes the product (checked on a
 * 3x3 case worked by hand), calls back once per row, and the `matmul`
 * workload reads its counters after every row with values that never decrease.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "machine_facts.h"
#include "counters/counters.h"
#include "probecost/counters.h"
#include "workloads/workload.h"

extern const struct pcost_workload pcost_wl_matmul;

static void count_row(void *ctx, unsigned i)
{
	unsigned *rows = ctx;

	assert_int_equal(i, *rows); /* rows in order, once each */
	(*rows)++;
}

static void test_kernel(void **state)
{
	/* a = [1 2 3; 4 5 6; 7 8 9], b = identity + 1 everywhere in column 0 */
	const double a[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	const double b[9] = { 2, 0, 0, 1, 1, 0, 1, 0, 1 };
	/* a x b by hand: row i = (a_i0*2 + a_i1 + a_i2, a_i1, a_i2) */
	const double want[9] = { 7, 2, 3, 19, 5, 6, 31, 8, 9 };
	double c[9], sum;
	unsigned rows = 0;

	sum = pcost_matmul(3, a, b, c, count_row, &rows);
	assert_int_equal(rows, 3);
	for (int i = 0; i < 9; i++)
		assert_true(c[i] == want[i]);
	assert_true(sum == 90);
}

static void test_workload_reads(void **state)
{
	struct pcost_params p;
	struct pcost_wl_result res;
	unsigned long reads = 0, dec = 1;
	const char *r;
	struct pcost_counters *c;
	static const char *const tc[] = { "task-clock" };
	char why[256];

	/* From the machine's facts: where they allow perf events, an open that fails fails. */
	if (!fact_perf_events(why, sizeof(why))) {
		print_message("skip: %s\n", why);
		skip();
	}
	assert_int_equal(pcost_counters_open(&c, tc, 1), 0);
	pcost_counters_close(c);
	memset(&p, 0, sizeof(p));
	memset(&res, 0, sizeof(res));
	p.wl = &pcost_wl_matmul;
	p.v[pcost_param_index(&pcost_wl_matmul, "n")] = 32;
	p.v[pcost_param_index(&pcost_wl_matmul, "reps")] = 3;
	p.v[pcost_param_index(&pcost_wl_matmul, "reads")] = 0; /* group */
	assert_int_equal(pcost_wl_matmul.run(&p, &res), 0);
	assert_int_equal(res.events, 96);
	assert_true(res.timed_ns > 0);
	r = strstr(res.extra, "reads=");
	assert_non_null(r);
	assert_int_equal(sscanf(r, "reads=%lu decreasing=%lu", &reads, &dec), 2);
	assert_int_equal(reads, 96);
	assert_int_equal(dec, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_workload_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
