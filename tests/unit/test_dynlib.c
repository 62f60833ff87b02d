// SPDX-License-Identifier: MIT
/* test_dynlib: a library bound on first use: every symbol or none, a failure said once and kept. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/dynlib.h"

static double (*p_cos)(double);
static double (*p_sqrt)(double);
static void *p_missing;

/* libm's cos and sqrt, bound and called: the answers are libm's own. */
static void test_binds(void **st)
{
	static const char *const names[] = { "cos", "sqrt" };
	static void **const slots[] = { (void **)&p_cos, (void **)&p_sqrt };
	struct pcost_dynlib l = {
		.soname = "libm.so.6", .package = "libc6", .names = names, .slots = slots, .n = 2
	};

	assert_true(pcost_dynlib_load(&l));
	assert_int_equal(l.state, 1);
	assert_non_null(p_cos);
	assert_true(p_cos(0.0) == 1.0);
	assert_true(p_sqrt(2.25) == 1.5);
	assert_true(pcost_dynlib_load(&l)); /* loaded once, kept */
}

/* A library that is not there: false, one line with the soname and the package, kept. */
static void test_no_library(void **st)
{
	static const char *const names[] = { "cos" };
	static void **const slots[] = { (void **)&p_cos };
	struct pcost_dynlib l = { .soname = "libpcost-no-such.so.9",
				  .package = "libpcost-nothing9",
				  .names = names,
				  .slots = slots,
				  .n = 1 };

	assert_false(pcost_dynlib_load(&l));
	assert_int_equal(l.state, -1);
	assert_non_null(strstr(l.err, "libpcost-no-such.so.9 could not be loaded ("));
	assert_non_null(strstr(l.err, "): install the Debian package libpcost-nothing9"));
	assert_null(strchr(l.err, '\n'));
	assert_false(pcost_dynlib_load(&l)); /* not retried */
}

/* A symbol the library lacks: false, that symbol named, and no slot left half bound. */
static void test_no_symbol(void **st)
{
	static const char *const names[] = { "cos", "pcost_no_such_symbol", "sqrt" };
	static void **const slots[] = { (void **)&p_cos, &p_missing, (void **)&p_sqrt };
	struct pcost_dynlib l = {
		.soname = "libm.so.6", .package = "libc6", .names = names, .slots = slots, .n = 3
	};

	p_cos = NULL;
	p_sqrt = NULL;
	assert_false(pcost_dynlib_load(&l));
	assert_non_null(strstr(l.err, "libm.so.6 has no pcost_no_such_symbol ("));
	assert_null(p_cos);
	assert_null(p_missing);
	assert_null(p_sqrt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binds),
		cmocka_unit_test(test_no_library),
		cmocka_unit_test(test_no_symbol),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
