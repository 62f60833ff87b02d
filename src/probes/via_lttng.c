// SPDX-License-Identifier: MIT
/*
 * probes/via_lttng: LTTng-UST, the userspace tracer without a trap, measured like
 * the uprobe methods.  The workload's lttng build (pcost-lttng.so) has a
 * tracepoint where the others have an SDT probe.  Once per session probecost
 * starts its own lttng-sessiond (LTTNG_HOME in a private temporary directory;
 * as root its sockets are in /var/run/lttng, so none may be running there);
 * around each run it creates a recording session with a blocking channel
 * (the application waits for buffer space instead of discarding, so every
 * event is recorded), enables pcost_stanford:*, starts it, and after the run
 * stops and destroys it, and counts the events of the trace with babeltrace2's
 * sink.utils.counter.  Everything (daemon, traces, temporary directory, a
 * /var/run/lttng it created) is removed by cleanup and by an undo on the
 * cleanup.h stack, and written to the journal (journal.h) so that the next
 * probecost sweeps what a SIGKILL left: what the journal names and we own,
 * never a name found in a world-writable directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/proc.h"
#include "probes/arm.h"
#include "workloads/lttng.h"

#define RUNDIR "/var/run/lttng"
#define CMD_NS (60ull * 1000 * 1000 * 1000)
/*
 * One root session daemon per machine (its sockets are in /var/run/lttng):
 * concurrent probecosts take turns.  The kernel drops the lock when its holder
 * dies, even by SIGKILL.
 */
#define LOCK_FILE "/run/probecost-lttng.lock"
#define LOCK_WAIT_S 600
#define PIDFILE "lttng-sessiond.pid"

struct lttng_state {
	char home[64];	  /* private LTTNG_HOME, "" when not made */
	char env[96];	  /* "LTTNG_HOME=..." */
	char trace[96];	  /* the current run's trace directory */
	char session[48]; /* the current run's recording session, "" when none */
	struct pcost_proc daemon;
	volatile pid_t daemon_pid; /* its process group, 0 when not running */
	bool rundir_ours;	   /* /var/run/lttng did not exist before */
	int lock;		   /* LOCK_FILE, held while our daemon may run; -1 when not */
	unsigned runs;
};

/* Undo: kill the daemon's process group, remove its files.  Signal-safe. */
static void lttng_undo(void *arg)
{
	struct lttng_state *st = arg;
	pid_t pid = st->daemon_pid;

	if (pid > 0) {
		kill(-pid, SIGKILL);
		st->daemon_pid = 0;
	}
	/* The journal is not written from a signal handler: the next sweep finds these gone. */
	if (st->home[0]) {
		pcost_remove_tree(st->home, geteuid());
		if (!pcost_cleanup_in_signal())
			pcost_journal_del("tmpdir", st->home);
		st->home[0] = '\0';
	}
	if (st->rundir_ours) {
		pcost_remove_tree(RUNDIR, geteuid());
		if (!pcost_cleanup_in_signal())
			pcost_journal_del("rundir", RUNDIR);
		st->rundir_ours = false;
	}
	if (st->lock >= 0) {
		close(st->lock);
		st->lock = -1;
	}
}

/* Wait for our turn (LOCK_WAIT_S at most, Ctrl-C ends it). */
static int take_lock(struct lttng_state *st, char *err, size_t len)
{
	st->lock = open(LOCK_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (st->lock < 0) {
		snprintf(err, len, "lttng: cannot open %s: %s", LOCK_FILE, strerror(errno));
		return -errno;
	}
	for (int i = 0; i < LOCK_WAIT_S * 10 && !pcost_interrupted; i++) {
		const struct timespec tick = { 0, 100 * 1000 * 1000 };

		if (!flock(st->lock, LOCK_EX | LOCK_NB))
			return 0;
		nanosleep(&tick, NULL);
	}
	snprintf(err, len, "lttng: another probecost held %s for %d s", LOCK_FILE, LOCK_WAIT_S);
	return pcost_interrupted ? -EINTR : -EBUSY;
}

/* The owner pid of a /tmp/probecost-lttng-PID-XXXXXX name, 0 when it is not one. */
static pid_t home_owner(const char *name)
{
	int pid = 0;

	return sscanf(name, "probecost-lttng-%d-", &pid) == 1 && pid > 0 ? pid : 0;
}

/*
 * The session daemon of /var/run/lttng: -1 none running, 0 someone else's, or
 * the pid of the probecost that started it (LTTNG_HOME=/tmp/probecost-lttng-PID-*
 * in its environment); *dpid gets the daemon's pid.
 */
static pid_t daemon_owner(pid_t *dpid)
{
	char buf[4096], path[64];
	uint64_t pid;
	ssize_t n;
	int fd;

	if (pcost_read_file(RUNDIR "/" PIDFILE, buf, sizeof(buf)) <= 0 ||
	    pcost_parse_u64(buf, 1, INT32_MAX, &pid) || !pcost_process_running((pid_t)pid))
		return -1;
	*dpid = (pid_t)pid;
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (ssize_t off = 0; off < n; off += (ssize_t)strlen(buf + off) + 1)
		if (!strncmp(buf + off, "LTTNG_HOME=/tmp/", 16))
			return home_owner(buf + off + 16);
	return 0;
}

static bool lttng_available(char *why, size_t len)
{
	static const char *const tools[] = { "lttng-sessiond", "babeltrace2" };
	char so[512];

	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		if (!pcost_which(tools[i], NULL, 0)) {
			snprintf(why, len, "'%s' not found on PATH (install Debian package %s)",
				 tools[i], i ? "babeltrace2" : "lttng-tools");
			return false;
		}
	if (!pcost_lttng_so_path(so, sizeof(so), why, len))
		return false;
	if (geteuid() != 0) {
		snprintf(why, len,
			 "run as root: probecost starts a root session daemon of its own");
		return false;
	}
	if (daemon_owner(&(pid_t){ 0 }) == 0) {
		snprintf(why, len,
			 "an lttng-sessiond already runs (%s/" PIDFILE "): the "
			 "lttng method starts its own; stop that one first",
			 RUNDIR);
		return false;
	}
	return true;
}

/* Run `lttng ARGS...` (argv NULL-terminated) as our daemon's client; exit status or -errno. */
static int lttng_cmd(struct lttng_state *st, char *out, size_t len, char *const args[])
{
	char *argv[16] = { "env", st->env, "lttng" };
	struct pcost_proc p;
	size_t n = 3;
	int rc;

	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if ((rc = pcost_proc_start(&p, argv)))
		return rc;
	pcost_proc_stop(&p, 0, CMD_NS);
	if (out)
		snprintf(out, len, "%s", p.buf ? p.buf : "");
	rc = p.status >= 0 && WIFEXITED(p.status) ? WEXITSTATUS(p.status) : -EIO;
	pcost_proc_release(&p);
	return rc;
}

/* Start our lttng-sessiond and wait until its client socket answers (10 s). */
static int start_daemon(struct lttng_state *st, char *err, size_t len)
{
	char *argv[] = { "env", st->env, "lttng-sessiond", "--no-kernel", NULL };
	char *list[] = { "list", NULL };
	int rc;

	/* Made here rather than by the daemon, so that the journal has it (by inode)
	 * before anything can be left in it; the daemon sets its group and modes. */
	if (mkdir(RUNDIR, 0755) == 0) {
		st->rundir_ours = true;
		pcost_journal_rundir(RUNDIR, PIDFILE);
	}
	if ((rc = pcost_proc_start(&st->daemon, argv))) {
		snprintf(err, len, "lttng: cannot start lttng-sessiond: %s", strerror(-rc));
		return rc;
	}
	st->daemon_pid = st->daemon.pid;
	for (int i = 0; i < 200 && !pcost_interrupted; i++) {
		const struct timespec tick = { 0, 50 * 1000 * 1000 };

		if (lttng_cmd(st, NULL, 0, list) == 0)
			return 0;
		nanosleep(&tick, NULL);
	}
	snprintf(err, len, "lttng: lttng-sessiond did not answer 'lttng list' within 10 s");
	return pcost_interrupted ? -EINTR : -ETIMEDOUT;
}

static int lttng_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct lttng_state *st;
	int rc;

	if (a->priv)
		return 0;
	if (!lttng_available(err, len))
		return -ENODEV;
	st = xcalloc(1, sizeof(*st));
	st->lock = -1;
	a->priv = st;
	a->undo = pcost_cleanup_push(lttng_undo, st);
	if ((rc = take_lock(st, err, len)))
		return rc;
	/* Whoever held the lock before may have been killed with its daemon running. */
	pcost_journal_sweep();
	/* The owner's pid in the name tells our daemons from others' (daemon_owner). */
	snprintf(st->home, sizeof(st->home), "/tmp/probecost-lttng-%d-XXXXXX", (int)getpid());
	if (!mkdtemp(st->home)) {
		st->home[0] = '\0';
		snprintf(err, len, "lttng: cannot create a temporary directory: %s",
			 strerror(errno));
		return -errno;
	}
	pcost_journal_add("tmpdir", st->home, NULL);
	snprintf(st->env, sizeof(st->env), "LTTNG_HOME=%s", st->home);
	return start_daemon(st, err, len);
}

/* The application side: our daemon's home, and blocking allowed (no event discarded). */
static int lttng_wrap(struct pcost_monitor *m, struct pcost_launch *l)
{
	struct lttng_state *st = PCOST_PROBE_ARM(m)->priv;

	if (!st)
		return -EINVAL;
	pcost_launch_setenv(l, "LTTNG_HOME", st->home);
	pcost_launch_setenv(l, "LTTNG_UST_ALLOW_BLOCKING", "1");
	return 0;
}

/* Create, set up and start a fresh session writing to its own trace directory. */
static int start_session(struct lttng_state *st, char *err, size_t len)
{
	char out[1024], opt[160];
	char *create[] = { "create", st->session, opt, NULL };
	char *chan[] = { "enable-channel",
			 "--userspace",
			 "--session",
			 st->session,
			 "--subbuf-size=1M",
			 "--num-subbuf=8",
			 "--blocking-timeout=inf",
			 "pcost",
			 NULL };
	char *ev[] = { "enable-event", "--userspace", "--session",	  st->session,
		       "--channel",    "pcost",	      "pcost_stanford:*", NULL };
	char *start[] = { "start", st->session, NULL };
	char *const *steps[] = { create, chan, ev, start };
	int rc = 0;

	snprintf(st->session, sizeof(st->session), "pcost-%d-%u", (int)getpid(), st->runs);
	snprintf(st->trace, sizeof(st->trace), "%s/trace-%u", st->home, st->runs++);
	snprintf(opt, sizeof(opt), "--output=%s", st->trace);
	for (size_t i = 0; i < ARRAY_SIZE(steps) && !rc; i++) {
		rc = lttng_cmd(st, out, sizeof(out), steps[i]);
		if (rc)
			snprintf(err, len, "lttng %s failed (%d): %.*s", steps[i][0], rc,
				 (int)strcspn(out, "\n"), out);
	}
	return rc ? -EIO : 0;
}

static int lttng_start(struct pcost_monitor *m, pcost_ns timeout_ns, char *err, size_t len)
{
	struct lttng_state *st = PCOST_PROBE_ARM(m)->priv;

	return st ? start_session(st, err, len) : -EINVAL;
}

/*
 * Events in the trace: babeltrace2's counter sink prints "N Event messages"
 * (every 10,000 messages and at the end: the last one counts) and
 * "N Discarded event messages" (events the tracer dropped; none while it blocks).
 */
static int64_t count_events(const char *trace, int64_t *discarded)
{
	char *argv[] = { "babeltrace2", (char *)trace, "--component=sink.utils.counter", NULL };
	struct pcost_proc p;
	int64_t n = -1;

	*discarded = 0;
	if (pcost_proc_start(&p, argv))
		return -1;
	pcost_proc_stop(&p, 0, CMD_NS);
	for (const char *l = p.buf; l && *l; l += strcspn(l, "\n"), l += *l == '\n') {
		long long v;
		char w1[16], w2[16];

		if (sscanf(l, " %lld %15s %15s", &v, w1, w2) != 3)
			continue;
		if (!strcmp(w1, "Event") && !strcmp(w2, "messages"))
			n = v;
		else if (!strcmp(w1, "Discarded") && !strcmp(w2, "event"))
			*discarded = v;
	}
	if (p.status != 0)
		n = -1;
	pcost_proc_release(&p);
	return n;
}

static int lttng_stop(struct pcost_monitor *m, struct pcost_run_sample *sample)
{
	struct lttng_state *st = PCOST_PROBE_ARM(m)->priv;
	char *stop[] = { "stop", st ? st->session : NULL, NULL };
	char *destroy[] = { "destroy", st ? st->session : NULL, NULL };
	int64_t lost;

	sample->monitor_events = -1;
	if (!st || !st->session[0])
		return 0;
	/* stop waits until the consumer has written every buffer out. */
	lttng_cmd(st, NULL, 0, stop);
	lttng_cmd(st, NULL, 0, destroy);
	st->session[0] = '\0';
	sample->monitor_events = count_events(st->trace, &lost);
	if (sample->monitor_events < 0)
		snprintf(m->note, sizeof(m->note),
			 "babeltrace2 could not count the trace's events");
	else if (lost > 0)
		snprintf(m->note, sizeof(m->note), "lttng discarded %lld events", (long long)lost);
	pcost_remove_tree(st->trace, geteuid());
	return 0;
}

static void lttng_cleanup(struct pcost_monitor *m)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct lttng_state *st = a->priv;

	if (!st)
		return;
	if (st->daemon_pid > 0) {
		pcost_proc_stop(&st->daemon, SIGTERM, 5ull * 1000 * 1000 * 1000);
		pcost_proc_release(&st->daemon);
		st->daemon_pid = 0;
	}
	lttng_undo(st);
	if (a->undo >= 0)
		pcost_cleanup_pop(a->undo, 0);
	a->undo = -1;
	free(st);
	a->priv = NULL;
}

static const struct pcost_monitor_ops lttng_ops = {
	.kind = PCOST_MON_ATTACH,
	.prepare = lttng_prepare,
	.wrap = lttng_wrap,
	.start = lttng_start,
	.stop = lttng_stop,
	.cleanup = lttng_cleanup,
};

const struct pcost_probe_method pcost_probe_lttng = {
	.name = "lttng",
	.summary = "LTTng-UST tracepoints (the workloads' lttng build), a private session "
		   "daemon, events counted from the trace by babeltrace2",
	.tool = "lttng",
	.package = "lttng-tools",
	.ops = &lttng_ops,
	.available = lttng_available,
};
