// SPDX-License-Identifier: MIT
/*
 * run/count: a command's events for the cost model, from perf stat in counting
 * mode over untimed runs; the mean and the standard error of each kind.
 */
#include "run/count.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/proc.h"
#include "core/tracefs.h"
#include "core/util.h"
#include "stats/stats.h"

#define MAX_RUNS 64
#define MAX_NAMES 32
#define NV (PCOST_CNT_N + MAX_NAMES)

/* The perf event of each kind, in the order given to -e. */
static const char *const perf_events[PCOST_CNT_N] = {
	[PCOST_CNT_SYSCALLS] = "raw_syscalls:sys_enter",
	[PCOST_CNT_CSWITCHES] = "context-switches",
	[PCOST_CNT_FAULTS] = "page-faults",
	[PCOST_CNT_TASKS] = "sched:sched_process_fork",
	[PCOST_CNT_EXECS] = "sched:sched_process_exec",
	[PCOST_CNT_TASK_CLOCK_NS] = "task-clock",
};

struct tmp_out {
	char dir[PATH_MAX], out[PATH_MAX + 8];
};

/* Undo (async-signal-safe): perf's output file and its private directory. */
static void undo_tmp(void *arg)
{
	struct tmp_out *t = arg;

	unlink(t->out);
	rmdir(t->dir);
}

/*
 * perf stat -x, lines: "VALUE,UNIT,EVENT,RUNTIME,PCT,...".  task-clock is in
 * msec; a value "<not counted>" or "<not supported>" leaves the kind NaN with
 * that reason.
 */
static void parse_perf(const char *text, const struct pcost_count_opts *o, double *v,
		       char (*why)[160])
{
	const char *line = text, *nl;

	for (size_t k = 0; k < PCOST_CNT_N + o->nnames; k++)
		v[k] = NAN;
	for (int k = 0; k < PCOST_CNT_N; k++)
		snprintf(why[k], sizeof(why[k]), "perf stat printed no %s", perf_events[k]);
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		char one[512], *f[4] = { 0 }, *save = NULL, *p;
		int nf = 0;

		nl = strchr(line, '\n');
		snprintf(one, sizeof(one), "%.*s", (int)(nl ? nl - line : (long)strlen(line)),
			 line);
		if (one[0] == '#' || !one[0])
			continue;
		/* strtok_r would merge empty fields (an empty unit): split by hand. */
		for (p = one, save = one; nf < 4; p++) {
			if (*p == ',' || !*p) {
				bool end = !*p;

				*p = 0;
				f[nf++] = save;
				save = p + 1;
				if (end)
					break;
			}
		}
		if (nf < 3)
			continue;
		for (size_t i = 0; i < o->nnames; i++)
			if (!strncmp(f[2], "syscalls:sys_enter_", 19) &&
			    !strcmp(f[2] + 19, o->names[i]))
				v[PCOST_CNT_N + i] = f[0][0] == '<' ? NAN : strtod(f[0], NULL);
		for (int k = 0; k < PCOST_CNT_N; k++) {
			if (strcmp(f[2], perf_events[k]))
				continue;
			if (f[0][0] == '<') {
				snprintf(why[k], sizeof(why[k]), "perf stat: %s %s", perf_events[k],
					 f[0]);
			} else {
				v[k] = strtod(f[0], NULL);
				if (k == PCOST_CNT_TASK_CLOCK_NS)
					v[k] *= !strcmp(f[1], "msec") ? 1e6 : 1;
				why[k][0] = 0;
			}
		}
	}
}

static void counts_init(struct pcost_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int k = 0; k < PCOST_CNT_N; k++)
		c->n[k] = c->se[k] = NAN;
	c->base_ns = c->base_se = c->base_df = NAN;
	snprintf(c->by_nr_why, sizeof(c->by_nr_why), "perf stat counted no syscall by name");
}

/* One counting run into v[]; 0, -ECHILD (the command failed) or -errno, err set. */
static int count_once(char *const *argv, const char *out, const struct pcost_count_opts *o,
		      double *v, char (*why)[160], char *err, size_t len)
{
	static char buf[1 << 16];
	char events[2048] = "", *text;
	size_t na = 0, nw = 0;
	char **pv;
	int rc;

	for (int k = 0; k < PCOST_CNT_N; k++)
		snprintf(events + strlen(events), sizeof(events) - strlen(events), "%s%s",
			 k ? "," : "", perf_events[k]);
	for (size_t i = 0; i < o->nnames; i++)
		snprintf(events + strlen(events), sizeof(events) - strlen(events),
			 ",syscalls:sys_enter_%s", o->names[i]);
	while (argv[na])
		na++;
	pv = xcalloc(na + 10, sizeof(*pv));
	pv[nw++] = "perf";
	pv[nw++] = "stat";
	pv[nw++] = "-x,";
	pv[nw++] = "-o";
	pv[nw++] = (char *)out;
	pv[nw++] = "-e";
	pv[nw++] = events;
	pv[nw++] = "--";
	for (size_t i = 0; i < na; i++)
		pv[nw++] = argv[i];
	/* The command's output is not read (as the runner's runs): only its errors. */
	rc = pcost_proc_run(pv, PCOST_PROC_NULL_OUT,
			    o->timeout_s > 0 ? (pcost_ns)(o->timeout_s * 1e9) : 0, NULL, buf,
			    sizeof(buf));
	free(pv);
	if (rc == -ETIMEDOUT) {
		snprintf(err, len, "'%s' ran past --timeout %g s", argv[0], o->timeout_s);
		return rc;
	}
	if (rc < 0) {
		snprintf(err, len, "could not run perf stat to count '%s': %s (install linux-perf)",
			 argv[0], strerror(-rc));
		return rc;
	}
	if (rc) {
		/*
		 * perf stat exits with the command's status (mostly: perf 6.1 exits 0
		 * for about one failing command in ten; the plain runs that follow
		 * catch those); the last line is the command's error.
		 */
		char *last = buf + strlen(buf);

		while (last > buf && last[-1] == '\n')
			*--last = 0;
		last = strrchr(buf, '\n');
		snprintf(err, len, "'%s' failed: %s %d%s%s", argv[0],
			 rc > 128 ? "killed by signal" : "exit", rc > 128 ? rc - 128 : rc,
			 buf[0] ? ": " : "", last ? last + 1 : buf);
		return -ECHILD;
	}
	text = NULL;
	{
		FILE *f = fopen(out, "r");
		size_t n = 0;

		if (f) {
			if (getdelim(&text, &n, 0, f) < 0) {
				free(text);
				text = NULL;
			}
			fclose(f);
		}
	}
	if (!text) {
		snprintf(err, len, "perf stat wrote no counts: %s", buf);
		return -EIO;
	}
	parse_perf(text, o, v, why);
	free(text);
	return 0;
}

/* Every name asked has a syscalls:sys_enter_NAME tracepoint here: true, else false and why. */
static bool names_ok(const struct pcost_count_opts *o, struct pcost_counts *c)
{
	for (size_t i = 0; i < o->nnames; i++) {
		char file[96];

		if (strspn(o->names[i], "abcdefghijklmnopqrstuvwxyz0123456789_") !=
			    strlen(o->names[i]) ||
		    strlen(o->names[i]) >= sizeof(c->by_nr[0].name)) {
			snprintf(c->by_nr_why, sizeof(c->by_nr_why), "'%s' is not a syscall name",
				 o->names[i]);
			return false;
		}
		snprintf(file, sizeof(file), "events/syscalls/sys_enter_%s/id", o->names[i]);
		if (!pcost_tracefs_usable(file, false, c->by_nr_why, sizeof(c->by_nr_why)))
			return false;
	}
	return true;
}

int pcost_count_command(char *const *argv, const struct pcost_count_opts *o, struct pcost_counts *c,
			char *err, size_t len)
{
	unsigned runs = o->runs < 1 ? 1 : o->runs > MAX_RUNS ? MAX_RUNS : o->runs;
	double v[MAX_RUNS][NV];
	struct tmp_out tmp;
	cpu_set_t saved;
	size_t named = 0;
	bool names;
	int undo, rc = 0;

	counts_init(c);
	if (o->nnames > MAX_NAMES) {
		snprintf(err, len, "at most %d syscalls are counted by name", MAX_NAMES);
		return -E2BIG;
	}
	if ((rc = pcost_tracefs_mount(err, len)) < 0)
		return rc;
	names = names_ok(o, c);
	if ((rc = pcost_private_dir_make(tmp.dir, sizeof(tmp.dir), err, len)) < 0)
		return rc;
	snprintf(tmp.out, sizeof(tmp.out), "%s/counts", tmp.dir);
	undo = pcost_cleanup_push(undo_tmp, &tmp);
	/* Pin probecost while it starts the command: the command inherits the mask. */
	sched_getaffinity(0, sizeof(saved), &saved);
	if (o->cpu_mask && (rc = pcost_pin_mask(o->cpu_mask)) < 0)
		snprintf(err, len, "could not pin to the CPUs asked: %s", strerror(-rc));
	/* A name without a tracepoint: none by name (by_nr_why says why), the rest counted. */
	{
		struct pcost_count_opts o2 = *o;

		o2.nnames = names ? o->nnames : 0;
		for (unsigned r = 0; r < runs && !rc && !pcost_interrupted; r++)
			rc = count_once(argv, tmp.out, &o2, v[r], c->why, err, len);
		named = o2.nnames;
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	pcost_cleanup_pop(undo, 0);
	pcost_private_dir_remove(tmp.dir);
	if (!rc && pcost_interrupted)
		rc = -EINTR;
	if (rc)
		return rc;
	c->df = runs - 1;
	for (int k = 0; k < PCOST_CNT_N; k++) {
		double x[MAX_RUNS];

		if (!isfinite(v[0][k]))
			continue;
		for (unsigned r = 0; r < runs; r++)
			x[r] = v[r][k];
		c->n[k] = pcost_mean(x, runs);
		/* One run: what it counted is taken as exact (predict.h). */
		c->se[k] = runs > 1 ? pcost_sem(x, runs) : 0;
	}
	if (!named)
		return 0;
	c->by_nr = xcalloc(named, sizeof(*c->by_nr));
	for (size_t i = 0; i < named; i++) {
		double x[MAX_RUNS];

		for (unsigned r = 0; r < runs; r++)
			x[r] = v[r][PCOST_CNT_N + i];
		snprintf(c->by_nr[i].name, sizeof(c->by_nr[i].name), "%s", o->names[i]);
		c->by_nr[i].n = pcost_mean(x, runs);
		c->by_nr[i].se = runs > 1 ? pcost_sem(x, runs) : 0;
		if (!isfinite(c->by_nr[i].n)) {
			snprintf(c->by_nr_why, sizeof(c->by_nr_why),
				 "perf stat could not count syscalls:sys_enter_%s", o->names[i]);
			return 0;
		}
	}
	c->nby_nr = named;
	c->by_nr_counted = true;
	return 0;
}

void pcost_counts_release(struct pcost_counts *c)
{
	free(c->by_nr);
	c->by_nr = NULL;
	c->nby_nr = 0;
}
