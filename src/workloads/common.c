// SPDX-License-Identifier: MIT
/* workloads/common: helpers shared by the built-in workloads. */
#include "workloads/common.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "workloads/workload.h"

void pcost_wl_name_self(const char *name)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "pc-%s", name);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
}

int pcost_read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EPIPE;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pcost_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pcost_wl_reap(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error("could not wait for %s: %s", what, strerror(errno)), -ECHILD;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		error("%s failed (%s %d)", what, WIFEXITED(status) ? "exit" : "signal",
		      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -ECHILD;
	}
	return 0;
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

struct wl_thread {
	pthread_barrier_t *start;
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
	t->t0 = pcost_now_ns();
	t->fn(t->arg, t->i);
	t->t1 = pcost_now_ns();
	return NULL;
}

int pcost_wl_threads_run(unsigned n, void (*fn)(void *arg, unsigned i), void *arg,
			 pcost_ns *timed_ns)
{
	pthread_barrier_t start;
	pthread_t *tid = xcalloc(n, sizeof(*tid));
	struct wl_thread *t = xcalloc(n, sizeof(*t));
	unsigned made = 0;
	pcost_ns t0 = 0, t1 = 0;
	int rc = 0;

	/* Every thread times itself: the region runs from the first start to the last end. */
	pthread_barrier_init(&start, NULL, n + 1);
	for (; made < n; made++) {
		t[made] = (struct wl_thread){ &start, fn, arg, made, 0, 0 };
		rc = pthread_create(&tid[made], NULL, wl_thread_main, &t[made]);
		if (rc) {
			error("cannot start thread %u of %u: %s", made + 1, n, strerror(rc));
			/* The barrier cannot open with fewer threads: fail hard, as a workload may. */
			_exit(1);
		}
	}
	pthread_barrier_wait(&start);
	for (unsigned i = 0; i < made; i++) {
		pthread_join(tid[i], NULL);
		if (!i || t[i].t0 < t0)
			t0 = t[i].t0;
		if (t[i].t1 > t1)
			t1 = t[i].t1;
	}
	*timed_ns = t1 - t0;
	pthread_barrier_destroy(&start);
	free(t);
	free(tid);
	return rc ? -rc : 0;
}

int pcost_wl_probe_threads(unsigned n, void (*fn)(void *arg, unsigned i), void *arg,
			   uint64_t hits, bool uprobes, struct pcost_wl_result *res)
{
	int rc = pcost_wl_threads_run(n, fn, arg, &res->timed_ns);
	size_t off;

	if (rc)
		return rc;
	if (uprobes)
		pcost_wl_report_trampoline(res);
	res->events = hits * n;
	off = strlen(res->extra);
	snprintf(res->extra + off, sizeof(res->extra) - off, " threads=%u", n);
	return 0;
}
