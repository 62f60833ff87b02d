// SPDX-License-Identifier: MIT
/*
 * tickgaps: what takes the CPU away from a busy loop, and how regularly.  For
 * SECONDS (default 0.2) it reads CLOCK_MONOTONIC back to back; every step
 * between two reads longer than 2 us is a pause (an interrupt, the host taking
 * the vCPU).  It prints the pauses' count, rate and mean length, and a
 * histogram of the intervals between their starts, whose peaks show a periodic
 * source (a 1-kHz tick at 1000 us).
 *
 *   cc -O2 -o /tmp/tickgaps bench/tickgaps.c && taskset -c 0 /tmp/tickgaps
 *
 * Why (bench/results/coverage.md, 2026-12-03): the spin workload's deadline
 * spins absorb a pause that ends before their deadline and lengthen by the rest
 * of one that straddles it, so how many straddle depends on the spins' period
 * against the pauses'; a monitored run, whose injected spins change the period,
 * then has a longer work part than the plain run, which the known answer leaves
 * out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_PAUSES 100000
#define BIN_US 50
#define NBINS 40 /* 0-2000 us */

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.2;
	static long long at[MAX_PAUSES];
	long long t0 = now_ns(), prev = t0, t, sum = 0, span = (long long)(secs * 1e9);
	long hist[NBINS + 1] = { 0 };
	long n = 0;

	if (!(secs > 0 && secs <= 60)) {
		fprintf(stderr, "tickgaps: SECONDS must be in (0, 60]\n");
		return 2;
	}
	do {
		t = now_ns();
		if (t - prev > 2000 && n < MAX_PAUSES) {
			at[n++] = prev - t0;
			sum += t - prev;
		}
		prev = t;
	} while (t - t0 < span);
	printf("%ld pauses over 2 us in %.3f s: %.2f a ms, mean %.1f us, %.2f%% of the time\n", n,
	       secs, n / (secs * 1e3), n ? sum / 1e3 / n : 0.0, 100.0 * sum / span);
	for (long i = 1; i < n; i++) {
		long b = (long)((at[i] - at[i - 1]) / 1000 / BIN_US);

		hist[b < NBINS ? b : NBINS]++;
	}
	printf("interval between pause starts (us): pauses\n");
	for (int b = 0; b <= NBINS; b++)
		if (hist[b] && b < NBINS)
			printf("  %4d-%4d  %ld\n", b * BIN_US, (b + 1) * BIN_US, hist[b]);
		else if (hist[b])
			printf("  %4d+      %ld\n", b * BIN_US, hist[b]);
	return 0;
}
