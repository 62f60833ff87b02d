// SPDX-License-Identifier: MIT
/*
 * run/count: a command's events for the cost model, from untimed counting
 * runs of run/evcount.c; the mean and the standard error of each kind over
 * the runs, and the syscalls the model needs by name.
 */
#include "run/count.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "run/evcount.h"
#include "stats/stats.h"

#define MAX_RUNS 64
#define MAX_NAMES 128
/* A run's figures: the kinds, the names' counts, the same in new tasks, every new task's call. */
#define V_NEW (PCOST_CNT_N + MAX_NAMES)
#define V_NEW_ALL (V_NEW + MAX_NAMES)
#define NV (V_NEW_ALL + 1)

/* The evcount kinds each model count sums. */
static const struct {
	enum pcost_evc_kind a, b; /* b == PCOST_EVC_N: a alone */
} kinds[PCOST_CNT_N] = {
	[PCOST_CNT_SYSCALLS] = { PCOST_EVC_SYSCALLS, PCOST_EVC_N },
	[PCOST_CNT_CSWITCHES] = { PCOST_EVC_CSWITCHES, PCOST_EVC_N },
	[PCOST_CNT_FAULTS] = { PCOST_EVC_MINOR_FAULTS, PCOST_EVC_MAJOR_FAULTS },
	[PCOST_CNT_TASKS] = { PCOST_EVC_TASKS, PCOST_EVC_N },
	[PCOST_CNT_EXECS] = { PCOST_EVC_EXECS, PCOST_EVC_N },
	[PCOST_CNT_TASK_CLOCK_NS] = { PCOST_EVC_TASK_CLOCK, PCOST_EVC_N },
};

/* The command's standard error goes to a file in a private directory (its last line on failure). */
struct err_file {
	char dir[PATH_MAX], path[PATH_MAX + 8];
};

/* Undo (async-signal-safe): the file and its directory. */
static void undo_err(void *arg)
{
	struct err_file *f = arg;

	unlink(f->path);
	rmdir(f->dir);
}

/* The last non-empty line of the file at fd, into buf ("" when none). */
static void last_line(int fd, char *buf, size_t len)
{
	char tail[1024];
	off_t end = lseek(fd, 0, SEEK_END);
	off_t from = end > (off_t)sizeof(tail) - 1 ? end - (off_t)sizeof(tail) + 1 : 0;
	ssize_t n = end > 0 ? pread(fd, tail, (size_t)(end - from), from) : 0;
	char *nl;

	buf[0] = 0;
	if (n <= 0)
		return;
	tail[n] = 0;
	while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == '\r' || tail[n - 1] == ' '))
		tail[--n] = 0;
	nl = strrchr(tail, '\n');
	snprintf(buf, len, "%s", nl ? nl + 1 : tail);
}

/* One run's counts into v[] (NaN and why when not counted); names[i] into v[PCOST_CNT_N + i]. */
static void take(const struct pcost_evcount *ec, const struct pcost_count_opts *o, double *v,
		 struct pcost_counts *c)
{
	for (int k = 0; k < PCOST_CNT_N; k++) {
		int64_t a = ec->v[kinds[k].a];
		int64_t b = kinds[k].b < PCOST_EVC_N ? ec->v[kinds[k].b] : 0;

		if (a < 0 || b < 0) {
			v[k] = NAN;
			snprintf(c->why[k], sizeof(c->why[k]), "%s",
				 ec->why[a < 0 ? kinds[k].a : kinds[k].b]);
		} else {
			v[k] = (double)(a + b);
		}
	}
	for (size_t i = 0; i < o->nnames; i++) {
		/* A syscall the tree never made has no row: 0 when the table was counted. */
		v[PCOST_CNT_N + i] = v[V_NEW + i] = ec->by_nr_counted ? 0 : NAN;
		for (size_t j = 0; j < ec->nby_nr; j++)
			if (!strcmp(ec->by_nr[j].name, o->names[i])) {
				v[PCOST_CNT_N + i] = (double)ec->by_nr[j].count;
				v[V_NEW + i] = (double)ec->by_nr[j].new_task;
			}
	}
	v[V_NEW_ALL] = ec->by_nr_counted ? (double)ec->by_nr_new_tasks : NAN;
	if (!ec->by_nr_counted && o->nnames)
		snprintf(c->by_nr_why, sizeof(c->by_nr_why), "%s", ec->by_nr_why);
}

/*
 * One counting run (the service's counts into sv, when o has one); 0, -ECHILD
 * (the command failed: err says how) or -errno.
 */
static int count_once(char *const *argv, const struct pcost_count_opts *o, int err_fd, double *v,
		      struct pcost_counts *c, double *sv, char *err, size_t len)
{
	struct pcost_evcount_opts eo = {
		.cpu_mask = o->cpu_mask,
		.timeout_s = o->timeout_s,
		.no_by_nr = !o->nnames,
		.no_probes = true,
		.out_fd = -1, /* discarded, as in the runner's runs */
		.err_fd = err_fd,
	};
	struct pcost_evcount ec, svc;
	int rc;

	pcost_evcount_init(&svc); /* evcount fills it only with a service */
	if (o->service) {
		eo.service_pid = o->service_pid;
		eo.service = &svc;
	}

	if (ftruncate(err_fd, 0) < 0 || lseek(err_fd, 0, SEEK_SET) < 0)
		return -errno;
	rc = pcost_evcount_run(argv, &eo, &ec, err, len);
	if (rc == 0 && ec.fail[0]) {
		char line[256];

		last_line(err_fd, line, sizeof(line));
		snprintf(err, len, "'%s' failed: %s%s%s", argv[0], ec.fail, line[0] ? ": " : "",
			 line);
		rc = -ECHILD;
	} else if (rc == 0) {
		take(&ec, o, v, c);
		if (o->service)
			take(&svc, o, sv, o->service);
	}
	pcost_evcount_release(&ec);
	if (o->service)
		pcost_evcount_release(&svc);
	return rc;
}

static void counts_init(struct pcost_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int k = 0; k < PCOST_CNT_N; k++)
		c->n[k] = c->se[k] = NAN;
	c->base_ns = c->base_se = c->base_df = c->parallel = c->cpus = c->others = NAN;
	snprintf(c->by_nr_why, sizeof(c->by_nr_why), "no syscall was asked for by name");
}

/* Mean and standard error over the runs (one run: taken as exact, predict.h). */
static void mean_se(double (*v)[NV], unsigned runs, size_t k, double *n, double *se)
{
	double x[MAX_RUNS] = { 0 };

	for (unsigned r = 0; r < runs; r++)
		x[r] = v[r][k];
	*n = pcost_mean(x, runs);
	*se = runs > 1 ? pcost_sem(x, runs) : 0;
}

/* The runs' counts v[0..runs) into *c: each kind's mean and standard error, by name too. */
static void summarize(double (*v)[NV], unsigned runs, const struct pcost_count_opts *o,
		      struct pcost_counts *c)
{
	c->df = runs - 1;
	for (int k = 0; k < PCOST_CNT_N; k++)
		if (isfinite(v[0][k]))
			mean_se(v, runs, (size_t)k, &c->n[k], &c->se[k]);
	c->by_nr_counted = o->nnames && isfinite(v[0][PCOST_CNT_N]);
	if (c->by_nr_counted) {
		c->nby_nr = o->nnames;
		c->by_nr = xcalloc(o->nnames, sizeof(*c->by_nr));
		for (size_t i = 0; i < o->nnames; i++) {
			snprintf(c->by_nr[i].name, sizeof(c->by_nr[i].name), "%s", o->names[i]);
			mean_se(v, runs, PCOST_CNT_N + i, &c->by_nr[i].n, &c->by_nr[i].se);
			mean_se(v, runs, V_NEW + i, &c->by_nr[i].new_n, &c->by_nr[i].new_se);
		}
		mean_se(v, runs, V_NEW_ALL, &c->new_task, &c->new_task_se);
	}
}

int pcost_count_command(char *const *argv, const struct pcost_count_opts *o, struct pcost_counts *c,
			char *err, size_t len)
{
	unsigned runs = o->runs < 1 ? 1 : o->runs > MAX_RUNS ? MAX_RUNS : o->runs;
	double(*v)[NV] = xcalloc(runs, sizeof(*v));
	double(*sv)[NV] = o->service ? xcalloc(runs, sizeof(*sv)) : NULL;
	struct err_file f;
	int undo, fd, rc = 0;

	counts_init(c);
	if (o->service)
		counts_init(o->service);
	if (o->nnames > MAX_NAMES) {
		snprintf(err, len, "at most %d syscalls are counted by name", MAX_NAMES);
		rc = -E2BIG;
	} else {
		rc = pcost_private_dir_make(f.dir, sizeof(f.dir), err, len);
	}
	if (rc < 0) {
		free(v);
		free(sv);
		return rc;
	}
	snprintf(f.path, sizeof(f.path), "%s/stderr", f.dir);
	undo = pcost_cleanup_push(undo_err, &f);
	fd = open(f.path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, len, "could not create '%s': %s", f.path, strerror(errno));
	}
	for (unsigned r = 0; r < runs && !rc && !pcost_interrupted; r++)
		rc = count_once(argv, o, fd, v[r], c, sv ? sv[r] : NULL, err, len);
	if (fd >= 0)
		close(fd);
	pcost_cleanup_pop(undo, 0);
	pcost_private_dir_remove(f.dir);
	if (!rc && pcost_interrupted)
		rc = -EINTR;
	if (!rc) {
		summarize(v, runs, o, c);
		if (sv)
			summarize(sv, runs, o, o->service);
	}
	free(v);
	free(sv);
	return rc;
}

void pcost_counts_release(struct pcost_counts *c)
{
	free(c->by_nr);
	c->by_nr = NULL;
	c->nby_nr = 0;
}
