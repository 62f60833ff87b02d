// SPDX-License-Identifier: MIT
/*
 * time-region: time a region of code with the cheapest counter read this
 * machine allows, through libprobecost.
 *
 *   1. rdpmc from the event's mmap'd user page, where the page says
 *      cap_user_rdpmc (a hardware PMU, no system call per read);
 *   2. else read() of the perf_event descriptor (one system call per read);
 *   3. else clock_gettime(CLOCK_MONOTONIC) (no perf_event at all).
 *
 * It prints which it used and why not a cheaper one, the region's count and
 * what one read costs here.  Build against an installed copy:
 *
 *   cc -O2 time-region.c $(pkg-config --cflags --libs probecost) -o time-region
 *   ./time-region [ITERATIONS]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <probecost/counters.h>

enum method { RDPMC, PERF_READ, CLOCK };

static const char *const method_names[] = { "rdpmc", "perf-read", "clock_gettime" };

struct timer {
	enum method method;
	struct pcost_counters *c;
	const char *unit;
	char why[512]; /* why not a cheaper method */
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* One reading in the timer's unit; 0 when the read failed (reported by the caller). */
static int timer_read(struct timer *t, unsigned long long *v)
{
	uint64_t val = 0;
	int rc = 0;

	if (t->method == RDPMC)
		rc = pcost_counters_read_mmap(t->c, &val);
	else if (t->method == PERF_READ)
		rc = pcost_counters_read(t->c, &val);
	else
		val = now_ns();
	*v = val;
	return rc;
}

static void note(struct timer *t, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(t->why);

	snprintf(t->why + used, sizeof(t->why) - used, fmt, a, b);
}

/* Try event name: 0 and t set up (started), or -errno and a note why not. */
static int try_event(struct timer *t, const char *name, const char *unit)
{
	const char *names[1] = { name };
	char why[256];
	int rc;

	for (int excl = 0; excl <= 1; excl++) {
		PCOST_OPTS(pcost_counter_opts, opts, .mmap = true, .exclude_kernel = excl);

		rc = pcost_counters_open_opts(&t->c, names, 1, &opts);
		if (rc != -EACCES)
			break; /* -EACCES: perf_event_paranoid; user space only may be allowed */
	}
	if (rc < 0) {
		note(t, "%s: %s. ", name, strerror(-rc));
		return rc;
	}
	rc = pcost_counters_start(t->c);
	if (rc < 0) {
		note(t, "%s: start: %s. ", name, strerror(-rc));
		pcost_counters_close(t->c);
		t->c = NULL;
		return rc;
	}
	t->unit = unit;
	if (pcost_counters_mmap_check(t->c, why, sizeof(why)) == 0) {
		t->method = RDPMC;
		return 0;
	}
	note(t, "no rdpmc for %s: %s. ", name, why);
	t->method = PERF_READ;
	return 0;
}

static void timer_open(struct timer *t)
{
	memset(t, 0, sizeof(*t));
	if (try_event(t, "cycles", "cycles") == 0 && t->method == RDPMC)
		return;
	if (t->c) /* cycles are counted, read through read(): still the finer clock */
		return;
	if (try_event(t, "task-clock", "ns of task-clock") == 0)
		return;
	t->method = CLOCK;
	t->unit = "ns of CLOCK_MONOTONIC";
}

/* The region being timed: n multiply-adds the compiler cannot drop. */
static double region(unsigned long n)
{
	volatile double x = 1.0;

	for (unsigned long i = 0; i < n; i++)
		x = x * 1.0000001 + 0.5;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	unsigned long long before, after, t0, t1, v;
	const unsigned reads = 10000;
	struct timer t;

	if (n == 0) {
		fprintf(stderr, "time-region: ITERATIONS '%s': expected a whole number above 0\n",
			argv[1]);
		return 2;
	}
	timer_open(&t);
	printf("method: %s (%s)\n", method_names[t.method], t.unit);
	if (t.why[0])
		printf("not cheaper because: %.*s\n", (int)strlen(t.why) - 1, t.why);
	if (timer_read(&t, &before) < 0) {
		fprintf(stderr, "time-region: the first read failed\n");
		return 1;
	}
	region(n);
	if (timer_read(&t, &after) < 0) {
		fprintf(stderr, "time-region: the second read failed\n");
		return 1;
	}
	t0 = now_ns();
	for (unsigned i = 0; i < reads; i++)
		timer_read(&t, &v);
	t1 = now_ns();
	printf("region: %llu %s for %lu iterations\n", after - before, t.unit, n);
	printf("one read: %.1f ns (mean of %u back to back)\n", (double)(t1 - t0) / reads, reads);
	pcost_counters_close(t.c);
	return 0;
}
