// SPDX-License-Identifier: MIT
/* cmd/cmd-run: measure what each monitor costs a built-in workload or the user's command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-run-count.h"
#include "cmd/cmd-options.h"
#include "cmd/cmd-service-opts.h"
#include "cmd/parse-options.h"
#include "core/cleanup.h"
#include "report/report.h"
#include "run/study.h"
#include "store/store.h"

static const char *const run_usage[] = {
	"run [-w WORKLOAD[:k=v,...]]... [-m MONITOR]... [options] [-- COMMAND ARGS...]",
	"run                      the default study (see docs/run.md)",
	NULL,
};

static const char run_about[] =
	"Runs each workload plain (monitor 'none') and under each monitor, in interleaved\n"
	"blocks, and prints elapsed time, the overhead, the extra cycles and the monitor's\n"
	"fixed and per-event costs, each with its 95% interval from the paired blocks.";

static const char run_epilog[] =
	"  -m none alone measures the baseline alone, as no -m does.\n"
	"\n"
	"exit status: 0 measured (and stored); 1 every run failed, a row's outcome is\n"
	"changed-program (the workload failed under a monitor and not in its plain runs),\n"
	"or no monitor asked for is available; 2 bad usage or bad input (a COMMAND that\n"
	"cannot be executed among it); 3 measured and printed but not stored (the store\n"
	"could not be written: see the warning); 128+N interrupted by signal N.";

/* What parsing fills: the study's options, and the parse's own state. */
struct run_args {
	struct pcost_study_opts o;
	/* The shared options: runner options (ro), --threads, --cpu, --format, --db,
	 * --no-store, --seed (copied into o once parsed). */
	struct pcost_measure_opts m;
	struct pcost_service_args svc; /* --attach, --service, --ready, --ready-port: into o */
	bool count; /* --count: one counting run of the command (cmd/cmd-run-count.h) */
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

static bool command_has_n(const struct run_args *a)
{
	for (int i = 0; i < a->o.ncommand; i++)
		if (strstr(a->o.command[i], "{n}"))
			return true;
	return false;
}

/* --events N: a whole number of events in 1..2^63-1. */
static int events_opt(const struct pcost_option *opt, const char *arg)
{
	struct run_args *a = opt->value;
	uint64_t u;

	if (pcost_parse_u64(arg, 1, UINT64_MAX / 2, &u) < 0)
		return usage_error("--events '%s': expected a whole number in 1..%llu", arg,
				   (unsigned long long)(UINT64_MAX / 2));
	a->o.events = (int64_t)u;
	return 0;
}

static int metric_opt(const struct pcost_option *opt, const char *arg)
{
	struct run_args *a = opt->value;
	char err[512];

	if (pcost_metric_parse(arg, &a->o.metrics, err, sizeof(err)) < 0)
		return usage_error("%s", err);
	return 0;
}

static int unit_opt(const struct pcost_option *opt, const char *arg)
{
	struct run_args *a = opt->value;

	if (!*arg || strlen(arg) > 31 || strpbrk(arg, " \t\n/"))
		return usage_error("--unit '%s': expected one word of at most 31 characters", arg);
	a->o.unit = arg;
	return 0;
}

/* --scale and --placement: the study's own values (run/study.h). */
static int study_opt(const struct pcost_option *opt, const char *arg)
{
	static int (*const set[])(struct pcost_study_opts *, const char *) = {
		pcost_study_scales,
		pcost_study_placement_list,
	};
	struct run_args *a = opt->value;

	return set[opt->defval](&a->o, arg) ? PCOST_EXIT_USAGE : 0;
}

/* The options that only make sense together; 0 or an exit code. */
static int check_args(struct run_args *a)
{
	int rc;

	if (a->o.command && a->o.nworkloads)
		return usage_error("give either -w workloads or '-- COMMAND', not both");
	if (a->count && (!a->o.command || a->o.nworkloads || a->o.nmonitors || a->o.attach ||
			 a->o.nscales || a->o.events >= 0 || a->o.default_study || a->o.service ||
			 a->o.service_pid || a->o.metrics.n))
		return usage_error("--count counts one run of your command: give it '-- COMMAND' "
				   "and no -w, -m, --attach, --scale, --events, --service(-pid), "
				   "--metric or --default-study");
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
	if (a->m.ro.check_output && !a->o.command)
		return usage_error("--check-output compares your command's output ('-- COMMAND'); "
				   "the built-in workloads check their own results");
	if ((a->o.events >= 0 || a->o.unit) && !a->o.command)
		return usage_error("--events and --unit describe your own command ('-- COMMAND')");
	if (pcost_study_check_service(&a->o))
		return PCOST_EXIT_USAGE;
	if (!a->o.command && !a->o.nworkloads && !a->o.nmonitors && !a->o.attach && !a->o.nscales &&
	    !a->o.service && !a->o.service_pid && !a->o.metrics.n)
		a->o.default_study = true;
	else if (!a->o.command && !a->o.nworkloads && !a->o.default_study)
		return usage_error("nothing to run: give -w WORKLOAD or '-- COMMAND' (or no "
				   "options at all for the default study)");
	if (a->o.default_study && (a->o.command || a->o.nworkloads || a->o.nmonitors ||
				   a->o.attach || a->o.service || a->o.service_pid))
		return usage_error("--default-study takes no -w, -m, --attach, --service(-pid) or "
				   "command");
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

/* A row of run's own whose callback takes the row's constant k (OPT_CALLBACK has none). */
#define OPT_RUN(l, a, argh, h, cb, k) OPT_CALLBACK_RANGE(l, a, argh, 0, 0, NULL, h, cb, k)

/* Into a (zeroed by the caller); 0, PCOST_OPTS_HELP after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct run_args *a)
{
	struct pcost_measure_opts *m = &a->m;
	const struct pcost_option options[] = {
		OPT_LIST('w', "workload", a->o.workloads, &a->o.nworkloads, PCOST_STUDY_MAX_ITEMS,
			 "W[:k=v,..]", "a built-in workload ('probecost list workloads')"),
		OPT_LIST('m', "monitor", a->o.monitors, &a->o.nmonitors, PCOST_STUDY_MAX_ITEMS, "M",
			 "a monitor ('probecost list monitors'); 'CMD ARGS' with a\n"
			 "space is a custom wrapper, {} marks where the workload goes"),
		OPT_SERVICE_ATTACH(&a->svc, "a custom attach monitor started beside each run"),
		OPT_SERVICE_READY(&a->svc,
				  "after --attach or --service: that one is ready when a line\n"
				  "of its output (stdout or stderr) matches REGEX"),
		OPT_SERVICE(&a->svc, "a server started once for the session (stopped at the end):\n"
				     "the workload is its load generator; {pid} in a monitor's\n"
				     "command is its pid, and perf-stat, perf-record, strace and\n"
				     "bpftrace-syscalls watch its processes"),
		OPT_SERVICE_READY_PORT(&a->svc,
				       "with --service: it is ready once it accepts a TCP\n"
				       "connection on PORT at ADDR (an IPv4 address, [an IPv6\n"
				       "one]; default localhost), after --ready's line if any"),
		OPT_STRING(0, "service-pid", &a->o.service_pid, "PID",
			   "a server already running, never started, stopped or\n"
			   "signalled: monitors attach to it for their runs and\n"
			   "detach after, {pid} is PID; or unit:NAME (systemd),\n"
			   "cgroup:PATH (its main process)"),
		OPT_BOOL(0, "service-per-block", &a->o.service_per_block,
			 "start the service again before every block"),
		OPT_CALLBACK(0, "metric", a, "NAME[:higher|lower]=REGEX",
			     "a figure COMMAND prints (REGEX, one capture group, on its\n"
			     "stdout and stderr; the last match), analysed as elapsed\n"
			     "time is (repeatable); or one of the presets:\n"
			     "presets: pgbench redis-benchmark fio sysbench",
			     metric_opt),
		OPT_MEASURE_CHECK_OUTPUT(
			m, "a monitored run whose stdout differs from the plain runs'\n"
			   "is changed-program (built-in workloads check their own)"),
		OPT_MEASURE_OUTPUT_FILTER(m,
					  "with --check-output (implied), lines of stdout REGEX\n"
					  "matches are not compared (timings, dates)"),
		OPT_CALLBACK(0, "events", a, "N",
			     "events one run of COMMAND does (for cost per event); with\n"
			     "--scale, the count at scale 1, and {n} in COMMAND is\n"
			     "replaced by the count at each scale",
			     events_opt),
		OPT_CALLBACK(0, "unit", a, "NAME", "the unit of those events (default 'event')",
			     unit_opt),
		OPT_MEASURE_RUNS(m, "measured blocks (default: adaptive)"),
		OPT_MEASURE_WARMUP(m, "warm-up blocks discarded (default 1)"),
		OPT_MEASURE_MIN_RUNS(m, "adaptive: the pilot, and at least N blocks after it\n"
					"(default 10, the block count at which bench/coverage.sh\n"
					"checks the intervals under skewed costs)"),
		OPT_MEASURE_MAX_RUNS(m, "adaptive: at most N blocks (default 100)"),
		OPT_MEASURE_PRECISION_PP(
			m, "adaptive: after the pilot, run the blocks its variance says\n"
			   "every overhead CI needs to be +- PP percentage points,\n"
			   "planned once (a two-stage design); when they fit, a\n"
			   "sample of their own: the pilot only plans"),
		OPT_MEASURE_PRECISION_REL(
			m, "adaptive: the same, +- PCT percent of the overhead itself;\n"
			   "default: the wider of +- 2 points and 5% (either option\n"
			   "given alone is the whole ask; both: the wider)"),
		OPT_MEASURE_MAX_TIME(m,
				     "adaptive: stop adding blocks after S seconds (default 60;\n"
				     "the pilot of --min-runs blocks runs whole)"),
		OPT_RUN("scale", a, "LIST",
			"run at these multiples of the workload size (1,2,4) and\n"
			"fit time = fixed + per-event x events, with intervals,\n"
			"one fit per workload, monitor and arguments but the size",
			study_opt, 0),
		OPT_MEASURE_THREADS(m, "run workloads that have threads (syscall, stanford, ...)\n"
				       "at each count (1,2,4): cost per event by thread count"),
		OPT_RUN("placement", a, "LIST",
			"same,split: each monitor on the workload's CPU (same) or\n"
			"on another one (split); the workload stays on --cpu",
			study_opt, 1),
		OPT_MEASURE_CPU(m, "pin every process to these CPUs (e.g. 0)"),
		OPT_MEASURE_TIMEOUT(m, "kill a run (its whole process group) after S seconds"),
		OPT_MEASURE_READY_TIMEOUT(
			m, "attach monitors must be ready within S seconds (default 10)"),
		OPT_MEASURE_WASHOUT(m, "before each run that follows a monitored run, N runs of\n"
				       "the plain command, not measured, so that what a long\n"
				       "monitored run leaves behind is not paid by the next\n"
				       "measured one (default 0)"),
		OPT_MEASURE_SEED(m, "block order seed (default: from the clock)"),
		OPT_MEASURE_FORMAT(m, "text, json, csv or markdown"),
		OPT_MEASURE_DB(m),
		OPT_MEASURE_NO_STORE(m, "do not store the session"),
		OPT_BOOL(0, "default-study", &a->o.default_study,
			 "the default study (what 'probecost run' alone does)"),
		OPT_BOOL(0, "count", &a->count,
			 "run COMMAND once, untimed, and print what it did that\n"
			 "monitors pay for (syscalls in total and by number, context\n"
			 "switches, page faults, tasks, execs, SDT probe hits) and the\n"
			 "counter of each; takes --cpu, --timeout and --format\n"
			 "(text, json, csv); COMMAND's stdout goes to /dev/null"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "run",
		.usage = run_usage,
		.about = run_about,
		.options = options,
		.epilog = run_epilog,
	};
	int rc;

	pcost_measure_opts_init(m);
	m->ro.max_runs = 100;
	a->svc.o = &a->o;
	a->svc.attach = true;
	if ((rc = pcost_parse_options(&p, argc, argv)))
		return rc;
	if (p.argc) {
		if (!p.dashdash)
			return usage_error("unexpected '%s': put your command after '--'",
					   p.argv[0]);
		a->o.command = p.argv;
		a->o.ncommand = p.argc;
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
	struct run_args a = { .o.events = -1 };
	struct pcost_study st;
	int rc = parse_args(argc, argv, &a);

	if (rc) {
		pcost_metric_set_release(&a.o.metrics);
		return rc == PCOST_OPTS_HELP ? 0 : rc;
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
