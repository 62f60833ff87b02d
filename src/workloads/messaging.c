// SPDX-License-Identifier: MIT
/*
 * messaging: groups of senders and receivers passing messages, after hackbench
 * / perf bench sched messaging, whose protocol it follows step for step (see
 * "Why it matches perf bench" below and bench/results/fidelity.md).
 *
 * Check (check=ok|bad): a sender's i-th message is `size` bytes of (i + 1) &
 * 0xff (perf's are zeros); each receiver sums every byte it reads, which must
 * be fds senders x size x the sum over i of (i + 1) & 0xff: every byte sent
 * was received, with its content, whatever the interleaving.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "workloads/process.h"
#include "workloads/timed.h"
#include "workloads/workload.h"

/*
 * What it shares with perf bench, and the one thing it does not (measured with
 * bench/fidelity.sh; bench/results/fidelity.md):
 * - the channels are made group by group as the workers are forked, and each
 *   process closes the ends it does not use, so a worker holds what perf's
 *   workers hold (not every channel of every group);
 * - ready and wake-up go over the same kind of channel as the messages
 *   (socketpair, or pipe with ipc=pipe), as perf's fdpair() does;
 * - threads get small stacks (perf: PTHREAD_STACK_MIN), which the C library
 *   keeps cached instead of unmapping them at each join in the timed region;
 * - processes are reaped in the order they end (wait()), threads joined in
 *   the order they were made, as perf does.
 * - Not shared: perf's forked workers leave through exit(), which runs, inside
 *   the timed region, the destructors of every library the host binary links
 *   (perf: 25 besides the C library, libperl and libpython among them;
 *   probecost: 47, cairo, libpq, gnutls, krb5 and PAPI among them), with their
 *   lazy symbol lookups and copy-on-write faults.  That is a cost of the host
 *   binary, not of messaging (bench/exitcost.sh: at loops=1 it is most of
 *   perf's time).  Ours leave through _exit(), so the figure does not move
 *   when probecost's link line does; what a message costs (the slope over
 *   loops, and thread mode) is what bench/fidelity.sh compares with perf's.
 */

enum { IPC_SOCKET, IPC_PIPE };
enum { MODE_PROCESS, MODE_THREAD };

/* Thread stacks: work() needs little; 400 of these stay in glibc's stack cache. */
#define WORKER_STACK (64 * 1024)

struct worker {
	int ready_out; /* one byte when set up */
	int wakeup;    /* readable when the clock starts */
	int in;	       /* receiver: its own channel's reading end */
	int in_peer;   /* receiver: that channel's writing end, closed in process mode */
	int *out;      /* sender: every receiver's channel of its group */
	unsigned nfds;
	uint64_t loops, size;
	bool sender;
};

struct messaging {
	unsigned groups, nfds;
	uint64_t loops, size;
	bool pipes, threads;
	int ready[2], wake[2];
	struct worker *w; /* groups x (nfds receivers, then nfds senders) */
	int **outs;	  /* per group: the writing ends its senders share */
	int *fds;	  /* thread mode: every channel end, closed after the join */
	size_t nfdsopen;
	pthread_t *tids;
	pid_t *pids;
	size_t nworkers, started;
	size_t wrong; /* receivers whose bytes did not add up */
};

static int fdpair(const struct messaging *m, int fds[2])
{
	if ((m->pipes ? pipe(fds) : socketpair(AF_UNIX, SOCK_STREAM, 0, fds)) < 0) {
		int e = errno;

		error("could not create a %s: %s (try fewer groups, or raise ulimit -n)",
		      m->pipes ? "pipe" : "socketpair", strerror(e));
		return -e;
	}
	return 0;
}

/* Signal ready, then block until the controller makes the wake-up channel readable. */
static int ready_and_wait(const struct worker *w)
{
	struct pollfd pfd = { .fd = w->wakeup, .events = POLLIN };
	char c = 'R';

	if (pcost_write_full(w->ready_out, &c, 1) < 0)
		return -1;
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* How a worker ends (its exit status, or its thread's return value). */
enum { WORK_OK, WORK_BROKEN, WORK_WRONG };

/* What one receiver must read in all: fds senders x size bytes of (i + 1) & 0xff per loop i. */
static uint64_t bytes_sum(const struct worker *w)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < w->loops; i++)
		sum += (i + 1) & 0xff;
	return sum * w->nfds * w->size;
}

static int work(const struct worker *w)
{
	unsigned char *buf = xcalloc(1, w->size);
	uint64_t sum = 0;
	int rc = WORK_BROKEN;

	if (ready_and_wait(w) < 0)
		goto out;
	if (w->sender) {
		for (uint64_t i = 0; i < w->loops; i++) {
			memset(buf, (int)((i + 1) & 0xff), w->size);
			for (unsigned j = 0; j < w->nfds; j++)
				if (pcost_write_full(w->out[j], buf, w->size) < 0)
					goto out;
		}
	} else {
		for (uint64_t i = 0; i < w->loops * w->nfds; i++) {
			if (pcost_read_full(w->in, buf, w->size) < 0)
				goto out;
			for (uint64_t k = 0; k < w->size; k++)
				sum += buf[k];
		}
		if (sum != bytes_sum(w)) {
			rc = WORK_WRONG;
			goto out;
		}
	}
	rc = WORK_OK;
out:
	free(buf);
	return rc;
}

static void *work_thread(void *arg)
{
	return (void *)(intptr_t)work(arg);
}

static void worker_exit(const struct worker *w, pid_t parent)
{
	int rc;

	/* A killed workload takes its workers along (before the ready byte: not timed). */
	pcost_child_die_with_parent(parent);

	pcost_wl_name_self(w->sender ? "msg-send" : "msg-recv");
	if (!w->sender && w->in_peer >= 0)
		close(w->in_peer);
	rc = work(w);
	/* Not exit(): see "Not shared" above. */
	_exit(rc);
}

static int start_worker(struct messaging *m, struct worker *w)
{
	size_t i = m->started;

	if (m->threads) {
		pthread_attr_t attr;
		int e;

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, WORKER_STACK);
		e = pthread_create(&m->tids[i], &attr, work_thread, w);
		pthread_attr_destroy(&attr);
		if (e) {
			error("could not create thread %zu: %s", i, strerror(e));
			return -e;
		}
	} else {
		pid_t parent = getpid(), pid = fork();

		if (pid < 0) {
			error("could not fork worker %zu: %s", i, strerror(errno));
			return -errno;
		}
		if (pid == 0)
			worker_exit(w, parent);
		m->pids[i] = pid;
	}
	m->started++;
	return 0;
}

/* A channel end the controller keeps (thread mode) or closes now (process mode). */
static void keep_or_close(struct messaging *m, int fd)
{
	if (fd < 0)
		return;
	if (m->threads)
		m->fds[m->nfdsopen++] = fd;
	else
		close(fd);
}

/* One group, as perf's group(): receivers forked as their channels are made, then senders. */
static int start_group(struct messaging *m, unsigned g)
{
	struct worker *w = &m->w[(size_t)g * m->nfds * 2];
	int rc = 0;

	m->outs[g] = xcalloc(m->nfds, sizeof(int));
	for (unsigned i = 0; i < m->nfds; i++)
		m->outs[g][i] = -1;
	for (unsigned i = 0; i < m->nfds && !rc; i++) {
		int fds[2];

		if ((rc = fdpair(m, fds)) < 0)
			break;
		w[i] = (struct worker){ .ready_out = m->ready[1],
					.wakeup = m->wake[0],
					.in = fds[0],
					.in_peer = fds[1],
					.nfds = m->nfds,
					.loops = m->loops,
					.size = m->size };
		m->outs[g][i] = fds[1];
		rc = start_worker(m, &w[i]);
		keep_or_close(m, fds[0]);
	}
	for (unsigned i = 0; i < m->nfds && !rc; i++) {
		w[m->nfds + i] = (struct worker){ .ready_out = m->ready[1],
						  .wakeup = m->wake[0],
						  .in = -1,
						  .in_peer = -1,
						  .out = m->outs[g],
						  .nfds = m->nfds,
						  .loops = m->loops,
						  .size = m->size,
						  .sender = true };
		rc = start_worker(m, &w[m->nfds + i]);
	}
	for (unsigned i = 0; i < m->nfds; i++)
		keep_or_close(m, m->outs[g][i]);
	return rc;
}

/* Every worker's ready byte, the clock, the wake-up, every worker reaped: the timed region. */
static int run_timed(struct messaging *m, pcost_ns *elapsed)
{
	pcost_ns t0;
	int rc = 0;

	for (size_t i = 0; i < m->started; i++) {
		char c;

		if (pcost_read_full(m->ready[0], &c, 1) < 0) {
			error("a messaging worker died before it was ready");
			return -EPIPE;
		}
	}
	/* One byte makes the wake-up channel readable for every poller at once (nobody reads it). */
	t0 = pcost_now_ns();
	if (pcost_write_full(m->wake[1], "W", 1) < 0)
		return -EPIPE;
	for (size_t i = 0; i < m->started; i++) {
		int end = WORK_BROKEN, status;

		if (m->threads) {
			void *ret;

			pthread_join(m->tids[i], &ret);
			end = (int)(intptr_t)ret;
		} else if (wait(&status) > 0) { /* whichever worker ends first, as perf's wait() */
			end = WIFEXITED(status) ? WEXITSTATUS(status) : WORK_BROKEN;
		}
		m->wrong += end == WORK_WRONG;
		if (end != WORK_OK && end != WORK_WRONG && !rc)
			rc = (error("a messaging worker failed"), -ECHILD);
	}
	*elapsed = pcost_now_ns() - t0;
	return rc;
}

static void messaging_release(struct messaging *m)
{
	for (int i = 0; i < 2; i++) {
		if (m->ready[i] >= 0)
			close(m->ready[i]);
		if (m->wake[i] >= 0)
			close(m->wake[i]);
	}
	for (size_t i = 0; i < m->nfdsopen; i++)
		close(m->fds[i]);
	for (unsigned g = 0; g < m->groups; g++)
		free(m->outs[g]);
	free(m->outs);
	free(m->fds);
	free(m->w);
	free(m->tids);
	free(m->pids);
}

static int messaging_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	struct messaging m = {
		.groups = (unsigned)pcost_param_get(p, "groups"),
		.nfds = (unsigned)pcost_param_get(p, "fds"),
		.loops = pcost_param_get(p, "loops"),
		.size = pcost_param_get(p, "size"),
		.pipes = pcost_param_get(p, "ipc") == IPC_PIPE,
		.threads = pcost_param_get(p, "mode") == MODE_THREAD,
		.ready = { -1, -1 },
		.wake = { -1, -1 },
	};
	pcost_ns elapsed = 0;
	int rc;

	m.nworkers = (size_t)m.groups * m.nfds * 2;
	m.w = xcalloc(m.nworkers, sizeof(*m.w));
	m.outs = xcalloc(m.groups, sizeof(*m.outs));
	m.fds = m.threads ? xcalloc(m.nworkers, sizeof(int)) : NULL;
	m.tids = m.threads ? xcalloc(m.nworkers, sizeof(*m.tids)) : NULL;
	m.pids = m.threads ? NULL : xcalloc(m.nworkers, sizeof(*m.pids));
	rc = fdpair(&m, m.ready);
	if (!rc)
		rc = fdpair(&m, m.wake);
	for (unsigned g = 0; g < m.groups && !rc; g++)
		rc = start_group(&m, g);
	if (!rc)
		rc = run_timed(&m, &elapsed);
	if (rc && m.threads)
		return rc; /* exiting the process ends the waiting threads */
	if (rc) {
		for (size_t i = 0; i < m.started; i++)
			kill(m.pids[i], SIGKILL);
		for (size_t i = 0; i < m.started; i++)
			waitpid(m.pids[i], NULL, 0);
	} else {
		res->events = (uint64_t)m.groups * m.nfds * m.nfds * m.loops;
		res->timed_ns = elapsed;
		pcost_wl_check(res, !m.wrong,
			       "%zu of %zu receivers read other bytes than were sent", m.wrong,
			       (size_t)m.groups * m.nfds);
	}
	messaging_release(&m);
	return rc;
}

static const struct pcost_param_desc messaging_params[] = {
	{ "groups", PCOST_PARAM_U64, 10, 1, 1000, NULL, "groups of senders and receivers" },
	{ "fds", PCOST_PARAM_U64, 20, 1, 1000, NULL, "senders and receivers per group (each)" },
	{ "loops", PCOST_PARAM_U64, 100, 1, 100000000, NULL,
	  "messages per sender to each receiver" },
	{ "size", PCOST_PARAM_U64, 100, 1, 65536, NULL, "bytes per message" },
	{ "ipc", PCOST_PARAM_ENUM, IPC_SOCKET, 0, 0, "socket|pipe", "AF_UNIX socketpair or pipe" },
	{ "mode", PCOST_PARAM_ENUM, MODE_PROCESS, 0, 0, "process|thread",
	  "workers are processes or threads" },
	{ 0 },
};

const struct pcost_workload pcost_wl_messaging = {
	.name = "messaging",
	.summary = "hackbench: groups of senders x receivers exchanging small messages",
	.unit = "message",
	.size_key = "loops",
	.params = messaging_params,
	.run = messaging_run,
};
