// SPDX-License-Identifier: MIT
/*
 * startspin: the spin workload's work alone, for bench/startup-level.sh: LOOPS
 * times, read CLOCK_MONOTONIC until WORK ns have passed.  Built with the C
 * library alone and again linked with every library ./probecost links, its wall
 * time beside `probecost workload spin`'s tells how much of a built-in
 * workload's plain time is start-up, and how much that start-up moves from one
 * session to the next.
 */
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int loops = argc > 1 ? atoi(argv[1]) : 500;
	long long work = argc > 2 ? atoll(argv[2]) : 10000;

	for (int i = 0; i < loops; i++) {
		long long t0 = now_ns();

		while (now_ns() - t0 < work)
			;
	}
	return 0;
}
