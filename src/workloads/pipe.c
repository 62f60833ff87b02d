// SPDX-License-Identifier: MIT
/*
 * pipe: ping-pong of a 4-byte int over two pipes, after Ingo Molnar's pipe-test-1m.c (seed 000).
 *
 * Check (check=ok|bad): round trip i carries the int i (the seed sends an
 * uninitialized one): the partner must receive 0, 1, 2, ... in order and the
 * workload must get each one back, loops of them: every byte sent was
 * received, in order, with its content.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/process.h"
#include "workloads/timed.h"
#include "workloads/workload.h"

enum { MODE_PROCESS, MODE_THREAD };
enum { CPU_ANY, CPU_SAME };

struct pp {
	int p1[2], p2[2]; /* p1: parent -> child, p2: child -> parent (as in the seed) */
	uint64_t loops;
};

/* What the partner's loop ends with: all well, a broken pipe, a wrong int received. */
enum { ECHO_OK, ECHO_BROKEN, ECHO_WRONG };

/* The seed's child loop: read from pipe_1, write back on pipe_2. */
static int echo_side(struct pp *pp)
{
	int m = 0, wrong = 0;

	/* One "ready" int first, so the parent's clock starts with both sides running. */
	if (pcost_write_full(pp->p2[1], &m, sizeof(m)) < 0)
		return ECHO_BROKEN;
	for (uint64_t i = 0; i < pp->loops; i++) {
		if (pcost_read_full(pp->p1[0], &m, sizeof(int)) < 0 ||
		    pcost_write_full(pp->p2[1], &m, sizeof(int)) < 0)
			return ECHO_BROKEN;
		wrong |= m != (int)i;
	}
	return wrong ? ECHO_WRONG : ECHO_OK;
}

static void *echo_thread(void *arg)
{
	pcost_wl_name_self("pipe-echo");
	return (void *)(intptr_t)echo_side(arg);
}

static int pipe_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	struct pp pp = { .loops = pcost_param_get(p, "loops") };
	bool threads = pcost_param_get(p, "mode") == MODE_THREAD;
	pthread_t th;
	pid_t pid = -1;
	pcost_ns t0, t1;
	uint64_t wrong = 0;
	int m = 0, rc = 0, echo = ECHO_OK, status;

	if (pcost_param_get(p, "cpu") == CPU_SAME) {
		/* Both tasks on the CPU this one runs on: the partner inherits the mask. */
		cpu_set_t one;
		int cpu = sched_getcpu();

		CPU_ZERO(&one);
		CPU_SET(cpu < 0 ? 0 : cpu, &one);
		if (cpu < 0 || sched_setaffinity(0, sizeof(one), &one) < 0)
			return error("could not keep both tasks on one CPU: %s", strerror(errno)),
			       -errno;
	}
	if (pipe(pp.p1) < 0 || pipe(pp.p2) < 0)
		return error("could not create pipes: %s", strerror(errno)), -errno;
	if (threads) {
		if ((rc = pthread_create(&th, NULL, echo_thread, &pp)) != 0)
			return error("could not create thread: %s", strerror(rc)), -rc;
	} else {
		pid = fork();
		if (pid < 0)
			return error("could not fork: %s", strerror(errno)), -errno;
		if (pid == 0) {
			pcost_wl_name_self("pipe-echo");
			close(pp.p1[1]);
			close(pp.p2[0]);
			_exit(echo_side(&pp));
		}
	}
	if (pcost_read_full(pp.p2[0], &m, sizeof(m)) < 0)
		return error("pipe partner did not start"), -EPIPE;

	t0 = pcost_now_ns();
	for (uint64_t i = 0; i < pp.loops; i++) {
		m = (int)i;
		if (pcost_write_full(pp.p1[1], &m, sizeof(int)) < 0 ||
		    pcost_read_full(pp.p2[0], &m, sizeof(int)) < 0) {
			rc = -EPIPE;
			break;
		}
		wrong += m != (int)i;
	}
	t1 = pcost_now_ns();

	if (threads) {
		void *ret;

		pthread_join(th, &ret);
		echo = (int)(intptr_t)ret;
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		echo = WIFEXITED(status) ? WEXITSTATUS(status) : ECHO_BROKEN;
	}
	for (int i = 0; i < 2; i++) {
		close(pp.p1[i]);
		close(pp.p2[i]);
	}
	if (rc || echo == ECHO_BROKEN)
		return error("pipe ping-pong broke off"), rc ? rc : -EPIPE;
	pcost_wl_check(res, echo == ECHO_OK,
		       "the partner received other ints than 0, 1, 2, ... "
		       "in order");
	pcost_wl_check(res, !wrong, "%llu of %llu round trips came back with another int",
		       (unsigned long long)wrong, (unsigned long long)pp.loops);
	res->events = pp.loops;
	res->timed_ns = t1 - t0;
	return 0;
}

static const struct pcost_param_desc pipe_params[] = {
	{ "loops", PCOST_PARAM_U64, 1000000, 1, 1000000000, NULL, "round trips" },
	{ "mode", PCOST_PARAM_ENUM, MODE_PROCESS, 0, 0, "process|thread",
	  "partner is a forked process (as in the seed) or a thread" },
	{ "cpu", PCOST_PARAM_ENUM, CPU_ANY, 0, 0, "any|same",
	  "where the two tasks run: where the scheduler (or a pinning) puts them, or both on the CPU "
	  "the workload started on (a switch's CPU work, without the wake-up of an idle CPU)" },
	{ 0 },
};

const struct pcost_workload pcost_wl_pipe = {
	.name = "pipe",
	.summary = "pipe-test-1m: 4-byte ping-pong between two tasks over two pipes",
	.unit = "round-trip",
	.size_key = "loops",
	.params = pipe_params,
	/* Unless given: a record of the ping-pong reads as it did before cpu= existed. */
	.quiet = "cpu",
	.run = pipe_run,
};
