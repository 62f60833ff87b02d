// SPDX-License-Identifier: MIT
/* workloads/timed: a workload's timed region (clocks, spins, threads) and the facts it reports. */
#include "workloads/timed.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "workloads/process.h"
#include "workloads/workload.h"

void pcost_wl_check(struct pcost_wl_result *res, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok || res->check < 0) {
		if (!res->check)
			res->check = 1;
		return;
	}
	res->check = -1;
	va_start(ap, fmt);
	vsnprintf(res->check_why, sizeof(res->check_why), fmt, ap);
	va_end(ap);
}

void pcost_wl_report_trampoline(struct pcost_wl_result *res)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool seen = false;
	size_t off = strlen(res->extra);

	if (!f)
		return;
	while (!seen && fgets(line, sizeof(line), f))
		seen = strstr(line, "[uprobes-trampoline]") != NULL;
	fclose(f);
	snprintf(res->extra + off, sizeof(res->extra) - off, " uprobe_trampoline=%d", seen);
}

pcost_ns pcost_wl_spin_ns(pcost_ns ns)
{
	pcost_ns t0 = pcost_now_ns(), t;

	do
		t = pcost_now_ns();
	while (t - t0 < ns);
	return t - t0;
}

uint64_t pcost_wl_inject_ns(const char *key)
{
	const char *v = getenv(key);
	uint64_t n;

	return v && pcost_parse_u64(v, 0, 10000000000ULL, &n) == 0 ? n : 0;
}

pcost_ns pcost_wl_clock_ns(enum pcost_wl_clock clock)
{
	struct timespec ts;

	if (clock == PCOST_WL_WALL)
		return pcost_now_ns();
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (pcost_ns)ts.tv_sec * 1000000000ULL + (pcost_ns)ts.tv_nsec;
}

struct wl_thread {
	pthread_barrier_t *start;
	enum pcost_wl_clock clock;
	void (*fn)(void *arg, unsigned i);
	void *arg;
	unsigned i;
	pcost_ns t0, t1;
};

static void *wl_thread_main(void *p)
{
	struct wl_thread *t = p;

	pcost_wl_name_self("thread");
	pthread_barrier_wait(t->start);
	t->t0 = pcost_wl_clock_ns(t->clock);
	t->fn(t->arg, t->i);
	t->t1 = pcost_wl_clock_ns(t->clock);
	return NULL;
}

/* The threads' timed region: first start to last end (wall), or their CPU times summed. */
static pcost_ns threads_timed(const struct wl_thread *t, unsigned n)
{
	pcost_ns t0 = t[0].t0, t1 = t[0].t1, sum = 0;

	for (unsigned i = 0; i < n; i++) {
		sum += t[i].t1 - t[i].t0;
		t0 = t[i].t0 < t0 ? t[i].t0 : t0;
		t1 = t[i].t1 > t1 ? t[i].t1 : t1;
	}
	return t[0].clock == PCOST_WL_CPU ? sum : t1 - t0;
}

int pcost_wl_threads_run(unsigned n, enum pcost_wl_clock clock, void (*fn)(void *arg, unsigned i),
			 void *arg, pcost_ns *timed_ns)
{
	pthread_barrier_t start;
	pthread_t *tid;
	struct wl_thread *t;
	int rc;

	if (n <= 1) {
		pcost_ns t0 = pcost_wl_clock_ns(clock);

		fn(arg, 0);
		*timed_ns = pcost_wl_clock_ns(clock) - t0;
		return 0;
	}
	tid = xcalloc(n, sizeof(*tid));
	t = xcalloc(n, sizeof(*t));
	pthread_barrier_init(&start, NULL, n + 1);
	for (unsigned i = 0; i < n; i++) {
		t[i] = (struct wl_thread){ &start, clock, fn, arg, i, 0, 0 };
		rc = pthread_create(&tid[i], NULL, wl_thread_main, &t[i]);
		if (rc) {
			error("cannot start thread %u of %u: %s", i + 1, n, strerror(rc));
			/* The barrier cannot open with fewer threads: fail hard, as a workload may. */
			_exit(1);
		}
	}
	pthread_barrier_wait(&start);
	for (unsigned i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	*timed_ns = threads_timed(t, n);
	pthread_barrier_destroy(&start);
	free(t);
	free(tid);
	return 0;
}

void pcost_wl_report_threads(struct pcost_wl_result *res, unsigned n)
{
	size_t off = strlen(res->extra);

	snprintf(res->extra + off, sizeof(res->extra) - off, " threads=%u", n);
}

int pcost_wl_probe_threads(unsigned n, void (*fn)(void *arg, unsigned i), void *arg, uint64_t hits,
			   bool uprobes, struct pcost_wl_result *res)
{
	int rc = pcost_wl_threads_run(n, PCOST_WL_WALL, fn, arg, &res->timed_ns);

	if (rc)
		return rc;
	if (uprobes)
		pcost_wl_report_trampoline(res);
	res->events = hits * n;
	pcost_wl_report_threads(res, n);
	return 0;
}
