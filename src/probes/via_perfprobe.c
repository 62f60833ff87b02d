// SPDX-License-Identifier: MIT
/*
 * probes/via_perfprobe: `perf probe -x BIN -a sdt_PROV:NAME` defines uprobe
 * events (perf resolves the SDT note and its semaphore itself), then each run
 * is wrapped in `perf stat -x, -e sdt_PROV:NAME ...`, whose count is the
 * method's hits.  The definitions live in tracefs uprobe_events: we remove
 * exactly the ones perf reported adding, by writing "-:GROUP/EVENT" there
 * (what `perf probe -d` does, but async-signal-safe), and never touch an
 * existing definition: when NAME is taken (a user's, another probecost's),
 * `perf probe -f` adds NAME_1 and that is the one we use and remove.
 *
 * Ownership after a SIGKILL: perf 6.1 cannot rename an SDT event (it refuses
 * GROUP:EVENT=%sdt_PROV:NAME), so an SDT definition's name cannot say whose it
 * is; the journal does.  Before perf probe runs, every name it may add is
 * written down (the first free NAME, NAME_1, ... as perf picks them), and so is
 * the build-id cache entry we add for it: the next probecost's sweep removes
 * exactly those, on this binary, and no one else's.  Function probes, whose
 * names we choose, carry the owner's PID in their group (pcost_PID_pp), which
 * pcost_probe_ftrace_reap_stale() removes once that process is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/proc.h"
#include "core/journal.h"
#include "core/tracefs.h"
#include "probes/arm.h"

#define MAX_EVENTS 64
#define PENDING 8	    /* names written down before perf probe may add them */
#define PERF_MAX_INDEX 1024 /* perf's suffixes for duplicates: NAME_1 .. NAME_1023 */

struct pp_state {
	char uprobe_events[96];
	char dir[PATH_MAX];	 /* private 0700 directory, "" when none */
	char tmp[PATH_MAX + 16]; /* dir/stat.csv: perf stat -o file, "" when none */
	const char *path;	 /* the binary probed */
	size_t nev;
	char ev[MAX_EVENTS][128];  /* "GROUP:EVENT" as perf names them */
	char del[MAX_EVENTS][140]; /* "-:GROUP/EVENT\n" */
	/*
	 * While `perf probe` runs: its pid and the names it may be adding
	 * (NAME, NAME_1, ... that did not exist before), so that an undo from a
	 * second Ctrl-C can wait for it to die and remove what it wrote.
	 */
	volatile pid_t pending_pid;
	volatile sig_atomic_t pending; /* from before perf probe until its events are collected */
	size_t npending;
	char pending_del[PENDING][140];
	bool cache_added;	   /* we put the binary in perf's build-id cache (SDT events) */
	char cache_link[PATH_MAX]; /* its ~/.debug/.build-id/xx/yyy link (journaled) */
};

static bool pp_available(char *why, size_t len)
{
	/* Mounted by us as root when it is not (perf would mount it and leave it). */
	return pcost_tracefs() || pcost_tracefs_usable("uprobe_events", true, why, len);
}

/* The sweep's record of a definition "-:GROUP/EVENT\n" (del line) on st->path. */
static void journal_def(const struct pp_state *st, const char *del, bool add)
{
	char name[140], dir[96];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(del + 2, "\n"), del + 2);
	snprintf(dir, sizeof(dir), "%.*s",
		 (int)(strlen(st->uprobe_events) - strlen("/uprobe_events")), st->uprobe_events);
	pcost_journal_uprobe(dir, name, st->path, add);
}

/*
 * Remove one definition.  EBUSY while a perf stat that uses it is still dying
 * (Ctrl-C killed it a moment ago): retry for up to 2 s.  Signal-safe.
 */
static void write_del(const char *path, const char *line)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };

	for (int tries = 0; tries < 200; tries++) {
		int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC), e;
		ssize_t n;

		if (fd < 0)
			return;
		n = write(fd, line, strlen(line));
		e = errno;
		close(fd);
		if (n >= 0 || e != EBUSY)
			return;
		nanosleep(&tick, NULL);
	}
}

static void pp_undo(void *arg)
{
	struct pp_state *st = arg;
	pid_t pid = st->pending_pid;

	if (st->pending) {
		/* cleanup.h killed its group already; wait until its writes are done. */
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			st->pending_pid = 0;
		}
		for (size_t i = 0; i < st->npending; i++)
			write_del(st->uprobe_events, st->pending_del[i]);
		st->npending = 0;
		st->pending = 0;
	}
	for (size_t i = 0; i < st->nev; i++) {
		if (st->del[i][0]) {
			write_del(st->uprobe_events, st->del[i]);
			st->del[i][0] = '\0';
		}
	}
	st->nev = 0;
	/* A second Ctrl-C cannot run perf to uncache: the next sweep removes the entry. */
	if (st->cache_added && pcost_cleanup_in_signal())
		pcost_journal_keep();
	if (st->tmp[0]) {
		unlink(st->tmp);
		rmdir(st->dir);
		st->tmp[0] = '\0';
	}
}

/*
 * Run argv to completion, its stdout+stderr into out; the exit status or
 * -errno.  *pidp holds its pid while it runs.
 */
static int run_capture(char *const argv[], char *out, size_t len, volatile pid_t *pidp)
{
	return pcost_proc_run(argv, PCOST_PROC_MERGE, 0, pidp, out, len);
}

/* Is GROUP/EVENT defined in the uprobe_events text events? */
static bool defined_in(const char *events, const char *group, const char *event)
{
	char want[200];

	snprintf(want, sizeof(want), ":%s/%s ", group, event);
	return strstr(events, want) != NULL;
}

/* The whole of uprobe_events (malloc'd, "" when unreadable). */
static char *slurp_events(const char *uprobe_events)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	FILE *f = fopen(uprobe_events, "re");

	if (f) {
		size_t r;

		while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
			n += r;
			if (cap - n - 1 == 0)
				buf = xrealloc(buf, cap *= 2);
		}
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/*
 * The events of group that are in uprobe_events now and were not in before:
 * what perf probe added, found even when it was killed (Ctrl-C) before
 * printing their names.
 */
static void collect_added(struct pp_state *st, const char *before, const char *group)
{
	char *now = slurp_events(st->uprobe_events), *save = NULL;
	char prefix[96];

	snprintf(prefix, sizeof(prefix), ":%s/", group);
	for (char *l = strtok_r(now, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *p = strstr(l, prefix), *ev, *sp;
		const char *b;
		bool old = false;

		if (!p || p - l != 1 || (l[0] != 'p' && l[0] != 'r'))
			continue;
		/* Was this exact line there before? */
		for (b = strstr(before, l); b && !old; b = strstr(b + 1, l))
			old = (b == before || b[-1] == '\n') &&
			      (b[strlen(l)] == '\n' || !b[strlen(l)]);
		if (old || st->nev >= MAX_EVENTS)
			continue;
		ev = p + strlen(prefix);
		sp = strchr(ev, ' ');
		if (sp)
			*sp = '\0';
		snprintf(st->ev[st->nev], sizeof(st->ev[0]), "%s:%s", group, ev);
		snprintf(st->del[st->nev], sizeof(st->del[0]), "-:%s/%s\n", group, ev);
		st->nev++;
	}
	free(now);
}

/*
 * perf 6.1 finds an SDT event (sdt_PROV:NAME) only in its build-id cache
 * (~/.debug), which `perf record` fills as a side effect: put the binary there
 * for the session when it is not, and take it out again at the end.
 */
static int cache_sdt(struct pp_state *st, char *err, size_t len)
{
	char out[512], id[64] = "", entry[PATH_MAX];
	char *list[] = { "perf", "buildid-list", "-i", (char *)st->path, NULL };
	char *add[] = { "perf", "buildid-cache", "--add", (char *)st->path, NULL };
	const char *home = getenv("HOME");

	if (run_capture(list, out, sizeof(out), &st->pending_pid) != 0 ||
	    sscanf(out, "%63[0-9a-f]", id) != 1 || strlen(id) < 3) {
		snprintf(err, len, "perf-probe: 'perf buildid-list -i %s' gave no build id",
			 st->path);
		return -EIO;
	}
	snprintf(entry, sizeof(entry), "%s/.debug/.build-id/%.2s/%s", home ? home : "/root", id,
		 id + 2);
	if (!access(entry, F_OK))
		return 0;
	/* Written down first: a SIGKILL while perf adds it leaves it to the next sweep. */
	snprintf(st->cache_link, sizeof(st->cache_link), "%s", entry);
	pcost_journal_add("buildid", st->cache_link, NULL);
	if (run_capture(add, out, sizeof(out), &st->pending_pid) != 0) {
		snprintf(err, len, "perf-probe: 'perf buildid-cache --add %s' failed: %.*s",
			 st->path, (int)strcspn(out, "\n"), out);
		pcost_journal_del("buildid", st->cache_link);
		return -EIO;
	}
	st->cache_added = true;
	return 0;
}

/* Take the binary out of perf's cache again if we put it there (not from a signal). */
static void uncache_sdt(struct pp_state *st)
{
	char out[256], *rm[] = { "perf", "buildid-cache", "--remove", (char *)st->path, NULL };

	if (!st->cache_added || pcost_cleanup_in_signal())
		return;
	run_capture(rm, out, sizeof(out), &st->pending_pid);
	pcost_journal_del("buildid", st->cache_link);
	st->cache_added = false;
}

/*
 * The state of an arming: the undo pushed first, perf stat's output in a
 * private 0700 directory (no name another user can plant).  0 or -errno.
 */
static int pp_state_new(struct pcost_probe_arm *a, const char *tracefs, char *err, size_t len)
{
	struct pp_state *st = xcalloc(1, sizeof(*st));
	int fd, rc;

	a->priv = st;
	st->path = a->path;
	snprintf(st->uprobe_events, sizeof(st->uprobe_events), "%s/uprobe_events", tracefs);
	a->undo = pcost_cleanup_push(pp_undo, st);
	if ((rc = pcost_private_dir_make(st->dir, sizeof(st->dir), err, len)) < 0)
		return rc;
	snprintf(st->tmp, sizeof(st->tmp), "%s/stat.csv", st->dir);
	fd = open(st->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		st->tmp[0] = '\0';
		snprintf(err, len, "perf-probe: cannot create a temporary file: %s", strerror(-rc));
		return rc;
	}
	close(fd);
	return 0;
}

/* perf probe's group and PROBEDEF for a site. */
static void pp_spec(const struct pcost_probe_site *s, char *group, size_t glen, char *spec,
		    size_t slen)
{
	if (s->symbol[0]) {
		/*
		 * A function: GROUP:NAME=SYMBOL%return, or =ADDRESS for an entry
		 * probe (perf 6.1 looks a function entry up in the debuginfo, which
		 * an assembly function lacks: "Probe point not found").  GROUP
		 * names this process: ours alone, swept by PID once we are gone.
		 */
		snprintf(group, glen, "pcost_%d_pp", (int)getpid());
		if (s->retprobe)
			snprintf(spec, slen, "%s:%s=%s%%return", group, s->name, s->symbol);
		else
			snprintf(spec, slen, "%s:%s=0x%llx", group, s->name,
				 (unsigned long long)s->vaddr);
	} else {
		snprintf(group, glen, "sdt_%s", s->provider);
		snprintf(spec, slen, "%s:%s", group, s->name);
	}
}

/*
 * Write down the names perf probe may add for NAME before it runs: perf -f
 * takes the first free of NAME, NAME_1, NAME_2, ... for each of the sites
 * sharing NAME; a few more cover other tracers taking free names meanwhile.
 */
static void pp_pending_begin(struct pp_state *st, const char *events, const char *group,
			     const char *name, size_t sites)
{
	size_t want = sites + 3 < PENDING ? sites + 3 : PENDING;

	st->npending = 0;
	for (int k = 0; k < PERF_MAX_INDEX && st->npending < want; k++) {
		char ev[100];

		if (k)
			snprintf(ev, sizeof(ev), "%s_%d", name, k);
		else
			snprintf(ev, sizeof(ev), "%s", name);
		if (!defined_in(events, group, ev))
			snprintf(st->pending_del[st->npending++], sizeof(st->pending_del[0]),
				 "-:%s/%s\n", group, ev);
	}
	for (size_t k = 0; k < st->npending; k++)
		journal_def(st, st->pending_del[k], true);
	st->pending = 1;
}

/* Define the events of a site (and its namesakes) with perf probe; 0 or -errno with err set. */
static int pp_define(struct pp_state *st, const struct pcost_probe_site *s, size_t sites, char *err,
		     size_t len)
{
	char group[80], spec[160], out[4096], *before;
	/*
	 * -f: add NAME_1 when NAME exists (perf 6.1 even refuses a name that
	 * exists in *another* SDT group); we find what it added by diffing.
	 */
	char *argv[] = { "perf", "probe", "-f", "-x", (char *)st->path, "-a", spec, NULL };
	size_t had = st->nev;
	int rc;

	pp_spec(s, group, sizeof(group), spec, sizeof(spec));
	before = slurp_events(st->uprobe_events);
	pp_pending_begin(st, before, group, s->name, sites);
	rc = run_capture(argv, out, sizeof(out), &st->pending_pid);
	collect_added(st, before, group);
	st->pending = 0;
	for (size_t k = had; k < st->nev; k++)
		journal_def(st, st->del[k], true);
	for (size_t k = 0; k < st->npending; k++)
		journal_def(st, st->pending_del[k], false);
	st->npending = 0;
	free(before);
	if (rc != 0) {
		snprintf(err, len, "perf-probe: 'perf probe -x %s -a %s' failed (exit %d)",
			 st->path, spec, rc);
		return -EIO;
	}
	return 0;
}

/* How many of a's sites share site i's provider and name (perf defines them all at once). */
static size_t namesakes(const struct pcost_probe_arm *a, size_t i)
{
	size_t n = 0;

	for (size_t j = 0; j < a->nsites; j++)
		n += !strcmp(a->sites[j].provider, a->sites[i].provider) &&
		     !strcmp(a->sites[j].name, a->sites[i].name);
	return n;
}

static int pp_prepare(struct pcost_monitor *m, char *err, size_t len)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	const char *t;
	size_t first[MAX_EVENTS], nd;
	struct pp_state *st;
	int rc;

	if (a->priv)
		return 0;
	if ((rc = pcost_probe_tracefs_need(&t, pp_available, err, len)) < 0)
		return rc;
	if ((rc = pp_state_new(a, t, err, len)) < 0)
		return rc;
	st = a->priv;
	nd = pcost_probe_arm_distinct(a, first, MAX_EVENTS);
	/* SDT events need the binary in perf's build-id cache. */
	if (nd && !a->sites[first[0]].symbol[0] && (rc = cache_sdt(st, err, len)) < 0)
		return rc;
	for (size_t i = 0; i < nd; i++) {
		if (pcost_interrupted)
			return -EINTR;
		if ((rc = pp_define(st, &a->sites[first[i]], namesakes(a, first[i]), err, len)) < 0)
			return rc;
	}
	if (!st->nev) {
		snprintf(err, len, "perf-probe: perf probe added no event");
		return -EIO;
	}
	return 0;
}

static int pp_wrap(struct pcost_monitor *m, struct pcost_launch *l)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct pp_state *st = a->priv;
	char *words[8 + 2 * MAX_EVENTS];
	size_t n = 0;

	if (!st)
		return -EINVAL;
	words[n++] = "perf";
	words[n++] = "stat";
	words[n++] = "--no-big-num";
	words[n++] = "-x,";
	words[n++] = "-o";
	words[n++] = st->tmp;
	for (size_t i = 0; i < st->nev; i++) {
		words[n++] = "-e";
		words[n++] = st->ev[i];
	}
	words[n++] = "--";
	pcost_launch_insert(l, 0, words, n);
	return 0;
}

static int pp_stop(struct pcost_monitor *m, struct pcost_run_sample *sample)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);
	struct pp_state *st = a->priv;
	char line[512];
	size_t seen = 0;
	int64_t total = 0;
	FILE *f;

	sample->monitor_events = -1;
	if (!st || !(f = fopen(st->tmp, "re")))
		return 0;
	/* CSV: "count,unit,event,run time,percent,..."; "<not counted>" when it could not. */
	while (fgets(line, sizeof(line), f)) {
		char *rest = line, *count = strsep(&rest, ","), *ev, *end;
		long long v;

		strsep(&rest, ","); /* unit, empty for tracepoints */
		ev = strsep(&rest, ",");
		if (!ev || line[0] == '#')
			continue;
		for (size_t i = 0; i < st->nev; i++) {
			if (strcmp(ev, st->ev[i]))
				continue;
			v = strtoll(count, &end, 10);
			if (end != count && *end == '\0') {
				total += v;
				seen++;
			}
		}
	}
	fclose(f);
	if (seen == st->nev)
		sample->monitor_events = total;
	else
		snprintf(m->note, sizeof(m->note), "perf stat counted %zu of %zu events", seen,
			 st->nev);
	/* Empty it so a run where perf stat did not write is not read twice. */
	truncate(st->tmp, 0);
	return 0;
}

static void pp_cleanup(struct pcost_monitor *m)
{
	struct pcost_probe_arm *a = PCOST_PROBE_ARM(m);

	struct pp_state *st = a->priv;

	if (st) {
		char del[MAX_EVENTS][140];
		size_t n = st->nev;

		memcpy(del, st->del, sizeof(del));
		pp_undo(st);
		uncache_sdt(st);
		for (size_t i = 0; i < n; i++)
			journal_def(st, del[i], false);
		pcost_private_dir_remove(st->dir);
	}
	if (a->undo >= 0)
		pcost_cleanup_pop(a->undo, 0);
	a->undo = -1;
	free(a->priv);
	a->priv = NULL;
}

static const struct pcost_monitor_ops pp_ops = {
	.kind = PCOST_MON_WRAP,
	.prepare = pp_prepare,
	.wrap = pp_wrap,
	.stop = pp_stop,
	.cleanup = pp_cleanup,
};

const struct pcost_probe_method pcost_probe_perf_probe = {
	.name = "perf-probe",
	.summary = "perf probe -x BIN sdt_PROV:NAME definitions, counted by perf stat -e",
	.tool = "perf",
	.package = "linux-perf",
	.ops = &pp_ops,
	.available = pp_available,
};
