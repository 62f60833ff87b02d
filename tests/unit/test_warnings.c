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

/*
 * Skewed figures (report/warnings.c): the overhead's line names the extra time
 * when it is skewed with it (the same per-block differences), the extra time
 * has a line of its own when the overhead is not told, and so has the fixed cost.
 */
static void skewed_lines(void **state)
{
	struct pcost_config_stats st = { 0 };
	struct pcost_run_warnings w = { 0 };
	struct pcost_session s;
	const char *l;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_config(&s, "spin", "loops=500", "strace", NULL, "spin");
	st.baseline = -1; /* the warnings of a monitored row; no run options: no precision line */
	st.overhead = 0.12, st.overhead_lo = 0.08, st.overhead_hi = 0.16;
	st.overhead_robust = 0.06, st.overhead_robust_lo = 0.04, st.overhead_robust_hi = 0.09;
	st.extra_ns = 7500, st.extra_ns_lo = 1550, st.extra_ns_hi = 28700;
	st.extra_ns_robust = 5500, st.extra_ns_robust_lo = 2000, st.extra_ns_robust_hi = 9000;
	st.overhead_skewed = st.extra_skewed = true;
	pcost_stat_warnings(&s, &st, &w);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.msg[0],
			    "strace on spin: overhead mean +12.0% [+8.0, +16.0], robust "
			    "+6.0% [+4.0, +9.0] (Hodges-Lehmann): the cost is skewed, and "
			    "the extra time a run with it; rare slow runs carry the mean");
	/* The extra time alone. */
	st.overhead_skewed = false;
	w.n = 0;
	pcost_stat_warnings(&s, &st, &w);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.msg[0], "strace on spin: extra time mean 7.5 [1.6, 28.7] us/run, "
				      "robust 5.5 [2.0, 9.0] us/run (Hodges-Lehmann): the cost is "
				      "skewed; rare slow runs carry the mean");
	/* The fixed cost, its mean below its robust figure: slow baseline runs. */
	st.extra_skewed = false;
	st.fixed_skewed = true;
	st.fixed_ns = 40000, st.fixed_ns_lo = 10000, st.fixed_ns_hi = 70000;
	st.fixed_ns_robust = 52000, st.fixed_ns_robust_lo = 45000, st.fixed_ns_robust_hi = 60000;
	w.n = 0;
	pcost_stat_warnings(&s, &st, &w);
	assert_int_equal(w.n, 1);
	l = line(&w,
		 "strace on spin: fixed mean 40.0 [10.0, 70.0] us/run, robust 52.0 [45.0, 60.0]");
	assert_non_null(l);
	assert_non_null(
		strstr(l, "the cost is skewed; rare slow baseline runs pull the mean down"));
	pcost_session_release(&s);
}

/*
 * A --metric figure's skewed change (test_figures' known answers: +11% by the
 * mean, -10% [-10, +64.3] robust) gets the overhead's kind of line.
 */
static void figure_skew_line(void **state)
{
	struct pcost_config_stats *st;
	struct pcost_run_warnings w = { 0 };
	struct pcost_session s;
	const char *l;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_metric(&s, "tps", "tps", 1);
	pcost_session_add_config(&s, "command", "x", "none", NULL, "event");
	pcost_session_add_config(&s, "command", "x", "strace", NULL, "event");
	for (uint32_t k = 0; k < 20; k++) {
		struct pcost_run_sample x = { .block = k / 2, .scale = 1, .wall_ns = 1000 };

		x.metrics = xcalloc(1, sizeof(double));
		x.metrics[0] = k % 2 == 0 ? 100 : k == 13 ? 300 : 90;
		pcost_config_add_sample(&s.configs[k % 2], &x);
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	pcost_stat_warnings(&s, st, &w);
	l = line(&w, "strace on command: tps change mean +11.0% [");
	assert_non_null(l);
	assert_non_null(strstr(l, "], robust -10.0% [-10.0, +64.3] (Hodges-Lehmann): the change "
				  "is skewed; a few runs carry the mean"));
	assert_null(line(&w, "none on command: tps"));
	free(st);
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(precision_arms),
		cmocka_unit_test(skewed_lines),
		cmocka_unit_test(figure_skew_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
