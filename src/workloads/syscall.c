// SPDX-License-Identifier: MIT
/* syscall: N raw system calls of one number, after perf bench syscall basic and the nohz_full test (seed 004). */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

static long call_loop(long nr, uint64_t loops, bool libc)
{
	long last = 0;

	if (libc) {
		for (uint64_t i = 0; i < loops; i++)
			last = libc_syscall0(nr);
	} else {
		for (uint64_t i = 0; i < loops; i++)
			last = raw_syscall0(nr);
	}
	return last;
}

struct caller {
	pthread_barrier_t *go;	/* every caller and the timer: the loops start together */
	long nr, last;
	uint64_t loops;
	bool libc;
};

static void *caller_thread(void *arg)
{
	struct caller *c = arg;

	pthread_barrier_wait(c->go);
	c->last = call_loop(c->nr, c->loops, c->libc);
	return NULL;
}

/*
 * threads > 1: each thread makes `loops` calls, all released at once by a
 * barrier (created before the clock starts, joined before it stops), so
 * contention in a tracer shows as the cost per call growing with threads.
 */
static int threaded_calls(unsigned threads, struct caller *proto, pcost_ns *t0, pcost_ns *t1)
{
	pthread_t *tid = xcalloc(threads, sizeof(*tid));
	struct caller *c = xcalloc(threads, sizeof(*c));
	pthread_barrier_t go;
	unsigned started = 0;
	int rc = 0;

	pthread_barrier_init(&go, NULL, threads + 1);
	for (; started < threads; started++) {
		c[started] = *proto;
		c[started].go = &go;
		rc = -pthread_create(&tid[started], NULL, caller_thread, &c[started]);
		if (rc < 0) {
			error("could not create thread %u: %s", started, strerror(-rc));
			/* The barrier never opens for the ones started: exiting ends them. */
			free(tid);
			free(c);
			return rc;
		}
	}
	*t0 = pcost_now_ns();
	pthread_barrier_wait(&go);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	*t1 = pcost_now_ns();
	proto->last = c[0].last;
	pthread_barrier_destroy(&go);
	free(tid);
	free(c);
	return 0;
}

static int syscall_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	struct caller c = {
		.loops = pcost_param_get(p, "loops"),
		.nr = (long)pcost_param_get(p, "nr"),
		.libc = pcost_param_get(p, "via") == VIA_LIBC,
	};
	unsigned threads = (unsigned)pcost_param_get(p, "threads");
	pcost_ns t0, t1;
	int rc;

	if (threads <= 1) {
		/* One thread: the loop in the main thread, nothing else (as perf bench does). */
		t0 = pcost_now_ns();
		c.last = call_loop(c.nr, c.loops, c.libc);
		t1 = pcost_now_ns();
	} else if ((rc = threaded_calls(threads, &c, &t0, &t1)) < 0) {
		return rc;
	}
	res->events = c.loops * (threads ? threads : 1);
	res->timed_ns = t1 - t0;
	snprintf(res->extra, sizeof(res->extra), " nr=%ld threads=%u result=%s", c.nr,
		 threads ? threads : 1, c.last == -ENOSYS ? "ENOSYS" : "ok");
	return 0;
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
	{ 0 },
};

const struct pcost_workload pcost_wl_syscall = {
	.name = "syscall",
	.summary = "N raw syscalls (getppid by default, or a harmless or invalid number), in 1 or more threads",
	.unit = "syscall",
	.size_key = "loops",
	.params = syscall_params,
	.run = syscall_run,
};
