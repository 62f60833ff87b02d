// SPDX-License-Identifier: MIT
/*
 * runner: fork/exec/wait4 with CLOCK_MONOTONIC from fork to reap, each run in
 * its own process group; interleaved shuffled blocks (hyperfine-style runs,
 * but paired per block so drift cancels in the overhead ratios).
 */
#include "run/runner.h"
#include "run/busy.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
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

#include "stats/analyze.h"
#include "core/cleanup.h"
#include "core/journal.h"
#include "core/tracefs.h"
#include "store/store.h"
#include "workloads/workload.h"

extern char **environ;

struct pcost_runner_slot {
	struct pcost_monitor *mon;
	struct pcost_target t;	/* argv owned (a copy); its strings are the caller's: use the
				 * session's config for them */
	char **argv;
	size_t config;		/* index in the session */
	bool dropped;		/* prepare failed, or every run so far failed */
	unsigned nfail, nrun;
	char note[256];		/* the monitor's last note ("lost 12 events"), "" */
	unsigned nnotes;
	size_t med_n;		/* baselines: samples when med_s was computed */
	double med_s;		/* baselines: median wall time of the successful runs, NAN */
};

const char *pcost_self_exe(void)
{
	static char path[PATH_MAX];

	if (!path[0]) {
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

		if (n <= 0)
			snprintf(path, sizeof(path), "/proc/self/exe");
		else
			path[n] = 0;
	}
	return path;
}

void pcost_runner_opts_default(struct pcost_runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timeout_s = 0;
	o->ready_timeout_s = 10;
	o->warmup = 1;
	o->runs = 0;
	o->min_runs = 5;
	o->precision = 0.02;
	o->max_time_s = 60;
	o->max_failures = 2;
	o->seed = 1;
}

void pcost_runner_init(struct pcost_runner *r, struct pcost_session *s,
		       const struct pcost_runner_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->opts = *o;
	s->seed = o->seed;
}

static char **argv_dup(char *const *argv)
{
	size_t n = 0;
	char **v;

	while (argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(argv[i]);
	return v;
}

int pcost_runner_add(struct pcost_runner *r, struct pcost_monitor *m, const struct pcost_target *t)
{
	struct pcost_runner_slot *sl;
	struct pcost_config *c;

	xgrow((void **)&r->slots, &r->cap, r->nslots + 1, sizeof(*r->slots));
	sl = &r->slots[r->nslots];
	memset(sl, 0, sizeof(*sl));
	sl->mon = m;
	sl->t = *t;
	sl->argv = argv_dup(t->argv);
	sl->t.argv = sl->argv;
	if (sl->t.scale <= 0)
		sl->t.scale = 1;
	c = pcost_session_add_config(r->s, t->workload, t->workload_args, m->name, t->variant,
				     t->unit);
	c->threads = t->threads;
	c->placement = t->placement ? xstrdup(t->placement) : NULL;
	sl->config = (size_t)(c - r->s->configs);
	r->nslots++;
	return (int)sl->config;
}

/* ---- one run ---------------------------------------------------------------- */

static void set_reason(struct pcost_run_sample *smp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_reason(struct pcost_run_sample *smp, const char *fmt, ...)
{
	va_list ap;

	smp->failed = true;
	va_start(ap, fmt);
	vsnprintf(smp->fail_reason, sizeof(smp->fail_reason), fmt, ap);
	va_end(ap);
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
		set_reason(smp, "interrupted");
		return -EINTR;
	}
	if (io->timed_out) {
		set_reason(smp, "timeout after %g s", timeout_s);
	} else if (WIFSIGNALED(io->status)) {
		set_reason(smp, "killed by SIG%s", sigabbrev_np(WTERMSIG(io->status)) ?: "?");
	} else if (WIFEXITED(io->status) && WEXITSTATUS(io->status) != 0) {
		char line[80];

		last_line(io->ebuf, io->elen, line, sizeof(line));
		set_reason(smp, "exit %d%s%s", WEXITSTATUS(io->status), line[0] ? ": " : "", line);
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
		set_reason(smp, "could not create a pipe: %s", strerror(-rc));
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
			set_reason(smp, "could not pin to CPUs (--cpu): %s", strerror(-rc));
		else
			set_reason(smp, "could not execute '%.60s': %s", l->argv[0], strerror(-rc));
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

/* ---- blocks ------------------------------------------------------------------ */

/* The plain (baseline) configuration of the same target as sl, NULL when none. */
static struct pcost_runner_slot *baseline_of(struct pcost_runner *r,
					     const struct pcost_runner_slot *sl)
{
	/* The session's copies: the target's strings belong to the caller. */
	const struct pcost_config *c = &r->s->configs[sl->config];

	for (size_t i = 0; i < r->nslots; i++) {
		struct pcost_runner_slot *b = &r->slots[i];
		const struct pcost_config *bc = &r->s->configs[b->config];

		if (b->mon->ops->kind == PCOST_MON_BASELINE && b->t.scale == sl->t.scale &&
		    !strcmp(bc->workload, c->workload) &&
		    !strcmp(bc->workload_args ?: "", c->workload_args ?: "") &&
		    !strcmp(bc->variant ?: "", c->variant ?: ""))
			return b;
	}
	return NULL;
}

static int cmp_ns(const void *a, const void *b)
{
	pcost_ns x = *(const pcost_ns *)a, y = *(const pcost_ns *)b;

	return x < y ? -1 : x > y;
}

/* Median wall time of a configuration's successful runs (s), NAN when none yet. */
static double median_wall_s(const struct pcost_config *c)
{
	pcost_ns *v = xcalloc(c->nsamples ? c->nsamples : 1, sizeof(*v));
	size_t n = 0;
	double med = NAN;

	for (size_t i = 0; i < c->nsamples; i++)
		if (!c->samples[i].failed)
			v[n++] = c->samples[i].wall_ns;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_ns);
		med = (n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2) / 1e9;
	}
	free(v);
	return med;
}

/* The default limit of a monitored run without --timeout (0: none). */
static double hang_limit_s(struct pcost_runner *r, const struct pcost_runner_slot *sl)
{
	struct pcost_runner_slot *b;
	const struct pcost_config *c;

	if (sl->mon->ops->kind == PCOST_MON_BASELINE || !(b = baseline_of(r, sl)))
		return 0;
	/* Sorted again only when the plain configuration has new samples. */
	c = &r->s->configs[b->config];
	if (b->med_n != c->nsamples || !c->nsamples) {
		b->med_s = median_wall_s(c);
		b->med_n = c->nsamples;
	}
	return isnan(b->med_s) ? 0 : PCOST_HANG_FACTOR * b->med_s + PCOST_HANG_GRACE_S;
}

/* Has configuration c a successful run? */
static bool has_ok_run(const struct pcost_config *c)
{
	for (size_t i = 0; i < c->nsamples; i++)
		if (!c->samples[i].failed)
			return true;
	return false;
}

/*
 * pcost_run_once under --timeout, or under the default limit of a hung
 * monitor; started on cpu_mask (0: --cpu's).
 */
static int run_limited(struct pcost_runner *r, struct pcost_runner_slot *sl,
		       const struct pcost_launch *l, struct pcost_run_sample *smp, char *unit,
		       size_t unitlen, uint64_t cpu_mask)
{
	struct pcost_runner_opts o = r->opts;
	bool dflt = o.timeout_s <= 0;
	int rc;

	if (cpu_mask)
		o.cpu_mask = cpu_mask;
	if (dflt)
		o.timeout_s = hang_limit_s(r, sl);
	rc = pcost_run_once(l, &o, sl->t.report_fd, smp, unit, unitlen);
	if (dflt && o.timeout_s > 0 && smp->failed && !strncmp(smp->fail_reason, "timeout", 7))
		set_reason(smp, "hung: killed after %.1f s (%d x the plain run's median + %d s; "
				"--timeout sets the limit)", o.timeout_s, PCOST_HANG_FACTOR,
			   PCOST_HANG_GRACE_S);
	return rc;
}

/*
 * start() with probecost itself on mask (0: as it is) for the moment, so the
 * helper processes an attach monitor forks inherit it; ours is put back.
 */
static int start_placed(struct pcost_monitor *m, uint64_t mask, pcost_ns timeout_ns, char *err,
			size_t len)
{
	cpu_set_t saved;
	bool pin = mask && sched_getaffinity(0, sizeof(saved), &saved) == 0;
	int rc;

	if (pin)
		pcost_pin_mask(mask);
	rc = m->ops->start(m, timeout_ns, err, len);
	if (pin)
		sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}

static int run_slot(struct pcost_runner *r, struct pcost_runner_slot *sl, unsigned block,
		    unsigned order, bool warmup)
{
	struct pcost_config *c = &r->s->configs[sl->config];
	struct pcost_monitor *m = sl->mon;
	struct pcost_run_sample smp;
	struct pcost_cpu_times cpu0, cpu1;
	struct pcost_launch l;
	char unit[32] = "", err[160] = "";
	int rc = 0, started = -1;
	bool placed = sl->t.monitor_cpu_mask && r->opts.cpu_mask;
	uint64_t spawn_mask = 0;

	memset(&smp, 0, sizeof(smp));
	smp.block = block;
	smp.order = order;
	smp.warmup = warmup;
	smp.scale = sl->t.scale;
	smp.monitor_events = -1;
	smp.event_syscall = -1;
	m->note[0] = 0;
	pcost_launch_init(&l, sl->argv);
	if (m->ops->wrap && (rc = m->ops->wrap(m, &l)) < 0) {
		set_reason(&smp, "monitor %s could not wrap the command: %s", m->name, strerror(-rc));
		goto record;
	}
	if (placed) {
		/* The tracer starts on its CPUs; the workload moves itself to opts.cpu_mask. */
		char cpus[256];

		pcost_format_cpumask(r->opts.cpu_mask, cpus, sizeof(cpus));
		pcost_launch_setenv(&l, PCOST_WORKLOAD_CPUS_ENV, cpus);
		if (m->ops->wrap)
			spawn_mask = sl->t.monitor_cpu_mask;
	}
	if (m->ops->start) {
		pcost_ns to = (pcost_ns)((r->opts.ready_timeout_s > 0 ? r->opts.ready_timeout_s : 10) * 1e9);

		started = start_placed(m, placed ? sl->t.monitor_cpu_mask : 0, to, err,
				       sizeof(err));
		if (started < 0) {
			if (started == -EINTR || pcost_interrupted)
				set_reason(&smp, "interrupted");
			else if (started == -ETIMEDOUT)
				set_reason(&smp, "monitor not ready after %g s%s%s",
					   r->opts.ready_timeout_s, err[0] ? ": " : "", err);
			else
				set_reason(&smp, "monitor did not start: %s",
					   err[0] ? err : strerror(-started));
			goto stop;
		}
	}
	pcost_cpu_times_read(r->opts.cpu_mask, &cpu0);
	rc = run_limited(r, sl, &l, &smp, unit, sizeof(unit), spawn_mask);
	pcost_cpu_times_read(r->opts.cpu_mask, &cpu1);
	pcost_busy_fill(&cpu0, &cpu1, &smp);
stop:
	if (m->ops->stop) {
		bool was_failed = smp.failed;
		int src = m->ops->stop(m, &smp);

		if (src < 0 && !smp.failed)
			set_reason(&smp, "monitor %s failed: %s", m->name, strerror(-src));
		(void)was_failed;
		if (m->note[0]) {
			snprintf(sl->note, sizeof(sl->note), "%s", m->note);
			sl->nnotes++;
		}
	}
record:
	pcost_launch_release(&l);
	if (!smp.has_report && sl->t.events >= 0)
		smp.events = (uint64_t)sl->t.events;
	if (unit[0] && (!c->unit || strcmp(c->unit, unit))) {
		free(c->unit);
		c->unit = xstrdup(unit);
	}
	if (rc == -EINTR || pcost_interrupted)
		return -EINTR; /* an interrupted run is not a measurement */
	pcost_config_add_sample(c, &smp);
	sl->nrun++;
	if (smp.failed)
		sl->nfail++;
	if (sl->nfail == sl->nrun && sl->nfail >= (r->opts.max_failures ? r->opts.max_failures : 2))
		sl->dropped = true;
	return 0;
}

static void progress(struct pcost_runner *r, unsigned measured, bool done)
{
	double el = (double)(pcost_now_ns() - r->started_ns) / 1e9, frac;
	char bar[31];
	int fill;

	if (!r->opts.progress)
		return;
	if (r->opts.runs)
		frac = (double)r->blocks_done / (double)(r->opts.runs + r->opts.warmup);
	else
		frac = r->opts.max_time_s > 0 ? el / r->opts.max_time_s : 0;
	if (frac > 1)
		frac = 1;
	fill = (int)(frac * 30);
	memset(bar, ' ', 30);
	memset(bar, '=', (size_t)fill);
	bar[30] = 0;
	if (frac > 0.01 && !done)
		fprintf(stderr, "\r  [%s] block %u, %u measured, %.0f s, ETA %.0f s   ", bar,
			r->blocks_done, measured, el, el / frac - el);
	else
		fprintf(stderr, "\r  [%s] block %u, %u measured, %.0f s            ", bar,
			r->blocks_done, measured, el);
	if (done)
		fprintf(stderr, "\r%*s\r", 78, "");
	fflush(stderr);
}

/* Every overhead CI half-width below opts.precision (one analysis for all). */
static bool precise_enough(struct pcost_runner *r)
{
	struct pcost_config_stats *st = NULL;
	bool ok = true;

	if (pcost_analyze(r->s, &st) < 0)
		return false;
	for (size_t i = 0; i < r->nslots && ok; i++) {
		const struct pcost_config_stats *x = &st[r->slots[i].config];

		if (r->slots[i].dropped)
			continue;
		/* probes: each build's dormant cost (over its layouts) to +- precision_dormant_ns */
		if (r->opts.precision_dormant_ns > 0 && x->noprobe >= 0 &&
		    !((x->dormant_all_per_hit_ns_hi - x->dormant_all_per_hit_ns_lo) / 2 <
		      r->opts.precision_dormant_ns))
			ok = false;
		if (x->baseline < 0)
			continue; /* a baseline: no overhead to narrow */
		if (x->nok < 2 || isnan(x->overhead_lo) ||
		    !((x->overhead_hi - x->overhead_lo) / 2 < r->opts.precision))
			ok = false;
	}
	free(st);
	return ok;
}

double pcost_runner_halfwidth(const struct pcost_runner *r, size_t i)
{
	struct pcost_config_stats *st = NULL;
	double hw = NAN;

	if (pcost_analyze(r->s, &st) < 0)
		return NAN;
	if (i < r->s->nconfigs && st[i].baseline >= 0 && st[i].nok >= 2 &&
	    !isnan(st[i].overhead_lo))
		hw = (st[i].overhead_hi - st[i].overhead_lo) / 2;
	free(st);
	return hw;
}

/*
 * Without --timeout, a monitored run's limit comes from its plain run's
 * median: while a plain configuration has no successful run yet, the plain
 * runs of the block go first (stable: the shuffled order is kept otherwise).
 */
static void baselines_first(const struct pcost_runner *r, size_t *order, size_t n)
{
	size_t *tmp = xcalloc(n, sizeof(*tmp)), k = 0;
	bool need = false;

	for (size_t i = 0; i < n; i++) {
		const struct pcost_runner_slot *sl = &r->slots[order[i]];

		need |= sl->mon->ops->kind == PCOST_MON_BASELINE &&
			!has_ok_run(&r->s->configs[sl->config]);
	}
	for (int pass = 0; need && pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if ((r->slots[order[i]].mon->ops->kind == PCOST_MON_BASELINE) == (pass == 0))
				tmp[k++] = order[i];
	if (need)
		memcpy(order, tmp, n * sizeof(*order));
	free(tmp);
}

/* Every binary a configuration runs (argv[0] resolved) and the probed one. */
static size_t session_binaries(const struct pcost_runner *r, char (*bins)[PATH_MAX], size_t max)
{
	size_t n = 0;

	if (r->opts.probed_binary && n < max)
		snprintf(bins[n++], PATH_MAX, "%s", r->opts.probed_binary);
	for (size_t i = 0; i < r->nslots && n < max; i++) {
		const char *a0 = r->slots[i].argv[0];

		if (strchr(a0, '/'))
			snprintf(bins[n++], PATH_MAX, "%s", a0);
		else if (pcost_which(a0, bins[n], PATH_MAX))
			n++;
	}
	return n;
}

int pcost_runner_check(struct pcost_runner *r, char *err, size_t len)
{
	char (*bins)[PATH_MAX] = xcalloc(r->nslots + 1, PATH_MAX);
	const char **names = xcalloc(r->nslots + 1, sizeof(*names));
	char why[512];
	unsigned swept;
	bool syscalls = false, foreign;
	size_t n;
	int other = 0, rc;

	if (r->checked)
		goto out;
	if ((rc = pcost_journal_open(&swept, err, len)) < 0)
		goto out_rc;
	if (swept)
		warning("undid %u change%s left by a probecost that was killed (processes, probe "
			"events, trace instances, temporary files)", swept, swept == 1 ? "" : "s");
	pcost_tracefs_begin();
	n = session_binaries(r, bins, r->nslots + 1);
	for (size_t i = 0; i < n; i++)
		names[i] = bins[i];
	for (size_t i = 0; i < r->nslots; i++)
		syscalls |= !strcmp(r->s->configs[r->slots[i].config].workload, "syscall");
	foreign = !getenv("PROBECOST_ALLOW_TRACERS") &&
		  pcost_foreign_tracer(names, n, syscalls, &other, why, sizeof(why));
	if (foreign) {
		snprintf(err, len, "a tracer that is not this probecost's is armed on what it would "
			 "measure: %s; stop it (or set PROBECOST_ALLOW_TRACERS=1 to measure anyway)",
			 why);
		rc = -EBUSY;
		goto out_rc;
	}
	if (other)
		warning("another probecost (pid %d) is tracing at the same time: its tracers add to "
			"these measurements", other);
	r->checked = true;
out:
	rc = 0;
out_rc:
	free(bins);
	free(names);
	return rc;
}

/* prepare() once per distinct monitor instance, in the order given; a failure drops
 * its configurations with the reason in a failed sample. */
static void prepare_all(struct pcost_runner *r)
{
	for (size_t i = 0; i < r->nslots; i++) {
		struct pcost_monitor *m = r->slots[i].mon;
		bool seen = false;
		char why[256] = "";
		int prc = 0;

		for (size_t j = 0; j < i; j++)
			seen |= r->slots[j].mon == m;
		if (seen || !m->ops->prepare) {
			for (size_t j = 0; j < i && seen; j++)
				if (r->slots[j].mon == m && r->slots[j].dropped)
					r->slots[i].dropped = true;
		} else if ((prc = m->ops->prepare(m, why, sizeof(why))) < 0) {
			r->slots[i].dropped = true;
		}
		if (r->slots[i].dropped) {
			struct pcost_run_sample smp;

			memset(&smp, 0, sizeof(smp));
			smp.wait_status = -1;
			smp.monitor_events = -1;
			smp.scale = r->slots[i].t.scale;
			set_reason(&smp, "monitor %s could not be prepared: %s", m->name,
				   why[0] ? why : strerror(-prc));
			pcost_config_add_sample(&r->s->configs[r->slots[i].config], &smp);
		}
	}
}

int pcost_runner_measure(struct pcost_runner *r, char *err, size_t len)
{
	size_t *order = xcalloc(r->nslots ? r->nslots : 1, sizeof(*order));
	uint64_t rng = r->opts.seed;
	int rc = 0;

	r->s->complete = false;
	if ((rc = pcost_runner_check(r, err, len)) < 0) {
		free(order);
		return rc;
	}
	r->started_ns = pcost_now_ns();
	prepare_all(r);

	for (unsigned block = 0;; block++) {
		bool warm = block < r->opts.warmup;
		unsigned measured, active = 0;
		size_t n = 0;

		for (size_t i = 0; i < r->nslots; i++)
			if (!r->slots[i].dropped)
				order[n++] = i;
		if (n == 0) {
			snprintf(err, len, "nothing left to measure: every configuration failed");
			rc = -ENOEXEC;
			break;
		}
		pcost_shuffle(order, n, &rng);
		if (r->opts.timeout_s <= 0)
			baselines_first(r, order, n);
		for (size_t k = 0; k < n && rc == 0; k++) {
			rc = run_slot(r, &r->slots[order[k]], block, (unsigned)k, warm);
			active++;
		}
		if (rc == -EINTR) {
			/* The runs of the abandoned block that did finish are kept too. */
			for (size_t i = 0; i < r->s->nconfigs; i++)
				pcost_sink_config(r->s, i);
			break;
		}
		r->blocks_done++;
		for (size_t i = 0; i < r->s->nconfigs; i++)
			pcost_sink_config(r->s, i);
		if (r->opts.on_block)
			r->opts.on_block(r->opts.ctx, block, warm);
		measured = r->blocks_done > r->opts.warmup ? r->blocks_done - r->opts.warmup : 0;
		progress(r, measured, false);
		if (warm)
			continue;
		if (r->opts.runs) {
			if (measured >= r->opts.runs)
				break;
		} else if (measured >= (r->opts.min_runs ? r->opts.min_runs : 2)) {
			double el = (double)(pcost_now_ns() - r->started_ns) / 1e9;

			if ((r->opts.max_runs && measured >= r->opts.max_runs) ||
			    (r->opts.max_time_s > 0 && el >= r->opts.max_time_s) || precise_enough(r))
				break;
		}
		(void)active;
	}
	progress(r, r->blocks_done > r->opts.warmup ? r->blocks_done - r->opts.warmup : 0, true);
	free(order);
	if (rc == -EINTR || pcost_interrupted)
		return -EINTR;
	if (rc < 0)
		return rc;
	r->s->complete = true;
	return 0;
}

void pcost_runner_release(struct pcost_runner *r)
{
	for (size_t i = 0; i < r->nslots; i++) {
		struct pcost_monitor *m = r->slots[i].mon;
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= r->slots[j].mon == m;
		if (!seen && m->ops->cleanup)
			m->ops->cleanup(m);
		pcost_argv_free(r->slots[i].argv);
	}
	free(r->slots);
	memset(r, 0, sizeof(*r));
}

const char *pcost_runner_note(const struct pcost_runner *r, size_t config, unsigned *count)
{
	for (size_t i = 0; i < r->nslots; i++) {
		if (r->slots[i].config == config) {
			if (count)
				*count = r->slots[i].nnotes;
			return r->slots[i].nnotes ? r->slots[i].note : NULL;
		}
	}
	return NULL;
}
