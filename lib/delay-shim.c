// SPDX-License-Identifier: MIT
/*
 * delay-shim: LD_PRELOAD library of the delay:ns=N calibration monitor.  Each
 * read() and write() the program makes through libc spins N ns (busy, on
 * CLOCK_MONOTONIC) before the real call, and counts itself in a shared
 * counter file so probecost can divide the extra time by the calls delayed.
 * Not part of the probecost binary (it would replace probecost's own read/write).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static uint64_t delay_ns;
static uint64_t clock_ns; /* cost of one clock read, measured at start */
static uint64_t *counter; /* MAP_SHARED: forked children add to the same count */

static inline uint64_t now_ns(void);

/*
 * The real read and write.  Also called at first use: a library the program
 * links (libcap-ng, through libaudit) may read() from its own constructor,
 * which can run before this one.
 */
static void resolve(void)
{
	if (!real_read)
		real_read = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (!real_write)
		real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
}

/* Smallest of 16 batches of 64 reads: the cost of a read without interruptions. */
static uint64_t measure_clock(void)
{
	uint64_t best = UINT64_MAX;

	for (int b = 0; b < 16; b++) {
		uint64_t t0 = now_ns(), t1;

		for (int i = 0; i < 63; i++)
			now_ns();
		t1 = now_ns();
		if ((t1 - t0) / 64 < best)
			best = (t1 - t0) / 64;
	}
	return best;
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *ns = getenv("PCOST_DELAY_NS"), *path = getenv("PCOST_DELAY_COUNT");

	resolve();
	delay_ns = ns ? strtoull(ns, NULL, 10) : 0;
	clock_ns = measure_clock();
	if (path) {
		int fd = open(path, O_RDWR | O_CLOEXEC);

		if (fd >= 0) {
			void *p = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED,
				       fd, 0);

			if (p != MAP_FAILED)
				counter = p;
			close(fd);
		}
	}
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Spin until N ns after entry, less one clock read: the read before the loop
 * and the last read's overshoot (half a read on average) are inside the N. */
static void spin(void)
{
	uint64_t end = now_ns() + (delay_ns > clock_ns ? delay_ns - clock_ns : 0);

	if (counter)
		__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
	while (now_ns() < end)
		;
}

ssize_t read(int fd, void *buf, size_t n)
{
	if (!real_read)
		resolve();
	spin();
	return real_read(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (!real_write)
		resolve();
	spin();
	return real_write(fd, buf, n);
}
