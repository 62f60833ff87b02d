// SPDX-License-Identifier: MIT
/* test_runner: one run's exit status, signal, timeout, report line; a whole measurement of two configurations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/cleanup.h"
#include "run/runner.h"

static struct pcost_run_said said;

static void run_sh(const char *script, double timeout, bool report, struct pcost_run_sample *x,
		   char *unit)
{
	char *const argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	struct pcost_runner_opts o;
	struct pcost_launch l;

	pcost_runner_opts_default(&o);
	o.timeout_s = timeout;
	memset(x, 0, sizeof(*x));
	x->monitor_events = -1;
	pcost_launch_init(&l, argv);
	pcost_launch_setenv(&l, "PCOST_TEST_VALUE", "42");
	assert_int_equal(pcost_run_once(&l, &o, report, x, &said), 0);
	strcpy(unit, said.unit);
	pcost_launch_release(&l);
}

static void test_exit_and_signal(void **state)
{
	struct pcost_run_sample x;
	char unit[32] = "";

	(void)state;
	run_sh("exit 0", 0, false, &x, unit);
	assert_false(x.failed);
	assert_true(x.wall_ns > 0);
	run_sh("echo oops >&2; exit 3", 0, false, &x, unit);
	assert_true(x.failed);
	assert_string_equal(x.fail_reason, "exit 3: oops");
	run_sh("kill -SEGV $$", 0, false, &x, unit);
	assert_true(x.failed);
	assert_string_equal(x.fail_reason, "killed by SIGSEGV");
	/* The environment given to the launch reaches the child. */
	run_sh("test \"$PCOST_TEST_VALUE\" = 42", 0, false, &x, unit);
	assert_false(x.failed);
}

static void test_timeout(void **state)
{
	struct pcost_run_sample x;
	char unit[32] = "";

	(void)state;
	run_sh("sleep 5", 0.2, false, &x, unit);
	assert_true(x.failed);
	assert_string_equal(x.fail_reason, "timeout after 0.2 s");
	assert_true(x.wall_ns >= 200000000ULL && x.wall_ns < 3000000000ULL);
}

static void test_report(void **state)
{
	struct pcost_run_sample x;
	char unit[32] = "";

	(void)state;
	run_sh("echo \"events=1234 unit=hop timed_ns=999\" >&$PROBECOST_REPORT_FD", 0, true, &x,
	       unit);
	assert_false(x.failed);
	assert_true(x.has_report);
	assert_int_equal(x.events, 1234);
	assert_int_equal(x.timed_ns, 999);
	assert_string_equal(unit, "hop");
}

/* check= and its quoted why=, and a fault line (workloads/process.h) beside or without a report. */
static void test_report_check_and_fault(void **state)
{
	struct pcost_run_sample x;
	char unit[32] = "";

	(void)state;
	run_sh("echo 'events=7 unit=hop timed_ns=1 check=ok' >&$PROBECOST_REPORT_FD", 0, true, &x,
	       unit);
	assert_true(x.has_report);
	assert_int_equal(x.check, 1);
	assert_string_equal(said.signal, "");
	run_sh("echo 'events=7 unit=hop timed_ns=1 check=bad why=\"kernel fft computed a wrong "
	       "result\" after=1' >&$PROBECOST_REPORT_FD; exit 1",
	       0, true, &x, unit);
	assert_true(x.has_report);
	assert_int_equal(x.events, 7);
	assert_int_equal(x.check, -1);
	assert_string_equal(said.check_why, "kernel fft computed a wrong result");
	/* Only a fault line: no report, but the signal, where, and whence. */
	run_sh("echo 'signal=SEGV code=1 pid=9 addr=0x10 ip=0x55d0c1a2b3c4 ip_vaddr=0x1b3c4' "
	       ">&$PROBECOST_REPORT_FD; kill -SEGV $$",
	       0, true, &x, unit);
	assert_false(x.has_report);
	assert_true(x.failed);
	assert_string_equal(said.signal, "SEGV");
	assert_true(said.has_addr && said.has_ip && said.has_ip_vaddr);
	assert_int_equal(said.addr, 0x10);
	assert_int_equal(said.ip_vaddr, 0x1b3c4);
	assert_int_equal(said.from_pid, 0);
	/* A forked worker's fault line before its parent's report: both are read. */
	run_sh("{ echo 'signal=BUS code=-6 pid=9 from_pid=77'; echo 'events=3 unit=x timed_ns=2'; } "
	       ">&$PROBECOST_REPORT_FD",
	       0, true, &x, unit);
	assert_true(x.has_report);
	assert_int_equal(x.events, 3);
	assert_string_equal(said.signal, "BUS");
	assert_int_equal(said.from_pid, 77);
	assert_false(said.has_addr);
}

static void test_measure(void **state)
{
	static char *const argv[] = { "/bin/true", NULL };
	struct pcost_monitor *none, *bad;
	struct pcost_runner_opts o;
	struct pcost_session s;
	struct pcost_runner r;
	struct pcost_target t = { .workload = "command",
				  .workload_args = "/bin/true",
				  .unit = "run",
				  .argv = argv,
				  .scale = 1,
				  .events = 1 };
	char err[128];

	(void)state;
	none = pcost_monitor_create("none", err, sizeof(err));
	bad = pcost_monitor_create("/nonexistent/wrapper {}", err, sizeof(err));
	assert_non_null(none);
	assert_non_null(bad);
	pcost_runner_opts_default(&o);
	o.runs = 3;
	o.warmup = 1;
	o.seed = 5;
	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_runner_init(&r, &s, &o);
	assert_int_equal(pcost_runner_add(&r, none, &t), 0);
	assert_int_equal(pcost_runner_add(&r, bad, &t), 1);
	assert_int_equal(pcost_runner_measure(&r, err, sizeof(err)), 0);
	assert_true(s.complete);
	assert_int_equal(s.seed, 5);
	/* 1 warm-up + 3 measured runs of none; the broken wrapper dropped after 2 failures. */
	assert_int_equal(s.configs[0].nsamples, 4);
	assert_true(s.configs[0].samples[0].warmup);
	assert_int_equal(s.configs[0].samples[3].block, 3);
	assert_int_equal(s.configs[1].nsamples, 2);
	assert_true(s.configs[1].samples[1].failed);
	assert_string_equal(s.configs[1].monitor, "/nonexistent/wrapper {}");
	pcost_runner_release(&r);
	pcost_session_release(&s);
	pcost_monitor_free(bad);
	pcost_monitor_free(none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_and_signal),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_report_check_and_fault),
		cmocka_unit_test(test_measure),
	};

	pcost_cleanup_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
