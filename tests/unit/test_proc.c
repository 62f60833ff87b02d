// SPDX-License-Identifier: MIT
/* test_proc: helper processes: the first real error line, crashes judged, death with the parent; runs that cannot start. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cleanup.h"
#include "core/proc.h"
#include "run/runner.h"

#define SEC 1000000000ULL

static void start_sh(struct pcost_proc *p, const char *script)
{
	char *const argv[] = { "/bin/sh", "-c", (char *)script, NULL };

	assert_int_equal(pcost_proc_start(p, argv), 0);
}

static void test_error_line(void **state)
{
	struct pcost_proc p;
	char line[200], why[200];

	(void)state;
	/* bpftrace 0.17 on a machine without tracefs, as it prints it. */
	start_sh(&p,
		 "echo 'Attaching 2 probes...'; "
		 "echo \"ERROR: couldn't set RLIMIT_MEMLOCK for bpftrace.\" >&2; echo >&2; "
		 "echo 'stdin:1:33-67: ERROR: tracepoint not found: raw_syscalls:sys_enter' >&2; "
		 "echo 'the script again' >&2; exit 1");
	assert_int_equal(pcost_proc_wait_ready(&p, "^ready", 5 * SEC), -EPIPE);
	pcost_proc_error_line(&p, line, sizeof(line));
	assert_string_equal(line,
			    "stdin:1:33-67: ERROR: tracepoint not found: raw_syscalls:sys_enter");
	pcost_proc_stop(&p, SIGINT, SEC);
	assert_true(pcost_proc_died(&p, SIGINT, why, sizeof(why)));
	assert_string_equal(why, "exit 1: stdin:1:33-67: ERROR: tracepoint not found: "
				 "raw_syscalls:sys_enter");
	pcost_proc_release(&p);
	/* Nothing on stderr: the last line of stdout. */
	start_sh(&p, "echo first; echo 'last words'; exit 2");
	pcost_proc_wait_ready(&p, "^ready", 5 * SEC);
	pcost_proc_error_line(&p, line, sizeof(line));
	assert_string_equal(line, "last words");
	pcost_proc_release(&p);
}

static void test_stop_checked(void **state)
{
	struct pcost_proc p;
	char why[200];

	(void)state;
	/* Stops cleanly on SIGINT: no failure. */
	start_sh(&p, "trap 'exit 0' INT; echo ready; while :; do sleep 0.05; done");
	assert_int_equal(pcost_proc_wait_ready(&p, "^ready", 5 * SEC), 0);
	assert_false(pcost_proc_stop_checked(&p, 5 * SEC, why, sizeof(why)));
	pcost_proc_release(&p);
	/* Crashes when asked to stop. */
	start_sh(&p, "trap 'kill -SEGV $$' INT; echo ready; while :; do sleep 0.05; done");
	assert_int_equal(pcost_proc_wait_ready(&p, "^ready", 5 * SEC), 0);
	assert_true(pcost_proc_stop_checked(&p, 5 * SEC, why, sizeof(why)));
	assert_string_equal(why, "killed by SIGSEGV");
	pcost_proc_release(&p);
	/* Crashed during the run. */
	start_sh(&p, "echo ready; kill -SEGV $$");
	assert_int_equal(pcost_proc_wait_ready(&p, "^ready", 5 * SEC), 0);
	usleep(300 * 1000);
	assert_true(pcost_proc_stop_checked(&p, 5 * SEC, why, sizeof(why)));
	assert_string_equal(why, "killed by SIGSEGV during the run");
	pcost_proc_release(&p);
}

/* A helper started by a process that is then SIGKILLed dies with it. */
static void test_dies_with_parent(void **state)
{
	int fds[2], st;
	pid_t mid, helper = 0;
	char path[64], buf[512];
	bool gone = false;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		struct pcost_proc p;
		char *const argv[] = { "sleep", "97.77", NULL };

		if (pcost_proc_start(&p, argv) == 0 && write(fds[1], &p.pid, sizeof(p.pid)) > 0)
			kill(getpid(), SIGKILL);
		_exit(1);
	}
	assert_int_equal(read(fds[0], &helper, sizeof(helper)), (ssize_t)sizeof(helper));
	waitpid(mid, &st, 0);
	assert_true(WIFSIGNALED(st));
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)helper);
	for (int i = 0; i < 200 && !gone; i++) {
		ssize_t n = pcost_read_file(path, buf, sizeof(buf));
		const char *p = n > 0 ? strrchr(buf, ')') : NULL;

		gone = n <= 0 || (p && p[2] == 'Z') || !strstr(buf, "(sleep)");
		if (!gone)
			usleep(10 * 1000);
	}
	assert_true(gone);
	close(fds[0]);
	close(fds[1]);
}

static void test_cannot_start(void **state)
{
	char *const argv[] = { "/nonexistent/probecost-test", NULL };
	struct pcost_runner_opts o;
	struct pcost_run_sample x;
	struct pcost_launch l;

	(void)state;
	pcost_runner_opts_default(&o);
	memset(&x, 0, sizeof(x));
	pcost_launch_init(&l, argv);
	assert_int_equal(pcost_run_once(&l, &o, false, &x, NULL), 0);
	assert_true(x.failed);
	assert_string_equal(
		x.fail_reason,
		"could not execute '/nonexistent/probecost-test': No such file or directory");
	pcost_launch_release(&l);
	/* A CPU that does not exist: said, not run unpinned. */
	{
		char *const t[] = { "/bin/true", NULL };

		o.cpu_mask = 1ULL << 63;
		memset(&x, 0, sizeof(x));
		pcost_launch_init(&l, t);
		assert_int_equal(pcost_run_once(&l, &o, false, &x, NULL), 0);
		assert_true(x.failed);
		assert_non_null(strstr(x.fail_reason, "could not pin to CPUs (--cpu)"));
		pcost_launch_release(&l);
	}
}

/* pcost_proc_run: output captured in order (merged), the exit status, signals, a limit, no program. */
static void test_run_capture(void **state)
{
	char *const both[] = { "sh", "-c", "echo one; echo two >&2; echo three; exit 7", NULL };
	char *const sig[] = { "sh", "-c", "kill -TERM $$", NULL };
	char *const slow[] = { "sleep", "5", NULL };
	char *const none[] = { "/nonexistent/probecost-test", NULL };
	char out[64];
	pcost_ns t0;
	volatile pid_t pid = -1;

	(void)state;
	assert_int_equal(pcost_proc_run(both, PCOST_PROC_MERGE, 0, &pid, out, sizeof(out)), 7);
	assert_string_equal(out, "one\ntwo\nthree\n");
	assert_int_equal(pid, 0); /* cleared once reaped */
	/* Without MERGE: stdout, then stderr. */
	assert_int_equal(pcost_proc_run(both, 0, 0, NULL, out, sizeof(out)), 7);
	assert_string_equal(out, "one\nthree\ntwo\n");
	/* Cut to fit, NUL-terminated. */
	assert_int_equal(pcost_proc_run(both, PCOST_PROC_MERGE, 0, NULL, out, 6), 7);
	assert_string_equal(out, "one\nt");
	assert_int_equal(pcost_proc_run(sig, 0, 0, NULL, out, sizeof(out)), 128 + SIGTERM);
	t0 = pcost_now_ns();
	assert_int_equal(pcost_proc_run(slow, 0, 200000000ULL, NULL, out, sizeof(out)), -ETIMEDOUT);
	assert_true(pcost_now_ns() - t0 < 3000000000ULL); /* killed at 0.2 s, not after 5 s */
	/* exec fails in the child: 127, and what it said. */
	assert_int_equal(pcost_proc_run(none, PCOST_PROC_MERGE, 0, NULL, out, sizeof(out)), 127);
	assert_non_null(strstr(out, "cannot execute"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_line),	 cmocka_unit_test(test_stop_checked),
		cmocka_unit_test(test_dies_with_parent), cmocka_unit_test(test_cannot_start),
		cmocka_unit_test(test_run_capture),
	};

	pcost_cleanup_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
