// SPDX-License-Identifier: MIT
/* cmd/report: render a stored session in any format, and plot it. */
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

/* --plot FILE, the one option of report (and compare) besides the shared ones. */
int pcost_plot_opt(int c, const char *arg, void *ctx)
{
	const char **plot = ctx;

	(void)c;
	if (pcost_plot_format_of(arg) < 0)
		return usage_error("--plot FILE must end in .svg, .png or .pdf, not '%s'", arg);
	*plot = arg;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "plot", required_argument, NULL, 'p' },
		{ 0 },
	};
	const char *plot = NULL;
	struct pcost_store_opts o = {
		.cmd = "report", .formats = PCOST_FMT_ALL, .usage = usage,
		.args = "one session id", .min_args = 1, .max_args = 1,
		.extra = opts, .on_opt = pcost_plot_opt, .ctx = &plot,
	};
	struct pcost_session s;
	char err[256];
	int rc;

	if ((rc = pcost_store_opts_parse(&o, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if ((rc = pcost_cli_load_from(o.db, o.argv[0], &s)))
		return rc;
	if (plot) {
		if (pcost_plot_session(&s, plot, err, sizeof(err))) {
			error("could not plot session %lld to '%s': %s", (long long)s.id, plot, err);
			rc = PCOST_EXIT_FAIL;
		} else {
			info("wrote %s", plot);
		}
	}
	if ((!plot || o.fmt_given) && pcost_cli_render(&s, o.fmt))
		rc = PCOST_EXIT_FAIL;
	pcost_session_release(&s);
	return rc;
}
