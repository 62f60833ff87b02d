// SPDX-License-Identifier: MIT
/*
 * test_proc: starting a child (struct pcost_child: capture, merge, a passed fd, closed fds,
 * hold until go, vfork, pin, rusage, timeout); a wait status in words; helper processes:
 * the first real error line, crashes judged, death with the parent; runs that cannot start.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cleanup.h"
#include "core/proc.h"
#include "run/runner.h"

#define SEC 1000000000ULL

/* All of what fd says until EOF, into buf (NUL-terminated); closes fd. */
static void read_all(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) != 0)
		if (r > 0)
			n += (size_t)r;
		else if (errno != EINTR)
			break;
	buf[n] = 0;
	close(fd);
}

/* A child of sh -c script, described. */
static void sh_child(struct pcost_child *c, const char *script, char **argv)
{
	argv[0] = "/bin/sh";
	argv[1] = "-c";
	argv[2] = (char *)script;
	argv[3] = NULL;
	pcost_child_init(c);
	c->argv = argv;
}

/* Reaped, its group gone from the cleanup list. */
static void finish(struct pcost_child *c, const struct pcost_child_wait *w)
{
	pcost_child_wait(c, w);
	kill(-c->pid, SIGKILL);
	pcost_child_remove(c->pid);
}

/* Capture: stdout and stderr each into a pipe of ours, or merged into one in order. */
static void test_child_capture(void **state)
{
	char *argv[4], out[128], err[128];
	struct pcost_child c;

	(void)state;
	sh_child(&c, "echo one; echo two >&2; echo three; exit 3", argv);
	c.fd[1] = c.fd[2] = PCOST_CHILD_PIPE;
	assert_int_equal(pcost_child_start(&c), 0);
	assert_true(c.pid > 0);
	read_all(c.pipe[1], out, sizeof(out));
	read_all(c.pipe[2], err, sizeof(err));
	finish(&c, NULL);
	assert_string_equal(out, "one\nthree\n");
	assert_string_equal(err, "two\n");
	assert_true(WIFEXITED(c.status));
	assert_int_equal(WEXITSTATUS(c.status), 3);

	sh_child(&c, "echo one; echo two >&2; echo three", argv);
	c.fd[1] = PCOST_CHILD_PIPE;
	c.flags = PCOST_CHILD_MERGE;
	assert_int_equal(pcost_child_start(&c), 0);
	assert_int_equal(c.pipe[2], -1);
	read_all(c.pipe[1], out, sizeof(out));
	finish(&c, NULL);
	assert_string_equal(out, "one\ntwo\nthree\n");
	assert_int_equal(c.status, 0);
}

/* pass_fd arrives as fd 3; with CLOSE_FDS nothing else of ours does. */
static void test_child_fds(void **state)
{
	char *argv[4], script[160], out[128];
	struct pcost_child c;
	int rep[2], nul = open("/dev/null", O_RDONLY), stray = fcntl(nul, F_DUPFD, 10);

	(void)state;
	close(nul);
	assert_true(stray >= 10); /* not close-on-exec */
	assert_int_equal(pipe2(rep, O_CLOEXEC), 0);
	snprintf(
		script, sizeof(script),
		"echo report >&3; test -e /proc/self/fd/%d && echo stray open || echo stray closed",
		stray);
	sh_child(&c, script, argv);
	c.fd[1] = PCOST_CHILD_PIPE;
	c.pass_fd = rep[1];
	c.flags = PCOST_CHILD_CLOSE_FDS;
	assert_int_equal(pcost_child_start(&c), 0);
	close(rep[1]);
	read_all(c.pipe[1], out, sizeof(out));
	assert_string_equal(out, "stray closed\n");
	read_all(rep[0], out, sizeof(out));
	assert_string_equal(out, "report\n");
	finish(&c, NULL);
	assert_int_equal(c.status, 0);
	/* Without CLOSE_FDS: ours, as they are. */
	sh_child(&c, script, argv);
	c.fd[1] = PCOST_CHILD_PIPE;
	c.fd[2] = PCOST_CHILD_NULL;
	assert_int_equal(pcost_child_start(&c), 0);
	read_all(c.pipe[1], out, sizeof(out));
	assert_string_equal(out, "stray open\n");
	finish(&c, NULL);
	close(stray);
}

/* /proc/PID/syscall: the syscall it is blocked in (-1: running or gone). */
static long blocked_in(pid_t pid)
{
	char path[64], buf[256];
	long nr = -1;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) > 0 && sscanf(buf, "%ld", &nr) != 1)
		nr = -1;
	return nr;
}

/* HOLD: set up and waiting on the go pipe; nothing of the program runs before the go. */
static void test_child_hold(void **state)
{
	char *argv[4], out[64];
	struct pcost_child c;
	int i;

	(void)state;
	sh_child(&c, "echo started", argv);
	c.fd[1] = PCOST_CHILD_PIPE;
	c.flags = PCOST_CHILD_HOLD;
	assert_int_equal(pcost_child_start(&c), 0);
	for (i = 0; i < 500 && blocked_in(c.pid) != SYS_read; i++)
		usleep(1000);
	assert_int_equal(blocked_in(c.pid), SYS_read);
	usleep(50 * 1000);
	assert_int_equal(blocked_in(c.pid), SYS_read); /* still held, */
	/* nothing said yet */
	assert_int_equal(poll(&(struct pollfd){ .fd = c.pipe[1], .events = POLLIN }, 1, 0), 0);
	assert_int_equal(pcost_child_go(&c), 0);
	assert_int_equal(c.go_fd, -1);
	read_all(c.pipe[1], out, sizeof(out));
	finish(&c, NULL);
	assert_string_equal(out, "started\n");
	assert_int_equal(c.status, 0);
	/* Its exec fails: said at the go, with the stage. */
	pcost_child_init(&c);
	c.argv = (char *[]){ "/nonexistent/probecost-test", NULL };
	c.path = "/nonexistent/probecost-test";
	c.flags = PCOST_CHILD_HOLD;
	assert_int_equal(pcost_child_start(&c), 0);
	assert_int_equal(pcost_child_go(&c), -ENOENT);
	assert_int_equal(c.fail_stage, PCOST_CHILD_STAGE_EXEC);
	finish(&c, NULL);
	assert_true(WIFEXITED(c.status));
	assert_int_equal(WEXITSTATUS(c.status), 127);
}

/* VFORK: its clock right before its exec; a failed exec reaped and said at the start. */
static void test_child_vfork(void **state)
{
	char *argv[4], out[64];
	struct pcost_child c;
	pcost_ns t0 = pcost_now_ns();

	(void)state;
	sh_child(&c, "echo vforked", argv);
	c.fd[1] = PCOST_CHILD_PIPE;
	c.flags = PCOST_CHILD_VFORK;
	assert_int_equal(pcost_child_start(&c), 0);
	assert_true(c.exec_ns >= t0 && c.exec_ns <= pcost_now_ns());
	read_all(c.pipe[1], out, sizeof(out));
	finish(&c, NULL);
	assert_string_equal(out, "vforked\n");
	pcost_child_init(&c);
	c.argv = (char *[]){ "/nonexistent/probecost-test", NULL };
	c.flags = PCOST_CHILD_VFORK;
	assert_int_equal(pcost_child_start(&c), -ENOENT);
	assert_int_equal(c.fail_stage, PCOST_CHILD_STAGE_EXEC);
	assert_int_equal(c.pid, 0);
	/* Held or a function: not with vfork. */
	c.flags = PCOST_CHILD_VFORK | PCOST_CHILD_HOLD;
	assert_int_equal(pcost_child_start(&c), -EINVAL);
}

/* The CPU the child runs on, as its exit status. */
static int on_cpu(void *arg)
{
	(void)arg;
	return sched_getcpu();
}

/* Pinned: where more than one CPU is ours, the last one (not where we run by chance). */
static void test_child_pin(void **state)
{
	struct pcost_child c;
	cpu_set_t set;
	int last = -1;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	if (CPU_COUNT(&set) < 2)
		skip();
	for (int i = 0; i < 64; i++)
		if (CPU_ISSET(i, &set))
			last = i;
	pcost_child_init(&c);
	c.fn = on_cpu;
	c.cpu_mask = 1ULL << last;
	assert_int_equal(pcost_child_start(&c), 0);
	finish(&c, NULL);
	assert_true(WIFEXITED(c.status));
	assert_int_equal(WEXITSTATUS(c.status), last);
	/* A CPU that does not exist: the start says so. */
	pcost_child_init(&c);
	c.argv = (char *[]){ "/bin/true", NULL };
	c.cpu_mask = 1ULL << 63;
	c.flags = PCOST_CHILD_VFORK;
	assert_true(pcost_child_start(&c) < 0);
	assert_int_equal(c.fail_stage, PCOST_CHILD_STAGE_PIN);
}

/* Its CPU time so far. */
static pcost_ns cpu_used(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (pcost_ns)ts.tv_sec * SEC + (pcost_ns)ts.tv_nsec;
}

/* 50 ms of CPU, however loaded the machine is. */
static int spin(void *arg)
{
	(void)arg;
	while (cpu_used() < 50 * 1000 * 1000)
		;
	return 0;
}

/* rusage from wait4; a deadline kills the group; a busy run gets its stretches. */
static void test_child_rusage_timeout(void **state)
{
	char *argv[4];
	struct pcost_child c;
	struct pcost_child_wait w = { 0 };
	pcost_ns t0, used;

	(void)state;
	pcost_child_init(&c);
	c.fn = spin;
	assert_int_equal(pcost_child_start(&c), 0);
	finish(&c, NULL);
	assert_int_equal(c.status, 0);
	used = (pcost_ns)(c.ru.ru_utime.tv_sec + c.ru.ru_stime.tv_sec) * SEC +
	       (pcost_ns)(c.ru.ru_utime.tv_usec + c.ru.ru_stime.tv_usec) * 1000;
	/* It used 50 ms of CPU (and a little for its start and exit). */
	assert_true(used >= 49 * 1000 * 1000);
	assert_true(used <= 500 * 1000 * 1000);

	sh_child(&c, "sleep 5", argv);
	assert_int_equal(pcost_child_start(&c), 0);
	t0 = pcost_now_ns();
	w.deadline = t0 + 200 * 1000 * 1000;
	finish(&c, &w);
	assert_true(c.timed_out);
	assert_false(c.interrupted);
	assert_true(WIFSIGNALED(c.status));
	assert_int_equal(WTERMSIG(c.status), SIGKILL);
	assert_true(pcost_now_ns() - t0 >= 200 * 1000 * 1000);
	assert_true(pcost_now_ns() - t0 < 3 * SEC);
}

/*
 * The keeper: when our end of its pipe closes unsaid (we died), it stops the group
 * it keeps; said, it leaves it alone.  (It must not hold that pipe's other end itself.)
 */
static void test_keeper(void **state)
{
	char *argv[4];
	struct pcost_child c;
	struct pcost_keeper k;
	pcost_ns t0;

	(void)state;
	sh_child(&c, "exec sleep 97.78", argv);
	assert_int_equal(pcost_child_start(&c), 0);
	assert_int_equal(pcost_keeper_start(&k, c.pid, 1), 0);
	close(k.fd); /* as if we had died */
	t0 = pcost_now_ns();
	pcost_child_wait(&c, NULL);
	pcost_child_remove(c.pid);
	assert_true(WIFSIGNALED(c.status));
	assert_int_equal(WTERMSIG(c.status), SIGTERM);
	assert_true(pcost_now_ns() - t0 < 5 * SEC);
	while (waitpid(k.pid, NULL, 0) < 0 && errno == EINTR)
		;
	/* Released: the group stays. */
	sh_child(&c, "exec sleep 97.78", argv);
	assert_int_equal(pcost_child_start(&c), 0);
	assert_int_equal(pcost_keeper_start(&k, c.pid, 1), 0);
	pcost_keeper_release(&k);
	assert_int_equal(k.pid, 0);
	usleep(100 * 1000);
	assert_int_equal(kill(c.pid, 0), 0);
	kill(-c.pid, SIGKILL);
	finish(&c, NULL);
}

/* The words every caller prints: tests grep for them. */
static void test_wait_status_text(void **state)
{
	char buf[80];

	(void)state;
	pcost_wait_status_text(0, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "exit 0");
	assert_false(pcost_wait_status_failed(0, 0));
	pcost_wait_status_text(3 << 8, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "exit 3");
	assert_true(pcost_wait_status_failed(3 << 8, 0));
	pcost_wait_status_text(1 << 8, "ERROR: no such probe", buf, sizeof(buf));
	assert_string_equal(buf, "exit 1: ERROR: no such probe");
	pcost_wait_status_text(1 << 8, "", buf, sizeof(buf));
	assert_string_equal(buf, "exit 1");
	/* A signal: its line is not said. */
	pcost_wait_status_text(SIGSEGV, "last words", buf, sizeof(buf));
	assert_string_equal(buf, "killed by SIGSEGV");
	assert_true(pcost_wait_status_failed(SIGSEGV, 0));
	assert_true(pcost_wait_status_failed(SIGSEGV, SIGINT));
	pcost_wait_status_text(SIGKILL, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "killed by SIGKILL");
	assert_true(pcost_wait_status_failed(SIGKILL, 0));
	assert_false(pcost_wait_status_failed(SIGKILL, SIGKILL)); /* expected */
	pcost_wait_status_text(-1, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "did not run");
	assert_false(pcost_wait_status_failed(-1, 0));
	pcost_killed_by_text("SEGV", buf, sizeof(buf));
	assert_string_equal(buf, "killed by SIGSEGV");
	/* Cut to fit. */
	pcost_wait_status_text(SIGSEGV, NULL, buf, 10);
	assert_string_equal(buf, "killed by");
}

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
		cmocka_unit_test(test_child_capture),
		cmocka_unit_test(test_child_fds),
		cmocka_unit_test(test_child_hold),
		cmocka_unit_test(test_child_vfork),
		cmocka_unit_test(test_child_pin),
		cmocka_unit_test(test_child_rusage_timeout),
		cmocka_unit_test(test_keeper),
		cmocka_unit_test(test_wait_status_text),
		cmocka_unit_test(test_error_line),
		cmocka_unit_test(test_stop_checked),
		cmocka_unit_test(test_dies_with_parent),
		cmocka_unit_test(test_cannot_start),
		cmocka_unit_test(test_run_capture),
	};

	pcost_cleanup_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
