// SPDX-License-Identifier: MIT
/*
 * tracepoint: enables raw_syscalls:sys_enter and sys_exit through tracefs
 * directly, in a private trace instance (instances/probecost-PID), so the
 * global tracing state is never touched; disabling the events and removing
 * the instance restores what was there before, also on Ctrl-C.  Its count is
 * the events the instance recorded (sys_enter and sys_exit: two a syscall).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/tracefs.h"
#include "monitors/monitor.h"
#include "monitors/monitor_table.h"

#define TRACEFS "/sys/kernel/tracing"
#define TP_BUFFER_KB "8192"	/* per CPU, in the private instance */

struct tp_monitor {
	struct pcost_monitor m;
	char inst[PATH_MAX];	/* the instance directory, "" when none */
	char enable[PATH_MAX + 64]; /* .../events/raw_syscalls/enable */
	int undo;
};

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(s);

	if (fd < 0)
		return -errno;
	n = write(fd, s, (size_t)len);
	close(fd);
	return n == len ? 0 : -EIO;
}

/* Undo, async-signal-safe: open/write/close/rmdir only. */
static void tp_undo(void *arg)
{
	struct tp_monitor *t = arg;
	int fd;

	if (!t->inst[0])
		return;
	fd = open(t->enable, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0) {
			/* nothing more to do: rmdir below disables it anyway */
		}
		close(fd);
	}
	rmdir(t->inst);
}

static int tp_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct tp_monitor *t = container_of(m, struct tp_monitor, m);
	char path[PATH_MAX + 32];

	int rc;

	if (t->inst[0])
		return 0;
	if ((rc = pcost_tracefs_mount(err, len)) < 0)
		return rc;
	pcost_tracefs_reap_dead_instances();
	snprintf(t->inst, sizeof(t->inst), TRACEFS "/instances/probecost-%d", (int)getpid());
	snprintf(t->enable, sizeof(t->enable), "%s/events/raw_syscalls/enable", t->inst);
	if (mkdir(t->inst, 0700) < 0 && errno != EEXIST) {
		int e = errno;

		snprintf(err, len, "could not create the trace instance %s: %s", t->inst,
			 strerror(e));
		t->inst[0] = 0;
		return -e;
	}
	t->undo = pcost_cleanup_push(tp_undo, t);
	pcost_journal_add("instance", t->inst, NULL);
	/* The thread group in every line, to count the workload's own events (this instance only). */
	snprintf(path, sizeof(path), "%s/options/record-tgid", t->inst);
	write_str(path, "1");
	/*
	 * Nobody reads the buffer during a run: room for ~100k syscalls of every
	 * process on a CPU (~100 bytes for an enter and an exit) before the oldest
	 * are overwritten, which then count as lost.  Freed with the instance.
	 */
	snprintf(path, sizeof(path), "%s/buffer_size_kb", t->inst);
	write_str(path, TP_BUFFER_KB);
	if (access(t->enable, W_OK) != 0) {
		snprintf(err, len, "%s is missing: this kernel has no raw_syscalls tracepoints",
			 t->enable);
		return -ENOENT;
	}
	return 0;
}

static int tp_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct tp_monitor *t = container_of(m, struct tp_monitor, m);
	char path[PATH_MAX + 16];
	int rc;

	/* An empty buffer per run, then on: the write returns once the events are live. */
	snprintf(path, sizeof(path), "%s/trace", t->inst);
	write_str(path, "");
	rc = write_str(t->enable, "1");
	if (rc < 0)
		snprintf(err, len, "could not enable %s: %s", t->enable, strerror(-rc));
	return rc;
}

/*
 * The workload's own syscalls left in the instance's buffer: lines
 * "comm-TID ( TGID) [cpu] flags ts: sys_enter: NR nr (...)" after the
 * process's execve (what the runner's child did before the exec is not the
 * workload's; when the execve was overwritten, so was all that came before
 * it).  The buffer
 * overwrites its oldest events when full and nobody reads it during the run:
 * those are lost to any reader, and count as lost.
 */
static int64_t tp_count(const struct tp_monitor *t, pid_t tgid, long nr)
{
	char path[PATH_MAX + 16], want[48], exec[48], *line = NULL;
	size_t cap = 0;
	int64_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", t->inst);
	f = fopen(path, "re");
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "sys_enter: NR %ld ", nr);
	snprintf(exec, sizeof(exec), "sys_enter: NR %d ", SYS_execve);
	while (getline(&line, &cap, f) > 0) {
		const char *open = strchr(line, '(');
		const char *colon = strstr(line, ": sys_enter: ");

		if (line[0] == '#' || !open || !colon || open > colon ||
		    strtol(open + 1, NULL, 10) != tgid)
			continue;
		if (strstr(colon, exec))
			n = 0;	/* the calls so far were the runner's child's */
		else if (strstr(colon, want))
			n++;
	}
	free(line);
	fclose(f);
	return n;
}

/*
 * Events the instance recorded this run (its buffer is emptied at start):
 * "entries" still in the per-CPU buffers plus "overrun" (overwritten when a
 * buffer wrapped): one sys_enter and one sys_exit per syscall.
 */
static int64_t recorded_events(const struct tp_monitor *t)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int64_t total = 0;

	for (long c = 0; c < ncpu; c++) {
		char path[PATH_MAX + 64], buf[512], *p;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/stats", t->inst, c);
		if (pcost_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		if ((p = strstr(buf, "entries: ")))
			total += strtoll(p + 9, NULL, 10);
		if ((p = strstr(buf, "\noverrun: ")))
			total += strtoll(p + 10, NULL, 10);
	}
	return total;
}

static int tp_stop(struct pcost_monitor *m, struct pcost_run_sample *smp)
{
	struct tp_monitor *t = container_of(m, struct tp_monitor, m);
	int rc;

	if (!t->inst[0])
		return 0;
	rc = write_str(t->enable, "0");
	/* The workload's own syscall where it names one, else every event recorded. */
	if (!rc && !smp->failed && smp->event_syscall >= 0 && smp->pid > 0)
		smp->monitor_events = tp_count(t, smp->pid, smp->event_syscall);
	else if (rc == 0)
		smp->monitor_events = recorded_events(t);
	return rc;
}

static void tp_cleanup(struct pcost_monitor *m)
{
	struct tp_monitor *t = container_of(m, struct tp_monitor, m);

	if (t->undo >= 0) {
		pcost_cleanup_pop(t->undo, 1);
		t->undo = -1;
		pcost_journal_del("instance", t->inst);
	}
	t->inst[0] = 0;
}

static void tp_free(struct pcost_monitor *m)
{
	tp_cleanup(m);
	free(container_of(m, struct tp_monitor, m));
}

static bool tp_available(const struct pcost_monitor *m, char *why, size_t len)
{
	return pcost_monitor_def_available(&pcost_monitor_def_tracepoint_syscalls, why, len);
}

static const struct pcost_monitor_ops tp_ops = {
	.kind = PCOST_MON_ATTACH,
	.available = tp_available,
	.prepare = tp_prepare,
	.start = tp_start,
	.stop = tp_stop,
	.cleanup = tp_cleanup,
	.free = tp_free,
};

static struct pcost_monitor *tp_new(const char *arg, char *err, size_t len)
{
	struct tp_monitor *t;

	if (arg) {
		snprintf(err, len, "monitor 'tracepoint-syscalls' takes no ':' arguments");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->m.ops = &tp_ops;
	snprintf(t->m.name, sizeof(t->m.name), "tracepoint-syscalls");
	t->undo = -1;
	return &t->m;
}

const struct pcost_monitor_def pcost_monitor_def_tracepoint_syscalls = {
	"tracepoint-syscalls", PCOST_MON_ATTACH,
	"raw_syscalls tracepoints enabled through tracefs (a private instance, removed after)",
	NULL, NULL, pcost_monitor_tracefs_ok, tp_new
};
