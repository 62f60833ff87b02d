// SPDX-License-Identifier: MIT
/*
 * run/study_predict: what predict measures: the command's events counted in
 * untimed runs, its plain time, and with --verify the monitors measured
 * beside plain runs, as run -- COMMAND does.  With --service, the service is
 * started before each of the two and stopped after (every exit path: its
 * release), and its processes' events are counted in the command's runs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/util.h"
#include "monitors/monitor.h"
#include "run/count.h"
#include "run/study.h"
#include "run/study_internal.h"
#include "stats/analyze.h"
#include "stats/predict.h"
#include "store/store.h"

/*
 * --service started into *sv (nothing to do without one); 0, -EINVAL (its
 * command refused: said) or as pcost_study_service_start.  Release *sv on
 * every path once this returned 0 (it stops the service).
 */
static int service_up(const struct pcost_predict_study *o, struct pcost_service *sv)
{
	int rc;

	if (!o->service)
		return 0;
	if ((rc = pcost_study_service_init(o->service, sv)))
		return rc;
	if ((rc = pcost_study_service_start(sv)))
		pcost_service_release(sv);
	return rc;
}

static void service_down(const struct pcost_predict_study *o, struct pcost_service *sv)
{
	if (!o->service)
		return;
	if (sv->followed[0])
		warning("%s", sv->followed);
	pcost_service_release(sv);
}

/*
 * Run the command plain (and under mons[1..n) with --verify) in interleaved
 * blocks, the service sv (NULL: none) running; *st gets the analysis (caller frees).
 */
static int measure(const struct pcost_predict_study *o, struct pcost_service *sv,
		   struct pcost_session *s, struct pcost_monitor **mons, size_t nmons,
		   unsigned runs, bool store, struct pcost_config_stats **st)
{
	char *joined = pcost_join_argv(o->ncommand, o->command), err[256];
	struct pcost_target tg = { .workload = "command",
				   .workload_args = joined,
				   .unit = "event",
				   .argv = o->command,
				   .scale = 1,
				   .events = -1 };
	struct pcost_runner_opts ro = o->ro;
	struct pcost_runner r;
	int rc;

	ro.runs = runs;
	ro.seed = s->seed;
	ro.service = sv;
	ro.progress = isatty(2) && pcost_verbosity > 0;
	pcost_runner_init(&r, s, &ro);
	for (size_t i = 0; i < nmons; i++)
		pcost_runner_add(&r, mons[i], &tg);
	free(joined);
	if (pcost_runner_check(&r, err, sizeof(err)) < 0) {
		pcost_runner_release(&r);
		return error("%s", err), -EIO;
	}
	pcost_sink_begin(s, o->db, !store || o->no_store);
	rc = pcost_runner_measure(&r, err, sizeof(err));
	pcost_sink_end(s);
	pcost_runner_release(&r);
	if (rc == -EINTR || pcost_interrupted)
		return -EINTR;
	/* Every run failed: the command's own failure ("exit 3: its last line of stderr"). */
	if (pcost_session_failed(s)) {
		const char *why = pcost_session_fail_reason(s);

		return error("'%s' failed%s%s", o->command[0], why ? ": " : "", why ? why : ""),
		       -EIO;
	}
	if (rc < 0)
		return error("%s", err), -EIO;
	return pcost_analyze(s, st) < 0 ? (error("could not analyze the runs"), -EIO) : 0;
}

/* The plain runs: the overhead's denominator T0, its standard error and df. */
static int plain_time(const struct pcost_predict_study *o, struct pcost_service *sv,
		      struct pcost_counts *c)
{
	struct pcost_monitor *none[1];
	struct pcost_config_stats *st = NULL;
	struct pcost_session s;
	char err[256];
	int rc;

	none[0] = pcost_monitor_create("none", err, sizeof(err));
	pcost_study_session_start(&s, o->argc, o->argv);
	s.seed = (uint64_t)time(NULL);
	rc = measure(o, sv, &s, none, 1, o->plain_runs, false, &st);
	if (!rc && st) {
		c->base_ns = st[0].wall.mean;
		c->base_se = st[0].wall.sem;
		c->base_df = st[0].wall.n > 1 ? (double)st[0].wall.n - 1 : NAN;
		/* Its tasks' CPU time over its wall time: how many ran side by side. */
		if (st[0].wall.mean > 0)
			c->parallel = (st[0].user.mean + st[0].sys.mean) / st[0].wall.mean;
	}
	free(st);
	pcost_session_release(&s);
	return rc;
}

int pcost_study_verify(const struct pcost_predict_study *o, const struct pcost_prediction *p,
		       struct pcost_prediction_check *checks, int64_t *session)
{
	struct pcost_monitor *mons[PCOST_STUDY_MAX_ITEMS + 1];
	int idx[PCOST_STUDY_MAX_ITEMS];
	char why[PCOST_STUDY_MAX_ITEMS][256];
	static const struct pcost_study_opts no_service;
	struct pcost_config_stats *st = NULL;
	struct pcost_session s;
	struct pcost_service sv;
	size_t n = 0;
	char err[256];
	int rc;

	mons[n++] = pcost_monitor_create("none", err, sizeof(err));
	for (size_t i = 0; i < o->nmonitors; i++) {
		/* With --service, its service form where it has one, as run makes it. */
		struct pcost_monitor *m = pcost_study_monitor_create(
			o->service ? o->service : &no_service, o->monitors[i], err, sizeof(err));

		idx[i] = -1;
		if (!m || !pcost_monitor_available(m, why[i], sizeof(why[i]))) {
			if (!m)
				snprintf(why[i], sizeof(why[i]), "%s", err);
			pcost_monitor_free(m);
			continue;
		}
		idx[i] = (int)n;
		mons[n++] = m;
	}
	pcost_study_session_start(&s, o->argc, o->argv);
	s.seed = o->seed_given ? o->ro.seed : (uint64_t)time(NULL);
	if (!(rc = service_up(o, &sv))) {
		rc = measure(o, o->service ? &sv : NULL, &s, mons, n, o->ro.runs, true, &st);
		service_down(o, &sv);
	}
	for (size_t i = 0; i < o->nmonitors; i++)
		pcost_prediction_check(&p[i], !rc && idx[i] >= 0 ? &st[idx[i]] : NULL,
				       idx[i] < 0 ? why[i] : "every run failed", &checks[i]);
	*session = s.id;
	free(st);
	pcost_session_release(&s);
	for (size_t i = 0; i < n; i++)
		pcost_monitor_free(mons[i]);
	return rc;
}

/*
 * The syscalls to count by name: the model's classes (a decoding tracer pays
 * by class) and the names of every strace-seccomp:trace=NAME,... asked
 * (classes and negations are not names: the model says so); *buf holds the
 * sets' names (caller frees).
 */
static size_t count_names(const struct pcost_predict_study *o, const char **names, size_t max,
			  char **buf)
{
	char *save = NULL;
	size_t n = pcost_model_syscall_names(names, max);

	*buf = NULL;
	for (size_t i = 0; i < o->nmonitors; i++) {
		const char *set = strstr(o->monitors[i], "trace=");
		char *joined;

		if (strncmp(o->monitors[i], "strace-seccomp:", 15) || !set || strpbrk(set, "%!?"))
			continue;
		joined = xasprintf("%s%s%s", *buf ? *buf : "", *buf ? "," : "", set + 6);
		free(*buf);
		*buf = joined;
	}
	for (char *w = *buf ? strtok_r(*buf, ",", &save) : NULL; w && n < max;
	     w = strtok_r(NULL, ",", &save)) {
		size_t k = 0;

		while (k < n && strcmp(names[k], w))
			k++;
		if (k == n)
			names[n++] = w;
	}
	return n;
}

/* Does monitor watch the service (it has a service form) rather than wrap the command? */
static bool watches_service(const struct pcost_predict_study *o, const char *monitor)
{
	char err[256];
	struct pcost_monitor *m =
		o->service ? pcost_monitor_service_create(monitor, err, sizeof(err)) : NULL;

	pcost_monitor_free(m);
	return m != NULL;
}

/*
 * With a service: the plain run's parallelism is the client's and the
 * service's tasks together (the service's CPU time in the counting runs, as
 * the run's), in both counts, and the service's counts get the plain time.
 */
static void service_overlap(struct pcost_counts *c, struct pcost_counts *sc)
{
	double client = isfinite(c->parallel) ? c->parallel * c->base_ns : 0;
	double server = sc->n[PCOST_CNT_TASK_CLOCK_NS];

	if (c->base_ns > 0 && isfinite(server))
		c->parallel = (client + server) / c->base_ns;
	sc->parallel = c->parallel;
	sc->base_ns = c->base_ns;
	sc->base_se = c->base_se;
	sc->base_df = c->base_df;
}

int pcost_study_predict(const struct pcost_predict_study *o, const struct pcost_cost_table *t,
			struct pcost_counts *c, struct pcost_counts *sc, struct pcost_prediction *p)
{
	const char *names[128];
	char *nbuf, err[512];
	struct pcost_count_opts co = { .runs = o->count_runs,
				       .cpu_mask = o->ro.cpu_mask,
				       .timeout_s = o->ro.timeout_s,
				       .names = names };
	struct pcost_service sv;
	int rc;

	/* Nothing to release yet, whichever way this ends. */
	memset(c, 0, sizeof(*c));
	memset(sc, 0, sizeof(*sc));
	co.nnames = count_names(o, names, ARRAY_SIZE(names), &nbuf);
	if ((rc = service_up(o, &sv))) {
		free(nbuf);
		return rc;
	}
	if (o->service) {
		co.service_pid = pcost_service_pid(&sv);
		co.service = sc;
	}
	rc = pcost_count_command(o->command, &co, c, err, sizeof(err));
	free(nbuf);
	if (rc < 0 && rc != -EINTR)
		rc = (error("%s", err), -EIO);
	if (!rc)
		rc = plain_time(o, o->service ? &sv : NULL, c);
	service_down(o, &sv);
	if (rc)
		return rc;
	if (o->service)
		service_overlap(c, sc);
	for (size_t i = 0; i < o->nmonitors; i++) {
		if (watches_service(o, o->monitors[i]))
			pcost_predict_service(t, o->monitors[i], sc, &p[i]);
		else
			pcost_predict(t, o->monitors[i], c, &p[i]);
	}
	return 0;
}
