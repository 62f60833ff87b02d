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
#include "core/proc.h"
#include "core/ptree.h"
#include "run/outcheck.h"
#include "run/runner_opts.h"
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

/*
 * Start the run with a vfork, PCOST_CHILD_VFORK of core/proc.h (a fork would
 * copy probecost's page tables, 2-3 ms a run on a KVM guest).  It gets its own
 * process group, /dev/null on stdin and (unless captured or digested) stdout,
 * the stderr pipe, the report pipe as fd 3, and nothing else of ours; it pins
 * itself.  A digested stdout (--check-output) has a pipe of its own, out_w.
 * The run's clock starts right before its execve (exec_ns); perf stat's starts
 * a wake-up earlier, as it signals its waiting child to exec
 * (bench/wall-vs-perf.sh).
 */
static int spawn(struct pcost_child *c, const struct pcost_launch *l, char **env, uint64_t mask,
		 int err_w, int report_w, int out_w, bool merge)
{
	pcost_child_init(c);
	c->argv = l->argv;
	c->env = env;
	c->cpu_mask = mask;
	c->flags = PCOST_CHILD_VFORK | PCOST_CHILD_CLOSE_FDS;
	c->fd[1] = out_w >= 0 ? out_w : merge ? err_w : PCOST_CHILD_NULL;
	c->fd[2] = err_w;
	c->pass_fd = report_w;
	return pcost_child_start(c);
}

/* n bytes of tmp onto buf (cap with its NUL): its head, or its tail with keep_tail. */
static void append(char *buf, size_t cap, size_t *len, bool keep_tail, const char *tmp, ssize_t n)
{
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

/*
 * What is there to read on *fd (closed at its end): onto buf (see append),
 * and through digest d when not NULL.
 */
static void drain(int *fd, char *buf, size_t cap, size_t *len, bool keep_tail,
		  struct pcost_outdigest *d)
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
		if (d)
			pcost_outdigest_feed(d, tmp, (size_t)n);
		if (buf)
			append(buf, cap, len, keep_tail, tmp, n);
	}
}

/* One run in flight: its pipes, what they brought, how it ended. */
struct run_io {
	int rp[2], ep[2]; /* report and stderr pipes, -1 when closed */
	int op[2];	  /* the stdout pipe of a digested run, -1 when closed or none */
	struct pcost_outdigest *digest; /* what op brings goes through it (NULL: none) */
	char rbuf[2048], ebuf_small[2048];
	char *ebuf; /* ebuf_small, or a PCOST_OUTPUT_MAX buffer when capturing */
	size_t rlen, elen, ecap;
	struct pcost_child child; /* the run: pid, status, rusage, how the wait ended */
	pcost_ns cpu_mark;	  /* the run's CPU time at the last deadline */
	bool capture;		  /* ebuf holds stdout too */
	bool first_error;	  /* a failure says its first error line (a load generator) */
};

static void run_io_close(struct run_io *io)
{
	int *fds[] = { &io->rp[0], &io->rp[1], &io->ep[0], &io->ep[1], &io->op[0], &io->op[1] };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

/*
 * The pipes: non-blocking on our side; the child's ends blocking (a workload
 * must not see EAGAIN on its report).
 */
static int run_io_open(struct run_io *io, bool report_fd, bool capture,
		       struct pcost_outdigest *digest)
{
	memset(io, 0, sizeof(*io));
	io->ebuf = capture ? xmalloc(PCOST_OUTPUT_MAX + 1) : io->ebuf_small;
	io->ecap = capture ? PCOST_OUTPUT_MAX + 1 : sizeof(io->ebuf_small);
	io->ebuf[0] = 0;
	io->capture = capture;
	io->digest = digest;
	io->rp[0] = io->rp[1] = io->ep[0] = io->ep[1] = io->op[0] = io->op[1] = -1;
	if (pipe2(io->ep, O_CLOEXEC | O_NONBLOCK) < 0 ||
	    (report_fd && pipe2(io->rp, O_CLOEXEC | O_NONBLOCK) < 0) ||
	    (digest && pipe2(io->op, O_CLOEXEC | O_NONBLOCK) < 0))
		return -errno;
	if (report_fd)
		fcntl(io->rp[1], F_SETFL, 0);
	/*
	 * A digested stdout: a larger pipe (1 MiB, the unprivileged limit) keeps a
	 * program that prints much from waiting on our reads.
	 */
	if (digest) {
		fcntl(io->op[1], F_SETFL, 0);
		fcntl(io->op[1], F_SETPIPE_SZ, 1 << 20);
	}
	fcntl(io->ep[1], F_SETFL, 0);
	return 0;
}

/*
 * At a deadline: did the run's processes use at least a tenth of a CPU over the
 * stretch of stretch ns since the last one?  If so, the next stretch starts.
 */
static bool run_io_busy(void *arg, pcost_ns stretch)
{
	struct run_io *io = arg;
	pcost_ns user, sys, used;

	if (!pcost_ptree_cpu(io->child.pid, &user, &sys))
		return false;
	/* A member that exited unreaped takes its time out of the sum for a while. */
	used = user + sys > io->cpu_mark ? user + sys - io->cpu_mark : 0;
	io->cpu_mark = user + sys;
	return used * 10 >= stretch;
}

/*
 * While it runs: what came on its stderr (0), its report pipe (1) or its
 * digested stdout (2; captured too, for --metric, after what came on stderr).
 */
static void run_io_readable(int i, void *arg)
{
	struct run_io *io = arg;

	if (i == 0)
		drain(&io->ep[0], io->ebuf, io->ecap, &io->elen, true, NULL);
	else if (i == 1)
		drain(&io->rp[0], io->rbuf, sizeof(io->rbuf), &io->rlen, false, NULL);
	else
		drain(&io->op[0], io->capture ? io->ebuf : NULL, io->ecap, &io->elen, true,
		      io->digest);
}

/*
 * Wait for the child, reading its pipes; kill its group at the deadline (moved
 * on by stretch, up to busy_extend times, while the run uses the CPU),
 * on Ctrl-C, or when process watch (0: none) exits first.
 */
static void run_io_wait(struct run_io *io, pcost_ns deadline, pcost_ns stretch,
			unsigned busy_extend, pid_t watch)
{
	struct pcost_child_wait w = { .deadline = deadline,
				      .stretch = stretch,
				      .extend = busy_extend,
				      .busy = run_io_busy,
				      .watch = watch,
				      .fds = { &io->ep[0], &io->rp[0], &io->op[0] },
				      .readable = run_io_readable,
				      .arg = io };

	pcost_child_wait(&io->child, &w);
}

static pcost_ns tv_ns(const struct timeval *tv)
{
	return (pcost_ns)tv->tv_sec * 1000000000ULL + (pcost_ns)tv->tv_usec * 1000;
}

/* How it ended, into the sample: rusage, status, the failure's reason. */
static int run_io_verdict(const struct run_io *io, double timeout_s, struct pcost_run_sample *smp)
{
	const struct pcost_child *c = &io->child;

	smp->wait_status = c->status;
	smp->user_ns = tv_ns(&c->ru.ru_utime);
	smp->sys_ns = tv_ns(&c->ru.ru_stime);
	smp->maxrss_kb = c->ru.ru_maxrss;
	smp->minflt = c->ru.ru_minflt;
	smp->majflt = c->ru.ru_majflt;
	smp->nvcsw = c->ru.ru_nvcsw;
	smp->nivcsw = c->ru.ru_nivcsw;
	if (c->interrupted || pcost_interrupted) {
		pcost_sample_fail(smp, "interrupted");
		return -EINTR;
	}
	if (c->watched_died) {
		pcost_sample_fail(smp, "killed: the service it loads exited");
	} else if (c->timed_out) {
		pcost_sample_fail(smp, "timeout after %g s", timeout_s);
	} else if (pcost_wait_status_failed(c->status, 0)) {
		char line[160] = "", why[256];

		if (WIFEXITED(c->status) &&
		    (!io->first_error || !first_error_line(io->ebuf, io->elen, line, sizeof(line))))
			last_line(io->ebuf, io->elen, line, sizeof(line));
		pcost_wait_status_text(c->status, line, why, sizeof(why));
		pcost_sample_fail(smp, "%s", why);
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
	char report_env[] = "PROBECOST_REPORT_FD=3", **env;
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
	if ((rc = run_io_open(io, report_fd, capture, out ? out->digest : NULL)) < 0) {
		pcost_sample_fail(smp, "could not create a pipe: %s", strerror(-rc));
		goto out;
	}
	env = build_env(l, report_fd ? report_env : NULL);
	t0 = pcost_now_ns();
	rc = spawn(&io->child, l, env, o->cpu_mask, io->ep[1], io->rp[1], io->op[1], capture);
	free(env);
	if (rc < 0) {
		smp->wall_ns = pcost_now_ns() - t0;
		if (io->child.fail_stage == PCOST_CHILD_STAGE_PIN)
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
	if (io->child.exec_ns)
		t0 = io->child.exec_ns;
	smp->pid = io->child.pid;
	close(io->ep[1]);
	io->ep[1] = -1;
	if (io->rp[1] >= 0) {
		close(io->rp[1]);
		io->rp[1] = -1;
	}
	if (io->op[1] >= 0) {
		close(io->op[1]);
		io->op[1] = -1;
	}
	if (o->timeout_s > 0)
		deadline = t0 + (pcost_ns)(o->timeout_s * 1e9);
	/* Output captured or a service loaded: the first error says why ("refused"). */
	io->first_error = capture || o->watch_pid > 0;
	run_io_wait(io, deadline, (pcost_ns)(o->timeout_s * 1e9), o->busy_extend, o->watch_pid);
	smp->wall_ns = pcost_now_ns() - t0;
	/* Whatever the workload left behind in its group goes too. */
	kill(-io->child.pid, SIGKILL);
	pcost_child_remove(io->child.pid);
	for (int i = 0; i < 3; i++)
		run_io_readable(i, io);
	if (io->digest)
		pcost_outdigest_end(io->digest);
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
