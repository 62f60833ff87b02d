// SPDX-License-Identifier: MIT
/*
 * tracepoint: enables raw_syscalls:sys_enter and sys_exit in a private trace
 * instance (instances/probecost-PID, through libtracefs), so the global
 * tracing state is never touched; disabling the events and removing the
 * instance restores what was there before, also on Ctrl-C.  A reader thread
 * drains the instance during each run (tracepoint_reader.h), as trace-cmd
 * record does, so nothing is lost to a buffer that wraps.  Its count is the
 * workload's own syscall where it names one, else every event recorded
 * (sys_enter and sys_exit: two a syscall).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/tracefs.h"
#include "monitors/monitor.h"
#include "monitors/monitor_table.h"
#include "monitors/tracepoint_reader.h"

/*
 * The private instance's buffer, per CPU: room while the reader catches up (a
 * syscall is ~100 bytes, enter and exit): 32 MiB on a few CPUs, down to 8 MiB
 * (~80k syscalls) where 256 MiB in all would allow less.
 */
#define TP_BUFFER_TOTAL_KB (256 * 1024)
#define TP_BUFFER_MIN_KB (8 * 1024)
#define TP_BUFFER_MAX_KB (32 * 1024)

struct tp_monitor {
	struct pcost_monitor m;
	struct tracefs_instance *ti;	/* NULL when none */
	struct pcost_tp_reader *reader; /* during a run */
	char inst[PATH_MAX];		/* the instance directory, "" when none */
	char enable[PATH_MAX + 64];	/* .../events/raw_syscalls/enable */
	int undo;
};

/* Undo, async-signal-safe: open/write/close/rmdir only (rmdir fails while the
 * reader thread holds trace_pipe_raw open: the journal's sweep removes it). */
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
	char name[64], *dir;
	long ncpu, kb;
	int rc;

	if (t->ti)
		return 0;
	if ((rc = pcost_tracefs_mount(err, len)) < 0)
		return rc;
	pcost_tracefs_reap_dead_instances();
	snprintf(name, sizeof(name), "probecost-%d", (int)getpid());
	t->ti = tracefs_instance_create(name);
	dir = t->ti ? tracefs_instance_get_dir(t->ti) : NULL;
	if (!dir) {
		int e = errno ? errno : EIO;

		snprintf(err, len, "could not create the trace instance %s: %s", name, strerror(e));
		tracefs_instance_free(t->ti);
		t->ti = NULL;
		return -e;
	}
	snprintf(t->inst, sizeof(t->inst), "%s", dir);
	tracefs_put_tracing_file(dir);
	snprintf(t->enable, sizeof(t->enable), "%s/events/raw_syscalls/enable", t->inst);
	t->undo = pcost_cleanup_push(tp_undo, t);
	pcost_journal_add("instance", t->inst, NULL);
	/* The thread group of each thread, to count the workload's own events (saved_tgids). */
	tracefs_option_enable(t->ti, TRACEFS_OPTION_RECORD_TGID);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	kb = TP_BUFFER_TOTAL_KB / (ncpu > 0 ? ncpu : 1);
	kb = kb < TP_BUFFER_MIN_KB   ? TP_BUFFER_MIN_KB
	     : kb > TP_BUFFER_MAX_KB ? TP_BUFFER_MAX_KB
				     : kb;
	tracefs_instance_set_buffer_size(t->ti, (size_t)kb, -1);
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

	/* An empty buffer per run, the reader, then on: the events are live when it returns. */
	tracefs_instance_file_clear(t->ti, "trace");
	if (!(t->reader = pcost_tp_reader_start(t->ti, err, len)))
		return -EIO;
	if (tracefs_event_enable(t->ti, "raw_syscalls", NULL) < 0) {
		snprintf(err, len, "could not enable %s: %s", t->enable, strerror(errno));
		return -EIO;
	}
	return 0;
}

static int tp_stop(struct pcost_monitor *m, struct pcost_run_sample *smp)
{
	struct tp_monitor *t = container_of(m, struct tp_monitor, m);
	int rc;

	if (!t->ti)
		return 0;
	rc = tracefs_event_disable(t->ti, "raw_syscalls", NULL) < 0 ? -EIO : 0;
	if (!t->reader)
		return rc;
	/* Every event is in the buffers once they are off: read what is left. */
	pcost_tp_reader_stop(t->reader);
	/* The workload's own syscall where it names one, else every event recorded. */
	if (!rc && !smp->failed && smp->event_syscall >= 0 && smp->pid > 0)
		smp->monitor_events =
			pcost_tp_reader_count(t->reader, smp->pid, smp->event_syscall);
	else if (rc == 0)
		smp->monitor_events = pcost_tp_reader_total(t->reader);
	if (pcost_tp_reader_lost(t->reader) > 0)
		snprintf(m->note, sizeof(m->note), "the trace buffer overflowed: %lld events lost",
			 (long long)pcost_tp_reader_lost(t->reader));
	pcost_tp_reader_free(t->reader);
	t->reader = NULL;
	return rc;
}

static void tp_cleanup(struct pcost_monitor *m)
{
	struct tp_monitor *t = container_of(m, struct tp_monitor, m);

	pcost_tp_reader_free(t->reader);
	t->reader = NULL;
	if (t->undo >= 0) {
		pcost_cleanup_pop(t->undo, 1);
		t->undo = -1;
		pcost_journal_del("instance", t->inst);
	}
	tracefs_instance_free(t->ti);
	t->ti = NULL;
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
	"tracepoint-syscalls",
	PCOST_MON_ATTACH,
	"raw_syscalls tracepoints enabled through tracefs (a private instance, removed after)",
	NULL,
	NULL,
	pcost_monitor_tracefs_ok,
	tp_new
};
