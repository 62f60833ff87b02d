// SPDX-License-Identifier: MIT
/* cmd/cmd-run: measure what each monitor costs a built-in workload or the user's command. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-run-count.h"
#include "cmd/cmd-options.h"
#include "core/cleanup.h"
#include "core/env.h"
#include "core/format.h"
#include "core/proc.h"
#include "monitors/monitor.h"
#include "report/report.h"
#include "run/runner.h"
#include "store/store.h"
#include "workloads/workload.h"

#define MAX_ITEMS 32

static const char usage_text[] =
	"usage: probecost run [-w WORKLOAD[:k=v,...]]... [-m MONITOR]... [options] [-- COMMAND ARGS...]\n"
	"       probecost run                      the default study (see docs/run.md)\n"
	"\n"
	"Runs each workload plain (monitor 'none') and under each monitor, in interleaved\n"
	"blocks, and prints elapsed time, the overhead, the extra cycles and the monitor's\n"
	"fixed and per-event costs, each with its 95% interval from the paired blocks.\n"
	"\n"
	"  -w, --workload W[:k=v,..]  a built-in workload ('probecost list workloads')\n"
	"  -m, --monitor M           a monitor ('probecost list monitors'); 'CMD ARGS' with a\n"
	"                            space is a custom wrapper, {} marks where the workload goes\n"
	"      --attach CMD          a custom attach monitor started beside each run\n"
	"      --ready REGEX         ... ready when a line of its output matches REGEX\n"
	"      --events N            events one run of COMMAND does (for cost per event); with\n"
	"                            --scale, the count at scale 1, and {n} in COMMAND is\n"
	"                            replaced by the count at each scale\n"
	"      --unit NAME           the unit of those events (default 'event')\n"
	"  -r, --runs N              measured blocks (default: adaptive)\n"
	"      --warmup N            warm-up blocks discarded (default 1)\n"
	"      --min-runs N          adaptive: the pilot, and at least N blocks (default 10,\n"
	"                            the block count at which bench/coverage.sh checks the\n"
	"                            intervals under skewed costs)\n"
	"      --max-runs N          adaptive: at most N blocks (default 100)\n"
	"      --precision PP        adaptive: after the pilot, run the blocks its variance says\n"
	"                            every overhead CI needs to be +- PP percentage points\n"
	"                            (default 2), planned once (a two-stage design)\n"
	"      --max-time S          adaptive: stop adding blocks after S seconds (default 60)\n"
	"      --scale LIST          run at these multiples of the workload size (1,2,4) and\n"
	"                            fit time = fixed + per-event x events, with intervals,\n"
	"                            one fit per workload, monitor and arguments but the size\n"
	"      --threads LIST        run workloads that have threads (syscall, stanford, ...)\n"
	"                            at each count (1,2,4): cost per event by thread count\n"
	"      --placement LIST      same,split: each monitor on the workload's CPU (same) or\n"
	"                            on another one (split); the workload stays on --cpu\n"
	"      --cpu LIST            pin every process to these CPUs (e.g. 0)\n"
	"      --timeout S           kill a run (its whole process group) after S seconds\n"
	"      --ready-timeout S     attach monitors must be ready within S seconds (default 10)\n"
	"      --seed N              block order seed (default: from the clock)\n"
	"      --format F            text, json, csv or markdown\n"
	"      --db PATH|URL         the store: an SQLite file or a postgresql:// URL (default\n"
	"                            $PROBECOST_DB, else $XDG_DATA_HOME/probecost/probecost.db)\n"
	"      --no-store            do not store the session\n"
	"      --default-study       the default study (what 'probecost run' alone does)\n"
	"      --count               run COMMAND once, untimed, and print what it did that\n"
	"                            monitors pay for (syscalls in total and by number, context\n"
	"                            switches, page faults, tasks, execs, SDT probe hits) and the\n"
	"                            counter of each; takes --cpu, --timeout and --format\n"
	"                            (text, json, csv); COMMAND's stdout goes to /dev/null\n"
	"\n"
	"  -m none alone measures the baseline alone, as no -m does.\n"
	"\n"
	"exit status: 0 measured (and stored); 1 every run failed, or no monitor asked for is\n"
	"available; 2 bad usage or bad input; 3 measured and printed but not stored (the\n"
	"store could not be written: see the warning); 128+N interrupted by signal N.\n";

enum {
	OPT_ATTACH = 256, OPT_READY, OPT_EVENTS, OPT_UNIT, OPT_SCALE, OPT_DEFAULT, OPT_HELP,
	OPT_PLACEMENT, OPT_COUNT,
};

static const struct option own_longopts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "monitor", required_argument, NULL, 'm' },
	{ "runs", required_argument, NULL, 'r' },
	{ "attach", required_argument, NULL, OPT_ATTACH },
	{ "ready", required_argument, NULL, OPT_READY },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "unit", required_argument, NULL, OPT_UNIT },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "default-study", no_argument, NULL, OPT_DEFAULT },
	{ "count", no_argument, NULL, OPT_COUNT },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* The shared options run takes (cmd-measure-opts.c holds their ranges). */
static const enum pcost_mopt shared_opts[] = {
	PCOST_MOPT_WARMUP,	  PCOST_MOPT_MIN_RUNS, PCOST_MOPT_MAX_RUNS, PCOST_MOPT_PRECISION_PP,
	PCOST_MOPT_MAX_TIME,	  PCOST_MOPT_THREADS,  PCOST_MOPT_CPU,	    PCOST_MOPT_TIMEOUT,
	PCOST_MOPT_READY_TIMEOUT, PCOST_MOPT_SEED,     PCOST_MOPT_FORMAT,   PCOST_MOPT_DB,
	PCOST_MOPT_NO_STORE,
};

struct run_args {
	const char *workloads[MAX_ITEMS];
	size_t nworkloads;
	const char *monitors[MAX_ITEMS];
	size_t nmonitors;
	const char *attach, *ready, *unit;
	int64_t events;
	double scales[8];
	size_t nscales;
	bool placement[2];	/* --placement: [0] same, [1] split */
	uint64_t split_mask;	/* the monitor's CPU when split */
	bool default_study;
	bool count;		/* --count: one counting run of the command (cmd/cmd-run-count.h) */
	char **command;
	int ncommand;
	/* The shared options: runner options (ro), --threads (nthreads 0: the workload's
	 * own), --cpu, --format, --db, --no-store, --seed. */
	struct pcost_measure_opts m;
};

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

static int parse_u(const char *opt, const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	if (pcost_parse_u64(v, min, max, out) < 0)
		return usage_error("%s '%s': expected a whole number in %llu..%llu", opt, v,
				   (unsigned long long)min, (unsigned long long)max);
	return 0;
}

static int parse_scales(const char *v, struct run_args *a)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;

	a->nscales = 0;
	if (!pcost_list_well_formed(v))
		rc = usage_error("--scale '%s': expected up to 8 numbers in 0.001..1000, "
				 "comma separated (e.g. 1,2,4)", v);
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		double d;

		if (a->nscales >= ARRAY_SIZE(a->scales) ||
		    pcost_parse_double(tok, 0.001, 1000, &d) < 0) {
			rc = usage_error("--scale '%s': expected up to 8 numbers in 0.001..1000, "
					 "comma separated (e.g. 1,2,4)", v);
			break;
		}
		for (size_t k = 0; k < a->nscales && !rc; k++)
			if (a->scales[k] == d)
				rc = usage_error("--scale '%s': %g is given twice; each scale once", v, d);
		a->scales[a->nscales++] = d;
	}
	free(copy);
	return rc;
}

static int parse_placement(const char *v, struct run_args *a)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;

	a->placement[0] = a->placement[1] = false;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "same")) {
			a->placement[0] = true;
		} else if (!strcmp(tok, "split")) {
			a->placement[1] = true;
		} else {
			rc = usage_error("--placement '%s': expected same, split or same,split", v);
			break;
		}
	}
	free(copy);
	return rc;
}

/*
 * --placement: the workload's CPU is --cpu (default the first CPU we may use);
 * split puts the monitor on the first allowed CPU outside it.
 */
static int placement_cpus(struct run_args *a)
{
	cpu_set_t set;
	uint64_t allowed = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return error("could not read the CPUs allowed: %s", strerror(errno)), PCOST_EXIT_FAIL;
	for (int c = 0; c < 64; c++)
		if (CPU_ISSET(c, &set))
			allowed |= 1ULL << c;
	if (!a->m.ro.cpu_mask) {
		a->m.ro.cpu_mask = allowed & -allowed;
		pcost_format_cpumask(a->m.ro.cpu_mask, a->m.cpu_text, sizeof(a->m.cpu_text));
	}
	a->split_mask = allowed & ~a->m.ro.cpu_mask;
	a->split_mask &= -a->split_mask;
	if (a->placement[1] && !a->split_mask)
		return usage_error("--placement split needs a CPU besides --cpu %s to put the monitor "
				   "on; this machine lets probecost use only %s", a->m.cpu_text,
				   a->m.cpu_text);
	return 0;
}

static bool command_has_n(const struct run_args *a)
{
	for (int i = 0; i < a->ncommand; i++)
		if (strstr(a->command[i], "{n}"))
			return true;
	return false;
}

static int events_option(struct run_args *a)
{
	uint64_t u;

	if (parse_u("--events", optarg, 1, UINT64_MAX / 2, &u))
		return PCOST_EXIT_USAGE;
	a->events = (int64_t)u;
	return 0;
}

/* One option c (value optarg) into a; 0, -1 after --help, or an exit code. */
static int one_option(struct run_args *a, int c, char **argv)
{
	switch (c) {
	case 'w':
		if (a->nworkloads >= MAX_ITEMS)
			return usage_error("too many -w (at most %d)", MAX_ITEMS);
		a->workloads[a->nworkloads++] = optarg;
		break;
	case 'm':
		if (a->nmonitors >= MAX_ITEMS)
			return usage_error("too many -m (at most %d)", MAX_ITEMS);
		a->monitors[a->nmonitors++] = optarg;
		break;
	case OPT_ATTACH:
		a->attach = optarg;
		break;
	case OPT_READY:
		a->ready = optarg;
		break;
	case OPT_UNIT:
		if (!*optarg || strlen(optarg) > 31 || strpbrk(optarg, " \t\n/"))
			return usage_error("--unit '%s': expected one word of at most 31 characters",
					   optarg);
		a->unit = optarg;
		break;
	case OPT_PLACEMENT:
		return parse_placement(optarg, a) ? PCOST_EXIT_USAGE : 0;
	case OPT_SCALE:
		return parse_scales(optarg, a) ? PCOST_EXIT_USAGE : 0;
	case OPT_EVENTS:
		return events_option(a);
	case OPT_DEFAULT:
		a->default_study = true;
		break;
	case OPT_COUNT:
		a->count = true;
		break;
	case OPT_HELP:
		fputs(usage_text, stdout);
		return -1;
	case ':':
		return usage_error("option '%s' needs a value; see 'probecost run --help'",
				   argv[optind - 1]);
	case 'r':
		return pcost_measure_opt(&a->m, PCOST_MOPT_RUNS, optarg);
	default: {
		int rc = pcost_measure_opt(&a->m, c, optarg);

		if (rc != PCOST_MOPT_NOT_MINE)
			return rc;
		return usage_error("unknown option '%s'; see 'probecost run --help'",
				   argv[optind - 1]);
	}
	}
	return 0;
}

/* The options that only make sense together; 0 or an exit code. */
static int check_args(struct run_args *a)
{
	if (a->command && a->nworkloads)
		return usage_error("give either -w workloads or '-- COMMAND', not both");
	if (a->count && (!a->command || a->nworkloads || a->nmonitors || a->attach || a->nscales ||
			 a->events >= 0 || a->default_study))
		return usage_error("--count counts one run of your command: give it '-- COMMAND' "
				   "and no -w, -m, --attach, --scale, --events or --default-study");
	if (a->command && (a->nscales || command_has_n(a)) && a->events < 0)
		return usage_error("--scale and {n} need --events N: the events one run of your "
				   "command makes at scale 1");
	if (a->command && a->nscales && !command_has_n(a))
		return usage_error("--scale with a command needs {n} in it, replaced by the event "
				   "count at each scale (e.g. -- ./bench --iterations {n})");
	if (pcost_measure_opts_check(&a->m))
		return PCOST_EXIT_USAGE;
	if (a->command && (a->m.nthreads || a->placement[0] || a->placement[1]))
		return usage_error("--threads and --placement need built-in workloads (-w): "
				   "probecost cannot change your command's threads or CPU");
	if ((a->events >= 0 || a->unit) && !a->command)
		return usage_error("--events and --unit describe your own command ('-- COMMAND')");
	if (a->ready && !a->attach)
		return usage_error("--ready needs --attach CMD");
	if (!a->command && !a->nworkloads && !a->nmonitors && !a->attach && !a->nscales)
		a->default_study = true;
	else if (!a->command && !a->nworkloads && !a->default_study)
		return usage_error("nothing to run: give -w WORKLOAD or '-- COMMAND' (or no "
				   "options at all for the default study)");
	if (a->default_study && (a->command || a->nworkloads || a->nmonitors || a->attach))
		return usage_error("--default-study takes no -w, -m, --attach or command");
	if (a->m.ro.min_runs > a->m.ro.max_runs)
		return usage_error("--min-runs %u is more than --max-runs %u", a->m.ro.min_runs,
				   a->m.ro.max_runs);
	if (a->placement[0] || a->placement[1])
		return placement_cpus(a);
	return 0;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	struct option *longopts;
	int c, rc = 0;

	memset(a, 0, sizeof(*a));
	pcost_measure_opts_init(&a->m);
	a->m.ro.max_runs = 100;
	a->events = -1;
	longopts = pcost_measure_longopts(own_longopts, shared_opts, ARRAY_SIZE(shared_opts));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:w:m:r:", longopts, NULL)) != -1)
		if ((rc = one_option(a, c, argv)))
			break;
	free(longopts);
	if (rc)
		return rc;
	if (optind < argc) {
		if (optind > 0 && strcmp(argv[optind - 1], "--"))
			return usage_error("unexpected '%s': put your command after '--'", argv[optind]);
		a->command = argv + optind;
		a->ncommand = argc - optind;
	}
	return check_args(a);
}

/* "pipe:loops=2000,mode=thread" at scale k -> argv for `probecost workload`, and its record. */
static int workload_argv(const char *spec, double scale, unsigned threads, char ***argv,
			 char **name, char **args, char *unit, size_t unitlen)
{
	const struct pcost_workload *wl;
	struct pcost_params p;
	char *copy = xstrdup(spec), *colon = strchr(copy, ':'), *words[PCOST_MAX_PARAMS + 1];
	char err[256], fmt[1024], *save = NULL;
	int n = 0, idx;

	if (colon)
		*colon = 0;
	if (!(wl = pcost_workload_find(copy))) {
		usage_error("unknown workload '%s'; see 'probecost list workloads'", copy);
		free(copy);
		return -EINVAL;
	}
	for (char *t = colon ? strtok_r(colon + 1, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		if (n >= PCOST_MAX_PARAMS) {
			usage_error("workload '%s': too many parameters", spec);
			free(copy);
			return -EINVAL;
		}
		words[n++] = t;
	}
	words[n] = NULL;
	if (pcost_params_parse(wl, n, words, &p, err, sizeof(err)) < 0) {
		usage_error("workload '%s': %s", spec, err);
		free(copy);
		return -EINVAL;
	}
	if (scale != 1) {
		if (!wl->size_key || (idx = pcost_param_index(wl, wl->size_key)) < 0) {
			usage_error("workload '%s' has no size to scale", wl->name);
			free(copy);
			return -EINVAL;
		}
		const struct pcost_param_desc *d = &wl->params[idx];
		double v = round((double)p.v[idx] * scale);

		if (v > (double)d->max) {
			usage_error("workload '%s' at --scale %g: %s=%.0f is past its largest, %llu",
				    spec, scale, d->key, v, (unsigned long long)d->max);
			free(copy);
			return -EINVAL;
		}
		p.v[idx] = v < 1 ? 1 : (uint64_t)v;
		p.given[idx] = true;
	}
	if (threads) {
		if ((idx = pcost_param_index(wl, "threads")) < 0) {
			usage_error("--threads: workload '%s' has no threads; use one that has "
				    "(see 'probecost list workloads')", wl->name);
			free(copy);
			return -EINVAL;
		}
		p.v[idx] = threads;
		p.given[idx] = true;
	}
	pcost_params_format(&p, fmt, sizeof(fmt));
	{
		char *tmp = xasprintf("%s workload %s %s", pcost_self_exe(), wl->name, fmt);
		char **v;

		/* The words have no quotes or blanks in them: the formatted k=v list. */
		if (pcost_argv_split(tmp, &v) < 0)
			v = NULL;
		free(tmp);
		/* argv[0] may hold blanks (a path with spaces): put it back whole. */
		if (v) {
			free(v[0]);
			v[0] = xstrdup(pcost_self_exe());
			if (strchr(pcost_self_exe(), ' ')) {
				pcost_argv_free(v);
				v = NULL;
			}
		}
		if (!v) {
			usage_error("the probecost binary's path '%s' has blanks; move it", pcost_self_exe());
			free(copy);
			return -EINVAL;
		}
		*argv = v;
	}
	*name = xstrdup(wl->name);
	*args = xstrdup(fmt);
	snprintf(unit, unitlen, "%s", wl->unit ?: "event");
	free(copy);
	return 0;
}

/* word with every "{n}" replaced by n; caller frees. */
static char *subst_n(const char *word, uint64_t n)
{
	char num[24], *out = xstrdup(""), *tmp;
	const char *p = word, *q;

	snprintf(num, sizeof(num), "%llu", (unsigned long long)n);
	while ((q = strstr(p, "{n}"))) {
		tmp = xasprintf("%s%.*s%s", out, (int)(q - p), p, num);
		free(out);
		out = tmp;
		p = q + 3;
	}
	tmp = xasprintf("%s%s", out, p);
	free(out);
	return tmp;
}

/*
 * The user's command at one scale: {n} becomes the event count at that scale
 * (--events x scale), as hyperfine's --parameter-scan does; one configuration
 * per monitor.
 */
static void add_command(struct pcost_runner *r, struct pcost_monitor **mons, size_t nmons,
			const struct run_args *a, double scale)
{
	int64_t ev = a->events >= 0 ? (int64_t)llround((double)a->events * scale) : -1;
	char **argv = xcalloc((size_t)a->ncommand + 1, sizeof(char *)), *joined;
	struct pcost_target t = {
		.workload = "command",
		.unit = a->unit ? a->unit : "event",
		.argv = argv,
		.scale = scale,
		.events = ev,
		.report_fd = false,
	};

	for (int i = 0; i < a->ncommand; i++)
		argv[i] = subst_n(a->command[i], ev >= 0 ? (uint64_t)ev : 0);
	joined = pcost_join_argv(a->ncommand, argv);
	t.workload_args = joined;
	for (size_t m = 0; m < nmons; m++)
		pcost_runner_add(r, mons[m], &t);
	free(joined);
	pcost_argv_free(argv);
}

static char *options_json(const struct run_args *a, const char *headline)
{
	cJSON *o = cJSON_CreateObject();
	char *txt;

	if (headline)
		cJSON_AddStringToObject(o, "headline", headline);
	cJSON_AddNumberToObject(o, "runs", a->m.ro.runs);
	cJSON_AddNumberToObject(o, "warmup", a->m.ro.warmup);
	cJSON_AddNumberToObject(o, "min_runs", a->m.ro.min_runs);
	cJSON_AddNumberToObject(o, "max_runs", a->m.ro.max_runs);
	cJSON_AddNumberToObject(o, "precision", a->m.ro.precision);
	cJSON_AddNumberToObject(o, "max_time_s", a->m.ro.max_time_s);
	cJSON_AddNumberToObject(o, "timeout_s", a->m.ro.timeout_s);
	cJSON_AddStringToObject(o, "cpu", a->m.cpu_text);
	cJSON_AddBoolToObject(o, "default_study", a->default_study);
	if (a->m.nthreads) {
		cJSON *t = cJSON_AddArrayToObject(o, "threads");

		for (size_t i = 0; i < a->m.nthreads; i++)
			cJSON_AddItemToArray(t, cJSON_CreateNumber(a->m.threads[i]));
	}
	if (a->placement[0] || a->placement[1]) {
		char cpus[64];

		cJSON_AddStringToObject(o, "placement", a->placement[0] && a->placement[1] ? "same,split" :
							a->placement[0] ? "same" : "split");
		pcost_format_cpumask(a->split_mask, cpus, sizeof(cpus));
		cJSON_AddStringToObject(o, "split_cpu", cpus);
	}
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
static void apply_defaults(struct run_args *a)
{
	if (a->default_study) {
		for (size_t i = 0; i < ARRAY_SIZE(study_workloads); i++)
			a->workloads[a->nworkloads++] = study_workloads[i];
		for (size_t i = 0; i < ARRAY_SIZE(study_monitors); i++)
			a->monitors[a->nmonitors++] = study_monitors[i];
		/* Pinned to one CPU: cross-CPU wake-ups here vary +-33% (DESIGN.md). */
		if (!a->m.ro.cpu_mask) {
			a->m.ro.cpu_mask = 1;
			snprintf(a->m.cpu_text, sizeof(a->m.cpu_text), "0");
		}
		if (!a->m.ro.runs)
			a->m.ro.runs = STUDY_BLOCKS;
	}
	if (!a->m.seed_given)
		a->m.ro.seed = (uint64_t)time(NULL);
	if (!a->nscales)
		a->scales[a->nscales++] = 1;
}

/*
 * Monitors: none first, then each -m (and --attach) that is available here,
 * into mons[*n]; 0 or an exit code (what was created is in mons either way).
 */
static int create_monitors(const struct run_args *a, struct pcost_monitor **mons, size_t *n)
{
	size_t asked = 0;	/* monitors other than the baseline */
	char err[256];

	mons[(*n)++] = pcost_monitor_create("none", err, sizeof(err));
	for (size_t i = 0; i < a->nmonitors + (a->attach ? 1 : 0); i++) {
		struct pcost_monitor *m;
		char why[256];

		if (i < a->nmonitors)
			m = pcost_monitor_create(a->monitors[i], err, sizeof(err));
		else
			m = pcost_monitor_attach_create(a->attach, a->ready, err, sizeof(err));
		if (!m)
			return usage_error("%s", err);
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
		mons[(*n)++] = m;
	}
	if (*n == 1 && asked) {
		error("nothing left to measure: no monitor asked for is available here ('probecost "
		      "list monitors' says why, and what to install)");
		return PCOST_EXIT_FAIL;
	}
	return 0;
}

/* The session's record: command line, version, machine, options. */
static void session_start(struct pcost_session *s, const struct run_args *a, int argc, char **argv)
{
	const struct pcost_env *e = pcost_env_self();
	char **v = xcalloc((size_t)argc + 2, sizeof(*v));
	char headline[256] = "";

	pcost_session_init(s, PCOST_SESSION_RUN);
	s->started = (int64_t)time(NULL);
	s->version = xstrdup(PCOST_VERSION);
	v[0] = "probecost";
	for (int i = 0; i < argc; i++)
		v[i + 1] = argv[i];
	s->cmdline = pcost_join_argv(argc + 1, v);
	free(v);
	s->env_json = pcost_env_to_json_text(e);
	pcost_env_headline(e, headline, sizeof(headline));
	s->tsc_hz = e->tsc_hz;
	s->options_json = options_json(a, headline[0] ? headline : NULL);
}

/* One monitor on one target, once per --placement asked (the baseline once, unplaced). */
static void add_placed(const struct run_args *a, struct pcost_runner *r, struct pcost_monitor *m,
		       struct pcost_target *t)
{
	static const char *const names[] = { "same", "split" };

	if (m->ops->kind == PCOST_MON_BASELINE || (!a->placement[0] && !a->placement[1])) {
		pcost_runner_add(r, m, t);
		return;
	}
	for (int k = 0; k < 2; k++) {
		if (!a->placement[k])
			continue;
		t->placement = names[k];
		t->monitor_cpu_mask = k ? a->split_mask : a->m.ro.cpu_mask;
		pcost_runner_add(r, m, t);
	}
	t->placement = NULL;
	t->monitor_cpu_mask = 0;
}

/* Every -w at every --scale and --threads, under every monitor. */
static int add_workloads(const struct run_args *a, struct pcost_runner *r,
			 struct pcost_monitor **mons, size_t nmons)
{
	size_t nthreads = a->m.nthreads ? a->m.nthreads : 1;

	for (size_t w = 0; w < a->nworkloads; w++) {
		for (size_t k = 0; k < a->nscales; k++) {
			for (size_t h = 0; h < nthreads; h++) {
				struct pcost_target t = { .scale = a->scales[k], .events = -1,
							  .report_fd = true };
				char **wargv, *name, *args, unit[32];

				t.threads = a->m.nthreads ? a->m.threads[h] : 0;
				if (workload_argv(a->workloads[w], a->scales[k], t.threads, &wargv, &name,
						  &args, unit, sizeof(unit)) < 0)
					return -EINVAL;
				t.workload = name;
				t.workload_args = args;
				t.unit = unit;
				t.argv = wargv;
				for (size_t m = 0; m < nmons; m++)
					add_placed(a, r, mons[m], &t);
				pcost_argv_free(wargv);
				free(name);
				free(args);
			}
		}
	}
	return 0;
}

/* One configuration per (target, monitor): the user's command, or each workload at each scale. */
static int add_targets(struct pcost_runner *r, const struct run_args *a,
		       struct pcost_monitor **mons, size_t nmons)
{
	if (a->command) {
		for (size_t k = 0; k < a->nscales; k++)
			add_command(r, mons, nmons, a, a->scales[k]);
		return 0;
	}
	return add_workloads(a, r, mons, nmons) < 0 ? PCOST_EXIT_USAGE : 0;
}

/* Measure into the store, print the report; the exit code. */
static int measure_and_report(struct pcost_runner *r, struct pcost_session *s,
			      const struct run_args *a)
{
	char err[256];
	int rc;

	/* Sweep what a killed probecost left; refuse while a foreign tracer is armed. */
	if ((rc = pcost_runner_check(r, err, sizeof(err))) < 0) {
		error("%s", err);
		return PCOST_EXIT_FAIL;
	}
	pcost_sink_begin(s, a->m.db, a->m.no_store);
	rc = pcost_runner_measure(r, err, sizeof(err));
	if (rc < 0 && rc != -EINTR && !s->nconfigs) {
		pcost_sink_end(s);
		error("%s", err);
		return PCOST_EXIT_FAIL;
	}
	for (size_t i = 0; i < s->nconfigs; i++) {
		unsigned count;
		const char *note = pcost_runner_note(r, i, &count);

		if (note)
			warning("%s: %s (in %u run%s)", s->configs[i].monitor, note, count,
				count == 1 ? "" : "s");
	}
	pcost_sink_end(s);
	if (rc == -EINTR)
		warning("interrupted: printing what was measured so far");
	else if (rc < 0)
		error("%s", err);
	if (pcost_report_run(s, a->m.fmt, stdout) < 0)
		error("could not render the report");
	fflush(stdout);
	if (rc == -EINTR)
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	if (rc < 0)
		return PCOST_EXIT_FAIL;
	if (pcost_session_failed(s)) {
		const char *why = pcost_session_fail_reason(s);

		error("every run failed%s%s", why ? ": " : "", why ? why : "");
		return PCOST_EXIT_FAIL;
	}
	return pcost_sink_lost() ? PCOST_EXIT_NOT_STORED : 0;
}

int cmd_run(int argc, char **argv)
{
	struct pcost_monitor *mons[MAX_ITEMS + 2];
	size_t nmons = 0;
	struct run_args a;
	struct pcost_session s;
	struct pcost_runner r;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	if (a.count)
		return pcost_run_count(a.command, a.m.ro.cpu_mask, a.m.ro.timeout_s, a.m.fmt);
	apply_defaults(&a);
	if ((rc = create_monitors(&a, mons, &nmons)))
		goto out_mons;
	session_start(&s, &a, argc, argv);
	a.m.ro.progress = isatty(2) && pcost_verbosity > 0;
	pcost_runner_init(&r, &s, &a.m.ro);
	rc = add_targets(&r, &a, mons, nmons);
	if (!rc)
		rc = measure_and_report(&r, &s, &a);
	pcost_runner_release(&r);
	pcost_session_release(&s);
out_mons:
	for (size_t m = 0; m < nmons; m++)
		pcost_monitor_free(mons[m]);
	return rc;
}
