// SPDX-License-Identifier: MIT
/*
 * runner: fork/exec/wait4 with CLOCK_MONOTONIC from fork to reap, each run in
 * its own process group; interleaved shuffled blocks (hyperfine-style runs,
 * but paired per block so drift cancels in the overhead ratios).
 */
#include "run/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
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
#include "store/store.h"
#include "workloads/workload.h"

extern char **environ;

/* The lead's workloads land in the same tree; until then a report cannot be parsed. */
#pragma weak pcost_report_parse

struct pcost_runner_slot {
	struct pcost_monitor *mon;
	struct pcost_target t;	/* strings and argv owned (copies) */
	char **argv;
	size_t config;		/* index in the session */
	bool dropped;		/* prepare failed, or every run so far failed */
	unsigned nfail, nrun;
	char note[256];		/* the monitor's last note ("lost 12 events"), "" */
	unsigned nnotes;
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

/*
 * Start the run with posix_spawn (CLONE_VM|CLONE_VFORK in glibc): fork()
 * copies probecost's page tables, which costs 2-3 ms a run on the KVM guest
 * this was written on against 0.9-1.3 ms for a spawn of the same /bin/true.
 * The child gets its own process group, /dev/null on stdin and stdout, the
 * stderr pipe, the report pipe as fd 3, and nothing else of ours.
 */
static int spawn(const struct pcost_launch *l, const struct pcost_runner_opts *o, char **env,
		 int report_w, int err_w, pid_t *pid)
{
	static cpu_set_t saved;
	static bool have_saved;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, err_w, 2);
	if (report_w >= 0 && report_w != 3)
		posix_spawn_file_actions_adddup2(&fa, report_w, 3);
	posix_spawn_file_actions_addclosefrom_np(&fa, report_w >= 0 ? 4 : 3);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	/* Affinity is inherited: pin ourselves for the spawn, then put ours back. */
	if (o->cpu_mask) {
		if (!have_saved)
			have_saved = sched_getaffinity(0, sizeof(saved), &saved) == 0;
		pcost_pin_mask(o->cpu_mask);
	}
	rc = posix_spawnp(pid, l->argv[0], &fa, &at, l->argv, env);
	if (o->cpu_mask && have_saved)
		sched_setaffinity(0, sizeof(saved), &saved);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return -rc;
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

/* A report's other facts: nr= names the syscall its events are (the syscall workload). */
static void report_fact(const char *key, const char *val, void *ctx)
{
	struct pcost_run_sample *smp = ctx;
	uint64_t nr;

	if (!strcmp(key, "nr") && pcost_parse_u64(val, 0, 100000, &nr) == 0)
		smp->event_syscall = (long)nr;
}

int pcost_run_once(const struct pcost_launch *l, const struct pcost_runner_opts *o,
		   bool report_fd, struct pcost_run_sample *smp, char *unit, size_t unitlen)
{
	int rp[2] = { -1, -1 }, ep[2] = { -1, -1 }, pidfd, status = 0, rc = 0;
	char report_env[40], rbuf[1024], ebuf[2048], **env;
	size_t rlen = 0, elen = 0;
	bool timed_out = false, interrupted = false;
	pcost_ns t0, t1, deadline = 0;
	struct rusage ru;
	pid_t pid;

	smp->wait_status = -1;
	smp->monitor_events = smp->monitor_events ? smp->monitor_events : -1;
	smp->event_syscall = -1;
	rbuf[0] = ebuf[0] = 0;
	memset(&ru, 0, sizeof(ru));
	if (pipe2(ep, O_CLOEXEC | O_NONBLOCK) < 0 ||
	    (report_fd && pipe2(rp, O_CLOEXEC | O_NONBLOCK) < 0)) {
		set_reason(smp, "could not create a pipe: %s", strerror(errno));
		goto out;
	}
	/*
	 * The child's ends are blocking (a workload must not see EAGAIN on its
	 * report) and inheritable: the report end lands on fd 3 (a dup2 onto
	 * itself would keep close-on-exec).
	 */
	if (report_fd) {
		fcntl(rp[1], F_SETFL, 0);
		fcntl(rp[1], F_SETFD, 0);
	}
	fcntl(ep[1], F_SETFL, 0);
	snprintf(report_env, sizeof(report_env), "PROBECOST_REPORT_FD=3");
	env = build_env(l, report_fd ? report_env : NULL);

	t0 = pcost_now_ns();
	rc = spawn(l, o, env, report_fd ? rp[1] : -1, ep[1], &pid);
	free(env);
	if (rc < 0) {
		t1 = pcost_now_ns();
		smp->wall_ns = t1 - t0;
		set_reason(smp, "could not execute '%.60s': %s", l->argv[0], strerror(-rc));
		rc = 0;
		goto out;
	}
	pcost_child_add(pid);
	smp->pid = pid;
	close(ep[1]);
	ep[1] = -1;
	if (report_fd) {
		close(rp[1]);
		rp[1] = -1;
	}
	if (o->timeout_s > 0)
		deadline = t0 + (pcost_ns)(o->timeout_s * 1e9);

	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		struct pollfd pf[3] = { { .fd = pidfd, .events = POLLIN },
					{ .fd = ep[0], .events = POLLIN },
					{ .fd = rp[0], .events = POLLIN } };
		int ms = -1, r;
		pid_t w;

		if (pidfd < 0) {
			/* No pidfd (old kernel): poll the child every millisecond. */
			w = wait4(pid, &status, WNOHANG, &ru);
			if (w == pid)
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
			interrupted = true;
			kill(-pid, SIGKILL);
		}
		if (r > 0 && (pf[1].revents & (POLLIN | POLLHUP)))
			drain(&ep[0], ebuf, sizeof(ebuf), &elen, true);
		if (r > 0 && (pf[2].revents & (POLLIN | POLLHUP)))
			drain(&rp[0], rbuf, sizeof(rbuf), &rlen, false);
		if (pidfd >= 0 && (interrupted || (r > 0 && (pf[0].revents & POLLIN)))) {
			while ((w = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
				;
			break;
		}
		if (deadline && pcost_now_ns() >= deadline && !timed_out) {
			timed_out = true;
			kill(-pid, SIGKILL);
		}
		if (pidfd < 0 && interrupted) {
			while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
				;
			break;
		}
	}
	t1 = pcost_now_ns();
	/* Whatever the workload left behind in its group goes too. */
	kill(-pid, SIGKILL);
	pcost_child_remove(pid);
	if (pidfd >= 0)
		close(pidfd);
	drain(&ep[0], ebuf, sizeof(ebuf), &elen, true);
	drain(&rp[0], rbuf, sizeof(rbuf), &rlen, false);

	smp->wall_ns = t1 - t0;
	smp->wait_status = status;
	smp->user_ns = (pcost_ns)ru.ru_utime.tv_sec * 1000000000ULL + (pcost_ns)ru.ru_utime.tv_usec * 1000;
	smp->sys_ns = (pcost_ns)ru.ru_stime.tv_sec * 1000000000ULL + (pcost_ns)ru.ru_stime.tv_usec * 1000;
	smp->maxrss_kb = ru.ru_maxrss;
	smp->minflt = ru.ru_minflt;
	smp->majflt = ru.ru_majflt;
	smp->nvcsw = ru.ru_nvcsw;
	smp->nivcsw = ru.ru_nivcsw;

	if (interrupted || pcost_interrupted) {
		set_reason(smp, "interrupted");
		rc = -EINTR;
	} else if (timed_out) {
		set_reason(smp, "timeout after %g s", o->timeout_s);
	} else if (WIFSIGNALED(status)) {
		set_reason(smp, "killed by SIG%s", sigabbrev_np(WTERMSIG(status)) ?: "?");
	} else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		char line[80];

		last_line(ebuf, elen, line, sizeof(line));
		set_reason(smp, "exit %d%s%s", WEXITSTATUS(status), line[0] ? ": " : "", line);
	}
	if (report_fd && rlen) {
		char *nl = strchr(rbuf, '\n');
		uint64_t ev = 0;
		pcost_ns timed = 0;
		char u[32] = "";

		if (nl)
			*nl = 0;
		if (pcost_report_parse &&
		    pcost_report_parse(rbuf, &ev, u, sizeof(u), &timed, report_fact, smp) == 0) {
			smp->has_report = true;
			smp->events = ev;
			smp->timed_ns = timed;
			if (unit && u[0])
				snprintf(unit, unitlen, "%s", u);
		}
	}
	goto done;
out:
	rc = 0;
done:
	if (ep[0] >= 0)
		close(ep[0]);
	if (ep[1] >= 0)
		close(ep[1]);
	if (rp[0] >= 0)
		close(rp[0]);
	if (rp[1] >= 0)
		close(rp[1]);
	return rc;
}

/* ---- blocks ------------------------------------------------------------------ */

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
	struct pcost_runner_opts o = r->opts;
	struct pcost_run_sample smp;
	struct pcost_launch l;
	char unit[32] = "", err[160] = "";
	int rc = 0, started = -1;
	bool placed = sl->t.monitor_cpu_mask && r->opts.cpu_mask;

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
			o.cpu_mask = sl->t.monitor_cpu_mask;
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
	rc = pcost_run_once(&l, &o, sl->t.report_fd, &smp, unit, sizeof(unit));
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

		if (r->slots[i].dropped || x->baseline < 0)
			continue; /* a baseline: nothing to narrow */
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

int pcost_runner_measure(struct pcost_runner *r, char *err, size_t len)
{
	size_t *order = xcalloc(r->nslots ? r->nslots : 1, sizeof(*order));
	uint64_t rng = r->opts.seed;
	int rc = 0;

	r->started_ns = pcost_now_ns();
	r->s->complete = false;
	/* prepare() once per distinct monitor instance, in the order given. */
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
		for (size_t k = 0; k < n && rc == 0; k++) {
			rc = run_slot(r, &r->slots[order[k]], block, (unsigned)k, warm);
			active++;
		}
		if (rc == -EINTR) {
			/* The runs of the abandoned block that did finish are kept too. */
			for (size_t i = 0; i < r->s->nconfigs; i++)
				PCOST_SINK(config, r->s, i);
			break;
		}
		r->blocks_done++;
		for (size_t i = 0; i < r->s->nconfigs; i++)
			PCOST_SINK(config, r->s, i);
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
