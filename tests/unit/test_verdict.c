// SPDX-License-Identifier: MIT
/* test_verdict: whose doing a run's failure was, rule by rule (run/verdict.h), with known answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "run/verdict.h"
#include "workloads/uprobe.h"

static struct pcost_run_said said;

/* A run as the runner has it after the reap: exit 0 and a report of 100 events unless changed. */
static struct pcost_run_sample run(void)
{
	struct pcost_run_sample x = { .wait_status = 0,
				      .has_report = true,
				      .events = 100,
				      .monitor_events = -1,
				      .check = 1 };

	memset(&said, 0, sizeof(said));
	return x;
}

static struct pcost_verdict_in in(enum pcost_monitor_kind kind)
{
	return (struct pcost_verdict_in){ .kind = kind,
					  .monitor = "tracer",
					  .report_fd = true,
					  .expected = -1,
					  .program = "/proc/self/exe",
					  .said = &said };
}

static void a_known_function(void)
{
}

static void program_died(void **state)
{
	struct pcost_run_sample x = run();
	struct pcost_verdict_in v = in(PCOST_MON_WRAP);
	uint64_t vaddr;
	char want[64];

	(void)state;
	/* Under a wrapper that hid the signal (exit 0): the fault line decides. */
	assert_int_equal(pcost_self_vaddr((const void *)a_known_function, &vaddr), 0);
	strcpy(said.signal, "SEGV");
	said.has_ip = said.has_ip_vaddr = said.has_addr = true;
	said.ip_vaddr = vaddr;
	said.addr = 0x10;
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_PROGRAM);
	assert_true(x.failed);
	snprintf(want, sizeof(want), "killed by SIGSEGV at a_known_function+0x0 (");
	assert_memory_equal(x.fail_reason, want, strlen(want));
	assert_non_null(strstr(x.fail_reason, "), address 0x10"));
	/* Sent, not raised; and an instruction outside the executable. */
	x = run();
	strcpy(said.signal, "BUS");
	said.from_pid = 77;
	said.has_ip = true;
	said.ip = 0x7f0012345678;
	pcost_run_verdict(&x, &v);
	assert_string_equal(
		x.fail_reason,
		"killed by SIGBUS at 0x7f0012345678, outside the executable, sent by pid 77");
}

static void program_checks(void **state)
{
	struct pcost_run_sample x = run();
	struct pcost_verdict_in v = in(PCOST_MON_WRAP);

	(void)state;
	x.check = -1;
	strcpy(said.check_why, "kernel fft computed a wrong result");
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_PROGRAM);
	assert_true(x.failed);
	assert_string_equal(x.fail_reason,
			    "failed its own check: kernel fft computed a wrong result");
	/* Its own count of hits against the hits expected (probes): 90 made, 100 expected. */
	x = run();
	x.events = 90;
	v.expected = 100;
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_PROGRAM);
	assert_string_equal(x.fail_reason,
			    "made 90 hits, 100 expected: the program ran differently");
}

/* A failed run: whose it is depends on what stands between probecost and the program. */
static void failed_runs(void **state)
{
	static const struct {
		enum pcost_monitor_kind kind;
		const char *reason;
		enum pcost_fault want;
	} cases[] = {
		{ PCOST_MON_BASELINE, "exit 3", PCOST_FAULT_PROGRAM },
		{ PCOST_MON_BASELINE, "timeout after 2 s", PCOST_FAULT_PROGRAM },
		{ PCOST_MON_ATTACH, "killed by SIGSEGV", PCOST_FAULT_PROGRAM },
		{ PCOST_MON_PRELOAD, "exit 3", PCOST_FAULT_PROGRAM },
		{ PCOST_MON_ATTACH, "hung: killed after 12.0 s", PCOST_FAULT_TOOL },
		{ PCOST_MON_ATTACH, "timeout after 2 s", PCOST_FAULT_TOOL },
		{ PCOST_MON_WRAP, "killed by SIGSEGV", PCOST_FAULT_TOOL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pcost_run_sample x = run();
		struct pcost_verdict_in v = in(cases[i].kind);

		x.has_report = false;
		pcost_sample_fail(&x, "%s", cases[i].reason);
		pcost_run_verdict(&x, &v);
		assert_int_equal(x.fault, cases[i].want);
		assert_string_equal(x.fail_reason, cases[i].reason);
	}
}

/*
 * A wrapper's failed run: the program's where the wrapper passes its ending on
 * and did not say the failure was its own (verdict.c's table).
 */
static void wrapped_runs(void **state)
{
	static const struct {
		char *argv[3];
		const char *reason;
		enum pcost_fault want;
	} cases[] = {
		{ { "strace", "-f" }, "exit 3: traced by 77", PCOST_FAULT_PROGRAM },
		{ { "/usr/bin/strace", "-f" }, "killed by SIGSEGV", PCOST_FAULT_PROGRAM },
		{ { "strace", "-f" }, "exit 1: strace: Cannot find user 'x'", PCOST_FAULT_TOOL },
		{ { "perf", "stat" }, "exit 1: WRONG: sum=12", PCOST_FAULT_PROGRAM },
		{ { "perf", "stat" }, "exit 129: Usage: perf stat", PCOST_FAULT_TOOL },
		{ { "perf", "stat" }, "exit 255: Workload failed: No such file", PCOST_FAULT_TOOL },
		{ { "perf", "stat" }, "killed by SIGSEGV", PCOST_FAULT_TOOL },
		{ { "perf", "record" }, "killed by SIGBUS", PCOST_FAULT_PROGRAM },
		{ { "perf", "trace" }, "exit 1", PCOST_FAULT_TOOL },
		{ { "ltrace", "-f" }, "exit 1: Can't execute `x'", PCOST_FAULT_TOOL },
		{ { "valgrind", "-q" }, "exit 3", PCOST_FAULT_PROGRAM },
		{ { "valgrind", "-q" }, "exit 1: valgrind: Bad option", PCOST_FAULT_TOOL },
		{ { "/home/me/wrap" }, "exit 3: traced", PCOST_FAULT_PROGRAM },
		{ { "env", "-C" }, "exit 125: env: cannot change directory", PCOST_FAULT_TOOL },
		{ { "taskset", "-c" }, "exit 127: taskset: failed to execute x", PCOST_FAULT_TOOL },
		{ { "/home/me/wrap" }, "killed by SIGSEGV", PCOST_FAULT_TOOL },
		{ { "/home/me/wrap" },
		  "could not execute '/home/me/wrap': No such file",
		  PCOST_FAULT_TOOL },
		{ { "strace" }, "timeout after 2 s", PCOST_FAULT_TOOL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pcost_run_sample x = run();
		struct pcost_verdict_in v = in(PCOST_MON_WRAP);

		x.has_report = false;
		pcost_verdict_wrapper(&v, cases[i].argv);
		pcost_sample_fail(&x, "%s", cases[i].reason);
		pcost_run_verdict(&x, &v);
		if (x.fault != cases[i].want)
			fail_msg("%s / %s: fault %d, want %d", cases[i].argv[0], cases[i].reason,
				 (int)x.fault, (int)cases[i].want);
	}
}

/* perf stat exits 0 after its program died of a signal; its last line says which. */
static void hidden_signals(void **state)
{
	struct pcost_run_sample x = run();
	struct pcost_verdict_in v = in(PCOST_MON_WRAP);
	char *perf[] = { "perf", "stat", NULL }, *strace[] = { "strace", "-f", NULL };

	(void)state;
	x.has_report = false;
	v.report_fd = false;
	v.program = "./prog";
	pcost_verdict_wrapper(&v, perf);
	strcpy(said.err_last, "./prog: Segmentation fault");
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_PROGRAM);
	assert_string_equal(x.fail_reason, "killed by SIGSEGV (perf stat exited 0)");
	/* Another program's words, or another wrapper: nothing hidden. */
	x = run();
	x.has_report = false;
	strcpy(said.err_last, "./other: Segmentation fault");
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_NONE);
	x = run();
	x.has_report = false;
	strcpy(said.err_last, "./prog: Segmentation fault");
	pcost_verdict_wrapper(&v, strace);
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_NONE);
}

static void tool_runs(void **state)
{
	struct pcost_run_sample x = run();
	struct pcost_verdict_in v = in(PCOST_MON_ATTACH);

	(void)state;
	/* The monitor said it failed: the tool's, even with the program's status bad. */
	v.tool_failed = true;
	pcost_sample_fail(&x, "monitor did not start: no");
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_TOOL);
	/* The dormant "monitor" too: its check that the binary is the one armed failed. */
	x = run();
	v = in(PCOST_MON_BASELINE);
	v.tool_failed = true;
	pcost_sample_fail(&x, "monitor did not start: the binary was replaced");
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_TOOL);
	v = in(PCOST_MON_ATTACH);
	/* Exit 0 and no report from a built-in workload: a tool hid how it ended. */
	x = run();
	v.tool_failed = false;
	x.has_report = false;
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_TOOL);
	assert_true(x.failed);
	assert_string_equal(x.fail_reason,
			    "the workload's report did not come back (tracer hid how it ended)");
	/* A shortfall the tracer did not own up to: the tool's, the run still timed. */
	x = run();
	v.expected = 100;
	x.monitor_events = 90;
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_TOOL);
	assert_false(x.failed);
	assert_string_equal(
		x.fail_reason,
		"tracer counted 90 of the 100 hits the program made and reported no loss");
	/* The same shortfall said (the tracer's note): its loss, the run is fine. */
	x = run();
	x.monitor_events = 90;
	strcpy(x.note, "lttng discarded 10 events");
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_NONE);
	/* All counted. */
	x = run();
	x.monitor_events = 100;
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_NONE);
	assert_false(x.failed);
}

/* --check-output (rule 5a): a run that ended well but printed something else is the program's. */
static void changed_output(void **state)
{
	static const char why[] = "stdout differs from the plain runs' at line 2: 'traced: yes' "
				  "(plain: 'traced: no')";
	char *const strace[] = { "strace", "-o", "/dev/null", "./prog", NULL };
	struct pcost_run_sample x = run();
	struct pcost_verdict_in v = in(PCOST_MON_WRAP);

	(void)state;
	v.report_fd = false;
	x.has_report = false;
	pcost_verdict_wrapper(&v, strace);
	strcpy(v.output, why);
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_PROGRAM);
	assert_true(x.failed);
	assert_string_equal(x.fail_reason, why);
	/* The tool's own failure comes first: what it printed then says nothing. */
	x = run();
	x.has_report = false;
	v.tool_failed = true;
	pcost_sample_fail(&x, "monitor strace failed: no count");
	pcost_run_verdict(&x, &v);
	assert_int_equal(x.fault, PCOST_FAULT_TOOL);
	assert_string_equal(x.fail_reason, "monitor strace failed: no count");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(program_died),	  cmocka_unit_test(program_checks),
		cmocka_unit_test(failed_runs),	  cmocka_unit_test(wrapped_runs),
		cmocka_unit_test(hidden_signals), cmocka_unit_test(tool_runs),
		cmocka_unit_test(changed_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
