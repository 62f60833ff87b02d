// SPDX-License-Identifier: MIT
/* main: the subcommand table and nothing else clever. */
#include <stdio.h>
#include <string.h>

#include "core/cleanup.h"
#include "core/safepath.h"
#include "cmd/cmd.h"
#include "core/util.h"

static const struct pcost_command commands[] = {
	{ "run", cmd_run, "measure what each monitor costs a workload or your command" },
	{ "counters", cmd_counters, "cost of starting, stopping and reading performance counters" },
	{ "probes", cmd_probes, "cost of a static user probe (SDT/USDT), dormant and armed" },
	{ "calibrate", cmd_calibrate,
	  "measure this machine's cost table (cost per event of each monitor)" },
	{ "costs", cmd_costs,
	  "print the stored cost tables: this machine's, or a fleet's side by side" },
	{ "predict", cmd_predict,
	  "predict what each monitor will cost a command, before running it" },
	{ "workload", cmd_workload, "run one built-in workload (what monitors wrap)" },
	{ "list", cmd_list,
	  "list workloads, monitors, counters, probe methods, with availability" },
	{ "env", cmd_env, "print the machine fingerprint and warnings" },
	{ "history", cmd_history, "list stored sessions" },
	{ "show", cmd_show, "print a stored session again" },
	{ "compare", cmd_compare, "compare two stored sessions" },
	{ "report", cmd_report, "render a stored session (formats, plots)" },
	{ "export", cmd_export, "write a stored session as JSON" },
	{ "import", cmd_import, "read sessions exported elsewhere into the store" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: probecost [-q|-v] COMMAND [ARGS]\n"
		     "       probecost COMMAND --help\n"
		     "       probecost --version\n\n"
		     "probecost measures the probe effect: what monitoring, tracing and probing\n"
		     "cost the programs they watch.\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\nexit status: 0 success, 1 runtime failure, 2 bad usage or bad input,\n"
		"3 measured but not stored (run, counters, probes), 128+N interrupted by signal N\n");
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q"))
			pcost_verbosity = 0;
		else if (!strcmp(argv[i], "-v"))
			pcost_verbosity = 2;
		else if (!strcmp(argv[i], "--version")) {
			printf("probecost %s\n", PCOST_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			return usage_error("unknown option '%s'; see 'probecost --help'", argv[i]);
		}
	}
	if (i >= argc) {
		usage(stderr);
		return PCOST_EXIT_USAGE;
	}
	for (size_t c = 0; c < ARRAY_SIZE(commands); c++) {
		if (!strcmp(commands[c].name, argv[i])) {
			char dropped[512];
			int rc;

			pcost_command = commands[c].name;
			pcost_cleanup_init();
			if (pcost_path_secure(dropped, sizeof(dropped)))
				warning("left out of $PATH, as users other than root can change "
					"them: %s (give a program's full path to run it from there)",
					dropped);
			rc = commands[c].fn(argc - i, argv + i);
			fflush(stdout);
			return rc < 0 ? PCOST_EXIT_FAIL : rc;
		}
	}
	return usage_error("'%s' is not a probecost command; see 'probecost --help'", argv[i]);
}
