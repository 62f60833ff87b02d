// SPDX-License-Identifier: MIT
/* test_analyze: paired overheads, failures, warm-up and the --scale fit on a hand-made session. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
	pcost_session_add_config(&s, "pipe", "loops=100", "none", NULL, "round-trip");
	m = pcost_session_add_config(&s, "pipe", "loops=100", "strace", NULL, "round-trip");
	b = &s.configs[0]; /* after m: adding m may move the array */
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
	/* No timed region and one size: the extra time is not split into two costs. */
	assert_true(isnan(st[1].per_event_ns) && isnan(st[1].fixed_ns));
	assert_non_null(st[1].per_event_why);
	assert_true(st[1].p_value < 0.01);
	assert_true(st[1].significant);
	assert_true(fabs(st[0].cpu_util - 0.75) < 1e-9);
	assert_true(isnan(st[0].overhead));
	free(st);
	pcost_session_release(&s);
}


/* A measured sample with a timed region. */
static void add_timed(struct pcost_config *c, uint32_t block, double wall, double timed,
		      uint64_t events, double scale)
{
	struct pcost_run_sample x = { .block = block, .wall_ns = (pcost_ns)wall,
				      .timed_ns = (pcost_ns)timed, .events = events, .scale = scale,
				      .monitor_events = -1 };

	pcost_config_add_sample(c, &x);
}

#define NEAR(a, b, tol) do { if (!(fabs((a) - (b)) <= (tol))) \
	fail_msg("%s = %.12g, want %.12g", #a, (double)(a), (double)(b)); } while (0)

/*
 * 5 blocks: the overhead interval is Fieller's with t(4) = 2.776, not a
 * percentile bootstrap (which gave about 1.75 sd/sqrt(n), too narrow); the
 * extra time's is the paired t interval; p the paired t test.  Reference
 * values from Python's statistics module and mpmath (quadrature of the t density).
 */
static void test_paired_t_intervals(void **state)
{
	static const double y[] = { 1000, 1100, 950, 1050, 1000 }, x[] = { 1100, 1180, 1060, 1150, 1090 };
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_config(&s, "syscall", "loops=10", "none", NULL, "syscall");
	pcost_session_add_config(&s, "syscall", "loops=10", "strace", NULL, "syscall");
	for (uint32_t b = 0; b < 5; b++) {
		add(&s.configs[0], b, (pcost_ns)y[b], false, false, 10, 1);
		add(&s.configs[1], b, (pcost_ns)x[b], false, false, 10, 1);
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	NEAR(st[1].overhead, 0.09411764705882364, 1e-12);
	NEAR(st[1].overhead_lo, 0.07573027531451948, 1e-9);
	NEAR(st[1].overhead_hi, 0.11497944214064804, 1e-9);
	NEAR(st[1].extra_ns, 96, 1e-9);
	NEAR(st[1].extra_ns_lo, 81.84285223017726, 1e-6);
	NEAR(st[1].extra_ns_hi, 110.15714776982274, 1e-6);
	NEAR(st[1].p_value, 4.68693255316292e-5, 1e-9);
	assert_int_equal(st[1].npairs, 5);
	/* TSC unknown: no cycle figure at all, rather than 0. */
	assert_true(isnan(st[1].extra_cycles) && isnan(st[1].extra_cycles_lo));
	free(st);
	pcost_session_release(&s);
}

/*
 * Blocks drift by 2x, the monitor adds 1% in every block: unpaired (Welch)
 * sees nothing, the paired design sees it plainly.
 */
static void test_significance_is_paired(void **state)
{
	static const double y[] = { 1000, 2000, 1500, 1200, 1800 }, x[] = { 1010, 2021, 1514, 1213, 1817 };
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_config(&s, "pipe", "loops=10", "none", NULL, "round-trip");
	pcost_session_add_config(&s, "pipe", "loops=10", "perf-stat", NULL, "round-trip");
	for (uint32_t b = 0; b < 5; b++) {
		add(&s.configs[0], b, (pcost_ns)y[b], false, false, 10, 1);
		add(&s.configs[1], b, (pcost_ns)x[b], false, false, 10, 1);
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_true(pcost_welch_p(x, 5, y, 5) > 0.5);
	assert_true(st[1].p_value < 0.01);
	assert_true(st[1].significant);
	assert_true(st[1].overhead_lo > 0.005 && st[1].overhead_hi < 0.02);
	free(st);
	pcost_session_release(&s);
}

/*
 * A monitor that costs 1 ms to start and nothing inside the workload's loop
 * of 50,000 events: per event is 0 (from the timed region), fixed 1 ms --
 * not 1 ms / 50,000 = 20 ns per event.
 */
static void test_per_event_not_startup(void **state)
{
	static const double noise[] = { 0, 300, -200, 100, -150, 250 };
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_config(&s, "syscall", "loops=50000", "none", NULL, "syscall");
	pcost_session_add_config(&s, "syscall", "loops=50000", "perf-stat", NULL, "syscall");
	for (uint32_t b = 0; b < 6; b++) {
		double t = 10e6 + 1000 * b;

		add_timed(&s.configs[0], b, t + 2e6, t, 50000, 1);
		add_timed(&s.configs[1], b, t + noise[b] + 3e6, t + noise[b], 50000, 1);
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_string_equal(st[1].per_event_source, "timed region");
	NEAR(st[1].per_event_ns, 300.0 / 6 / 50000, 1e-12);
	assert_true(st[1].per_event_ns_lo < 0 && st[1].per_event_ns_hi > 0);
	assert_true(st[1].per_event_ns_hi < 0.01);
	NEAR(st[1].fixed_ns, 1e6, 1e-6);
	NEAR(st[1].fixed_ns_lo, 1e6, 1e-6);	/* the same 1 ms outside the region in every block */
	free(st);
	pcost_session_release(&s);
}

/*
 * --scale over two modes of one workload: pipe mode=process and mode=thread
 * are two fits (the old code pooled them into one), each with intervals for
 * both coefficients.  extra = 500 + 2 x events (process), 100 + 7 x events
 * (thread), +-1..3 ns of block noise.
 */
static void test_fit_groups_and_intervals(void **state)
{
	static const double scales[] = { 1, 2, 4 }, noise[] = { 0, 3, -2, 1 };
	static const char *const modes[] = { "process", "thread" };
	static const double fixed[] = { 500, 100 }, slope[] = { 2, 7 };
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	for (int m = 0; m < 2; m++)
		for (int k = 0; k < 3; k++) {
			char args[64];
			uint64_t ev = (uint64_t)(1000 * scales[k]);
			struct pcost_config *b, *c;

			snprintf(args, sizeof(args), "loops=%llu mode=%s", (unsigned long long)ev, modes[m]);
			pcost_session_add_config(&s, "pipe", args, "none", NULL, "round-trip");
			c = pcost_session_add_config(&s, "pipe", args, "strace", NULL, "round-trip");
			b = &s.configs[s.nconfigs - 2];
			for (uint32_t bl = 0; bl < 4; bl++) {
				double base = 10.0 * (double)ev + 50 * bl;

				add(b, bl, (pcost_ns)base, false, false, ev, scales[k]);
				add(c, bl, (pcost_ns)(base + fixed[m] + slope[m] * (double)ev + noise[(bl + k) % 4]),
				    false, false, ev, scales[k]);
			}
		}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	for (int m = 0; m < 2; m++) {
		const struct pcost_config_stats *x = &st[6 * m + 1];

		assert_true(x->has_fit);
		assert_int_equal(x->fit_group, 6 * m + 1);
		assert_int_equal(st[6 * m + 5].fit_group, 6 * m + 1);
		assert_int_equal(x->fit_nblocks, 4);
		NEAR(x->fit_per_event_ns, slope[m], 0.01);
		NEAR(x->fit_fixed_ns, fixed[m], 5);
		assert_true(x->fit_per_event_ns_lo < slope[m] && slope[m] < x->fit_per_event_ns_hi);
		assert_true(x->fit_fixed_ns_lo < fixed[m] && fixed[m] < x->fit_fixed_ns_hi);
		assert_true(x->fit_per_event_ns_hi - x->fit_per_event_ns_lo < 0.1);
		/* No timed region: the two costs come from the fit. */
		assert_string_equal(x->per_event_source, "scale fit");
		NEAR(x->per_event_ns, x->fit_per_event_ns, 1e-12);
	}
	free(st);
	pcost_session_release(&s);
}

/*
 * probes at scale 2: a probe build's dormant run is compared with the
 * no-probe build at scale 2, not at scale 1; and each armed configuration's
 * baseline is the dormant run of its own variant even when the arguments are
 * the same (a user's binary).
 */
static void test_probes_baselines(void **state)
{
	static const char *const vars[] = { "none", "plain" };
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	for (int k = 1; k <= 2; k++)
		for (int v = 0; v < 2; v++) {
			char args[64];
			struct pcost_config *c;

			snprintf(args, sizeof(args), "variant=%s kernel=towers scale=%d", vars[v], k);
			c = pcost_session_add_config(&s, "stanford", args, "dormant", vars[v], "hit");
			c->expected_events = 1000 * k;
			for (uint32_t b = 0; b < 3; b++)
				add_timed(c, b, 2e6 * k + 5000 + 10 * b, 1e6 * k + 2000 * v * k + b, 1000 * k, k);
		}
	/* A binary run by two variants' names with identical arguments: */
	pcost_session_add_config(&s, "command", "./a.out", "dormant", "plain", "hit");
	pcost_session_add_config(&s, "command", "./a.out", "dormant", "volatile", "hit");
	pcost_session_add_config(&s, "command", "./a.out", "uprobe", "volatile", "hit");
	for (uint32_t b = 0; b < 3; b++) {
		add(&s.configs[4], b, 1000, false, false, 0, 1);
		add(&s.configs[5], b, 2000, false, false, 0, 1);
		add(&s.configs[6], b, 2500, false, false, 0, 1);
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_int_equal(st[1].noprobe, 0);
	assert_int_equal(st[3].noprobe, 2);	/* scale 2 against scale 2 */
	NEAR(st[1].dormant_per_hit_ns, 2.0, 1e-9);
	NEAR(st[3].dormant_per_hit_ns, 2.0, 1e-9);
	assert_string_equal(st[3].dormant_source, "timed region");
	assert_int_equal(st[6].baseline, 5);	/* volatile's dormant, not plain's */
	NEAR(st[6].extra_ns, 500, 1e-9);
	free(st);
	pcost_session_release(&s);
}

/*
 * Two code layouts of each build: plain costs 1 ns per hit at the default
 * layout and 3 ns at a64 (the layout, not the probe, moved); the build's figure
 * is their mean, 2 ns, with the spread 1..3 and an interval from both.
 */
static void test_dormant_layouts(void **state)
{
	static const char *const lay[] = { "", " layout=a64" };
	static const double per_hit[] = { 1, 3 }, noise[] = { 10, 40, -40, -10 };
	struct pcost_session s;
	struct pcost_config_stats *st;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	for (int l = 0; l < 2; l++)
		for (int v = 0; v < 2; v++) {
			char args[96];
			struct pcost_config *c;

			snprintf(args, sizeof(args), "variant=%s scale=1 kernel=all%s", v ? "plain" : "none",
				 lay[l]);
			c = pcost_session_add_config(&s, "stanford", args, "dormant", v ? "plain" : "none",
						     "hit");
			c->expected_events = 1000;
			for (uint32_t b = 0; b < 4; b++)
				add_timed(c, b, 2e6, 1e6 + b * 100 + v * (1000 * per_hit[l] + noise[b]), 1000, 1);
		}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_int_equal(st[1].noprobe, 0);
	assert_int_equal(st[3].noprobe, 2);
	NEAR(st[1].dormant_per_hit_ns, 1, 1e-9);
	NEAR(st[3].dormant_per_hit_ns, 3, 1e-9);
	assert_int_equal(st[1].dormant_layouts, 2);
	NEAR(st[1].dormant_all_per_hit_ns, 2, 1e-9);
	NEAR(st[3].dormant_all_per_hit_ns, 2, 1e-9);
	NEAR(st[1].dormant_spread_min, 1, 1e-9);
	NEAR(st[1].dormant_spread_max, 3, 1e-9);
	assert_true(st[1].dormant_all_per_hit_ns_lo < 2 && st[1].dormant_all_per_hit_ns_hi > 2);
	/* Two layouts of equal noise: half the variance of one, over more df. */
	assert_true(st[1].dormant_all_per_hit_ns_hi - 2 < st[1].dormant_per_hit_ns_hi - 1);
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

/*
 * probes --sites: armed at nop costs 1000 + 10b ns per hit in block b, at nop5
 * 500 + 4(b % 2) ns, each over its own dormant run (whose time differs by
 * site): the gain is mean(nop)/mean(nop5) with an interval around it, for the
 * uprobe workload (variant named after its insn) and stanford (site=).
 */
static void test_site_gain(void **state)
{
	static const char *const sites[] = { "nop", "nop5" };
	struct pcost_session s;
	struct pcost_config_stats *st;
	double x = 0, y = 0;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_PROBES);
	for (int w = 0; w < 2; w++)
		for (int k = 0; k < 2; k++)
			for (int m = 0; m < 2; m++) {
				char args[64];
				struct pcost_config *c;

				if (w == 0)
					snprintf(args, sizeof(args), "insn=%s threads=1 loops=1000", sites[k]);
				else
					snprintf(args, sizeof(args), "variant=plain site=%s scale=1", sites[k]);
				c = pcost_session_add_config(&s, w ? "stanford" : "uprobe", args,
							     m ? "uprobe" : "dormant",
							     w ? "plain" : sites[k], "hit");
				c->expected_events = 1000;
				for (uint32_t b = 1; b <= 5; b++) {
					double d = 1e6 + 7000 * k + 300 * b, per = 0;

					if (m)
						per = k ? 500 + 4 * (b % 2) : 1000 + 10 * b;
					add_timed(c, b, 2 * d, d + per * 1000, 1000, 1);
					if (m && w == 0)
						*(k ? &y : &x) += per / 5;
				}
			}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	for (size_t i = 0; i < 8; i += 4) {
		assert_int_equal(st[i + 0].site_ref, -1);	/* dormant at nop */
		assert_int_equal(st[i + 1].site_ref, -1);	/* nop itself */
		assert_int_equal(st[i + 2].site_ref, -1);	/* dormant at nop5 */
		assert_int_equal(st[i + 3].site_ref, (int)i + 1);
		NEAR(st[i + 3].site_gain, x / y, 1e-9);
		assert_true(st[i + 3].site_gain_lo > 1.9 && st[i + 3].site_gain_lo < x / y);
		assert_true(st[i + 3].site_gain_hi > x / y && st[i + 3].site_gain_hi < 2.2);
		assert_true(isnan(st[i + 1].site_gain));
	}
	free(st);
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_paired_t_intervals),
		cmocka_unit_test(test_significance_is_paired),
		cmocka_unit_test(test_per_event_not_startup),
		cmocka_unit_test(test_fit_groups_and_intervals),
		cmocka_unit_test(test_probes_baselines),
		cmocka_unit_test(test_dormant_layouts),
		cmocka_unit_test(test_site_gain),
		cmocka_unit_test(test_argv_split),
		cmocka_unit_test(test_launch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
