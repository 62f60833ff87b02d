// SPDX-License-Identifier: MIT
/*
 * stats/predict: a monitor's predicted extra time and overhead on a command,
 * from its counted events and the cost table, with a delta-method interval
 * (predict.h says exactly how).
 */
#include "stats/predict.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/analyze.h"
#include "stats/compare.h"
#include "stats/stats.h"

#define EV(e) (1u << (e))
/* A tracer that decodes arguments pays per syscall by class (plain, decoded, directory). */
#define DECODER (EV(PCOST_CE_SYSCALL) | EV(PCOST_CE_SYSCALL_DECODED) | EV(PCOST_CE_SYSCALL_DIR))
/*
 * A tracer that follows tasks pays per task created and per exec (strace
 * handles each exec's event and the new image; perf record writes its mmap
 * and comm records).
 */
#define TASKS (EV(PCOST_CE_TASK) | EV(PCOST_CE_EXEC))
/* A ptrace tracer pays more at a stop it slept before (pcost_model_count). */
#define STOPS EV(PCOST_CE_STOP_AFTER_WORK)
/*
 * One ptrace tracer of several tracees pays otherwise at a decoded call made
 * while another tracee makes its calls (pcost_model_count); strace-seccomp,
 * which stops at its set alone, is not priced so.
 */
#define SHARED EV(PCOST_CE_STOP_SHARED)
/*
 * A BPF program's call costs more when another task of the run calls beside
 * it on the other CPU (pcost_model_count): the run ends with the task on the
 * dearer CPU.
 */
#define SIDE_BY_SIDE EV(PCOST_CE_SYSCALL_SHARED)

/*
 * What each monitor pays for.  A monitor pays for an event when it does work
 * of its own on it: a ptrace tool stops the tracee at every syscall, follows
 * every task it creates and is woken on the tracee's switches; perf stat
 * saves and restores its counters at every switch and gives every new task
 * its own; perf record takes samples and records the tasks' side-band events;
 * a tracepoint or BPF program runs at each syscall.  Events a monitor is not
 * listed for cost it nothing in the model.  A decoding tracer (strace, perf
 * trace) pays per syscall by class: strace reads a path, a struct or a
 * buffer out of the tracee and prints it (calibrate measures newfstatat's
 * cost beside getppid's: bench/results/predict.md), and decodes a directory
 * listing entry by entry (getdents64 costs several getppid).
 */
static const struct model_row {
	const char *name; /* the monitor, or its name before ':' */
	unsigned events;
	const char *no_model; /* non-NULL: why the model cannot price it */
} model_rows[] = {
	{ "strace", EV(PCOST_CE_RUN) | DECODER | STOPS | SHARED | EV(PCOST_CE_CSWITCH) | TASKS,
	  NULL },
	{ "strace-count",
	  EV(PCOST_CE_RUN) | DECODER | STOPS | SHARED | EV(PCOST_CE_CSWITCH) | TASKS, NULL },
	{ "strace-seccomp",
	  EV(PCOST_CE_RUN) | DECODER | EV(PCOST_CE_SYSCALL_UNTRACED) | STOPS | TASKS, NULL },
	{ "perf-trace", EV(PCOST_CE_RUN) | DECODER | TASKS, NULL },
	/*
	 * A BPF program at a syscall runs in the caches the call left: a call that
	 * reads a path or a buffer leaves them colder than getppid (calibrate
	 * measures both: 300 and 470 ns here), so it pays by class too.
	 */
	{ "bpftrace-syscalls", EV(PCOST_CE_RUN) | DECODER | SIDE_BY_SIDE, NULL },
	{ "tracepoint-syscalls", EV(PCOST_CE_RUN) | EV(PCOST_CE_SYSCALL), NULL },
	{ "perf-stat", EV(PCOST_CE_RUN) | EV(PCOST_CE_CSWITCH) | EV(PCOST_CE_TASK), NULL },
	{ "perf-record", EV(PCOST_CE_RUN) | EV(PCOST_CE_SAMPLE) | EV(PCOST_CE_CSWITCH) | TASKS,
	  NULL },
	/* The known answer: the syscall workload spins the injected cost at each call. */
	{ "inject", EV(PCOST_CE_RUN) | EV(PCOST_CE_SYSCALL), NULL },
	{ "none", EV(PCOST_CE_RUN), NULL },
	{ "ltrace", 0,
	  "ltrace pays per library call (a breakpoint and two ptrace stops each), and predict "
	  "does not count library calls" },
	{ "valgrind", 0,
	  "valgrind pays per instruction it translates and runs, and no counter here counts "
	  "instructions (no PMU)" },
	{ "memcheck", 0,
	  "valgrind memcheck pays per instruction and per memory access, which nothing here "
	  "counts (no PMU)" },
	{ "perf-record-system", 0,
	  "perf record -a samples every CPU whatever runs there: its cost is not the command's "
	  "events" },
	{ "delay", 0, "delay pays per libc read() and write() call, which predict does not count" },
};

static const struct model_row *model_row(const char *monitor)
{
	size_t len = strcspn(monitor, ":");

	for (size_t i = 0; i < ARRAY_SIZE(model_rows); i++)
		if (strlen(model_rows[i].name) == len && !strncmp(model_rows[i].name, monitor, len))
			return &model_rows[i];
	return NULL;
}

unsigned pcost_model_events(const char *monitor, const char **why)
{
	const struct model_row *r = model_row(monitor);

	if (why)
		*why = r ? r->no_model
			 : "no model for a custom or unknown monitor: predict prices the monitors "
			   "of 'probecost list monitors' that calibrate measures";
	return r ? r->events : 0;
}

static const char *const count_names[PCOST_CNT_N] = {
	[PCOST_CNT_SYSCALLS] = "syscalls",  [PCOST_CNT_CSWITCHES] = "context switches",
	[PCOST_CNT_FAULTS] = "page faults", [PCOST_CNT_TASKS] = "tasks created",
	[PCOST_CNT_EXECS] = "execs",	    [PCOST_CNT_TASK_CLOCK_NS] = "CPU time",
};

static const char *count_kind_name(enum pcost_count_kind k)
{
	return k < PCOST_CNT_N ? count_names[k] : "?";
}

double pcost_cost_se(const struct pcost_cost_entry *e)
{
	double half, t;

	if (!pcost_cost_has_value(e) || !isfinite(e->lo) || !isfinite(e->hi))
		return NAN;
	half = (e->hi - e->lo) / 2;
	/* Student t at the entry's df; the normal quantile when df is unknown. */
	t = isfinite(e->df) && e->df >= 1 ? pcost_t_quantile(0.95, e->df) : 1.959964;
	return half / t;
}

/*
 * Welch-Satterthwaite: (sum v)^2 / sum (v^2 / df).  A component of unknown or
 * infinite df (a large-sample or model figure) adds nothing to the sum: it
 * counts as known exactly in its variance, as a normal quantile would.
 */
static double ws_df(const double *v, const double *df, size_t n)
{
	double num = 0, den = 0;

	for (size_t i = 0; i < n; i++) {
		num += v[i];
		if (v[i] > 0 && isfinite(df[i]) && df[i] > 0)
			den += v[i] * v[i] / df[i];
	}
	return den > 0 ? num * num / den : INFINITY;
}

static double quantile(double df)
{
	return isfinite(df) && df >= 1 ? pcost_t_quantile(0.95, df) : 1.959964;
}

void pcost_predict_combine(struct pcost_prediction *p, double count_df, double base_ns,
			   double base_se, double base_df)
{
	/* Components of var(E): for each term, cost variance, count variance, their product. */
	double v[3 * PCOST_CE_N + 1], df[3 * PCOST_CE_N + 1], var = 0, best = -1;
	size_t nv = 0;

	p->extra_ns = 0;
	p->dominant = -1;
	for (size_t i = 0; i < p->nterms; i++) {
		struct pcost_prediction_term *t = &p->terms[i];
		double w = t->overlap > 0 ? t->overlap : 1;
		double cse = (isfinite(t->cost_se) ? t->cost_se : 0) * w;
		double nse = isfinite(t->count_se) ? t->count_se : 0;

		t->overlap = w;
		t->extra_ns = t->count * t->cost_ns * w;
		p->extra_ns += t->extra_ns;
		v[nv] = t->count * t->count * cse * cse;
		df[nv++] = t->cost_df;
		v[nv] = t->cost_ns * w * t->cost_ns * w * nse * nse;
		df[nv++] = count_df;
		v[nv] = cse * cse * nse * nse;
		df[nv++] = fmin(t->cost_df, count_df);
	}
	for (size_t i = 0; i < nv; i++)
		var += v[i];
	for (size_t i = 0; i < p->nterms; i++) {
		struct pcost_prediction_term *t = &p->terms[i];

		t->share = p->extra_ns != 0 ? t->extra_ns / p->extra_ns : NAN;
		/* The side-band term corrects the fixed cost; it is never the one that dominates. */
		if (t->event != PCOST_CE_SIDEBAND && fabs(t->extra_ns) > best) {
			best = fabs(t->extra_ns);
			p->dominant = (int)i;
		}
	}
	p->extra_se = sqrt(var);
	p->extra_df = ws_df(v, df, nv);
	p->extra_lo = p->extra_ns - quantile(p->extra_df) * p->extra_se;
	p->extra_hi = p->extra_ns + quantile(p->extra_df) * p->extra_se;

	p->overhead = p->overhead_lo = p->overhead_hi = p->overhead_se = p->overhead_df = NAN;
	if (!(base_ns > 0))
		return;
	p->overhead = p->extra_ns / base_ns;
	{
		double bse = isfinite(base_se) ? base_se : 0;
		double w[2] = { var, p->overhead * p->overhead * bse * bse };
		double wdf[2] = { p->extra_df, base_df };

		p->overhead_se = sqrt(w[0] + w[1]) / base_ns;
		/* ws_df takes the components' variances; scaling all by 1/T0^2 leaves df alone. */
		p->overhead_df = ws_df(w, wdf, 2);
		p->overhead_lo = p->overhead - quantile(p->overhead_df) * p->overhead_se;
		p->overhead_hi = p->overhead + quantile(p->overhead_df) * p->overhead_se;
	}
}

/* perf-record:freq=N -> N; perf record's default, 4000 Hz, without one. */
static double record_freq(const char *monitor)
{
	const char *f = strstr(monitor, "freq=");

	return f ? strtod(f + 5, NULL) : 4000;
}

/* The subjects entry_of reads a monitor's costs under: its name, then its alias. */
static void monitor_subjects(const char *monitor, const char *subj[2])
{
	subj[0] = monitor;
	subj[1] = !strcmp(monitor, "perf-record")	    ? "perf-record:freq=4000"
		  : !strncmp(monitor, "strace-seccomp", 14) ? "strace-seccomp"
							    : NULL;
}

/*
 * The entry of monitor's event: its own name first; perf-record with no
 * frequency is perf-record:freq=4000 (perf's default); a strace-seccomp set
 * is priced by the set's costs measured on trace=getppid (traced) and
 * trace=getpid (untraced): the filter and the stop do not depend on the set.
 */
static const struct pcost_cost_entry *entry_of(const struct pcost_cost_table *t,
					       const char *monitor, enum pcost_cost_event ev)
{
	const char *subj[2];
	const struct pcost_cost_entry *e;

	monitor_subjects(monitor, subj);
	e = pcost_cost_find(t, subj[0], ev);
	return e || !subj[1] ? e : pcost_cost_find(t, subj[1], ev);
}

bool pcost_costs_have_monitor(const struct pcost_cost_table *t, const char *monitor)
{
	const char *subj[2];

	monitor_subjects(monitor, subj);
	for (size_t i = 0; i < t->n; i++)
		for (int k = 0; k < 2; k++)
			if (subj[k] && !strcmp(t->e[i].subject, subj[k]))
				return true;
	return false;
}

bool pcost_costs_borrow(struct pcost_cost_table *view, const struct pcost_cost_table *older,
			const char *monitor, const char *placement)
{
	const char *subj[2];
	size_t n = view->n;

	monitor_subjects(monitor, subj);
	for (int k = 0; k < 2; k++)
		if (subj[k])
			pcost_cost_copy_entries(view, older, placement, subj[k]);
	return view->n > n;
}

/*
 * The syscalls whose pointer arguments a decoding tracer reads out of the
 * tracee and prints (a path, a struct, a buffer): priced at the cost
 * calibrate measures on newfstatat.  strace's decoders for these read tracee
 * memory (process_vm_readv) before they print; the calls not listed take
 * numbers only, or their decoding reads nothing (close, lseek, mmap...).
 * pread and pwrite: libaudit's names of pread64 and pwrite64, as the count by
 * number gives them.
 */
static const char *const decoded_names[] = {
	"read",	     "write",	     "pread64",	 "pwrite64",   "readv",	      "writev",
	"open",	     "openat",	     "openat2",	 "creat",      "stat",	      "lstat",
	"fstat",     "newfstatat",   "statx",	 "access",     "faccessat",   "faccessat2",
	"readlink",  "readlinkat",   "execve",	 "execveat",   "mkdir",	      "mkdirat",
	"rmdir",     "unlink",	     "unlinkat", "rename",     "renameat",    "renameat2",
	"link",	     "linkat",	     "symlink",	 "symlinkat",  "chdir",	      "chmod",
	"fchmodat",  "chown",	     "fchownat", "lchown",     "truncate",    "utimensat",
	"statfs",    "fstatfs",	     "getcwd",	 "recvfrom",   "recvmsg",     "sendto",
	"sendmsg",   "connect",	     "bind",	 "uname",      "sysinfo",     "poll",
	"ppoll",     "select",	     "pselect6", "epoll_wait", "epoll_pwait", "wait4",
	"getrusage", "rt_sigaction", "ioctl",	 "pread",      "pwrite",
};
/* Directory listings: decoded entry by entry (calibrate measures getdents64 of "/"). */
static const char *const dir_names[] = { "getdents64", "getdents" };

static bool listed(const char *name, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

enum pcost_cost_event pcost_syscall_class(const char *name)
{
	if (listed(name, dir_names, ARRAY_SIZE(dir_names)))
		return PCOST_CE_SYSCALL_DIR;
	if (listed(name, decoded_names, ARRAY_SIZE(decoded_names)))
		return PCOST_CE_SYSCALL_DECODED;
	return PCOST_CE_SYSCALL;
}

size_t pcost_model_syscall_names(const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(decoded_names) && n < max; i++)
		out[n++] = decoded_names[i];
	for (size_t i = 0; i < ARRAY_SIZE(dir_names) && n < max; i++)
		out[n++] = dir_names[i];
	return n;
}

/* Is name in the set of strace-seccomp:trace=SET (a comma list)? */
static bool in_set(const char *set, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = set; *p; p += strcspn(p, ","), p += *p == ',')
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/*
 * The calls strace --seccomp-bpf always stops at, whatever its set: its
 * filter sends every execve and execveat to the tracer (strace's syscall
 * table marks them so), and a failed one stops as a successful one does.
 */
static bool seccomp_always(const char *name)
{
	return !strcmp(name, "execve") || !strcmp(name, "execveat");
}

/*
 * A decoding tracer's syscalls of class ev (SYSCALL: plain, DECODED, DIR;
 * UNTRACED: strace-seccomp's calls outside its set), from the counts by
 * name: the class's names counted (and in the set), the plain ones the total
 * less the others.  strace-seccomp stops at its set's calls, at every execve
 * (seccomp_always), and at every call of a task the command created until
 * that task's first such stop: strace learns that a new task carries the
 * filter only there, and resumes it until then to its next syscall, not to
 * its next filtered one.  The counts take a new process as settled at its
 * first exec: its calls in the set are traced either way, and its calls after
 * one of them, before its exec, are priced as stops where strace lets them
 * through.  A new thread's calls stop strace too, at a fraction of a
 * process's cost (docs/predict.md), which the table has no entry for: they
 * are not counted apart, and are priced untraced.  -1 with why when the
 * names were not counted or the set is not names.
 */
static int by_class(const char *monitor, enum pcost_cost_event ev, const struct pcost_counts *c,
		    double *n, double *se, char *why, size_t len)
{
	const char *set = NULL;
	double in[PCOST_CE_N] = { 0 }, var[PCOST_CE_N] = { 0 }, all = 0, allvar = 0;
	double newin = 0, newvar = 0;

	if (!strncmp(monitor, "strace-seccomp", 14)) {
		set = strstr(monitor, "trace=");
		if (!set || strpbrk(set + 6, "%!?")) {
			snprintf(why, len,
				 "the model prices strace-seccomp:trace=NAME,NAME,... (syscall "
				 "names), not classes or negations");
			return -1;
		}
		set += 6;
	}
	if (!c->by_nr_counted) {
		snprintf(why, len, "syscalls by name were not counted: %s", c->by_nr_why);
		return -1;
	}
	if (!isfinite(c->n[PCOST_CNT_SYSCALLS])) {
		snprintf(why, len, "syscalls were not counted: %s", c->why[PCOST_CNT_SYSCALLS]);
		return -1;
	}
	/* What was counted by name, by class (for a set: its names' calls and execve's). */
	for (size_t i = 0; i < c->nby_nr; i++) {
		const struct pcost_count_nr *r = &c->by_nr[i];
		enum pcost_cost_event k = pcost_syscall_class(r->name);
		double s2 = r->se * r->se;

		if (set && !in_set(set, r->name) && !seccomp_always(r->name))
			continue;
		in[k] += r->n;
		var[k] += s2;
		all += r->n;
		allvar += s2;
		if (set && isfinite(r->new_n)) {
			newin += r->new_n;
			newvar += r->new_se * r->new_se;
		}
	}
	if (set) {
		/*
		 * The new tasks' other calls stop strace as a plain call does (it does
		 * not decode a call outside its set); untraced: every call left.
		 */
		double rest = c->new_task - newin;

		if (rest > 0) {
			double r2 = c->new_task_se * c->new_task_se + newvar;

			in[PCOST_CE_SYSCALL] += rest;
			var[PCOST_CE_SYSCALL] += r2;
			all += rest;
			allvar += r2;
		}
		in[PCOST_CE_SYSCALL_UNTRACED] = c->n[PCOST_CNT_SYSCALLS] - all;
		var[PCOST_CE_SYSCALL_UNTRACED] =
			c->se[PCOST_CNT_SYSCALLS] * c->se[PCOST_CNT_SYSCALLS] + allvar;
	} else {
		/* Every call traced: the plain ones are the total less the decoded and the listings. */
		in[PCOST_CE_SYSCALL] = c->n[PCOST_CNT_SYSCALLS] - in[PCOST_CE_SYSCALL_DECODED] -
				       in[PCOST_CE_SYSCALL_DIR];
		var[PCOST_CE_SYSCALL] = c->se[PCOST_CNT_SYSCALLS] * c->se[PCOST_CNT_SYSCALLS] +
					var[PCOST_CE_SYSCALL_DECODED] + var[PCOST_CE_SYSCALL_DIR];
	}
	*n = in[ev];
	*se = sqrt(var[ev]);
	return 0;
}

/*
 * The stops after work: a ptrace stop that follows a run of the task's own
 * work finds the tracer asleep and its CPU idle, and costs more than one in a
 * tight loop of calls; calibrate prices the difference after 2 ms of work,
 * where it has levelled off.  Measured here on the syscall workload with work
 * before each call (docs/predict.md), the difference after d of work rises as
 * 1 - exp(-d / STOP_AFTER_WORK_NS).  The counts give only the mean CPU time
 * between a task's stops, g = CPU time / stops; with the gaps exponential
 * about it, the expected share is g / (g + STOP_AFTER_WORK_NS), so
 * n = stops x CPU / (CPU + tau x stops).  Gaps that come in bursts (many
 * calls close together, then a long computation) make more such stops than
 * that, and a task that sleeps between calls (not CPU time) more still.
 */
#define STOP_AFTER_WORK_NS 200e3

static int stops_after_work(const char *monitor, const struct pcost_counts *c, double *n,
			    double *se, char *why, size_t len)
{
	double stops = 0, var = 0, cpu = c->n[PCOST_CNT_TASK_CLOCK_NS], den, dstops, dcpu;
	double cse = isfinite(c->se[PCOST_CNT_TASK_CLOCK_NS]) ? c->se[PCOST_CNT_TASK_CLOCK_NS] : 0;
	bool set = !strncmp(monitor, "strace-seccomp", 14);

	if (!isfinite(cpu)) {
		snprintf(why, len, "CPU time was not counted: %s", c->why[PCOST_CNT_TASK_CLOCK_NS]);
		return -1;
	}
	if (!set) {
		/* Every call stops strace. */
		if (!isfinite(c->n[PCOST_CNT_SYSCALLS])) {
			snprintf(why, len, "syscalls were not counted: %s",
				 c->why[PCOST_CNT_SYSCALLS]);
			return -1;
		}
		stops = c->n[PCOST_CNT_SYSCALLS];
		var = isfinite(c->se[PCOST_CNT_SYSCALLS]) ? c->se[PCOST_CNT_SYSCALLS] : 0;
		var *= var;
	}
	/* strace-seccomp stops at its set's calls alone, counted by name (by class). */
	for (int k = PCOST_CE_SYSCALL; set && k <= PCOST_CE_SYSCALL_DIR; k++) {
		double kn, kse;

		if (by_class(monitor, (enum pcost_cost_event)k, c, &kn, &kse, why, len) < 0)
			return -1;
		stops += kn;
		var += kse * kse;
	}
	*n = *se = 0;
	if (!(stops > 0) || !(cpu > 0))
		return 0;
	den = cpu + STOP_AFTER_WORK_NS * stops;
	*n = stops * cpu / den;
	/* d n / d stops = CPU^2 / den^2; d n / d CPU = tau stops^2 / den^2. */
	dstops = cpu * cpu / (den * den);
	dcpu = STOP_AFTER_WORK_NS * stops * stops / (den * den);
	*se = sqrt(dstops * dstops * var + dcpu * dcpu * cse * cse);
	return 0;
}

/*
 * The decoded calls made beside another tracee.  One tracer handles every
 * tracee's stops; at a decoded call it reads the tracee's memory and prints
 * it, and two tracees that make such calls side by side cost each less than
 * one alone would (readloop.c in 2 processes: 0.84-0.95 times one process's
 * extra, where the terms over C gave 1.04; newfstatat in 2 threads: 0.89
 * and 0.94, getppid: 0.88, 1.02, 1.03; unpinned, docs/predict.md).  calibrate
 * prices the difference on newfstatat in two threads that call side by side
 * the whole time; a run's tasks alive at once C (1 to 2) give the share of
 * its decoded calls made so: n = decoded x min(C - 1, 1).  C unmeasured: none.
 */
static int stops_shared(const char *monitor, const struct pcost_counts *c, double *n, double *se,
			char *why, size_t len)
{
	double share = isfinite(c->concurrency) ? fmin(fmax(c->concurrency - 1, 0), 1) : 0;
	double dn, dse, ln, lse;

	if (by_class(monitor, PCOST_CE_SYSCALL_DECODED, c, &dn, &dse, why, len) < 0 ||
	    by_class(monitor, PCOST_CE_SYSCALL_DIR, c, &ln, &lse, why, len) < 0)
		return -1;
	*n = (dn + ln) * share;
	*se = sqrt(dse * dse + lse * lse) * share;
	return 0;
}

/* The tasks the plain run ran side by side, on average (at least 1; 1 when not measured). */
static double parallelism(const struct pcost_counts *c)
{
	return isfinite(c->parallel) && c->parallel > 1 ? c->parallel : 1;
}

/*
 * The syscalls made beside another task's.  A BPF program's call costs
 * what the CPU it runs on costs, and this guest's two differ by half (a
 * call's program: 434 ns on CPU 0, 240 on CPU 1, pinned): one task's calls,
 * unpinned, cost the mixture calibrate met, while two tasks that call side by
 * side, one a CPU, end with the one on the dearer CPU (and cost more than
 * it alone: 60 ms against 57 by hand on readloop.c's calls).  calibrate
 * prices the difference on newfstatat in two threads that call side by side
 * the whole time; the run's parallelism P (1 to 2) gives the share of its
 * calls made so: n = syscalls x min(P - 1, 1), every class (the dearer CPU
 * costs more at each).  P unmeasured: none.
 */
static int calls_side_by_side(const struct pcost_counts *c, double *n, double *se, char *why,
			      size_t len)
{
	double share = fmin(parallelism(c) - 1, 1);

	if (!isfinite(c->n[PCOST_CNT_SYSCALLS])) {
		snprintf(why, len, "syscalls were not counted: %s", c->why[PCOST_CNT_SYSCALLS]);
		return -1;
	}
	*n = c->n[PCOST_CNT_SYSCALLS] * share;
	*se = (isfinite(c->se[PCOST_CNT_SYSCALLS]) ? c->se[PCOST_CNT_SYSCALLS] : 0) * share;
	return 0;
}

int pcost_model_count(const char *monitor, enum pcost_cost_event ev, const struct pcost_counts *c,
		      double *n, double *se, char *why, size_t len)
{
	static const int by_event[PCOST_CE_N] = {
		[PCOST_CE_RUN] = -1,
		[PCOST_CE_SYSCALL] = PCOST_CNT_SYSCALLS,
		[PCOST_CE_SYSCALL_DECODED] = -1,
		[PCOST_CE_SYSCALL_DIR] = -1,
		[PCOST_CE_SYSCALL_UNTRACED] = -1,
		[PCOST_CE_STOP_AFTER_WORK] = -1,
		[PCOST_CE_STOP_SHARED] = -1,
		[PCOST_CE_SYSCALL_SHARED] = -1,
		[PCOST_CE_CSWITCH] = PCOST_CNT_CSWITCHES,
		[PCOST_CE_FAULT] = PCOST_CNT_FAULTS,
		[PCOST_CE_TASK] = PCOST_CNT_TASKS,
		[PCOST_CE_EXEC] = PCOST_CNT_EXECS,
		[PCOST_CE_SAMPLE] = PCOST_CNT_TASK_CLOCK_NS,
		[PCOST_CE_HIT] = -1,
		[PCOST_CE_READ] = -1,
		[PCOST_CE_SIDEBAND] = -1,
	};
	int k = by_event[ev];
	unsigned events = pcost_model_events(monitor, NULL);

	if (ev == PCOST_CE_RUN) {
		*n = 1;
		*se = 0;
		return 0;
	}
	if (ev == PCOST_CE_STOP_AFTER_WORK && (events & STOPS))
		return stops_after_work(monitor, c, n, se, why, len);
	if (ev == PCOST_CE_STOP_SHARED && (events & SHARED))
		return stops_shared(monitor, c, n, se, why, len);
	if (ev == PCOST_CE_SYSCALL_SHARED && (events & SIDE_BY_SIDE))
		return calls_side_by_side(c, n, se, why, len);
	if ((events & EV(PCOST_CE_SYSCALL_DECODED)) &&
	    (ev == PCOST_CE_SYSCALL || ev == PCOST_CE_SYSCALL_DECODED ||
	     ev == PCOST_CE_SYSCALL_DIR || ev == PCOST_CE_SYSCALL_UNTRACED))
		return by_class(monitor, ev, c, n, se, why, len);
	if (k < 0) {
		snprintf(why, len, "predict does not count %s events", pcost_cost_event_name(ev));
		return -1;
	}
	if (!isfinite(c->n[k])) {
		snprintf(why, len, "%s were not counted: %s", count_kind_name(k), c->why[k]);
		return -1;
	}
	*n = c->n[k];
	*se = isfinite(c->se[k]) ? c->se[k] : 0;
	if (ev == PCOST_CE_SAMPLE) {
		/* perf record samples CPU time at its frequency: samples = CPU s x Hz. */
		double hz = record_freq(monitor);

		*n *= hz / 1e9;
		*se *= hz / 1e9;
	}
	return 0;
}

/*
 * perf record's side-band thread (BPF events) polls in 1000 ms windows
 * (tools/perf/util/sideband_evlist.c, evlist__poll(evlist, 1000)), and perf
 * record waits for the current window to end before it exits.  Its fixed
 * cost was measured on true(1), which ends almost at once: a whole window's
 * wait.  A command that runs T0 < 0.8 s ends inside the first window and
 * waits T0 less (give or take the start-up's phase: sd 0.1 s); a longer one
 * ends at a phase nothing here knows, uniform over the window: half a window
 * less on average, sd 1 s / sqrt(12).  Added as a term of its own.
 */
#define SIDEBAND_WINDOW_NS 1e9

static void sideband(struct pcost_prediction *p, const char *monitor, const struct pcost_counts *c)
{
	struct pcost_prediction_term *t;
	double adj, sd;

	if (strcmp(monitor, "perf-record") && strncmp(monitor, "perf-record:", 12))
		return;
	if (!(c->base_ns > 0) || p->nterms >= PCOST_CE_N)
		return;
	if (c->base_ns < 0.8 * SIDEBAND_WINDOW_NS) {
		adj = -c->base_ns;
		sd = 0.1 * SIDEBAND_WINDOW_NS;
	} else {
		adj = -SIDEBAND_WINDOW_NS / 2;
		sd = SIDEBAND_WINDOW_NS / sqrt(12);
	}
	t = &p->terms[p->nterms++];
	memset(t, 0, sizeof(*t));
	t->event = PCOST_CE_SIDEBAND;
	t->count = 1;
	t->cost_ns = adj;
	t->cost_se = sd;
	t->cost_df = INFINITY;
	t->cost_lo = adj - 1.959964 * sd;
	t->cost_hi = adj + 1.959964 * sd;
}

/*
 * Is monitor's cost per ev mostly the task waiting, not running?  A ptrace
 * stop: the tracee sleeps until the tracer, woken on another CPU, has handled
 * the stop and resumed it (28-68 us a wake-up unpinned, docs/predict.md); the
 * tracer's own CPU per stop is the smaller part.  strace-seccomp's untraced
 * calls run the filter in the task: CPU.
 */
static bool cost_waits(const char *monitor, enum pcost_cost_event ev)
{
	const struct model_row *r = model_row(monitor);

	if (!r || strncmp(r->name, "strace", 6))
		return false;
	return ev != PCOST_CE_RUN && ev != PCOST_CE_SIDEBAND && ev != PCOST_CE_SYSCALL_UNTRACED;
}

/*
 * The share of the plain run's spare CPUs (those its own tasks left) that
 * stayed idle: 1 less the machine's other processes' CPUs over the spare ones,
 * in [0, 1]; 1 when nothing measured them.
 */
double pcost_spare_idle(const struct pcost_counts *c)
{
	double spare;

	if (!isfinite(c->others) || !isfinite(c->cpus) || c->others <= 0)
		return 1;
	spare = fmax(c->cpus - parallelism(c), PCOST_SPARE_MIN);
	return fmin(fmax(1 - c->others / spare, 0), 1);
}

/*
 * The share of an event term's count x cost the wall time pays: a cost paid
 * in CPU overlaps as the plain run's tasks ran side by side (P); a wait as its
 * tasks were alive at once (C) while a CPU idles for the one tracer to be woken
 * on: 1 + (C - 1) x the spare CPUs' idle share (pcost_spare_idle).  When the
 * machine's other work fills every CPU, the tracer queues behind the busy
 * tracees at each stop and handles their stops one after another: the waits
 * add up whole, whatever P is.  The fixed cost is whole.
 */
static double term_overlap(const char *monitor, enum pcost_cost_event ev,
			   const struct pcost_counts *c)
{
	double p = parallelism(c);

	if (ev == PCOST_CE_RUN)
		return 1;
	if (cost_waits(monitor, ev) && isfinite(c->concurrency) && c->concurrency > p)
		p = 1 + (c->concurrency - 1) * pcost_spare_idle(c);
	return 1 / p;
}

struct live_task {
	int pid, tgid;
	size_t run;
	double start;
};

struct task_run {
	int pid; /* its first task */
	double start, end, alive;
	bool ended;
};

static ptrdiff_t live_find(const struct live_task *l, size_t n, bool by_tgid, int id)
{
	for (size_t i = 0; i < n; i++)
		if ((by_tgid ? l[i].tgid : l[i].pid) == id)
			return (ptrdiff_t)i;
	return -1;
}

/* The run a created task belongs to (a new one for root's child), -1 none. */
static ptrdiff_t run_of(const struct pcost_task_event *e, const struct live_task *l, size_t nl,
			struct task_run **runs, size_t *nruns, int root)
{
	ptrdiff_t k;

	if (e->pid != e->tgid) /* a thread: its process's */
		return (k = live_find(l, nl, true, e->tgid)) < 0 ? -1 : (ptrdiff_t)l[k].run;
	if (e->parent_tgid != root)
		return (k = live_find(l, nl, true, e->parent_tgid)) < 0 ? -1 : (ptrdiff_t)l[k].run;
	*runs = xrealloc(*runs, (*nruns + 1) * sizeof(**runs));
	(*runs)[*nruns] = (struct task_run){ .pid = e->pid, .start = e->t_ns };
	return (ptrdiff_t)(*nruns)++;
}

double pcost_task_concurrency(const struct pcost_task_event *ev, size_t n, int root)
{
	struct live_task *l = NULL;
	struct task_run *runs = NULL;
	size_t nl = 0, nruns = 0;
	double alive = 0, wall = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pcost_task_event *e = &ev[i];
		ptrdiff_t k;

		if (!e->exit) {
			if ((k = run_of(e, l, nl, &runs, &nruns, root)) < 0)
				continue;
			l = xrealloc(l, (nl + 1) * sizeof(*l));
			l[nl++] = (struct live_task){ e->pid, e->tgid, (size_t)k, e->t_ns };
			continue;
		}
		if ((k = live_find(l, nl, false, e->pid)) < 0)
			continue;
		{
			struct task_run *r = &runs[l[k].run];
			double end = r->ended ? fmin(e->t_ns, r->end) : e->t_ns;

			r->alive += fmax(end - l[k].start, 0);
			if (!r->ended && e->pid == r->pid) {
				r->ended = true;
				r->end = e->t_ns;
			}
		}
		l[k] = l[--nl];
	}
	/* What outlived its run (a daemon) was alive to the run's end. */
	for (size_t i = 0; i < nl; i++)
		if (runs[l[i].run].ended)
			runs[l[i].run].alive += fmax(runs[l[i].run].end - l[i].start, 0);
	for (size_t i = 0; i < nruns; i++)
		if (runs[i].ended) {
			alive += runs[i].alive;
			wall += runs[i].end - runs[i].start;
		}
	free(l);
	free(runs);
	return wall > 0 ? alive / wall : NAN;
}

static void no_model(struct pcost_prediction *p, const char *fmt, const char *a, const char *b)
{
	p->has_model = false;
	snprintf(p->why, sizeof(p->why), fmt, a, b);
}

void pcost_predict(const struct pcost_cost_table *t, const char *monitor,
		   const struct pcost_counts *c, struct pcost_prediction *p)
{
	const char *why = NULL;
	unsigned events = pcost_model_events(monitor, &why);
	char cwhy[256];

	memset(p, 0, sizeof(*p));
	snprintf(p->monitor, sizeof(p->monitor), "%s", monitor);
	p->extra_ns = p->extra_lo = p->extra_hi = p->extra_se = p->extra_df = NAN;
	p->overhead = p->overhead_lo = p->overhead_hi = p->overhead_se = p->overhead_df = NAN;
	p->dominant = -1;
	if (!events) {
		no_model(p, "%s%s", why, "");
		return;
	}
	for (int ev = 0; ev < PCOST_CE_N; ev++) {
		const struct pcost_cost_entry *e;
		struct pcost_prediction_term *term;
		double n, se;

		if (!(events & EV(ev)))
			continue;
		e = entry_of(t, monitor, (enum pcost_cost_event)ev);
		/* A table calibrated before the term was priced: the model without it. */
		if (!e && (ev == PCOST_CE_STOP_SHARED || ev == PCOST_CE_SYSCALL_SHARED))
			continue;
		if (!e) {
			no_model(p, "the cost table has no entry for %s %s (calibrate measures it)",
				 monitor, pcost_cost_event_per((enum pcost_cost_event)ev));
			return;
		}
		if (!pcost_cost_has_value(e)) {
			p->has_model = false;
			snprintf(p->why, sizeof(p->why),
				 "the cost table's entry for %s %s is %s%s%s", monitor,
				 pcost_cost_event_per((enum pcost_cost_event)ev),
				 pcost_cost_status_name(e->status), e->why ? ": " : "",
				 e->why ? e->why : "");
			return;
		}
		if (pcost_model_count(monitor, (enum pcost_cost_event)ev, c, &n, &se, cwhy,
				      sizeof(cwhy)) < 0) {
			no_model(p, "%s: %s", monitor, cwhy);
			return;
		}
		term = &p->terms[p->nterms++];
		term->event = (enum pcost_cost_event)ev;
		term->count = n;
		term->count_se = se;
		term->cost_ns = e->ns;
		term->cost_lo = e->lo;
		term->cost_hi = e->hi;
		term->cost_se = pcost_cost_se(e);
		term->cost_df = e->df;
		/* An event's cost is paid where the event happens: side by side with the others'. */
		term->overlap = term_overlap(monitor, (enum pcost_cost_event)ev, c);
	}
	p->has_model = true;
	sideband(p, monitor, c);
	pcost_predict_combine(p, c->df, c->base_ns, c->base_se, c->base_df);
}

/* A ptrace tracer's prediction: it prices stops that follow work (STOPS). */
static bool ptrace_priced(const struct pcost_prediction *p)
{
	for (size_t i = 0; p->has_model && i < p->nterms; i++)
		if (p->terms[i].event == PCOST_CE_STOP_AFTER_WORK)
			return true;
	return false;
}

bool pcost_predict_conditions(const struct pcost_prediction *p, size_t n, double run_others,
			      double table_others, char *msg, size_t len)
{
	char names[256] = "";
	size_t o = 0;

	if (len)
		msg[0] = 0;
	if (!isfinite(run_others) || !isfinite(table_others) ||
	    fabs(run_others - table_others) < PCOST_OTHERS_APART)
		return false;
	for (size_t i = 0; i < n && o < sizeof(names); i++)
		if (ptrace_priced(&p[i]))
			o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", o ? ", " : "",
					      p[i].monitor);
	if (!names[0])
		return false;
	snprintf(msg, len,
		 "the cost table's runs had %.2f CPUs taken by other processes, these plain "
		 "runs %.2f: a ptrace tracer's stop costs up to 4 times less beside busy CPUs "
		 "than beside idle ones, and more where it waits for a CPU that work of its "
		 "own weight holds; the figures of %s hold for the table's "
		 "conditions: calibrate under the load the command runs at (docs/predict.md)",
		 table_others, run_others, names);
	return true;
}

void pcost_predict_service(const struct pcost_cost_table *t, const char *monitor,
			   const struct pcost_counts *c, struct pcost_prediction *p)
{
	size_t n = 0;

	pcost_predict(t, monitor, c, p);
	p->service = true;
	if (!p->has_model)
		return;
	/* The run's terms (fixed cost, perf record's exit wait) are paid outside the run. */
	for (size_t i = 0; i < p->nterms; i++)
		if (p->terms[i].event != PCOST_CE_RUN && p->terms[i].event != PCOST_CE_SIDEBAND)
			p->terms[n++] = p->terms[i];
	p->nterms = n;
	pcost_predict_combine(p, c->df, c->base_ns, c->base_se, c->base_df);
}

/* The fingerprint fields a cost depends on (core/env.c names them). */
static const char *const cost_keys[] = {
	"kernel.release", "kernel.version", "kernel.mitigations", "cpu.model",
	"cpu.online",	  "cpu.smt",	    "hypervisor",	  "pmu",
	"tool.perf",	  "tool.strace",    "tool.ltrace",	  "tool.bpftrace",
};

static bool parses(const char *json)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	bool ok = cJSON_IsObject(j);

	cJSON_Delete(j);
	return ok;
}

int pcost_costs_env_mismatch(const char *table_env_json, const char *env_json, char *diff,
			     size_t len)
{
	struct pcost_env_diff *d;
	size_t n, o = 0;
	int count = 0;

	if (len)
		diff[0] = 0;
	if (!parses(table_env_json) || !parses(env_json))
		return -1;
	pcost_env_diff(table_env_json, env_json, &d, &n);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < ARRAY_SIZE(cost_keys); k++) {
			if (strcmp(d[i].key, cost_keys[k]))
				continue;
			if (o < len)
				o += (size_t)snprintf(diff + o, len - o, "%s%s %s -> %s",
						      count ? "; " : "", d[i].key,
						      d[i].a ? d[i].a : "(absent)",
						      d[i].b ? d[i].b : "(absent)");
			count++;
		}
		free(d[i].key);
		free(d[i].a);
		free(d[i].b);
	}
	free(d);
	return count;
}

int pcost_costs_pick(const struct pcost_cost_table *t, size_t n, const char *host,
		     const char *env_json, char *why, size_t len)
{
	int stale = -1;

	for (size_t i = 0; i < n; i++) {
		char diff[512];
		int d;

		if (!t[i].complete)
			continue;
		d = pcost_costs_env_mismatch(t[i].env_json, env_json, diff, sizeof(diff));
		if (d == 0)
			return (int)i;
		/* This host's newest table, measured on another kernel or machine. */
		if (stale < 0 && host && t[i].host && !strcmp(t[i].host, host)) {
			stale = (int)i;
			snprintf(why, len, "cost table %lld of this host was measured with %s",
				 (long long)t[i].id, d < 0 ? "an unreadable fingerprint" : diff);
		}
	}
	if (stale >= 0)
		return -2;
	snprintf(why, len, "the store has no cost table of this machine (%zu of other machines)",
		 n);
	return -1;
}

void pcost_prediction_check(const struct pcost_prediction *p, const struct pcost_config_stats *st,
			    const char *why, struct pcost_prediction_check *k)
{
	memset(k, 0, sizeof(*k));
	k->overhead = k->overhead_lo = k->overhead_hi = NAN;
	k->extra_ns = k->extra_lo = k->extra_hi = k->error = NAN;
	if (!st || !st->nok || !isfinite(st->extra_ns)) {
		snprintf(k->why, sizeof(k->why), "%s", why ? why : "not measured");
		return;
	}
	k->measured = true;
	k->overhead = st->overhead;
	k->overhead_lo = st->overhead_lo;
	k->overhead_hi = st->overhead_hi;
	k->extra_ns = st->extra_ns;
	k->extra_lo = st->extra_ns_lo;
	k->extra_hi = st->extra_ns_hi;
	if (!p->has_model)
		return;
	k->measured_in_predicted = k->extra_ns >= p->extra_lo && k->extra_ns <= p->extra_hi;
	k->predicted_in_measured = isfinite(k->extra_lo) && isfinite(k->extra_hi) &&
				   p->extra_ns >= k->extra_lo && p->extra_ns <= k->extra_hi;
	k->error = k->extra_ns != 0 ? p->extra_ns / k->extra_ns - 1 : NAN;
}
