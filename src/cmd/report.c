// SPDX-License-Identifier: MIT
/* cmd/report: render a stored session in any format, and plot it. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/cleanup.h"
#include "core/util.h"
#include "report/format.h"
#include "report/plot.h"
#include "report/report.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: probecost report ID|last [--db PATH] [--format text|json|csv|markdown|html]\n"
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
		"                    --plot alone only the plot is written.\n");
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

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "plot", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum pcost_format fmt = PCOST_FMT_TEXT;
	const char *db_opt = NULL, *plot = NULL, *outpath = NULL;
	bool want_report = false;
	struct pcost_session s;
	char err[256];
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db_opt = optarg;
			break;
		case 'f':
			if (pcost_format_parse_page(optarg, &fmt))
				return usage_error("report: --format '%s' is not valid: text, json, csv, "
						   "markdown or html", optarg);
			want_report = true;
			break;
		case 'o':
			outpath = optarg;
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
	if (outpath && write_report(&s, fmt, outpath))
		rc = PCOST_EXIT_FAIL;
	else if (!outpath && (!plot || want_report) && pcost_cli_render(&s, fmt))
		rc = PCOST_EXIT_FAIL;
	pcost_session_release(&s);
	return rc;
}
