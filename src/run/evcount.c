// SPDX-License-Identifier: MIT
/*
 * evcount: one counting run of a command (run/evcount.h): fork it, hold it on
 * a pipe while its counters are opened, release it, wait, read, clean up.
 * The counters of syscalls by number and of SDT hits are evcount_bpf.c and
 * evcount_sdt.c.
 */
#include "run/evcount.h"
#include "run/evcount_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <tracefs.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/proc.h"
#include "core/ptree.h"
#include "core/result.h"
#include "core/tracefs.h"

/* The perf_event counters: what each kind is, on the child, inherited. */
static const struct evc_counter {
	enum pcost_evc_kind kind;
	uint32_t type;		    /* PERF_TYPE_SOFTWARE or PERF_TYPE_TRACEPOINT */
	uint64_t config;	    /* software: the event */
	const char *system, *event; /* tracepoint */
	const char *filter;	    /* tracepoint filter, or NULL */
	const char *source;
	const char *source_user; /* the same counting user-mode events only (paranoid 2) */
} counters[] = {
	{ .kind = PCOST_EVC_SYSCALLS,
	  .type = PERF_TYPE_TRACEPOINT,
	  .system = "raw_syscalls",
	  .event = "sys_enter",
	  .source = "perf_event tracepoint raw_syscalls:sys_enter" },
	{ .kind = PCOST_EVC_CSWITCHES,
	  .type = PERF_TYPE_SOFTWARE,
	  .config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	  .source = "perf_event software context-switches" },
	{ .kind = PCOST_EVC_MINOR_FAULTS,
	  .type = PERF_TYPE_SOFTWARE,
	  .config = PERF_COUNT_SW_PAGE_FAULTS_MIN,
	  .source = "perf_event software page-faults-min",
	  .source_user = "perf_event software page-faults-min:u (user mode only: "
			 "kernel.perf_event_paranoid 2)" },
	{ .kind = PCOST_EVC_MAJOR_FAULTS,
	  .type = PERF_TYPE_SOFTWARE,
	  .config = PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	  .source = "perf_event software page-faults-maj",
	  .source_user = "perf_event software page-faults-maj:u (user mode only: "
			 "kernel.perf_event_paranoid 2)" },
	{ .kind = PCOST_EVC_TASKS,
	  .type = PERF_TYPE_TRACEPOINT,
	  .system = "sched",
	  .event = "sched_process_fork",
	  .source = "perf_event tracepoint sched:sched_process_fork" },
	/* CLONE_THREAD is 0x10000 (linux/sched.h); the filter language takes decimals. */
	{ .kind = PCOST_EVC_THREADS,
	  .type = PERF_TYPE_TRACEPOINT,
	  .system = "task",
	  .event = "task_newtask",
	  .filter = "clone_flags & 65536",
	  .source = "perf_event tracepoint task:task_newtask if clone_flags & CLONE_THREAD" },
	{ .kind = PCOST_EVC_EXECS,
	  .type = PERF_TYPE_TRACEPOINT,
	  .system = "sched",
	  .event = "sched_process_exec",
	  .source = "perf_event tracepoint sched:sched_process_exec" },
	{ .kind = PCOST_EVC_TASK_CLOCK,
	  .type = PERF_TYPE_SOFTWARE,
	  .config = PERF_COUNT_SW_TASK_CLOCK,
	  .source = "perf_event software task-clock" },
};
#define NCOUNTERS ARRAY_SIZE(counters)

static const char rusage_source[] =
	"wait4 rusage, less the switches before the release (the command and the children it reaped)";
static const char by_nr_source[] =
	"BPF on the raw tracepoint sys_enter, following the tree through sched_process_fork/exit";
static const char probes_source[] =
	"a tracefs uprobe event per probe (semaphores by ref_ctr_offset), counted by perf_event, "
	"inherited, enabled at exec";

/* Everything armed for one run, closed by undo() on every exit path. */
struct evc_state {
	int fds[NCOUNTERS];
	int *svc_fds; /* the service's: NCOUNTERS a task of its tree (nsvc fds), -1 closed */
	size_t nsvc;
	struct pcost_evc_bpf bpf, svc_bpf; /* syscalls by number: the command's, the service's */
	bool bpf_open, svc_bpf_open;
	struct pcost_evc_sdt sdt;
	int undo;
};

void pcost_evc_close_fds(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

/* Async-signal-safe: closes only. */
static void undo(void *arg)
{
	struct evc_state *st = arg;

	pcost_evc_close_fds(st->fds, NCOUNTERS);
	if (st->svc_fds)
		pcost_evc_close_fds(st->svc_fds, st->nsvc);
	if (st->bpf_open)
		pcost_evc_bpf_close(&st->bpf);
	if (st->svc_bpf_open)
		pcost_evc_bpf_close(&st->svc_bpf);
	pcost_evc_sdt_close(&st->sdt);
}

/*
 * Closing a tracepoint or uprobe counter waits for RCU grace periods in the
 * kernel (unregistering the probe): 15-150 ms each on the KVM guest this was
 * written on, 16 s for the 114 probe sites of probecost's own binary one
 * after another.  Closed from threads at once, the waits share their grace
 * periods.  Signals stay blocked meanwhile, so that an undo from a handler
 * never closes an fd number a thread has just freed.
 */
struct closer {
	int **fds;
	size_t n, first, stride;
};

static void *closer_main(void *arg)
{
	const struct closer *c = arg;

	for (size_t i = c->first; i < c->n; i += c->stride) {
		close(*c->fds[i]);
		*c->fds[i] = -1;
	}
	return NULL;
}

static void close_parallel(struct evc_state *st)
{
	enum { MAX_THREADS = 128 };
	size_t n = 0, nth, nev = st->sdt.events ? st->sdt.nevents : 0;
	int **fds = xcalloc(NCOUNTERS + st->nsvc + 2 * PCOST_EVC_BPF_PROGS + nev, sizeof(*fds));
	struct closer c[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	bool started[MAX_THREADS];
	sigset_t all, old;

	for (size_t i = 0; i < NCOUNTERS; i++)
		if (st->fds[i] >= 0)
			fds[n++] = &st->fds[i];
	for (size_t i = 0; i < st->nsvc; i++)
		if (st->svc_fds[i] >= 0)
			fds[n++] = &st->svc_fds[i];
	for (size_t i = 0; st->bpf_open && i < PCOST_EVC_BPF_PROGS; i++)
		if (st->bpf.link_fd[i] >= 0)
			fds[n++] = &st->bpf.link_fd[i];
	for (size_t i = 0; st->svc_bpf_open && i < PCOST_EVC_BPF_PROGS; i++)
		if (st->svc_bpf.link_fd[i] >= 0)
			fds[n++] = &st->svc_bpf.link_fd[i];
	for (size_t i = 0; i < nev; i++)
		if (st->sdt.events[i].fd >= 0)
			fds[n++] = &st->sdt.events[i].fd;
	nth = n < MAX_THREADS ? n : MAX_THREADS;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (size_t k = 0; k < nth; k++) {
		c[k] = (struct closer){ .fds = fds, .n = n, .first = k, .stride = nth };
		started[k] = pthread_create(&th[k], NULL, closer_main, &c[k]) == 0;
		if (!started[k])
			closer_main(&c[k]);
	}
	for (size_t k = 0; k < nth; k++)
		if (started[k])
			pthread_join(th[k], NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(fds);
}

int pcost_evc_tp_id(struct tep_handle *tep, const char *system, const char *event)
{
	struct tep_event *e = tep ? tep_find_event_by_name(tep, system, event) : NULL;

	return e ? e->id : -1;
}

int pcost_evc_tp_field(struct tep_handle *tep, const char *system, const char *event,
		       const char *field)
{
	struct tep_event *e = tep ? tep_find_event_by_name(tep, system, event) : NULL;
	struct tep_format_field *f = e ? tep_find_field(e, field) : NULL;

	return f ? f->offset : -1;
}

/*
 * The formats of the tracepoints used (ids, field offsets), read from
 * tracefs, mounted first as root when it is not (put back at exit,
 * core/tracefs.h).  NULL and why when tracefs cannot be read.
 */
static struct tep_handle *load_tracepoints(char *why, size_t len)
{
	const char *systems[] = { "raw_syscalls", "sched", "task", NULL };
	struct tep_handle *tep;

	if (!pcost_tracefs_usable("events/raw_syscalls/sys_enter/format", false, why, len))
		return NULL;
	if (pcost_tracefs_mount(why, len) < 0)
		return NULL;
	tep = pcost_tracefs_formats(PCOST_TRACEFS, systems);
	if (!tep)
		snprintf(why, len,
			 "could not read the tracepoint formats in " PCOST_TRACEFS
			 "/events (run as root)");
	return tep;
}

static void not_counted(struct pcost_evcount *c, enum pcost_evc_kind k, const char *why)
{
	c->v[k] = -1;
	c->source[k] = NULL;
	snprintf(c->why[k], sizeof(c->why[k]), "%s", why);
}

/*
 * Counter k on pid (disabled, inherited): its fd, or -errno (-ENOENT: no such
 * tracepoint here).  *user_only says whether it counts user mode only.
 */
static int open_counter(const struct evc_counter *k, struct tep_handle *tep, pid_t pid,
			bool *user_only)
{
	struct perf_event_attr attr;
	int id = 0, fd, e;

	*user_only = false;
	if (k->type == PERF_TYPE_TRACEPOINT && (id = pcost_evc_tp_id(tep, k->system, k->event)) < 0)
		return -ENOENT;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = k->type;
	attr.config = k->type == PERF_TYPE_TRACEPOINT ? (uint64_t)id : k->config;
	attr.disabled = 1;
	attr.inherit = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM) &&
	    (k->kind == PCOST_EVC_MINOR_FAULTS || k->kind == PCOST_EVC_MAJOR_FAULTS)) {
		/* kernel.perf_event_paranoid 2: user-space events only.  Faults
		 * taken in user mode still count (not those of the kernel touching
		 * user memory: the source says so); switches and task-clock would
		 * lose all their kernel part: n/a. */
		attr.exclude_kernel = attr.exclude_hv = 1;
		*user_only = true;
		fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd >= 0 && k->filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, k->filter) < 0) {
		e = errno;
		close(fd);
		errno = e;
		fd = -1;
	}
	return fd >= 0 ? fd : -errno;
}

/* Why counter k could not be opened (open_counter's rc). */
static void open_failed(struct pcost_evcount *c, enum pcost_evc_kind kind, int rc,
			struct tep_handle *tep, const char *tep_why)
{
	char why[160];

	if (rc == -ENOENT)
		snprintf(why, sizeof(why), "%s",
			 tep ? "this kernel has no such tracepoint" : tep_why);
	else
		snprintf(why, sizeof(why), "perf_event_open: %s%s", strerror(-rc),
			 rc == -EACCES || rc == -EPERM
				 ? " (run as root or set kernel.perf_event_paranoid <= 1)"
				 : "");
	not_counted(c, kind, why);
}

/* Open the perf counters on pid (disabled); a kind that cannot be opened gets its reason. */
static void open_counters(int *fds, struct tep_handle *tep, const char *tep_why, pid_t pid,
			  struct pcost_evcount *c)
{
	for (size_t i = 0; i < NCOUNTERS; i++) {
		const struct evc_counter *k = &counters[i];
		bool user;
		int rc = open_counter(k, tep, pid, &user);

		fds[i] = rc >= 0 ? rc : -1;
		if (rc < 0)
			open_failed(c, k->kind, rc, tep, tep_why);
		else
			c->source[k->kind] = user ? k->source_user : k->source;
	}
}

static void enable_counters(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
}

/* Each counted kind's sum over ntasks rows of NCOUNTERS fds (an inherited counter's
 * read holds its children's counts, those that exited and those still running). */
static void read_counters(const int *fds, size_t ntasks, struct pcost_evcount *c)
{
	for (size_t i = 0; i < NCOUNTERS; i++) {
		enum pcost_evc_kind kind = counters[i].kind;
		uint64_t v, sum = 0;
		bool ok = c->source[kind] != NULL;

		for (size_t t = 0; ok && t < ntasks; t++)
			if (fds[t * NCOUNTERS + i] >= 0)
				ok = read(fds[t * NCOUNTERS + i], &v, sizeof(v)) ==
				     (ssize_t)sizeof(v),
				sum += v;
		if (ok)
			c->v[kind] = (int64_t)sum;
		else if (c->source[kind])
			not_counted(c, kind, "could not read the counter");
	}
}

/* The tasks (threads) of the processes of root's tree into *tids (malloc'd); how many. */
static size_t tree_tasks(pid_t root, pid_t **tids)
{
	pid_t procs[4096];
	size_t np = pcost_ptree_pids(root, procs, ARRAY_SIZE(procs)), n = 0, cap = 0;

	*tids = NULL;
	for (size_t p = 0; p < np; p++) {
		char path[64];
		struct dirent *e;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)procs[p]);
		if (!(d = opendir(path)))
			continue;
		while ((e = readdir(d))) {
			long t = strtol(e->d_name, NULL, 10);

			if (t <= 0)
				continue;
			xgrow((void **)tids, &cap, n + 1, sizeof(**tids));
			(*tids)[n++] = (pid_t)t;
		}
		closedir(d);
	}
	return n;
}

/*
 * The service's syscalls by number: a BPF counter of its own (evcount_bpf.c)
 * following every task of its tree now, and what they create from then on.
 */
static void open_service_by_nr(struct evc_state *st, struct tep_handle *tep, const char *tep_why,
			       const pid_t *tids, size_t n, struct pcost_evcount *svc)
{
	int rc = 0;

	if (!tep) {
		snprintf(svc->by_nr_why, sizeof(svc->by_nr_why), "%s", tep_why);
		return;
	}
	if (pcost_evc_bpf_open(&st->svc_bpf, tep, svc->by_nr_why, sizeof(svc->by_nr_why)) < 0)
		return;
	st->svc_bpf_open = true;
	for (size_t t = 0; t < n && !rc; t++)
		rc = pcost_evc_bpf_follow(&st->svc_bpf, tids[t]);
	if (rc < 0) {
		snprintf(svc->by_nr_why, sizeof(svc->by_nr_why),
			 "could not add the service to the BPF counter: %s", strerror(-rc));
		pcost_evc_bpf_close(&st->svc_bpf);
		st->svc_bpf_open = false;
	}
}

/*
 * The service's counters (pcost_evcount_opts.service_pid): each kind on every
 * task of its tree now, inherited by what they create from then on (the
 * backends a server forks per connection).  A task that exits meanwhile is
 * skipped (ESRCH); a kind that cannot be opened on all the others is not
 * counted.  The rusage kinds are not counted: probecost reaps none of its tasks.
 * Syscalls by number too unless by_nr is false.
 */
static void open_service(struct evc_state *st, struct tep_handle *tep, const char *tep_why,
			 pid_t root, bool by_nr, struct pcost_evcount *svc)
{
	pid_t *tids;
	size_t n = tree_tasks(root, &tids);
	int *fds = xcalloc(n * NCOUNTERS + 1, sizeof(int));

	svc->command = xasprintf("the service's processes (pid %d and its descendants)", (int)root);
	for (size_t i = 0; i < n * NCOUNTERS; i++)
		fds[i] = -1;
	/* All -1 before the undo (a signal handler) can see them. */
	st->svc_fds = fds;
	st->nsvc = n * NCOUNTERS;
	for (size_t i = 0; i < NCOUNTERS; i++) {
		const struct evc_counter *k = &counters[i];
		bool user = false, u, any = false;
		int rc = 0;

		for (size_t t = 0; t < n && !rc; t++) {
			int r = open_counter(k, tep, tids[t], &u);

			if (r >= 0)
				st->svc_fds[t * NCOUNTERS + i] = r, user |= u, any = true;
			else if (r != -ESRCH)
				rc = r;
		}
		if (!rc && !any)
			rc = -ESRCH;
		if (rc == 0) {
			svc->source[k->kind] = user ? k->source_user : k->source;
			continue;
		}
		open_failed(svc, k->kind, rc, tep, tep_why);
		for (size_t t = 0; t < n; t++)
			pcost_evc_close_fds(&st->svc_fds[t * NCOUNTERS + i], 1);
	}
	not_counted(svc, PCOST_EVC_CSW_VOLUNTARY,
		    "the service's tasks are not reaped by probecost");
	not_counted(svc, PCOST_EVC_CSW_INVOLUNTARY,
		    "the service's tasks are not reaped by probecost");
	if (by_nr)
		open_service_by_nr(st, tep, tep_why, tids, n, svc);
	else
		snprintf(svc->by_nr_why, sizeof(svc->by_nr_why), "not asked for");
	free(tids);
}

/* Our children now (pids), to tell the command's orphans from them later. */
static size_t own_children(pid_t *out, size_t max)
{
	char path[64], buf[8192], *p, *end;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; n < max; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		out[n++] = (pid_t)v;
	}
	return n;
}

/* State, ppid and process group of pid from /proc/PID/stat; -1 when gone. */
static int proc_ids(pid_t pid, char *state, pid_t *ppid, pid_t *pgrp)
{
	char path[64], buf[1024], *p;
	int pp, pg;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	if (sscanf(p + 2, "%c %d %d", state, &pp, &pg) != 3)
		return -1;
	*ppid = pp;
	*pgrp = pg;
	return 0;
}

static bool in_list(pid_t pid, const pid_t *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] == pid)
			return true;
	return false;
}

/*
 * What is left of the tree once the command exited: processes of its group,
 * and orphans reparented to us (not our children before; with orphans false,
 * none: a --service's daemon becomes ours too, and is the service's to
 * follow, service.c); killed and, ours, reaped, until none is left (a killed
 * daemon's children come to us next).  Returns how many there were.
 */
static unsigned kill_leftovers(pid_t pgid, const pid_t *before, size_t nbefore, bool orphans)
{
	pid_t seen[4096];
	size_t nseen = 0;

	for (int round = 0; round < 64; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		size_t found = 0;

		while (d && (e = readdir(d))) {
			pid_t pid = (pid_t)atoi(e->d_name), ppid, pgrp;
			char state;
			bool ours;

			if (pid <= 0 || pid == getpid() || proc_ids(pid, &state, &ppid, &pgrp) < 0)
				continue;
			ours = orphans && ppid == getpid() && !in_list(pid, before, nbefore);
			if (pgrp != pgid && !ours)
				continue;
			kill(pid, SIGKILL);
			if (ours)
				waitpid(pid, NULL, __WALL);
			/* A zombie had exited already: reaped, not counted. */
			if (state != 'Z' && !in_list(pid, seen, nseen) && nseen < ARRAY_SIZE(seen))
				seen[nseen++] = pid;
			if (state != 'Z' || ours)
				found++;
		}
		if (d)
			closedir(d);
		if (!found)
			break;
		usleep(1000);
	}
	return (unsigned)nseen;
}

/* ---- waiting ---------------------------------------------------------------------- */

static pcost_ns tv_ns(const struct timeval *tv)
{
	return (pcost_ns)tv->tv_sec * 1000000000ULL + (pcost_ns)tv->tv_usec * 1000;
}

/* Wait for the child (its group killed at the deadline or on Ctrl-C); fills the run's fields. */
static void wait_child(struct pcost_child *ch, pcost_ns t0, double timeout_s,
		       struct pcost_evcount *c)
{
	struct pcost_child_wait w = { .deadline = timeout_s > 0 ? t0 + (pcost_ns)(timeout_s * 1e9)
								: 0 };

	pcost_child_wait(ch, &w);
	c->wall_ns = pcost_now_ns() - t0;
	c->interrupted = ch->interrupted;
	c->timed_out = ch->timed_out;
	c->wait_status = ch->status;
	c->user_ns = tv_ns(&ch->ru.ru_utime);
	c->sys_ns = tv_ns(&ch->ru.ru_stime);
	c->v[PCOST_EVC_CSW_VOLUNTARY] = ch->ru.ru_nvcsw;
	c->v[PCOST_EVC_CSW_INVOLUNTARY] = ch->ru.ru_nivcsw;
	c->source[PCOST_EVC_CSW_VOLUNTARY] = c->source[PCOST_EVC_CSW_INVOLUNTARY] = rusage_source;
	c->why[PCOST_EVC_CSW_VOLUNTARY][0] = c->why[PCOST_EVC_CSW_INVOLUNTARY][0] = 0;
	if (c->interrupted)
		snprintf(c->fail, sizeof(c->fail), "interrupted");
	else if (c->timed_out)
		snprintf(c->fail, sizeof(c->fail), "timeout after %g s", timeout_s);
	else if (pcost_wait_status_failed(ch->status, 0))
		pcost_wait_status_text(ch->status, NULL, c->fail, sizeof(c->fail));
}

/* ---- the run ---------------------------------------------------------------------- */

/*
 * argv[0] on $PATH (as execvp would find it) into found (what is executed: a
 * link's name is what a multi-call program such as Debian's pg_wrapper reads
 * in its argv[0]'s stead) and its real file into c->exe; 0 or -errno and err.
 */
static int resolve(const char *arg0, struct pcost_evcount *c, char found[PATH_MAX], char *err,
		   size_t len)
{
	int rc = pcost_find_exe(arg0, found, PATH_MAX, err, len);

	if (rc < 0)
		return rc;
	if (!realpath(found, c->exe))
		snprintf(c->exe, sizeof(c->exe), "%s", found);
	return 0;
}

/* Syscalls by number and SDT probes: set up what can be, say why not for the rest. */
static void open_extras(struct evc_state *st, struct tep_handle *tep, const char *tep_why,
			pid_t pid, const struct pcost_evcount_opts *o, struct pcost_evcount *c)
{
	int rc;

	if (o->no_by_nr)
		snprintf(c->by_nr_why, sizeof(c->by_nr_why), "not asked for");
	else if (!tep)
		snprintf(c->by_nr_why, sizeof(c->by_nr_why), "%s", tep_why);
	else if (pcost_evc_bpf_open(&st->bpf, tep, c->by_nr_why, sizeof(c->by_nr_why)) == 0) {
		st->bpf_open = true;
		if ((rc = pcost_evc_bpf_follow(&st->bpf, pid)) < 0) {
			snprintf(c->by_nr_why, sizeof(c->by_nr_why),
				 "could not add the command to the BPF counter: %s", strerror(-rc));
			pcost_evc_bpf_close(&st->bpf);
			st->bpf_open = false;
		}
	}
	if (o->no_probes)
		snprintf(c->probes_why, sizeof(c->probes_why), "not asked for");
	else if (st->sdt.nsites && pcost_evc_sdt_open(&st->sdt, c, pid) < 0)
		pcost_evc_sdt_close(&st->sdt);
}

static void read_extras(struct evc_state *st, struct pcost_evcount *c)
{
	if (st->bpf_open && pcost_evc_bpf_read(&st->bpf, c) == 0)
		c->by_nr_source = by_nr_source;
	if (st->sdt.nevents && st->sdt.events[0].fd >= 0) {
		pcost_evc_sdt_read(&st->sdt, c);
		if (c->probes_counted)
			c->probes_source = probes_source;
	}
}

/*
 * Start the child, held on the go pipe (stdin /dev/null, stdout and stderr where
 * the options say, pinned when asked; nothing else of ours); 0 or -errno and err.
 */
static int start_child(struct pcost_child *ch, char *const *argv, const char *exe,
		       const struct pcost_evcount_opts *o, char *err, size_t len)
{
	int rc;

	pcost_child_init(ch);
	ch->argv = argv;
	ch->path = exe;
	ch->env = o->env;
	ch->fd[1] = o->out_fd >= 0 ? o->out_fd : PCOST_CHILD_NULL;
	ch->fd[2] = o->err_fd >= 0 ? o->err_fd : PCOST_CHILD_NULL;
	ch->cpu_mask = o->cpu_mask;
	ch->flags = PCOST_CHILD_HOLD | PCOST_CHILD_CLOSE_FDS;
	if ((rc = pcost_child_start(ch)) == 0)
		return 0;
	if (ch->fail_stage == PCOST_CHILD_STAGE_PIPE) {
		snprintf(err, len, "could not create a pipe: %s", strerror(-rc));
		return -EMFILE;
	}
	snprintf(err, len, "could not fork: %s", strerror(-rc));
	return rc;
}

/*
 * Wait until the child sleeps in its read of the go pipe (5 s at most): the
 * counters start after its set-up syscalls, so that its execve is the first
 * syscall they see.  /proc/PID/syscall names the syscall a task is blocked in.
 */
static void wait_blocked(pid_t pid)
{
	char path[64], buf[256];
	pcost_ns end = pcost_now_ns() + 5000000000ULL;
	pid_t ppid, pgrp;
	char state;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	while (pcost_now_ns() < end && !pcost_interrupted) {
		long nr;

		if (pcost_read_file(path, buf, sizeof(buf)) > 0 && sscanf(buf, "%ld", &nr) == 1 &&
		    nr == SYS_read)
			return;
		/* Gone before its read (it could not pin itself): the release says why. */
		if (proc_ids(pid, &state, &ppid, &pgrp) < 0 || state == 'Z')
			return;
		usleep(100);
	}
}

/*
 * The child's switches so far (it sleeps on the go pipe: they stay as they are
 * until the release), subtracted from its rusage so that the rusage figures
 * start where the counters do.
 */
static void switches_before(pid_t pid, long *vol, long *invol)
{
	char path[64], buf[4096], *p;

	*vol = *invol = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0)
		return;
	if ((p = strstr(buf, "\nvoluntary_ctxt_switches:")))
		*vol = strtol(p + 26, NULL, 10);
	if ((p = strstr(buf, "\nnonvoluntary_ctxt_switches:")))
		*invol = strtol(p + 29, NULL, 10);
}

int pcost_evcount_run(char *const *argv, const struct pcost_evcount_opts *o,
		      struct pcost_evcount *c, char *err, size_t len)
{
	struct evc_state st = { .undo = -1 };
	struct pcost_child ch;
	int rc, reaper = 0, argc = 0;
	char tep_why[160] = "", jerr[256], found[PATH_MAX];
	pid_t before[256], pid = -1;
	long vol0 = 0, invol0 = 0;
	size_t nbefore;
	struct tep_handle *tep;
	pcost_ns t0;

	pcost_evcount_init(c);
	if (o->service)
		pcost_evcount_init(o->service);
	for (size_t i = 0; i < NCOUNTERS; i++)
		st.fds[i] = -1;
	while (argv[argc])
		argc++;
	c->command = pcost_join_argv(argc, (char **)argv);
	if ((rc = resolve(argv[0], c, found, err, len)) < 0)
		return rc;
	pcost_child_init(&ch);
	/* Undo what a killed probecost left, and journal what this one changes. */
	if (!pcost_journal_is_open() && pcost_journal_open(NULL, jerr, sizeof(jerr)) < 0)
		warning("%s", jerr);
	tep = load_tracepoints(tep_why, sizeof(tep_why));
	if (!o->no_probes)
		pcost_evc_sdt_prepare(&st.sdt, c);
	prctl(PR_GET_CHILD_SUBREAPER, &reaper);
	nbefore = own_children(before, ARRAY_SIZE(before));
	st.undo = pcost_cleanup_push(undo, &st);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if ((rc = start_child(&ch, argv, found, o, err, len)) < 0)
		goto out;
	pid = ch.pid;
	wait_blocked(pid);
	open_counters(st.fds, tep, tep_why, pid, c);
	open_extras(&st, tep, tep_why, pid, o, c);
	if (o->service_pid > 0 && o->service)
		open_service(&st, tep, tep_why, o->service_pid, !o->no_by_nr, o->service);
	enable_counters(st.svc_fds, st.nsvc);
	enable_counters(st.fds, NCOUNTERS);
	switches_before(pid, &vol0, &invol0);
	t0 = pcost_now_ns();
	if ((rc = pcost_child_go(&ch)) < 0) {
		if (ch.fail_stage == PCOST_CHILD_STAGE_PIN)
			snprintf(err, len, "could not pin '%s' to its CPUs: %s", argv[0],
				 strerror(-rc));
		else
			snprintf(err, len, "could not execute '%s': %s", argv[0], strerror(-rc));
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	wait_child(&ch, t0, o->timeout_s, c);
	c->v[PCOST_EVC_CSW_VOLUNTARY] -= c->v[PCOST_EVC_CSW_VOLUNTARY] >= vol0 ? vol0 : 0;
	c->v[PCOST_EVC_CSW_INVOLUNTARY] -= c->v[PCOST_EVC_CSW_INVOLUNTARY] >= invol0 ? invol0 : 0;
	read_counters(st.fds, 1, c);
	if (st.svc_fds) {
		read_counters(st.svc_fds, st.nsvc / NCOUNTERS, o->service);
		o->service->wall_ns = c->wall_ns;
		o->service->interrupted = c->interrupted;
		o->service->timed_out = c->timed_out;
		if (st.svc_bpf_open && pcost_evc_bpf_read(&st.svc_bpf, o->service) == 0)
			o->service->by_nr_source = by_nr_source;
	}
	read_extras(&st, c);
	c->left_running = kill_leftovers(pid, before, nbefore, o->service_pid <= 0);
	rc = c->interrupted ? -EINTR : 0;
out:
	if (pid > 0)
		pcost_child_remove(pid);
	prctl(PR_SET_CHILD_SUBREAPER, reaper);
	close_parallel(&st);
	if (st.undo >= 0)
		pcost_cleanup_pop(st.undo, 1);
	else
		undo(&st);
	pcost_evc_sdt_free(&st.sdt);
	free(st.svc_fds);
	/* Still held (we gave up on it): the closed go pipe ends it. */
	pcost_evc_close_fds(&ch.go_fd, 1);
	pcost_evc_close_fds(&ch.report_fd, 1);
	if (tep)
		tep_free(tep);
	return rc;
}
