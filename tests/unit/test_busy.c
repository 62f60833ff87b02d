// SPDX-License-Identifier: MIT
/* test_busy: other processes' CPU time around a run, the study's own taken out (run/busy.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/busy.h"

static double tick_ns(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? 1e9 / (double)hz : 1e7;
}

/*
 * Two readings around a run: `ticks` busy clock ticks on its CPUs in between,
 * over `window_ms`; the study's own processes used `study_ms` beside the run.
 */
static void readings(struct pcost_cpu_times *b, struct pcost_cpu_times *a, uint64_t ticks,
		     double window_ms, double study_ms)
{
	*b = (struct pcost_cpu_times){
		.ok = true, .study_ok = true, .busy = 1000, .study = 5000000, .at = 1000000000
	};
	*a = *b;
	a->busy += ticks;
	a->study += (pcost_ns)(study_ms * 1e6);
	a->at += (pcost_ns)(window_ms * 1e6);
}

/* A run of 200 ms wall time that used 150 ms of CPU. */
static struct pcost_run_sample run(void)
{
	return (struct pcost_run_sample){ .wall_ns = 200000000,
					  .user_ns = 100000000,
					  .sys_ns = 50000000 };
}

/* Busy time less the run's own and the study's beside it: the rest is other processes'. */
static void study_not_other(void **state)
{
	struct pcost_cpu_times b, a;
	struct pcost_run_sample x = run();
	uint64_t ticks = (uint64_t)(200e6 / tick_ns()); /* 200 ms: the CPU busy throughout */

	(void)state;
	readings(&b, &a, ticks, 200, 0);
	pcost_busy_fill(&b, &a, &x);
	assert_true(x.has_busy);
	assert_int_equal(x.other_cpu_ns, 50000000); /* 200 - 150 */
	/* An attach monitor (or probecost) of the study used 30 ms of it: not another's. */
	x = run();
	readings(&b, &a, ticks, 200, 30);
	pcost_busy_fill(&b, &a, &x);
	assert_int_equal(x.other_cpu_ns, 20000000); /* 200 - 150 - 30 */
	/* More than the busy time (on another CPU): none left for others, never negative. */
	x = run();
	readings(&b, &a, ticks, 200, 90);
	pcost_busy_fill(&b, &a, &x);
	assert_true(x.has_busy);
	assert_int_equal(x.other_cpu_ns, 0);
	/* The study unreadable: the run's own alone is taken out. */
	x = run();
	readings(&b, &a, ticks, 200, 30);
	b.study_ok = false;
	pcost_busy_fill(&b, &a, &x);
	assert_int_equal(x.other_cpu_ns, 50000000);
}

/* A --service's CPU time counts once: its tree's reading or its own, the larger. */
static void service_once(void **state)
{
	struct pcost_cpu_times b, a;
	struct pcost_run_sample x = run();
	uint64_t ticks = (uint64_t)(200e6 / tick_ns());

	(void)state;
	x.has_service = true;
	x.service_user_ns = 30000000;
	x.service_sys_ns = 10000000;
	readings(&b, &a, ticks, 200, 45); /* the service's 40 ms and probecost's 5 ms */
	pcost_busy_fill(&b, &a, &x);
	assert_int_equal(x.other_cpu_ns, 5000000); /* 200 - 150 - 45 */
	/* A service that left the tree (forked into the background): its own figure. */
	x.service_user_ns = 30000000;
	readings(&b, &a, ticks, 200, 5);
	pcost_busy_fill(&b, &a, &x);
	assert_int_equal(x.other_cpu_ns, 10000000); /* 200 - 150 - 40 */
}

/* Readings that bracket twice the run's wall time: the others' pace over the run's time alone. */
static void window_longer_than_run(void **state)
{
	struct pcost_cpu_times b, a;
	struct pcost_run_sample x = run();

	(void)state;
	/* 300 ms busy over a 400 ms window on two CPUs: others 150 ms, 75 ms in 200 ms. */
	readings(&b, &a, (uint64_t)(300e6 / tick_ns()), 400, 0);
	pcost_busy_fill(&b, &a, &x);
	assert_int_equal(x.other_cpu_ns, 75000000);
}

/*
 * A run shorter than the ticks resolve: 5 ms of its own against 0 or 1 tick
 * of busy time; either reading would be a wrong number (0, or a tick less its
 * own read as others'), so none is recorded.  From PCOST_BUSY_MIN_TICKS ticks on
 * it is.
 */
static void short_run_unresolved(void **state)
{
	struct pcost_cpu_times b, a;
	struct pcost_run_sample x = { .wall_ns = 5000000, .user_ns = 4000000, .sys_ns = 1000000 };
	double min_ns = PCOST_BUSY_MIN_TICKS * tick_ns();

	(void)state;
	for (uint64_t ticks = 0; ticks <= 1; ticks++) {
		readings(&b, &a, ticks, 5.5, 0);
		pcost_busy_fill(&b, &a, &x);
		assert_false(x.has_busy);
	}
	/* Long enough, its own throughout: no other's time. */
	x.wall_ns = (pcost_ns)min_ns;
	x.user_ns = (pcost_ns)min_ns - x.sys_ns;
	readings(&b, &a, PCOST_BUSY_MIN_TICKS, min_ns / 1e6, 0);
	pcost_busy_fill(&b, &a, &x);
	assert_true(x.has_busy);
	assert_int_equal(x.other_cpu_ns, 0);
	/*
	 * Stretched past that length by others (its own 50 ms, theirs 100 ms):
	 * the length judged is its own, too short still.
	 */
	x = (struct pcost_run_sample){ .wall_ns = 150000000, .user_ns = 50000000 };
	readings(&b, &a, (uint64_t)(150e6 / tick_ns()), 150, 0);
	pcost_busy_fill(&b, &a, &x);
	assert_false(x.has_busy);
}

/*
 * Others' time spread over the CPUs read stretches a run by their time on one
 * of them: a 250 ms run of its own 240 on 2 CPUs that were busy throughout
 * (500 ms, 260 of it others') is judged 250 - 260 / 2 = 120 ms long, and has a
 * figure; read of one CPU, the same 260 ms would all have been in its way.
 */
static void others_over_cpus(void **state)
{
	struct pcost_cpu_times b, a;
	struct pcost_run_sample x = { .wall_ns = 250000000, .user_ns = 240000000 };

	(void)state;
	readings(&b, &a, (uint64_t)(500e6 / tick_ns()), 250, 0);
	b.cpus = a.cpus = 2;
	pcost_busy_fill(&b, &a, &x);
	assert_true(x.has_busy);
	assert_int_equal(x.other_cpu_ns, 260000000);
	x = (struct pcost_run_sample){ .wall_ns = 250000000, .user_ns = 240000000 };
	b.cpus = a.cpus = 1;
	pcost_busy_fill(&b, &a, &x);
	assert_false(x.has_busy);
}

/* The CPUs a reading was of: every online one for the aggregate line, the mask's else. */
static void cpus_read(void **state)
{
	struct pcost_cpu_times t;

	(void)state;
	pcost_cpu_times_read(0, &t);
	assert_true(t.ok);
	assert_int_equal(t.cpus, sysconf(_SC_NPROCESSORS_ONLN));
	pcost_cpu_times_read(1, &t);
	assert_true(t.ok);
	assert_int_equal(t.cpus, 1);
}

/* A reading that failed, or went backwards: nothing recorded. */
static void unreadable(void **state)
{
	struct pcost_cpu_times b, a;
	struct pcost_run_sample x = run();

	(void)state;
	readings(&b, &a, 10, 100, 0);
	a.ok = false;
	pcost_busy_fill(&b, &a, &x);
	assert_false(x.has_busy);
	readings(&b, &a, 10, 100, 0);
	a.busy = b.busy - 1;
	pcost_busy_fill(&b, &a, &x);
	assert_false(x.has_busy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(study_not_other),
		cmocka_unit_test(service_once),
		cmocka_unit_test(window_longer_than_run),
		cmocka_unit_test(short_run_unresolved),
		cmocka_unit_test(others_over_cpus),
		cmocka_unit_test(cpus_read),
		cmocka_unit_test(unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
