// SPDX-License-Identifier: MIT
/*
 * run/spawn: one run: fork/exec/wait4 with CLOCK_MONOTONIC from exec to reap,
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
#include "core/ptree.h"
#include "run/runner.h"
#include "workloads/workload.h"

extern char **environ;

/*
 * The first line of buf that says it is an error ("pgbench: error: connection
 * ... refused" comes before "could not create connection for setup"); false
 * when none does.
 */
static bool first_error_line(const char *buf, size_t len, char *out, size_t outlen)
{
	static const char *const words[] = { "error", "refused", "fatal", "failed" };
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[256];

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		for (size_t i = 0; i < ARRAY_SIZE(words); i++)
			if (strcasestr(line, words[i])) {
				snprintf(out, outlen, "%s", line);
				return true;
			}
		p += n + 1;
	}
	return false;
}

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
	bool merge; /* stdout into the stderr pipe too */
	pid_t parent;
	volatile int err; /* errno of what failed in the child, 0 */
	volatile int pin_failed;
	volatile pcost_ns exec_ns; /* the child's clock right before its execve, 0: not reached */
};

/* The child side: runs on the parent's stack (vfork), so only syscalls, then exec. */
static noreturn void spawn_child(struct spawn_args *a)
{
	sigset_t none;
	int nul;

	pcost_child_setup(a->parent);
	nul = open("/dev/null", O_RDWR);
	dup2(nul, 0);
	dup2(a->merge ? a->err_w : nul, 1);
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
	/* The run's clock starts here; perf stat's starts a wake-up earlier, as it
	 * signals its waiting child to exec (bench/wall-vs-perf.sh). */
	a->exec_ns = pcost_now_ns();
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
	pid_t p;

	a->parent = getpid();
	a->err = 0;
	a->pin_failed = 0;
	a->exec_ns = 0;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	/* The child may write only the variable vfork's value goes to: a local, not *pid. */
	p = vfork();
	if (p == 0)
		spawn_child(a); /* NOLINT(clang-analyzer-unix.Vfork): syscalls, then exec */
	*pid = p;
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

				/* A large buffer drops half at once: one move per half-fill. */
				if (cap > 65536 && drop < *len / 2)
					drop = *len / 2;
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
	int rp[2], ep[2]; /* report and stderr pipes, -1 when closed */
	char rbuf[2048], ebuf_small[2048];
	char *ebuf; /* ebuf_small, or a PCOST_OUTPUT_MAX buffer when capturing */
	size_t rlen, elen, ecap;
	pid_t pid;
	int status;
	struct rusage ru;
	bool timed_out, interrupted;
	unsigned extended; /* times the deadline moved on while the run used the CPU */
	pcost_ns cpu_mark; /* the run's CPU time at the last deadline */
	bool watched_died; /* the watched process (opts.watch_pid) exited first: killed */
	bool capture;	   /* ebuf holds stdout too */
	bool first_error;  /* a failure says its first error line (a load generator) */
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
static int run_io_open(struct run_io *io, bool report_fd, bool capture)
{
	memset(io, 0, sizeof(*io));
	io->ebuf = capture ? xmalloc(PCOST_OUTPUT_MAX + 1) : io->ebuf_small;
	io->ecap = capture ? PCOST_OUTPUT_MAX + 1 : sizeof(io->ebuf_small);
	io->ebuf[0] = 0;
	io->capture = capture;
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

/*
 * At a deadline: did the run's processes use at least a tenth of a CPU over the
 * stretch of stretch ns since the last one?  If so, the next stretch starts.
 */
static bool run_io_busy(struct run_io *io, pcost_ns stretch)
{
	pcost_ns user, sys, used;

	if (!pcost_ptree_cpu(io->pid, &user, &sys))
		return false;
	/* A member that exited unreaped takes its time out of the sum for a while. */
	used = user + sys > io->cpu_mark ? user + sys - io->cpu_mark : 0;
	io->cpu_mark = user + sys;
	return used * 10 >= stretch;
}

/*
 * Wait for the child, reading its pipes; kill its group at the deadline (moved
 * on by stretch, up to busy_extend times, while the run uses the CPU),
 * on Ctrl-C, or when process watch (0: none) exits first.
 */
static void run_io_wait(struct run_io *io, pcost_ns deadline, pcost_ns stretch,
			unsigned busy_extend, pid_t watch)
{
	int pidfd = (int)syscall(SYS_pidfd_open, io->pid, 0);
	int wfd = watch > 0 ? (int)syscall(SYS_pidfd_open, watch, 0) : -1;

	for (;;) {
		struct pollfd pf[4] = { { .fd = pidfd, .events = POLLIN },
					{ .fd = io->ep[0], .events = POLLIN },
					{ .fd = io->rp[0], .events = POLLIN },
					{ .fd = wfd, .events = POLLIN } };
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
		r = poll(pf, 4, ms);
		if (r < 0 && errno == EINTR && pcost_interrupted) {
			io->interrupted = true;
			kill(-io->pid, SIGKILL);
		}
		if (r > 0 && wfd >= 0 && (pf[3].revents & POLLIN) && !io->watched_died) {
			io->watched_died = true;
			kill(-io->pid, SIGKILL);
			close(wfd);
			wfd = -1;
		}
		if (r > 0 && (pf[1].revents & (POLLIN | POLLHUP)))
			drain(&io->ep[0], io->ebuf, io->ecap, &io->elen, true);
		if (r > 0 && (pf[2].revents & (POLLIN | POLLHUP)))
			drain(&io->rp[0], io->rbuf, sizeof(io->rbuf), &io->rlen, false);
		if (io->interrupted || (pidfd >= 0 && r > 0 && (pf[0].revents & POLLIN))) {
			while (wait4(io->pid, &io->status, 0, &io->ru) < 0 && errno == EINTR)
				;
			break;
		}
		if (deadline && pcost_now_ns() >= deadline && !io->timed_out) {
			if (io->extended < busy_extend && run_io_busy(io, stretch)) {
				io->extended++;
				deadline += stretch;
				continue;
			}
			io->timed_out = true;
			kill(-io->pid, SIGKILL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	if (wfd >= 0)
		close(wfd);
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
	if (io->watched_died) {
		pcost_sample_fail(smp, "killed: the service it loads exited");
	} else if (io->timed_out) {
		pcost_sample_fail(smp, "timeout after %g s", timeout_s);
	} else if (WIFSIGNALED(io->status)) {
		pcost_sample_fail(smp, "killed by SIG%s",
				  sigabbrev_np(WTERMSIG(io->status)) ?: "?");
	} else if (WIFEXITED(io->status) && WEXITSTATUS(io->status) != 0) {
		char line[160];

		if (!io->first_error || !first_error_line(io->ebuf, io->elen, line, sizeof(line)))
			last_line(io->ebuf, io->elen, line, sizeof(line));
		pcost_sample_fail(smp, "exit %d%s%s", WEXITSTATUS(io->status), line[0] ? ": " : "",
				  line);
	}
	return 0;
}

/* What report_fact fills. */
struct said_ctx {
	struct pcost_run_sample *smp;
	struct pcost_run_said *said;
};

/* A hexadecimal 0x... or decimal number of the report; false when malformed. */
static bool report_u64(const char *val, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(val, &end, 0);
	return end != val && !*end && !errno;
}

/*
 * Facts of the report beyond events/unit/timed_ns that a run keeps: nr= names
 * the syscall its events are (the syscall workload), check= and why= its check,
 * uprobe_trampoline= the kernel's optimization; signal= and the rest of a
 * fault line (workloads/process.h) how it died.
 */
static void report_fact(const char *key, const char *val, void *ctx)
{
	struct said_ctx *c = ctx;
	struct pcost_run_sample *smp = c->smp;
	struct pcost_run_said *said = c->said;
	uint64_t v;

	if (!strcmp(key, "uprobe_trampoline"))
		smp->optimized = !strcmp(val, "1") ? 1 : -1;
	else if (!strcmp(key, "nr") && pcost_parse_u64(val, 0, 100000, &v) == 0)
		smp->event_syscall = (long)v;
	else if (!strcmp(key, "check"))
		smp->check = !strcmp(val, "ok") ? 1 : !strcmp(val, "bad") ? -1 : 0;
	else if (!strcmp(key, "why"))
		snprintf(said->check_why, sizeof(said->check_why), "%s", val);
	else if (!strcmp(key, "signal"))
		snprintf(said->signal, sizeof(said->signal), "%s", val[0] ? val : "?");
	else if (!strcmp(key, "from_pid") && report_u64(val, &v))
		said->from_pid = (long)v;
	else if (!strcmp(key, "addr"))
		said->has_addr = report_u64(val, &said->addr);
	else if (!strcmp(key, "ip"))
		said->has_ip = report_u64(val, &said->ip);
	else if (!strcmp(key, "ip_vaddr"))
		said->has_ip_vaddr = report_u64(val, &said->ip_vaddr);
}

/*
 * The workload's report: its line of facts (events=N unit=U timed_ns=T ...),
 * and a fault line (signal=...) when it died of a fatal signal; a forked
 * worker's fault line may come beside its parent's report.
 */
static void run_io_report(struct run_io *io, struct pcost_run_sample *smp,
			  struct pcost_run_said *said)
{
	struct said_ctx ctx = { smp, said };
	char *line = io->rbuf, *next;

	for (; line && *line; line = next) {
		uint64_t ev = 0;
		pcost_ns timed = 0;
		char u[32] = "";

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (pcost_report_parse(line, &ev, u, sizeof(u), &timed, report_fact, &ctx) == 0 &&
		    !smp->has_report) {
			smp->has_report = true;
			smp->events = ev;
			smp->timed_ns = timed;
			if (u[0])
				snprintf(said->unit, sizeof(said->unit), "%s", u);
		}
	}
}

int pcost_run_once(const struct pcost_launch *l, const struct pcost_runner_opts *o, bool report_fd,
		   struct pcost_run_sample *smp, struct pcost_run_said *said)
{
	return pcost_run_capture(l, o, report_fd, smp, said, NULL);
}

int pcost_run_capture(const struct pcost_launch *l, const struct pcost_runner_opts *o,
		      bool report_fd, struct pcost_run_sample *smp, struct pcost_run_said *said,
		      struct pcost_run_output *out)
{
	bool capture = out && out->capture;
	struct pcost_run_said unsaid;
	struct spawn_args sa = { .l = l, .cpu_mask = o->cpu_mask, .merge = capture };
	char report_env[] = "PROBECOST_REPORT_FD=3";
	struct run_io *io = xmalloc(sizeof(*io));
	pcost_ns t0, deadline = 0;
	int rc;

	if (!said)
		said = &unsaid;
	memset(said, 0, sizeof(*said));
	smp->wait_status = -1;
	smp->monitor_events = smp->monitor_events ? smp->monitor_events : -1;
	smp->event_syscall = -1;
	if (out) {
		out->buf = NULL;
		out->len = 0;
		out->report[0] = 0;
	}
	if ((rc = run_io_open(io, report_fd, capture)) < 0) {
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
			pcost_sample_fail(smp, "could not execute '%.60s': %s", l->argv[0],
					  strerror(-rc));
		rc = 0;
		goto out;
	}
	/*
	 * From the child's exec on: the vfork, the child's set-up and its move to the
	 * --cpu it pins itself to are probecost's, not the program's (a median of
	 * 61-66 us a run, 108-118 us at the 90th percentile, on a 2-vCPU KVM guest:
	 * 2.3% of a /bin/true run, 0.5% of a 13-ms spin).
	 */
	if (sa.exec_ns)
		t0 = sa.exec_ns;
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
	/* Output captured or a service loaded: the first error says why ("refused"). */
	io->first_error = capture || o->watch_pid > 0;
	run_io_wait(io, deadline, (pcost_ns)(o->timeout_s * 1e9), o->busy_extend, o->watch_pid);
	smp->wall_ns = pcost_now_ns() - t0;
	/* Whatever the workload left behind in its group goes too. */
	kill(-io->pid, SIGKILL);
	pcost_child_remove(io->pid);
	drain(&io->ep[0], io->ebuf, io->ecap, &io->elen, true);
	drain(&io->rp[0], io->rbuf, sizeof(io->rbuf), &io->rlen, false);
	rc = run_io_verdict(io, o->timeout_s, smp);
	if (out && io->rlen)
		snprintf(out->report, sizeof(out->report), "%.*s", (int)strcspn(io->rbuf, "\n"),
			 io->rbuf);
	if (report_fd && io->rlen)
		run_io_report(io, smp, said);
	last_line(io->ebuf, io->elen, said->err_last, sizeof(said->err_last));
out:
	run_io_close(io);
	if (capture) {
		out->buf = io->ebuf;
		out->len = io->elen;
	}
	free(io);
	return rc;
}
