// SPDX-License-Identifier: MIT
/* cmd/cmd-run: measure what each monitor costs a built-in workload or the user's command. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-run-count.h"
#include "cmd/cmd-options.h"
#include "core/cleanup.h"
#include "report/report.h"
#include "run/study.h"
#include "store/store.h"

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
	"      --ready REGEX         after --attach or --service: that one is ready when a line\n"
	"                            of its output (stdout or stderr) matches REGEX\n"
	"      --service CMD         a server started once for the session (stopped at the end):\n"
	"                            the workload is its load generator; {pid} in a monitor's\n"
	"                            command is its pid, and perf-stat, perf-record, strace and\n"
	"                            bpftrace-syscalls watch its processes\n"
	"      --ready-port [ADDR:]PORT\n"
	"                            with --service: it is ready once it accepts a TCP\n"
	"                            connection on PORT at ADDR (an IPv4 address, [an IPv6\n"
	"                            one]; default localhost), after --ready's line if any\n"
	"      --service-per-block   start the service again before every block\n"
	"      --metric NAME[:higher|lower]=REGEX\n"
	"                            a figure COMMAND prints (REGEX, one capture group, on its\n"
	"                            stdout and stderr; the last match), analysed as elapsed\n"
	"                            time is (repeatable); or one of the presets:\n"
	"                            presets: pgbench redis-benchmark fio sysbench\n"
	"      --events N            events one run of COMMAND does (for cost per event); with\n"
	"                            --scale, the count at scale 1, and {n} in COMMAND is\n"
	"                            replaced by the count at each scale\n"
	"      --unit NAME           the unit of those events (default 'event')\n"
	"  -r, --runs N              measured blocks (default: adaptive)\n"
	"      --warmup N            warm-up blocks discarded (default 1)\n"
	"      --min-runs N          adaptive: the pilot, and at least N blocks after it\n"
	"                            (default 10, the block count at which bench/coverage.sh\n"
	"                            checks the intervals under skewed costs)\n"
	"      --max-runs N          adaptive: at most N blocks (default 100)\n"
	"      --precision PP        adaptive: after the pilot, run the blocks its variance says\n"
	"                            every overhead CI needs to be +- PP percentage points,\n"
	"                            planned once (a two-stage design); when they fit, a\n"
	"                            sample of their own: the pilot only plans\n"
	"      --precision-rel PCT   adaptive: the same, +- PCT percent of the overhead itself;\n"
	"                            default: the wider of +- 2 points and 5% (either option\n"
	"                            given alone is the whole ask; both: the wider)\n"
	"      --max-time S          adaptive: stop adding blocks after S seconds (default 60;\n"
	"                            the pilot of --min-runs blocks runs whole)\n"
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
	"      --washout N           before each run that follows a monitored run, N runs of\n"
	"                            the plain command, not measured, so that what a long\n"
	"                            monitored run leaves behind is not paid by the next\n"
	"                            measured one (default 0)\n"
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
	"exit status: 0 measured (and stored); 1 every run failed, a row's outcome is\n"
	"changed-program (the workload failed under a monitor and not in its plain runs),\n"
	"or no monitor asked for is available; 2 bad usage or bad input (a COMMAND that\n"
	"cannot be executed among it); 3 measured and printed but not stored (the store\n"
	"could not be written: see the warning); 128+N interrupted by signal N.\n";

enum {
	OPT_ATTACH = 256,
	OPT_READY,
	OPT_EVENTS,
	OPT_UNIT,
	OPT_SCALE,
	OPT_DEFAULT,
	OPT_HELP,
	OPT_PLACEMENT,
	OPT_COUNT,
	OPT_SERVICE,
	OPT_SERVICE_PER_BLOCK,
	OPT_READY_PORT,
	OPT_METRIC,
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
	{ "service", required_argument, NULL, OPT_SERVICE },
	{ "service-per-block", no_argument, NULL, OPT_SERVICE_PER_BLOCK },
	{ "ready-port", required_argument, NULL, OPT_READY_PORT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "default-study", no_argument, NULL, OPT_DEFAULT },
	{ "count", no_argument, NULL, OPT_COUNT },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* The shared options run takes (cmd-measure-opts.c holds their ranges). */
static const enum pcost_mopt shared_opts[] = {
	PCOST_MOPT_WARMUP,	  PCOST_MOPT_MIN_RUNS,
	PCOST_MOPT_MAX_RUNS,	  PCOST_MOPT_PRECISION_PP,
	PCOST_MOPT_PRECISION_REL, PCOST_MOPT_MAX_TIME,
	PCOST_MOPT_THREADS,	  PCOST_MOPT_CPU,
	PCOST_MOPT_TIMEOUT,	  PCOST_MOPT_READY_TIMEOUT,
	PCOST_MOPT_WASHOUT,	  PCOST_MOPT_SEED,
	PCOST_MOPT_FORMAT,	  PCOST_MOPT_DB,
	PCOST_MOPT_NO_STORE,
};

/* What parsing fills: the study's options, and the parse's own state. */
struct run_args {
	struct pcost_study_opts o;
	/* The shared options: runner options (ro), --threads, --cpu, --format, --db,
	 * --no-store, --seed (copied into o once parsed). */
	struct pcost_measure_opts m;
	int last_ready_owner; /* the --attach (1) or --service (2) a --ready follows */
	bool count;	      /* --count: one counting run of the command (cmd/cmd-run-count.h) */
};

/* A study function's return (run/study.h) as the exit code. */
static int exit_code(int rc)
{
	if (rc == -EINTR)
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	return rc == -EINVAL ? PCOST_EXIT_USAGE : rc < 0 ? PCOST_EXIT_FAIL : 0;
}

/* The shared options the study takes, into a->o. */
static void study_opts(struct run_args *a)
{
	a->o.ro = a->m.ro;
	snprintf(a->o.cpu_text, sizeof(a->o.cpu_text), "%s", a->m.cpu_text);
	memcpy(a->o.threads, a->m.threads, sizeof(a->o.threads));
	a->o.nthreads = a->m.nthreads;
	a->o.seed_given = a->m.seed_given;
	a->o.db = a->m.db;
	a->o.no_store = a->m.no_store;
}

static int parse_u(const char *opt, const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	if (pcost_parse_u64(v, min, max, out) < 0)
		return usage_error("%s '%s': expected a whole number in %llu..%llu", opt, v,
				   (unsigned long long)min, (unsigned long long)max);
	return 0;
}

static bool command_has_n(const struct run_args *a)
{
	for (int i = 0; i < a->o.ncommand; i++)
		if (strstr(a->o.command[i], "{n}"))
			return true;
	return false;
}

static int events_option(struct run_args *a)
{
	uint64_t u;

	if (parse_u("--events", optarg, 1, UINT64_MAX / 2, &u))
		return PCOST_EXIT_USAGE;
	a->o.events = (int64_t)u;
	return 0;
}

/*
 * --ready REGEX: of the --attach or --service it follows.  An empty REGEX
 * would match any line, the first one it prints whatever it says: refused.
 */
static int ready_option(struct run_args *a)
{
	if (!a->last_ready_owner)
		return usage_error("--ready '%s' says when --attach CMD or --service CMD is ready: "
				   "give it after one of them",
				   optarg);
	if (!*optarg)
		return usage_error(
			"--ready '': an empty regex matches any line; give what the "
			"ready line says (e.g. --ready 'ready to accept'), or no --ready "
			"to go on at once");
	if (a->last_ready_owner == 1)
		a->o.ready = optarg;
	else
		a->o.service_ready = optarg;
	return 0;
}

/* One option c (value optarg) into a; 0, -1 after --help, or an exit code. */
static int one_option(struct run_args *a, int c, char **argv)
{
	switch (c) {
	case 'w':
		if (a->o.nworkloads >= PCOST_STUDY_MAX_ITEMS)
			return usage_error("too many -w (at most %d)", PCOST_STUDY_MAX_ITEMS);
		a->o.workloads[a->o.nworkloads++] = optarg;
		break;
	case 'm':
		if (a->o.nmonitors >= PCOST_STUDY_MAX_ITEMS)
			return usage_error("too many -m (at most %d)", PCOST_STUDY_MAX_ITEMS);
		a->o.monitors[a->o.nmonitors++] = optarg;
		break;
	case OPT_ATTACH:
		a->o.attach = optarg;
		a->last_ready_owner = 1;
		break;
	case OPT_SERVICE:
		if (!*optarg || strspn(optarg, " \t") == strlen(optarg))
			return usage_error(
				"--service '': give the server's command (e.g. --service "
				"'redis-server --port 7000')");
		a->o.service = optarg;
		a->last_ready_owner = 2;
		break;
	case OPT_SERVICE_PER_BLOCK:
		a->o.service_per_block = true;
		break;
	case OPT_READY_PORT:
		if (pcost_study_ready_port(&a->o, optarg))
			return PCOST_EXIT_USAGE;
		break;
	case OPT_READY:
		return ready_option(a);
	case OPT_METRIC: {
		char err[512];

		if (pcost_metric_parse(optarg, &a->o.metrics, err, sizeof(err)) < 0)
			return usage_error("%s", err);
		break;
	}
	case OPT_UNIT:
		if (!*optarg || strlen(optarg) > 31 || strpbrk(optarg, " \t\n/"))
			return usage_error(
				"--unit '%s': expected one word of at most 31 characters", optarg);
		a->o.unit = optarg;
		break;
	case OPT_PLACEMENT:
		return pcost_study_placement_list(&a->o, optarg) ? PCOST_EXIT_USAGE : 0;
	case OPT_SCALE:
		return pcost_study_scales(&a->o, optarg) ? PCOST_EXIT_USAGE : 0;
	case OPT_EVENTS:
		return events_option(a);
	case OPT_DEFAULT:
		a->o.default_study = true;
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
	int rc;

	if (a->o.command && a->o.nworkloads)
		return usage_error("give either -w workloads or '-- COMMAND', not both");
	if (a->count &&
	    (!a->o.command || a->o.nworkloads || a->o.nmonitors || a->o.attach || a->o.nscales ||
	     a->o.events >= 0 || a->o.default_study || a->o.service || a->o.metrics.n))
		return usage_error(
			"--count counts one run of your command: give it '-- COMMAND' "
			"and no -w, -m, --attach, --scale, --events, --service, --metric "
			"or --default-study");
	if (a->o.command && (a->o.nscales || command_has_n(a)) && a->o.events < 0)
		return usage_error("--scale and {n} need --events N: the events one run of your "
				   "command makes at scale 1");
	if (a->o.command && a->o.nscales && !command_has_n(a))
		return usage_error("--scale with a command needs {n} in it, replaced by the event "
				   "count at each scale (e.g. -- ./bench --iterations {n})");
	if (pcost_measure_opts_check(&a->m))
		return PCOST_EXIT_USAGE;
	if (a->o.command && (a->m.nthreads || a->o.placement[0] || a->o.placement[1]))
		return usage_error("--threads and --placement need built-in workloads (-w): "
				   "probecost cannot change your command's threads or CPU");
	if ((a->o.events >= 0 || a->o.unit) && !a->o.command)
		return usage_error("--events and --unit describe your own command ('-- COMMAND')");
	if (pcost_study_check_service(&a->o))
		return PCOST_EXIT_USAGE;
	if (!a->o.command && !a->o.nworkloads && !a->o.nmonitors && !a->o.attach && !a->o.nscales &&
	    !a->o.service && !a->o.metrics.n)
		a->o.default_study = true;
	else if (!a->o.command && !a->o.nworkloads && !a->o.default_study)
		return usage_error("nothing to run: give -w WORKLOAD or '-- COMMAND' (or no "
				   "options at all for the default study)");
	if (a->o.default_study &&
	    (a->o.command || a->o.nworkloads || a->o.nmonitors || a->o.attach || a->o.service))
		return usage_error(
			"--default-study takes no -w, -m, --attach, --service or command");
	if (a->m.ro.min_runs > a->m.ro.max_runs)
		return usage_error("--min-runs %u is more than --max-runs %u", a->m.ro.min_runs,
				   a->m.ro.max_runs);
	if (a->o.command && !strchr(a->o.command[0], '{') &&
	    (rc = pcost_refuse_unexecutable(NULL, a->o.command[0])))
		return rc;
	if (a->o.placement[0] || a->o.placement[1])
		return exit_code(pcost_study_placement(&a->o));
	return 0;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	struct option *longopts;
	int c, rc = 0;

	memset(a, 0, sizeof(*a));
	pcost_measure_opts_init(&a->m);
	a->m.ro.max_runs = 100;
	a->o.events = -1;
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
			return usage_error("unexpected '%s': put your command after '--'",
					   argv[optind]);
		a->o.command = argv + optind;
		a->o.ncommand = argc - optind;
	}
	study_opts(a);
	return check_args(a);
}

/* Measure the study, print the report; the exit code. */
static int measure_and_report(struct pcost_study *st, const struct run_args *a)
{
	char err[256];
	int rc = pcost_study_measure(st, err, sizeof(err));

	if (rc < 0 && rc != -EINTR)
		rc = -EIO; /* whatever stopped the measuring: exit 1 */
	if (!st->measured)
		return exit_code(rc);
	if (rc == -EINTR)
		warning("interrupted: printing what was measured so far");
	else if (rc < 0)
		error("%s", err);
	pcost_cli_level(a->m.db, &st->s);
	if (pcost_report_run(&st->s, a->m.fmt, stdout) < 0)
		error("could not render the report");
	fflush(stdout);
	if (rc < 0)
		return exit_code(rc);
	if (pcost_study_metric_unmatched(st))
		return PCOST_EXIT_FAIL;
	if (pcost_session_failed(&st->s)) {
		const char *why = pcost_session_fail_reason(&st->s);

		error("every run failed%s%s", why ? ": " : "", why ? why : "");
		return PCOST_EXIT_FAIL;
	}
	if ((rc = pcost_changed_exit(&st->s)))
		return rc;
	return pcost_sink_lost() ? PCOST_EXIT_NOT_STORED : 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct pcost_study st;
	int rc = parse_args(argc, argv, &a);

	if (rc) {
		pcost_metric_set_release(&a.o.metrics);
		return rc < 0 ? 0 : rc;
	}
	if (a.count) {
		rc = pcost_run_count(a.o.command, a.m.ro.cpu_mask, a.m.ro.timeout_s, a.m.fmt);
		pcost_metric_set_release(&a.o.metrics);
		return rc;
	}
	rc = exit_code(pcost_study_init(&st, &a.o, argc, argv));
	if (!rc)
		rc = measure_and_report(&st, &a);
	pcost_study_release(&st);
	pcost_metric_set_release(&a.o.metrics);
	return rc;
}
