// SPDX-License-Identifier: MIT
/* messaging: groups of senders and receivers passing messages, after hackbench / perf bench sched messaging. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/common.h"
#include "workloads/workload.h"

enum { IPC_SOCKET, IPC_PIPE };
enum { MODE_PROCESS, MODE_THREAD };

struct worker {
	int ready_out;		/* one byte when set up */
	int wakeup;		/* readable (EOF) when the clock starts */
	int in;			/* receiver: its own channel */
	int *out;		/* sender: every receiver's channel of its group */
	unsigned nfds;
	uint64_t loops, size;
	bool sender;
};

/* Signal ready, then block until the controller closes the wake-up pipe. */
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

static int work(const struct worker *w)
{
	char *buf = xcalloc(1, w->size);
	int rc = -1;

	if (ready_and_wait(w) < 0)
		goto out;
	if (w->sender) {
		for (uint64_t i = 0; i < w->loops; i++)
			for (unsigned j = 0; j < w->nfds; j++)
				if (pcost_write_full(w->out[j], buf, w->size) < 0)
					goto out;
	} else {
		for (uint64_t i = 0; i < w->loops * w->nfds; i++)
			if (pcost_read_full(w->in, buf, w->size) < 0)
				goto out;
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

static void *work_thread(void *arg)
{
	return work(arg) ? (void *)1 : NULL;
}

static int messaging_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	unsigned groups = (unsigned)pcost_param_get(p, "groups");
	unsigned nfds = (unsigned)pcost_param_get(p, "fds");
	uint64_t loops = pcost_param_get(p, "loops"), size = pcost_param_get(p, "size");
	bool pipes = pcost_param_get(p, "ipc") == IPC_PIPE;
	bool threads = pcost_param_get(p, "mode") == MODE_THREAD;
	size_t nworkers = (size_t)groups * nfds * 2, started = 0;
	struct worker *w = xcalloc(nworkers, sizeof(*w));
	int *chan = xcalloc((size_t)groups * nfds * 2, sizeof(int)); /* [r][0]=read, [r][1]=write */
	pthread_t *tids = threads ? xcalloc(nworkers, sizeof(*tids)) : NULL;
	pid_t *pids = threads ? NULL : xcalloc(nworkers, sizeof(*pids));
	int readyp[2] = { -1, -1 }, wakep[2] = { -1, -1 }, rc = 0;
	pcost_ns t0 = 0, t1;

	for (size_t r = 0; r < (size_t)groups * nfds * 2; r++)
		chan[r] = -1;
	if (pipe(readyp) < 0 || pipe(wakep) < 0) {
		rc = -errno;
		error("could not create pipes: %s", strerror(errno));
		goto out;
	}
	for (size_t r = 0; r < (size_t)groups * nfds; r++) {
		int *fd = &chan[r * 2];

		if ((pipes ? pipe(fd) : socketpair(AF_UNIX, SOCK_STREAM, 0, fd)) < 0) {
			rc = -errno;
			error("could not create %s: %s (try fewer groups, or raise ulimit -n)",
			      pipes ? "pipe" : "socketpair", strerror(errno));
			goto out;
		}
	}
	/* Channel r carries messages to receiver r; fd[0] is its reading end. */
	for (unsigned g = 0; g < groups; g++) {
		int *outs = xcalloc(nfds, sizeof(int));

		for (unsigned i = 0; i < nfds; i++)
			outs[i] = chan[((size_t)g * nfds + i) * 2 + 1];
		for (unsigned i = 0; i < nfds * 2; i++) {
			struct worker *x = &w[(size_t)g * nfds * 2 + i];

			x->ready_out = readyp[1];
			x->wakeup = wakep[0];
			x->nfds = nfds;
			x->loops = loops;
			x->size = size;
			x->sender = i >= nfds;
			x->in = x->sender ? -1 : chan[((size_t)g * nfds + i) * 2];
			x->out = outs;	/* shared by the group's senders; freed below */
		}
	}
	for (size_t i = 0; i < nworkers; i++) {
		if (threads) {
			int e = pthread_create(&tids[i], NULL, work_thread, &w[i]);

			if (e) {
				rc = -e;
				error("could not create thread %zu: %s", i, strerror(e));
				break;
			}
		} else {
			pid_t pid = fork();

			if (pid < 0) {
				rc = -errno;
				error("could not fork worker %zu: %s", i, strerror(errno));
				break;
			}
			if (pid == 0) {
				pcost_wl_name_self(w[i].sender ? "msg-send" : "msg-recv");
				_exit(work(&w[i]) ? 1 : 0);
			}
			pids[i] = pid;
		}
		started++;
	}
	/* Every worker set up before the clock starts (perf sched-messaging's protocol). */
	for (size_t i = 0; i < started && !rc; i++) {
		char c;

		if (pcost_read_full(readyp[0], &c, 1) < 0) {
			rc = -EPIPE;
			error("a messaging worker died before it was ready");
		}
	}
	/*
	 * One byte makes the wake-up pipe readable for every poller at once
	 * (nobody reads it).  Closing it would not do: the workers hold copies
	 * of the write end.
	 */
	t0 = pcost_now_ns();
	if (!rc && pcost_write_full(wakep[1], "W", 1) < 0)
		rc = -EPIPE;
	if (rc && threads)
		goto out;	/* exiting the process ends the waiting threads */
	for (size_t i = 0; i < started; i++) {
		if (rc && !threads)
			kill(pids[i], SIGKILL);
		if (threads) {
			void *ret;

			pthread_join(tids[i], &ret);
			if (ret && !rc)
				rc = -EPIPE;
		} else if (pcost_wl_reap(pids[i], "messaging worker") < 0 && !rc) {
			rc = -ECHILD;
		}
	}
	t1 = pcost_now_ns();
	if (!rc) {
		res->events = (uint64_t)groups * nfds * nfds * loops;
		res->timed_ns = t1 - t0;
	}
out:
	for (int i = 0; i < 2; i++) {
		if (readyp[i] >= 0)
			close(readyp[i]);
		if (wakep[i] >= 0)
			close(wakep[i]);
	}
	for (size_t r = 0; r < (size_t)groups * nfds * 2; r++)
		if (chan[r] >= 0)
			close(chan[r]);
	for (unsigned g = 0; g < groups; g++)
		free(w[(size_t)g * nfds * 2].out);
	free(w);
	free(chan);
	free(tids);
	free(pids);
	return rc;
}

static const struct pcost_param_desc messaging_params[] = {
	{ "groups", PCOST_PARAM_U64, 10, 1, 1000, NULL, "groups of senders and receivers" },
	{ "fds", PCOST_PARAM_U64, 20, 1, 1000, NULL, "senders and receivers per group (each)" },
	{ "loops", PCOST_PARAM_U64, 100, 1, 100000000, NULL, "messages per sender to each receiver" },
	{ "size", PCOST_PARAM_U64, 100, 1, 65536, NULL, "bytes per message" },
	{ "ipc", PCOST_PARAM_ENUM, IPC_SOCKET, 0, 0, "socket|pipe", "AF_UNIX socketpair or pipe" },
	{ "mode", PCOST_PARAM_ENUM, MODE_PROCESS, 0, 0, "process|thread", "workers are processes or threads" },
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
