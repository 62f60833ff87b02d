// SPDX-License-Identifier: MIT
/*
 * run/spawn: one run: fork/exec/wait4 with CLOCK_MONOTONIC from fork to reap,
 * in its own process group, pinned, its output and report line captured, its
 * rusage and verdict into a sample (see spawn.h).
 */
#include "run/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "run/runner.h"
#include "workloads/workload.h"

extern char **environ;

/* Last non-empty line of buf, for "exit 1: perf: command not found". */
static void last_line(const char *buf, size_t len, char *out, size_t outlen)
{
	size_t end = len, start;

	while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r' || buf[end - 1] == ' '))
		end--;
	start = end;
	while (start > 0 && buf[start - 1] != '\n')
		start--;
	snprintf(out, outlen, "%.*s", (int)(end - start), buf + start);
}

static char **build_env(const struct pcost_launch *l, const char *report)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = xcalloc(n + l->nenv + 2, sizeof(*env));
	for (size_t i = 0; i < n; i++) {
		bool overridden = !strncmp(environ[i], "PROBECOST_REPORT_FD=", 20);

		for (size_t j = 0; j < l->nenv && !overridden; j++) {
			size_t kl = strcspn(l->env[j], "=");

			overridden = !strncmp(environ[i], l->env[j], kl + 1);
		}
		if (!overridden)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < l->nenv; j++)
		env[k++] = l->env[j];
	if (report)
		env[k++] = (char *)report;
	env[k] = NULL;
	return env;
}

/* What one run's child is given; read by the child between vfork and exec. */
struct spawn_args {
	const struct pcost_launch *l;
	char **env;
	uint64_t cpu_mask;
	int report_w, err_w;
	pid_t parent;
	volatile int err;	/* errno of what failed in the child, 0 */
	volatile int pin_failed;
};

/* The child side: runs on the parent's stack (vfork), so only syscalls, then exec. */
static noreturn void spawn_child(struct spawn_args *a)
{
	sigset_t none;
	int nul;

	pcost_child_setup(a->parent);
	nul = open("/dev/null", O_RDWR);
	dup2(nul, 0);
	dup2(nul, 1);
	dup2(a->err_w, 2);
	if (a->report_w >= 0 && a->report_w != 3)
		dup2(a->report_w, 3);
	close_range(a->report_w >= 0 ? 4 : 3, ~0U, 0);
	if (a->cpu_mask && pcost_pin_mask(a->cpu_mask) < 0) {
		a->err = errno;
		a->pin_failed = 1;
		_exit(127);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvpe(a->l->argv[0], a->l->argv, a->env);
	a->err = errno;
	_exit(127);
}

/*
 * Start the run with vfork (as glibc's posix_spawn does, CLONE_VM|CLONE_VFORK):
 * fork() copies probecost's page tables, which costs 2-3 ms a run on the KVM
 * guest this was written on against 0.9-1.3 ms for a spawn of the same
 * /bin/true.  Unlike posix_spawn, the child can ask to die with us
 * (PR_SET_PDEATHSIG) and pin itself.  It gets its own process group,
 * /dev/null on stdin and stdout, the stderr pipe, the report pipe as fd 3,
 * and nothing else of ours.  Signals stay blocked in the parent until the
 * child has exec'd: no handler of ours runs on the shared stack.
 */
static int spawn(struct spawn_args *a, pid_t *pid)
{
	sigset_t all, old;

	a->parent = getpid();
	a->err = 0;
	a->pin_failed = 0;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	*pid = vfork();
	if (*pid == 0)
		spawn_child(a);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (*pid < 0)
		return -errno;
	if (a->err) {
		/* It exited before exec: reap it here. */
		while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
			;
		return -a->err;
	}
	return 0;
}

static void drain(int *fd, char *buf, size_t cap, size_t *len, bool keep_tail)
{
	char tmp[4096];

	while (*fd >= 0) {
		ssize_t n = read(*fd, tmp, sizeof(tmp));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || errno != EAGAIN) {
				close(*fd);
				*fd = -1;
			}
			return;
		}
		if (*len + (size_t)n >= cap) {
			if (!keep_tail) {
				n = (ssize_t)(cap - 1 - *len);
			} else {
				/* Keep the last part: a failure's reason is at the end. */
				size_t drop = *len + (size_t)n - (cap - 1);

				if (drop > *len)
					drop = *len;
				memmove(buf, buf + drop, *len - drop);
				*len -= drop;
				if ((size_t)n > cap - 1 - *len)
					n = (ssize_t)(cap - 1 - *len);
			}
		}
		memcpy(buf + *len, tmp, (size_t)n);
		*len += (size_t)n;
		buf[*len] = 0;
	}
}

/* One run in flight: its pipes, what they brought, how it ended. */
struct run_io {
	int rp[2], ep[2];	/* report and stderr pipes, -1 when closed */
	char rbuf[1024], ebuf[2048];
	size_t rlen, elen;
	pid_t pid;
	int status;
	struct rusage ru;
	bool timed_out, interrupted;
};

static void run_io_close(struct run_io *io)
{
	int *fds[] = { &io->rp[0], &io->rp[1], &io->ep[0], &io->ep[1] };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

/*
 * The pipes: non-blocking on our side; the child's ends blocking (a workload
 * must not see EAGAIN on its report) and inheritable (the report end lands on
 * fd 3, and a dup2 onto itself would keep close-on-exec).
 */
static int run_io_open(struct run_io *io, bool report_fd)
{
	memset(io, 0, sizeof(*io));
	io->rp[0] = io->rp[1] = io->ep[0] = io->ep[1] = -1;
	if (pipe2(io->ep, O_CLOEXEC | O_NONBLOCK) < 0 ||
	    (report_fd && pipe2(io->rp, O_CLOEXEC | O_NONBLOCK) < 0))
		return -errno;
	if (report_fd) {
		fcntl(io->rp[1], F_SETFL, 0);
		fcntl(io->rp[1], F_SETFD, 0);
	}
	fcntl(io->ep[1], F_SETFL, 0);
	return 0;
}

/* Wait for the child, reading its pipes; kill its group at the deadline or on Ctrl-C. */
static void run_io_wait(struct run_io *io, pcost_ns deadline)
{
	int pidfd = (int)syscall(SYS_pidfd_open, io->pid, 0);

	for (;;) {
		struct pollfd pf[3] = { { .fd = pidfd, .events = POLLIN },
					{ .fd = io->ep[0], .events = POLLIN },
					{ .fd = io->rp[0], .events = POLLIN } };
		int ms = -1, r;

		/* No pidfd (old kernel): poll the child every millisecond. */
		if (pidfd < 0) {
			if (wait4(io->pid, &io->status, WNOHANG, &io->ru) == io->pid)
				break;
			ms = 1;
		}
		if (deadline) {
			pcost_ns now = pcost_now_ns();
			int left = now >= deadline ? 0 : (int)((deadline - now) / 1000000 + 1);

			ms = ms < 0 || left < ms ? left : ms;
		}
		r = poll(pf, 3, ms);
		if (r < 0 && errno == EINTR && pcost_interrupted) {
			io->interrupted = true;
			kill(-io->pid, SIGKILL);
		}
		if (r > 0 && (pf[1].revents & (POLLIN | POLLHUP)))
			drain(&io->ep[0], io->ebuf, sizeof(io->ebuf), &io->elen, true);
		if (r > 0 && (pf[2].revents & (POLLIN | POLLHUP)))
			drain(&io->rp[0], io->rbuf, sizeof(io->rbuf), &io->rlen, false);
		if (io->interrupted || (pidfd >= 0 && r > 0 && (pf[0].revents & POLLIN))) {
			while (wait4(io->pid, &io->status, 0, &io->ru) < 0 && errno == EINTR)
				;
			break;
		}
		if (deadline && pcost_now_ns() >= deadline && !io->timed_out) {
			io->timed_out = true;
			kill(-io->pid, SIGKILL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
}

static pcost_ns tv_ns(const struct timeval *tv)
{
	return (pcost_ns)tv->tv_sec * 1000000000ULL + (pcost_ns)tv->tv_usec * 1000;
}

/* How it ended, into the sample: rusage, status, the failure's reason. */
static int run_io_verdict(const struct run_io *io, double timeout_s, struct pcost_run_sample *smp)
{
	smp->wait_status = io->status;
	smp->user_ns = tv_ns(&io->ru.ru_utime);
	smp->sys_ns = tv_ns(&io->ru.ru_stime);
	smp->maxrss_kb = io->ru.ru_maxrss;
	smp->minflt = io->ru.ru_minflt;
	smp->majflt = io->ru.ru_majflt;
	smp->nvcsw = io->ru.ru_nvcsw;
	smp->nivcsw = io->ru.ru_nivcsw;
	if (io->interrupted || pcost_interrupted) {
		pcost_sample_fail(smp, "interrupted");
		return -EINTR;
	}
	if (io->timed_out) {
		pcost_sample_fail(smp, "timeout after %g s", timeout_s);
	} else if (WIFSIGNALED(io->status)) {
		pcost_sample_fail(smp, "killed by SIG%s", sigabbrev_np(WTERMSIG(io->status)) ?: "?");
	} else if (WIFEXITED(io->status) && WEXITSTATUS(io->status) != 0) {
		char line[80];

		last_line(io->ebuf, io->elen, line, sizeof(line));
		pcost_sample_fail(smp, "exit %d%s%s", WEXITSTATUS(io->status), line[0] ? ": " : "", line);
	}
	return 0;
}

/*
 * Facts of the report line beyond events/unit/timed_ns that a sample keeps:
 * nr= names the syscall its events are (the syscall workload).
 */
static void report_fact(const char *key, const char *val, void *ctx)
{
	struct pcost_run_sample *smp = ctx;
	uint64_t nr;

	if (!strcmp(key, "uprobe_trampoline"))
		smp->optimized = !strcmp(val, "1") ? 1 : -1;
	else if (!strcmp(key, "nr") && pcost_parse_u64(val, 0, 100000, &nr) == 0)
		smp->event_syscall = (long)nr;
}

/* The workload's report line (events=N unit=U timed_ns=T, uprobe_trampoline=0|1). */
static void run_io_report(struct run_io *io, struct pcost_run_sample *smp, char *unit,
			  size_t unitlen)
{
	char *nl = strchr(io->rbuf, '\n'), u[32] = "";
	uint64_t ev = 0;
	pcost_ns timed = 0;

	if (nl)
		*nl = 0;
	if (pcost_report_parse(io->rbuf, &ev, u, sizeof(u), &timed, report_fact, smp) == 0) {
		smp->has_report = true;
		smp->events = ev;
		smp->timed_ns = timed;
		if (unit && u[0])
			snprintf(unit, unitlen, "%s", u);
	}
}

int pcost_run_once(const struct pcost_launch *l, const struct pcost_runner_opts *o,
		   bool report_fd, struct pcost_run_sample *smp, char *unit, size_t unitlen)
{
	struct spawn_args sa = { .l = l, .cpu_mask = o->cpu_mask };
	char report_env[] = "PROBECOST_REPORT_FD=3";
	struct run_io *io = xmalloc(sizeof(*io));
	pcost_ns t0, deadline = 0;
	int rc;

	smp->wait_status = -1;
	smp->monitor_events = smp->monitor_events ? smp->monitor_events : -1;
	smp->event_syscall = -1;
	if ((rc = run_io_open(io, report_fd)) < 0) {
		pcost_sample_fail(smp, "could not create a pipe: %s", strerror(-rc));
		goto out;
	}
	sa.env = build_env(l, report_fd ? report_env : NULL);
	sa.report_w = io->rp[1];
	sa.err_w = io->ep[1];
	t0 = pcost_now_ns();
	rc = spawn(&sa, &io->pid);
	free(sa.env);
	if (rc < 0) {
		smp->wall_ns = pcost_now_ns() - t0;
		if (sa.pin_failed)
			pcost_sample_fail(smp, "could not pin to CPUs (--cpu): %s", strerror(-rc));
		else
			pcost_sample_fail(smp, "could not execute '%.60s': %s", l->argv[0], strerror(-rc));
		rc = 0;
		goto out;
	}
	pcost_child_add(io->pid);
	smp->pid = io->pid;
	close(io->ep[1]);
	io->ep[1] = -1;
	if (io->rp[1] >= 0) {
		close(io->rp[1]);
		io->rp[1] = -1;
	}
	if (o->timeout_s > 0)
		deadline = t0 + (pcost_ns)(o->timeout_s * 1e9);
	run_io_wait(io, deadline);
	smp->wall_ns = pcost_now_ns() - t0;
	/* Whatever the workload left behind in its group goes too. */
	kill(-io->pid, SIGKILL);
	pcost_child_remove(io->pid);
	drain(&io->ep[0], io->ebuf, sizeof(io->ebuf), &io->elen, true);
	drain(&io->rp[0], io->rbuf, sizeof(io->rbuf), &io->rlen, false);
	rc = run_io_verdict(io, o->timeout_s, smp);
	if (report_fd && io->rlen)
		run_io_report(io, smp, unit, unitlen);
out:
	run_io_close(io);
	free(io);
	return rc;
}

