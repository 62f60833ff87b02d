// SPDX-License-Identifier: MIT
/*
 * test_evcount: a counting run recovers exactly what a child it runs is known
 * to do.  The child is this test program again (/proc/self/exe) in a mode
 * that makes N getppid calls, forks N processes, creates N threads, exits
 * with a status, or leaves a daemon behind; the start-up it shares across
 * sizes cancels in the difference of two sizes.  SDT probe hits are counted on
 * build/fixtures/sdtsem (tests/fixtures/sdtsem, make fixtures), which prints
 * its own.
 */
#include <errno.h>
#include <pthread.h>
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
#include <unistd.h>

#include <cmocka.h>

#include "core/cleanup.h"
#include "run/evcount.h"

/* ---- the child's modes ----------------------------------------------------------- */

static void *nothing(void *arg)
{
	return arg;
}

/* argv[1] names a mode, argv[2] its size; returns the exit status, or -1: not a child. */
static int child_mode(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc < 3)
		return -1;
	if (!strcmp(argv[1], "--getppid")) {
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (!strcmp(argv[1], "--fork")) {
		for (long i = 0; i < n; i++) {
			pid_t p = fork();

			if (p == 0)
				_exit(0);
			waitpid(p, NULL, 0);
		}
		return 0;
	}
	if (!strcmp(argv[1], "--threads")) {
		for (long i = 0; i < n; i++) {
			pthread_t t;

			pthread_create(&t, NULL, nothing, NULL);
			pthread_join(t, NULL);
		}
		return 0;
	}
	if (!strcmp(argv[1], "--exit"))
		return (int)n;
	if (!strcmp(argv[1], "--daemon")) {
		/* A grandchild in a session of its own, its pid written to argv[2]. */
		pid_t p = fork();

		if (p == 0) {
			FILE *f;

			setsid();
			f = fopen(argv[2], "w");
			if (f) {
				fprintf(f, "%d\n", (int)getpid());
				fclose(f);
			}
			sleep(100);
			_exit(0);
		}
		for (int i = 0; i < 1000 && access(argv[2], F_OK); i++)
			usleep(1000);
		usleep(20000); /* its pid is written out whole */
		return 0;
	}
	return -1;
}

/* ---- helpers ------------------------------------------------------------------------ */

/*
 * Built with ASan (make check's second pass), the child is sanitized too: its
 * runtime's background thread makes a few syscalls of its own as time passes,
 * and LeakSanitizer starts a task at exit (turned off in the child below).
 */
#ifdef __SANITIZE_ADDRESS__
#define SANITIZED true
#else
#define SANITIZED false
#endif
extern char **environ;

/* Tracepoints and BPF need root: a machine fact, not probecost's verdict. */
static bool privileged(void)
{
	if (geteuid() == 0)
		return true;
	print_message("skip: not root (tracepoint counters and BPF need root)\n");
	return false;
}

/*
 * One counting run of argv, its stdout to out_fd; probes only when asked:
 * this program links the stanford kernels, whose 114 probes take ~10 s to
 * disarm (each uprobe counter's last close waits for an RCU grace period).
 */
static int count_argv(char *const *argv, int out_fd, bool probes, struct pcost_evcount *c)
{
	struct pcost_evcount_opts o = { .out_fd = out_fd, .err_fd = 2, .no_probes = !probes };
	char err[256] = "", no_lsan[] = "ASAN_OPTIONS=detect_leaks=0", **env;
	size_t n = 0;
	int rc;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	assert_non_null(env);
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "ASAN_OPTIONS=", 13))
			env[n++] = *e;
	env[n] = no_lsan;
	o.env = env;
	rc = pcost_evcount_run(argv, &o, c, err, sizeof(err));
	free(env);

	if (rc)
		print_message("pcost_evcount_run: %d %s\n", rc, err);
	return rc;
}

/* One counting run of this program in mode, no probes. */
static int count(const char *mode, const char *size, struct pcost_evcount *c)
{
	char *const argv[] = { "/proc/self/exe", (char *)mode, (char *)size, NULL };

	return count_argv(argv, -1, false, c);
}

static uint64_t by_nr(const struct pcost_evcount *c, long nr)
{
	for (size_t i = 0; i < c->nby_nr; i++)
		if (c->by_nr[i].nr == nr)
			return c->by_nr[i].count;
	return 0;
}

static uint64_t by_nr_sum(const struct pcost_evcount *c)
{
	uint64_t s = 0;

	for (size_t i = 0; i < c->nby_nr; i++)
		s += c->by_nr[i].count;
	return s;
}

/* ---- tests ------------------------------------------------------------------------ */

static void test_syscalls_known(void **state)
{
	struct pcost_evcount a, b;

	(void)state;
	if (!privileged())
		skip();
	assert_int_equal(count("--getppid", "1000", &a), 0);
	assert_int_equal(count("--getppid", "101000", &b), 0);
	assert_int_equal(a.wait_status, 0);
	/* Two sizes: the start-up cancels, the difference is the loop's exactly. */
	assert_true(a.v[PCOST_EVC_SYSCALLS] > 1000);
	if (SANITIZED)
		assert_in_range(b.v[PCOST_EVC_SYSCALLS] - a.v[PCOST_EVC_SYSCALLS], 99900, 100100);
	else
		assert_int_equal(b.v[PCOST_EVC_SYSCALLS] - a.v[PCOST_EVC_SYSCALLS], 100000);
	/* By number: exactly the getppid calls made, and the same total as the tracepoint. */
	assert_true(a.by_nr_counted && b.by_nr_counted);
	/* (Differences again: a sanitizer's runtime makes calls of its own.) */
	assert_int_equal(by_nr(&b, SYS_getppid) - by_nr(&a, SYS_getppid), 100000);
	assert_true(by_nr(&a, SYS_getppid) >= 1000 && by_nr(&a, SYS_getppid) <= 1010);
	assert_int_equal(by_nr_sum(&a), a.v[PCOST_EVC_SYSCALLS]);
	assert_int_equal(by_nr_sum(&b), b.v[PCOST_EVC_SYSCALLS]);
	assert_string_equal(b.by_nr[0].name, "getppid");
	/* Its own exec, nothing else. */
	assert_int_equal(b.v[PCOST_EVC_EXECS], 1);
	assert_int_equal(b.v[PCOST_EVC_TASKS], a.v[PCOST_EVC_TASKS]);
	assert_int_equal(b.left_running, 0);
	pcost_evcount_release(&a);
	pcost_evcount_release(&b);
}

static void test_tasks_known(void **state)
{
	struct pcost_evcount f0, f, t0, t;

	(void)state;
	if (!privileged())
		skip();
	/* Differences of two sizes: a sanitizer's runtime may start tasks of its own. */
	assert_int_equal(count("--fork", "1", &f0), 0);
	assert_int_equal(count("--fork", "38", &f), 0);
	assert_int_equal(f.v[PCOST_EVC_TASKS] - f0.v[PCOST_EVC_TASKS], 37);
	assert_int_equal(f.v[PCOST_EVC_THREADS] - f0.v[PCOST_EVC_THREADS], 0);
	/* Every child's exit_group is seen by both counters: they follow the tree. */
	assert_int_equal(by_nr_sum(&f), f.v[PCOST_EVC_SYSCALLS]);
	assert_int_equal(by_nr(&f, SYS_exit_group) - by_nr(&f0, SYS_exit_group), 37);
	assert_int_equal(count("--threads", "1", &t0), 0);
	assert_int_equal(count("--threads", "24", &t), 0);
	assert_int_equal(t.v[PCOST_EVC_TASKS] - t0.v[PCOST_EVC_TASKS], 23);
	assert_int_equal(t.v[PCOST_EVC_THREADS] - t0.v[PCOST_EVC_THREADS], 23);
	assert_int_equal(by_nr_sum(&t), t.v[PCOST_EVC_SYSCALLS]);
	pcost_evcount_release(&f0);
	pcost_evcount_release(&f);
	pcost_evcount_release(&t0);
	pcost_evcount_release(&t);
}

/* What needs no privilege: software counters, rusage, the exit status. */
static void test_exit_status_and_software(void **state)
{
	struct pcost_evcount c;

	(void)state;
	assert_int_equal(count("--exit", "3", &c), 0);
	assert_true(WIFEXITED(c.wait_status));
	assert_int_equal(WEXITSTATUS(c.wait_status), 3);
	assert_string_equal(c.fail, "exit 3");
	assert_true(c.wall_ns > 0);
	/* A process that ran took page faults and CPU time, and was switched out at exit. */
	assert_true(c.v[PCOST_EVC_MINOR_FAULTS] > 0);
	assert_true(c.v[PCOST_EVC_TASK_CLOCK] > 0);
	assert_true(c.v[PCOST_EVC_CSWITCHES] >= 0);
	assert_true(c.v[PCOST_EVC_CSW_VOLUNTARY] >= 0 && c.v[PCOST_EVC_CSW_INVOLUNTARY] >= 0);
	/* Not asked for: said, not zero. */
	assert_false(c.probes_counted);
	assert_string_equal(c.probes_why, "not asked for");
	pcost_evcount_release(&c);
}

/*
 * Each probe's hits, semaphores raised: what the fixture counts itself and
 * prints, exactly, and the known multiplicities (a once a loop, b twice, c
 * three times, never not at all: tests/fixtures/sdtsem/main.c).
 */
#define SDTSEM "build/fixtures/sdtsem"
#define SDTSEM_LOOPS 1000

static void test_sdt_hits_known(void **state)
{
	static const struct {
		const char *name;
		unsigned per_loop;
	} probes[] = { { "a", 1 }, { "b", 2 }, { "c", 3 }, { "never", 0 } };
	char loops[24], *const argv[] = { SDTSEM, loops, NULL };
	unsigned long long said[4];
	struct pcost_evcount c;
	char line[256] = "";
	unsigned seen = 0;
	FILE *out;

	(void)state;
	if (!privileged())
		skip();
	if (access("/sys/bus/event_source/devices/uprobe", F_OK)) {
		print_message("skip: no uprobe PMU (CONFIG_UPROBE_EVENTS)\n");
		skip();
	}
	/* make builds the fixture before the unit tests: missing, it is a failure. */
	if (access(SDTSEM, X_OK))
		fail_msg("%s: %s (make fixtures)", SDTSEM, strerror(errno));
	snprintf(loops, sizeof(loops), "%d", SDTSEM_LOOPS);
	out = tmpfile();
	assert_non_null(out);
	assert_int_equal(count_argv(argv, fileno(out), true, &c), 0);
	assert_int_equal(c.wait_status, 0);
	rewind(out);
	assert_non_null(fgets(line, sizeof(line), out));
	fclose(out);
	assert_int_equal(sscanf(line, "hits_a=%llu hits_b=%llu hits_c=%llu hits_never=%llu",
				&said[0], &said[1], &said[2], &said[3]),
			 4);
	/* The semaphores were raised: every site passed was a hit. */
	for (int k = 0; k < 4; k++)
		assert_int_equal(said[k], probes[k].per_loop * SDTSEM_LOOPS);
	assert_true(c.probes_counted);
	assert_int_equal(c.nprobes, 4);
	for (size_t i = 0; i < c.nprobes; i++) {
		const struct pcost_evc_probe *p = &c.probes[i];

		assert_string_equal(p->provider, "sdtsem");
		for (int k = 0; k < 4; k++)
			if (!strcmp(p->name, probes[k].name)) {
				assert_int_equal(p->hits, said[k]);
				seen |= 1u << k;
			}
	}
	/* Four probes, each of the fixture's once. */
	assert_int_equal(seen, 0xf);
	pcost_evcount_release(&c);
}

static void test_not_found(void **state)
{
	char *const argv[] = { "pcost-no-such-command-anywhere", NULL };
	struct pcost_evcount_opts o = { .out_fd = -1, .err_fd = -1 };
	struct pcost_evcount c;
	char err[256] = "";

	(void)state;
	assert_int_equal(pcost_evcount_run(argv, &o, &c, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "pcost-no-such-command-anywhere"));
	assert_int_equal(c.wait_status, -1);
	pcost_evcount_release(&c);
}

/* A daemon that left the group and lost its parent is counted, killed and reaped. */
static void test_daemon_left_running(void **state)
{
	char dir[] = "/tmp/pcost-evc-XXXXXX", path[64], buf[32] = "";
	struct pcost_evcount c;
	FILE *f;
	int pid = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/pid", dir);
	assert_int_equal(count("--daemon", path, &c), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	pid = atoi(buf);
	assert_true(pid > 0);
	assert_int_equal(c.left_running, 1);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	if (c.v[PCOST_EVC_TASKS] >= 0)
		assert_int_equal(c.v[PCOST_EVC_TASKS], 1);
	unlink(path);
	rmdir(dir);
	pcost_evcount_release(&c);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syscalls_known),
		cmocka_unit_test(test_tasks_known),
		cmocka_unit_test(test_exit_status_and_software),
		cmocka_unit_test(test_sdt_hits_known),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_daemon_left_running),
	};
	int rc = child_mode(argc, argv);

	if (rc >= 0)
		return rc;
	pcost_cleanup_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
