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
#include "core/tracefs.h"
#include "monitors/monitor.h"
#include "monitors/monitor_table.h"

enum attach_flavour { ATT_CUSTOM, ATT_BPFTRACE, ATT_PERF_SYSTEM };

struct attach_monitor {
	struct pcost_monitor m;
	enum attach_flavour flavour;
	char **argv;		/* "{DIR}" is replaced by the private directory */
	char *ready;		/* regex on its output; NULL: ready once started */
	pcost_ns grace_ns;	/* after SIGINT, before SIGKILL */
	struct pcost_proc proc;
	char dir[PATH_MAX];	/* private temp directory (perf data, fifos), "" when none */
	int undo;
	int ctl, ack;		/* perf --control fifos, -1 */
};

/* Undo: remove the private directory's files and itself (async-signal-safe calls only). */
static void remove_dir(void *arg)
{
	struct attach_monitor *a = arg;
	static const char *const names[] = { "perf.data", "perf.data.old", "ctl", "ack" };
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
	if (a->flavour == ATT_BPFTRACE)
		return pcost_tracefs_mount(err, len);
	if (a->flavour != ATT_PERF_SYSTEM || a->dir[0])
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

static char **expand_argv(struct attach_monitor *a)
{
	size_t n = 0;
	char **v;

	while (a->argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		char *w = xstrdup(a->argv[i]), *at;

		/* Every "{DIR}" becomes the private directory. */
		while ((at = strstr(w, "{DIR}"))) {
			char *next = xasprintf("%.*s%s%s", (int)(at - w), w, a->dir, at + 5);

			free(w);
			w = next;
		}
		v[i] = w;
	}
	return v;
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

static int attach_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct attach_monitor *a = container_of(m, struct attach_monitor, m);
	char **argv = expand_argv(a);
	int rc = pcost_proc_start(&a->proc, argv);

	pcost_argv_free(argv);
	a->ctl = a->ack = -1;
	if (rc < 0) {
		snprintf(err, len, "could not start '%s': %s", a->argv[0], strerror(-rc));
		return rc;
	}
	if (a->flavour == ATT_BPFTRACE)
		pcost_proc_stop_as_bpftrace(&a->proc);
	if (a->flavour == ATT_PERF_SYSTEM)
		rc = perf_enable(a, timeout_ns);
	else
		rc = pcost_proc_wait_ready(&a->proc, a->ready, timeout_ns);
	if (rc == -EPIPE) {
		char line[200];

		pcost_proc_error_line(&a->proc, line, sizeof(line));
		snprintf(err, len, "'%s' exited before it was ready%s%s", a->argv[0],
			 line[0] ? ": " : "", line);
	} else if (rc == -ETIMEDOUT && a->ready) {
		snprintf(err, len, "no output line of '%s' matched '%s'", a->argv[0], a->ready);
	}
	return rc;
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
static int64_t bpftrace_calls(const char *out, const struct pcost_run_sample *smp)
{
	const char *p = out;
	int64_t total = 0, mine = 0;
	bool any = false;

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
	return smp->event_syscall >= 0 && smp->pid > 0 ? mine : total;
}

/* What bpftrace printed at exit: its map; "Lost N events" when its buffers overflowed. */
static void bpftrace_count(struct attach_monitor *a, struct pcost_run_sample *smp)
{
	const char *lost = a->proc.buf ? strstr(a->proc.buf, "Lost ") : NULL;

	smp->monitor_events = a->proc.buf ? bpftrace_calls(a->proc.buf, smp) : -1;
	if (smp->monitor_events < 0)
		set_failed(&a->m, smp, "printed no count at exit");
	if (lost)
		snprintf(a->m.note, sizeof(a->m.note), "bpftrace: %.*s", (int)strcspn(lost, "\n"),
			 lost);
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
	if (pcost_proc_stop_checked(&a->proc, a->grace_ns, why, sizeof(why)))
		set_failed(m, smp, why);
	if (a->ctl >= 0)
		close(a->ctl);
	if (a->ack >= 0)
		close(a->ack);
	a->ctl = a->ack = -1;
	if (a->flavour == ATT_BPFTRACE && !smp->failed)
		bpftrace_count(a, smp);
	pcost_proc_release(&a->proc);
	if (a->flavour == ATT_PERF_SYSTEM) {
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/perf.data", a->dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/perf.data.old", a->dir);
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
	a->proc.out = -1;
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
	static const char *const argv[] = { "perf", "record", "-a", "-q", "-e", "cpu-clock", "-g",
					    "-o", "{DIR}/perf.data", "-D", "-1", "--control",
					    "fifo:{DIR}/ctl,{DIR}/ack", NULL };

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
		snprintf(err, len, "--ready '%s' is not a valid extended regular expression", ready);
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
	"bpftrace-syscalls", PCOST_MON_ATTACH,
	"bpftrace counting raw_syscalls:sys_enter system-wide by process and syscall (its count "
	"of the workload's syscall is recorded)",
	"bpftrace", "bpftrace", pcost_monitor_bpftrace_syscalls_ok, bpftrace_new
};
const struct pcost_monitor_def pcost_monitor_def_perf_record_system = {
	"perf-record-system", PCOST_MON_ATTACH,
	"perf record -a -e cpu-clock -g, enabled through its control fifo before each run",
	"perf", "linux-perf", pcost_monitor_perf_system_ok, perf_system_new
};
const struct pcost_monitor_def pcost_monitor_def_attach = {
	"--attach CMD --ready RE", PCOST_MON_ATTACH,
	"your own command beside the workload, ready when its output matches RE", NULL, NULL, NULL,
	attach_def_new
};
