// SPDX-License-Identifier: MIT
/*
 * test_rerun: the interval a rerun of the study lands in (stats/rerun.h), on
 * hand-made pairs with known answers: 5 sub-sessions whose own estimates are
 * 1..5 (sd sqrt(2.5)) give Y +- t_4 x sqrt(2.5) x sqrt(2/5) = Y +- 2.776445.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "stats/rerun.h"

/* t_4's 97.5% quantile */
#define T4 2.7764451051977987

static const uint32_t first[] = { 1, 3, 5, 7, 9 };

/* Blocks 0 (before the first sub-session: not counted) to 10, two a sub-session. */
static const uint32_t blocks[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

static void test_difference(void **state)
{
	/* Sub-session j's mean difference is j + 1; block 0's 100 is left out. */
	double x[] = { 200, 10.5, 11.5, 12, 12, 13, 13, 14.5, 13.5, 15, 15 }, y[11];
	double lo, hi;
	size_t used;

	(void)state;
	for (size_t i = 0; i < 11; i++)
		y[i] = 10;
	y[0] = 100;
	assert_true(
		pcost_rerun_ci(first, 5, x, y, blocks, 11, false, 3, 0.95, &lo, &hi, NULL, &used));
	assert_int_equal(used, 5);
	assert_float_equal(lo, 3 - T4, 1e-6);
	assert_float_equal(hi, 3 + T4, 1e-6);
}

static void test_ratio(void **state)
{
	/* Sub-session j's log(mean x / mean y) is 0.1 (j + 1): sd 0.158, h = 0.1 t_4. */
	double x[11], y[11], lo, hi, se;
	size_t used;

	(void)state;
	for (size_t i = 0; i < 11; i++) {
		uint32_t sub = (blocks[i] + 1) / 2; /* blocks 1-2: 1, ... 9-10: 5 */

		y[i] = 2;
		x[i] = 2 * exp(0.1 * (double)sub);
	}
	assert_true(
		pcost_rerun_ci(first, 5, x, y, blocks, 11, true, 0.35, 0.95, &lo, &hi, &se, &used));
	assert_float_equal(se, 0.1 / sqrt(2), 1e-12);
	assert_float_equal(lo, 1.35 * exp(-0.1 * T4) - 1, 1e-6);
	assert_float_equal(hi, 1.35 * exp(0.1 * T4) - 1, 1e-6);
	/* On the log scale: the arms are not equal on the fraction's. */
	assert_true(hi - 0.35 > 0.35 - lo);
	/* The store's level as large as se: the arm grows by sqrt(2) (0.1 x sqrt(2) x t_4). */
	pcost_rerun_widen(0.35, se, 5, se, 0.95, &lo, &hi);
	assert_float_equal(lo, 1.35 * exp(-0.1 * sqrt(2) * T4) - 1, 1e-6);
	assert_float_equal(hi, 1.35 * exp(0.1 * sqrt(2) * T4) - 1, 1e-6);
	/* Not measured (NAN): left as it was. */
	pcost_rerun_widen(0.35, se, 5, NAN, 0.95, &lo, &hi);
	assert_float_equal(hi, 1.35 * exp(0.1 * sqrt(2) * T4) - 1, 1e-6);
}

static void test_too_few(void **state)
{
	double x[11], y[11], lo = 0, hi = 0;
	size_t used;

	(void)state;
	for (size_t i = 0; i < 11; i++) {
		x[i] = 3 + (double)i;
		y[i] = 1;
	}
	/* 4 sub-sessions (3 df): not measured. */
	assert_false(
		pcost_rerun_ci(first, 4, x, y, blocks, 11, true, 1, 0.95, &lo, &hi, NULL, &used));
	assert_int_equal(used, 4);
	assert_true(isnan(lo) && isnan(hi));
	/* A sub-session without a pair (blocks 9 and 10 failed) does not count. */
	assert_false(
		pcost_rerun_ci(first, 5, x, y, blocks, 9, false, 1, 0.95, &lo, &hi, NULL, &used));
	assert_int_equal(used, 4);
	/* An overhead that is not finite: nothing. */
	assert_false(
		pcost_rerun_ci(first, 5, x, y, blocks, 11, true, NAN, 0.95, &lo, &hi, NULL, &used));
}

/*
 * The floor: a rerun differs from this session by two samplings and the level between
 * launches, so the rerun interval reaches at least 2.5 times as far, each side, as the
 * session's own; where the sub-sessions already reach farther, it is left as it was.
 */
static void test_floor(void **state)
{
	double lo = 15, hi = 25;

	(void)state;
	/* Differences: own [10, 30] around 20 -> [20 - 25, 20 + 25]. */
	pcost_rerun_floor(20, 10, 30, false, &lo, &hi);
	assert_float_equal(lo, -5, 1e-9);
	assert_float_equal(hi, 45, 1e-9);
	/* Wider already (the sub-sessions saw more spread): unchanged. */
	lo = -10;
	hi = 50;
	pcost_rerun_floor(20, 10, 30, false, &lo, &hi);
	assert_float_equal(lo, -10, 0);
	assert_float_equal(hi, 50, 0);
	/* One side only: the sub-sessions reach the low side, not the high one. */
	lo = -10;
	hi = 25;
	pcost_rerun_floor(20, 10, 30, false, &lo, &hi);
	assert_float_equal(lo, -10, 0);
	assert_float_equal(hi, 45, 1e-9);
	/* A ratio, on the log(1 + x) scale, each side its own distance (a skewed own
	 * interval stays skewed): +35% [+30, +42]. */
	lo = 0.33;
	hi = 0.37;
	pcost_rerun_floor(0.35, 0.30, 0.42, true, &lo, &hi);
	assert_float_equal(lo, expm1(log(1.35) - 2.5 * (log(1.35) - log(1.30))), 1e-12);
	assert_float_equal(hi, expm1(log(1.35) + 2.5 * (log(1.42) - log(1.35))), 1e-12);
	/* Not measured (null) stays null; an own interval not measured changes nothing. */
	lo = hi = NAN;
	pcost_rerun_floor(0.35, 0.30, 0.42, true, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	lo = 0.33;
	hi = 0.37;
	pcost_rerun_floor(0.35, NAN, 0.42, true, &lo, &hi);
	assert_float_equal(lo, 0.33, 0);
	assert_float_equal(hi, 0.37, 0);
}

static void test_option(void **state)
{
	struct pcost_session s = { 0 };
	uint32_t *f;

	(void)state;
	s.options_json = xstrdup("{\"runs\": 10, \"subsessions\": [1, 3, 5, 7, 9]}");
	assert_int_equal(pcost_rerun_subsessions(&s, &f), 5);
	assert_memory_equal(f, first, sizeof(first));
	free(f);
	free(s.options_json);
	/* Not ascending, not a number, absent: not split. */
	s.options_json = xstrdup("{\"subsessions\": [1, 3, 3]}");
	assert_int_equal(pcost_rerun_subsessions(&s, &f), 0);
	assert_null(f);
	free(s.options_json);
	s.options_json = xstrdup("{\"subsessions\": [1, \"x\"]}");
	assert_int_equal(pcost_rerun_subsessions(&s, &f), 0);
	free(s.options_json);
	s.options_json = NULL;
	assert_int_equal(pcost_rerun_subsessions(&s, &f), 0);
	assert_null(f);
}

static void test_change_floor(void **state)
{
	double down, up, f = 2.5 / sqrt(2.0);

	(void)state;
	/* Two sessions of own arms 0.1 each side, sub-sessions that agree (h 0.05): 2.5 x 0.1. */
	pcost_rerun_change_floor(0.05, 0.1, 0.1, 0.1, 0.1, &down, &up);
	assert_float_equal(down, 0.25, 1e-12);
	assert_float_equal(up, 0.25, 1e-12);
	/* The sub-sessions saw more spread: theirs. */
	pcost_rerun_change_floor(0.4, 0.1, 0.1, 0.1, 0.1, &down, &up);
	assert_float_equal(down, 0.4, 0);
	assert_float_equal(up, 0.4, 0);
	/* Skewed own intervals: below, b's lower and a's upper arm; above, the other two. */
	pcost_rerun_change_floor(0, 0.02, 0.06, 0.03, 0.08, &down, &up);
	assert_float_equal(down, f * hypot(0.03, 0.06), 1e-12);
	assert_float_equal(up, f * hypot(0.08, 0.02), 1e-12);
	/* An arm not measured counts as 0; h not measured, too. */
	pcost_rerun_change_floor(NAN, NAN, 0.1, 0.1, NAN, &down, &up);
	assert_float_equal(down, f * hypot(0.1, 0.1), 1e-12);
	assert_float_equal(up, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_difference), cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_too_few),	   cmocka_unit_test(test_floor),
		cmocka_unit_test(test_option),	   cmocka_unit_test(test_change_floor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
