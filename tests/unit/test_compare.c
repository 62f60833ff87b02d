// SPDX-License-Identifier: MIT
/* test_compare: matching, changes with CIs, regressions, one-side configurations, env differences. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/compare.h"
#include "stats/figures.h"
#include "stats/stats.h"
#include "synth_rich.h"

static const struct pcost_compare_row *row(const struct pcost_compare *c, const char *name)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	fail_msg("no row '%s'", name);
	return NULL;
}

static void test_run_sessions(void **st)
{
	struct pcost_session a, b;
	struct pcost_compare c;
	const struct pcost_compare_row *r;

	synth_rich_run(&a, 1, "6.1.0");
	synth_rich_run(&b, 1.5, "6.18.0");
	/* b lacks valgrind and has a new monitor. */
	free(b.configs[4].monitor);
	b.configs[4].monitor = xstrdup("uftrace");
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	assert_int_equal(c.nrows, 6);

	/* Same samples on both sides: no change, not significant. */
	r = row(&c, "syscall loops=20000 / none");
	assert_false(r->has_overhead);
	assert_true(fabs(r->change) < 1e-12);
	assert_false(r->significant);
	assert_false(r->regression);
	assert_int_equal(r->na, 11);

	/* strace: 12 ms -> 17 ms per run, +41.7%; overhead 500% -> 750%. */
	r = row(&c, "syscall loops=20000 / strace");
	assert_true(r->has_overhead);
	assert_true(fabs(r->mean_a / 12e6 - 1) < 0.01);
	assert_true(fabs(r->change - 5.0 / 12) < 0.01);
	assert_true(r->change_lo < r->change && r->change < r->change_hi);
	assert_true(r->change_lo > 0.39 && r->change_hi < 0.44);
	assert_true(r->p < 1e-6);
	assert_true(r->significant);
	assert_true(fabs(r->delta_pts - 250) < 5);
	assert_true(r->delta_lo < r->delta_pts && r->delta_pts < r->delta_hi);
	assert_true(r->delta_lo > 230 && r->delta_hi < 270);
	assert_true(r->delta_significant);
	assert_true(r->regression);

	/* perf-stat: 2% -> 3%: 1 point, under the 5-point threshold. */
	r = row(&c, "syscall loops=20000 / perf-stat");
	assert_true(fabs(r->delta_pts - 1) < 1);
	assert_true(r->delta_lo < 1 && r->delta_hi > 1);
	assert_false(r->regression);

	/* Both sides' runs all ok: no outcome change. */
	assert_int_equal(r->outcome_a, PCOST_OUTCOME_OK);
	assert_int_equal(r->outcome_b, PCOST_OUTCOME_OK);
	pcost_compare_release(&c);
	/* strace's B runs die of a signal its plain runs do not: the outcome changed. */
	for (size_t i = 0; i < b.nconfigs; i++)
		for (size_t k = 0;
		     !strcmp(b.configs[i].monitor, "strace") && k < b.configs[i].nsamples; k++) {
			b.configs[i].samples[k].fault = PCOST_FAULT_PROGRAM;
			pcost_sample_fail(&b.configs[i].samples[k],
					  "killed by SIGSEGV at main+0x4");
		}
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	r = row(&c, "syscall loops=20000 / strace");
	assert_int_equal(r->outcome_a, PCOST_OUTCOME_OK);
	assert_int_equal(r->outcome_b, PCOST_OUTCOME_CHANGED_PROGRAM);
	assert_string_equal(r->outcome_why_b,
			    "12 of 12 runs: killed by SIGSEGV at main+0x4; its none "
			    "runs: 12 of 12 ok");
	assert_int_equal(row(&c, "syscall loops=20000 / perf-stat")->outcome_b, PCOST_OUTCOME_OK);

	/* One side only. */
	r = row(&c, "syscall loops=20000 / valgrind");
	assert_true(r->ia == 4 && r->ib == -1);
	r = row(&c, "syscall loops=20000 / uftrace");
	assert_true(r->ia == -1 && r->ib == 4);

	/* Fingerprints: only the kernel differs. */
	assert_int_equal(c.ndiffs, 1);
	assert_string_equal(c.diffs[0].key, "kernel.release");
	assert_string_equal(c.diffs[0].a, "6.1.0");
	assert_string_equal(c.diffs[0].b, "6.18.0");
	pcost_compare_release(&c);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

/* The baseline got 2x faster, strace's runs stayed as slow: the overhead grew, the mean did not. */
static void test_overhead_grows_mean_does_not(void **st)
{
	struct pcost_session a, b;
	struct pcost_compare c;
	const struct pcost_compare_row *r;

	synth_rich_run(&a, 1, "6.1.0");
	synth_rich_run(&b, 1, "6.1.0");
	for (size_t k = 0; k < b.configs[0].nsamples; k++)
		b.configs[0].samples[k].wall_ns /= 2;
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	r = row(&c, "syscall loops=20000 / strace");
	assert_true(fabs(r->change) < 1e-12);
	assert_false(r->significant);
	/* 500% -> 1100%. */
	assert_true(fabs(r->delta_pts - 600) < 10);
	assert_true(r->delta_lo > 500);
	assert_true(r->regression);
	pcost_compare_release(&c);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

static void test_counters_and_kinds(void **st)
{
	struct pcost_session a, b, r;
	struct pcost_compare c;

	synth_rich_counters(&a, 1);
	synth_rich_counters(&b, 1.2);
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	assert_int_equal(c.nrows, a.nseries);
	for (size_t i = 0; i < c.nrows; i++) {
		assert_true(c.rows[i].gated);
		assert_true(fabs(c.rows[i].delta_pts - 20) < 5);
		assert_true(c.rows[i].change_lo < 0.2 && c.rows[i].change_hi > 0.2);
		assert_true(c.rows[i].regression);
	}
	assert_string_equal(c.rows[0].name, "perf-group start+stop+read, 1 event: sw-events");
	pcost_compare_release(&c);

	synth_rich_run(&r, 1, "6.1.0");
	assert_int_equal(pcost_compare_sessions(&a, &r, 5, &c), -EINVAL);
	pcost_session_release(&a);
	pcost_session_release(&b);
	pcost_session_release(&r);
}

static void test_env_diff(void **st)
{
	struct pcost_env_diff *d;
	size_t n;

	pcost_env_diff("{\"fields\":{\"a\":\"1\",\"b\":\"2\",\"c\":3}}",
		       "{\"fields\":{\"a\":\"1\",\"b\":\"9\",\"d\":\"x\"}}", &d, &n);
	assert_int_equal(n, 3);
	assert_string_equal(d[0].key, "b");
	assert_string_equal(d[1].key, "c");
	assert_string_equal(d[1].a, "3");
	assert_null(d[1].b);
	assert_string_equal(d[2].key, "d");
	assert_null(d[2].a);
	for (size_t i = 0; i < n; i++) {
		free(d[i].key);
		free(d[i].a);
		free(d[i].b);
	}
	free(d);
	/* A re-calibrated TSC is not a different machine; another CPU count is. */
	pcost_env_diff("{\"fields\":{\"tsc.hz\":\"2445369133 (calibrated)\",\"cpus\":\"2\"}}",
		       "{\"fields\":{\"tsc.hz\":\"2445403533 (calibrated)\",\"cpus\":\"4\"}}", &d,
		       &n);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].key, "cpus");
	free(d[0].key);
	free(d[0].a);
	free(d[0].b);
	free(d);
	pcost_env_diff(NULL, "not json", &d, &n);
	assert_int_equal(n, 0);
}

static void three_blocks(struct pcost_session *s, const double *base, const double *mon)
{
	pcost_session_init(s, PCOST_SESSION_RUN);
	pcost_session_add_config(s, "pipe", "loops=1", "none", NULL, "round-trip");
	pcost_session_add_config(s, "pipe", "loops=1", "strace", NULL, "round-trip");
	for (uint32_t k = 0; k < 3; k++) {
		struct pcost_run_sample x = { .block = k, .monitor_events = -1, .scale = 1 };

		x.wall_ns = (pcost_ns)base[k];
		pcost_config_add_sample(&s->configs[0], &x);
		x.wall_ns = (pcost_ns)mon[k];
		pcost_config_add_sample(&s->configs[1], &x);
	}
}

/*
 * The change of an overhead between two sessions: each session's overhead
 * from its own paired blocks (delta-method standard error), the two combined
 * with Welch-Satterthwaite df -- not a bootstrap over 3 blocks (it resampled
 * with a modulo-biased "% n" and gave too narrow an interval).  Reference:
 * Python statistics + mpmath (t quantile at 2.1447 df = 4.0360).
 */
static void test_overhead_change_interval(void **st)
{
	static const double y[] = { 1000, 1100, 1050 }, xa[] = { 1100, 1210, 1160 },
			    xb[] = { 1200, 1300, 1270 };
	struct pcost_session a, b;
	struct pcost_compare c;
	const struct pcost_compare_row *r;

	(void)st;
	three_blocks(&a, y, xa);
	three_blocks(&b, y, xb);
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	r = row(&c, "pipe loops=1 / strace");
	assert_true(r->has_overhead);
	assert_true(fabs(r->delta_pts - 9.523809523809511) < 1e-9);
	assert_true(fabs(r->delta_lo - 6.0963553836471736) < 1e-6);
	assert_true(fabs(r->delta_hi - 12.951263663971849) < 1e-6);
	assert_true(r->delta_significant);
	pcost_compare_release(&c);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

/* A probes session: dormant and uprobe rows of one site, optimized as opt[k] in block k. */
static void probes_blocks(struct pcost_session *s, const int8_t *opt)
{
	pcost_session_init(s, PCOST_SESSION_PROBES);
	pcost_session_add_config(s, "uprobe", "insn=nop5", "dormant", "nop5", "hit");
	pcost_session_add_config(s, "uprobe", "insn=nop5", "uprobe", "nop5", "hit");
	for (uint32_t k = 0; k < 3; k++) {
		struct pcost_run_sample x = { .block = k, .monitor_events = -1, .scale = 1 };

		x.wall_ns = 1000 + k;
		x.optimized = -1; /* the dormant run saw no trampoline: still not a verdict */
		pcost_config_add_sample(&s->configs[0], &x);
		x.wall_ns = 2000 + k;
		x.optimized = opt[k];
		pcost_config_add_sample(&s->configs[1], &x);
	}
}

/* Whether the kernel optimized a row's uprobe, on each side: yes, no, or unknown (mixed too). */
static void test_probes_optimized(void **st)
{
	static const int8_t unknown[] = { 0, 0, 0 }, yes[] = { 1, 1, 0 }, no[] = { -1, -1, -1 },
			    mixed[] = { 1, -1, 1 };
	static const int8_t *const sides[][2] = { { unknown, yes }, { no, mixed }, { yes, no } };
	static const int want[][2] = { { 0, 1 }, { -1, 0 }, { 1, -1 } };
	struct pcost_session a, b;
	struct pcost_compare c;

	(void)st;
	for (size_t i = 0; i < ARRAY_SIZE(sides); i++) {
		probes_blocks(&a, sides[i][0]);
		probes_blocks(&b, sides[i][1]);
		assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
		assert_int_equal(row(&c, "uprobe insn=nop5 / uprobe / nop5")->optimized_a,
				 want[i][0]);
		assert_int_equal(row(&c, "uprobe insn=nop5 / uprobe / nop5")->optimized_b,
				 want[i][1]);
		/* The dormant row is the baseline: nothing armed, no verdict. */
		assert_int_equal(row(&c, "uprobe insn=nop5 / dormant / nop5")->optimized_a, 0);
		pcost_compare_release(&c);
		pcost_session_release(&a);
		pcost_session_release(&b);
	}
}

/*
 * A session for the level between sessions: one configuration "w n=1 / none" of 4
 * runs, mean x (1 -+ 1%) ms (their squared relative standard error 1/30000), and a
 * figure tps of 1000 / ms (1 -+ 1%) a run, under the kernel and --cpu given.
 */
static void level_session(struct pcost_session *s, int64_t id, double ms, const char *kernel,
			  const char *cpu)
{
	struct pcost_config *c;

	pcost_session_init(s, PCOST_SESSION_RUN);
	s->id = id;
	s->env_json = xasprintf("{\"fields\":{\"kernel.release\":\"%s\"}}", kernel);
	s->options_json = xasprintf("{\"cpu\":\"%s\",\"washout\":0}", cpu);
	pcost_session_add_metric(s, "tps", "tps", 1);
	c = pcost_session_add_config(s, "w", "n=1", "none", NULL, "op");
	for (int k = 0; k < 4; k++) {
		double f = k % 2 ? 1.01 : 0.99;
		struct pcost_run_sample smp = { .wall_ns = (uint64_t)(ms * 1e6 * f) };

		smp.metrics = xcalloc(1, sizeof(double));
		smp.metrics[0] = 1000 / ms * f;
		pcost_config_add_sample(c, &smp);
	}
}

/*
 * The level between sessions: what moves between sessions beyond the runs' noise.
 * A (100 ms) and B (106 ms) alone: a +6.0%
 * change whose Welch interval (runs' noise only) is far from 0: a REGRESSION.  With
 * two more sessions under the same conditions (97 and 103 ms), the four log means'
 * squares about their mean over 3 df, less the runs' variance, are the level's:
 *   python3 -c "import math; l=[math.log(x) for x in (100,106,97,103)]; m=sum(l)/4;
 *     s2=sum((x-m)**2 for x in l)/3-1/30000; v=2/30000+2*s2;
 *     print(s2, v*v/(2/30000**2/3+4*s2*s2/3))"   -> 0.0014246552 3.1411674
 * and the change's log interval is log(1.06) +- t(3.14) x sqrt(2/30000 + 2 s2).  Peers
 * under other conditions (another kernel; unpinned) are in groups of their own, of one
 * session each, and change nothing; nor does a peer with A's id (the store lists A too).
 */
static void test_level_between_sessions(void **st)
{
	struct pcost_session a, b, p[5];
	struct pcost_compare c;
	const struct pcost_compare_row *r;
	struct pcost_figure_compare *f;
	size_t nf;
	double s2 = 0.0014246552, df = 3.1411674, t, v;

	level_session(&a, 1, 100, "6.1", "0");
	level_session(&b, 2, 106, "6.1", "0");
	level_session(&p[0], 3, 97, "6.1", "0");
	level_session(&p[1], 4, 103, "6.1", "0");
	level_session(&p[2], 5, 150, "6.18", "0"); /* another kernel */
	level_session(&p[3], 6, 60, "6.1", "");	   /* unpinned */
	level_session(&p[4], 1, 200, "6.1", "0");  /* A again, as the store lists it */

	/* No peers: not measured, and the runs' noise alone calls +6% a regression. */
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	pcost_compare_level(&c, &a, &b, NULL, 0, 5);
	r = row(&c, "w n=1 / none");
	assert_true(isnan(r->level_sd));
	assert_true(fabs(r->change - 0.06) < 1e-9);
	assert_true(r->change_lo > 0.03 && r->significant && r->regression);
	pcost_compare_release(&c);

	/* The peers under other conditions only: still not measured. */
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	pcost_compare_level(&c, &a, &b, &p[2], 2, 5);
	assert_true(isnan(row(&c, "w n=1 / none")->level_sd));
	pcost_compare_release(&c);

	/* All five peers; the one with A's id is A itself, and is skipped. */
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	pcost_compare_level(&c, &a, &b, p, 5, 5);
	r = row(&c, "w n=1 / none");
	assert_int_equal(r->level_sessions, 4);
	assert_true(fabs(r->level_df - 3) < 1e-12);
	assert_true(fabs(r->level_sd - sqrt(s2)) < 1e-8);
	t = pcost_t_quantile(0.95, df);
	v = 2.0 / 30000 + 2 * s2;
	assert_true(fabs(r->change_lo - (exp(log(1.06) - t * sqrt(v)) - 1)) < 1e-6);
	assert_true(fabs(r->change_hi - (exp(log(1.06) + t * sqrt(v)) - 1)) < 1e-6);
	assert_true(fabs(r->change - 0.06) < 1e-9);
	assert_false(r->significant);
	assert_false(r->regression);
	/* The robust interval widened too: it holds 0 now. */
	assert_true(r->change_robust_lo < 0 && r->change_robust_hi > 0.06);
	/* The figure's level: its log means are the wall times' negated and shifted. */
	pcost_compare_figures(&a, &b, &c, &f, &nf);
	assert_int_equal(nf, 1);
	assert_true(fabs(f[0].level_sd - sqrt(s2)) < 1e-8);
	assert_int_equal(f[0].level_sessions, 4);
	assert_true(fabs(f[0].change_lo - (exp(log(1 / 1.06) - t * sqrt(v)) - 1)) < 1e-6);
	assert_true(fabs(f[0].change_hi - (exp(log(1 / 1.06) + t * sqrt(v)) - 1)) < 1e-6);
	pcost_figure_compare_free(f, nf);
	pcost_compare_release(&c);
	for (int i = 0; i < 5; i++)
		pcost_session_release(&p[i]);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

/*
 * A session's level with no comparison (run and show print it): over it and its
 * peers, pooled as compare pools them.  103 ms with peers at 100 and 97 (3 sessions):
 *   python3 -c "import math; l=[math.log(x) for x in (100,97,103)]; m=sum(l)/3;
 *     print(sum((x-m)**2 for x in l)/2-1/30000)"   -> 0.0008672746003
 * With 106 ms as well (4 sessions) it is test_level_between_sessions's 0.0014246552.
 * The figure tps's level is the same (its values are 1000 / ms).
 * Peers under other conditions alone leave it not measured, and so does a level among
 * them for a session with no 2 peers under its own; the configuration has no
 * baseline, so no overhead level.
 */
static void test_session_level(void **st)
{
	struct pcost_session q[5];
	struct pcost_config_level l;

	level_session(&q[0], 1, 100, "6.1", "0");
	level_session(&q[1], 2, 97, "6.1", "0");
	level_session(&q[2], 3, 103, "6.1", "0");
	level_session(&q[3], 4, 150, "6.18", "0"); /* another kernel */
	level_session(&q[4], 5, 106, "6.1", "0");

	pcost_session_level(&q[2], q, 4, &l); /* q[2] among the peers too: counted once */
	assert_int_equal(l.sessions, 3);
	assert_true(fabs(l.sd - sqrt(0.0008672746003)) < 1e-8);
	assert_true(isnan(l.ovh_pts));
	/* The figure tps = 1000 / ms: its log means are the times' negated, the same level. */
	assert_non_null(l.figure_sd);
	assert_true(fabs(l.figure_sd[0] - sqrt(0.0008672746003)) < 1e-8);
	free(l.figure_sd);
	pcost_session_level(&q[4], q, 4, &l);
	assert_int_equal(l.sessions, 4);
	assert_true(fabs(l.sd - sqrt(0.0014246552)) < 1e-8);
	free(l.figure_sd);
	pcost_session_level(&q[0], &q[3], 1, &l);
	assert_int_equal(l.sessions, 0);
	assert_true(isnan(l.sd) && isnan(l.ovh_pts) && isnan(l.figure_sd[0]));
	free(l.figure_sd);
	/* Another kernel's session, its peers a level of their own: not its (none alike). */
	pcost_session_level(&q[3], q, 3, &l);
	assert_int_equal(l.sessions, 0);
	assert_true(isnan(l.sd) && isnan(l.figure_sd[0]));
	free(l.figure_sd);
	for (int i = 0; i < 5; i++)
		pcost_session_release(&q[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_sessions),
		cmocka_unit_test(test_overhead_grows_mean_does_not),
		cmocka_unit_test(test_counters_and_kinds),
		cmocka_unit_test(test_env_diff),
		cmocka_unit_test(test_overhead_change_interval),
		cmocka_unit_test(test_probes_optimized),
		cmocka_unit_test(test_level_between_sessions),
		cmocka_unit_test(test_session_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
