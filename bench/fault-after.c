// SPDX-License-Identifier: MIT
/*
 * bench/fault-after: one process of bench/start-after.sh.  It lives LIVE ns
 * (spinning on the clock, or asleep with HOW=sleep) after timing its own
 * kernel entries at its start: 200 getppid calls and 200 first writes to
 * fresh anonymous pages (a page fault each), and appends "SYSCALL_NS FAULT_NS"
 * (the mean of each) to OUT unless OUT is "-".
 *   fault-after LIVE OUT [spin|sleep]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define N 200

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t live, t0, t1, t2;
	volatile char *p;
	long page = sysconf(_SC_PAGESIZE);

	if (argc < 3) {
		fprintf(stderr, "usage: fault-after LIVE_NS OUT|- [spin|sleep]\n");
		return 2;
	}
	live = strtoull(argv[1], NULL, 10);
	t0 = now_ns();
	for (int i = 0; i < N; i++)
		syscall(SYS_getppid);
	t1 = now_ns();
	p = mmap(NULL, (size_t)N * (size_t)page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	t2 = now_ns();
	for (int i = 0; i < N; i++)
		p[(long)i * page] = 1;
	t2 = (now_ns() - t2) / N;
	if (argc > 3 && !strcmp(argv[3], "sleep")) {
		struct timespec ts = { (time_t)(live / 1000000000ull),
				       (long)(live % 1000000000ull) };

		nanosleep(&ts, NULL);
	} else {
		uint64_t s = now_ns();

		while (now_ns() - s < live)
			;
	}
	if (strcmp(argv[2], "-")) {
		FILE *f = fopen(argv[2], "a");

		if (!f)
			return 1;
		fprintf(f, "%llu %llu\n", (unsigned long long)((t1 - t0) / N),
			(unsigned long long)t2);
		fclose(f);
	}
	return 0;
}
