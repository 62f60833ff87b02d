// SPDX-License-Identifier: MIT
/* run/study: run's experiment: monitors, the --service, the session and its options, measured. */
#include "run/study.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/env.h"
#include "core/proc.h"
#include "core/util.h"
#include "monitors/monitor.h"
#include "run/figure_values.h"
#include "run/outcheck.h"
#include "run/study_internal.h"
#include "store/store.h"

/*
 * The default study: syscalls, pinned, against the usual monitors, in
 * STUDY_BLOCKS blocks: the count at which bench/coverage.sh checks the
 * intervals under skewed monitor costs.  One workload of 20,000 getppid calls
 * keeps it within a minute on a 2-CPU guest: perf record's start-up (about a
 * second a run) and bpftrace's dominate, and a second workload doubled them.
 * The cost per syscall is the figure that carries to other programs.
 */
#define STUDY_BLOCKS 10
static const char *const study_workloads[] = { "syscall:loops=20000" };
static const char *const study_monitors[] = { "perf-stat", "perf-record", "strace",
					      "bpftrace-syscalls" };

/* A counting run in the session's options, under key: each kind's count and counter, or why not. */
static void evcount_json(const struct pcost_evcount *ec, const char *key, cJSON *o)
{
	static const int kinds[] = { PCOST_EVC_SYSCALLS, PCOST_EVC_CSWITCHES, PCOST_EVC_TASKS };
	cJSON *c = cJSON_AddObjectToObject(o, key);

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		int k = kinds[i];
		cJSON *e = cJSON_AddObjectToObject(c, pcost_study_paid_unit(k));

		if (ec->v[k] >= 0) {
			cJSON_AddNumberToObject(e, "count", (double)ec->v[k]);
			cJSON_AddStringToObject(e, "counter", ec->source[k]);
		} else {
			cJSON_AddNullToObject(e, "count");
			cJSON_AddStringToObject(e, "why", ec->why[k]);
		}
	}
}

/*
 * The command's counting run ("counted"), the null workload's ("counted_null")
 * and, with --service, the service's events in the command's ("service_events")
 * and that run's wall time and figures ("counted_run").
 */
static void counted_json(const struct pcost_study *st, cJSON *o)
{
	if (!st->have_counted)
		return;
	evcount_json(&st->counted, "counted", o);
	if (st->have_service_counted)
		evcount_json(&st->service_counted, "service_events", o);
	if (st->counted_run)
		cJSON_AddItemToObject(o, "counted_run", cJSON_Parse(st->counted_run));
	if (st->have_null_counted)
		evcount_json(&st->null_counted, "counted_null", o);
	else /* null, not absent: sessions stored before it was counted read 0 */
		cJSON_AddNullToObject(o, "counted_null");
}

/* The session's "options": what was asked and the defaults taken, as JSON text (malloc'd). */
static char *options_json(const struct pcost_study *st, const char *headline)
{
	const struct pcost_study_opts *a = st->o;
	cJSON *o = cJSON_CreateObject();
	char *txt;

	if (headline)
		cJSON_AddStringToObject(o, "headline", headline);
	cJSON_AddNumberToObject(o, "runs", a->ro.runs);
	cJSON_AddNumberToObject(o, "warmup", a->ro.warmup);
	cJSON_AddNumberToObject(o, "min_runs", a->ro.min_runs);
	cJSON_AddNumberToObject(o, "max_runs", a->ro.max_runs);
	cJSON_AddNumberToObject(o, "precision", a->ro.precision);
	cJSON_AddNumberToObject(o, "precision_rel", a->ro.precision_rel);
	cJSON_AddNumberToObject(o, "max_time_s", a->ro.max_time_s);
	cJSON_AddNumberToObject(o, "timeout_s", a->ro.timeout_s);
	cJSON_AddNumberToObject(o, "washout", a->ro.washout);
	pcost_outcheck_json(a->ro.check_output, a->ro.output_filter, o);
	cJSON_AddStringToObject(o, "cpu", a->cpu_text);
	cJSON_AddBoolToObject(o, "default_study", a->default_study);
	counted_json(st, o);
	if (a->nthreads) {
		cJSON *t = cJSON_AddArrayToObject(o, "threads");

		for (size_t i = 0; i < a->nthreads; i++)
			cJSON_AddItemToArray(t, cJSON_CreateNumber(a->threads[i]));
	}
	if (a->placement[0] || a->placement[1]) {
		char cpus[64];

		cJSON_AddStringToObject(o, "placement",
					a->placement[0] && a->placement[1] ? "same,split"
					: a->placement[0]		   ? "same"
									   : "split");
		pcost_format_cpumask(a->split_mask, cpus, sizeof(cpus));
		cJSON_AddStringToObject(o, "split_cpu", cpus);
	}
	if (a->service) {
		cJSON_AddStringToObject(o, "service", a->service);
		cJSON_AddBoolToObject(o, "service_per_block", a->service_per_block);
	}
	if (a->service_pid)
		cJSON_AddStringToObject(o, "service_pid", a->service_pid);
	if (a->nscales) {
		cJSON *s = cJSON_AddArrayToObject(o, "scale");

		for (size_t i = 0; i < a->nscales; i++)
			cJSON_AddItemToArray(s, cJSON_CreateNumber(a->scales[i]));
	}
	txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return txt;
}

/* The default study's workloads and monitors, and the defaults every run takes. */
static void apply_defaults(struct pcost_study_opts *a)
{
	if (a->default_study) {
		for (size_t i = 0; i < ARRAY_SIZE(study_workloads); i++)
			a->workloads[a->nworkloads++] = study_workloads[i];
		for (size_t i = 0; i < ARRAY_SIZE(study_monitors); i++)
			a->monitors[a->nmonitors++] = study_monitors[i];
		/* Pinned to one CPU: cross-CPU wake-ups here vary +-33% (DESIGN.md). */
		if (!a->ro.cpu_mask) {
			a->ro.cpu_mask = 1;
			snprintf(a->cpu_text, sizeof(a->cpu_text), "0");
		}
		if (!a->ro.runs)
			a->ro.runs = STUDY_BLOCKS;
	}
	if (!a->seed_given)
		a->ro.seed = (uint64_t)time(NULL);
	/* Adaptive: the pilot plans and a second stage of its own measures (runner.h). */
	a->ro.pilot_apart = !a->ro.runs;
	/* Every run session's headline figures get the interval a rerun lands in. */
	a->ro.rerun = true;
	if (!a->nscales)
		a->scales[a->nscales++] = 1;
}

struct pcost_monitor *pcost_study_monitor_create(const struct pcost_study_opts *a, const char *word,
						 char *err, size_t len)
{
	bool svc = a->service || a->service_pid;
	struct pcost_monitor *m = svc ? pcost_monitor_service_create(word, err, len) : NULL;

	if (m || !(m = pcost_monitor_create(word, err, len)))
		return m;
	if (svc && m->ops->kind == PCOST_MON_WRAP && !strchr(word, ' '))
		warning("monitor %s has no service form: it watches the load generator, not the "
			"service (perf-stat, perf-record, strace and bpftrace-syscalls watch the "
			"service; perf-record-system watches everything)",
			m->name);
	return m;
}

/* Monitors: none first, then each -m (and --attach) that is available here. */
static int create_monitors(struct pcost_study *st)
{
	const struct pcost_study_opts *a = st->o;
	size_t asked = 0; /* monitors other than the baseline */
	char err[256];

	st->mons[st->nmons++] = pcost_monitor_create("none", err, sizeof(err));
	for (size_t i = 0; i < a->nmonitors + (a->attach ? 1 : 0); i++) {
		struct pcost_monitor *m;
		char why[256];

		if (i < a->nmonitors)
			m = pcost_study_monitor_create(a, a->monitors[i], err, sizeof(err));
		else
			m = pcost_monitor_attach_create(a->attach, a->ready, err, sizeof(err));
		if (!m)
			return usage_error("%s", err), -EINVAL;
		if (!strcmp(m->name, "none")) {
			pcost_monitor_free(m);
			continue; /* always there: -m none alone is the baseline alone */
		}
		asked++;
		if (!pcost_monitor_available(m, why, sizeof(why))) {
			warning("skipping monitor %s: %s", m->name, why);
			pcost_monitor_free(m);
			continue;
		}
		st->mons[st->nmons++] = m;
	}
	if (st->nmons == 1 && asked)
		return error("nothing left to measure: no monitor asked for is available here "
			     "('probecost list monitors' says why, and what to install)"),
		       -EIO;
	return 0;
}

void pcost_study_session_start(struct pcost_session *s, int argc, char **argv)
{
	const struct pcost_env *e = pcost_env_self();
	char **v = xcalloc((size_t)argc + 2, sizeof(*v));

	pcost_session_init(s, PCOST_SESSION_RUN);
	s->started = (int64_t)time(NULL);
	s->version = xstrdup(PCOST_VERSION);
	v[0] = "probecost";
	for (int i = 0; i < argc; i++)
		v[i + 1] = argv[i];
	s->cmdline = pcost_join_argv(argc + 1, v);
	free(v);
	s->env_json = pcost_env_to_json_text(e);
	s->tsc_hz = e->tsc_hz;
}

int pcost_study_service_init(const struct pcost_study_opts *a, struct pcost_service *sv)
{
	struct pcost_service_opts o = {
		.cpu_mask = a->ro.cpu_mask,
		.ready_timeout_s = a->ro.ready_timeout_s,
		.ready_port = a->service_port,
		.restart_per_block = a->service_per_block,
	};
	char **argv;

	snprintf(o.ready_addr, sizeof(o.ready_addr), "%s", a->service_addr);
	if (pcost_argv_split(a->service, &argv) < 0)
		return usage_error("--service '%s': unterminated quote or empty command",
				   a->service),
		       -EINVAL;
	if (pcost_refuse_unexecutable("--service", argv[0])) {
		pcost_argv_free(argv);
		return -EINVAL;
	}
	if (!a->service_ready && !a->service_port)
		warning("--service without --ready: '%s' counts as ready as soon as it is started, "
			"and a load generator that needs it listening may start first (and wait, "
			"or fail); give --ready REGEX, a line it prints once ready, or --ready-port "
			"PORT, where it listens",
			argv[0]);
	pcost_service_init(sv, argv, a->service_ready, &o);
	pcost_argv_free(argv);
	return 0;
}

/* --service CMD into st->sv, the runner's service. */
static int service_init(struct pcost_study *st)
{
	int rc = pcost_study_service_init(st->o, &st->sv);

	if (rc)
		return rc;
	st->have_service = true;
	st->o->ro.service = &st->sv;
	return 0;
}

/* --service-pid into st->sv: the service is found now, checked when measuring starts. */
static int service_pid_init(struct pcost_study *st)
{
	struct pcost_study_opts *a = st->o;
	struct pcost_service_opts o = { .cpu_mask = a->ro.cpu_mask };
	char err[512];
	pid_t pid;
	int rc = pcost_service_pid_resolve(a->service_pid, &pid, err, sizeof(err));

	if (rc < 0)
		return usage_error("%s", err), -EINVAL;
	pcost_service_init_pid(&st->sv, pid, &o);
	st->have_service = true;
	a->ro.service = &st->sv;
	return 0;
}

int pcost_study_init(struct pcost_study *st, struct pcost_study_opts *o, int argc, char **argv)
{
	char headline[256] = "";
	int rc;

	memset(st, 0, sizeof(*st));
	st->o = o;
	apply_defaults(o);
	/* The service first: the command's counting run loads it. */
	if ((rc = create_monitors(st)) || (o->service && (rc = service_init(st))) ||
	    (o->service_pid && (rc = service_pid_init(st))) || (rc = pcost_study_count_command(st)))
		return rc;
	pcost_study_session_start(&st->s, argc, argv);
	st->have_session = true;
	pcost_env_headline(pcost_env_self(), headline, sizeof(headline));
	st->s.options_json = options_json(st, headline[0] ? headline : NULL);
	pcost_figures_declare_set(&st->s, &o->metrics);
	o->ro.progress = isatty(2) && pcost_verbosity > 0;
	o->ro.metric_set = &o->metrics;
	pcost_runner_init(&st->r, &st->s, &o->ro);
	st->have_runner = true;
	return pcost_study_add_targets(st);
}

int pcost_study_service_start(struct pcost_service *sv)
{
	char err[768];
	int rc = pcost_service_start(sv, err, sizeof(err));

	if (rc == -EINTR)
		return rc;
	if (rc < 0)
		return error("%s", err), -EIO;
	return 0;
}

int pcost_study_measure(struct pcost_study *st, char *err, size_t len)
{
	struct pcost_runner *r = &st->r;
	struct pcost_session *s = &st->s;
	int rc;

	st->measured = false;
	/* Sweep what a killed probecost left; refuse while a foreign tracer is armed. */
	if (pcost_runner_check(r, err, len) < 0)
		return error("%s", err), -EIO;
	if (r->opts.service && (rc = pcost_study_service_start(r->opts.service)))
		return rc;
	pcost_sink_begin(s, st->o->db, st->o->no_store);
	rc = pcost_runner_measure(r, err, len);
	if (r->opts.service)
		pcost_service_stop(r->opts.service);
	if (r->opts.service && r->opts.service->followed[0])
		warning("%s", r->opts.service->followed);
	if (rc < 0 && rc != -EINTR && !s->nconfigs) {
		pcost_sink_end(s);
		return error("%s", err), rc;
	}
	for (size_t i = 0; i < s->nconfigs; i++) {
		unsigned count;
		const char *note = pcost_runner_note(r, i, &count);

		if (note)
			warning("%s: %s (in %u run%s)", s->configs[i].monitor, note, count,
				count == 1 ? "" : "s");
	}
	pcost_sink_end(s);
	st->measured = true;
	return rc;
}

bool pcost_study_metric_unmatched(const struct pcost_study *st)
{
	const struct pcost_metric_set *set = &st->o->metrics;
	char why[512];
	bool any = false;

	for (size_t i = 0; i < set->n; i++)
		if (pcost_figures_unmatched(&st->s, set, i, why, sizeof(why))) {
			error("%s", why);
			any = true;
		}
	return any;
}

void pcost_study_release(struct pcost_study *st)
{
	if (st->have_runner)
		pcost_runner_release(&st->r);
	if (st->have_service)
		pcost_service_release(&st->sv);
	if (st->have_session)
		pcost_session_release(&st->s);
	for (size_t m = 0; m < st->nmons; m++)
		pcost_monitor_free(st->mons[m]);
	if (st->have_counted)
		pcost_evcount_release(&st->counted);
	if (st->have_null_counted)
		pcost_evcount_release(&st->null_counted);
	if (st->have_service_counted)
		pcost_evcount_release(&st->service_counted);
	free(st->counted_run);
	st->counted_run = NULL;
	st->nmons = 0;
	st->have_runner = st->have_service = st->have_session = false;
	st->have_counted = st->have_null_counted = st->have_service_counted = false;
}
