// SPDX-License-Identifier: MIT
/*
 * test_figures: a run session's figures (--metric values, workload facts) and a
 * service's CPU analysed as elapsed time is, on hand-made sessions with known answers;
 * the store's way of setting a value; pcost_replace_all; a process tree's pids and CPU.
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/ptree.h"
#include "core/util.h"
#include "stats/figures.h"

/* A run of block b with figure values v[0..n) (NaN: none) and a service's CPU (0: none). */
static void add(struct pcost_session *s, struct pcost_config *c, uint32_t b, bool warm, bool failed,
		const double *v, pcost_ns svc)
{
	struct pcost_run_sample x = { .block = b,
				      .warmup = warm,
				      .failed = failed,
				      .scale = 1,
				      .wall_ns = 1000,
				      .monitor_events = -1 };

	x.metrics = xcalloc(s->nmetrics, sizeof(double));
	memcpy(x.metrics, v, s->nmetrics * sizeof(double));
	if (svc) {
		x.has_service = true;
		x.service_user_ns = svc / 2;
		x.service_sys_ns = svc - svc / 2;
	}
	pcost_config_add_sample(c, &x);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* Known answers: 10% fewer tps, 25% more latency in every block, whatever the block's level. */
static void test_change(void **state)
{
	static const double tps[] = { 100, 110, 95, 105 }, lat[] = { 2, 2.2, 1.9, 2.1 };
	struct pcost_session s;
	struct pcost_config_stats *st;
	struct pcost_figure_stats *f, *svc;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	assert_int_equal(pcost_session_add_metric(&s, "tps", "tps", 1), 0);
	assert_int_equal(pcost_session_add_metric(&s, "lat", "ms", -1), 1);
	assert_int_equal(pcost_session_metric_find(&s, "lat"), 1);
	assert_int_equal(pcost_session_metric_find(&s, "nope"), -1);
	pcost_session_add_config(&s, "command", "x", "none", NULL, "event");
	pcost_session_add_config(&s, "command", "x", "strace", NULL, "event");
	add(&s, &s.configs[0], 0, true, false, (double[]){ 1, 1 }, 0); /* warm-up: never averaged */
	add(&s, &s.configs[1], 0, true, false, (double[]){ 1, 1 }, 0);
	for (uint32_t k = 0; k < 4; k++) {
		add(&s, &s.configs[0], k + 1, false, false, (double[]){ tps[k], lat[k] }, 10000000);
		add(&s, &s.configs[1], k + 1, false, false,
		    (double[]){ tps[k] * 0.9, lat[k] * 1.25 }, 30000000);
	}
	/* A failed run, and a run that gave no tps: left out, and their blocks' pairs too. */
	add(&s, &s.configs[1], 5, false, true, (double[]){ 1, 1 }, 0);
	add(&s, &s.configs[0], 6, false, false, (double[]){ NAN, 3 }, 0);
	add(&s, &s.configs[1], 6, false, false, (double[]){ 1e6, 3 }, 0);
	assert_int_equal(pcost_analyze(&s, &st), 0);
	pcost_analyze_figures(&s, st, &f);
	/* f[config * 2 + figure] */
	assert_true(f[0].baseline);
	assert_int_equal(f[0].n, 4);
	assert_true(near(f[0].mean, 102.5));
	assert_true(f[0].mean_lo < 102.5 && f[0].mean_hi > 102.5);
	assert_true(isnan(f[0].change));
	assert_int_equal(f[2].n, 5); /* the monitor's runs with a tps: 4 + block 6 */
	assert_int_equal(f[2].npairs, 4);
	assert_true(near(f[2].change, -0.1));
	assert_true(near(f[2].change_lo, -0.1) && near(f[2].change_hi, -0.1));
	assert_true(f[2].significant);
	/* Its robust companion: every log ratio is log 0.9; no interval from 4 pairs. */
	assert_true(near(f[2].change_robust, -0.1));
	assert_true(isnan(f[2].change_robust_lo) && isnan(f[2].change_robust_hi));
	assert_false(f[2].change_skewed);
	assert_int_equal(f[3].npairs, 5); /* lat: block 6 pairs too (3 and 3) */
	/* mean(x)/mean(y) - 1 over the five pairs: (2.5+2.75+2.375+2.625+3)/(2+2.2+1.9+2.1+3) */
	assert_true(near(f[3].change, 13.25 / 11.2 - 1));
	assert_true(pcost_figure_measured(&s, 0) && pcost_figure_measured(&s, 1));
	/* The service: 10 ms a run plain, 30 ms under the monitor: +200%. */
	assert_true(pcost_service_measured(&s));
	pcost_analyze_service_cpu(&s, st, &svc);
	assert_true(near(svc[0].mean, 10e6));
	assert_true(near(svc[1].change, 2.0));
	free(svc);
	free(f);
	free(st);
	pcost_session_release(&s);
}

/*
 * A skewed change, where one slow block moves the mean and not the median:
 * plain 100 tps in each of 10 blocks, the monitor 90 in
 * nine and 300 in one.  The mean's change is 111/100 - 1 = +11%; the robust one is
 * Hodges-Lehmann over the log ratios, nine log 0.9 and one log 3: of the 55 Walsh
 * averages, 45 are log 0.9, nine (log 0.9 + log 3)/2 = log sqrt(2.7) and one log 3,
 * so the median (the 28th) is log 0.9: -10%; the Wilcoxon interval at n = 10 is
 * [W(8), W(48)] (qsignrank(0.025, 10) = 8 in R) = [log 0.9, log sqrt(2.7)]:
 * [-10%, +64.3%].  The two disagree: skewed.
 */
static void test_change_skewed(void **state)
{
	struct pcost_session s;
	struct pcost_config_stats *st;
	struct pcost_figure_stats *f;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_metric(&s, "tps", "tps", 1);
	pcost_session_add_config(&s, "command", "x", "none", NULL, "event");
	pcost_session_add_config(&s, "command", "x", "strace", NULL, "event");
	for (uint32_t k = 0; k < 10; k++) {
		add(&s, &s.configs[0], k, false, false, (double[]){ 100 }, 0);
		add(&s, &s.configs[1], k, false, false, (double[]){ k == 6 ? 300 : 90 }, 0);
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	pcost_analyze_figures(&s, st, &f);
	assert_true(near(f[1].change, 0.11));
	assert_true(near(f[1].change_robust, -0.1));
	assert_true(near(f[1].change_robust_lo, -0.1));
	assert_true(near(f[1].change_robust_hi, sqrt(2.7) - 1));
	assert_true(f[1].change_skewed);
	/* The monitor's mean 111 and its robust companion: of the 55 Walsh averages of nine
	 * 90s and one 300, 45 are 90, nine 195 and one 300: 90 [W(8), W(48)] = [90, 195]. */
	assert_true(near(f[1].mean, 111));
	assert_true(near(f[1].mean_robust, 90));
	assert_true(near(f[1].mean_robust_lo, 90) && near(f[1].mean_robust_hi, 195));
	free(f);
	free(st);
	pcost_session_release(&s);
}

/* The stores' way in: a value set on a sample without an array makes one, NaN elsewhere. */
static void test_set_metric(void **state)
{
	struct pcost_session s;
	struct pcost_run_sample x = { .scale = 1 };

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_metric(&s, "a", "", 0);
	pcost_session_add_metric(&s, "b", "us", -1);
	pcost_session_add_config(&s, "command", "x", "none", NULL, "event");
	pcost_config_add_sample(&s.configs[0], &x);
	assert_false(pcost_figure_measured(&s, 1));
	assert_int_equal(pcost_session_set_metric(&s, 0, 0, 1, 7.5), 0);
	assert_true(isnan(s.configs[0].samples[0].metrics[0]));
	assert_true(s.configs[0].samples[0].metrics[1] == 7.5);
	assert_true(pcost_figure_measured(&s, 1));
	assert_int_equal(pcost_session_set_metric(&s, 0, 1, 0, 1), -1); /* no sample 1 */
	assert_int_equal(pcost_session_set_metric(&s, 0, 0, 2, 1), -1); /* no figure 2 */
	assert_int_equal(pcost_session_set_metric(&s, 1, 0, 0, 1), -1); /* no config 1 */
	pcost_session_release(&s);
}

static void test_replace_all(void **state)
{
	char *a = pcost_replace_all("-p {pid} x{pid}y {pi", "{pid}", "1234");
	char *b = pcost_replace_all("none here", "{pid}", "1"),
	     *c = pcost_replace_all("{n}", "{n}", "");

	(void)state;
	assert_string_equal(a, "-p 1234 x1234y {pi");
	assert_string_equal(b, "none here");
	assert_string_equal(c, "");
	free(a);
	free(b);
	free(c);
}

/* A child that forks a grandchild burning CPU: both in the tree, the CPU time grows. */
static void test_ptree(void **state)
{
	pid_t child, pids[16];
	int fds[2];
	char c;
	size_t n;
	pcost_ns u0, s0, u1, s1;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	child = fork();
	if (child == 0) {
		if (fork() == 0) {
			struct timespec t0, t;

			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
			if (write(fds[1], "x", 1) != 1)
				_exit(1);
			do
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
			while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) <
			       300000000L);
			pause();
		}
		pause();
		_exit(0);
	}
	assert_int_equal(read(fds[0], &c, 1), 1);
	n = pcost_ptree_pids(child, pids, 16);
	assert_int_equal(n, 2);
	assert_int_equal(pids[0], child);
	assert_true(pcost_ptree_cpu(child, &u0, &s0));
	usleep(600000); /* the grandchild burns 0.3 s of CPU, then sleeps */
	assert_true(pcost_ptree_cpu(child, &u1, &s1));
	assert_true((u1 + s1) - (u0 + s0) >= 100000000ULL);
	kill(pids[1], SIGKILL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	assert_int_equal(pcost_ptree_pids(child, pids, 16), 0);
	assert_false(pcost_ptree_cpu(child, &u1, &s1));
	close(fds[0]);
	close(fds[1]);
}

/*
 * A study of a load that runs for a fixed time (pgbench -T): the elapsed time
 * is the same in every run, so only the figure says how many blocks --precision
 * needs; the plan is the figure's, 1.5 x pairs x (longer arm / asked)^2.
 */
static void test_plan_on_figure(void **state)
{
	static const double tps[] = { 100, 90, 110, 95, 105, 98 };
	static const double ratio[] = { 0.85, 0.95, 0.9, 0.8, 0.97, 0.88 };
	struct pcost_session s;
	struct pcost_config_stats *st;
	struct pcost_figure_stats *f;
	double arm;

	(void)state;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	assert_int_equal(pcost_session_add_metric(&s, "tps", "tps", 1), 0);
	pcost_session_add_config(&s, "command", "x", "none", NULL, "event");
	pcost_session_add_config(&s, "command", "x", "strace", NULL, "event");
	for (uint32_t k = 0; k < 6; k++) {
		add(&s, &s.configs[0], k, false, false, (double[]){ tps[k] }, 0);
		add(&s, &s.configs[1], k, false, false, (double[]){ tps[k] * ratio[k] }, 0);
	}
	assert_int_equal(pcost_analyze(&s, &st), 0);
	pcost_analyze_figures(&s, st, &f);
	assert_true(st[1].overhead == 0); /* the same 1000 ns in every run */
	arm = pcost_longer_arm(f[1].change, f[1].change_lo, f[1].change_hi);
	assert_true(arm > 0.02 && arm < 0.2);
	assert_true(near(pcost_two_stage_blocks(&s, st, 0.01, 0, 0),
			 1.5 * 6 * (arm / 0.01) * (arm / 0.01)));
	/* Asked wider than the figure's arm already is: no more blocks than the pilot's pace. */
	assert_true(near(pcost_two_stage_blocks(&s, st, 1.0, 0, 0), 1.5 * 6 * arm * arm));
	free(f);
	free(st);
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_change),	   cmocka_unit_test(test_change_skewed),
		cmocka_unit_test(test_set_metric), cmocka_unit_test(test_replace_all),
		cmocka_unit_test(test_ptree),	   cmocka_unit_test(test_plan_on_figure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
