// SPDX-License-Identifier: MIT
/* cmd/report: render a stored session in any format, and plot it. */
#include <getopt.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "report/format.h"
#include "report/plot.h"
#include "core/util.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: probecost report ID|last [--db PATH] [--format text|json|csv|markdown]\n"
		"                        [--plot FILE.svg|png|pdf]\n\n"
		"Regenerates a stored session's report from its raw samples, as the live\n"
		"command printed it.  --plot draws it (run: overhead per monitor with 95%% CI\n"
		"whiskers; probes: cost per hit by method and variant; counters: cost against\n"
		"the number of events, mean and sd); with --plot alone only the plot is written.\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum pcost_format fmt = PCOST_FMT_TEXT;
	const char *db_opt = NULL, *plot = NULL;
	bool want_report = false;
	struct pcost_session s;
	char err[256];
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db_opt = optarg;
			break;
		case 'f':
			if (pcost_format_parse(optarg, &fmt))
				return usage_error("unknown --format '%s' (text, json, csv, markdown)", optarg);
			want_report = true;
			break;
		case 'p':
			if (pcost_plot_format_of(optarg) < 0)
				return usage_error("--plot FILE must end in .svg, .png or .pdf, not '%s'", optarg);
			plot = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return usage_error("report: unknown option '%s'; see 'probecost report --help'",
					   argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error("report takes one session id; see 'probecost report --help'");
	if ((rc = pcost_cli_load_from(db_opt, argv[optind], &s)))
		return rc;
	if (plot) {
		if (pcost_plot_session(&s, plot, err, sizeof(err))) {
			error("could not plot session %lld to '%s': %s", (long long)s.id, plot, err);
			rc = PCOST_EXIT_FAIL;
		} else {
			info("wrote %s", plot);
		}
	}
	if ((!plot || want_report) && pcost_cli_render(&s, fmt))
		rc = PCOST_EXIT_FAIL;
	pcost_session_release(&s);
	return rc;
}
