// SPDX-License-Identifier: MIT
/* test_outcheck: --check-output's digest of a run's stdout and its comparison (run/outcheck.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "run/outcheck.h"

/* text fed to a digest through oc's filter, in pieces of at most piece bytes. */
static void digest(struct pcost_outdigest *d, const struct pcost_outcheck *oc, const char *text,
		   size_t piece)
{
	size_t n = strlen(text);

	pcost_outdigest_init(d, oc);
	for (size_t i = 0; i < n; i += piece)
		pcost_outdigest_feed(d, text + i, n - i < piece ? n - i : piece);
	pcost_outdigest_end(d);
}

/* The same lines make the same digest however they come; a line's end counts. */
static void digests(void **state)
{
	struct pcost_outdigest a, b;

	(void)state;
	digest(&a, NULL, "one\ntwo\nthree\n", 1000);
	digest(&b, NULL, "one\ntwo\nthree\n", 1);
	assert_true(a.hash == b.hash);
	assert_int_equal(a.lines, 3);
	assert_int_equal(a.kept, 3);
	assert_string_equal(a.text, "one\ntwo\nthree\n");
	pcost_outdigest_release(&b);
	/* An unended last line is a line, the same as ended. */
	digest(&b, NULL, "one\ntwo\nthree", 2);
	assert_true(a.hash == b.hash);
	pcost_outdigest_release(&b);
	digest(&b, NULL, "one\ntwothree\n", 1000);
	assert_false(a.hash == b.hash);
	pcost_outdigest_release(&b);
	/* A NUL byte: in the digest, and shown as '?' in the text kept. */
	pcost_outdigest_init(&b, NULL);
	pcost_outdigest_feed(&b, "a\0b\nc\n", 6);
	pcost_outdigest_end(&b);
	assert_int_equal(b.kept, 2);
	assert_int_equal(b.len, 6);
	assert_string_equal(b.text, "a?b\nc\n");
	pcost_outdigest_release(&b);
	pcost_outdigest_release(&a);
}

/* A plain output and runs compared with it, with and without a filter. */
static void compares(void **state)
{
	char why[240] = "";
	struct pcost_outcheck *oc = pcost_outcheck_new(NULL, why, sizeof(why));
	struct pcost_outdigest p, x;

	(void)state;
	assert_non_null(oc);
	digest(&x, oc, "a\nb\n", 1000);
	/* No plain run yet: nothing to compare with. */
	assert_false(pcost_outcheck_differs(oc, 7, &x, "plain", why, sizeof(why)));
	digest(&p, oc, "started\ntraced: no\ndone\n", 1000);
	pcost_outcheck_plain(oc, 7, &p);
	pcost_outdigest_release(&p);
	pcost_outdigest_release(&x);
	digest(&x, oc, "started\ntraced: no\ndone\n", 3);
	assert_false(pcost_outcheck_differs(oc, 7, &x, "plain", why, sizeof(why)));
	pcost_outdigest_release(&x);
	digest(&x, oc, "started\ntraced: yes\ndone\n", 1000);
	assert_true(pcost_outcheck_differs(oc, 7, &x, "dormant", why, sizeof(why)));
	assert_string_equal(why, "stdout differs from the dormant runs' at line 2: 'traced: yes' "
				 "(dormant: 'traced: no')");
	/* Another target's plain output is not this one's. */
	assert_false(pcost_outcheck_differs(oc, 8, &x, "plain", why, sizeof(why)));
	pcost_outdigest_release(&x);
	digest(&x, oc, "started\ntraced: no\n", 1000);
	assert_true(pcost_outcheck_differs(oc, 7, &x, "plain", why, sizeof(why)));
	assert_string_equal(why, "stdout differs from the plain runs' at line 3: nothing more "
				 "(plain: 'done')");
	pcost_outdigest_release(&x);
	/* A second plain output (the program varies by itself): either one is the program's. */
	digest(&p, oc, "started\ntraced: maybe\ndone\n", 1000);
	pcost_outcheck_plain(oc, 7, &p);
	pcost_outdigest_release(&p);
	digest(&x, oc, "started\ntraced: maybe\ndone\n", 1000);
	assert_false(pcost_outcheck_differs(oc, 7, &x, "plain", why, sizeof(why)));
	pcost_outdigest_release(&x);
	pcost_outcheck_free(oc);

	/* The filter's lines are not compared; line numbers stay the output's own. */
	oc = pcost_outcheck_new("^took [0-9]+ ns$", why, sizeof(why));
	assert_non_null(oc);
	digest(&p, oc, "took 10 ns\nsum 3\n", 1000);
	assert_int_equal(p.lines, 2);
	assert_int_equal(p.kept, 1);
	pcost_outcheck_plain(oc, 0, &p);
	pcost_outdigest_release(&p);
	digest(&x, oc, "took 99 ns\nsum 3\n", 1000);
	assert_false(pcost_outcheck_differs(oc, 0, &x, "plain", why, sizeof(why)));
	pcost_outdigest_release(&x);
	digest(&x, oc, "took 99 ns\nsum 4\n", 1000);
	assert_true(pcost_outcheck_differs(oc, 0, &x, "plain", why, sizeof(why)));
	assert_string_equal(why, "stdout differs from the plain runs' at line 2: 'sum 4' "
				 "(plain: 'sum 3')");
	pcost_outdigest_release(&x);
	pcost_outcheck_free(oc);
	/* A filter that does not compile: NULL and regerror's words. */
	assert_null(pcost_outcheck_new("(", why, sizeof(why)));
	assert_true(why[0] != '\0');
}

/* Past the text kept: the digest still tells them apart, the line is not named. */
static void long_output(void **state)
{
	static char big[PCOST_OUTCHECK_TEXT + 4096];
	char why[240];
	struct pcost_outcheck *oc = pcost_outcheck_new(NULL, why, sizeof(why));
	struct pcost_outdigest p, x;
	size_t n = 0;

	(void)state;
	while (n + 8 < sizeof(big) - 16)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "line %02zu\n", (n / 8) % 100);
	digest(&p, oc, big, 4096);
	assert_true(p.cut);
	pcost_outcheck_plain(oc, 0, &p);
	pcost_outdigest_release(&p);
	strcpy(big + n, "extra\n");
	digest(&x, oc, big, 4096);
	assert_true(pcost_outcheck_differs(oc, 0, &x, "plain", why, sizeof(why)));
	assert_non_null(strstr(why, "after its first "));
	pcost_outdigest_release(&x);
	pcost_outcheck_free(oc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(digests),
		cmocka_unit_test(compares),
		cmocka_unit_test(long_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
