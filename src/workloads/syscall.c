// SPDX-License-Identifier: MIT
/*
 * syscall: N raw system calls of one number, after perf bench syscall basic and the nohz_full test (seed 004).
 *
 * Check (check=ok|bad): the calls take no argument and change nothing, so each
 * returns what the thread's first did (getppid its parent, an invalid number
 * -ENOSYS); every thread counts the calls that did, which must be loops: a
 * call lost, doubled or answered otherwise under a tracer fails it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads/timed.h"
#include "workloads/workload.h"

/*
 * The bare instruction on x86-64, so the loop holds the syscall and nothing
 * else (no variadic syscall() wrapper, no errno store).  An invalid number
 * returns -ENOSYS and still counts, as in the seed's test.
 */
static inline long raw_syscall0(long nr)
{
#if defined(__x86_64__)
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
	return ret;
#else
	return syscall(nr);
#endif
}

enum { VIA_RAW, VIA_LIBC };

/* Through the C library, as perf bench syscall basic does (getppid()) and as seed 004's syscall(). */
static long libc_syscall0(long nr)
{
	if (nr == SYS_getppid)
		return getppid();
	return syscall(nr) < 0 ? -errno : 0;
}

/*
 * args=stat and args=dir: calls whose arguments a tracer reads and decodes
 * (a path in, a struct out; a directory's entries), where strace pays more
 * than for a call that takes none (calibrate prices them apart).
 */
enum { ARGS_NONE, ARGS_STAT, ARGS_DIR };

/* One call of the args=stat or args=dir kind; fd: "/" opened as a directory (dir). */
static long decoded_call(int kind, int fd)
{
	struct stat st;
	char buf[4096];

	if (kind == ARGS_STAT)
		return syscall(SYS_newfstatat, AT_FDCWD, "/", &st, 0);
	/* Rewind, then list "/" again: two calls a loop, the second decoded entry by entry. */
	lseek(fd, 0, SEEK_SET);
	return syscall(SYS_getdents64, fd, buf, sizeof(buf));
}

static long one_call(long nr, bool libc, int kind, int fd)
{
	if (kind != ARGS_NONE)
		return decoded_call(kind, fd);
	return libc ? libc_syscall0(nr) : raw_syscall0(nr);
}

/*
 * The loop with a decoded kind, busy work before each call (work=: a tracer
 * that slept through it is woken colder) or the inject monitor's known cost
 * after each call (a loop of its own: the plain ones stay bare); as call_loop.
 */
static uint64_t call_loop_other(long nr, uint64_t loops, bool libc, long *first, pcost_ns inject,
				int kind, pcost_ns work)
{
	int fd = kind == ARGS_DIR ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	uint64_t same = 0;

	for (uint64_t i = 0; i < loops; i++) {
		long r;

		if (work)
			pcost_wl_spin_ns(work);
		r = one_call(nr, libc, kind, fd);
		if (!i)
			*first = r;
		same += r == *first;
		if (inject)
			pcost_wl_spin_ns(inject);
	}
	if (fd >= 0)
		close(fd);
	return same;
}

/* loops calls; how many returned what the first did (*first). */
static uint64_t call_loop(long nr, uint64_t loops, bool libc, long *first, pcost_ns inject,
			  int kind, pcost_ns work)
{
	uint64_t same = 0;
	long r;

	if (!loops)
		return 0;
	if (inject || work || kind != ARGS_NONE)
		return call_loop_other(nr, loops, libc, first, inject, kind, work);
	*first = libc ? libc_syscall0(nr) : raw_syscall0(nr);
	same = 1;
	if (libc) {
		for (uint64_t i = 1; i < loops; i++) {
			r = libc_syscall0(nr);
			same += r == *first;
		}
	} else {
		for (uint64_t i = 1; i < loops; i++) {
			r = raw_syscall0(nr);
			same += r == *first;
		}
	}
	return same;
}

struct calls {
	long nr;
	uint64_t loops;
	bool libc;
	long *first;	 /* each thread's first return value */
	uint64_t *same;	 /* and how many of its calls returned it */
	pcost_ns inject; /* ns spun after each call (the inject monitor), 0 none */
	int kind;	 /* ARGS_*: args=none|stat|dir */
	pcost_ns work;	 /* ns of busy work before each call, 0 none */
};

static void calls_thread(void *arg, unsigned i)
{
	struct calls *c = arg;

	c->same[i] = call_loop(c->nr, c->loops, c->libc, &c->first[i], c->inject, c->kind, c->work);
}

/*
 * Each of `threads` threads makes `loops` calls, all released at once by a
 * barrier (pcost_wl_threads_run; one thread: the loop in the main thread,
 * nothing else, as perf bench does), so contention in a tracer shows as the
 * cost per call growing with threads.
 */
static int syscall_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	unsigned threads = (unsigned)pcost_param_get(p, "threads");
	struct calls c = {
		.loops = pcost_param_get(p, "loops"),
		.nr = (long)pcost_param_get(p, "nr"),
		.libc = pcost_param_get(p, "via") == VIA_LIBC,
		.first = xcalloc(threads, sizeof(long)),
		.same = xcalloc(threads, sizeof(uint64_t)),
		.inject = pcost_wl_inject_ns("PCOST_INJECT_EVENT_NS"),
		.kind = (int)pcost_param_get(p, "args"),
		.work = pcost_param_get(p, "work"),
	};
	pcost_ns fixed = pcost_wl_inject_ns("PCOST_INJECT_FIXED_NS");
	int rc;

	/* The inject monitor's fixed cost, once, before the timed region. */
	if (fixed)
		pcost_wl_spin_ns(fixed);
	rc = pcost_wl_threads_run(threads, PCOST_WL_WALL, calls_thread, &c, &res->timed_ns);

	if (!rc) {
		res->events = c.loops * threads;
		snprintf(res->extra, sizeof(res->extra), " nr=%ld result=%s",
			 c.kind == ARGS_STAT  ? (long)SYS_newfstatat
			 : c.kind == ARGS_DIR ? (long)SYS_getdents64
					      : c.nr,
			 c.first[0] == -ENOSYS ? "ENOSYS"
			 : c.first[0] < 0      ? "error"
					       : "ok");
		pcost_wl_report_threads(res, threads);
		for (unsigned i = 0; i < threads; i++)
			pcost_wl_check(res, c.same[i] == c.loops,
				       "thread %u: %llu of %llu calls "
				       "returned what the first did (%ld)",
				       i + 1, (unsigned long long)c.same[i],
				       (unsigned long long)c.loops, c.first[i]);
	}
	free(c.first);
	free(c.same);
	return rc;
}

static const struct pcost_param_desc syscall_params[] = {
	{ "loops", PCOST_PARAM_U64, 10000000, 1, 10000000000ULL, NULL, "system calls" },
	/*
	 * No arguments are set up: only calls that take none and change nothing
	 * (params.c), or a number no kernel has (entry and exit alone, ENOSYS).
	 */
	{ "nr", PCOST_PARAM_SYSCALL, SYS_getppid, 0, 100000, NULL,
	  "syscall name or number (no arguments are passed)" },
	{ "via", PCOST_PARAM_ENUM, VIA_RAW, 0, 0, "raw|libc",
	  "the bare syscall instruction, or the C library (getppid(), syscall())" },
	{ "threads", PCOST_PARAM_U64, 1, 1, 1024, NULL,
	  "threads, each making loops calls (events = threads x loops)" },
	{ "args", PCOST_PARAM_ENUM, ARGS_NONE, 0, 0, "none|stat|dir",
	  "none: nr with no arguments; stat: newfstatat of \"/\" (a path in, a struct out); "
	  "dir: getdents64 of \"/\" after the lseek that rewinds it (two calls a loop)" },
	{ "work", PCOST_PARAM_U64, 0, 0, 100000000, NULL,
	  "ns of busy work before each call (a tracer that slept through it pays a colder "
	  "stop)" },
	{ 0 },
};

const struct pcost_workload pcost_wl_syscall = {
	.name = "syscall",
	.summary =
		"N raw syscalls (getppid by default, or a harmless or invalid number), in 1 or more threads",
	.unit = "syscall",
	.size_key = "loops",
	.params = syscall_params,
	.run = syscall_run,
};
