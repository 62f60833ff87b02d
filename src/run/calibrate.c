// SPDX-License-Identifier: MIT
/*
 * run/calibrate: the monitors' entries of the cost table -- one runner
 * session of built-in workloads under every monitor calibrated, the events of
 * each workload counted, and each term priced less the others (calibrate.h).
 */
#include "run/calibrate.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/env.h"
#include "core/proc.h"
#include "monitors/monitor.h"
#include "run/count.h"
#include "run/runner.h"
#include "stats/analyze.h"
#include "stats/predict.h"
#include "stats/stats.h"
#include "store/store.h"

#define EV(e) (1u << (e))
#define MAX_MONS 24

/* The workloads of the session, each run plain and under the monitors that need it. */
enum target_id {
	T_NULL,
	T_TRUE,
	T_SYS_S,
	T_SYS_M,
	T_SYS_L,
	T_SYS_WORK,
	T_SYS_SHARED,
	T_SYS_SIDE,
	T_STAT_S,
	T_STAT_M,
	T_STAT_L,
	T_DIR_S,
	T_DIR_M,
	T_DIR_L,
	T_PIPE,
	T_PIPE_SAME,
	T_SPAWN,
	T_EXEC,
	T_SPIN,
	T_N
};

static const struct {
	const char *workload, *args;
	double loops; /* events of its timed region (1: the null run, priced whole) */
} targets[T_N] = {
	/* The start-up every workload shares (counted, never measured: its events are less). */
	[T_NULL] = { "null", "", 1 },
	/*
	 * The fixed cost: true(1), the smallest program there is, so the run's own
	 * start-up (30-odd syscalls, not the probecost binary's 500 and its 40
	 * libraries) adds the least variation.
	 */
	[T_TRUE] = { "command", "true", 1 },
	[T_SYS_S] = { "syscall", "loops=2000", 2000 },
	[T_SYS_M] = { "syscall", "loops=20000", 20000 },
	[T_SYS_L] = { "syscall", "loops=200000", 200000 },
	/*
	 * A ptrace stop after 2 ms of work: the tracer has slept through it (and,
	 * on a virtual machine, its idle vCPU left the host CPU): what it costs
	 * more than a stop in a tight loop.
	 */
	[T_SYS_WORK] = { "syscall", "work=2000000 loops=200", 200 },
	/*
	 * Two threads that make decoded calls side by side the whole time, under
	 * one tracer: what such a call costs beside another tracee's (its loops:
	 * the events of both, as the workload reports them).
	 */
	[T_SYS_SHARED] = { "syscall", "args=stat threads=2 loops=10000", 20000 },
	/* The same at a BPF program's size: what a call costs with another task's beside it. */
	[T_SYS_SIDE] = { "syscall", "args=stat threads=2 loops=100000", 200000 },
	/* Decoded calls: newfstatat of "/"; a listing of "/" (and the lseek that rewinds it). */
	[T_STAT_S] = { "syscall", "args=stat loops=2000", 2000 },
	[T_STAT_M] = { "syscall", "args=stat loops=20000", 20000 },
	/* A BPF program's sizes: its call costs a few hundred ns. */
	[T_STAT_L] = { "syscall", "args=stat loops=200000", 200000 },
	[T_DIR_S] = { "syscall", "args=dir loops=500", 500 },
	[T_DIR_M] = { "syscall", "args=dir loops=2000", 2000 },
	[T_DIR_L] = { "syscall", "args=dir loops=20000", 20000 },
	[T_PIPE] = { "pipe", "loops=5000", 5000 },
	/*
	 * A counter's or a sampler's work at a switch is CPU in the switching task:
	 * measured with both tasks on one CPU.  Between two CPUs (unpinned) the
	 * ping-pong times the idle CPU's wake-up, which that work shortens: perf
	 * stat read -9.6 to -11.5 us a switch there, quiet.
	 */
	[T_PIPE_SAME] = { "pipe", "loops=5000 cpu=same", 5000 },
	[T_SPAWN] = { "spawn", "kind=fork loops=200", 200 },
	/* vfork + exec of true + wait: an exec and the new image's start-up (counted). */
	[T_EXEC] = { "spawn", "kind=vfork-exec loops=100", 100 },
	[T_SPIN] = { "spin", "loops=250000 work=1000", 250000 },
};

/* One monitor instance calibrated, and the configuration that measures each of its terms. */
struct cal_mon {
	char name[96];	 /* as created ("strace-seccomp:trace=getppid") */
	unsigned events; /* the terms it prices */
	struct pcost_monitor *m;
	bool available;
	char why[256];
	int cfg[PCOST_CE_N]; /* configuration index per term, -1 */
	enum target_id target[PCOST_CE_N];
};

struct cal {
	const struct pcost_calibrate_opts *o;
	struct cal_mon mons[MAX_MONS];
	size_t nmons;
	int base[T_N]; /* the plain configuration of each target, -1 when not used */
	bool used[T_N];
	struct pcost_counts counts[T_N];
	char count_why[T_N][256];
	bool counted[T_N];
	struct pcost_session s;
	struct pcost_config_stats *st;
};

/* The monitors each level calibrates (strace-seccomp and perf-record expand below). */
static const char *const quick_monitors[] = {
	"strace",
	"strace-seccomp",
	"perf-trace",
	"bpftrace-syscalls",
	"tracepoint-syscalls",
	"perf-stat",
	"perf-record:freq=4000",
};
static const char *const thorough_monitors[] = { "perf-record:freq=999", "perf-record:freq=99" };

static bool base_is(const char *monitor, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(monitor, base, n) && (!monitor[n] || monitor[n] == ':');
}

bool pcost_calibrate_monitor_ok(const char *monitor, char *why, size_t len)
{
	const char *nm = NULL;
	struct pcost_monitor *m = pcost_monitor_create(monitor, why, len);

	if (!m)
		return false; /* unknown or malformed: why says so */
	pcost_monitor_free(m);
	if (!pcost_model_events(monitor, &nm) || !strcmp(monitor, "none")) {
		snprintf(why, len, "'%s': %s", monitor,
			 nm ? nm : "the baseline has no cost to calibrate");
		return false;
	}
	return true;
}

/* The subject an entry of monitor's term is stored under (what the model looks up). */
static void subject_of(const char *monitor, enum pcost_cost_event ev, char *buf, size_t len)
{
	/* The set does not change what a stop or the filter costs: one model for every set. */
	if (base_is(monitor, "strace-seccomp"))
		snprintf(buf, len, "strace-seccomp");
	/* Side-band records (switches, tasks) do not depend on the sampling frequency. */
	else if (base_is(monitor, "perf-record") && ev != PCOST_CE_RUN && ev != PCOST_CE_SAMPLE)
		snprintf(buf, len, "perf-record");
	else
		snprintf(buf, len, "%s", monitor);
}

/* The syscall workload's size for a monitor: about 50-200 ms of its cost a run. */
static enum target_id syscall_target(const char *monitor)
{
	const char *e = strstr(monitor, "event=");
	double ns = e ? strtod(e + 6, NULL) : 0;

	if (base_is(monitor, "perf-trace") || ns >= 20000)
		return T_SYS_S;
	if (base_is(monitor, "strace") || base_is(monitor, "strace-count") ||
	    base_is(monitor, "strace-seccomp") || ns >= 1000)
		return T_SYS_M;
	return T_SYS_L;
}

static enum target_id target_of(const char *monitor, enum pcost_cost_event ev)
{
	enum target_id sys = syscall_target(monitor);

	switch (ev) {
	case PCOST_CE_SYSCALL:
		return sys;
	case PCOST_CE_SYSCALL_DECODED:
		return sys == T_SYS_S ? T_STAT_S : sys == T_SYS_L ? T_STAT_L : T_STAT_M;
	case PCOST_CE_SYSCALL_DIR:
		return sys == T_SYS_S ? T_DIR_S : sys == T_SYS_L ? T_DIR_L : T_DIR_M;
	case PCOST_CE_SYSCALL_UNTRACED:
		return T_SYS_L;
	case PCOST_CE_STOP_AFTER_WORK:
		return T_SYS_WORK;
	case PCOST_CE_STOP_SHARED:
		return T_SYS_SHARED;
	case PCOST_CE_SYSCALL_SHARED:
		return T_SYS_SIDE;
	case PCOST_CE_CSWITCH:
		/* A ptrace tracer's wake-up at a switch is a wait: timed where it happens. */
		return base_is(monitor, "strace") || base_is(monitor, "strace-count") ? T_PIPE
										      : T_PIPE_SAME;
	case PCOST_CE_TASK:
		return T_SPAWN;
	case PCOST_CE_EXEC:
		return T_EXEC;
	case PCOST_CE_SAMPLE:
		return T_SPIN;
	default:
		/* inject's fixed spin is the probecost workloads' (null's), not true's. */
		return base_is(monitor, "inject") ? T_NULL : T_TRUE;
	}
}

static struct cal_mon *add_mon(struct cal *c, const char *name, unsigned events)
{
	struct cal_mon *cm;

	for (size_t i = 0; i < c->nmons; i++)
		if (!strcmp(c->mons[i].name, name))
			return &c->mons[i];
	if (c->nmons >= MAX_MONS)
		return NULL;
	cm = &c->mons[c->nmons++];
	memset(cm, 0, sizeof(*cm));
	snprintf(cm->name, sizeof(cm->name), "%s", name);
	cm->events = events;
	for (int e = 0; e < PCOST_CE_N; e++)
		cm->cfg[e] = -1;
	return cm;
}

/*
 * A monitor asked for, as the instances that price its terms: strace-seccomp
 * with the set that makes each workload's call the class priced (getppid:
 * plain, newfstatat: decoded, getdents64: listings; getpid, which no
 * workload calls: untraced); perf-record at perf's default frequency without
 * one.
 */
static void plan_monitor(struct cal *c, const char *monitor)
{
	unsigned ev = pcost_model_events(monitor, NULL);

	if (base_is(monitor, "strace-seccomp")) {
		add_mon(c, "strace-seccomp:trace=getppid",
			EV(PCOST_CE_RUN) | EV(PCOST_CE_SYSCALL) | EV(PCOST_CE_STOP_AFTER_WORK) |
				EV(PCOST_CE_TASK) | EV(PCOST_CE_EXEC));
		add_mon(c, "strace-seccomp:trace=newfstatat", EV(PCOST_CE_SYSCALL_DECODED));
		add_mon(c, "strace-seccomp:trace=getdents64", EV(PCOST_CE_SYSCALL_DIR));
		add_mon(c, "strace-seccomp:trace=getpid", EV(PCOST_CE_SYSCALL_UNTRACED));
	} else if (!strcmp(monitor, "perf-record")) {
		add_mon(c, "perf-record:freq=4000", ev);
	} else {
		add_mon(c, monitor, ev);
	}
}

static void plan(struct cal *c)
{
	const struct pcost_calibrate_opts *o = c->o;

	if (o->nmonitors) {
		for (size_t i = 0; i < o->nmonitors; i++)
			plan_monitor(c, o->monitors[i]);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(quick_monitors); i++)
		plan_monitor(c, quick_monitors[i]);
	for (size_t i = 0; o->thorough && i < ARRAY_SIZE(thorough_monitors); i++)
		plan_monitor(c, thorough_monitors[i]);
}

/*
 * perf record's switches and tasks are priced once, by its first frequency
 * (stored as "perf-record": side-band records do not depend on it); the
 * others price their own fixed cost and samples.
 */
static void share_record_terms(struct cal *c)
{
	bool first = true;

	for (size_t i = 0; i < c->nmons; i++) {
		if (!base_is(c->mons[i].name, "perf-record"))
			continue;
		if (!first)
			c->mons[i].events &= EV(PCOST_CE_RUN) | EV(PCOST_CE_SAMPLE);
		first = false;
	}
}

/* The fixed-cost runs: a whole run, not a timed region (the null and true targets). */
static bool whole_run(enum target_id t)
{
	return t == T_NULL || t == T_TRUE;
}

/* The true(1) binary, or NULL. */
static const char *true_path(void)
{
	static const char *const paths[] = { "/usr/bin/true", "/bin/true" };

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

/*
 * argv of `probecost workload NAME ARGS...`, or of true(1) (caller frees with
 * pcost_argv_free).
 */
static char **workload_argv(enum target_id t)
{
	char *line, **v;

	if (t == T_TRUE) {
		v = xcalloc(2, sizeof(*v));
		v[0] = xstrdup(true_path() ? true_path() : "true");
		return v;
	}
	line = xasprintf("x workload %s %s", targets[t].workload, targets[t].args);

	if (pcost_argv_split(line, &v) < 0)
		abort(); /* our own constant words */
	free(line);
	free(v[0]);
	v[0] = xstrdup(pcost_self_exe());
	return v;
}

static void add_config(struct cal *c, struct pcost_runner *r, struct pcost_monitor *m,
		       enum target_id t, int *idx)
{
	char **argv = workload_argv(t);
	struct pcost_target tg = {
		.workload = targets[t].workload,
		.workload_args = t == T_TRUE ? argv[0] : targets[t].args,
		.unit = NULL,
		.argv = argv,
		.scale = 1,
		.events = -1,
		.report_fd = t != T_TRUE,
	};

	*idx = pcost_runner_add(r, m, &tg);
	pcost_argv_free(argv);
}

/*
 * Create the monitors, note the unavailable ones, add every configuration:
 * 0; 1 when no monitor is available here (nothing to run); -errno.
 */
static int add_all(struct cal *c, struct pcost_runner *r, char *err, size_t len)
{
	struct pcost_monitor *none = pcost_monitor_create("none", err, len);
	size_t navail = 0;

	for (int t = 0; t < T_N; t++)
		c->base[t] = -1;
	for (size_t i = 0; i < c->nmons; i++) {
		struct cal_mon *cm = &c->mons[i];

		cm->m = pcost_monitor_create(cm->name, err, len);
		if (!cm->m)
			return -EINVAL;
		cm->available = pcost_monitor_available(cm->m, cm->why, sizeof(cm->why));
		navail += cm->available;
		for (int e = 0; e < PCOST_CE_N && cm->available; e++) {
			enum target_id t = target_of(cm->name, (enum pcost_cost_event)e);

			if (!(cm->events & EV(e)))
				continue;
			cm->target[e] = t;
			c->used[t] = true;
		}
	}
	/* None available: nothing to measure, every entry unavailable with its reason. */
	if (!navail)
		return 1;
	/* Targets in order, each: plain, then every monitor that needs it. */
	for (int t = 0; t < T_N; t++) {
		if (!c->used[t])
			continue;
		add_config(c, r, none, (enum target_id)t, &c->base[t]);
		for (size_t i = 0; i < c->nmons; i++) {
			struct cal_mon *cm = &c->mons[i];
			int idx = -1;

			for (int e = 0; e < PCOST_CE_N && cm->available; e++) {
				if (!(cm->events & EV(e)) || cm->target[e] != (enum target_id)t)
					continue;
				if (idx < 0)
					add_config(c, r, cm->m, (enum target_id)t, &idx);
				cm->cfg[e] = idx;
			}
		}
	}
	return 0;
}

/* Count each target's plain run (and the null run's, which every other is less). */
static void count_targets(struct cal *c)
{
	/* By name: the model's classes, and the sets of the strace-seccomp instances. */
	const char *names[96];
	struct pcost_count_opts co = {
		.runs = 1, .cpu_mask = c->o->cpu_mask, .timeout_s = 120, .names = names
	};

	co.nnames = pcost_model_syscall_names(names, ARRAY_SIZE(names) - 2);
	names[co.nnames++] = "getppid";
	names[co.nnames++] = "getpid";
	c->used[T_NULL] = true;
	for (int t = 0; t < T_N && !pcost_interrupted; t++) {
		char **argv;

		if (!c->used[t])
			continue;
		argv = workload_argv((enum target_id)t);
		c->counted[t] = !pcost_count_command(argv, &co, &c->counts[t], c->count_why[t],
						     sizeof(c->count_why[t]));
		pcost_argv_free(argv);
	}
}

/*
 * A two-thread target's per_loop: its threads are alive and running at once
 * the whole timed region (C = P = 2, each call made beside the other
 * thread's), and its terms are paid side by side, as predict pays a ptrace
 * tracer's waits on a quiet machine and a BPF program's CPU: over 2.  The
 * null run is one task, counted as the same.
 */
#define SHARED_THREADS 2.0
static double per_loop_shared(const struct cal *c, enum target_id t, enum pcost_cost_event ev,
			      const char *monitor)
{
	struct pcost_counts a = c->counts[t], b = c->counts[T_NULL];
	double n, n0, se;
	char why[160];

	a.concurrency = b.concurrency = a.parallel = b.parallel = SHARED_THREADS;
	if (pcost_model_count(monitor, ev, &a, &n, &se, why, sizeof(why)) < 0 ||
	    pcost_model_count(monitor, ev, &b, &n0, &se, why, sizeof(why)) < 0)
		return NAN;
	return (n - n0) / targets[t].loops / SHARED_THREADS;
}

/*
 * What monitor's event ev counts a loop of target t makes (the model's count
 * of the target, less the null run's start-up); the whole run's for the
 * fixed-cost targets; NaN when not counted.
 */
static double per_loop(const struct cal *c, enum target_id t, enum pcost_cost_event ev,
		       const char *monitor)
{
	double n, n0, se;
	char why[160];

	if (ev == PCOST_CE_RUN)
		return 1;
	/* Every stop of the work target follows its 2 ms (the model's share is for programs). */
	if (ev == PCOST_CE_STOP_AFTER_WORK && t == T_SYS_WORK)
		return 1;
	if (!c->counted[t] || (!whole_run(t) && !c->counted[T_NULL]))
		return NAN;
	if (t == T_SYS_SHARED || t == T_SYS_SIDE)
		return per_loop_shared(c, t, ev, monitor);
	if (pcost_model_count(monitor, ev, &c->counts[t], &n, &se, why, sizeof(why)) < 0)
		return NAN;
	if (whole_run(t))
		return n;
	if (pcost_model_count(monitor, ev, &c->counts[T_NULL], &n0, &se, why, sizeof(why)) < 0)
		return NAN;
	return (n - n0) / targets[t].loops;
}

/* The measured figure of a configuration: per loop of the timed region, or the whole-run extra. */
static int measured(const struct cal *c, int cfg, enum target_id t, double *v, double *se,
		    double *df, char *why, size_t len)
{
	const struct pcost_config_stats *st = &c->st[cfg];
	double lo, hi;

	if (!st->nok) {
		const char *r = NULL;

		for (size_t i = 0; i < c->s.configs[cfg].nsamples; i++)
			if (c->s.configs[cfg].samples[i].failed)
				r = c->s.configs[cfg].samples[i].fail_reason;
		snprintf(why, len, "every run failed%s%s", r ? ": " : "", r ? r : "");
		return -1;
	}
	if (whole_run(t)) {
		*v = st->extra_ns;
		lo = st->extra_ns_lo;
		hi = st->extra_ns_hi;
	} else {
		*v = st->per_event_ns;
		lo = st->per_event_ns_lo;
		hi = st->per_event_ns_hi;
	}
	if (!isfinite(*v) || !isfinite(lo) || !isfinite(hi)) {
		snprintf(why, len, "no interval: %s",
			 st->per_event_why ? st->per_event_why : "fewer than 2 paired blocks");
		return -1;
	}
	*df = st->npairs > 1 ? (double)st->npairs - 1 : NAN;
	/* Under skew the interval is Hall's, not symmetric: its mean half-width over t. */
	*se = (hi - lo) / 2 / pcost_t_quantile(PCOST_CONF, *df);
	return 0;
}

/*
 * c_t = (p - sum c_k n_k) / n_t over the other terms k the monitor pays for
 * whose entry is known, their variances added (calibrate.h).
 */
static void derive(struct cal *c, struct pcost_cost_table *tab, struct cal_mon *cm,
		   enum pcost_cost_event ev)
{
	enum target_id t = cm->target[ev];
	char subject[96], wl[128], how[256], why[256];
	double p, se, df, nt, v[PCOST_CE_N + 1], vdf[PCOST_CE_N + 1], var, num;
	size_t nv = 0;
	struct pcost_cost_entry *e;
	bool less = false;

	subject_of(cm->name, ev, subject, sizeof(subject));
	if (t == T_TRUE)
		snprintf(wl, sizeof(wl), "%s", true_path() ? true_path() : "true");
	else
		snprintf(wl, sizeof(wl), "%s%s%s", targets[t].workload, *targets[t].args ? " " : "",
			 targets[t].args);
	snprintf(how, sizeof(how), "%s", whole_run(t) ? "whole-run extra time" : "timed region");
	e = pcost_cost_add(tab, subject, "monitor", ev, wl, NULL);
	e->session_id = c->s.id;
	if (measured(c, cm->cfg[ev], t, &p, &se, &df, why, sizeof(why)) < 0) {
		e->status = PCOST_COST_FAILED;
		pcost_cost_why(e, "%s", why);
		goto out;
	}
	nt = per_loop(c, t, ev, cm->name);
	if (!(nt > 0)) {
		e->status = PCOST_COST_FAILED;
		pcost_cost_why(e, "%s made no %s to price (counted: %s)", wl,
			       pcost_cost_event_name(ev), c->counted[t] ? "none" : c->count_why[t]);
		goto out;
	}
	num = p;
	v[nv] = se * se;
	vdf[nv++] = df;
	for (int k = 0; k < PCOST_CE_N; k++) {
		char ks[96];
		const struct pcost_cost_entry *ke;
		double nk, kse;

		if (k == (int)ev || k == PCOST_CE_RUN ||
		    !(pcost_model_events(cm->name, NULL) & EV(k)))
			continue;
		subject_of(cm->name, (enum pcost_cost_event)k, ks, sizeof(ks));
		ke = pcost_cost_find(tab, ks, (enum pcost_cost_event)k);
		nk = per_loop(c, t, (enum pcost_cost_event)k, cm->name);
		if (!pcost_cost_has_value(ke) || !isfinite(nk) || nk == 0)
			continue;
		num -= ke->ns * nk;
		kse = pcost_cost_se(ke);
		v[nv] = nk * nk * (isfinite(kse) ? kse * kse : 0);
		vdf[nv++] = ke->df;
		snprintf(how + strlen(how), sizeof(how) - strlen(how), ", less %.4g x %s%s", nk,
			 pcost_cost_event_name((enum pcost_cost_event)k),
			 whole_run(t) ? "" : " a loop");
		less = true;
	}
	if (nt != 1)
		snprintf(how + strlen(how), sizeof(how) - strlen(how), ", over %.4g x %s a loop",
			 nt, pcost_cost_event_name(ev));
	var = 0;
	for (size_t i = 0; i < nv; i++)
		var += v[i];
	{
		double den = 0, d;

		for (size_t i = 0; i < nv; i++)
			den += v[i] > 0 && isfinite(vdf[i]) ? v[i] * v[i] / vdf[i] : 0;
		d = den > 0 ? var * var / den : df;
		e->ns = num / nt;
		e->df = d;
		e->lo = e->ns - pcost_t_quantile(PCOST_CONF, d) * sqrt(var) / nt;
		e->hi = e->ns + pcost_t_quantile(PCOST_CONF, d) * sqrt(var) / nt;
	}
	e->status = less ? PCOST_COST_DERIVED : PCOST_COST_MEASURED;
out:
	free(e->method);
	e->method = xstrdup(how);
}

/* The order terms are priced in: each takes out the ones before it. */
static const enum pcost_cost_event order[] = {
	PCOST_CE_SYSCALL,	 PCOST_CE_SYSCALL_UNTRACED, PCOST_CE_SYSCALL_DECODED,
	PCOST_CE_SYSCALL_DIR,	 PCOST_CE_STOP_AFTER_WORK,  PCOST_CE_STOP_SHARED,
	PCOST_CE_SYSCALL_SHARED, PCOST_CE_CSWITCH,	    PCOST_CE_TASK,
	PCOST_CE_EXEC,		 PCOST_CE_SAMPLE,	    PCOST_CE_RUN,
};

static void unavailable(struct pcost_cost_table *tab, const struct cal_mon *cm)
{
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		char subject[96];
		struct pcost_cost_entry *e;

		if (!(cm->events & EV(order[i])))
			continue;
		subject_of(cm->name, order[i], subject, sizeof(subject));
		if (pcost_cost_find(tab, subject, order[i]))
			continue;
		e = pcost_cost_add(tab, subject, "monitor", order[i], NULL, NULL);
		e->status = PCOST_COST_UNAVAILABLE;
		pcost_cost_why(e, "%s", cm->why);
	}
}

static void derive_all(struct cal *c, struct pcost_cost_table *tab)
{
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		for (size_t m = 0; m < c->nmons; m++) {
			struct cal_mon *cm = &c->mons[m];

			if (cm->available && cm->cfg[order[i]] >= 0)
				derive(c, tab, cm, order[i]);
		}
	for (size_t m = 0; m < c->nmons; m++)
		if (!c->mons[m].available)
			unavailable(tab, &c->mons[m]);
}

static void session_start(struct cal *c)
{
	const struct pcost_env *e = pcost_env_self();
	char headline[256] = "";

	pcost_session_init(&c->s, PCOST_SESSION_RUN);
	c->s.started = (int64_t)time(NULL);
	c->s.version = xstrdup(PCOST_VERSION);
	c->s.cmdline =
		xstrdup(c->o->thorough ? "probecost calibrate --thorough" : "probecost calibrate");
	c->s.env_json = pcost_env_to_json_text(e);
	c->s.tsc_hz = e->tsc_hz;
	c->s.seed = c->o->seed;
	pcost_env_headline(e, headline, sizeof(headline));
	{
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "headline", headline);
		cJSON_AddStringToObject(o, "calibrate", c->o->thorough ? "thorough" : "quick");
		c->s.options_json = cJSON_PrintUnformatted(o);
		cJSON_Delete(o);
	}
}

static void release(struct cal *c)
{
	for (size_t i = 0; i < c->nmons; i++)
		pcost_monitor_free(c->mons[i].m);
	for (int t = 0; t < T_N; t++)
		pcost_counts_release(&c->counts[t]);
	free(c->st);
	pcost_session_release(&c->s);
}

int pcost_calibrate(const struct pcost_calibrate_opts *o, struct pcost_cost_table *t, char *err,
		    size_t len)
{
	struct cal *c = xcalloc(1, sizeof(*c));
	struct pcost_runner_opts ro;
	struct pcost_runner r;
	int rc;

	c->o = o;
	plan(c);
	share_record_terms(c);
	session_start(c);
	pcost_runner_opts_default(&ro);
	ro.cpu_mask = o->cpu_mask;
	ro.runs = o->runs ? o->runs : o->thorough ? 10 : 5;
	ro.warmup = o->warmup;
	ro.seed = o->seed;
	ro.progress = o->progress;
	pcost_runner_init(&r, &c->s, &ro);
	if ((rc = add_all(c, &r, err, len)) < 0)
		goto out_runner;
	if (rc == 1) {
		derive_all(c, t);
		rc = 0;
		goto out_runner;
	}
	if ((rc = pcost_runner_check(&r, err, len)) < 0)
		goto out_runner;
	count_targets(c);
	pcost_sink_begin(&c->s, o->db, o->no_store);
	rc = pcost_runner_measure(&r, err, len);
	pcost_sink_end(&c->s);
	if (rc < 0 && rc != -EINTR)
		goto out_runner;
	if (pcost_analyze(&c->s, &c->st) < 0) {
		snprintf(err, len, "could not analyze the calibration runs");
		rc = -EIO;
		goto out_runner;
	}
	derive_all(c, t);
out_runner:
	pcost_runner_release(&r);
	release(c);
	free(c);
	return rc;
}
