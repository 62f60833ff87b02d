// SPDX-License-Identifier: MIT
/*
 * probes/via_ftrace: arm SDT sites as tracefs uprobe events ("p:GROUP/EVENT
 * PATH:0xOFF(0xSEM)" in uprobe_events), enabled in a private trace instance
 * so each hit is recorded into that instance's ring buffer and nobody else's
 * trace is touched.  Hits come from uprobe_profile (per-event hit counts,
 * Documentation/trace/uprobetracer.rst).  The events are registered once and
 * enabled/disabled around each run; everything is removed by cleanup and by
 * an async-signal-safe undo.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/tracefs.h"
#include "probes/arm.h"
#include "probes/sdt.h"

#define EVLEN 64 /* MAX_EVENT_NAME_LEN in kernel/trace/trace.h */

struct ftrace_ev {
	char name[EVLEN];     /* event name, unique to this process */
	char del[EVLEN + 40]; /* "-:GROUP/EVENT": the line that removes it */
	bool registered;
	uint64_t base; /* uprobe_profile count when the run started */
};

struct ftrace_state {
	char uprobe_events[96]; /* TRACEFS/uprobe_events */
	char instance[160];	/* TRACEFS/instances/GROUP */
	char enable[320];	/* TRACEFS/instances/GROUP/events/GROUP/enable */
	char group[32];
	bool have_instance, enabled;
	size_t nev;
	struct ftrace_ev ev[];
};

static bool ftrace_available(char *why, size_t len)
{
	/* Mounted by us as root when it is not (and put back at exit). */
	return pcost_tracefs() || (pcost_tracefs_usable("uprobe_events", true, why, len) &&
				   pcost_tracefs_usable("instances", true, why, len));
}

/*
 * The tracefs file write_str() has open, -1 when none: an open file of an
 * instance makes its rmdir fail with EBUSY, so an undo run from a signal
 * handler that interrupted a write closes it first.
 */
static volatile int open_fd = -1;

/* Write a whole short string to a file; async-signal-safe. */
static int write_str(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	ssize_t n, want = (ssize_t)strlen(s);
	int e = 0;

	if (fd < 0)
		return -errno;
	open_fd = fd;
	n = write(fd, s, (size_t)want);
	if (n != want)
		e = n < 0 ? errno : EIO;
	open_fd = -1;
	if (close(fd) && !e)
		e = errno;
	return -e;
}

/* Undo: disable, drop the instance, remove the events.  Signal-safe. */
static void ftrace_undo(void *arg)
{
	struct ftrace_state *st = arg;
	int fd = open_fd;

	if (fd >= 0) {
		open_fd = -1;
		close(fd);
	}
	if (st->enabled) {
		write_str(st->enable, "0", O_TRUNC);
		st->enabled = false;
	}
	if (st->have_instance) {
		rmdir(st->instance);
		st->have_instance = false;
	}
	for (size_t i = 0; i < st->nev; i++) {
		if (st->ev[i].registered) {
			write_str(st->uprobe_events, st->ev[i].del, O_APPEND);
			st->ev[i].registered = false;
		}
	}
}

/* Write down (or strike out) one event for the sweep after a SIGKILL. */
static void journal_event(const struct ftrace_state *st, const struct ftrace_ev *e,
			  const char *path, bool add)
{
	char name[EVLEN + 40], dir[96];

	snprintf(name, sizeof(name), "%s/%s", st->group, e->name);
	snprintf(dir, sizeof(dir), "%.*s",
		 (int)(strlen(st->uprobe_events) - strlen("/uprobe_events")), st->uprobe_events);
	pcost_journal_uprobe(dir, name, path, add);
}

static int ftrace_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	static unsigned serial;
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	const char *t;
	struct ftrace_state *st;
	int rc;

	if (a->priv)
		return 0;
	if ((rc = pcost_probe_tracefs_need(&t, ftrace_available, err, len)) < 0)
		return rc;
	st = xcalloc(1, sizeof(*st) + a->nsites * sizeof(st->ev[0]));
	a->priv = st;
	/* One group and instance per monitor: a session arms several builds at once. */
	snprintf(st->group, sizeof(st->group), "pcost_%d_%u", (int)getpid(), serial++);
	snprintf(st->uprobe_events, sizeof(st->uprobe_events), "%s/uprobe_events", t);
	snprintf(st->instance, sizeof(st->instance), "%s/instances/%s", t, st->group);
	snprintf(st->enable, sizeof(st->enable), "%s/events/%s/enable", st->instance, st->group);
	st->nev = a->nsites;
	/* On the stack before anything is written, so a failure halfway is undone too. */
	a->undo = pcost_cleanup_push(ftrace_undo, st);
	if (a->undo < 0) {
		snprintf(err, len, "ftrace: cleanup stack full");
		return -ENOSPC;
	}
	for (size_t i = 0; i < a->nsites; i++) {
		const struct pcost_probe_site *s = &a->sites[i];
		struct ftrace_ev *e = &st->ev[i];
		char line[512];

		/* Names were checked to be C identifiers and the path by pcost_sdt_path_ok. */
		snprintf(e->name, sizeof(e->name), "%.16s_%zu_%.24s", st->group, i, s->name);
		snprintf(e->del, sizeof(e->del), "-:%s/%s\n", st->group, e->name);
		if (s->sem_offset)
			snprintf(line, sizeof(line), "%c:%s/%s %s:0x%llx(0x%llx)\n",
				 s->retprobe ? 'r' : 'p', st->group, e->name, a->path,
				 (unsigned long long)s->pc_offset,
				 (unsigned long long)s->sem_offset);
		else
			snprintf(line, sizeof(line), "%c:%s/%s %s:0x%llx\n",
				 s->retprobe ? 'r' : 'p', st->group, e->name, a->path,
				 (unsigned long long)s->pc_offset);
		e->registered = true; /* a failed write leaves nothing; removing then is harmless */
		journal_event(st, e, a->path, true);
		rc = write_str(st->uprobe_events, line, O_APPEND);
		if (rc) {
			e->registered = false;
			snprintf(err, len,
				 "ftrace: writing '%.*s' to %s failed: %s (see %s/error_log)",
				 (int)strcspn(line, "\n"), line, st->uprobe_events, strerror(-rc),
				 t);
			return rc;
		}
	}
	/* Flag first: a signal between mkdir and the flag must still remove it. */
	st->have_instance = true;
	pcost_journal_add("instance", st->instance, NULL);
	if (mkdir(st->instance, 0700)) {
		rc = -errno;
		st->have_instance = false;
		snprintf(err, len, "ftrace: cannot create trace instance %s: %s", st->instance,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

/* Hits of each of our events so far, from uprobe_profile ("  PATH EVENT NHITS"). */
static int read_profile(struct ftrace_state *st, uint64_t *hits)
{
	char path[128], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%.*s/uprobe_profile",
		 (int)(strlen(st->uprobe_events) - strlen("/uprobe_events")), st->uprobe_events);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	for (size_t i = 0; i < st->nev; i++)
		hits[i] = UINT64_MAX;
	while (fgets(line, sizeof(line), f)) {
		char file[512], ev[128];
		unsigned long long n;

		if (sscanf(line, "%511s %127s %llu", file, ev, &n) != 3)
			continue;
		for (size_t i = 0; i < st->nev; i++)
			if (!strcmp(ev, st->ev[i].name))
				hits[i] = n;
	}
	fclose(f);
	for (size_t i = 0; i < st->nev; i++)
		if (hits[i] == UINT64_MAX)
			return -ENOENT;
	return 0;
}

static int ftrace_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct ftrace_state *st = a->priv;
	uint64_t *hits;
	int rc;

	if (!st || !st->have_instance) {
		snprintf(err, len, "ftrace: not prepared");
		return -EINVAL;
	}
	hits = xcalloc(st->nev ? st->nev : 1, sizeof(*hits));
	rc = read_profile(st, hits);
	for (size_t i = 0; !rc && i < st->nev; i++)
		st->ev[i].base = hits[i];
	free(hits);
	if (rc) {
		snprintf(err, len, "ftrace: cannot read uprobe_profile: %s", strerror(-rc));
		return rc;
	}
	st->enabled = true;
	rc = write_str(st->enable, "1", O_TRUNC);
	if (rc) {
		st->enabled = false;
		snprintf(err, len, "ftrace: enabling %s failed: %s", st->enable, strerror(-rc));
	}
	return rc;
}

static int ftrace_stop(struct pcost_monitor *m, struct pcost_run_sample *sample)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct ftrace_state *st = a->priv;
	uint64_t *hits;
	int64_t total = 0;

	if (!st || !st->enabled)
		return 0;
	write_str(st->enable, "0", O_TRUNC);
	st->enabled = false;
	hits = xcalloc(st->nev ? st->nev : 1, sizeof(*hits));
	if (read_profile(st, hits)) {
		sample->monitor_events = -1;
		snprintf(m->note, sizeof(m->note), "ftrace: cannot read uprobe_profile");
	} else {
		for (size_t i = 0; i < st->nev; i++)
			total += (int64_t)(hits[i] - st->ev[i].base);

		sample->monitor_events = total;
	}
	free(hits);
	return 0;
}

static void ftrace_cleanup(struct pcost_monitor *m)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct ftrace_state *st = a->priv;

	if (st) {
		bool had_instance = st->have_instance;

		ftrace_undo(st);
		if (had_instance)
			pcost_journal_del("instance", st->instance);
		for (size_t i = 0; i < st->nev; i++)
			journal_event(st, &st->ev[i], a->path, false);
	}
	if (a->undo >= 0)
		pcost_cleanup_pop(a->undo, 0);
	a->undo = -1;
	free(a->priv);
	a->priv = NULL;
}

/*
 * Events and instances left by a probecost that was killed outright (SIGKILL,
 * a crash: no undo could run): groups pcost_PID_* whose PID is gone.
 */
int pcost_probe_ftrace_reap_stale(void)
{
	const char *t = pcost_tracefs();
	char path[128], line[1024];
	int removed = 0;
	FILE *f;

	if (!t)
		return 0;
	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char group[64], event[64], inst[256], del[160], c;
		int pid;

		/* pcost_PID_N (ftrace) and pcost_PID_pp (perf-probe function probes). */
		if (sscanf(line, "%*1[pr]:%63[A-Za-z0-9_]/%63[A-Za-z0-9_] ", group, event) != 2 ||
		    sscanf(group, "pcost_%d_%c", &pid, &c) != 2 || pid <= 0 || !kill(pid, 0) ||
		    errno != ESRCH)
			continue;
		snprintf(inst, sizeof(inst), "%s/instances/%s", t, group);
		snprintf(path, sizeof(path), "%s/events/%s/enable", inst, group);
		write_str(path, "0", O_TRUNC);
		rmdir(inst);
		snprintf(path, sizeof(path), "%s/uprobe_events", t);
		snprintf(del, sizeof(del), "-:%s/%s\n", group, event);
		if (!write_str(path, del, O_APPEND))
			removed++;
	}
	fclose(f);
	return removed + pcost_tracefs_reap_dead_instances();
}

static const struct pcost_monitor_ops ftrace_ops = {
	.kind = PCOST_MON_ATTACH,
	.prepare = ftrace_prepare,
	.start = ftrace_start,
	.stop = ftrace_stop,
	.cleanup = ftrace_cleanup,
};

const struct pcost_probe_method pcost_probe_ftrace = {
	.name = "ftrace",
	.summary = "tracefs uprobe event recording into a private trace instance's ring buffer",
	.ops = &ftrace_ops,
	.available = ftrace_available,
};
