// SPDX-License-Identifier: MIT
/* test_warnings: the run's warning lines on a synthetic session with known figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/result.h"
#include "core/util.h"
#include "report/warnings.h"

/* The one warning line that starts with prefix, or NULL. */
static const char *line(const struct pcost_run_warnings *w, const char *prefix)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strncmp(w->msg[i], prefix, strlen(prefix)))
			return w->msg[i];
	return NULL;
}

/*
 * An adaptive run stopped at --max-runs with its overhead still wider than
 * asked (report/warnings.c, run_precision): each longer arm is told in points
 * to three figures, and a wide one in whole points, never in exponent form
 * (a busy CI machine left +10% [-1407, +1427] after 4 blocks: "1.42e+03" did
 * not read as a number).
 */
static void precision_arms(void **state)
{
	static const double arm[] = { 14.171876, 0.0123456 }, ov[] = { 0.10, 0.20 };
	struct pcost_config_stats st[2];
	struct pcost_run_warnings w = { 0 };
	struct pcost_session s;
	const char *l;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	s.options_json = xstrdup("{\"runs\":0,\"precision\":0.00001,\"precision_rel\":0,"
				 "\"max_runs\":7,\"max_time_s\":60}");
	memset(st, 0, sizeof(st));
	for (size_t i = 0; i < 2; i++) {
		pcost_session_add_config(&s, "command", NULL, i ? "perf-stat" : "strace", NULL,
					 "run");
		st[i].baseline = 0;
		st[i].npairs = 4;
		st[i].overhead = ov[i];
		st[i].overhead_lo = ov[i] - arm[i] / 2;
		st[i].overhead_hi = ov[i] + arm[i];
	}
	pcost_stat_warnings(&s, st, &w);
	l = line(&w, "overhead wider than");
	assert_non_null(l);
	assert_string_equal(l, "overhead wider than --precision +-0.001 points after 4 blocks "
			       "(--max-runs 7, --max-time 60 s), longer arm: strace on command "
			       "(1417), perf-stat on command (1.23); raise a limit or the "
			       "precision");
	/* A relative ask: each arm with what it was asked, in the same form. */
	free(s.options_json);
	s.options_json = xstrdup("{\"runs\":0,\"precision\":0,\"precision_rel\":0.001,"
				 "\"max_runs\":4,\"max_time_s\":60}");
	st[0].overhead = 15000, st[0].overhead_lo = 14000, st[0].overhead_hi = 16000;
	w.n = 0;
	pcost_stat_warnings(&s, st, &w);
	l = line(&w, "overhead wider than");
	assert_non_null(l);
	assert_non_null(strstr(l, "longer arm: strace on command (100000 of 1500), "
				  "perf-stat on command (1.23 of 0.02);"));
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(precision_arms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
