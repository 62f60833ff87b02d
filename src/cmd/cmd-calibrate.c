// SPDX-License-Identifier: MIT
/*
 * cmd/cmd-calibrate: measure this machine's cost table (run/calibrate.h) and
 * store it with the machine's fingerprint, for `costs` and `predict`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-costs-machine.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-options.h"
#include "cmd/parse-options.h"
#include "report/report.h"

static const char *const calibrate_usage[] = {
	"calibrate [--quick | --thorough] [-m MONITOR]... [options]",
	NULL,
};

static const char calibrate_about[] =
	"Measures this machine's cost table -- what each monitor costs per syscall,\n"
	"context switch, task created, sample and run, what each probe arming method\n"
	"costs per hit and each counter interface per read, each with its 95% interval\n"
	"-- and stores it with the machine's fingerprint for 'probecost costs' and\n"
	"'probecost predict'.  Each monitor term is measured under both placements a\n"
	"run can have -- unpinned (the scheduler's choice, as 'probecost run' runs a\n"
	"command or a service) and pinned (--cpu, default 0) -- and each entry says\n"
	"which; each monitor against plain runs of the same workload in the same\n"
	"interleaved block.";

static const char calibrate_epilog[] =
	"exit status: 0 measured and stored; 1 nothing could be measured; 2 bad usage;\n"
	"3 measured but not stored; 128+N interrupted by signal N (nothing stored).";

struct cal_args {
	struct pcost_measure_opts m;
	struct pcost_calibrate_opts o;
	bool quick;
};

/* -m MONITOR: one calibrate measures the terms of (run/calibrate.h). */
static int monitor_opt(const struct pcost_option *opt, const char *arg)
{
	struct pcost_calibrate_opts *o = opt->value;
	char why[320];

	if (o->nmonitors >= PCOST_CALIBRATE_MAX_MONITORS)
		return usage_error("too many -m (at most %d)", PCOST_CALIBRATE_MAX_MONITORS);
	if (!pcost_calibrate_monitor_ok(arg, why, sizeof(why)))
		return usage_error("-m: %s", why);
	o->monitors[o->nmonitors++] = arg;
	return 0;
}

/* --placement unpinned,pinned: the placements each monitor term is measured under. */
static int placement_opt(const struct pcost_option *opt, const char *arg)
{
	struct pcost_calibrate_opts *o = opt->value;
	char *copy = xstrdup(arg), *save = NULL;

	o->placements = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "unpinned")) {
			o->placements |= PCOST_PLACE_UNPINNED;
		} else if (!strcmp(w, "pinned")) {
			o->placements |= PCOST_PLACE_PINNED;
		} else {
			o->placements = 0;
			break;
		}
	}
	free(copy);
	if (!o->placements)
		return usage_error("--placement '%s': expected unpinned, pinned or "
				   "unpinned,pinned",
				   arg);
	return 0;
}

/* Into a (zeroed by the caller); 0, PCOST_OPTS_HELP after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct cal_args *a)
{
	struct pcost_measure_opts *m = &a->m;
	const struct pcost_option options[] = {
		OPT_BOOL(0, "quick", &a->quick,
			 "the default: the syscall tracers (strace, strace-seccomp,\n"
			 "perf-trace, bpftrace-syscalls, tracepoint-syscalls) with\n"
			 "syscalls by class, tasks and execs, perf-stat, perf-record at\n"
			 "4000 Hz, the uprobe and bpftrace probe methods at nop and nop5\n"
			 "sites, the counter interfaces; 5 blocks, 2-5 minutes on 2 CPUs"),
		OPT_BOOL(0, "thorough", &a->o.thorough,
			 "also perf-record at 999 and 99 Hz and every probe method at\n"
			 "nop, nop5 and nop10; 10 blocks"),
		OPT_CALLBACK('m', "monitor", &a->o, "M",
			     "only this monitor's terms (repeatable; no probes or counters),\n"
			     "e.g. -m strace or the known answer -m inject:event=2000,fixed=0",
			     monitor_opt),
		OPT_CALLBACK(0, "placement", &a->o, "LIST",
			     "unpinned,pinned (the default): measure each monitor term\n"
			     "unpinned (as 'probecost run' runs a command) and pinned to\n"
			     "--cpu; one of them alone takes half the time",
			     placement_opt),
		OPT_MEASURE_RUNS(m, "measured blocks (default 5, --thorough 10)"),
		OPT_MEASURE_WARMUP(m, "warm-up blocks discarded (default 1)"),
		OPT_MEASURE_CPU(m, "the pinned placement's CPUs (default 0)"),
		OPT_MEASURE_SEED(m, "block order seed (default: from the clock)"),
		OPT_MEASURE_FORMAT(m, "print the table: text, json, csv or markdown"),
		OPT_MEASURE_DB(m),
		OPT_MEASURE_NO_STORE(m, "measure and print, store nothing"),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "calibrate",
		.usage = calibrate_usage,
		.about = calibrate_about,
		.options = options,
		.epilog = calibrate_epilog,
	};
	int rc;

	pcost_measure_opts_init(m);
	m->ro.warmup = 1;
	if ((rc = pcost_parse_options(&p, argc, argv)))
		return rc;
	if (p.argc)
		return usage_error("unexpected '%s': calibrate takes options only", p.argv[0]);
	if (a->quick && a->o.thorough)
		return usage_error("give --quick or --thorough, not both");
	if (!m->ro.cpu_mask) {
		m->ro.cpu_mask = 1;
		snprintf(m->cpu_text, sizeof(m->cpu_text), "0");
	}
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct cal_args a = { 0 };
	struct pcost_cost_table t;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	a.o.cpu_mask = a.m.ro.cpu_mask;
	a.o.runs = a.m.runs_given ? a.m.ro.runs : 0;
	a.o.warmup = a.m.ro.warmup;
	a.o.seed = a.m.seed_given ? a.m.ro.seed : (uint64_t)time(NULL);
	a.o.progress = isatty(2) && pcost_verbosity > 0;
	a.o.db = a.m.db;
	a.o.no_store = a.m.no_store;
	rc = pcost_cli_calibrate(&a.o,
				 a.o.nmonitors	? "custom"
				 : a.o.thorough ? "thorough"
						: "quick",
				 a.m.cpu_text, &t);
	if ((rc == 0 || rc == PCOST_EXIT_NOT_STORED) && t.n &&
	    pcost_report_costs(&t, 1, a.m.fmt, stdout) < 0)
		rc = error("could not print the cost table");
	pcost_cost_table_release(&t);
	return rc < 0 ? PCOST_EXIT_FAIL : rc;
}
