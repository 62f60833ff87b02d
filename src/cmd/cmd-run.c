// SPDX-License-Identifier: MIT
/* cmd/cmd-run: measure what each monitor costs a built-in workload or the user's command. */
#include <cjson/cJSON.h>
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <regex.h>
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
#include "run/figure_values.h"
#include "run/evcount.h"
#include "run/metric.h"
#include "run/runner.h"
#include "run/service.h"
#include "stats/predict.h"
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

struct run_args {
	const char *workloads[MAX_ITEMS];
	size_t nworkloads;
	const char *monitors[MAX_ITEMS];
	size_t nmonitors;
	const char *attach, *ready, *unit;
	int64_t events;
	double scales[8];
	size_t nscales;
	bool placement[2];   /* --placement: [0] same, [1] split */
	uint64_t split_mask; /* the monitor's CPU when split */
	bool default_study;
	bool count; /* --count: one counting run of the command (cmd/cmd-run-count.h) */
	char **command;
	int ncommand;
	const char *service, *service_ready; /* --service CMD, its --ready */
	bool service_per_block;
	int service_port;		 /* --ready-port (0: none) */
	char service_addr[48];		 /* its address ("": localhost) */
	int last_ready_owner;		 /* the --attach (1) or --service (2) a --ready follows */
	struct pcost_metric_set metrics; /* --metric */
	struct pcost_evcount counted;	 /* a command's counting run (count_command) */
	bool have_counted;
	struct pcost_evcount null_counted; /* the null workload's, counted the same way */
	bool have_null_counted;
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

/*
 * --ready-port [ADDRESS:]PORT: an IPv4 address, an IPv6 one in brackets
 * ("[::1]:6379") or localhost before the port; numeric only, so nothing is
 * looked up (and nothing waits on a resolver) while the service starts.
 */
static int parse_ready_port(const char *v, struct run_args *a)
{
	const char *colon = strrchr(v, ':');
	char host[64] = "", buf[INET6_ADDRSTRLEN > 16 ? INET6_ADDRSTRLEN : 16];
	uint64_t u;

	if (colon) {
		size_t n = (size_t)(colon - v);

		if (n >= sizeof(host))
			return usage_error("--ready-port '%s': the address is too long", v);
		memcpy(host, v, n);
		host[n] = 0;
		if (host[0] == '[' && n >= 2 && host[n - 1] == ']') {
			host[n - 1] = 0;
			memmove(host, host + 1, n - 1);
			if (inet_pton(AF_INET6, host, buf) != 1)
				return usage_error("--ready-port '%s': '%s' is not an IPv6 address",
						   v, host);
		} else if (!strcmp(host, "localhost")) {
			host[0] = 0;
		} else if (strchr(host, ':')) {
			return usage_error("--ready-port '%s': an IPv6 address goes in brackets, "
					   "as [::1]:PORT",
					   v);
		} else if (inet_pton(AF_INET, host, buf) != 1) {
			return usage_error(
				"--ready-port '%s': expected PORT or ADDRESS:PORT, ADDRESS "
				"an IPv4 address, [an IPv6 one] or localhost",
				v);
		}
	}
	if (pcost_parse_u64(colon ? colon + 1 : v, 1, 65535, &u) < 0)
		return usage_error(
			"--ready-port '%s': expected [ADDRESS:]PORT, PORT a whole number "
			"in 1..65535",
			v);
	a->service_port = (int)u;
	snprintf(a->service_addr, sizeof(a->service_addr), "%s", host);
	return 0;
}

static int parse_scales(const char *v, struct run_args *a)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;

	a->nscales = 0;
	if (!pcost_list_well_formed(v))
		rc = usage_error("--scale '%s': expected up to 8 numbers in 0.001..1000, "
				 "comma separated (e.g. 1,2,4)",
				 v);
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		double d;

		if (a->nscales >= ARRAY_SIZE(a->scales) ||
		    pcost_parse_double(tok, 0.001, 1000, &d) < 0) {
			rc = usage_error("--scale '%s': expected up to 8 numbers in 0.001..1000, "
					 "comma separated (e.g. 1,2,4)",
					 v);
			break;
		}
		for (size_t k = 0; k < a->nscales && !rc; k++)
			if (a->scales[k] == d)
				rc = usage_error("--scale '%s': %g is given twice; each scale once",
						 v, d);
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
	if (!rc && !a->placement[0] && !a->placement[1])
		rc = usage_error("--placement '%s': expected same, split or same,split", v);
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
		return error("could not read the CPUs allowed: %s", strerror(errno)),
		       PCOST_EXIT_FAIL;
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
		return usage_error(
			"--placement split needs a CPU besides --cpu %s to put the monitor "
			"on; this machine lets probecost use only %s",
			a->m.cpu_text, a->m.cpu_text);
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
		a->ready = optarg;
	else
		a->service_ready = optarg;
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
		a->last_ready_owner = 1;
		break;
	case OPT_SERVICE:
		if (!*optarg || strspn(optarg, " \t") == strlen(optarg))
			return usage_error(
				"--service '': give the server's command (e.g. --service "
				"'redis-server --port 7000')");
		a->service = optarg;
		a->last_ready_owner = 2;
		break;
	case OPT_SERVICE_PER_BLOCK:
		a->service_per_block = true;
		break;
	case OPT_READY_PORT:
		if (parse_ready_port(optarg, a))
			return PCOST_EXIT_USAGE;
		break;
	case OPT_READY:
		return ready_option(a);
	case OPT_METRIC: {
		char err[512];

		if (pcost_metric_parse(optarg, &a->metrics, err, sizeof(err)) < 0)
			return usage_error("%s", err);
		break;
	}
	case OPT_UNIT:
		if (!*optarg || strlen(optarg) > 31 || strpbrk(optarg, " \t\n/"))
			return usage_error(
				"--unit '%s': expected one word of at most 31 characters", optarg);
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

/* A word of -m or --attach that holds {pid}, or NULL. */
static const char *pid_word(const struct run_args *a)
{
	for (size_t i = 0; i < a->nmonitors; i++)
		if (strstr(a->monitors[i], "{pid}"))
			return a->monitors[i];
	return a->attach && strstr(a->attach, "{pid}") ? a->attach : NULL;
}

/* --service, --metric and {pid}: what goes with what; 0 or an exit code. */
static int check_service_args(const struct run_args *a)
{
	const char *w = pid_word(a);
	regex_t re;

	if (w && !a->service)
		return usage_error("'%s': {pid} is the pid of --service CMD; give --service (or "
				   "write the pid)",
				   w);
	if (a->service_per_block && !a->service)
		return usage_error("--service-per-block needs --service CMD");
	if (a->service_port && !a->service)
		return usage_error(
			"--ready-port %d says when --service CMD is ready: give --service",
			a->service_port);
	if (a->metrics.n && !a->command)
		return usage_error("--metric reads what your command prints: give '-- COMMAND' "
				   "(a built-in workload's figures come by themselves)");
	if (a->service_ready && regcomp(&re, a->service_ready, REG_EXTENDED | REG_NOSUB) != 0)
		return usage_error("--ready '%s' is not a valid extended regular expression",
				   a->service_ready);
	if (a->service_ready)
		regfree(&re);
	return 0;
}

/* The options that only make sense together; 0 or an exit code. */
static int check_args(struct run_args *a)
{
	int rc;

	if (a->command && a->nworkloads)
		return usage_error("give either -w workloads or '-- COMMAND', not both");
	if (a->count && (!a->command || a->nworkloads || a->nmonitors || a->attach || a->nscales ||
			 a->events >= 0 || a->default_study || a->service || a->metrics.n))
		return usage_error(
			"--count counts one run of your command: give it '-- COMMAND' "
			"and no -w, -m, --attach, --scale, --events, --service, --metric "
			"or --default-study");
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
	if ((rc = check_service_args(a)))
		return rc;
	if (!a->command && !a->nworkloads && !a->nmonitors && !a->attach && !a->nscales &&
	    !a->service && !a->metrics.n)
		a->default_study = true;
	else if (!a->command && !a->nworkloads && !a->default_study)
		return usage_error("nothing to run: give -w WORKLOAD or '-- COMMAND' (or no "
				   "options at all for the default study)");
	if (a->default_study &&
	    (a->command || a->nworkloads || a->nmonitors || a->attach || a->service))
		return usage_error(
			"--default-study takes no -w, -m, --attach, --service or command");
	if (a->m.ro.min_runs > a->m.ro.max_runs)
		return usage_error("--min-runs %u is more than --max-runs %u", a->m.ro.min_runs,
				   a->m.ro.max_runs);
	if (a->command && !strchr(a->command[0], '{') &&
	    (rc = pcost_refuse_unexecutable(NULL, a->command[0])))
		return rc;
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
			return usage_error("unexpected '%s': put your command after '--'",
					   argv[optind]);
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
	if (colon && !pcost_list_well_formed(colon + 1)) {
		usage_error("workload '%s': expected KEY=VALUE,... after ':' (or no ':')", spec);
		free(copy);
		return -EINVAL;
	}
	if (!(wl = pcost_workload_find(copy))) {
		usage_error("unknown workload '%s'; see 'probecost list workloads'", copy);
		free(copy);
		return -EINVAL;
	}
	for (char *t = colon ? strtok_r(colon + 1, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save)) {
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
			usage_error(
				"workload '%s' at --scale %g: %s=%.0f is past its largest, %llu",
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
				    "(see 'probecost list workloads')",
				    wl->name);
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
			usage_error("the probecost binary's path '%s' has blanks; move it",
				    pcost_self_exe());
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
	char num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)n);
	return pcost_replace_all(word, "{n}", num);
}

/*
 * The user's command at one scale: {n} becomes the event count at that scale
 * (--events x scale), as hyperfine's --parameter-scan does; one configuration
 * per monitor.
 */
/*
 * The events a monitor pays for, of those a counting run counts: per syscall
 * for the syscall tracers, per context switch for perf stat, per task for the
 * rest that follow tasks (stats/predict.c's table); -1 when none of them.
 */
static int paid_event(const char *monitor)
{
	unsigned ev = pcost_model_events(monitor, NULL);

	if (ev & (1u << PCOST_CE_SYSCALL | 1u << PCOST_CE_SYSCALL_DECODED))
		return PCOST_EVC_SYSCALLS;
	if (ev & 1u << PCOST_CE_CSWITCH)
		return PCOST_EVC_CSWITCHES;
	if (ev & 1u << PCOST_CE_TASK)
		return PCOST_EVC_TASKS;
	return -1;
}

/* The unit of a counted kind, as a row's events are named ("syscall", "context switch"). */
static const char *paid_unit(int k)
{
	return k == PCOST_EVC_CSWITCHES ? "context-switch"
	       : k == PCOST_EVC_TASKS	? "task"
					: "syscall";
}

/*
 * A user's command without --events: what it does that monitors pay for, in
 * one untimed counting run before the blocks (run/evcount.h), so each row has
 * its events made and a per-event cost.  Nothing is counted with --service
 * (the monitors watch the server, not the load generator) or when the machine
 * cannot count (not root): the rows say why.  0, or exit 1 when the command
 * cannot start.
 */
static int count_command(struct run_args *a)
{
	char *null_argv[] = { (char *)pcost_self_exe(), "workload", "null", NULL };
	struct pcost_evcount_opts o = { .cpu_mask = a->m.ro.cpu_mask,
					.timeout_s = a->m.ro.timeout_s,
					.no_by_nr = true,
					.no_probes = true,
					.out_fd = -1,
					.err_fd = -1 };
	char err[256];
	int rc;

	if (!a->command || a->events >= 0 || a->service || a->count)
		return 0;
	rc = pcost_evcount_run(a->command, &o, &a->counted, err, sizeof(err));
	if (rc < 0)
		pcost_evcount_release(&a->counted);
	if (rc == -EINTR)
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	if (rc < 0) {
		error("%s", err);
		return PCOST_EXIT_FAIL;
	}
	a->have_counted = true;
	/*
	 * The null workload's own events (its start-up's syscalls: probecost's
	 * loader and libraries, about 136), which its monitors pay for as the
	 * command's: the model takes them off both sides (stats/analyze.c).
	 */
	rc = pcost_evcount_run(null_argv, &o, &a->null_counted, err, sizeof(err));
	if (rc == -EINTR) {
		pcost_evcount_release(&a->null_counted);
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	}
	if (rc < 0) {
		pcost_evcount_release(&a->null_counted);
		warning("the null workload could not be counted (%s): no model-based per-event cost",
			err);
	}
	a->have_null_counted = rc >= 0;
	return 0;
}

/* A counting run in the session's options, under key: each kind's count and counter, or why not. */
static void evcount_json(const struct pcost_evcount *ec, const char *key, cJSON *o)
{
	static const int kinds[] = { PCOST_EVC_SYSCALLS, PCOST_EVC_CSWITCHES, PCOST_EVC_TASKS };
	cJSON *c = cJSON_AddObjectToObject(o, key);

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		int k = kinds[i];
		cJSON *e = cJSON_AddObjectToObject(c, paid_unit(k));

		if (ec->v[k] >= 0) {
			cJSON_AddNumberToObject(e, "count", (double)ec->v[k]);
			cJSON_AddStringToObject(e, "counter", ec->source[k]);
		} else {
			cJSON_AddNullToObject(e, "count");
			cJSON_AddStringToObject(e, "why", ec->why[k]);
		}
	}
}

/* The command's counting run ("counted") and the null workload's ("counted_null"). */
static void counted_json(const struct run_args *a, cJSON *o)
{
	if (!a->have_counted)
		return;
	evcount_json(&a->counted, "counted", o);
	if (a->have_null_counted)
		evcount_json(&a->null_counted, "counted_null", o);
	else /* null, not absent: sessions stored before it was counted read 0 */
		cJSON_AddNullToObject(o, "counted_null");
}

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
	for (size_t m = 0; m < nmons; m++) {
		/* Counted: each row's events are what its monitor pays for (the baseline's:
		 * syscalls); --events N: the user's count and unit for every row. */
		int k = a->have_counted ? paid_event(mons[m]->name) : -1;

		if (a->have_counted && mons[m]->ops->kind == PCOST_MON_BASELINE)
			k = PCOST_EVC_SYSCALLS;
		if (k >= 0) {
			t.events = a->counted.v[k];
			t.unit = paid_unit(k);
		}
		pcost_runner_add(r, mons[m], &t);
		t.events = ev;
		t.unit = a->unit ? a->unit : "event";
	}
	free(joined);
	pcost_argv_free(argv);
}

/*
 * With a counted command, every monitor on the null workload too: its fixed
 * cost (start-up and tear-down) measured in the same blocks, which the
 * per-event cost of the command takes off (stats/analyze.c: model).
 */
static void add_null_twins(struct pcost_runner *r, struct pcost_monitor **mons, size_t nmons,
			   const struct run_args *a)
{
	char *argv[] = { (char *)pcost_self_exe(), "workload", "null", NULL };
	struct pcost_target t = { .workload = "null",
				  .workload_args = "",
				  .unit = "none",
				  .argv = argv,
				  .scale = 1,
				  .events = -1,
				  .report_fd = true };

	bool priced = false;

	/* Nothing counted (not root), or no monitor pays for what is counted (a custom
	 * wrapper): no per-event figure to take the fixed cost off. */
	for (size_t m = 0; m < nmons; m++)
		priced |= paid_event(mons[m]->name) >= 0;
	if (!priced || !a->have_counted || a->counted.v[PCOST_EVC_SYSCALLS] < 0)
		return;
	for (size_t m = 0; m < nmons; m++)
		pcost_runner_add(r, mons[m], &t);
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
	cJSON_AddNumberToObject(o, "precision_rel", a->m.ro.precision_rel);
	cJSON_AddNumberToObject(o, "max_time_s", a->m.ro.max_time_s);
	cJSON_AddNumberToObject(o, "timeout_s", a->m.ro.timeout_s);
	cJSON_AddNumberToObject(o, "washout", a->m.ro.washout);
	cJSON_AddStringToObject(o, "cpu", a->m.cpu_text);
	cJSON_AddBoolToObject(o, "default_study", a->default_study);
	counted_json(a, o);
	if (a->m.nthreads) {
		cJSON *t = cJSON_AddArrayToObject(o, "threads");

		for (size_t i = 0; i < a->m.nthreads; i++)
			cJSON_AddItemToArray(t, cJSON_CreateNumber(a->m.threads[i]));
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
	/* Adaptive: the pilot plans and a second stage of its own measures (runner.h). */
	a->m.ro.pilot_apart = !a->m.ro.runs;
	if (!a->nscales)
		a->scales[a->nscales++] = 1;
}

/*
 * One -m word: with --service, a built-in's service form where it has one
 * (pointed at the service's processes); a tool without one wraps the load
 * generator, which is said.
 */
static struct pcost_monitor *create_one(const struct run_args *a, const char *word, char *err,
					size_t len)
{
	struct pcost_monitor *m = a->service ? pcost_monitor_service_create(word, err, len) : NULL;

	if (m || !(m = pcost_monitor_create(word, err, len)))
		return m;
	if (a->service && m->ops->kind == PCOST_MON_WRAP && !strchr(word, ' '))
		warning("monitor %s has no service form: it watches the load generator, not the "
			"service (perf-stat, perf-record, strace and bpftrace-syscalls watch the "
			"service; perf-record-system watches everything)",
			m->name);
	return m;
}

/*
 * Monitors: none first, then each -m (and --attach) that is available here,
 * into mons[*n]; 0 or an exit code (what was created is in mons either way).
 */
static int create_monitors(const struct run_args *a, struct pcost_monitor **mons, size_t *n)
{
	size_t asked = 0; /* monitors other than the baseline */
	char err[256];

	mons[(*n)++] = pcost_monitor_create("none", err, sizeof(err));
	for (size_t i = 0; i < a->nmonitors + (a->attach ? 1 : 0); i++) {
		struct pcost_monitor *m;
		char why[256];

		if (i < a->nmonitors)
			m = create_one(a, a->monitors[i], err, sizeof(err));
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
				struct pcost_target t = { .scale = a->scales[k],
							  .events = -1,
							  .report_fd = true };
				char **wargv, *name, *args, unit[32];

				t.threads = a->m.nthreads ? a->m.threads[h] : 0;
				if (workload_argv(a->workloads[w], a->scales[k], t.threads, &wargv,
						  &name, &args, unit, sizeof(unit)) < 0)
					return -EINVAL;
				t.workload = name;
				t.workload_args = args;
				t.unit = unit;
				t.argv = wargv;
				pcost_figures_declare_workload(r->s, pcost_workload_find(name),
							       args);
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
		add_null_twins(r, mons, nmons, a);
		return 0;
	}
	return add_workloads(a, r, mons, nmons) < 0 ? PCOST_EXIT_USAGE : 0;
}

/* Start --service before measuring (nothing is stored when it does not start); 0 or 1. */
static int service_start(struct pcost_service *sv)
{
	char err[768];
	int rc = pcost_service_start(sv, err, sizeof(err));

	if (rc == -EINTR)
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	if (rc < 0) {
		error("%s", err);
		return PCOST_EXIT_FAIL;
	}
	return 0;
}

/* Each required --metric that no run's output had, said with its last lines; true if any. */
static bool metric_never_matched(const struct pcost_session *s, const struct pcost_metric_set *set)
{
	char why[512];
	bool any = false;

	for (size_t i = 0; i < set->n; i++)
		if (pcost_figures_unmatched(s, set, i, why, sizeof(why))) {
			error("%s", why);
			any = true;
		}
	return any;
}

/* Measure into the store, print the report; the exit code. */
static int measure_and_report(struct pcost_runner *r, struct pcost_session *s,
			      const struct run_args *a)
{
	char err[256];
	int rc;

	/* Sweep what a killed probecost left; refuse while a foreign tracer is armed. */
	if (pcost_runner_check(r, err, sizeof(err)) < 0) {
		error("%s", err);
		return PCOST_EXIT_FAIL;
	}
	if (r->opts.service && (rc = service_start(r->opts.service)))
		return rc;
	pcost_sink_begin(s, a->m.db, a->m.no_store);
	rc = pcost_runner_measure(r, err, sizeof(err));
	if (r->opts.service)
		pcost_service_stop(r->opts.service);
	if (r->opts.service && r->opts.service->followed[0])
		warning("%s", r->opts.service->followed);
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
	pcost_cli_level(a->m.db, s);
	if (pcost_report_run(s, a->m.fmt, stdout) < 0)
		error("could not render the report");
	fflush(stdout);
	if (rc == -EINTR)
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	if (rc < 0)
		return PCOST_EXIT_FAIL;
	if (metric_never_matched(s, &a->metrics))
		return PCOST_EXIT_FAIL;
	if (pcost_session_failed(s)) {
		const char *why = pcost_session_fail_reason(s);

		error("every run failed%s%s", why ? ": " : "", why ? why : "");
		return PCOST_EXIT_FAIL;
	}
	if ((rc = pcost_changed_exit(s)))
		return rc;
	return pcost_sink_lost() ? PCOST_EXIT_NOT_STORED : 0;
}

/* --service CMD into sv (split into words, no shell), on the session's CPUs; 0 or 2. */
static int service_init(struct run_args *a, struct pcost_service *sv)
{
	struct pcost_service_opts o = {
		.cpu_mask = a->m.ro.cpu_mask,
		.ready_timeout_s = a->m.ro.ready_timeout_s,
		.ready_port = a->service_port,
		.restart_per_block = a->service_per_block,
	};

	snprintf(o.ready_addr, sizeof(o.ready_addr), "%s", a->service_addr);
	char **argv;

	if (pcost_argv_split(a->service, &argv) < 0)
		return usage_error("--service '%s': unterminated quote or empty command",
				   a->service);
	if (pcost_refuse_unexecutable("--service", argv[0])) {
		pcost_argv_free(argv);
		return PCOST_EXIT_USAGE;
	}
	if (!a->service_ready && !a->service_port)
		warning("--service without --ready: '%s' counts as ready as soon as it is started, "
			"and a load generator that needs it listening may start first (and wait, "
			"or fail); give --ready REGEX, a line it prints once ready, or --ready-port "
			"PORT, where it listens",
			argv[0]);
	pcost_service_init(sv, argv, a->service_ready, &o);
	pcost_argv_free(argv);
	a->m.ro.service = sv;
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct pcost_monitor *mons[MAX_ITEMS + 2];
	size_t nmons = 0;
	struct run_args a;
	struct pcost_session s;
	struct pcost_runner r;
	struct pcost_service sv;
	int rc = parse_args(argc, argv, &a);

	if (rc) {
		pcost_metric_set_release(&a.metrics);
		return rc < 0 ? 0 : rc;
	}
	if (a.count) {
		rc = pcost_run_count(a.command, a.m.ro.cpu_mask, a.m.ro.timeout_s, a.m.fmt);
		pcost_metric_set_release(&a.metrics);
		return rc;
	}
	apply_defaults(&a);
	if ((rc = create_monitors(&a, mons, &nmons)))
		goto out_mons;
	if ((rc = count_command(&a)))
		goto out_mons;
	session_start(&s, &a, argc, argv);
	pcost_figures_declare_set(&s, &a.metrics);
	a.m.ro.progress = isatty(2) && pcost_verbosity > 0;
	a.m.ro.metric_set = &a.metrics;
	if (a.service && (rc = service_init(&a, &sv)))
		goto out_session;
	pcost_runner_init(&r, &s, &a.m.ro);
	rc = add_targets(&r, &a, mons, nmons);
	if (!rc)
		rc = measure_and_report(&r, &s, &a);
	pcost_runner_release(&r);
	if (a.service)
		pcost_service_release(&sv);
out_session:
	pcost_session_release(&s);
out_mons:
	for (size_t m = 0; m < nmons; m++)
		pcost_monitor_free(mons[m]);
	pcost_metric_set_release(&a.metrics);
	if (a.have_counted)
		pcost_evcount_release(&a.counted);
	if (a.have_null_counted)
		pcost_evcount_release(&a.null_counted);
	return rc;
}
