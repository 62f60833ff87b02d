// SPDX-License-Identifier: MIT
/* test_injected: the inject monitor's per-run draws have the mean, spread and hiccup share asked. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "workloads/injected.h"

#define DRAWS 40000

/* Mean and CoV of DRAWS runs' event cost (in units of the 1000 ns asked), hiccup share. */
static void draws(double *mean, double *cov, double *hiccups)
{
	double s = 0, s2 = 0;
	size_t h = 0;

	for (int i = 0; i < DRAWS; i++) {
		struct pcost_wl_injected j;
		double x;

		pcost_wl_injected_draw(&j);
		x = (double)j.event_ns / 1000;
		s += x;
		s2 += x * x;
		h += j.hiccup_ns == 5000;
		/* the fixed cost is scaled by the same factor */
		assert_true(llabs((long long)j.fixed_ns - llround(j.factor * 20000)) <= 1);
	}
	*mean = s / DRAWS;
	*cov = sqrt((s2 - s * s / DRAWS) / (DRAWS - 1)) / *mean;
	*hiccups = (double)h / DRAWS;
}

static void test_draws(void **state)
{
	double m, c, h;

	(void)state;
	setenv("PCOST_INJECT_EVENT_NS", "1000", 1);
	setenv("PCOST_INJECT_FIXED_NS", "20000", 1);
	unsetenv("PCOST_INJECT_DIST");
	draws(&m, &c, &h);
	assert_true(m == 1 && c == 0 && h == 0); /* const: exactly what was asked */

	/* Normal, CoV 0.1: se of the mean 0.1 / sqrt(40000) = 0.0005; of the sd about 0.00035. */
	setenv("PCOST_INJECT_DIST", "normal", 1);
	setenv("PCOST_INJECT_COV", "0.1", 1);
	draws(&m, &c, &h);
	assert_true(fabs(m - 1) < 0.003);
	assert_true(fabs(c - 0.1) < 0.004);

	/*
	 * Lognormal, CoV 1: sigma^2 = ln 2, so the mean 1 has se 1 / sqrt(40000) =
	 * 0.005; the sample CoV of a lognormal is slow to settle (its fourth
	 * moment is 2^6 = 64 times the squared variance), so a looser bound.
	 */
	setenv("PCOST_INJECT_DIST", "lognormal", 1);
	setenv("PCOST_INJECT_COV", "1", 1);
	draws(&m, &c, &h);
	assert_true(fabs(m - 1) < 0.03);
	assert_true(c > 0.8 && c < 1.2);

	/* Hiccups in 2% of the runs: se sqrt(0.02 x 0.98 / 40000) = 0.0007. */
	unsetenv("PCOST_INJECT_DIST");
	setenv("PCOST_INJECT_HICCUP", "0.02", 1);
	setenv("PCOST_INJECT_HICCUP_NS", "5000", 1);
	draws(&m, &c, &h);
	assert_true(fabs(h - 0.02) < 0.004);
	assert_true(m == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_draws),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
