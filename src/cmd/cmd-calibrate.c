// SPDX-License-Identifier: MIT
/*
 * cmd/cmd-calibrate: measure this machine's cost table (run/calibrate.h) and
 * store it with the machine's fingerprint, for `costs` and `predict`.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-cost-table.h"
#include "cmd/cmd-measure-opts.h"
#include "cmd/cmd-options.h"
#include "report/report.h"

static const char usage_text[] =
	"usage: probecost calibrate [--quick | --thorough] [-m MONITOR]... [options]\n"
	"\n"
	"Measures this machine's cost table -- what each monitor costs per syscall,\n"
	"context switch, task created, sample and run, what each probe arming method\n"
	"costs per hit and each counter interface per read, each with its 95% interval\n"
	"-- and stores it with the machine's fingerprint for 'probecost costs' and\n"
	"'probecost predict'.  Every run is pinned (--cpu, default 0), each monitor\n"
	"against plain runs of the same workload in the same interleaved block.\n"
	"\n"
	"  --quick            the default: the syscall tracers (strace, strace-seccomp,\n"
	"                     perf-trace, bpftrace-syscalls, tracepoint-syscalls) with\n"
	"                     syscalls by class, tasks and execs, perf-stat, perf-record at\n"
	"                     4000 Hz, the uprobe and bpftrace probe methods at nop and nop5\n"
	"                     sites, the counter interfaces; 5 blocks, 1-3 minutes on 2 CPUs\n"
	"  --thorough         also perf-record at 999 and 99 Hz and every probe method at\n"
	"                     nop, nop5 and nop10; 10 blocks\n"
	"  -m, --monitor M    only this monitor's terms (repeatable; no probes or counters),\n"
	"                     e.g. -m strace or the known answer -m inject:event=2000,fixed=0\n"
	"  -r, --runs N       measured blocks (default 5, --thorough 10)\n"
	"      --warmup N     warm-up blocks discarded (default 1)\n"
	"      --cpu LIST     pin every run to these CPUs (default 0)\n"
	"      --seed N       block order seed (default: from the clock)\n"
	"      --format F     print the table: text, json, csv or markdown\n"
	"      --db PATH|URL  the store: an SQLite file or a postgresql:// URL (default\n"
	"                     $PROBECOST_DB, else $XDG_DATA_HOME/probecost/probecost.db)\n"
	"      --no-store     measure and print, store nothing\n"
	"\n"
	"exit status: 0 measured and stored; 1 nothing could be measured; 2 bad usage;\n"
	"3 measured but not stored; 128+N interrupted by signal N (nothing stored).\n";

enum { OPT_QUICK = 256, OPT_THOROUGH, OPT_HELP };

static const struct option own_longopts[] = {
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "thorough", no_argument, NULL, OPT_THOROUGH },
	{ "monitor", required_argument, NULL, 'm' },
	{ "runs", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static const enum pcost_mopt shared_opts[] = {
	PCOST_MOPT_WARMUP, PCOST_MOPT_CPU, PCOST_MOPT_SEED,
	PCOST_MOPT_FORMAT, PCOST_MOPT_DB,  PCOST_MOPT_NO_STORE,
};

struct cal_args {
	struct pcost_measure_opts m;
	struct pcost_calibrate_opts o;
	bool quick;
	char **argv;
};

static int one_option(int c, void *ctx)
{
	struct cal_args *a = ctx;
	char why[320];

	switch (c) {
	case OPT_QUICK:
		a->quick = true;
		return 0;
	case OPT_THOROUGH:
		a->o.thorough = true;
		return 0;
	case 'm':
		if (a->o.nmonitors >= PCOST_CALIBRATE_MAX_MONITORS)
			return usage_error("too many -m (at most %d)",
					   PCOST_CALIBRATE_MAX_MONITORS);
		if (!pcost_calibrate_monitor_ok(optarg, why, sizeof(why)))
			return usage_error("-m: %s", why);
		a->o.monitors[a->o.nmonitors++] = optarg;
		return 0;
	case 'r':
		return pcost_measure_opt(&a->m, PCOST_MOPT_RUNS, optarg);
	case OPT_HELP:
		fputs(usage_text, stdout);
		return -1;
	default:
		return pcost_measure_opt_rest(&a->m, c, optarg, "calibrate", a->argv);
	}
}

static int parse_args(int argc, char **argv, struct cal_args *a)
{
	int rc;

	memset(a, 0, sizeof(*a));
	pcost_measure_opts_init(&a->m);
	a->m.ro.warmup = 1;
	a->argv = argv;
	rc = pcost_measure_parse(argc, argv, own_longopts, "m:r:", shared_opts,
				 ARRAY_SIZE(shared_opts), one_option, a);
	if (rc)
		return rc;
	if (optind < argc)
		return usage_error("unexpected '%s': calibrate takes options only", argv[optind]);
	if (a->quick && a->o.thorough)
		return usage_error("give --quick or --thorough, not both");
	if (!a->m.ro.cpu_mask) {
		a->m.ro.cpu_mask = 1;
		snprintf(a->m.cpu_text, sizeof(a->m.cpu_text), "0");
	}
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct cal_args a;
	struct pcost_cost_table t;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
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
