// SPDX-License-Identifier: MIT
/*
 * attach: monitors that run beside the workload, started before it and known
 * ready first (bpftrace, perf record -a, a user's --attach CMD --ready REGEX),
 * stopped with SIGINT after it (bpftrace: pcost_proc_stop_as_bpftrace()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/proc.h"
#include "core/ptree.h"
#include "core/tracefs.h"
#include "monitors/monitor.h"
#include "monitors/monitor_table.h"
#include "monitors/perf_data.h"

enum attach_flavour {
	ATT_CUSTOM,
	ATT_BPFTRACE,
	ATT_PERF_SYSTEM,
	/* the service forms (run --service): pointed at the service's processes */
	ATT_PERF_PID,	  /* perf stat / record -p PIDS, enabled by its control fifo */
	ATT_STRACE_PID,	  /* strace -f -p PIDS, ready once it traces every one */
	ATT_BPFTRACE_PID, /* bpftrace filtered to the service's tree */
};

/* perf with --control: enabled through its fifo, ready on its ack. */
static bool perf_ctl(enum attach_flavour f)
{
	return f == ATT_PERF_SYSTEM || f == ATT_PERF_PID;
}

static bool is_bpftrace(enum attach_flavour f)
{
	return f == ATT_BPFTRACE || f == ATT_BPFTRACE_PID;
}

struct attach_monitor {
	struct pcost_monitor m;
	enum attach_flavour flavour;
	char **argv;	   /* "{DIR}" is replaced by the private directory */
	char *ready;	   /* regex on its output; NULL: ready once started */
	pcost_ns grace_ns; /* after SIGINT, before SIGKILL */
	struct pcost_proc proc;
	char dir[PATH_MAX]; /* private temp directory (perf data, fifos), "" when none */
	int undo;
	int ctl, ack;	 /* perf --control fifos, -1 */
	char pids[4096]; /* service forms: the service's processes at start(), "1,2,3" */
};

/* Undo: remove the private directory's files and itself (async-signal-safe calls only). */
static void remove_dir(void *arg)
{
	struct attach_monitor *a = arg;
	static const char *const names[] = { "perf.data", "perf.data.old", "ctl", "ack", "out" };
	char path[PATH_MAX + 32];

	if (!a->dir[0])
		return;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		/* No snprintf in a signal handler: build the path by hand. */
		size_t dl = strlen(a->dir), nl = strlen(names[i]);

		memcpy(path, a->dir, dl);
		path[dl] = '/';
		memcpy(path + dl + 1, names[i], nl + 1);
		unlink(path);
	}
	rmdir(a->dir);
}

static int attach_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct attach_monitor *a = container_of(m, struct attach_monitor, m);
	char path[PATH_MAX + 8];

	int rc;

	/* bpftrace finds tracepoints through tracefs: mounted by us, put back at exit. */
	if (is_bpftrace(a->flavour))
		return pcost_tracefs_mount(err, len);
	if (!perf_ctl(a->flavour) || a->dir[0])
		return 0;
	if ((rc = pcost_private_dir_make(a->dir, sizeof(a->dir), err, len)) < 0)
		return rc;
	a->undo = pcost_cleanup_push(remove_dir, a);
	snprintf(path, sizeof(path), "%s/ctl", a->dir);
	if (mkfifo(path, 0600) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/ack", a->dir);
	if (mkfifo(path, 0600) < 0)
		goto fail;
	return 0;
fail:
	snprintf(err, len, "could not create a fifo in %s: %s", a->dir, strerror(errno));
	return -errno;
}

/* Every from in *w becomes to. */
static void replace_all(char **w, const char *from, const char *to)
{
	char *next = pcost_replace_all(*w, from, to);

	free(*w);
	*w = next;
}

/*
 * bpftrace on the service's tree: its processes now, and every process one of
 * them forks from then on (sched_process_fork; the backends a server forks per
 * connection), counted by syscall as bpftrace-syscalls counts; END clears the
 * set so only the counts print.
 */
static char *service_program(const char *pids)
{
	char *seed = xstrdup(""), *prog, *list = xstrdup(pids), *save = NULL;

	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *next = xasprintf("%s@svc[%s] = 1; ", seed, t);

		free(seed);
		seed = next;
	}
	prog = xasprintf(
		"BEGIN { %sprintf(\"probecost-ready\\n\"); } "
		"tracepoint:sched:sched_process_fork /@svc[pid]/ { @svc[args->child_pid] = 1; } "
		"tracepoint:raw_syscalls:sys_enter /@svc[pid]/ "
		"{ @syscalls[pid, comm, args->id] = count(); } "
		"END { clear(@svc); printf(\"probecost-end\\n\"); }",
		seed);
	free(seed);
	free(list);
	return prog;
}

/*
 * Has pid exited (gone, or a zombie its parent has not reaped yet), or is it
 * younger than min_age_s?
 */
static bool exited_or_young(long pid, double min_age_s)
{
	char path[64], buf[1024], *p;
	unsigned long long start;
	double up;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return true;
	if (p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
		return true;
	if (min_age_s <= 0)
		return false;
	/* starttime, field 22 (proc(5)): clock ticks after boot, as /proc/uptime's seconds. */
	if (sscanf(p + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
		   "%*d %*d %llu",
		   &start) != 1 ||
	    !(f = fopen("/proc/uptime", "re")))
		return false;
	if (fscanf(f, "%lf", &up) != 1)
		up = 0;
	fclose(f);
	return up - (double)start / (double)sysconf(_SC_CLK_TCK) < min_age_s;
}

/*
 * Keep of list ("1,2,3") the processes that have not exited and are at least
 * min_age_s old (in place); true when one was dropped.  perf -p refuses a list
 * with one that is gone ("Couldn't create thread/CPU maps: No such process"):
 * a server's backend ending as a run starts (the last run's connection) must
 * not fail the monitor.
 */
static bool drop_exited(char *list, double min_age_s)
{
	char *r = list, *w = list;
	bool any = false;

	while (*r) {
		char *end;
		long pid = strtol(r, &end, 10);
		size_t n = (size_t)(end - r);

		if (end == r)
			break;
		if (exited_or_young(pid, min_age_s)) {
			any = true;
		} else {
			if (w != list)
				*w++ = ',';
			memmove(w, r, n);
			w += n;
		}
		r = end + (*end == ',');
	}
	*w = 0;
	return any;
}

/*
 * The argv of this start: "{DIR}" is the private directory; "{pid}" the
 * service's pid, "{PIDS}" its processes (comma separated), "{SVCPROG}" the
 * bpftrace program on them.
 */
static char **expand_argv(struct attach_monitor *a, double min_age_s)
{
	size_t n = 0;
	char **v, pid[24];

	while (a->argv[n])
		n++;
	snprintf(pid, sizeof(pid), "%d", (int)a->m.service_pid);
	a->pids[0] = 0;
	if (a->m.service_pid > 0) {
		pcost_ptree_list(a->m.service_pid, a->pids, sizeof(a->pids));
		drop_exited(a->pids, min_age_s);
	}
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		char *w = xstrdup(a->argv[i]);

		replace_all(&w, "{DIR}", a->dir);
		if (a->m.service_pid > 0) {
			replace_all(&w, "{pid}", pid);
			replace_all(&w, "{PIDS}", a->pids);
		}
		if (!strcmp(w, "{SVCPROG}")) {
			free(w);
			w = service_program(a->pids);
		}
		v[i] = w;
	}
	return v;
}

/* Is every process of list ("1,2,3") traced (TracerPid in /proc/PID/status)? */
static bool all_traced(const char *list)
{
	const char *p = list;

	while (*p) {
		char path[64], buf[2048], *t;
		long pid = strtol(p, (char **)&p, 10);

		snprintf(path, sizeof(path), "/proc/%ld/status", pid);
		/* A process that is gone needs no tracer. */
		if (pcost_read_file(path, buf, sizeof(buf)) > 0 &&
		    (t = strstr(buf, "TracerPid:")) && strtol(t + 10, NULL, 10) == 0)
			return false;
		p += *p == ',';
	}
	return true;
}

/* strace -p attaches one process after the other: ready once it traces them all. */
static int strace_ready(struct attach_monitor *a, pcost_ns timeout_ns)
{
	pcost_ns deadline = pcost_now_ns() + timeout_ns;

	for (;;) {
		if (all_traced(a->pids))
			return 0;
		if (pcost_interrupted)
			return -EINTR;
		if (waitpid(a->proc.pid, &a->proc.status, WNOHANG) == a->proc.pid) {
			a->proc.pid = -a->proc.pid; /* reaped: stop() must not wait again */
			return -EPIPE;
		}
		if (pcost_now_ns() >= deadline)
			return -ETIMEDOUT;
		usleep(1000);
	}
}

/* perf record -D -1 starts disabled; "enable" on its control fifo, "ack" back = recording. */
static int perf_enable(struct attach_monitor *a, pcost_ns timeout_ns)
{
	char path[PATH_MAX + 8], buf[16];
	pcost_ns deadline = pcost_now_ns() + timeout_ns;

	/* O_RDWR on a fifo never blocks on open (Linux fifo(7)). */
	snprintf(path, sizeof(path), "%s/ctl", a->dir);
	a->ctl = open(path, O_RDWR | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/ack", a->dir);
	a->ack = open(path, O_RDWR | O_CLOEXEC);
	if (a->ctl < 0 || a->ack < 0)
		return -errno;
	if (write(a->ctl, "enable\n", 7) != 7)
		return -EIO;
	for (;;) {
		struct pollfd pf = { .fd = a->ack, .events = POLLIN };
		pcost_ns now = pcost_now_ns();
		int r;

		if (pcost_interrupted)
			return -EINTR;
		if (now >= deadline)
			return -ETIMEDOUT;
		if (waitpid(a->proc.pid, &a->proc.status, WNOHANG) == a->proc.pid) {
			a->proc.pid = -a->proc.pid; /* reaped: stop() must not wait again */
			return -EPIPE;
		}
		r = poll(&pf, 1, 20);
		if (r > 0) {
			ssize_t n = read(a->ack, buf, sizeof(buf) - 1);

			if (n > 0 && !strncmp(buf, "ack", 3))
				return 0;
		}
	}
}

/* What a start that timed out waited for, and what the tool said meanwhile. */
static void wait_said(struct attach_monitor *a, char *err, size_t len)
{
	char line[160] = "";
	const char *what = a->ready ? "a line of its output (stdout or stderr) matching --ready"
			   : perf_ctl(a->flavour) ? "its ack on the control fifo after 'enable'"
			   : a->flavour == ATT_STRACE_PID
				   ? "it to trace every process of the service"
				   : "nothing";
	int o;

	pcost_proc_error_line(&a->proc, line, sizeof(line));
	o = snprintf(err, len, "waited for %s%s%s%s from '%s'; ", what, a->ready ? " '" : "",
		     a->ready ? a->ready : "", a->ready ? "'" : "", a->argv[0]);
	if (o > 0 && (size_t)o < len)
		snprintf(err + o, len - (size_t)o,
			 line[0] ? "its last line: %s" : "it printed nothing", line);
}

/* One start of the tool, known ready (0) or not (-errno, with err). */
static int start_once(struct attach_monitor *a, pcost_ns timeout_ns, double min_age_s, char *err,
		      size_t len)
{
	char **argv = expand_argv(a, min_age_s);
	int rc = pcost_proc_start(&a->proc, argv);

	pcost_argv_free(argv);
	a->ctl = a->ack = -1;
	if (rc < 0) {
		snprintf(err, len, "could not start '%s': %s", a->argv[0], strerror(-rc));
		return rc;
	}
	if (is_bpftrace(a->flavour))
		pcost_proc_stop_as_bpftrace(&a->proc);
	if (perf_ctl(a->flavour))
		rc = perf_enable(a, timeout_ns);
	else if (a->flavour == ATT_STRACE_PID)
		rc = strace_ready(a, timeout_ns);
	else
		rc = pcost_proc_wait_ready(&a->proc, a->ready, timeout_ns);
	if (rc == -EPIPE) {
		char line[200];

		pcost_proc_error_line(&a->proc, line, sizeof(line));
		snprintf(err, len, "'%s' exited before it was ready%s%s", a->argv[0],
			 line[0] ? ": " : "", line);
	} else if (rc == -ETIMEDOUT) {
		wait_said(a, err, len);
	}
	return rc;
}

/* Forget a start whose tool exited (reaped by the readiness wait): fds, its output. */
static void forget_start(struct attach_monitor *a)
{
	if (a->proc.pid < 0)
		pcost_child_remove(-a->proc.pid);
	a->proc.pid = 0;
	if (a->ctl >= 0)
		close(a->ctl);
	if (a->ack >= 0)
		close(a->ack);
	a->ctl = a->ack = -1;
	pcost_proc_release(&a->proc);
}

/*
 * Started; a service form started again, while its time lasts, when the tool
 * exited because a process it was given exited before it attached.  The
 * service's list is read again each time, without its processes younger
 * than half a second from the second time on: a service that starts
 * short-lived processes all the time (a shell loop) always has one that may
 * end before the tool attaches.  What those do is missed; what their parent
 * starts from the attach on is watched (inherited, followed).
 */
static int attach_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct attach_monitor *a = container_of(m, struct attach_monitor, m);
	pcost_ns deadline = pcost_now_ns() + timeout_ns;

	for (int tries = 0;; tries++) {
		char listed[sizeof(a->pids)];
		pcost_ns now;
		int rc = start_once(a, timeout_ns, tries ? 0.5 : 0, err, len);

		snprintf(listed, sizeof(listed), "%s", a->pids);
		now = pcost_now_ns();
		if (rc != -EPIPE || m->service_pid <= 0 || now >= deadline ||
		    !drop_exited(listed, 0) || exited_or_young(m->service_pid, 0))
			return rc;
		timeout_ns = deadline - now;
		forget_start(a);
	}
}

static void set_failed(struct pcost_monitor *m, struct pcost_run_sample *smp, const char *why)
{
	if (smp->failed)
		return;
	smp->failed = true;
	snprintf(smp->fail_reason, sizeof(smp->fail_reason), "monitor %.40s %s", m->name, why);
	/* Also a warning: the report shows failed runs, the note says which tool. */
	snprintf(m->note, sizeof(m->note), "%.40s %s", m->name, why);
}

/*
 * bpftrace-syscalls prints "@syscalls[PID, COMM, NR]: COUNT" at exit: the
 * count of the workload's process and syscall where its report names one,
 * else every syscall it saw, system-wide.  Only once the process calls itself
 * "pc-NAME" (the workload names itself just before its work): what the runner's
 * child did before the exec is not the workload's.  -1 when the map is not there.
 */
static int64_t bpftrace_calls(const char *out, const struct pcost_run_sample *smp, bool service)
{
	const char *p = out;
	int64_t total = 0, mine = 0;
	/* The service's program says it ended: an empty map (no syscall of the tree) is 0. */
	bool any = service && strstr(out, "probecost-end");

	while ((p = strstr(p, "@syscalls["))) {
		long long pid, nr, n;
		char comm[17];

		p += 10;
		if (sscanf(p, "%lld, %16[^,], %lld]: %lld", &pid, comm, &nr, &n) != 4)
			continue;
		any = true;
		total += n;
		if (pid == smp->pid && nr == smp->event_syscall && !strncmp(comm, "pc-", 3))
			mine += n;
	}
	if (!any)
		return -1;
	/* The service's form counts the service's tree: all of it. */
	return !service && smp->event_syscall >= 0 && smp->pid > 0 ? mine : total;
}

/* What bpftrace printed at exit: its map; "Lost N events" when its buffers overflowed. */
static void bpftrace_count(struct attach_monitor *a, struct pcost_run_sample *smp)
{
	const char *lost = a->proc.buf ? strstr(a->proc.buf, "Lost ") : NULL;

	smp->monitor_events =
		a->proc.buf ? bpftrace_calls(a->proc.buf, smp, a->flavour == ATT_BPFTRACE_PID) : -1;
	if (smp->monitor_events < 0)
		set_failed(&a->m, smp, "printed no count at exit");
	if (lost)
		snprintf(a->m.note, sizeof(a->m.note), "bpftrace: %.*s", (int)strcspn(lost, "\n"),
			 lost);
}

/*
 * perf stat's service form: the context switches it counted (what perf-stat pays
 * for), from the file it wrote at exit ("  2,124  context-switches  # ..."); -1
 * when the file or the line is not there.
 */
static int64_t perf_stat_switches(const struct attach_monitor *a)
{
	char path[PATH_MAX + 8], buf[8192], *l;
	int64_t n = 0;

	snprintf(path, sizeof(path), "%s/out", a->dir);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || !(l = strstr(buf, " context-switches")))
		return -1;
	while (l > buf && l[-1] != '\n')
		l--;
	for (; *l && *l != 'c'; l++) {
		if (*l >= '0' && *l <= '9')
			n = n * 10 + (*l - '0');
		else if (*l != ',' && *l != ' ')
			return -1; /* "<not counted>" */
	}
	return n;
}

static int attach_stop(struct pcost_monitor *m, struct pcost_run_sample *smp)
{
	struct attach_monitor *a = container_of(m, struct attach_monitor, m);
	char why[200];

	if (a->proc.pid < 0) {
		/* Reaped already (exited while we waited for readiness). */
		pcost_child_remove(-a->proc.pid);
		a->proc.pid = 0;
	}
	/* bpftrace is stopped with SIGTERM, sent again while it waits (stop_as_bpftrace). */
	if (pcost_proc_stop_checked(&a->proc, a->grace_ns, why, sizeof(why)))
		set_failed(m, smp, why);
	if (a->ctl >= 0)
		close(a->ctl);
	if (a->ack >= 0)
		close(a->ack);
	a->ctl = a->ack = -1;
	if (is_bpftrace(a->flavour) && !smp->failed)
		bpftrace_count(a, smp);
	if (a->flavour == ATT_PERF_PID && !strcmp(m->name, "perf-stat") && !smp->failed)
		smp->monitor_events = perf_stat_switches(a);
	pcost_proc_release(&a->proc);
	if (perf_ctl(a->flavour)) {
		char path[PATH_MAX + 16];

		/* perf record's forms: the samples it wrote (perf stat writes no perf.data). */
		snprintf(path, sizeof(path), "%s/perf.data", a->dir);
		if (!strcmp(a->argv[1], "record") && !smp->failed)
			smp->monitor_events = pcost_perf_data_samples(path);
		unlink(path);
		snprintf(path, sizeof(path), "%s/perf.data.old", a->dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/out", a->dir);
		unlink(path);
	}
	return 0;
}

static void attach_cleanup(struct pcost_monitor *m)
{
	struct attach_monitor *a = container_of(m, struct attach_monitor, m);

	if (a->proc.pid > 0)
		pcost_proc_stop(&a->proc, SIGKILL, 0);
	pcost_proc_release(&a->proc);
	if (a->undo >= 0) {
		pcost_cleanup_pop(a->undo, 1);
		a->undo = -1;
	}
	pcost_private_dir_remove(a->dir);
	a->dir[0] = 0;
}

static void attach_free(struct pcost_monitor *m)
{
	struct attach_monitor *a = container_of(m, struct attach_monitor, m);

	attach_cleanup(m);
	pcost_argv_free(a->argv);
	free(a->ready);
	free(a);
}

static bool attach_available(const struct pcost_monitor *m, char *why, size_t len)
{
	const struct attach_monitor *a = container_of(m, struct attach_monitor, m);
	const struct pcost_monitor_def *d = pcost_monitor_def_find(m->name);

	if (d)
		return pcost_monitor_def_available(d, why, len);
	if (!strchr(a->argv[0], '/') && !pcost_which(a->argv[0], NULL, 0)) {
		snprintf(why, len, "'%s' is not on $PATH", a->argv[0]);
		return false;
	}
	return true;
}

static const struct pcost_monitor_ops attach_ops = {
	.kind = PCOST_MON_ATTACH,
	.available = attach_available,
	.prepare = attach_prepare,
	.start = attach_start,
	.stop = attach_stop,
	.cleanup = attach_cleanup,
	.free = attach_free,
};

static struct attach_monitor *attach_new(const char *name, enum attach_flavour f,
					 const char *const *argv, const char *ready)
{
	struct attach_monitor *a = xcalloc(1, sizeof(*a));
	size_t n = 0;

	while (argv[n])
		n++;
	a->m.ops = &attach_ops;
	snprintf(a->m.name, sizeof(a->m.name), "%s", name);
	a->flavour = f;
	a->argv = xcalloc(n + 1, sizeof(*a->argv));
	for (size_t i = 0; i < n; i++)
		a->argv[i] = xstrdup(argv[i]);
	a->ready = ready ? xstrdup(ready) : NULL;
	a->grace_ns = 10ULL * 1000000000ULL;
	a->undo = -1;
	a->ctl = a->ack = -1;
	a->proc.out = a->proc.err = -1; /* never started: nothing of ours to close */
	return a;
}

static struct pcost_monitor *bpftrace_new(const char *arg, char *err, size_t len)
{
	/* BEGIN fires once every probe is attached: its line is the readiness signal. */
	static const char *const argv[] = {
		"bpftrace", "-e",
		"BEGIN { printf(\"probecost-ready\\n\"); } "
		"tracepoint:raw_syscalls:sys_enter { @syscalls[pid, comm, args->id] = count(); }",
		NULL
	};

	if (arg) {
		snprintf(err, len, "monitor 'bpftrace-syscalls' takes no ':' arguments");
		return NULL;
	}
	return &attach_new("bpftrace-syscalls", ATT_BPFTRACE, argv, "^probecost-ready")->m;
}

static struct pcost_monitor *perf_system_new(const char *arg, char *err, size_t len)
{
	static const char *const argv[] = { "perf",
					    "record",
					    "-a",
					    "-q",
					    "-e",
					    "cpu-clock",
					    "-g",
					    "-o",
					    "{DIR}/perf.data",
					    "-D",
					    "-1",
					    "--control",
					    "fifo:{DIR}/ctl,{DIR}/ack",
					    NULL };

	if (arg) {
		snprintf(err, len, "monitor 'perf-record-system' takes no ':' arguments");
		return NULL;
	}
	return &attach_new("perf-record-system", ATT_PERF_SYSTEM, argv, NULL)->m;
}

struct pcost_monitor *pcost_monitor_attach_create(const char *cmd, const char *ready, char *err,
						  size_t len)
{
	struct attach_monitor *a;
	regex_t re;
	char **argv;

	if (pcost_argv_split(cmd, &argv) < 0) {
		snprintf(err, len, "--attach '%s': unterminated quote or empty command", cmd);
		return NULL;
	}
	if (ready && regcomp(&re, ready, REG_EXTENDED | REG_NOSUB) != 0) {
		snprintf(err, len, "--ready '%s' is not a valid extended regular expression",
			 ready);
		pcost_argv_free(argv);
		return NULL;
	}
	if (ready)
		regfree(&re);
	a = attach_new("attach", ATT_CUSTOM, (const char *const *)argv, ready);
	snprintf(a->m.name, sizeof(a->m.name), "attach:%s", cmd);
	a->grace_ns = 5ULL * 1000000000ULL;
	pcost_argv_free(argv);
	return &a->m;
}

static struct pcost_monitor *attach_def_new(const char *arg, char *err, size_t len)
{
	snprintf(err, len, "use --attach 'CMD' [--ready REGEX] for a custom attach monitor");
	return NULL;
}

const struct pcost_monitor_def pcost_monitor_def_bpftrace_syscalls = {
	"bpftrace-syscalls",
	PCOST_MON_ATTACH,
	"bpftrace counting raw_syscalls:sys_enter system-wide by process and syscall (its count "
	"of the workload's syscall is recorded)",
	"bpftrace",
	"bpftrace",
	pcost_monitor_bpftrace_syscalls_ok,
	bpftrace_new
};
const struct pcost_monitor_def pcost_monitor_def_perf_record_system = {
	"perf-record-system",
	PCOST_MON_ATTACH,
	"perf record -a -e cpu-clock -g, enabled through its control fifo before each run",
	"perf",
	"linux-perf",
	pcost_monitor_perf_system_ok,
	perf_system_new
};
const struct pcost_monitor_def pcost_monitor_def_attach = {
	"--attach CMD --ready RE",
	PCOST_MON_ATTACH,
	"your own command beside the workload, ready when its output matches RE",
	NULL,
	NULL,
	NULL,
	attach_def_new
};

/* ---- service forms (run --service) ------------------------------------------------ */

static struct pcost_monitor *service_perf(const char *name, const char *const *argv)
{
	return &attach_new(name, ATT_PERF_PID, argv, NULL)->m;
}

struct pcost_monitor *pcost_monitor_service_create(const char *word, char *err, size_t len)
{
	/* perf: -p follows the listed processes and (inherit, perf's default) what they fork. */
	static const char *const stat[] = {
		"perf",	     "stat", "-p", "{PIDS}",	"-o",
		"{DIR}/out", "-D",   "-1", "--control", "fifo:{DIR}/ctl,{DIR}/ack",
		NULL
	};
	static const char *const record[] = { "perf",	   "record",
					      "-p",	   "{PIDS}",
					      "-q",	   "-e",
					      "cpu-clock", "-g",
					      "-o",	   "{DIR}/perf.data",
					      "-D",	   "-1",
					      "--control", "fifo:{DIR}/ctl,{DIR}/ack",
					      NULL };
	/* strace: -f follows what they fork; every listed process attached before ready. */
	static const char *const strace[] = { "strace",	   "-f", "-qq",	   "-o",
					      "/dev/null", "-p", "{PIDS}", NULL };
	static const char *const bpf[] = { "bpftrace", "-e", "{SVCPROG}", NULL };
	struct attach_monitor *a = NULL;

	(void)err;
	(void)len;
	if (!strcmp(word, "perf-stat"))
		return service_perf("perf-stat", stat);
	if (!strcmp(word, "perf-record"))
		return service_perf("perf-record", record);
	if (!strcmp(word, "strace"))
		a = attach_new("strace", ATT_STRACE_PID, strace, NULL);
	else if (!strcmp(word, "bpftrace-syscalls"))
		a = attach_new("bpftrace-syscalls", ATT_BPFTRACE_PID, bpf, "^probecost-ready");
	return a ? &a->m : NULL;
}
