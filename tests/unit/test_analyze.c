// SPDX-License-Identifier: MIT
/* test_analyze: paired overheads, failures, warm-up and the --scale fit on a hand-made session. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "stats/analyze.h"
#include "monitors/monitor.h"

static void add(struct pcost_config *c, uint32_t block, pcost_ns wall, bool warm, bool failed,
		uint64_t events, double scale)
{
	struct pcost_run_sample x = { .block = block, .wall_ns = wall, .warmup = warm,
				      .failed = failed, .events = events, .scale = scale,
				      .monitor_events = -1, .user_ns = wall / 2, .sys_ns = wall / 4 };

	pcost_config_add_sample(c, &x);
}

static void test_paired(void **state)
{
	struct pcost_session s;
	struct pcost_config *b, *m;
	struct pcost_config_stats *st;
	static const pcost_ns base[] = { 1000, 1020, 980, 1000 };

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	s.seed = 1;
	s.tsc_hz = 2e9;
	b = pcost_session_add_config(&s, "pipe", "loops=100", "none", NULL, "round-trip");
	m = pcost_session_add_config(&s, "pipe", "loops=100", "strace", NULL, "round-trip");
	b = &s.configs[0];
	add(b, 0, 5000, true, false, 100, 1);	/* warm-up: ignored */
	add(m, 0, 9000, true, false, 100, 1);
	for (uint32_t k = 0; k < 4; k++) {
		add(b, k + 1, base[k], false, false, 100, 1);
		/* Exactly 10% more in every block: every bootstrap resample says 0.10. */
		add(m, k + 1, base[k] * 11 / 10, false, false, 100, 1);
	}
	add(m, 5, 1, false, true, 0, 1);	/* failed: counted, never averaged */
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_int_equal(st[0].baseline, -1);
	assert_int_equal(st[1].baseline, 0);
	assert_int_equal(st[0].nok, 4);
	assert_int_equal(st[1].nok, 4);
	assert_int_equal(st[1].nfailed, 1);
	assert_true(fabs(st[0].wall.mean - 1000) < 1e-9);
	assert_true(fabs(st[1].overhead - 0.10) < 1e-12);
	assert_true(fabs(st[1].overhead_lo - 0.10) < 1e-12);
	assert_true(fabs(st[1].overhead_hi - 0.10) < 1e-12);
	assert_true(fabs(st[1].extra_ns - 100) < 1e-9);
	assert_true(fabs(st[1].extra_cycles - 200) < 1e-9); /* 100 ns x 2 GHz */
	assert_int_equal(st[1].events, 100);
	assert_true(fabs(st[1].per_event_ns - 1.0) < 1e-12);
	assert_true(st[1].p_value < 0.01);
	assert_true(st[1].significant);
	assert_true(fabs(st[0].cpu_util - 0.75) < 1e-9);
	assert_true(isnan(st[0].overhead));
	free(st);
	pcost_session_release(&s);
}

/* --scale: extra = 500 + 2 x events exactly -> fixed 500, slope 2, R^2 1. */
static void test_fit(void **state)
{
	struct pcost_session s;
	struct pcost_config_stats *st;
	static const double scales[] = { 1, 2, 4 };

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	for (int k = 0; k < 3; k++) {
		char args[32];
		uint64_t ev = (uint64_t)(1000 * scales[k]);

		snprintf(args, sizeof(args), "loops=%llu", (unsigned long long)ev);
		pcost_session_add_config(&s, "pipe", args, "none", NULL, "round-trip");
		pcost_session_add_config(&s, "pipe", args, "perf-record", NULL, "round-trip");
		for (uint32_t b = 0; b < 3; b++) {
			add(&s.configs[2 * k], b, 10 * ev + b, false, false, ev, scales[k]);
			add(&s.configs[2 * k + 1], b, 10 * ev + b + 500 + 2 * ev, false, false, ev,
			    scales[k]);
		}
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_true(st[1].has_fit && st[3].has_fit && st[5].has_fit);
	assert_true(fabs(st[1].fit_fixed_ns - 500) < 1e-6 + 1);
	assert_true(fabs(st[1].fit_per_event_ns - 2) < 1e-3);
	assert_true(st[1].fit_r2 > 0.99999); /* +-1 ns of block noise */
	/* The baseline fits plain wall time: about 10 ns per event. */
	assert_true(st[0].has_fit && fabs(st[0].fit_per_event_ns - 10) < 1e-3);
	free(st);
	pcost_session_release(&s);
}

static void test_argv_split(void **state)
{
	char **v;

	(void)state;
	assert_int_equal(pcost_argv_split("pfmon --follow-fork  'a b' \"c'd\" {}", &v), 5);
	assert_string_equal(v[0], "pfmon");
	assert_string_equal(v[1], "--follow-fork");
	assert_string_equal(v[2], "a b");
	assert_string_equal(v[3], "c'd");
	assert_string_equal(v[4], "{}");
	assert_null(v[5]);
	pcost_argv_free(v);
	assert_int_equal(pcost_argv_split("x 'open", &v), -EINVAL);
	assert_int_equal(pcost_argv_split("   ", &v), -EINVAL);
	/* No expansion of any kind. */
	assert_int_equal(pcost_argv_split("$HOME *; rm", &v), 3);
	assert_string_equal(v[0], "$HOME");
	assert_string_equal(v[1], "*;");
	pcost_argv_free(v);
}

static void test_launch(void **state)
{
	static char *const work[] = { "w", "k=1", NULL };
	static char *const pre[] = { "strace", "-f", "--" };
	struct pcost_launch l;

	(void)state;
	pcost_launch_init(&l, work);
	pcost_launch_insert(&l, 0, pre, 3);
	assert_int_equal(l.argc, 5);
	assert_string_equal(l.argv[0], "strace");
	assert_string_equal(l.argv[3], "w");
	assert_null(l.argv[5]);
	pcost_launch_setenv(&l, "A", "1");
	pcost_launch_setenv(&l, "A", "2");
	assert_int_equal(l.nenv, 1);
	assert_string_equal(l.env[0], "A=2");
	pcost_launch_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_argv_split),
		cmocka_unit_test(test_launch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
