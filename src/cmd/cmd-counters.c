// SPDX-License-Identifier: MIT
/* cmd/cmd-counters: the cost of starting, stopping and reading counters, interface by interface. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "cmd/cmd.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-options.h"
#include "counters/counters.h"
#include "core/env.h"
#include "core/format.h"
#include "probecost/counters.h"
#include "report/report.h"
#include "core/result.h"
#include "store/store.h"
#include "core/util.h"

#define MAX_K 16

struct counters_args {
	struct pcost_measure_opts m; /* the shared --format, --db, --no-store */
	bool matmul, monotonic;
	int cpu;	  /* -1: the CPU we start on */
	unsigned cpu_arg; /* --cpu, when cpu_given */
	bool cpu_given;
	unsigned iterations, warmup, matmul_runs;
	bool kset[MAX_K + 1]; /* k values asked for */
	bool kgiven;
	const struct pcost_counter_iface *ifaces[16];
	size_t nifaces;
	char *events[PCOST_COUNTERS_MAX];
	unsigned nevents;
};

static const char *const counters_usage[] = {
	"counters [--interfaces LIST] [--events 1-16|K,K,..]\n"
	"         [--event NAME]... [--iterations N] [--warmup N] [--matmul]\n"
	"         [--matmul-runs N] [--cpu N] [--timer tsc|monotonic]\n"
	"         [--format text|json|csv|markdown] [--db PATH|URL] [--no-store]",
	NULL,
};

/* After the options: the interfaces, from their table. */
static void list_ifaces(FILE *out)
{
	const struct pcost_counter_iface *ifc;

	fputs("\ninterfaces:\n", out);
	for_each_counter_iface(ifc)
		fprintf(out, "  %-14s %s\n", ifc->name, ifc->summary);
}

static int parse_ks(const char *s, struct counters_args *a)
{
	char *dup = xstrdup(s), *save = NULL, *tok;
	int rc = 0;

	memset(a->kset, 0, sizeof(a->kset));
	for (tok = strtok_r(dup, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t lo, hi;

		if (dash)
			*dash = '\0';
		if (pcost_parse_u64(tok, 1, MAX_K, &lo) < 0 ||
		    (dash ? pcost_parse_u64(dash + 1, 1, MAX_K, &hi) < 0 : (hi = lo, 0)) ||
		    hi < lo) {
			rc = -EINVAL;
			break;
		}
		for (uint64_t k = lo; k <= hi; k++)
			a->kset[k] = true;
	}
	free(dup);
	return rc;
}

static int parse_ifaces(const char *s, struct counters_args *a)
{
	char *dup, *save = NULL, *tok;

	if (!pcost_list_well_formed(s)) {
		usage_error("--interfaces '%s': expected a comma list of interfaces "
			    "(see 'probecost list counters')",
			    s);
		return -EINVAL;
	}
	dup = xstrdup(s);
	a->nifaces = 0;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct pcost_counter_iface *ifc = pcost_counter_iface_find(tok);
		bool dup_row = false;

		if (!ifc) {
			usage_error("unknown interface '%s' (see 'probecost list counters')", tok);
			free(dup);
			return -EINVAL;
		}
		for (size_t i = 0; i < a->nifaces; i++)
			dup_row |= a->ifaces[i] == ifc;
		if (!dup_row && a->nifaces < ARRAY_SIZE(a->ifaces))
			a->ifaces[a->nifaces++] = ifc;
	}
	free(dup);
	return a->nifaces ? 0 : -EINVAL;
}

/* The error lines for an event that cannot be opened here. */
static int explain_open_error(const char *name, int rc)
{
	char buf[512];

	switch (rc) {
	case -ENOENT:
		if (pcost_counter_suggest(name, buf, sizeof(buf), 5) > 0)
			return usage_error("unknown event '%s'; close matches: %s", name, buf);
		return usage_error("unknown event '%s' (libpfm4 knows no such name; "
				   "see 'perf list' for names)",
				   name);
	case -EACCES:
		pcost_counter_explain_eacces(buf, sizeof(buf));
		return error("event '%s': %s", name, buf);
	case -EMFILE:
	case -ENFILE:
		return error("too many open descriptors opening '%s' (one per event): "
			     "raise 'ulimit -n' or ask for fewer events",
			     name);
	case -E2BIG:
		return usage_error("too many events (at most %d)", PCOST_COUNTERS_MAX);
	case -EOPNOTSUPP: {
		char why[256] = "";

		pcost_counters_have_pmu(why, sizeof(why));
		return error("event '%s' cannot be counted on this machine%s%s", name,
			     why[0] ? ": " : "", why);
	}
	default:
		return error("could not open event '%s': %s", name, strerror(-rc));
	}
}

/* A count of counters' own, its range said as what says it ("a number in 1..10M"). */
static int count_opt(const struct pcost_option *opt, const char *arg)
{
	uint64_t v;

	if (pcost_parse_u64(arg, (uint64_t)opt->lo, (uint64_t)opt->hi, &v) < 0)
		return usage_error("--%s '%s' is not %s", opt->long_name, arg, opt->what);
	*(unsigned *)opt->value = (unsigned)v;
	return 0;
}

#define OPT_COUNT(l, v, a, min, max, w, h) OPT_CALLBACK_RANGE(l, v, a, min, max, w, h, count_opt, 0)

static int ks_opt(const struct pcost_option *opt, const char *arg)
{
	struct counters_args *a = opt->value;

	if (parse_ks(arg, a) < 0)
		return usage_error("--events '%s' is not valid: a list of counts or ranges "
				   "within 1-%d, e.g. 1-16 or 1,2,4",
				   arg, MAX_K);
	a->kgiven = true;
	return 0;
}

static int ifaces_opt(const struct pcost_option *opt, const char *arg)
{
	return parse_ifaces(arg, opt->value) < 0 ? PCOST_EXIT_USAGE : 0;
}

static int timer_opt(const struct pcost_option *opt, const char *arg)
{
	if (strcmp(arg, "tsc") && strcmp(arg, "monotonic"))
		return usage_error("--timer '%s' is not valid: tsc or monotonic", arg);
	*(bool *)opt->value = !strcmp(arg, "monotonic");
	return 0;
}

/* 0, PCOST_OPTS_HELP after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct counters_args *a)
{
	const char *events[MAX_K];
	size_t nevents = 0;
	const struct pcost_option options[] = {
		OPT_CALLBACK(0, "interfaces", a, "LIST",
			     "the counter interfaces to time, comma separated (default:\n"
			     "every one; see 'probecost list counters')",
			     ifaces_opt),
		OPT_CALLBACK(0, "events", a, "1-16|K,K,..",
			     "the numbers of events k to time (default 1,2,4,8,16)", ks_opt),
		OPT_LIST(0, "event", events, &nevents, MAX_K, "NAME",
			 "measure the libpfm4 event NAME instead of the defaults\n"
			 "(repeatable; k = how many)"),
		OPT_COUNT("iterations", &a->iterations, "N", 1, 10000000, "a number in 1..10M",
			  "timed iterations (default 1024)"),
		OPT_COUNT("warmup", &a->warmup, "N", 0, 1000000, "a number in 0..1M",
			  "iterations before them, not timed (default 64)"),
		OPT_BOOL(0, "matmul", &a->matmul,
			 "add a 128x128 matmul reading every event after each row,\n"
			 "against the same loop without reads: total times and the\n"
			 "cost per read"),
		OPT_COUNT("matmul-runs", &a->matmul_runs, "N", 1, 100000, "a number in 1..100000",
			  "--matmul: runs of each loop (default 32)"),
		{ .type = PCOST_OPTION_CALLBACK,
		  .long_name = "cpu",
		  .value = &a->cpu_arg,
		  .argh = "N",
		  .lo = 0,
		  .hi = 63,
		  .what = "a CPU number (0-63)",
		  .help = "pin to CPU N (default: the CPU it starts on)",
		  .callback = count_opt,
		  .given = &a->cpu_given },
		OPT_CALLBACK(0, "timer", &a->monotonic, "tsc|monotonic",
			     "what times each operation (default tsc)", timer_opt),
		OPT_MEASURE_FORMAT(&a->m, "text, json, csv or markdown"),
		OPT_MEASURE_DB(&a->m),
		OPT_MEASURE_NO_STORE(&a->m, "do not store the session"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "counters",
		.usage = counters_usage,
		.about =
			"Times start (ioctl ENABLE), read and stop (ioctl DISABLE) of k events, and\n"
			"a whole start+read+stop episode, for every counter interface; every sample\n"
			"is kept.  Defaults: k = 1,2,4,8,16 software events (hardware events first\n"
			"when a PMU exists), 1024 iterations after 64 warm-up ones, pinned to the CPU\n"
			"it starts on.",
		.options = options,
		.more_help = list_ifaces,
		.bad_option = "unknown option",
	};
	int rc = pcost_parse_options(&p, argc, argv);

	for (size_t i = 0; i < nevents; i++)
		a->events[a->nevents++] = xstrdup(events[i]);
	if (rc)
		return rc;
	if (a->cpu_given)
		a->cpu = (int)a->cpu_arg;
	if (p.argc)
		return usage_error("unexpected argument '%s'", p.argv[0]);
	return 0;
}

/* Every --event known to libpfm4 and openable here: one clear error now, not 50 skips later. */
static int check_user_events(struct counters_args *a)
{
	for (unsigned i = 0; i < a->nevents; i++) {
		struct perf_event_attr attr;
		int rc = pcost_counter_resolve(a->events[i], false, &attr, NULL, 0);

		if (rc < 0)
			return explain_open_error(a->events[i], rc == -EINVAL ? -ENOENT : rc);
	}
	if (a->nevents) {
		struct pcost_counters *c;
		int failed = -1, rc;
		PCOST_OPTS(pcost_counter_opts, o, .failed_index = &failed,
			   .exclude_kernel = pcost_counter_user_only());

		rc = pcost_counters_open_opts(&c, (const char *const *)a->events, a->nevents, &o);
		if (rc < 0)
			return explain_open_error(failed >= 0 ? a->events[failed] : a->events[0],
						  rc);
		pcost_counters_close(c);
	}
	return 0;
}

static char *options_json(const struct counters_args *a, const struct pcost_timer *t, unsigned kmax,
			  bool pmu, const char *pmu_why)
{
	cJSON *o = cJSON_CreateObject(), *ks = cJSON_AddArrayToObject(o, "k");
	char machine[256], *s;

	pcost_env_headline(pcost_env_self(), machine, sizeof(machine));
	cJSON_AddStringToObject(o, "machine", machine);
	cJSON_AddNumberToObject(o, "iterations", a->iterations);
	cJSON_AddNumberToObject(o, "warmup", a->warmup);
	cJSON_AddNumberToObject(o, "cpu", a->cpu);
	cJSON_AddStringToObject(o, "timer", pcost_counter_timer_name(t));
	cJSON_AddStringToObject(o, "timer_why", t->why);
	cJSON_AddBoolToObject(o, "pmu", pmu);
	cJSON_AddStringToObject(o, "counting", pcost_counter_user_only() ? "user" : "user+kernel");
	if (!pmu)
		cJSON_AddStringToObject(o, "pmu_why", pmu_why);
	for (unsigned k = 1; k <= kmax; k++)
		if (a->kset[k])
			cJSON_AddItemToArray(ks, cJSON_CreateNumber(k));
	cJSON_AddBoolToObject(o, "matmul", a->matmul);
	if (a->matmul) {
		cJSON_AddNumberToObject(o, "matmul_n", 128);
		cJSON_AddNumberToObject(o, "matmul_runs", a->matmul_runs);
	}
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

static void add_skip(struct pcost_session *s, const struct pcost_counter_iface *ifc, const char *op,
		     unsigned k, const char *timer, const char *why)
{
	struct pcost_counter_series *sr =
		pcost_session_add_series(s, ifc->name, op, "", k, timer, NULL, 0);

	sr->note = xasprintf("skipped: %s", why);
	pcost_sink_series(s, s->nseries - 1);
}

static void measure_all(struct counters_args *a, const struct pcost_counter_plan *plan,
			struct pcost_session *s, char **names)
{
	const char *timer = pcost_counter_timer_name(plan->timer);
	struct pcost_counter_slot ev[16], base[16];
	size_t nev = 0, nbase = 0;

	/* Rows that cannot run here are listed once with the reason. */
	for (size_t i = 0; i < a->nifaces; i++) {
		const struct pcost_counter_iface *ifc = a->ifaces[i];
		char why[512] = "";

		if (!ifc->available(why, sizeof(why))) {
			add_skip(s, ifc, "all", 0, timer, why);
			continue;
		}
		if (ifc->takes_events)
			ev[nev++].ifc = ifc;
		else
			base[nbase++].ifc = ifc;
	}
	for (unsigned k = 1; k <= MAX_K && nev && !pcost_interrupted; k++) {
		size_t before = s->nseries;

		if (!a->kset[k])
			continue;
		pcost_counter_measure_set(ev, nev, (const char *const *)names, k, plan, s);
		for (size_t j = before; j < s->nseries; j++)
			pcost_sink_series(s, j);
		for (size_t i = 0; i < nev; i++)
			if (ev[i].rc < 0)
				add_skip(s, ev[i].ifc, "all", k, timer, ev[i].why);
	}
	if (nbase && !pcost_interrupted) {
		size_t before = s->nseries;

		pcost_counter_measure_set(base, nbase, NULL, 0, plan, s);
		for (size_t j = before; j < s->nseries; j++)
			pcost_sink_series(s, j);
		for (size_t i = 0; i < nbase; i++)
			if (base[i].rc < 0)
				add_skip(s, base[i].ifc, "all", 0, timer, base[i].why);
	}
	if (!a->matmul)
		return;
	for (size_t i = 0; i < a->nifaces && !pcost_interrupted; i++) {
		const struct pcost_counter_iface *ifc = a->ifaces[i];
		char why[512] = "";

		if (!ifc->takes_events || !ifc->available(why, sizeof(why)))
			continue;
		for (unsigned k = 1; k <= MAX_K && !pcost_interrupted; k++) {
			size_t before = s->nseries;
			int rc;

			if (!a->kset[k])
				continue;
			rc = pcost_counter_measure_matmul(ifc, (const char *const *)names, k, plan,
							  s, why, sizeof(why));
			if (rc < 0)
				add_skip(s, ifc, "matmul", k, timer, why);
			for (size_t j = before; rc >= 0 && j < s->nseries; j++)
				pcost_sink_series(s, j);
		}
	}
}

/* The defaults: k = 1, 2, 4, 8, 16; every interface. */
static void counters_args_init(struct counters_args *a)
{
	static const unsigned default_ks[] = { 1, 2, 4, 8, 16 };
	const struct pcost_counter_iface *ifc;

	*a = (struct counters_args){
		.cpu = -1,
		.iterations = 1024,
		.warmup = 64,
		.matmul_runs = 32,
	};
	pcost_measure_opts_init(&a->m);
	for (size_t i = 0; i < ARRAY_SIZE(default_ks); i++)
		a->kset[default_ks[i]] = true;
	for_each_counter_iface(ifc)
		if (a->nifaces < ARRAY_SIZE(a->ifaces))
			a->ifaces[a->nifaces++] = ifc;
}

/*
 * The events measured, into names[0..*kmax): the --event names (every k
 * asked for at most their number), else the default events, malloc'd.
 * 0 or an exit code (error printed).
 */
static int choose_events(struct counters_args *a, bool pmu, const char *pmu_why, char **names,
			 unsigned *kmax)
{
	int rc;

	if (!a->nevents) {
		*kmax = MAX_K;
		if (pcost_counter_default_events(pmu, *kmax, names) < 0)
			return error("no default events");
		if (!pmu)
			info("%s: using software events", pmu_why);
		return 0;
	}
	if ((rc = check_user_events(a)))
		return rc;
	if (!a->kgiven) {
		memset(a->kset, 0, sizeof(a->kset));
		a->kset[a->nevents] = true;
	}
	for (unsigned k = a->nevents + 1; k <= MAX_K; k++)
		if (a->kset[k])
			return usage_error("--events asks for %u events but only %u --event names "
					   "were given",
					   k, a->nevents);
	for (unsigned i = 0; i < a->nevents; i++)
		names[i] = a->events[i];
	*kmax = a->nevents;
	return 0;
}

/* Pin to --cpu, or to the CPU we started on; 0 or an exit code. */
static int pin_to_cpu(struct counters_args *a)
{
	int rc;

	if (a->cpu < 0)
		a->cpu = sched_getcpu();
	rc = a->cpu < 0 || a->cpu >= 64 ? -ERANGE : pcost_pin_mask(1ULL << a->cpu);
	if (rc < 0)
		return usage_error("cannot pin to CPU %d: %s (see --cpu)", a->cpu, strerror(-rc));
	return 0;
}

/* Measure every interface into a new session, stored as it goes, and report it. */
static int measure_and_report(struct counters_args *a, char **names, unsigned kmax, bool pmu,
			      const char *pmu_why, int argc, char **argv)
{
	struct pcost_counter_plan plan;
	struct pcost_timer timer;
	struct pcost_session s;
	int rc;

	pcost_counter_timer_init(&timer, a->monotonic);
	plan = (struct pcost_counter_plan){ .iterations = a->iterations,
					    .warmup = a->warmup,
					    .matmul_runs = a->matmul_runs,
					    .matmul_n = 128,
					    .timer = &timer };

	pcost_session_init(&s, PCOST_SESSION_COUNTERS);
	s.started = (int64_t)time(NULL);
	s.cmdline = pcost_join_argv(argc, argv);
	s.version = xstrdup(PCOST_VERSION);
	s.env_json = pcost_env_to_json_text(pcost_env_self());
	s.tsc_hz = timer.tsc_hz;
	s.options_json = options_json(a, &timer, kmax, pmu, pmu_why);

	pcost_sink_begin(&s, a->m.db, a->m.no_store);
	measure_all(a, &plan, &s, names);
	s.complete = !pcost_interrupted;
	pcost_sink_end(&s);
	pcost_counter_papi_shutdown();

	rc = pcost_report_counters(&s, a->m.fmt, stdout) < 0 ? 1 : 0;
	if (!s.complete) {
		warning("interrupted: the report holds what was measured before the signal");
		rc = 1;
	} else if (!rc && pcost_sink_lost()) {
		rc = PCOST_EXIT_NOT_STORED;
	}
	pcost_session_release(&s);
	return rc;
}

int cmd_counters(int argc, char **argv)
{
	struct counters_args a;
	char *names[PCOST_COUNTERS_MAX] = { NULL };
	char pmu_why[256] = "";
	unsigned kmax = 0;
	bool pmu;
	int rc;

	counters_args_init(&a);
	rc = parse_args(argc, argv, &a);
	if (rc) {
		for (unsigned i = 0; i < a.nevents; i++)
			free(a.events[i]);
		return rc < 0 ? 0 : rc;
	}

	pmu = pcost_counters_have_pmu(pmu_why, sizeof(pmu_why));
	if (pcost_counter_probe_kernel() == 1)
		warning("kernel.perf_event_paranoid allows this user to count user space only: "
			"perf rows count with exclude_kernel (context-switches read 0)");
	if ((rc = choose_events(&a, pmu, pmu_why, names, &kmax)))
		goto out_events;
	if (!(rc = pin_to_cpu(&a)))
		rc = measure_and_report(&a, names, kmax, pmu, pmu_why, argc, argv);
	if (!a.nevents)
		for (unsigned i = 0; i < kmax; i++)
			free(names[i]);
out_events:
	for (unsigned i = 0; i < a.nevents; i++)
		free(a.events[i]);
	return rc;
}
