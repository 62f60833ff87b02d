// SPDX-License-Identifier: MIT
/* cmd/cmd-report: render a stored session in any format, and plot it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "core/safepath.h"
#include "core/util.h"
#include "core/format.h"
#include "report/plot.h"
#include "report/report.h"

static const char *const report_usage[] = {
	"report ID|last [--db PATH|URL] [--format text|json|csv|markdown|html]\n"
	"                        [-o FILE] [--plot FILE.svg|png|pdf]",
	NULL,
};

/* Write the report to a temporary file beside path, then rename it over path. */
static int write_report(const struct pcost_session *s, enum pcost_format fmt, const char *path)
{
	struct pcost_outfile of;
	int rc = pcost_outfile_open(&of, path), crc;

	if (rc < 0)
		return error("could not write '%s': %s", path, strerror(-rc));
	rc = pcost_report_session(s, fmt, of.f);
	crc = pcost_outfile_commit(&of, !rc);
	if ((rc = rc ? rc : crc))
		return error("could not write session %lld to '%s': %s", (long long)s->id, path,
			     strerror(-rc));
	info("wrote %s", path);
	return 0;
}

int pcost_plot_opt(const struct pcost_option *opt, const char *arg)
{
	if (pcost_plot_format_of(arg) < 0)
		return usage_error("--plot FILE must end in .svg, .png or .pdf, not '%s'", arg);
	*(const char **)opt->value = arg;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	const char *plot = NULL, *outpath = NULL;
	struct pcost_store_opts o = { .args = "one session id", .min_args = 1, .max_args = 1 };
	const struct pcost_option options[] = {
		OPT_STORE_FORMAT(&o, PCOST_FMT_ROWS | PCOST_FMT_BIT(PCOST_FMT_HTML),
				 "text, json, csv, markdown or html: one self-contained page:\n"
				 "headline, environment and its warnings, every table, the\n"
				 "figures as inline SVG"),
		OPT_STRING('o', "output", &outpath, "FILE",
			   "write the report to FILE (whole or not at all)"),
		OPT_CALLBACK(0, "plot", &plot, "FILE",
			     "draw the session's first figure, by the file's extension\n"
			     "(.svg, .png, .pdf): a scale session's extra time against\n"
			     "events with the fitted line; run: overhead per monitor with\n"
			     "95% interval whiskers; probes: cost per hit by method and\n"
			     "build; counters: cost against the number of events.  With\n"
			     "--plot alone only the plot is written.",
			     pcost_plot_opt),
		OPT_STORE_DB(&o),
		OPT_END(),
	};
	struct pcost_parse p = {
		.cmd = "report",
		.usage = report_usage,
		.about = "Regenerates a stored session's report from its raw samples, as the live\n"
			 "command printed it.",
		.options = options,
	};
	struct pcost_session s;
	char err[256];
	int rc;

	if ((rc = pcost_cli_parse_load(&o, &p, argc, argv, &s)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if (plot) {
		if (pcost_plot_session(&s, plot, err, sizeof(err))) {
			error("could not plot session %lld to '%s': %s", (long long)s.id, plot,
			      err);
			rc = PCOST_EXIT_FAIL;
		} else {
			info("wrote %s", plot);
		}
	}
	if (outpath && write_report(&s, o.fmt, outpath))
		rc = PCOST_EXIT_FAIL;
	else if (!outpath && (!plot || o.fmt_given) && pcost_cli_render(&s, o.fmt))
		rc = PCOST_EXIT_FAIL;
	pcost_session_release(&s);
	return rc;
}
