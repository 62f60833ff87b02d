// SPDX-License-Identifier: MIT
/* cmd/cmd-workload: run one built-in workload; report facts on PROBECOST_REPORT_FD, or print them with --print. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/parse-options.h"
#include "core/cleanup.h"
#include "run/runner.h"
#include "workloads/process.h"
#include "workloads/workload.h"

static void print_params(const struct pcost_workload *w, FILE *out)
{
	const struct pcost_param_desc *d;

	for (d = w->params; d && d->key; d++) {
		char def[64];

		pcost_param_value_format(d, d->def, def, sizeof(def));
		if (d->type == PCOST_PARAM_ENUM) {
			fprintf(out, "    %-8s %s (one of %s; default %s)\n", d->key, d->help,
				d->choices, def);
		} else if (d->type == PCOST_PARAM_SYSCALL) {
			fprintf(out, "    %-8s %s (default %s)\n", d->key, d->help, def);
		} else if (d->type == PCOST_PARAM_TEXT) {
			fprintf(out, "    %-8s %s\n", d->key, d->help);
		} else {
			fprintf(out, "    %-8s %s (%llu-%llu; default %llu)\n", d->key, d->help,
				(unsigned long long)d->min, (unsigned long long)d->max,
				(unsigned long long)d->def);
		}
	}
}

static void list_workloads(FILE *out)
{
	const struct pcost_workload *w;

	fprintf(out, "\nworkloads:\n");
	for_each_workload(w) {
		fprintf(out, "  %-10s %s [unit: %s]\n", w->name, w->summary, w->unit);
		print_params(w, out);
	}
}

/* The workload whose --help is printed (more_help takes no context). */
static const struct pcost_workload *help_workload;

static void list_params(FILE *out)
{
	fprintf(out, "\nparameters:\n");
	print_params(help_workload, out);
}

static const char *const workload_usage[] = { "workload NAME [key=value ...] [--print]", NULL };

#define PRINT_HELP "print a human line instead (total time, usecs/op, ops/sec)"

/*
 * `run --placement split` starts the tracer on one CPU and has the workload
 * move itself to another, before any work: a CPU list in the environment.
 */
static int pin_from_env(void)
{
	const char *cpus = getenv(PCOST_WORKLOAD_CPUS_ENV);
	uint64_t mask;
	int rc;

	if (!cpus || !*cpus)
		return 0;
	if (pcost_parse_cpulist(cpus, &mask) < 0 || !mask)
		return usage_error("%s='%s': expected a CPU list like 0 or 0,2",
				   PCOST_WORKLOAD_CPUS_ENV, cpus);
	if ((rc = pcost_pin_mask(mask)) < 0)
		return error("could not move to CPUs %s: %s", cpus, strerror(-rc)), PCOST_EXIT_FAIL;
	return 0;
}

int cmd_workload(int argc, char **argv)
{
	const struct pcost_workload *w;
	struct pcost_params params;
	struct pcost_wl_result res = { 0 };
	char err[512], desc[512];
	bool print = false;
	const struct pcost_option options[] = {
		OPT_BOOL(0, "print", &print, PRINT_HELP),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "workload",
		.usage = workload_usage,
		.about = "Runs one built-in workload.  When PROBECOST_REPORT_FD names an open\n"
			 "descriptor it writes one line there: events=N unit=UNIT timed_ns=T\n"
			 "(work done, its unit, nanoseconds of the timed region, setup excluded),\n"
			 "check=ok|bad (its check of its own result) and more facts; a fatal\n"
			 "signal writes signal=NAME ... ip=... there instead.  Exit 1 when the\n"
			 "check fails (its facts are still reported).",
		.options = options,
		.more_help = list_workloads,
	};
	int nargs = 0, rc;
	char **args;

	/* A signal noted by probecost's own handler before this one was set ends it now. */
	pcost_wl_end_on_signals();
	if (pcost_interrupted)
		raise(pcost_interrupted);
	if (argc < 2)
		return pcost_usage_with_options(&p, stderr), PCOST_EXIT_USAGE;
	/* Only these go before NAME: any other word there is a workload's name. */
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "--list-options"))
		return pcost_parse_options(&p, 2, argv) == PCOST_OPTS_HELP ? 0 : PCOST_EXIT_USAGE;
	w = pcost_workload_find(argv[1]);
	if (!w) {
		char names[256] = "";
		const struct pcost_workload *x;

		for_each_workload(x) {
			strncat(names, *names ? ", " : "", sizeof(names) - strlen(names) - 1);
			strncat(names, x->name, sizeof(names) - strlen(names) - 1);
		}
		return usage_error("unknown workload '%s' (known: %s)", argv[1], names);
	}
	{
		char usage_line[128], about[512], bad[128];
		const char *const one_usage[] = { usage_line, NULL };
		const struct pcost_option one_options[] = {
			OPT_BOOL(0, "print", &print, PRINT_HELP),
			OPT_END(),
		};
		struct pcost_parse one = {
			.cmd = "workload",
			.usage = one_usage,
			.about = about,
			.options = one_options,
			.more_help = list_params,
			.bad_option = bad,
			.permute = true,
		};

		snprintf(usage_line, sizeof(usage_line), "workload %s [key=value ...] [--print]",
			 w->name);
		snprintf(about, sizeof(about), "%s [unit: %s]", w->summary, w->unit);
		snprintf(bad, sizeof(bad), "workload %s: unknown option", w->name);
		help_workload = w;
		/* argv[1], the workload's name, stands where the command's would. */
		if ((rc = pcost_parse_options(&one, argc - 1, argv + 1)))
			return rc == PCOST_OPTS_HELP ? 0 : rc;
		args = one.argv;
		nargs = one.argc;
	}
	rc = pcost_params_parse(w, nargs, args, &params, err, sizeof(err));
	if (rc < 0)
		return usage_error("%s", err);
	if (w->available && !w->available(err, sizeof(err)))
		return error("workload %s cannot run here: %s", w->name, err), PCOST_EXIT_FAIL;

	if ((rc = pin_from_env()) != 0)
		return rc;
	pcost_wl_name_self(w->name);
	pcost_wl_report_faults();
	rc = w->run(&params, &res);
	/* A failure without a check is said already; a bad check still reports its facts. */
	if (rc < 0 && res.check >= 0)
		return PCOST_EXIT_FAIL;
	rc = pcost_workload_report(w, &res);
	if (rc < 0)
		return error("could not write the report to PROBECOST_REPORT_FD: %s",
			     strerror(-rc)),
		       PCOST_EXIT_FAIL;
	if (res.check < 0)
		return error("workload %s failed its own check: %s", w->name, res.check_why),
		       PCOST_EXIT_FAIL;
	if (print) {
		double secs = (double)res.timed_ns / 1e9;

		pcost_params_format(&params, desc, sizeof(desc));
		printf("# workload %s: %s\n", w->name, desc);
		printf("     Total time: %.3f [sec]\n", secs);
		if (res.events) {
			printf("\n     %14.6f usecs/op\n",
			       (double)res.timed_ns / 1e3 / (double)res.events);
			printf("     %14.0f ops/sec (%s)\n",
			       secs > 0 ? (double)res.events / secs : 0.0, w->unit);
		}
		if (strcmp(w->unit, "none"))
			printf("     %llu %s%s%s\n", (unsigned long long)res.events, w->unit,
			       res.events == 1 ? "" : "s", res.extra);
		if (res.check)
			printf("     check: ok\n");
	}
	return 0;
}
