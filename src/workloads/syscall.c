// SPDX-License-Identifier: MIT
/* syscall: N raw system calls of one number, after perf bench syscall basic and the nohz_full test (seed 004). */
#include <errno.h>
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

static int syscall_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	uint64_t loops = pcost_param_get(p, "loops");
	long nr = (long)pcost_param_get(p, "nr");
	bool libc = pcost_param_get(p, "via") == VIA_LIBC;
	pcost_ns t0, t1;
	long last = 0;

	t0 = pcost_now_ns();
	if (libc) {
		for (uint64_t i = 0; i < loops; i++)
			last = libc_syscall0(nr);
	} else {
		for (uint64_t i = 0; i < loops; i++)
			last = raw_syscall0(nr);
	}
	t1 = pcost_now_ns();
	res->events = loops;
	res->timed_ns = t1 - t0;
	snprintf(res->extra, sizeof(res->extra), " nr=%ld result=%s", nr,
		 last == -ENOSYS ? "ENOSYS" : "ok");
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
	{ 0 },
};

const struct pcost_workload pcost_wl_syscall = {
	.name = "syscall",
	.summary = "N raw syscalls (getppid by default, or a harmless or invalid number)",
	.unit = "syscall",
	.size_key = "loops",
	.params = syscall_params,
	.run = syscall_run,
};
