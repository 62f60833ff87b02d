// SPDX-License-Identifier: MIT
/*
 * cmd/cmd-predict: what each monitor will cost a command, before running it
 * under any: the command's events counted in untimed runs, its plain time in
 * a few runs, both combined with this machine's cost table by the model
 * (stats/predict.h); --verify then measures the monitors with the runner and
 * prints predicted against measured.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-costs-machine.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-options.h"
#include "cmd/cmd-service-opts.h"
#include "cmd/parse-options.h"
#include "core/cleanup.h"
#include "monitors/monitor.h"
#include "report/report.h"
#include "run/count.h"
#include "run/study.h"
#include "stats/predict.h"

static const char *const predict_usage[] = {
	"predict -m MONITOR... [options] -- COMMAND [ARGS...]",
	"predict -m MONITOR... --service SERVER [--ready REGEX] [options] -- LOAD [ARGS...]",
	NULL,
};

static const char predict_about[] =
	"Predicts what each monitor will cost COMMAND on this machine before running it\n"
	"under any: counts the command's syscalls, context switches, page faults, tasks,\n"
	"execs and CPU time in untimed runs, times it plain, and combines the counts\n"
	"with the machine's cost table ('probecost calibrate'; measured first, quick,\n"
	"when the store has none for this machine).  Prints each monitor's predicted\n"
	"extra time and overhead with a 95% interval and the term that dominates, or\n"
	"\"no model\" and why.  With --service, the server runs meanwhile, its processes'\n"
	"events are counted in the same runs, and a monitor that watches it (strace,\n"
	"perf-stat, perf-record, bpftrace-syscalls) is priced by them (docs/predict.md).";

static const char predict_epilog[] =
	"exit status: 0 predicted; 1 the command failed (its error is printed) or could\n"
	"not be counted, or --service did not start; 2 bad usage, a command or --service\n"
	"that cannot be executed (said before any calibration), an unknown monitor, or a\n"
	"stale cost table (another kernel or machine: the message names the command that\n"
	"recalibrates); 128+N interrupted by signal N.";

struct predict_args {
	struct pcost_measure_opts m;
	const char *monitors[PCOST_STUDY_MAX_ITEMS];
	size_t nmonitors;
	bool verify;
	struct pcost_study_opts svc;	 /* --service and its readiness (as run takes them) */
	struct pcost_service_args sargs; /* their rows' state */
	unsigned count_runs, plain_runs;
	char **command;
	int ncommand;
};

/* --service CMD that cannot be executed: said before any calibration, as for COMMAND. */
static int refuse_service(const char *cmd)
{
	char **argv;
	int rc;

	if (pcost_argv_split(cmd, &argv) < 0)
		return usage_error("--service '%s': unterminated quote or empty command", cmd);
	rc = pcost_refuse_unexecutable("--service", argv[0]);
	pcost_argv_free(argv);
	return rc;
}

/* Into a (zeroed by the caller); 0, PCOST_OPTS_HELP after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct predict_args *a)
{
	struct pcost_measure_opts *m = &a->m;
	const struct pcost_option options[] = {
		OPT_LIST('m', "monitor", a->monitors, &a->nmonitors, PCOST_STUDY_MAX_ITEMS, "M",
			 "a monitor to predict (repeatable; 'probecost list monitors')"),
		OPT_BOOL(0, "verify", &a->verify,
			 "then measure the monitors (as 'probecost run -- COMMAND' does)\n"
			 "and print predicted against measured, side by side"),
		OPT_SERVICE(&a->sargs, "a server COMMAND loads, started (and stopped) around the\n"
				       "counting and plain runs and --verify's: its processes'\n"
				       "events are counted too, and perf-stat, perf-record,\n"
				       "strace and bpftrace-syscalls are predicted on them"),
		OPT_SERVICE_READY(&a->sargs,
				  "after --service: it is ready when a line of its output\n"
				  "(stdout or stderr) matches REGEX"),
		OPT_SERVICE_READY_PORT(&a->sargs,
				       "with --service: it is ready once it accepts a TCP\n"
				       "connection on PORT at ADDR (an IPv4 address, [an IPv6\n"
				       "one]; default localhost), after --ready's line if any"),
		OPT_MEASURE_READY_TIMEOUT(m,
					  "--service must be ready within S seconds (default 10)"),
		OPT_UINT(0, "count-runs", &a->count_runs, "N", 1, 64, "a whole number",
			 "untimed counting runs (default 3): the counts' mean and error"),
		OPT_UINT(0, "plain-runs", &a->plain_runs, "N", 2, 1000, "a whole number",
			 "plain timed runs for the overhead's denominator (default 3)"),
		OPT_MEASURE_RUNS(m, "--verify: measured blocks (default 5)"),
		OPT_MEASURE_WARMUP(m, "--verify and the plain runs: warm-up blocks (default 1)"),
		OPT_MEASURE_CPU(m, "predict runs pinned to these CPUs (default: unpinned,\n"
				   "as 'probecost run' runs the command)"),
		OPT_MEASURE_TIMEOUT(m, "kill a run after S seconds"),
		OPT_MEASURE_SEED(m, "block order seed of --verify"),
		OPT_MEASURE_FORMAT(m, "text, json, csv or markdown"),
		OPT_MEASURE_DB(m),
		OPT_MEASURE_NO_STORE(m, "do not store the --verify session (nor a first "
					"calibration)"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "predict",
		.usage = predict_usage,
		.about = predict_about,
		.options = options,
		.epilog = predict_epilog,
	};
	int rc;

	pcost_measure_opts_init(m);
	m->ro.warmup = 1;
	a->sargs.o = &a->svc;
	a->count_runs = 3;
	a->plain_runs = 3;
	if ((rc = pcost_parse_options(&p, argc, argv)))
		return rc;
	if (p.argc && !p.dashdash)
		return usage_error("unexpected '%s': put the command after '--'", p.argv[0]);
	if (!p.argc)
		return usage_error("no command: probecost predict -m MONITOR... -- COMMAND [ARGS]");
	if (!a->nmonitors)
		return usage_error("no monitor: give -m MONITOR (see 'probecost list monitors')");
	a->command = p.argv;
	a->ncommand = p.argc;
	if ((rc = pcost_refuse_unexecutable(NULL, a->command[0])))
		return rc;
	if (pcost_study_check_service(&a->svc))
		return PCOST_EXIT_USAGE;
	if (a->svc.service && (rc = refuse_service(a->svc.service)))
		return rc;
	a->svc.ro = a->m.ro; /* the service's CPUs and readiness timeout */
	if (!a->m.runs_given)
		a->m.ro.runs = 5;
	return 0;
}

/* Every -m names a monitor probecost knows (a custom 'CMD ARGS' too: it gets "no model"). */
static int check_monitors(const struct predict_args *a)
{
	for (size_t i = 0; i < a->nmonitors; i++) {
		char err[256];
		struct pcost_monitor *m = pcost_monitor_create(a->monitors[i], err, sizeof(err));

		if (!m)
			return usage_error("-m: %s", err);
		pcost_monitor_free(m);
	}
	return 0;
}

/*
 * This machine's table, calibrated first (--quick) when the store has none,
 * and its older tables (*older, newest first); 0 or an exit code.
 */
static int cost_table(struct predict_args *a, struct pcost_cost_table *t,
		      struct pcost_cost_table **older, size_t *nolder)
{
	char why[512] = "";
	int rc = pcost_cli_machine_costs(a->m.db, t, older, nolder, why, sizeof(why));
	struct pcost_calibrate_opts o = { 0 };

	if (rc != PCOST_COSTS_NONE)
		return rc;
	fprintf(stderr,
		"probecost predict: %s: calibrating first (probecost calibrate --quick "
		"--placement %s, 1-3 minutes)\n",
		why, a->m.ro.cpu_mask ? "pinned" : "unpinned");
	/* Only the placement predicted for: half a full calibration's time. */
	o.cpu_mask = a->m.ro.cpu_mask;
	o.placements = a->m.ro.cpu_mask ? PCOST_PLACE_PINNED : PCOST_PLACE_UNPINNED;
	o.warmup = 1;
	o.seed = (uint64_t)time(NULL);
	o.progress = isatty(2) && pcost_verbosity > 0;
	o.db = a->m.db;
	o.no_store = a->m.no_store;
	rc = pcost_cli_calibrate(&o, "quick", a->m.cpu_text, t);
	return rc == PCOST_EXIT_NOT_STORED ? 0 : rc;
}

/*
 * The costs of the placement predicted for (as run runs the command: unpinned;
 * --cpu: pinned there) into view, from the newest table that has that
 * placement; a store without them is refused with the command that measures
 * them, never priced with the other placement's.  A monitor that table lacks
 * (a later 'calibrate -m' of other monitors) is priced from the newest older
 * table of this machine that has it: from[i] says which, NULL for view's own.
 */
static int placed_costs(const struct predict_args *a, const struct pcost_cost_table *t,
			const struct pcost_cost_table *older, size_t nolder, const char *placement,
			struct pcost_cost_table *view, const struct pcost_cost_table **from)
{
	const struct pcost_cost_table *primary = t;
	size_t first = 0;

	pcost_cost_table_init(view);
	while (!pcost_cost_has_placement(primary, placement) && first < nolder)
		primary = &older[first++];
	if (!pcost_cost_has_placement(primary, placement)) {
		bool pinned = a->m.cpu_text[0];

		return usage_error(
			"cost table %lld%s has no costs measured %s%s (predict's runs are %s); "
			"measure them with 'probecost calibrate --placement %s%s%s%s'",
			(long long)t->id, nolder ? " (nor an older one of this machine)" : "",
			pinned ? "pinned to CPU " : "unpinned", pinned ? a->m.cpu_text : "",
			pinned ? "pinned by --cpu" : "unpinned, as 'probecost run' runs a command",
			pinned ? "pinned --cpu " : "unpinned", pinned ? a->m.cpu_text : "",
			a->m.db ? " --db " : "", a->m.db ? a->m.db : "");
	}
	pcost_cost_table_select(primary, placement, view);
	for (size_t i = 0; i < a->nmonitors; i++) {
		from[i] = NULL;
		for (size_t j = first;
		     j < nolder && !pcost_costs_have_monitor(view, a->monitors[i]); j++)
			if (pcost_costs_borrow(view, &older[j], a->monitors[i], placement))
				from[i] = &older[j];
	}
	return 0;
}

/* The command's counts and plain time, the predictions, then --verify's runs; the exit code. */
static int predict(struct predict_args *a, int argc, char **argv, struct pcost_cost_table *t,
		   const struct pcost_cost_table *const *from, const char *placement)
{
	struct pcost_predict_study o = { .monitors = a->monitors,
					 .nmonitors = a->nmonitors,
					 .command = a->command,
					 .ncommand = a->ncommand,
					 .count_runs = a->count_runs,
					 .plain_runs = a->plain_runs,
					 .ro = a->m.ro,
					 .seed_given = a->m.seed_given,
					 .db = a->m.db,
					 .no_store = a->m.no_store,
					 .argc = argc,
					 .argv = argv,
					 .service = a->svc.service ? &a->svc : NULL };
	struct pcost_prediction p[PCOST_STUDY_MAX_ITEMS];
	struct pcost_prediction_check checks[PCOST_STUDY_MAX_ITEMS];
	struct pcost_counts c, sc = { 0 };
	char *joined = pcost_join_argv(a->ncommand, a->command);
	struct pcost_predict_report r = { .command = joined,
					  .table = t,
					  .from = from,
					  .placement = placement,
					  .counts = &c,
					  .table_others = pcost_cli_table_others(a->m.db, t),
					  .service = a->svc.service,
					  .service_counts = a->svc.service ? &sc : NULL,
					  .count_runs = a->count_runs,
					  .plain_runs = a->plain_runs,
					  .n = a->nmonitors,
					  .p = p };
	int rc = pcost_study_predict(&o, t, &c, &sc, p);

	if (!rc && a->verify) {
		/* The prediction is printed before anything is measured under a monitor. */
		if (a->m.fmt == PCOST_FMT_TEXT && pcost_report_predict(&r, a->m.fmt, stdout) == 0)
			fflush(stdout);
		rc = pcost_study_verify(&o, p, checks, &r.verify_session);
		r.check = checks;
		/* Text: the predictions are on the screen already; only the comparison is new. */
		r.check_only = a->m.fmt == PCOST_FMT_TEXT;
	}
	if (!rc && pcost_report_predict(&r, a->m.fmt, stdout) < 0)
		rc = (error("could not print the prediction"), PCOST_EXIT_FAIL);
	else if (rc)
		rc = rc == -EINTR    ? 128 + (pcost_interrupted ? pcost_interrupted : 2)
		     : rc == -EINVAL ? PCOST_EXIT_USAGE
				     : PCOST_EXIT_FAIL;
	pcost_counts_release(&c);
	pcost_counts_release(&sc);
	free(joined);
	return rc;
}

int cmd_predict(int argc, char **argv)
{
	struct predict_args a = { 0 };
	struct pcost_cost_table t, view, *older = NULL;
	const struct pcost_cost_table *from[PCOST_STUDY_MAX_ITEMS];
	size_t nolder = 0;
	char *placement;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if ((rc = check_monitors(&a)))
		return rc;
	if ((rc = cost_table(&a, &t, &older, &nolder))) {
		pcost_cost_table_release(&t);
		pcost_cost_tables_free(older, nolder);
		return rc;
	}
	placement = pcost_cost_placement(a.m.cpu_text);
	if (!(rc = placed_costs(&a, &t, older, nolder, placement, &view, from)))
		rc = predict(&a, argc, argv, &view, from, placement);
	free(placement);
	pcost_cost_table_release(&view);
	pcost_cost_table_release(&t);
	pcost_cost_tables_free(older, nolder);
	return rc;
}
