// SPDX-License-Identifier: MIT
/* cmd/cmd-report: render a stored session in any format, and plot it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd-options.h"
#include "core/cleanup.h"
#include "core/util.h"
#include "core/format.h"
#include "report/plot.h"
#include "report/report.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: probecost report ID|last [--db PATH|URL] [--format text|json|csv|markdown|html]\n"
		"                        [-o FILE] [--plot FILE.svg|png|pdf]\n\n"
		"Regenerates a stored session's report from its raw samples, as the live\n"
		"command printed it.\n\n"
		"  --format html     one self-contained page: headline, environment and its\n"
		"                    warnings, every table, the figures as inline SVG\n"
		"  -o, --output FILE write the report to FILE (whole or not at all)\n"
		"  --plot FILE       draw the session's first figure, by the file's extension:\n"
		"                    a scale session's extra time against events with the\n"
		"                    fitted line; run: overhead per monitor with 95%% interval\n"
		"                    whiskers; probes: cost per hit by method and build;\n"
		"                    counters: cost against the number of events.  With\n"
		"                    --plot alone only the plot is written.\n" PCOST_DB_HELP);
}

/* The temporary file of -o, removed on every exit path until it is renamed into place. */
static char tmp_path[4096];

static void unlink_tmp(void *arg)
{
	unlink(tmp_path);
}

/* Write the report to a temporary file beside path, then rename it over path. */
static int write_report(const struct pcost_session *s, enum pcost_format fmt, const char *path)
{
	int fd, handle, rc;
	FILE *f;

	if (snprintf(tmp_path, sizeof(tmp_path), "%s.XXXXXX", path) >= (int)sizeof(tmp_path))
		return error("could not write '%s': the name is too long", path);
	if ((fd = mkstemp(tmp_path)) < 0)
		return error("could not write '%s': %s", path, strerror(errno));
	handle = pcost_cleanup_push(unlink_tmp, NULL);
	/* As fopen would create it: 0666 less the umask (mkstemp makes 0600). */
	mode_t um = umask(0);

	umask(um);
	fchmod(fd, 0666 & ~um);
	f = fdopen(fd, "w");
	rc = f ? pcost_report_session(s, fmt, f) : -errno;
	if (f && fclose(f) && !rc)
		rc = -errno;
	if (!f)
		close(fd);
	if (!rc && rename(tmp_path, path))
		rc = -errno;
	pcost_cleanup_pop(handle, rc != 0);
	if (rc)
		return error("could not write session %lld to '%s': %s", (long long)s->id, path,
			     strerror(-rc));
	info("wrote %s", path);
	return 0;
}

/* The options of report besides the shared ones: --plot FILE, -o FILE. */
struct report_opts {
	const char *plot, *outpath;
};

/* --plot FILE (ctx: const char **), for report and compare. */
int pcost_plot_opt(int c, const char *arg, void *ctx)
{
	const char **plot = ctx;

	(void)c;
	if (pcost_plot_format_of(arg) < 0)
		return usage_error("--plot FILE must end in .svg, .png or .pdf, not '%s'", arg);
	*plot = arg;
	return 0;
}

static int report_opt(int c, const char *arg, void *ctx)
{
	struct report_opts *ro = ctx;

	if (c == 'o') {
		ro->outpath = arg;
		return 0;
	}
	return pcost_plot_opt(c, arg, &ro->plot);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "plot", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ 0 },
	};
	struct report_opts ro = { 0 };
	struct pcost_store_opts o = {
		.cmd = "report",
		.formats = PCOST_FMT_ROWS | PCOST_FMT_BIT(PCOST_FMT_HTML),
		.usage = usage,
		.args = "one session id",
		.min_args = 1,
		.max_args = 1,
		.extra = opts,
		.extra_short = "o:",
		.on_opt = report_opt,
		.ctx = &ro,
	};
	struct pcost_session s;
	char err[256];
	int rc;

	if ((rc = pcost_store_opts_parse(&o, argc, argv)))
		return rc == PCOST_OPTS_HELP ? 0 : rc;
	if ((rc = pcost_cli_load_from(o.db, o.argv[0], &s)))
		return rc;
	pcost_cli_level(o.db, &s);
	if (ro.plot) {
		if (pcost_plot_session(&s, ro.plot, err, sizeof(err))) {
			error("could not plot session %lld to '%s': %s", (long long)s.id, ro.plot,
			      err);
			rc = PCOST_EXIT_FAIL;
		} else {
			info("wrote %s", ro.plot);
		}
	}
	if (ro.outpath && write_report(&s, o.fmt, ro.outpath))
		rc = PCOST_EXIT_FAIL;
	else if (!ro.outpath && (!ro.plot || o.fmt_given) && pcost_cli_render(&s, o.fmt))
		rc = PCOST_EXIT_FAIL;
	pcost_session_release(&s);
	return rc;
}
