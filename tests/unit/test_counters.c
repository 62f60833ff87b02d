// SPDX-License-Identifier: MIT
/*
 * test_counters: the self-monitoring library counts what the test did
 * task-clock vs wall time of a busy loop, context switches
 * of sched_yield ping-pong on one CPU, page faults of touching fresh pages,
 * values that never decrease, no descriptor left open, PAPI agreeing with
 * perf read().  Everything runs pinned to one CPU.
 */
#include <dirent.h>
#include <math.h>
#include <errno.h>
#include <papi.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine_facts.h"
#include "counters/counters.h"
#include "probecost/counters.h"
#include "core/util.h"

static bool perf_ok;
static char perf_why[256];

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the DIR's own descriptor */
}

/*
 * Whether perf events can be counted here comes from the machine's facts
 * (machine_facts.h), not from probecost's own open: where the facts say yes,
 * an open that fails is a failed test.
 */
static int setup(void **state)
{
	int cpu = sched_getcpu();

	if (cpu >= 0 && cpu < 64)
		pcost_pin_mask(1ULL << cpu);
	perf_ok = fact_perf_events(perf_why, sizeof(perf_why));
	return 0;
}

#define NEED_PERF()                                                                                \
	do {                                                                                       \
		if (!perf_ok) {                                                                    \
			print_message("skip: %s\n", perf_why);                                     \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

static void spin_ns(pcost_ns ns)
{
	pcost_ns end = pcost_now_ns() + ns;
	volatile unsigned long x = 0;

	while (pcost_now_ns() < end)
		x++;
}

static pcost_ns thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (pcost_ns)ts.tv_sec * 1000000000u + (pcost_ns)ts.tv_nsec;
}

/* task-clock of a 100 ms busy loop is within 10% of its wall time. */
static void test_task_clock_vs_wall(void **state)
{
	static const char *const ev[] = { "task-clock" };
	double best = 0, best_cpu = 0, share = 0;

	NEED_PERF();
	/*
	 * A shared vCPU can be taken from us (steal time, or another process on
	 * our CPU) in any one try, which wall time counts and task-clock does not:
	 * 3 tries, the closest one counts.
	 */
	for (int t = 0; t < 3; t++) {
		struct pcost_counters *c;
		uint64_t v;
		pcost_ns t0, t1, c0, c1;
		double r;

		assert_int_equal(pcost_counters_open(&c, ev, 1), 0);
		assert_int_equal(pcost_counters_start(c), 0);
		t0 = pcost_now_ns();
		c0 = thread_cpu_ns();
		spin_ns(100000000);
		c1 = thread_cpu_ns();
		t1 = pcost_now_ns();
		assert_int_equal(pcost_counters_stop(c), 0);
		assert_int_equal(pcost_counters_read(c, &v), 0);
		pcost_counters_close(c);
		r = (double)v / (double)(t1 - t0);
		if (fabs(r - 1) < fabs(best - 1)) {
			best = r;
			best_cpu = (double)v / (double)(c1 - c0);
			share = (double)(c1 - c0) / (double)(t1 - t0);
		}
	}
	print_message("task-clock / wall = %.4f, task-clock / thread CPU time = %.4f\n", best,
		      best_cpu);
	if (!(best > 0.90 && best < 1.10) && best_cpu > 0.90 && best_cpu < 1.10 && share < 0.90) {
		/* Not the counter's fault: the kernel's own clock agrees we did not run. */
		print_message(
			"skip: CPU shared with other work: this thread ran %.0f%% of the wall "
			"time in its best try (task-clock matched its CPU clock)\n",
			100 * share);
		skip();
	}
	assert_true(best > 0.90 && best < 1.10);
}

static volatile int yield_stop;

static void *yielder(void *arg)
{
	(void)arg;
	while (!yield_stop)
		sched_yield();
	return NULL;
}

/* N sched_yield with a second runnable thread on the same CPU switch at least N/2 times. */
static void test_context_switches_yield(void **state)
{
	static const char *const ev[] = { "context-switches" };
	const unsigned n = 2000;
	struct pcost_counters *c;
	pthread_t th;
	cpu_set_t set;
	uint64_t v;

	NEED_PERF();
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set); /* pinned by setup(): the thread inherits it */
	yield_stop = 0;
	assert_int_equal(pthread_create(&th, NULL, yielder, NULL), 0);
	usleep(10000); /* let it become runnable on our CPU */
	assert_int_equal(pcost_counters_open(&c, ev, 1), 0);
	assert_int_equal(pcost_counters_start(c), 0);
	for (unsigned i = 0; i < n; i++)
		sched_yield();
	assert_int_equal(pcost_counters_stop(c), 0);
	assert_int_equal(pcost_counters_read(c, &v), 0);
	yield_stop = 1;
	pthread_join(th, NULL);
	pcost_counters_close(c);
	print_message("context-switches for %u yields: %llu\n", n, (unsigned long long)v);
	/* Stated fraction: 1/2.  Each yield hands the CPU to the other runnable thread. */
	assert_true(v >= n / 2);
	assert_true(v <= 2 * n + 100);
}

/* Touching N fresh anonymous pages takes at least N page faults (and minor faults). */
static void test_page_faults(void **state)
{
	static const char *const ev[] = { "page-faults", "minor-faults" };
	const size_t n = 256, pg = (size_t)sysconf(_SC_PAGESIZE);
	struct pcost_counters *c;
	uint64_t v[2];
	char *p;

	NEED_PERF();
	p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	/* One transparent huge page would serve all N touches with one fault. */
	madvise(p, n * pg, MADV_NOHUGEPAGE);
	PCOST_OPTS(pcost_counter_opts, o, .read_mode = PCOST_READ_GROUP);
	assert_int_equal(pcost_counters_open_opts(&c, ev, 2, &o), 0);
	assert_int_equal(pcost_counters_start(c), 0);
	for (size_t i = 0; i < n; i++)
		((volatile char *)p)[i * pg] = 1;
	assert_int_equal(pcost_counters_stop(c), 0);
	assert_int_equal(pcost_counters_read(c, v), 0);
	pcost_counters_close(c);
	munmap(p, n * pg);
	print_message("page-faults %llu, minor-faults %llu for %zu pages\n",
		      (unsigned long long)v[0], (unsigned long long)v[1], n);
	assert_true(v[0] >= n);
	assert_true(v[1] >= n);
	/* And not wildly more: the loop touches nothing else (ASan's shadow adds n/8). */
	assert_true(v[0] < n + n / 4 + 16);
}

/*
 * A member of a group read on its own is not scaled up by time spent stopped:
 * page-faults of touching N pages after a long stopped stretch is still ~N.
 */
static void test_member_not_scaled_by_stopped_time(void **state)
{
	static const char *const ev[] = { "task-clock", "page-faults" };
	const size_t n = 64, pg = (size_t)sysconf(_SC_PAGESIZE);
	struct pcost_counters *c;
	uint64_t v[2];
	char *p;

	NEED_PERF();
	p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	madvise(p, n * pg, MADV_NOHUGEPAGE);
	assert_int_equal(pcost_counters_open(&c, ev, 2), 0); /* PCOST_READ_EACH */
	for (int round = 0; round < 3; round++) {
		usleep(20000); /* stopped: no time may count as enabled-but-not-running */
		assert_int_equal(pcost_counters_start(c), 0);
		if (round == 2)
			for (size_t i = 0; i < n; i++)
				((volatile char *)p)[i * pg] = 1;
		assert_int_equal(pcost_counters_stop(c), 0);
	}
	assert_int_equal(pcost_counters_read(c, v), 0);
	pcost_counters_close(c);
	munmap(p, n * pg);
	print_message("page-faults %llu for %zu pages after 60 ms stopped\n",
		      (unsigned long long)v[1], n);
	assert_true(v[1] >= n && v[1] < n + n / 4 + 16);
}

/* Values read while running never decrease, in both read modes. */
static void test_monotonic(void **state)
{
	static const char *const ev[] = { "task-clock", "page-faults", "context-switches",
					  "cpu-clock" };

	NEED_PERF();
	for (int mode = 0; mode < 2; mode++) {
		struct pcost_counters *c;
		uint64_t prev[4] = { 0 }, v[4];
		PCOST_OPTS(pcost_counter_opts, o,
			   .read_mode = mode ? PCOST_READ_GROUP : PCOST_READ_EACH);

		assert_int_equal(pcost_counters_open_opts(&c, ev, 4, &o), 0);
		assert_int_equal(pcost_counters_start(c), 0);
		for (int i = 0; i < 2000; i++) {
			assert_int_equal(pcost_counters_read(c, v), 0);
			for (int j = 0; j < 4; j++) {
				if (v[j] < prev[j])
					fail_msg("mode %d event %d decreased: %llu -> %llu", mode,
						 j, (unsigned long long)prev[j],
						 (unsigned long long)v[j]);
				prev[j] = v[j];
			}
			if (i % 100 == 0)
				sched_yield();
		}
		assert_int_equal(pcost_counters_stop(c), 0);
		assert_true(prev[0] > 0); /* task-clock moved */
		pcost_counters_close(c);
	}
}

/* Every interface row and every failure path closes what it opened. */
static void test_no_fd_leak(void **state)
{
	char *names[16];
	const struct pcost_counter_iface *ifc;
	const char *bad[] = { "task-clock", "page-faults", "no-such-event-xyz" };
	struct pcost_counters *c;
	int before, failed = -1;

	NEED_PERF();
	assert_int_equal(pcost_counter_default_events(false, 16, names), 16);
	before = count_fds();
	assert_true(before > 0);
	for_each_counter_iface(ifc) {
		char why[256];
		void *st = NULL;

		if (!ifc->takes_events || !ifc->available(why, sizeof(why)))
			continue;
		for (int round = 0; round < 3; round++) {
			uint64_t v[16];

			if (ifc->open(&st, (const char *const *)names, 16, why, sizeof(why)))
				continue;
			assert_int_equal(ifc->start(st), 0);
			assert_int_equal(ifc->read(st, v), 0);
			assert_int_equal(ifc->stop(st), 0);
			ifc->close(st);
		}
	}
	pcost_counter_papi_shutdown();
	/* An open that fails at its third name leaves nothing open and says which. */
	PCOST_OPTS(pcost_counter_opts, o, .mmap = true, .failed_index = &failed);
	assert_int_equal(pcost_counters_open_opts(&c, bad, 3, &o), -ENOENT);
	assert_int_equal(failed, 2);
	assert_null(c);
	assert_int_equal(count_fds(), before);
	for (int i = 0; i < 16; i++)
		free(names[i]);
}

/* PAPI and perf read() count the same task-clock within 10%. */
static void test_papi_agrees_with_perf(void **state)
{
	static const char *const ev[] = { "task-clock" };
	const struct pcost_counter_iface *papi = &pcost_counter_iface_papi;
	struct pcost_counters *c;
	char why[256];
	void *st = NULL;
	uint64_t pv = 0, kv = 0;
	pcost_ns c0, c1;

	NEED_PERF();
	/* libpapi is linked in; its libpfm4 needs a hardware PMU for any event at all. */
	if (!fact_hardware_pmu(why, sizeof(why))) {
		print_message("skip: %s: PAPI's perf_event component is disabled without one\n",
			      why);
		skip();
	}
	if (!papi->available(why, sizeof(why)))
		fail_msg("PAPI unusable on a machine with a PMU and perf events: %s", why);
	if (papi->open(&st, ev, 1, why, sizeof(why)))
		fail_msg("PAPI cannot open perf::task-clock: %s", why);
	assert_int_equal(pcost_counters_open(&c, ev, 1), 0);
	assert_int_equal(pcost_counters_start(c), 0);
	assert_int_equal(papi->start(st), 0);
	/* 50 ms of this thread's CPU time, however long a shared CPU makes that take. */
	c0 = thread_cpu_ns();
	while ((c1 = thread_cpu_ns()) - c0 < 50000000)
		;
	assert_int_equal(papi->read(st, &pv), 0);
	assert_int_equal(pcost_counters_read(c, &kv), 0);
	assert_int_equal(papi->stop(st), 0);
	assert_int_equal(pcost_counters_stop(c), 0);
	papi->close(st);
	pcost_counter_papi_shutdown();
	pcost_counters_close(c);
	print_message("task-clock: PAPI %llu, perf read %llu\n", (unsigned long long)pv,
		      (unsigned long long)kv);
	assert_true((double)kv > 0.9 * (double)(c1 - c0)); /* perf itself counted the spin */
	assert_true((double)pv > 0.9 * (double)kv && (double)pv < 1.1 * (double)kv);
}

/* Names: libpfm4 resolves perf's names, refuses unknown ones, and suggests close ones. */
static void test_names(void **state)
{
	struct perf_event_attr attr;
	char buf[512], *names[21];

	assert_int_equal(pcost_counter_resolve("task-clock", false, &attr, buf, sizeof(buf)), 0);
	assert_int_equal(attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(attr.exclude_kernel, 0);
	assert_int_equal(pcost_counter_resolve("context-switches", true, &attr, NULL, 0), 0);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_int_equal(pcost_counter_resolve("cycles", false, &attr, NULL, 0), 0);
	assert_int_equal(attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(pcost_counter_resolve("tsk-clock", false, &attr, NULL, 0), -ENOENT);
	assert_true(pcost_counter_suggest("tsk-clock", buf, sizeof(buf), 5) >= 1);
	assert_non_null(strstr(buf, "TASK-CLOCK"));
	assert_int_equal(pcost_counter_suggest("zzzzzzzzzzzzzzzz", buf, sizeof(buf), 5), 0);

	/* 21 default software names, all distinct and all known to libpfm4. */
	assert_int_equal(pcost_counter_default_events(false, 21, names), 21);
	for (int i = 0; i < 21; i++) {
		assert_int_equal(pcost_counter_resolve(names[i], false, &attr, NULL, 0), 0);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(names[i], names[j]);
	}
	for (int i = 0; i < 21; i++)
		free(names[i]);
	assert_int_equal(pcost_counter_default_events(false, 22, names), -E2BIG);
}

/* Software events have index 0 in their user page: the mmap path says so, it does not fake. */
static void test_mmap_software_refused(void **state)
{
	static const char *const ev[] = { "task-clock" };
	struct pcost_counters *c;
	uint64_t v;
	char why[256];

	NEED_PERF();
	PCOST_OPTS(pcost_counter_opts, o, .mmap = true);
	assert_int_equal(pcost_counters_open_opts(&c, ev, 1, &o), 0);
	assert_int_equal(pcost_counters_start(c), 0);
	assert_int_equal(pcost_counters_mmap_check(c, why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "software event"));
	assert_int_equal(pcost_counters_read_mmap(c, &v), -EOPNOTSUPP);
	pcost_counters_stop(c);
	pcost_counters_close(c);
}

static void test_bad_sizes(void **state)
{
	static const char *const ev[] = { "task-clock" };
	struct pcost_counters *c = (void *)1;

	assert_int_equal(pcost_counters_open(&c, ev, 0), -E2BIG);
	assert_null(c);
	assert_int_equal(pcost_counters_open(&c, ev, PCOST_COUNTERS_MAX + 1), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_task_clock_vs_wall),
		cmocka_unit_test(test_context_switches_yield),
		cmocka_unit_test(test_page_faults),
		cmocka_unit_test(test_member_not_scaled_by_stopped_time),
		cmocka_unit_test(test_monotonic),
		cmocka_unit_test(test_mmap_software_refused),
		cmocka_unit_test(test_no_fd_leak),
		cmocka_unit_test(test_papi_agrees_with_perf),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
